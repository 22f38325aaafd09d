"""Opening a long game or exporting its report shows progress with Cancel: the window stays live, and Cancel
leaves the game on screen and any earlier export as they were."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFileDialog
from PySide6.QtWidgets import QProgressDialog
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.rules import perform
from battletracker.ui import long_work
from battletracker.ui.gc_pause import top_level_widgets
from tests.ui.test_files_and_recovery import open_window

ACTIONS = 600


def _long_game(path: Path) -> Path:
    game = savefile.load(demo_path())
    unit = next(iter(game.units))
    for i in range(ACTIONS):
        game.apply_all(perform(game, "unit.move", {"unit": unit, "x": 10.0 + i % 30, "y": 20.0}).effects)
    savefile.save(game, path)
    return path


def _progress_dialogs() -> list[QProgressDialog]:
    return [w for w in top_level_widgets() if isinstance(w, QProgressDialog) and w.objectName() == "long_work"]


def _watch_progress(qtbot: QtBot, cancel: bool) -> list[str]:
    """Once the progress dialog shows, note what it says and, with `cancel`, click its Cancel as a player would."""
    seen: list[str] = []

    def watch() -> None:
        visible = [d for d in _progress_dialogs() if d.isVisible()]
        if not visible:
            QTimer.singleShot(5, watch)
            return
        seen.append(visible[0].labelText())
        if cancel:
            button = next(b for b in visible[0].findChildren(QPushButton) if b.text() == "Cancel")
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, watch)
    return seen


@pytest.mark.parametrize("cancel", [True, False])
def test_file_open_of_a_long_game_shows_progress_and_cancel_keeps_the_game_on_screen(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cancel: bool) -> None:
    first = tmp_path / "first.battle"
    savefile.save(savefile.load(demo_path()), first)
    long = _long_game(tmp_path / "long.battle")
    win = open_window(qtbot, tmp_path / "recovery", first)
    win.show()
    qtbot.waitExposed(win)
    shown = win.session.game
    monkeypatch.setattr(long_work, "SHOW_AFTER_MS", 0)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *_a, **_k: (str(long), ""))
    seen = _watch_progress(qtbot, cancel)
    win.open_action.trigger()  # File > Open
    assert seen == ["Opening long.battle: replaying its actions to offer Undo again..."]
    assert not [d for d in _progress_dialogs() if d.isVisible()]
    if cancel:
        assert win.session.path == first and win.session.game is shown
        assert "Opening long.battle was cancelled" in win.statusBar().currentMessage()
    else:
        assert win.session.path == long
        assert win.session.undo_stack.count() == ACTIONS


@pytest.mark.parametrize("suffix", [".html", ".pdf"])
@pytest.mark.parametrize("cancel", [True, False])
def test_exporting_a_long_games_report_shows_progress_and_cancel_writes_nothing(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cancel: bool, suffix: str) -> None:
    long = _long_game(tmp_path / "long.battle")
    win = open_window(qtbot, tmp_path / "recovery", long)
    win.show()
    qtbot.waitExposed(win)
    report = tmp_path / f"report{suffix}"
    report.write_bytes(b"an earlier export")
    monkeypatch.setattr(long_work, "SHOW_AFTER_MS", 0)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(report), ""))
    seen = _watch_progress(qtbot, cancel)
    win.export_report_action.trigger()  # File > Export report...
    assert seen == [f"Writing report{suffix}: replaying the game and drawing the table at its moments..."]
    assert not [d for d in _progress_dialogs() if d.isVisible()]
    if cancel:
        assert report.read_bytes() == b"an earlier export"
        assert f"Exporting report{suffix} was cancelled: nothing was written" in win.statusBar().currentMessage()
    else:
        assert report.read_bytes().startswith(b"%PDF" if suffix == ".pdf" else b"<!DOCTYPE html")
