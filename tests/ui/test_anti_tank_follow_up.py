"""After an anti-tank shot is applied: the table read again, and the Reverse 1D6 as a step of its own."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.ui.features.anti_tank import ReverseDialog
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.session import Session
from tests.ui.test_anti_tank import PANZER
from tests.ui.test_anti_tank import SHERMAN
from tests.ui.test_anti_tank import WORKED_EXAMPLE
from tests.ui.test_anti_tank import dialog_for

pytestmark = pytest.mark.usefixtures("germany_ready")


def type_and_apply(qtbot: QtBot, runner: ProcedureRunner, *entries: str) -> None:
    QTest.mouseClick(runner.typed_button, Qt.MouseButton.LeftButton)
    for text in entries:
        runner.entry.setText(text)
        qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    assert runner.result is not None
    QTest.mouseClick(runner.apply_button, Qt.MouseButton.LeftButton)


def test_from_the_table_shows_the_new_shock_and_rounds_after_apply(qtbot: QtBot, session: Session) -> None:
    dialog = dialog_for(qtbot, session, PANZER)
    sherman = session.game.unit(SHERMAN)
    before_shock = sherman.shock
    rounds = [line for line in dialog.facts.facts() if line.startswith("Rounds left")]
    type_and_apply(qtbot, dialog.runner, *WORKED_EXAMPLE)
    assert session.game.unit(SHERMAN).shock == before_shock + 2
    after = dialog.facts.text()
    assert f"Shock {before_shock + 2}" in after and f"Shock {before_shock}," not in after
    if rounds:
        assert rounds[0] not in dialog.facts.facts()
    assert dialog.follow_up.isVisibleTo(dialog)


def test_reverse_is_its_own_step_in_a_small_dialog(qtbot: QtBot, session: Session) -> None:
    dialog = dialog_for(qtbot, session, PANZER)
    dialog.show()
    type_and_apply(qtbot, dialog.runner, "3 4", "5 1 1 1 1 1 1 1 1", "5 1 1 1 1 1", "1")
    assert dialog.runner.result is not None and dialog.runner.result.outcome == "equal:reverse"
    assert dialog.reverse_button.isVisibleTo(dialog)
    before = savefile.game_to_dict(session.game)
    QTest.mouseClick(dialog.reverse_button, Qt.MouseButton.LeftButton)
    reverse = dialog.reverse_dialog
    assert isinstance(reverse, ReverseDialog) and reverse.isVisible() and reverse.isWindow()
    assert dialog.follow_up.findChildren(ProcedureRunner) == [], "no second row of Roll/Apply in the shot's dialog"
    type_and_apply(qtbot, reverse.runner, "4")
    qtbot.waitUntil(lambda: not reverse.isVisible())
    sherman = session.game.unit(SHERMAN)
    assert abs(((sherman.x - 50.0) ** 2 + (sherman.y - 36.0) ** 2) ** 0.5 - 4.0) < 1e-6
    assert not dialog.reverse_button.isEnabled()
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before
