"""The Dice dialog: exact odds before the roll, digital or typed dice, one undo step."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.rules import get
from battletracker.rules.replay import replay_steps
from battletracker.ui.dice_dialog import DiceDialog
from battletracker.ui.session import Session
from tests.ui.refusals import assert_refusal


def test_odds_are_shown_before_rolling(qtbot: QtBot, session: Session) -> None:
    dialog = DiceDialog(session)
    qtbot.addWidget(dialog)
    dialog.dice.setValue(2)
    dialog.target.setValue(4)
    rows = dict(dialog.runner.odds_plot.rows)
    assert rows == {"0 successes": Fraction(1, 4), "1 success": Fraction(1, 2), "2 successes": Fraction(1, 4)}
    assert dialog.runner.odds_plot.table.item(1, 1).text() == "50.0%"


def test_typed_dice_are_validated_then_applied_as_one_step(qtbot: QtBot, session: Session) -> None:
    before = savefile.game_to_dict(session.game)
    dialog = DiceDialog(session)
    qtbot.addWidget(dialog)
    dialog.show()  # a shown dialog has a default button that Enter must not press
    qtbot.waitExposed(dialog)
    dialog.dice.setValue(3)
    dialog.target.setValue(5)
    runner = dialog.runner
    qtbot.mouseClick(runner.typed_button, Qt.MouseButton.LeftButton)
    assert "3 D6" in runner.prompt.text()
    runner.entry.setText("6 7 1")
    qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    assert_refusal(runner.entry_error, "7 cannot be rolled on a D6")
    assert runner.result is None
    runner.entry.setText("6 5 1")
    qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    assert runner.result is not None and runner.result.outcome == "2 successes"
    assert list(runner.result.rolls) == [("3D6", (6, 5, 1))]
    assert runner.apply_button.isEnabled()
    qtbot.mouseClick(runner.apply_button, Qt.MouseButton.LeftButton)
    assert session.undo_stack.count() == 1
    assert "2 successes" in session.game.log[-1].text
    assert "dice rolled at the table" in session.game.log[-2].text
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_roll_for_me_gives_an_outcome_the_odds_allow(qtbot: QtBot, session: Session) -> None:
    dialog = DiceDialog(session)
    qtbot.addWidget(dialog)
    qtbot.mouseClick(dialog.runner.roll_button, Qt.MouseButton.LeftButton)
    result = dialog.runner.result
    assert result is not None
    assert get("dice.pool").label(result.outcome) in dict(dialog.runner.odds_plot.rows)


def test_a_typed_roll_is_recorded_and_replays_to_the_same_game(qtbot: QtBot, session: Session,
                                                               tmp_path: Path) -> None:
    dialog = DiceDialog(session)
    qtbot.addWidget(dialog)
    dialog.dice.setValue(2)
    dialog.target.setValue(4)
    runner = dialog.runner
    qtbot.mouseClick(runner.typed_button, Qt.MouseButton.LeftButton)
    runner.entry.setText("4 3")
    qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    qtbot.mouseClick(runner.apply_button, Qt.MouseButton.LeftButton)
    action = session.game.actions[-1]
    assert (action.name, dict(action.choices), action.dice, action.typed) == ("dice.pool", {"dice": 2, "target": 4},
                                                                             (4, 3), True)
    assert "dice rolled at the table" in session.game.log[-2].text
    path = tmp_path / "rolled.battle"
    savefile.save(session.game, path)
    replayed, _steps = replay_steps(savefile.load(path))
    assert savefile.game_to_dict(replayed) == savefile.game_to_dict(session.game)
