"""Saving through QSaveFile, failure paths included, and crash recovery."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.effects import add_shock
from battletracker.ui.files import SaveError, atomic_write, save_game
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session


def test_save_game_round_trips(session: Session, tmp_path: Path) -> None:
    target = tmp_path / "game.battle"
    save_game(session.game, target)
    assert savefile.load(target) == session.game


def test_error_inside_the_block_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "game.battle"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_write(target) as handle:
        handle.write(b"new, half written")
        raise RuntimeError("interrupted")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["game.battle"]


def test_missing_folder_is_a_clear_error(tmp_path: Path, session: Session) -> None:
    with pytest.raises(SaveError, match="nowhere"):
        save_game(session.game, tmp_path / "nowhere" / "game.battle")


def test_failed_commit_keeps_the_old_file(tmp_path: Path, session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtCore import QSaveFile

    target = tmp_path / "game.battle"
    target.write_bytes(b"old")
    monkeypatch.setattr(QSaveFile, "commit", lambda self: (self.cancelWriting(), False)[1])
    with pytest.raises(SaveError, match="could not save"):
        save_game(session.game, target)
    assert target.read_bytes() == b"old"


def test_recovery_writes_after_a_change_and_offers_it_back(qtbot: QtBot, session: Session, tmp_path: Path) -> None:
    recovery = Recovery(session, tmp_path)
    assert recovery.pending() is None
    session.apply("Shock", [add_shock("u1", 3)])
    qtbot.waitUntil(recovery.path.exists, timeout=2000)
    found = Recovery(Session(savefile.load(recovery.path)), tmp_path).pending()
    assert found is not None
    game, saved, origin = found
    assert game.unit("u1").shock == 3
    assert origin is None and saved
    recovery.discard()
    assert recovery.pending() is None


def test_broken_recovery_file_is_set_aside(session: Session, tmp_path: Path) -> None:
    recovery = Recovery(session, tmp_path)
    recovery.path.write_bytes(b"{not json")
    assert recovery.pending() is None
    assert (tmp_path / "recovery.broken.json").exists()
