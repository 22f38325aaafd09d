"""What a target's roll is read from: FP or AT Dice and Reaction Dice by armour,
and a suppressed firer refused. The document's whole indirect-fire example is
in test_indirect_mission.py."""

from __future__ import annotations

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.rules import RulesInputError
from battletracker.rules import resolve
from battletracker.rules.armour_battles.units import dice_type_for
from battletracker.rules.armour_battles.units import fire_inputs
from battletracker.rules.armour_battles.units import reaction_dice
from tests.rules.armour_battles.helpers import unit_from_preset


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
