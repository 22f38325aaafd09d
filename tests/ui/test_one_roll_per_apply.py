"""One action, one roll: once a procedure dialog's result is applied, Roll, Enter table dice and Apply stay
disabled until the player asks for something else (another target, another weapon) or undoes it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battletracker.model.effects import MoveUnit
from battletracker.model.game import Game
from battletracker.ui.features.anti_tank import AntiTankDialog
from battletracker.ui.features.support_fire import FireDialog
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.session import Session

MG, SQUAD, FIRST_SQUAD, PANZER, SHERMAN, LEADER = "u3", "u8", "u7", "u6", "u11", "u5"


pytestmark = pytest.mark.usefixtures("germany_ready")


@pytest.fixture
def demo_game(demo_game: Game) -> Game:
    demo_game.terrain.clear()
    return demo_game


def click(qtbot: QtBot, button: object) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def buttons(runner: ProcedureRunner) -> tuple[bool, bool, bool]:
    return runner.roll_button.isEnabled(), runner.typed_button.isEnabled(), runner.apply_button.isEnabled()


def roll_and_apply(qtbot: QtBot, session: Session, runner: ProcedureRunner) -> None:
    assert buttons(runner) == (True, True, False)
    click(qtbot, runner.roll_button)
    assert runner.result is not None and buttons(runner) == (True, True, True)
    depth = session.undo_stack.count()
    click(qtbot, runner.apply_button)
    assert session.undo_stack.count() == depth + 1
    assert runner.locked and buttons(runner) == (False, False, False)


def stays_locked(qtbot: QtBot, session: Session, runner: ProcedureRunner) -> None:
    """Clicking again rolls and applies nothing; another change to the game does not unlock it either."""
    result, depth = runner.result, session.undo_stack.count()
    for button in (runner.roll_button, runner.typed_button, runner.apply_button):
        click(qtbot, button)
    assert runner.result is result and session.undo_stack.count() == depth
    leader = session.game.unit(LEADER)
    # any change to the game refreshes the dialog
    session.apply("Move the Leutnant", [MoveUnit(LEADER, leader.x + 1.0, leader.y, leader.facing)])
    assert runner.locked and buttons(runner) == (False, False, False)
    runner.roll_for_me()
    assert runner.result is result and not runner.apply()


def test_the_fire_dialog_fires_once_per_apply(qtbot: QtBot, session: Session) -> None:
    dialog = FireDialog(session, MG)
    qtbot.addWidget(dialog)
    assert dialog.set_target(SQUAD)
    runner = dialog.runner
    assert runner is not None
    roll_and_apply(qtbot, session, runner)
    stays_locked(qtbot, session, runner)
    assert dialog.set_target(FIRST_SQUAD)  # another target: the sMG42 team has fired this Phase
    assert "has already fired this Phase" in dialog.refusal.text() and not runner.isVisibleTo(dialog)


def test_undo_unlocks_the_fire_dialog(qtbot: QtBot, session: Session) -> None:
    dialog = FireDialog(session, MG)
    qtbot.addWidget(dialog)
    assert dialog.set_target(SQUAD)
    runner = dialog.runner
    assert runner is not None
    roll_and_apply(qtbot, session, runner)
    session.undo_stack.undo()
    assert not runner.locked and buttons(runner) == (True, True, False)


def test_the_anti_tank_dialog_fires_one_round_per_apply(qtbot: QtBot, session: Session) -> None:
    dialog = AntiTankDialog(session, PANZER)
    qtbot.addWidget(dialog)
    assert dialog.set_target(SHERMAN)
    runner = dialog.runner
    click(qtbot, runner.typed_button)  # the table's dice: 1 and 1 to hit, a miss
    qtbot.keyClicks(runner.entry, "1 1")
    click(qtbot, runner.entry_ok)
    assert runner.result is not None and runner.result.outcome == "miss"
    depth = session.undo_stack.count()
    click(qtbot, runner.apply_button)
    assert session.undo_stack.count() == depth + 1 and buttons(runner) == (False, False, False)
    stays_locked(qtbot, session, runner)
    click(qtbot, dialog.checks["firer_moved"])  # another choice: the Panzer IV has fired this Phase
    assert "has already fired this Phase" in dialog.refusal.text() and not runner.isEnabled()


def test_the_fire_dialog_fires_the_mg_at_the_sherman_as_seed_001_says(qtbot: QtBot, session: Session) -> None:
    dialog = FireDialog(session, MG)
    qtbot.addWidget(dialog)
    assert dialog.set_target(SQUAD) and dialog.runner is not None  # infantry: its own procedure
    assert dialog.runner.procedure == "coc.tripod_mg"
    assert dialog.set_target(SHERMAN)
    runner = dialog.runner
    assert runner is not None and runner.procedure == "coc.armour_save_only"
    assert "no A.P. Strike Dice" in dialog.facts.text()
    click(qtbot, runner.typed_button)  # six Armour Dice, none saving; then 1 on the Equal Hits & Saves table
    qtbot.keyClicks(runner.entry, "1 2 3 4 1 2")
    click(qtbot, runner.entry_ok)
    qtbot.keyClicks(runner.entry, "1")
    click(qtbot, runner.entry_ok)
    assert runner.result is not None and runner.result.outcome == "equal:reverse"
    click(qtbot, runner.apply_button)
    sherman = session.game.unit(SHERMAN)
    assert (sherman.shock, sherman.figures) == (1, 5)  # one Shock, no crew killed
    assert buttons(runner) == (False, False, False)
