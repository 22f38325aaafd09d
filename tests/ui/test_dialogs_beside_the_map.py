"""On a 1366x768 laptop every procedure leaves the map in view: half of it at least, and its centre.

Each procedure is opened as a player opens it (a unit's actions, the Bombardments dock), its
dice are rolled with its Roll button where the table allows a roll, and then the dialog must
lie on the screen with every button in reach, and cover at most half of the map.
The unit actions come from the app's registry, so a new procedure is checked too.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint
from PySide6.QtCore import QRect
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton
from PySide6.QtWidgets import QAbstractScrollArea
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.ui.extensions import all_unit_actions
from battletracker.ui.main_window import MainWindow
from battletracker.ui.procedure_runner import ProcedureRunner
from tests.ui.test_fits_laptop_screen import DEMOS
from tests.ui.test_fits_laptop_screen import ROOM
from tests.ui.test_fits_laptop_screen import close_all
from tests.ui.test_fits_laptop_screen import laptop_screen
from tests.ui.test_fits_laptop_screen import new_dialogs
from tests.ui.test_fits_laptop_screen import open_window

__all__ = ["laptop_screen"]  # the fixture that sets the laptop's screen, used here as in its own module

SCREEN = QRect(QPoint(0, 0), ROOM)


def on_screen(widget: QWidget) -> QRect:
    return QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size())


def inside_a_scroll_area(widget: QWidget, dialog: QWidget) -> bool:
    parent = widget.parentWidget()
    while parent is not None and parent is not dialog:
        if isinstance(parent, QAbstractScrollArea):
            return True
        parent = parent.parentWidget()
    return False


def roll(qtbot: QtBot, dialog: QDialog) -> None:
    """Press every Roll button the dialog offers, as a player would once the choices are made."""
    for runner in dialog.findChildren(ProcedureRunner):
        button = runner.roll_button
        if button.isVisibleTo(dialog) and button.isEnabled():
            button.ensurePolished()
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    QApplication.processEvents()


def leaves_the_map(window: MainWindow, dialog: QDialog, name: str) -> None:
    """The dialog is on the screen, its buttons in reach, and half of the map and its centre uncovered."""
    frame = dialog.frameGeometry()
    assert SCREEN.contains(frame), f"{name} lies at {frame}, off the screen"
    for button in dialog.findChildren(QAbstractButton):
        if button.isVisibleTo(dialog) and not inside_a_scroll_area(button, dialog):
            assert SCREEN.contains(on_screen(button)), f"{name}: {button.text()!r} is off the screen"
    for area in dialog.findChildren(QAbstractScrollArea):
        if area.isVisibleTo(dialog) and not inside_a_scroll_area(area, dialog):
            assert SCREEN.contains(on_screen(area)), f"{name}: a scrolled part runs off the screen"
    view = on_screen(window.map.viewport()) & SCREEN
    covered = view & frame
    uncovered = view.width() * view.height() - covered.width() * covered.height()
    assert uncovered >= view.width() * view.height() / 2, f"{name} covers {covered} of the map's {view}"
    assert not frame.contains(view.center()), f"{name} covers the map's centre"


def check(qtbot: QtBot, window: MainWindow, opening: Callable[[], object], name: str) -> int:
    dialogs = new_dialogs(opening)
    for dialog in dialogs:
        leaves_the_map(window, dialog, name)
        roll(qtbot, dialog)
        leaves_the_map(window, dialog, f"{name}, rolled")
    close_all(dialogs)
    return len(dialogs)


def test_every_unit_action_leaves_half_the_map_in_view(qtbot: QtBot) -> None:
    checked = set()
    for demo in DEMOS:
        window = open_window(qtbot, demo)
        game = window.session.game
        for action in all_unit_actions():
            unit = next((u for u in game.units.values() if action.available(game, u)), None)
            if unit is None:
                continue
            host = window.feature_host
            if check(qtbot, window, lambda a=action.key, u=unit.id, h=host: h.run_unit_action(a, u), action.title):
                checked.add(action.key)
        window.close()
    assert {"coc.anti_tank_fire", "coc.support_fire", "ab.indirect_fire", "ab.direct_fire", "ab.close_assault",
            "necromunda.shoot"} <= checked


def test_bombardments_leave_half_the_map_in_view(qtbot: QtBot) -> None:
    from battletracker.ui.features.bombardments import BombardmentsPanel

    window = open_window(qtbot, "chain_of_command")
    panel = window.findChild(BombardmentsPanel)
    assert panel is not None
    for button in (panel.new_button, panel.sos_button, panel.building_button):
        assert check(qtbot, window, button.click, button.text())
    assert panel.place_bombardment(0, "high_explosive", 3, (24.0, 38.0), (30.0, 20.0))
    (bid,) = window.session.game.bombardments
    for opener in (panel.open_ranging, panel.open_pattern, panel.open_phase):
        assert check(qtbot, window, lambda o=opener: o(bid), opener.__name__)
    assert check(qtbot, window, lambda: panel.create_sos(0, (22.0, 38.0)), "SOS fire")
