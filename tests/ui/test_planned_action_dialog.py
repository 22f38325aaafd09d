"""A unit action's dialog declared as data (`planned_action`), used as a player uses it.

The action here is declared in the test, as a newcomer declares one in a
feature's file: its choices as data, no dialog class of its own. Opened from
its UnitAction, it shows the plan's odds, refuses a bad choice in its banner
with nothing applied, takes the table's dice typed and Enter, applies as one
undo step and locks; a change to the game plans it again.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton
from PySide6.QtWidgets import QCheckBox
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.rules.armour_battles.plans import profile_of
from battletracker.rules.base import InputValue
from battletracker.rules.presets import preset
from battletracker.ui.features.armour_battles.common import is_close_support
from battletracker.ui.main_window import MainWindow
from battletracker.ui.procedure_parts import ActionForm
from battletracker.ui.procedure_parts import PlannedActionDialog
from battletracker.ui.procedure_parts import UnitChoice
from battletracker.ui.procedure_parts import YesNo
from battletracker.ui.procedure_parts import planned_action
from battletracker.ui.session import Session


def _others(game: Game, choices: Mapping[str, InputValue]) -> Iterable[tuple[str, str]]:
    return ((u.id, u.name) for u in game.units.values() if u.id != choices["firer"] and profile_of(u) is not None)


ASSAULT = planned_action(
    key="test.close_assault", title="Close assault (declared)...", applies=is_close_support,
    tip="The close-support unit's roll in a Close Assault",
    form=ActionForm("ab.close_assault", "Declared assault: {unit}", choices=(
        UnitChoice("target", "Against", _others, "Click the other unit in the assault"),
        YesNo("attacker", "The unit is the attacker"),
        YesNo("overrun", "Overrun attack"),
    )))


@pytest.fixture
def window(qtbot: QtBot) -> MainWindow:
    game = Game(title="Assault", ruleset="armour_battles",
                sides=[Side("Germany", "#666666"), Side("Soviet Union", "#aa3333")])
    for key, unit_id, side, x, y in (("stuh_42", "stuh", 0, 30.0, 30.0), ("rifle_platoon_su", "rifles", 1, 30.0, 28.0),
                                     ("t34_43", "t34", 1, 33.0, 28.0)):
        p = preset("armour_battles", key)
        game.units[unit_id] = p.make(unit_id, p.title, side, x, y)
    session = Session(game)
    win = MainWindow(session)
    win.feature_host.load()
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.show()
    return win


def opened(qtbot: QtBot, window: MainWindow) -> PlannedActionDialog:
    assert ASSAULT.available(window.session.game, window.session.game.unit("stuh"))
    ASSAULT.run(window.feature_host, "stuh")
    dialog = window.findChild(PlannedActionDialog)
    assert dialog is not None
    qtbot.waitExposed(dialog)
    return dialog


def click(qtbot: QtBot, button: QAbstractButton) -> None:
    assert button.isVisible() and button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def tick(dialog: PlannedActionDialog, key: str) -> QCheckBox:
    box = dialog.widget(key)
    assert isinstance(box, QCheckBox)
    return box


def toggle(qtbot: QtBot, box: QCheckBox) -> None:
    """Tab to the tick and press Space, as at the keyboard."""
    assert box.isVisible() and box.isEnabled(), box.text()
    box.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(box, Qt.Key.Key_Space)


def test_declared_action_shows_odds_refuses_in_its_banner_and_applies_one_step(
        qtbot: QtBot, window: MainWindow) -> None:
    session = window.session
    before = savefile.game_to_dict(session.game)
    dialog = opened(qtbot, window)
    assert dialog.windowTitle() == "Declared assault: StuH 42 (close support)"
    assert not dialog.isModal() and dialog.parent() is window
    runner = dialog.runner
    assert runner.isVisible() and runner.odds_plot.rows and dialog.facts.facts()
    assert not dialog.refusal.refused()

    toggle(qtbot, tick(dialog, "overrun"))                              # a choice the rules refuse
    assert dialog.refusal.refused()
    assert dialog.refusal.text() == "Close-support units can never make an overrun attack."
    assert runner.isHidden() and session.undo_stack.count() == 0
    assert savefile.game_to_dict(session.game) == before
    toggle(qtbot, tick(dialog, "overrun"))
    assert not dialog.refusal.refused() and runner.isVisible()

    toggle(qtbot, tick(dialog, "attacker"))
    assert dialog.choices() == {"firer": "stuh", "target": "rifles", "attacker": True, "overrun": False}
    click(qtbot, runner.typed_button)
    qtbot.keyClicks(runner.entry, "6 5 5 4 3 2 1")
    qtbot.keyClick(runner.entry, Qt.Key.Key_Return)                    # submits the dice, never closes the dialog
    assert dialog.isVisible() and runner.result is not None, runner.entry_error.text()
    assert runner.result.outcome == "successes=3"
    click(qtbot, runner.apply_button)
    assert session.undo_stack.count() == 1
    action = session.game.actions[-1]
    assert action.name == "ab.close_assault" and action.choices["attacker"] is True
    assert list(action.dice) == [6, 5, 5, 4, 3, 2, 1]
    assert runner.locked and not runner.roll_button.isEnabled() and not runner.apply_button.isEnabled()
    assert not tick(dialog, "attacker").isEnabled() and not dialog.widget("target").isEnabled()
    assert dialog.isVisible()

    session.undo_stack.undo()                                          # undone: the choices are the player's again
    assert savefile.game_to_dict(session.game) == before
    assert not runner.locked and runner.result is None and tick(dialog, "attacker").isEnabled()
    dialog.close()


def test_a_change_to_the_game_plans_again_and_the_actors_loss_closes_it(qtbot: QtBot, window: MainWindow) -> None:
    session = window.session
    dialog = opened(qtbot, window)
    assert dialog.choices()["target"] == "rifles" and dialog.facts.facts()[1].startswith("FP ")
    session.act("unit.remove", {"unit": "rifles"})                    # taken off elsewhere: the list and plan follow
    assert dialog.choices()["target"] == "t34" and dialog.facts.facts()[1].startswith("AT ")
    assert dialog.runner.title == "Close assault: StuH 42 (close support) against T34/43"

    click(qtbot, dialog.runner.roll_button)
    assert dialog.runner.waiting
    facts = dialog.facts.facts()
    session.act("unit.shock", {"unit": "t34", "delta": 1})            # a result waits: it is not replaced unread
    assert dialog.runner.result is not None and dialog.facts.facts() == facts
    toggle(qtbot, tick(dialog, "overrun"))                              # now refused: the roll is dropped unapplied
    assert dialog.refusal.refused() and dialog.runner.result is None and not dialog.runner.waiting
    toggle(qtbot, tick(dialog, "overrun"))
    assert not dialog.refusal.refused() and dialog.runner.roll_button.isEnabled()

    session.act("unit.remove", {"unit": "stuh"})
    assert not dialog.isVisible()
