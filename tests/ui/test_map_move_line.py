"""The move line and its distance end with the drag: they stayed on the map after a drag, and after Ctrl+Z too,
though the tank was back."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtCore import QPointF
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from battletracker.ui.main_window import MainWindow
from battletracker.ui.map.items import MeasureItem
from battletracker.ui.session import Session
from tests.acting import ready_side
from tests.ui.test_fits_laptop_screen import laptop_screen
from tests.ui.test_fits_laptop_screen import open_window
from tests.ui.test_map_drag_repaint import visibly_different

__all__ = ["laptop_screen"]

TANK = "u6"  # the demo's Panzer IV H


@pytest.fixture
def window(qtbot: QtBot) -> MainWindow:
    """The demo on a 1366x768 laptop, Germany's units activated to move and turn."""
    w = open_window(qtbot, "chain_of_command")
    ready_side(w.session.game, 0)
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    return w


@pytest.fixture
def session(window: MainWindow) -> Session:
    return window.session


def move_lines(window: MainWindow) -> list[MeasureItem]:
    """The move line with its distance (and any measuring line) drawn on the map now."""
    return [item for item in window.map.map_scene.items() if isinstance(item, MeasureItem) and item.isVisible()]


def left_on_screen(window: MainWindow) -> int:
    """Pixels of the map on the screen that a full repaint would not draw: what a gesture left behind."""
    QApplication.processEvents()
    viewport = window.map.viewport()
    at = viewport.mapTo(window, QPoint(0, 0))
    shown = QApplication.primaryScreen().grabWindow(window.winId(), at.x(), at.y(), viewport.width(),
                                                    viewport.height()).toImage()
    fresh = viewport.grab().toImage()
    return visibly_different(shown.convertToFormat(fresh.format()), fresh)


def drag(qtbot: QtBot, window: MainWindow, start: tuple[float, float], end: tuple[float, float]) -> None:
    """Drag with the mouse on the map's viewport, from one table point to another."""
    view = window.map
    a, b = view.mapFromScene(QPointF(*start)), view.mapFromScene(QPointF(*end))
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, a)
    for i in range(1, 7):
        qtbot.mouseMove(view.viewport(), a + (b - a) * (i / 6))
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, b)


def test_after_a_drag_and_ctrl_z_the_move_line_and_its_distance_are_gone(qtbot: QtBot, window: MainWindow,
                                                                        session: Session) -> None:
    tank = session.game.unit(TANK)
    home = (tank.x, tank.y)
    assert move_lines(window) == []
    drag(qtbot, window, home, (home[0] - 8.0, home[1] + 6.0))
    assert session.game.unit(TANK).x == pytest.approx(home[0] - 8.0, abs=0.2)
    assert move_lines(window) == [], "the move line ends with the drag"
    qtbot.keyClick(window.map, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert (session.game.unit(TANK).x, session.game.unit(TANK).y) == home
    assert move_lines(window) == [], "the tank is back: no line or distance from where it had gone"
    assert left_on_screen(window) == 0, "nothing of the line is left painted on the screen"
