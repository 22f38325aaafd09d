"""Dragging a token repaints only what changed: the token, its readout, strips along its arc and rings."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtCore import QObject
from PySide6.QtCore import QPoint
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from battletracker.ui.map import MapView
from battletracker.ui.session import Session
from tests.ui.test_map import small_battle
from tests.ui.test_map import vp_point


class PaintRecorder(QObject):
    """The area of every region the viewport is asked to paint."""

    def __init__(self) -> None:
        super().__init__()
        self.areas: list[int] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and isinstance(event, QPaintEvent):
            self.areas.append(sum(r.width() * r.height() for r in event.region()))
        return False


@pytest.fixture
def view(qtbot: QtBot) -> MapView:
    v = MapView(Session(small_battle()))
    qtbot.addWidget(v)
    v.resize(1200, 800)
    v.show()
    qtbot.waitExposed(v)
    return v


def visibly_different(a: QImage, b: QImage) -> int:
    """Pixels (every other column) whose colour differs by more than antialiasing's rounding."""
    count = 0
    for y in range(a.height()):
        for x in range(0, a.width(), 2):
            p, q = a.pixel(x, y), b.pixel(x, y)
            if any(abs(((p >> k) & 255) - ((q >> k) & 255)) > 6 for k in (0, 8, 16)):
                count += 1
    return count


@pytest.mark.parametrize(("unit_id", "most"), [
    ("g1", 0.08),   # a section: rings at 18" and 72"
    ("mg", 0.25),   # the MG: a 45-degree arc out to 24" and its ring
])
def test_dragging_a_token_repaints_a_small_part_of_the_map_on_each_move_in_one_undo_step(
        qtbot: QtBot, view: MapView, unit_id: str, most: float) -> None:
    session = view.session
    unit = session.game.units[unit_id]
    before = (unit.x, unit.y)
    viewport = view.viewport()
    whole = viewport.width() * viewport.height()
    start = vp_point(view, unit.x, unit.y)
    recorder = PaintRecorder()
    viewport.installEventFilter(recorder)
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QApplication.processEvents()
    shares = []
    for i in range(1, 11):
        recorder.areas.clear()
        qtbot.mouseMove(viewport, start + QPoint(7 * i, 5 * i))
        QApplication.processEvents()
        shares.append(sum(recorder.areas) / whole)
    assert all(0.0 < share < most for share in shares), shares
    # what the player sees is what a full repaint would draw: nothing is left behind
    shown = QApplication.primaryScreen().grabWindow(view.winId()).toImage()
    assert visibly_different(shown, view.grab().toImage()) == 0
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start + QPoint(70, 50))
    viewport.removeEventFilter(recorder)
    assert session.undo_stack.count() == 1
    moved = session.game.units[unit_id]
    assert (moved.x, moved.y) != before
    session.undo_stack.undo()
    assert (session.game.units[unit_id].x, session.game.units[unit_id].y) == before
