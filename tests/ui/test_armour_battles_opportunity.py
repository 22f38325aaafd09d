"""Opportunity fire by a close-support unit in both dialogs: refused with the
reason before anything is rolled unless the firer sees the target; allowed
in either mode with line of sight; the indirect dialog says single missions only."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.bombardment import Building
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.rules.presets import preset
from battletracker.ui.features.armour_battles.direct import DirectFireDialog
from battletracker.ui.features.armour_battles.indirect import IndirectFireDialog
from battletracker.ui.session import Session
from tests.ui.dice_entry import type_dice

REFUSAL = "a close-support unit may only use opportunity fire with a direct line of sight to the target"


def _unit(game: Game, key: str, unit_id: str, side: int, x: float, y: float) -> None:
    p = preset("armour_battles", key)
    game.units[unit_id] = p.make(unit_id, p.title, side, x, y)


@pytest.fixture
def table() -> Session:
    game = Game(title="Opportunity", ruleset="armour_battles",
                sides=[Side("Germany", "#666666"), Side("Soviet Union", "#aa3333")])
    _unit(game, "stuh_42", "stuh", 0, 30.0, 44.0)
    _unit(game, "rifle_platoon_su", "rifles", 1, 30.0, 20.0)
    _unit(game, "rifle_platoon_su", "observer", 0, 30.0, 30.0)
    return Session(game)


def test_indirect_opportunity_fire_without_line_of_sight_is_refused_before_any_roll(
        qtbot: QtBot, table: Session) -> None:
    table.game.buildings["barn"] = Building("barn", "Barn", 30.0, 38.0, width=8.0, depth=3.0)  # hides the aim
    before = savefile.game_to_dict(table.game)
    dlg = IndirectFireDialog(table, "stuh")
    qtbot.addWidget(dlg)
    dlg.set_aim(30.0, 20.0)
    dlg.set_observer("observer")
    assert dlg.refusal_text() == ""  # an observed mission is fine when it is not opportunity fire
    dlg.opportunity.setChecked(True)
    assert REFUSAL in dlg.refusal_text().lower()
    assert not dlg.runner.isEnabled()
    assert dlg.runner.result is None
    assert savefile.game_to_dict(table.game) == before


def test_indirect_opportunity_fire_with_line_of_sight_walks_and_undoes(qtbot: QtBot, table: Session) -> None:
    before = savefile.game_to_dict(table.game)
    dlg = IndirectFireDialog(table, "stuh")
    qtbot.addWidget(dlg)
    dlg.set_aim(30.0, 20.0)
    dlg.los.setChecked(True)
    dlg.opportunity.setChecked(True)
    assert dlg.refusal_text() == ""
    assert dlg.plan is not None and dlg.plan.inputs["opportunity"] is True
    assert "FP 7D, halved 4D = 4D at 4+" in dlg.facts_label.text()
    type_dice(dlg.runner, "5 5 1 1", "1 1 1 1")  # the rifles' FP dice, then their Reaction
    assert dlg.apply()
    assert not dlg.opportunity.isEnabled()
    assert table.game.units["rifles"].counters["disruption"] == 2
    table.undo_stack.undo()
    assert savefile.game_to_dict(table.game) == before


def test_indirect_dialog_says_single_missions_only(qtbot: QtBot, table: Session) -> None:
    dlg = IndirectFireDialog(table, "stuh")
    qtbot.addWidget(dlg)
    assert "Single fire missions only" in dlg.missions_label.text()
    dlg.los.setChecked(True)
    dlg.set_aim(30.0, 20.0)
    assert dlg.plan is not None and dlg.plan.inputs["mission"] == "single"
    assert not dlg.runner.set_inputs({**dlg.plan.inputs, "mission": "continuous"})
    assert "cannot conduct continuous fire missions" in dlg.runner.problem.text()


def test_direct_opportunity_fire_needs_line_of_sight(qtbot: QtBot, table: Session) -> None:
    before = savefile.game_to_dict(table.game)
    dlg = DirectFireDialog(table, "stuh")
    qtbot.addWidget(dlg)
    dlg.set_target("rifles")
    dlg.opportunity.setChecked(True)
    t = dlg.current
    assert t is not None and t.refusal == "" and t.inputs["opportunity"] is True
    dlg.los.setChecked(False)
    t = dlg.current
    assert t is not None and REFUSAL in t.refusal.lower()
    assert not t.fire.isEnabled() and t.fire.result is None
    assert REFUSAL in t.fire.problem.text().lower()
    assert not dlg.apply_button.isEnabled()
    dlg.los.setChecked(True)
    t = dlg.current
    assert t is not None and t.refusal == ""
    type_dice(t.fire, "5 5 1 1 1 1 1")
    type_dice(t.reaction, "1 1 1 1")
    assert dlg.apply()
    table.undo_stack.undo()
    assert savefile.game_to_dict(table.game) == before
