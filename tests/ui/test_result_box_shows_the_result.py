"""After Roll, the result box shows the whole result on a 1366x768 laptop: every line of it, with Apply, without
the player scrolling the dialog or the box (the MG's result was read one line at a time, below the fold)."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtCore import QRect
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QScrollArea
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.ui.features.support_fire.dialog import FireDialog
from battletracker.ui.main_window import MainWindow
from tests.acting import ready_by_actions
from tests.ui.picking import choose_with_keys
from tests.ui.test_dialogs_beside_the_map import SCREEN
from tests.ui.test_dialogs_beside_the_map import on_screen
from tests.ui.test_fits_laptop_screen import close_all
from tests.ui.test_fits_laptop_screen import laptop_screen
from tests.ui.test_fits_laptop_screen import new_dialogs
from tests.ui.test_fits_laptop_screen import open_window

__all__ = ["laptop_screen"]

MG_TEAM = "u3"  # the demo's sMG42 team
TARGET = "u10"  # Lt. Hayes, in the open in front of it


def in_view(widget: QWidget, area: QScrollArea) -> bool:
    """The whole widget lies in the part of the dialog the scroll area shows now."""
    seen = QRect(area.viewport().mapToGlobal(QPoint(0, 0)), area.viewport().size())
    return seen.contains(on_screen(widget))


def fire_dialog(qtbot: QtBot, window: MainWindow) -> FireDialog:
    """The MG team's Fire dialog as a player reaches it: Command Dice rolled, the team activated, Fire chosen."""
    session = window.session
    ready_by_actions(session.game, MG_TEAM, lambda name, choices, dice: session.act(name, choices, dice))
    (dialog,) = new_dialogs(lambda: window.feature_host.run_unit_action("coc.support_fire", MG_TEAM))
    assert isinstance(dialog, FireDialog)
    choose_with_keys(qtbot, dialog.target_picker, TARGET)
    return dialog


def test_after_roll_every_line_of_the_mg_result_and_apply_are_in_view(qtbot: QtBot) -> None:
    window = open_window(qtbot, "chain_of_command")
    dialog = fire_dialog(qtbot, window)
    runner = dialog.runner
    assert runner is not None and runner.isVisible(), dialog.refusal.text()
    area = next(a for a in dialog.findChildren(QScrollArea) if a.parentWidget() is dialog)
    assert not in_view(runner.result_view, area), "the set-up: before the roll the result box is below the fold"
    qtbot.mouseClick(runner.roll_button, Qt.MouseButton.LeftButton)
    QApplication.processEvents()

    assert runner.result is not None
    lines = runner.result_view.toPlainText().splitlines()
    assert len(lines) >= 5, lines  # the outcome, the dice, and what they did
    box = runner.result_view
    assert box.verticalScrollBar().maximum() == 0, "the box holds every line: nothing to scroll to inside it"
    assert box.document().size().height() <= box.viewport().height()
    assert in_view(box, area), "the box is in view without the player scrolling the dialog"
    assert in_view(runner.apply_button, area) and runner.apply_button.isEnabled()
    assert SCREEN.contains(on_screen(box)) and SCREEN.contains(on_screen(runner.apply_button))
    close_all([dialog])
