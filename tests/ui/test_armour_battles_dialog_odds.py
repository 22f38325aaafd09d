"""The Direct fire and Close assault dialogs show exactly the odds of what their Apply resolves.

Each test opens the real dialog as a player does, reads the distribution it
shows, plans the same choices through `plan` and compares with their exact
odds; then it types the table's dice, presses Apply, and checks that the
action recorded holds the planned choices and resolves, on those dice, to
what was applied.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractSpinBox
from PySide6.QtWidgets import QCheckBox
from pytestqt.qtbot import QtBot

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.rules import get
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.actions import plan
from battletracker.rules.armour_battles import actions as ab_actions
from battletracker.rules.armour_battles.direct_fire import split
from battletracker.rules.armour_battles.fire import NAME as FIRE
from battletracker.rules.armour_battles.reaction import NAME as REACTION
from battletracker.rules.presets import preset
from battletracker.ui.features.armour_battles.assault import CloseAssaultDialog
from battletracker.ui.features.armour_battles.direct import DirectFireDialog
from battletracker.ui.features.armour_battles.target_fire import reaction_label
from battletracker.ui.odds_plot import grouped
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.session import Session

FIRE_DICE, REACTION_DICE = "6 6 5 4 1 1 1", "6 1 1 1 2"


def _table() -> Session:
    game = Game(title="Kursk", ruleset="armour_battles",
                sides=[Side("Germany", "#666666"), Side("Soviet Union", "#aa3333")])
    for key, uid, side, x, y in (("stuh_42", "stuh", 0, 30.0, 32.0), ("rifle_platoon_su", "rifles", 1, 29.0, 20.0),
                                 ("t34_43", "t34", 1, 33.0, 30.5)):
        p = preset("armour_battles", key)
        game.units[uid] = p.make(uid, p.title, side, x, y)
    game.units["rifles"].facing = 180.0  # facing the StuH: a shot at their front
    return Session(game)


def _type(qtbot: QtBot, box: QAbstractSpinBox, text: str) -> None:
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, text)
    qtbot.keyClick(box, Qt.Key.Key_Return)


def _enter(qtbot: QtBot, runner: ProcedureRunner, text: str) -> None:
    assert runner.entry.isVisible(), f"no roll asked for {text!r}"
    qtbot.keyClicks(runner.entry, text)
    qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    assert runner.entry_error.isHidden(), runner.entry_error.text()


def _tick(qtbot: QtBot, box: QCheckBox) -> None:
    """Click the box's own square: a form row's box is wider than its square and words."""
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(6, box.height() // 2))


def test_direct_fire_shows_the_odds_of_the_fire_and_reaction_apply_resolves(qtbot: QtBot) -> None:
    session = _table()
    before = savefile.game_to_dict(session.game)
    dlg = DirectFireDialog(session, "stuh")
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.set_target("rifles")
    _tick(qtbot, dlg.opportunity)
    t = dlg.current
    assert t is not None and dlg.opportunity.isChecked()
    qtbot.waitUntil(t.isVisible)  # the shot rebuilt for the new tick is shown once the events run
    _type(qtbot, t.cover, "1")
    planned = plan(ab_actions.DIRECT_FIRE, session.game, {**dlg.choices(), "cover": 1})
    assert dlg.facts.facts() == planned.facts
    fire_inputs, check_inputs = split(planned.inputs)
    fire = get(FIRE)
    assert t.fire.odds_plot.rows == grouped(odds(FIRE, fire_inputs), fire.label, fire.order)

    qtbot.mouseClick(t.fire.typed_button, Qt.MouseButton.LeftButton)
    _enter(qtbot, t.fire, FIRE_DICE)
    fired = t.fire.result
    assert fired is not None
    scored = {"incoming": int(fired.values["successes"]), "incoming_sixes": int(fired.values["sixes"])}
    assert scored["incoming"] > 0
    assert t.reaction.odds_plot.rows == grouped(odds(REACTION, {**check_inputs, **scored}), reaction_label)
    assert t.reaction_facts.facts()[0].startswith("Rifle")

    qtbot.mouseClick(t.reaction.typed_button, Qt.MouseButton.LeftButton)
    _enter(qtbot, t.reaction, REACTION_DICE)
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)
    assert dlg.applied and session.undo_stack.count() == 1
    action = session.game.actions[-1]
    faces = [int(f) for f in f"{FIRE_DICE} {REACTION_DICE}".split()]
    assert (action.name, dict(action.choices), list(action.dice)) == (ab_actions.DIRECT_FIRE, planned.choices, faces)
    expected = resolve(planned.procedure, planned.inputs, ScriptedDice(faces))
    assert t.reaction.result is not None and expected.outcome == t.reaction.result.outcome

    again = _table().game
    again.apply_all(expected.effects)
    rifles, replayed = session.game.units["rifles"], again.units["rifles"]
    assert (rifles.counters, rifles.conditions) == (replayed.counters, replayed.conditions)
    assert (rifles.counters.get("disruption"), rifles.conditions) != (0, []), "the Reaction Check did something"
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


@pytest.mark.parametrize(("opponent", "dice"), [("rifles", "6 6 6 5 1 1 1"), ("t34", "6 6 1 1")])
def test_close_assault_shows_the_odds_of_what_apply_resolves(qtbot: QtBot, opponent: str, dice: str) -> None:
    session = _table()
    before = savefile.game_to_dict(session.game)
    dlg = CloseAssaultDialog(session, "stuh")
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.choose("target", opponent)
    _tick(qtbot, dlg.widget("attacker"))
    assert dlg.widget("attacker").isChecked()
    planned = plan(ab_actions.CLOSE_ASSAULT, session.game, dlg.choices())
    assert planned.inputs["attacker"] is True and dlg.facts.facts() == planned.facts
    proc = get(planned.procedure)
    assert dlg.runner.odds_plot.rows == grouped(odds(planned.procedure, planned.inputs), proc.label, proc.order)

    qtbot.mouseClick(dlg.runner.typed_button, Qt.MouseButton.LeftButton)
    _enter(qtbot, dlg.runner, dice)
    qtbot.mouseClick(dlg.runner.apply_button, Qt.MouseButton.LeftButton)
    assert session.undo_stack.count() == 1
    action = session.game.actions[-1]
    faces = [int(f) for f in dice.split()]
    assert (action.name, dict(action.choices), list(action.dice)) == (ab_actions.CLOSE_ASSAULT, planned.choices,
                                                                      faces)
    expected = resolve(planned.procedure, planned.inputs, ScriptedDice(faces))
    assert dlg.runner.result is not None and dlg.runner.result.outcome == expected.outcome
    assert all(line in [entry.text for entry in session.game.log] for line in expected.log)
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before
