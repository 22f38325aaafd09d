"""Removing a Pinned or sheltering unit through the window, then ending the Phase or Turn, as a player does it.

The opened file has a firing bombardment that has Pinned 1st Squad and an
unstable farmhouse that 2nd Squad holds. The player clicks the unit's card,
presses Delete, answers Yes, and ends the Phase (or the Turn). Nothing is
refused, the bombardment and the farmhouse no longer name the unit, and
undoing every step gives back the opened file byte for byte.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QToolBar
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment import Building
from battletracker.model.game import Game
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session


def _answer_next_box(qtbot: QtBot, button: QMessageBox.StandardButton, seen: list[str]) -> None:
    """Click `button` in the next message box within a second, as a player would, noting its text."""
    tries = [100]

    def click() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            seen.append(box.text())
            qtbot.mouseClick(box.button(button), Qt.MouseButton.LeftButton)
        elif tries[0] > 0:
            tries[0] -= 1
            QTimer.singleShot(10, click)

    QTimer.singleShot(0, click)


@pytest.fixture
def opened(qtbot: QtBot, demo_game: Game, tmp_path: Path) -> tuple[MainWindow, bytes]:
    game = demo_game
    game.bombardments["fo1"] = Bombardment("fo1", 0, state="firing", x=40.0, y=20.0, phases_left=3,
                                           phases_fired=1, pinned=["u7"])
    game.units["u7"].conditions = ["pinned"]
    game.buildings["bld1"] = Building("bld1", "Farmhouse", game.units["u8"].x, game.units["u8"].y,
                                      occupants=["u8"], state="unstable")
    path = tmp_path / "pinned.battle"
    savefile.save(game, path)
    session = Session(Game(sides=game.sides))
    window = MainWindow(session, Recovery(session, tmp_path / "recovery"))
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.show()
    qtbot.waitExposed(window)
    assert window.files.open_path(path)
    window.activateWindow()
    qtbot.waitActive(window)
    return window, path.read_bytes()


@pytest.mark.parametrize(("unit_id", "turn_end"), [("u7", False), ("u8", True)])
def test_removing_a_unit_then_ending_the_phase_or_turn_goes_through_and_undoes_to_the_opened_file(
        qtbot: QtBot, opened: tuple[MainWindow, bytes], unit_id: str, turn_end: bool) -> None:
    window, file_bytes = opened
    session = window.session
    card = window.cards.card(unit_id)
    assert card is not None
    qtbot.mouseClick(card, Qt.MouseButton.LeftButton)
    assert session.selected == unit_id

    seen: list[str] = []
    _answer_next_box(qtbot, QMessageBox.StandardButton.Yes, seen)
    qtbot.keyClick(window, Qt.Key.Key_Delete)
    assert seen and "Remove" in seen[0]
    game = session.game
    assert unit_id not in game.units
    assert unit_id not in game.bombardments["fo1"].pinned
    assert unit_id not in game.buildings["bld1"].occupants
    assert session.undo_stack.count() == 1

    errors: list[str] = []
    _answer_next_box(qtbot, QMessageBox.StandardButton.Yes if turn_end else QMessageBox.StandardButton.Ok, errors)
    turn, phase = game.turn, game.phase
    toolbar = window.findChild(QToolBar, "toolbar-main")
    assert toolbar is not None
    end = toolbar.widgetForAction(window.end_turn_action if turn_end else window.end_phase_action)
    qtbot.mouseClick(end, Qt.MouseButton.LeftButton)
    qtbot.wait(50)
    assert [e for e in errors if not e.startswith("In Chain of Command the Command Dice end the Turn")] == []
    assert (game.turn, game.phase) == ((turn + 1, 1) if turn_end else (turn, phase + 1))
    assert session.undo_stack.count() == 2

    undo = toolbar.widgetForAction(window.undo_button_action)
    for _ in range(2):
        qtbot.mouseClick(undo, Qt.MouseButton.LeftButton)
    assert not session.undo_stack.canUndo()
    assert savefile.dumps(session.game) == file_bytes


@pytest.mark.parametrize("turn_end", [False, True])
def test_a_file_naming_a_unit_no_longer_in_the_game_ends_the_phase_or_turn_and_undoes_to_the_file(
        qtbot: QtBot, demo_game: Game, tmp_path: Path, turn_end: bool) -> None:
    """An older version left the removed unit in the pinned list and the farmhouse; ending must not be refused."""
    game = demo_game
    game.bombardments["fo1"] = Bombardment("fo1", 0, state="firing", x=40.0, y=20.0, phases_left=3, pinned=["u99"])
    game.buildings["bld1"] = Building("bld1", "Farmhouse", 10.0, 10.0, occupants=["u99"], state="unstable")
    path = tmp_path / "left-behind.battle"
    savefile.save(game, path)
    session = Session(Game(sides=game.sides))
    window = MainWindow(session, Recovery(session, tmp_path / "recovery"))
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.show()
    qtbot.waitExposed(window)
    assert window.files.open_path(path)

    errors: list[str] = []
    _answer_next_box(qtbot, QMessageBox.StandardButton.Yes if turn_end else QMessageBox.StandardButton.Ok, errors)
    toolbar = window.findChild(QToolBar, "toolbar-main")
    assert toolbar is not None
    qtbot.mouseClick(toolbar.widgetForAction(window.end_turn_action if turn_end else window.end_phase_action),
                     Qt.MouseButton.LeftButton)
    qtbot.wait(50)
    assert [e for e in errors if not e.startswith("In Chain of Command the Command Dice end the Turn")] == []
    assert session.undo_stack.count() == 1
    table = session.game
    assert "u99" not in (table.buildings["bld1"].occupants if turn_end else table.bombardments["fo1"].pinned)
    qtbot.mouseClick(toolbar.widgetForAction(window.undo_button_action), Qt.MouseButton.LeftButton)
    assert savefile.dumps(session.game) == path.read_bytes()
