"""The This Phase dock says what a new player had to look up: which die each unit needs, what an activated unit
may do next and its keys, how a bombardment begins, and which Force Morale Tests are due.

Each test drives the dock as a player does (the window at 1366x768, its buttons clicked and menus opened) and
reads the words on screen, which must fit the dock without a raw key or id.
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from battletracker.ui.features.bombardments.dialogs import NewBombardmentDialog
from battletracker.ui.features.support_fire.dialog import FireDialog
from battletracker.ui.main_window import MainWindow
from tests.ui.menus import entries
from tests.ui.menus import pick
from tests.ui.test_fits_laptop_screen import clipped_labels
from tests.ui.test_this_phase import bombardments
from tests.ui.test_this_phase import click
from tests.ui.test_this_phase import roll_command_dice
from tests.ui.test_this_phase import text
from tests.ui.test_this_phase import this_phase
from tests.ui.test_this_phase import window

__all__ = ["window"]  # the fixture, shared with test_this_phase

POPUP = pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing the keyboard")
RAW = re.compile(r"\b(u\d+|b\d+|a\d+)\b|_|=")


@POPUP
def test_each_menu_entry_says_which_die_the_unit_needs_a_tank_its_commanders(qtbot: QtBot,
                                                                           window: MainWindow) -> None:
    panel = this_phase(window)
    roll_command_dice(qtbot, window, "1 2 3 5 5")
    assert ("vehicle by its commander's rank, 3 under a Junior Leader, 4 under a Senior Leader"
            in text(panel, "this_phase_how"))
    ones = entries(qtbot, panel.buttons["spend_1"])
    assert ones["spend_1_u3"] == "Activate sMG42 team (a Support Team: needs a 1)"
    assert "spend_1_u6" not in ones  # the tank is not under the 1
    threes = entries(qtbot, panel.buttons["spend_3"])
    assert threes["spend_3_u6"] == "Activate Panzer IV H (a vehicle under a Junior Leader: needs a 3)"
    combined = entries(qtbot, panel.buttons["combine"])
    assert combined["combine_1+2_u6"] == ("Activate Panzer IV H with Command Dice 1 and 2 combined "
                                          "(a vehicle under a Junior Leader: needs a 3)")
    for words in [*ones.values(), *threes.values(), *combined.values()]:
        assert not RAW.search(words), words


@POPUP
def test_after_activating_a_team_the_dock_says_what_it_may_do_next_and_its_key(qtbot: QtBot,
                                                                               window: MainWindow) -> None:
    session = window.session
    panel = this_phase(window)
    roll_command_dice(qtbot, window, "1 2 3 5 5")
    pick(qtbot, panel.buttons["spend_1"], "spend_1_u3")
    assert session.selected == "u3", "the unit just activated is the one its keys act on"
    then = text(panel, "this_phase_then_u3")
    assert then.startswith("Next: it may move, then fire (not move after firing). Move: drag its token on the map.")
    assert "Fire: Ctrl+F" in then and "keys act on the selected unit" in then
    assert not RAW.search(then.replace("Ctrl+F", ""))
    label = panel.findChild(QLabel, "this_phase_then_u3")
    assert label is not None and label.wordWrap() and label.width() <= panel.width()
    window.activateWindow()  # the menu popped up from the dock has closed: the window has the keys again
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window.map, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)  # the key the dock named
    qtbot.waitUntil(lambda: window.findChild(FireDialog) is not None)
    dialog = window.findChild(FireDialog)
    assert dialog is not None and dialog.isVisible() and dialog.windowTitle() == "Fire - sMG42 team"
    dialog.close()


def test_the_dock_says_how_a_bombardment_begins_and_its_button_opens_new_bombardment(
        qtbot: QtBot, window: MainWindow) -> None:
    panel = this_phase(window)
    roll_command_dice(qtbot, window, "1 2 3 5 5")
    begin = text(panel, "this_phase_bombardment_begin")
    assert begin.startswith("Medium Mortars come only with the missions that give them. To call them, "
                            "New bombardment... places the Forward Observer")
    assert "held 1 or a Chain of Command point" in begin
    click(qtbot, panel.buttons["new_bombardment"])
    dialog = bombardments(window).dialog
    assert isinstance(dialog, NewBombardmentDialog) and dialog.isVisible()
    note = dialog.findChild(QLabel, "bombardment_phases_note")
    assert note is not None and note.isVisible() and note.wordWrap()
    assert dialog.phases.value() == 4
    assert note.text().startswith("The document has the Forward Observer count its Phases of fire on a D6 but does "
                                  "not say how many: 4 is a default to check against your scenario or rulebook "
                                  "(Game > Ruleset settings, \"Medium Mortar bombardment: Phases of fire on the "
                                  "Forward Observer's die\")")
    assert clipped_labels(dialog) == []
    dialog.reject()
    window.session.act("game.settings", {"bombardment_phases": 5})  # what Ruleset settings' OK does
    click(qtbot, panel.buttons["new_bombardment"])
    dialog = bombardments(window).dialog
    assert isinstance(dialog, NewBombardmentDialog) and dialog.phases.value() == 5
    note = dialog.findChild(QLabel, "bombardment_phases_note")
    assert note is not None and "this game's Ruleset settings make it 5" in note.text()
    dialog.reject()
