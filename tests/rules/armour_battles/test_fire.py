"""ab.close_support_fire: one close-support roll against one target unit."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.armour_battles.fire import indirect_dice
from battletracker.rules.armour_battles.fire import plan_fire
from tests.rules.armour_battles.helpers import stuh_fire
from tests.rules.oddscheck import assert_odds_match_simulation

NAME = "ab.close_support_fire"


def test_stuh_42_indirect_fire_halves_its_dice_rounding_up() -> None:
    # FP 7D and AT 4D fire indirectly with FP 4D and AT 2D.
    assert indirect_dice(7, 4) == (4, 2)
    fp = resolve(NAME, stuh_fire(dice_type="fp"), ScriptedDice([6, 5, 2, 1]))
    assert fp.values["dice_rolled"] == 4
    assert list(fp.rolls) == [("FP dice", (6, 5, 2, 1))]
    at = resolve(NAME, stuh_fire(dice_type="at"), ScriptedDice([4, 3]))
    assert at.values["dice_rolled"] == 2
    assert list(at.rolls) == [("AT dice", (4, 3))]


def test_stuh_42_double_move_reduces_indirect_fire_to_3d_and_1d() -> None:
    assert indirect_dice(7, 4, "double") == (3, 1)
    assert plan_fire(stuh_fire(move="double", dice_type="fp")).dice_rolled == 3
    assert plan_fire(stuh_fire(move="double", dice_type="at")).dice_rolled == 1


def test_stuh_42_triple_move_leaves_no_at_dice_and_no_effect_on_armour() -> None:
    assert indirect_dice(7, 4, "triple") == (2, 0)
    assert plan_fire(stuh_fire(move="triple", dice_type="fp")).dice_rolled == 2
    dice = ScriptedDice([])
    res = resolve(NAME, stuh_fire(move="triple", dice_type="at"), dice)
    assert res.outcome == "successes=0"
    assert res.values["dice_rolled"] == 0
    assert list(res.rolls) == []
    assert "no effect" in res.log[-1]
    assert odds(NAME, stuh_fire(move="triple", dice_type="at")).p("successes=0") == 1


def test_indirect_fire_needs_4_plus_at_effective_and_long_range_and_causes_artillery_suppressions() -> None:
    for dist, band in ((12.0, "effective"), (18.0, "effective"), (40.0, "long"), (72.0, "long")):
        res = resolve(NAME, stuh_fire(range=dist), ScriptedDice([6, 4, 3, 1]))
        assert (res.values["band"], res.values["tn"]) == (band, 4)
        assert res.outcome == "successes=2"
        assert (res.values["successes"], res.values["sixes"]) == (2, 1)
        assert res.values["suppression"] == "artillery"


def test_direct_fire_uses_full_dice_range_modifiers_and_normal_suppressions() -> None:
    short = resolve(NAME, stuh_fire(mode="direct", range=6.0), ScriptedDice([3, 3, 3, 3, 3, 3, 6]))
    assert (short.values["dice_rolled"], short.values["tn"], short.values["band"]) == (7, 3, "short")
    assert short.outcome == "successes=7"
    assert short.values["suppression"] == "normal"
    effective = plan_fire(stuh_fire(mode="direct", range=18.0))
    assert (effective.dice_rolled, effective.tn) == (7, 4)
    long = plan_fire(stuh_fire(mode="direct", range=36.0, dice_type="at"))
    assert (long.dice_rolled, long.tn, long.band) == (4, 5, "long")
    flank = plan_fire(stuh_fire(mode="direct", range=36.0, flank_or_rear=True))
    assert flank.tn == 4


def test_direct_fire_movement_dice_come_off_the_full_dice() -> None:
    assert plan_fire(stuh_fire(mode="direct", range=12.0, move="double")).dice_rolled == 6
    assert plan_fire(stuh_fire(mode="direct", range=12.0, move="triple", dice_type="at")).dice_rolled == 2
    assert plan_fire(stuh_fire(mode="direct", range=12.0, move="triple", direct_triple_move_dice=3,
                               dice_type="at")).dice_rolled == 1


def test_extra_dice_add_to_the_roll() -> None:
    assert plan_fire(stuh_fire(extra_dice=1)).dice_rolled == 5
    assert plan_fire(stuh_fire(extra_dice=-9)).dice_rolled == 0


def test_indirect_range_refusals_name_the_numbers() -> None:
    with pytest.raises(RulesInputError, match=r'range: 6" is within the short range of 9" \(9/18/36\)'):
        resolve(NAME, stuh_fire(range=6.0), ScriptedDice([]))
    with pytest.raises(RulesInputError, match=r'range: 80" is beyond the indirect fire long range of 72"'):
        odds(NAME, stuh_fire(range=80.0))


def test_direct_fire_beyond_long_range_is_refused() -> None:
    with pytest.raises(RulesInputError, match=r'range: 36.5" is beyond the long range of 36" \(9/18/36\)'):
        odds(NAME, stuh_fire(mode="direct", range=36.5))


def test_opportunity_fire_needs_direct_line_of_sight_in_either_mode() -> None:
    with pytest.raises(RulesInputError, match="los: a close-support unit may only use opportunity fire with a "
                                              "direct line of sight to the target"):
        odds(NAME, stuh_fire(opportunity=True))
    with pytest.raises(RulesInputError, match="los: a close-support unit may only use opportunity fire"):
        odds(NAME, stuh_fire(mode="direct", range=12.0, opportunity=True, los=False))
    assert odds(NAME, stuh_fire(opportunity=True, los=True)).total() == 1
    assert odds(NAME, stuh_fire(mode="direct", range=12.0, opportunity=True)).total() == 1


def test_direct_fire_needs_line_of_sight() -> None:
    with pytest.raises(RulesInputError, match="los: direct fire needs a line of sight to the target"):
        odds(NAME, stuh_fire(mode="direct", range=12.0, los=False))


def test_a_suppressed_unit_cannot_fire() -> None:
    with pytest.raises(RulesInputError, match="firer_suppressed: a suppressed unit cannot fire"):
        resolve(NAME, stuh_fire(firer_suppressed=True), ScriptedDice([1, 2, 3, 4]))


def test_flank_or_rear_is_for_direct_fire_only() -> None:
    with pytest.raises(RulesInputError, match="flank_or_rear: the flank or rear modifier is for direct fire"):
        odds(NAME, stuh_fire(flank_or_rear=True))


@pytest.mark.parametrize(("key", "value", "message"), [
    ("mode", "overhead", "mode: must be one of direct, indirect"),
    ("dice_type", "he", "dice_type: must be one of fp, at"),
    ("move", "quadruple", "move: must be one of single, double, triple"),
    ("fp_dice", -1, "fp_dice: must be at least 0"),
    ("range", -2.0, "range: must be at least 0"),
    ("target_id", "u3", "target_id: is not an input"),
    ("long_range_tn", 5, "long_range_tn: must be at most 3"),
])
def test_bad_inputs_name_the_field(key: str, value: str | int | float, message: str) -> None:
    with pytest.raises(RulesInputError, match=message):
        odds(NAME, stuh_fire(**{key: value}))


def test_closed_form_odds() -> None:
    # Double move: FP 3D at 4+.
    dist = odds(NAME, stuh_fire(move="double"))
    assert dist.p("successes=0") == Fraction(1, 8)
    assert dist.p("successes=3") == Fraction(1, 8)
    assert dist.p("successes=1") == Fraction(3, 8)
    # Direct at long range: AT 4D at 5+.
    long = odds(NAME, stuh_fire(mode="direct", range=30.0, dice_type="at"))
    assert long.p("successes=4") == Fraction(1, 81)
    assert long.p("successes=0") == Fraction(16, 81)


@pytest.mark.parametrize("extra", [
    {},
    {"dice_type": "at", "move": "double"},
    {"move": "triple"},
    {"mode": "direct", "range": 5.0},
    {"mode": "direct", "range": 30.0, "dice_type": "at", "flank_or_rear": True},
    {"mode": "direct", "range": 30.0, "tn_modifier": 3},
    {"mode": "direct", "range": 5.0, "tn_modifier": -3},
])
def test_odds_match_simulation(extra: dict[str, str | float | bool | int]) -> None:
    assert_odds_match_simulation(NAME, stuh_fire(**extra))
