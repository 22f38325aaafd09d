"""The demos shipped with the app open as untitled copies: Save asks where and never overwrites them."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.rules.tables import resources_dir
from battletracker.ui.files import is_shipped
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session


def window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    session = Session(savefile.load(demo_path()))
    win = MainWindow(session, Recovery(session, tmp_path / "recovery"))
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.show()
    qtbot.waitExposed(win)
    with qtbot.waitActive(win):
        win.activateWindow()
    return win


@pytest.mark.parametrize("name", ["armour_battles.json", "chain_of_command.json", "necromunda.json"])
def test_ctrl_s_on_an_opened_demo_asks_where_and_leaves_the_demo_alone(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    demo = resources_dir() / "demo" / name
    before = demo.read_bytes()
    win = window(qtbot, tmp_path)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *_a, **_k: (str(demo), ""))
    win.open_action.trigger()                       # File > Open... on the demo
    assert win.session.path is None
    assert "not saved" in win.windowTitle()
    win.end_phase_action.trigger()                  # play a little
    assert win.session.modified

    asked: list[str] = []
    mine = tmp_path / "my game.battle"

    def save_dialog(_parent: object, _title: str, start: str, *_a: object, **_k: object) -> tuple[str, str]:
        asked.append(start)
        return str(mine), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_dialog)
    qtbot.keyClick(win, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert len(asked) == 1
    assert not is_shipped(Path(asked[0]))           # the dialog does not start on the demo either
    assert demo.read_bytes() == before
    assert win.session.path == mine
    assert savefile.load(mine) == win.session.game


def test_a_players_own_file_still_saves_in_place(qtbot: QtBot, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    own = tmp_path / "own.battle"
    savefile.save(savefile.load(demo_path()), own)
    win = window(qtbot, tmp_path)
    assert win.files.open_path(own)
    assert win.session.path == own
    win.end_phase_action.trigger()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: pytest.fail("no dialog expected"))
    qtbot.keyClick(win, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert not win.session.modified
    assert savefile.load(own) == win.session.game


def test_every_file_in_the_resources_counts_as_shipped(tmp_path: Path) -> None:
    assert is_shipped(demo_path())
    assert is_shipped(resources_dir() / "rulesets")
    assert not is_shipped(tmp_path / "battle.battle")
