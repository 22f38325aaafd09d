"""The Bombardments dock offers a Forward Observer's step only in its side's Phase, once a Phase.

Played on the demo battle in the main window: the dock's own buttons, the
toolbar's End Phase and Undo, and the dice typed or rolled in the dialogs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QDockWidget
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QToolBar
from pytestqt.qtbot import QtBot

from battletracker.model.bombardment import PhaseStamp
from battletracker.ui.features.bombardments import BombardmentsPanel
from battletracker.ui.features.bombardments.dialogs import PatternDialog
from battletracker.ui.features.bombardments.dialogs import PhaseDialog
from battletracker.ui.features.bombardments.dialogs import RangingDialog
from battletracker.ui.main_window import MainWindow
from battletracker.ui.session import Session
from tests.ui.dice_entry import command_dice_for
from tests.ui.dice_entry import type_dice
from tests.ui.windows import session_window

AIM = (24.0, 38.0)
OBSERVER = (30.0, 20.0)


@pytest.fixture
def window(qtbot: QtBot, session: Session, tmp_path: Path) -> MainWindow:
    return session_window(qtbot, tmp_path, session)


def click(qtbot: QtBot, button: QAbstractButton | None) -> None:
    """A player's click: on a button that is on screen (a rebuilt row shows once events are processed)."""
    assert button is not None
    qtbot.waitUntil(button.isVisible, timeout=20000)
    assert button.isEnabled()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def toolbar_button(window: MainWindow, name: str) -> QAbstractButton:
    toolbar = window.findChild(QToolBar, "toolbar-main")
    assert toolbar is not None
    button = toolbar.widgetForAction(getattr(window, name))
    assert isinstance(button, QAbstractButton)
    return button


def dock(window: MainWindow) -> BombardmentsPanel:
    """The Bombardments dock, brought to the front of its tabs."""
    widget = window.findChild(QDockWidget, "dock-bombardments")
    assert widget is not None
    widget.raise_()
    panel = widget.widget()
    assert isinstance(panel, BombardmentsPanel) and panel.isVisible()
    return panel


def waiting_text(panel: BombardmentsPanel, bid: str) -> str:
    label = panel.rows[bid].findChild(QLabel, "bombardment_waiting")
    return "" if label is None else label.text()


def begin(qtbot: QtBot, panel: BombardmentsPanel) -> str:
    """Germany's Forward Observer ranges on target (4 4) and places a Static hidden die."""
    assert panel.place_bombardment(0, "high_explosive", 3, AIM, OBSERVER)
    bid = next(iter(panel.session.game.bombardments))
    command_dice_for(panel.session, bid)
    click(qtbot, panel.rows[bid].buttons["range"])
    ranging = panel.dialog
    assert isinstance(ranging, RangingDialog)
    type_dice(ranging.runner, "4 4")
    click(qtbot, ranging.runner.apply_button)
    click(qtbot, panel.rows[bid].buttons["pattern"])
    pattern = panel.dialog
    assert isinstance(pattern, PatternDialog)
    pattern.choose(2, None)
    buttons = pattern.findChild(QDialogButtonBox)
    assert buttons is not None
    click(qtbot, buttons.button(QDialogButtonBox.StandardButton.Ok))
    return bid


def fire_this_phase(qtbot: QtBot, panel: BombardmentsPanel, bid: str) -> None:
    click(qtbot, panel.rows[bid].buttons["fire"])
    dialog = panel.dialog
    assert isinstance(dialog, PhaseDialog)
    click(qtbot, dialog.runner.roll_button)
    click(qtbot, dialog.runner.apply_button)


def test_fire_this_phase_is_offered_once_a_phase_and_only_in_its_sides_phase(qtbot: QtBot,
                                                                             window: MainWindow) -> None:
    panel = dock(window)
    game = window.session.game
    bid = begin(qtbot, panel)
    b = game.bombardments[bid]
    fire_this_phase(qtbot, panel, bid)
    assert (b.phases_fired, b.last_fired) == (1, PhaseStamp(1, 1))
    assert "fire" not in panel.rows[bid].buttons
    assert "Fired this Phase" in waiting_text(panel, bid)

    click(qtbot, toolbar_button(window, "end_phase_action"))
    assert game.active_side == 1
    assert "fire" not in panel.rows[bid].buttons
    assert "Waits for the Germany Phase" in waiting_text(panel, bid)

    click(qtbot, toolbar_button(window, "end_phase_action"))
    assert (game.phase, game.active_side) == (3, 0)
    assert waiting_text(panel, bid) == ""
    fire_this_phase(qtbot, panel, bid)
    assert (b.phases_fired, b.last_fired) == (2, PhaseStamp(1, 3))
    assert "fire" not in panel.rows[bid].buttons

    click(qtbot, toolbar_button(window, "undo_button_action"))
    b = game.bombardments[bid]
    assert (b.phases_fired, b.last_fired) == (1, PhaseStamp(1, 1))
    assert "fire" in panel.rows[bid].buttons and waiting_text(panel, bid) == ""


def test_a_phase_dialog_left_open_refuses_once_the_phase_ends(qtbot: QtBot, window: MainWindow) -> None:
    panel = dock(window)
    bid = begin(qtbot, panel)
    click(qtbot, panel.rows[bid].buttons["fire"])
    dialog = panel.dialog
    assert isinstance(dialog, PhaseDialog) and dialog.runner.roll_button.isEnabled()
    click(qtbot, toolbar_button(window, "end_phase_action"))
    assert dialog.problem.isVisible()
    assert dialog.problem.text() == ("It is the United States Phase: Germany's mortars, first barrage acts only in a "
                                     "Germany Phase.")
    assert not dialog.runner.isEnabled()
    click(qtbot, toolbar_button(window, "undo_button_action"))
    assert dialog.problem.isHidden() and dialog.runner.isEnabled()


def test_an_unobserved_ranging_shot_is_repeated_with_the_plus_one_in_a_later_phase(qtbot: QtBot,
                                                                                   window: MainWindow) -> None:
    panel = dock(window)
    game = window.session.game
    assert panel.place_bombardment(0, "high_explosive", 3, AIM, OBSERVER)
    bid = next(iter(game.bombardments))
    command_dice_for(panel.session, bid)
    click(qtbot, panel.rows[bid].buttons["range"])
    ranging = panel.dialog
    assert isinstance(ranging, RangingDialog)
    type_dice(ranging.runner, "1 2")
    click(qtbot, ranging.runner.apply_button)
    assert game.bombardments[bid].unobserved_attempts == 1
    assert "range" not in panel.rows[bid].buttons
    assert "Ranged this Phase" in waiting_text(panel, bid)

    click(qtbot, toolbar_button(window, "end_phase_action"))
    assert "range" not in panel.rows[bid].buttons and "Waits for the Germany Phase" in waiting_text(panel, bid)
    click(qtbot, toolbar_button(window, "end_phase_action"))
    assert panel.rows[bid].buttons["range"].text() == "Range (+1)..."
    command_dice_for(panel.session, bid)
    click(qtbot, panel.rows[bid].buttons["range"])
    ranging = panel.dialog
    assert isinstance(ranging, RangingDialog)
    res = type_dice(ranging.runner, "1 2")
    assert res is not None and (res.values["modifier"], res.values["roll"]) == (1, 4)
