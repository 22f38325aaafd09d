"""A game in the main window as a player has it: its features loaded and the window on screen."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from battletracker.model.game import Game
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session


def shown_window(qtbot: QtBot, tmp_path: Path, game: Game) -> MainWindow:
    """`game` in the main window, its features loaded and the window shown, recovering into `tmp_path`."""
    return session_window(qtbot, tmp_path, Session(game))


def session_window(qtbot: QtBot, tmp_path: Path, session: Session) -> MainWindow:
    """`shown_window` for a session the test holds; closed without the "save changes?" its actions would ask."""
    win = MainWindow(session, Recovery(session, tmp_path))
    win.feature_host.load()
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.show()
    qtbot.waitExposed(win)
    return win
