"""The document's indirect-fire example end to end: Max's StuH 42 fires at two
infantry units and a T34/43 under one burst, with line of sight."""

from __future__ import annotations

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.core.geometry import distance
from battletracker.rules import RulesInputError, resolve
from battletracker.rules.armour_battles.placement import burst_targets
from battletracker.rules.armour_battles.units import dice_type_for, fire_inputs, reaction_dice
from tests.rules.armour_battles.helpers import battle, unit_from_preset


def test_two_infantry_units_and_a_t34_under_one_burst_get_fp_4d_and_at_2d() -> None:
    stuh = unit_from_preset("stuh_42", "stuh", 0, 30.0, 44.0)
    rifles = unit_from_preset("rifle_platoon_su", "rifles", 1, 29.0, 20.0)
    smgs = unit_from_preset("smg_platoon_su", "smgs", 1, 31.5, 21.0)
    t34 = unit_from_preset("t34_43", "t34", 1, 30.0, 18.0)
    far = unit_from_preset("rifle_platoon_su", "far", 1, 32.01, 20.0)
    game = battle(stuh, rifles, smgs, t34, far)
    aim = (30.0, 20.0)
    dist = distance((stuh.x, stuh.y), aim)

    placed = resolve("ab.indirect_placement", {
        "aim_x": aim[0], "aim_y": aim[1], "range": dist, "ranges": "9/18/36", "los": True, "observer": False,
        "marker_id": "impact1",
    }, ScriptedDice([]))
    assert placed.outcome == "on_target"
    assert placed.rolls == []
    game.apply_all(placed.effects)
    impact = game.markers["impact1"]

    under = burst_targets((impact.x, impact.y), [(u.id, (u.x, u.y)) for u in game.units.values()])
    assert under == ["rifles", "smgs", "t34"]  # t34 exactly 2" away is under it; "far" at 2.01" is not

    table_dice = {"rifles": [6, 4, 3, 2], "smgs": [5, 5, 1, 1], "t34": [4, 2]}
    rolled = {}
    for uid in under:
        inputs = fire_inputs(stuh, game.unit(uid), "indirect", dist)
        res = resolve("ab.close_support_fire", inputs, ScriptedDice(table_dice[uid]))
        rolled[uid] = (res.values["dice_type"], res.values["dice_rolled"], res.values["suppression"])
    assert rolled == {"rifles": ("fp", 4, "artillery"), "smgs": ("fp", 4, "artillery"), "t34": ("at", 2, "artillery")}


def test_targets_choose_dice_and_reaction_dice_by_armour() -> None:
    t34 = unit_from_preset("t34_43", "t34", 1, 0.0, 0.0)
    rifles = unit_from_preset("rifle_platoon_su", "rifles", 1, 0.0, 0.0)
    stuh = unit_from_preset("stuh_42", "stuh", 0, 0.0, 0.0)
    assert (dice_type_for(t34), dice_type_for(rifles)) == ("at", "fp")
    assert (reaction_dice(stuh, "direct"), reaction_dice(stuh, "indirect")) == (6, 5)


def test_a_suppressed_firer_is_refused() -> None:
    stuh = unit_from_preset("stuh_42", "stuh", 0, 0.0, 0.0)
    stuh.conditions.append("artillery_suppressed")
    rifles = unit_from_preset("rifle_platoon_su", "rifles", 1, 0.0, 20.0)
    with pytest.raises(RulesInputError, match="firer_suppressed: a suppressed unit cannot fire"):
        resolve("ab.close_support_fire", fire_inputs(stuh, rifles, "indirect", 20.0), ScriptedDice([]))
