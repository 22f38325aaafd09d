"""A new bombardment placed with clicks and keys in the main window: its aiming point shows on the map from the
click that sets it, and the first reminder speaks of a first ranging shot, not of ranging again."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QGraphicsItem
from pytestqt.qtbot import QtBot

from battletracker.rules.log_lines import reads_as
from battletracker.ui.session import Session
from tests.ui.test_bombardments_dock_fit import accept_with_enter
from tests.ui.test_bombardments_dock_fit import click_table
from tests.ui.test_bombardments_dock_fit import laptop_window

AIM = (24.0, 38.0)
OBSERVER = (30.0, 20.0)


def aim_labels(items: Mapping[str, QGraphicsItem]) -> list[str]:
    """The aiming points' labels the layer draws."""
    return [getattr(item, "text", lambda: "")() for key, item in items.items() if key.startswith("aim_label:")]


def test_the_aiming_point_is_drawn_as_soon_as_it_is_clicked(qtbot: QtBot, session: Session) -> None:
    window, panel = laptop_window(qtbot, session)
    layer = panel.layer
    assert layer is not None
    qtbot.mouseClick(panel.new_button, Qt.MouseButton.LeftButton)
    accept_with_enter(qtbot, panel)
    click_table(window, AIM)
    assert window.map.picking, "the Forward Observer's place is asked for next"
    assert not session.game.bombardments
    aim = layer.items.get("aim:new")
    assert aim is not None and aim.scene() is window.map.map_scene
    assert aim.sceneBoundingRect().center().toTuple() == pytest.approx(AIM, abs=0.2)
    assert aim_labels(layer.items) == ["Aiming point"]

    qtbot.keyClick(window.map, Qt.Key.Key_Escape)        # the placing is cancelled: nothing stays drawn
    assert not window.map.picking and "aim:new" not in layer.items and aim.scene() is None

    qtbot.mouseClick(panel.new_button, Qt.MouseButton.LeftButton)
    accept_with_enter(qtbot, panel)
    click_table(window, AIM)
    click_table(window, OBSERVER)
    (bid,) = session.game.bombardments
    assert "aim:new" not in layer.items and f"aim:{bid}" in layer.items
    assert aim_labels(layer.items) == ["Aiming point"]
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window.map, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert not session.game.bombardments and not aim_labels(layer.items)


def test_a_smoke_barrage_that_has_not_ranged_is_reminded_of_its_first_ranging_shot(qtbot: QtBot,
                                                                                   session: Session) -> None:
    window, panel = laptop_window(qtbot, session)
    qtbot.mouseClick(panel.new_button, Qt.MouseButton.LeftButton)
    dialog = panel.dialog
    assert dialog is not None
    qtbot.waitExposed(dialog)
    kinds = [box for box in dialog.findChildren(QComboBox) if box.findText("Smoke") >= 0]
    assert kinds
    kinds[0].setFocus()
    qtbot.keyClick(kinds[0], Qt.Key.Key_Down)
    assert kinds[0].currentText() == "Smoke"
    accept_with_enter(qtbot, panel)
    click_table(window, AIM)
    click_table(window, OBSERVER)
    (b,) = session.game.bombardments.values()
    assert b.kind == "smoke"

    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    for _ in range(2):
        qtbot.keyClick(window.map, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)   # End Phase
    QApplication.processEvents()
    lines = [window.log.model.entry(row).text for row in range(window.log.model.rowCount())]
    reminders = [line for line in lines if line.startswith("Next Phase: Germany")]
    assert reminders == ["Next Phase: Germany's mortars, first smoke barrage takes its first ranging shot"], lines


def test_a_game_saved_with_the_old_first_reminder_reads_it_as_the_new_one() -> None:
    assert reads_as("Next Phase: Germany's mortars, first smoke barrage ranges again",
                    "Next Phase: Germany's mortars, first smoke barrage takes its first ranging shot")
    assert reads_as("Next Phase: Germany bombardment b1 ranges again",
                    "Next Phase: Germany's mortars, first barrage takes its first ranging shot")
    assert not reads_as("Next Phase: Germany's mortars, first smoke barrage ranges again with +1",
                        "Next Phase: Germany's mortars, first smoke barrage takes its first ranging shot")
    assert not reads_as("Next Phase: United States' mortars, first smoke barrage ranges again",
                        "Next Phase: Germany's mortars, first smoke barrage takes its first ranging shot")


def test_two_aiming_points_on_the_table_are_told_apart_by_their_bombardments_names(
        qtbot: QtBot, session: Session) -> None:
    _window, panel = laptop_window(qtbot, session)
    layer = panel.layer
    assert layer is not None
    for side, x in ((0, 24.0), (0, 44.0)):
        session.act("coc.new_bombardment", {"side": side, "kind": "high_explosive", "phases": 3, "x": x, "y": 38.0,
                                            "observer_x": 30.0, "observer_y": 22.0})
    assert sorted(aim_labels(layer.items)) == ["Aiming point: Germany's mortars, first barrage",
                                              "Aiming point: Germany's mortars, second barrage"]
