"""coc.tripod_mg: 10 Firepower Dice, one figure loses two, Heavy MGs reduce cover, the arc, Suppressing Fire."""

from __future__ import annotations

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import TurnUnit
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.base import Resolution
from battletracker.rules.chain_of_command.fire import hit_effect_faces
from battletracker.rules.chain_of_command.machine_guns import frontage_between
from tests.rules.oddscheck import assert_odds_match_simulation

BASE: dict[str, object] = {"figures": 4, "to_hit": 4, "cover": "hard"}


def mg(dice: list[int], **inputs: object) -> Resolution:
    return resolve("coc.tripod_mg", {**BASE, **inputs}, ScriptedDice(dice))  # type: ignore[dict-item]


def face(cover: str, result: str) -> int:
    return hit_effect_faces(cover).index(result) + 1


def test_ten_firepower_dice() -> None:
    res = mg([1] * 10)
    assert list(res.rolls) == [("Firepower Dice", (1,) * 10)]
    assert res.values["firepower_dice"] == 10 and res.values["dice_lost"] == 0


def test_a_weapon_can_override_the_ten_dice() -> None:
    res = mg([1] * 12, firepower_dice=12)
    assert len(res.rolls[0][1]) == 12


def test_one_figure_loses_two_dice() -> None:
    res = mg([1] * 8, figures=1)
    assert len(res.rolls[0][1]) == 8 and res.values["dice_lost"] == 2
    assert len(mg([1] * 10, figures=2).rolls[0][1]) == 10


def test_heavy_reduces_cover_one_level() -> None:
    assert mg([1] * 10, heavy=True).values["cover"] == "light"
    assert mg([1] * 10).values["cover"] == "hard"
    assert mg([1] * 10, heavy=True, reduce_cover=1).values["cover"] == "open"
    assert mg([1] * 10, cover="open", heavy=True).values["cover"] == "open"


def test_heavy_effect_dice_read_one_level_down() -> None:
    # A face that shocks in Light Cover but not in Hard Cover: the Heavy MG's target in Hard Cover takes Shock.
    shock_in_light = next(i + 1 for i, (light, hard) in enumerate(zip(hit_effect_faces("light"),
                                                                        hit_effect_faces("hard"), strict=True))
                          if light == "shock" and hard != "shock")
    assert mg([4] + [1] * 9 + [shock_in_light]).outcome == "kills=0 shock=0"
    assert mg([4] + [1] * 9 + [shock_in_light], heavy=True).outcome == "kills=0 shock=1"


def test_target_inside_the_arc_turns_the_gun_without_moving() -> None:
    res = mg([1] * 10, barrel_facing=0, target_bearing=40, firer_id="mg1")
    assert res.values["arc_offset"] == 40 and res.values["facing"] == 40
    assert list(res.effects) == [TurnUnit("mg1", 40.0)]
    edge = mg([1] * 10, barrel_facing=10, target_bearing=325, firer_id="mg1")
    assert edge.values["arc_offset"] == 45


def test_no_turn_when_already_facing_the_target() -> None:
    assert mg([1] * 10, barrel_facing=90, target_bearing=90, firer_id="mg1").effects == ()


def test_target_outside_the_arc_is_refused() -> None:
    with pytest.raises(RulesInputError) as err:
        mg([1] * 10, barrel_facing=0, target_bearing=46)
    assert err.value.field == "target_bearing"
    assert "46 degrees off the barrel" in str(err.value) and "45 degrees either side" in str(err.value)


def test_arc_needs_both_angles() -> None:
    with pytest.raises(RulesInputError, match="barrel_facing: is required"):
        mg([], target_bearing=10)
    with pytest.raises(RulesInputError, match="target_bearing: is required"):
        mg([], barrel_facing=10)


def test_suppressing_fire_at_a_frontage_up_to_nine_inches() -> None:
    res = mg([1] * 10, suppressing=True, frontage=9)
    assert res.values["suppressing"] is True and res.values["frontage"] == 9


def test_a_frontage_picked_by_its_two_ends_is_measured_to_the_hundredth_and_judged_as_typed() -> None:
    assert frontage_between((10.0, 10.0), (16.0, 18.0)) == frontage_between((16.0, 18.0), (10.0, 10.0)) == 10.0
    assert frontage_between((0.0, 0.0), (1.0, 1.0)) == 1.41
    res = mg([1] * 10, suppressing=True, frontage=frontage_between((5.0, 5.0), (5.0, 14.0)))
    assert res.values["frontage"] == 9
    with pytest.raises(RulesInputError, match='at most 9", not 10"'):
        mg([], suppressing=True, frontage=frontage_between((10.0, 10.0), (16.0, 18.0)))


def test_suppressing_fire_at_two_teams_within_four_inches() -> None:
    res = mg([4, 4] + [1] * 8 + [face("hard", "shock")] * 2, suppressing=True, team_gap=4, teams=2,
             target_ids="a,b")
    assert res.values["team_hits"] == [1, 1]
    assert list(res.effects) == [ChangeCounter("a", "shock", 1), ChangeCounter("b", "shock", 1)]


@pytest.mark.parametrize(("inputs", "field", "words"), [
    ({"suppressing": True, "frontage": 9.5}, "frontage", 'at most 9", not 9.5"'),
    ({"suppressing": True, "team_gap": 5, "teams": 2}, "team_gap", 'within 4" of each other, not 5"'),
    ({"suppressing": True, "team_gap": 3}, "teams", "between 2 teams, not 1"),
    ({"suppressing": True}, "frontage", "needs its target area"),
    ({"suppressing": True, "frontage": 6, "team_gap": 3, "teams": 2}, "frontage", "not both"),
    ({"frontage": 6}, "frontage", "set suppressing"),
    ({"team_gap": 3}, "team_gap", "set suppressing"),
    ({"figures": 0}, "figures", "at least 1, not 0"),
    ({"figures": None}, "figures", "is required"),
    ({"firepower_dice": 61}, "firepower_dice", "at most 60, not 61"),
])
def test_refusals(inputs: dict[str, object], field: str, words: str) -> None:
    merged = {k: v for k, v in {**BASE, **inputs}.items() if v is not None}
    with pytest.raises(RulesInputError) as err:
        resolve("coc.tripod_mg", merged, ScriptedDice([]))  # type: ignore[arg-type]
    assert err.value.field == field and words in str(err.value)


def test_odds_equal_coc_fire_with_the_derived_dice_and_cover() -> None:
    tripod = odds("coc.tripod_mg", {**BASE, "figures": 1, "heavy": True})  # type: ignore[arg-type]
    plain = odds("coc.fire", {"firepower_dice": 8, "to_hit": 4, "cover": "light"})
    assert tripod == plain


@pytest.mark.parametrize("inputs", [
    {"figures": 3, "range_band": "effective", "target_quality": "regular", "cover": "light"},
    {"figures": 1, "to_hit": 4, "cover": "hard", "heavy": True, "teams": 2},
    {"figures": 5, "to_hit": 3, "cover": "open", "suppressing": True, "frontage": 8, "shock_multiplier": 2},
])
def test_odds_match_simulation(inputs: dict[str, object]) -> None:
    assert_odds_match_simulation("coc.tripod_mg", inputs)  # type: ignore[arg-type]
