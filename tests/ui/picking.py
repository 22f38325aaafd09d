"""Choosing a target as a player does: from the picker's list with the keyboard, or by clicking it on the map."""

from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.ui.map.view import MapView
from battletracker.ui.procedure_parts import TargetPicker
from battletracker.ui.session import Session

# The offscreen platform cannot raise a window: bringing the dialog back after a pick only warns.
NO_RAISE = "This plugin does not support raise"


def shown_map(qtbot: QtBot, session: Session) -> MapView:
    """The real map, shown, for a dialog to pick on (make it the dialog's parent so the dialog steps aside)."""
    view = MapView(session)
    qtbot.addWidget(view, before_close_func=lambda _w: session.undo_stack.setClean())
    view.resize(1000, 700)
    view.show()
    qtbot.waitExposed(view)
    return view


def choose_with_keys(qtbot: QtBot, picker: TargetPicker, unit_id: str) -> None:
    """Arrow down the picker's list until `unit_id` is chosen, as a player does with the list focused."""
    assert unit_id in picker.units(), (unit_id, picker.units())
    picker.combo.setFocus()
    if picker.current() is not None and picker.units().index(unit_id) < picker.units().index(picker.current()):
        key = Qt.Key.Key_Up
    else:
        key = Qt.Key.Key_Down
    for _ in range(picker.combo.count()):
        if picker.current() == unit_id:
            break
        qtbot.keyClick(picker.combo, key)
    assert picker.current() == unit_id


def click_on_map(qtbot: QtBot, view: MapView, picker: TargetPicker, unit_id: str,
                 dialog: QWidget | None = None) -> None:
    """Press "Pick on map", check the dialog made way, and click `unit_id`'s token; the dialog comes back."""
    qtbot.mouseClick(picker.pick_button, Qt.MouseButton.LeftButton)
    assert view.picking
    if dialog is not None:
        assert not dialog.isVisible(), "the dialog should step aside while the player picks on the map"
    unit = view.session.game.unit(unit_id)
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     view.mapFromScene(QPointF(unit.x, unit.y)))
    assert not view.picking
    if dialog is not None:
        assert dialog.isVisible(), "the dialog should come back after the pick"
