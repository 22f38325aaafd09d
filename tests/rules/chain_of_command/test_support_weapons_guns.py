"""coc.gun_he: infantry and anti-tank guns firing H.E. at infantry."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model.bombardment_effects import SetBuildingState
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import SetCondition
from battletracker.model.effects import TurnUnit
from battletracker.model.game import OUT_OF_PLAY
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.base import Resolution
from battletracker.rules.chain_of_command.fire import HitEffect
from battletracker.rules.chain_of_command.fire import hit_effect_faces
from battletracker.rules.chain_of_command.guns import gun_can_move
from tests.rules.oddscheck import assert_odds_match_simulation

BASE: dict[str, object] = {"he_dice": 3, "cover": "hard", "crew": 4}


def gun(dice: list[int], **inputs: object) -> Resolution:
    return resolve("coc.gun_he", {**BASE, **inputs}, ScriptedDice(dice))  # type: ignore[dict-item]


def face(cover: str, result: str) -> int:
    return hit_effect_faces(cover).index(result) + 1


def test_close_range_hits_on_four_five_or_six() -> None:
    res = gun([3, 4, 5, 1, 1])
    assert res.rolls[0] == ("H.E. Firepower Dice", (3, 4, 5))
    assert res.values["to_hit"] == 4 and res.values["hits"] == 2


def test_storm_of_steel() -> None:
    res = gun([6, 1, 1, 4, face("light", "kill"), face("light", "kill")])
    assert [label for label, _ in res.rolls] == ["H.E. Firepower Dice", "Storm of Steel dice", "Effect dice"]
    assert res.outcome == "kills=2 shock=0"


def test_cover_reduced_one_level() -> None:
    assert gun([1, 1, 1]).values["cover"] == "light"
    assert gun([1, 1, 1], cover="light").values["cover"] == "open"
    assert gun([1, 1, 1], cover="open").values["cover"] == "open"


def test_hits_divided_between_the_target_teams() -> None:
    shock = face("light", "shock")
    res = gun([4, 5, 4, shock, shock, shock], teams=2, target_ids="a,b")
    assert res.values["team_hits"] == [2, 1]
    assert list(res.effects) == [ChangeCounter("a", "shock", 2), ChangeCounter("b", "shock", 1)]


def test_kills_remove_figures_and_the_gun_turns() -> None:
    kill = face("light", "kill")
    res = gun([4, 1, 1, kill], target_id="t", firer_id="g", barrel_facing=350, target_bearing=20)
    assert list(res.effects) == [TurnUnit("g", 20.0), ChangeFigures("t", -1)]


def test_fewer_than_three_crew_cannot_move_but_still_fire() -> None:
    assert gun_can_move(3) and not gun_can_move(2)
    res = gun([4, 4, 4] + [1, 1, 1], crew=2, barrel_facing=0, target_bearing=30)
    assert res.values["can_move"] is False and res.values["hits"] == 3
    assert any("cannot move" in line for line in res.log)
    assert gun([1, 1, 1], crew=3).values["can_move"] is True


def test_he_at_a_building_only_when_targeting_a_unit_inside() -> None:
    res = gun([1, 1, 1], target_is_building=True, target_in_building=True)
    assert res.values["target_in_building"] is True
    with pytest.raises(RulesInputError) as err:
        gun([], target_is_building=True)
    assert err.value.field == "target_is_building" and "only when targeting a Unit inside" in str(err.value)


@pytest.mark.parametrize(("inputs", "field", "words"), [
    ({"barrel_facing": 0, "target_bearing": 90}, "target_bearing", "90 degrees off the barrel"),
    ({"crew": 0}, "crew", "at least 1, not 0"),
    ({"crew": None}, "crew", "is required"),
    ({"he_dice": None}, "he_dice", "is required"),
    ({"to_hit": 3}, "to_hit", "not an input"),
    ({"suppressing": True}, "suppressing", "always Fire for Effect, never Suppressing Fire"),
])
def test_refusals(inputs: dict[str, object], field: str, words: str) -> None:
    merged = {k: v for k, v in {**BASE, **inputs}.items() if v is not None}
    with pytest.raises(RulesInputError) as err:
        resolve("coc.gun_he", merged, ScriptedDice([]))  # type: ignore[arg-type]
    assert err.value.field == field and words in str(err.value)


def test_closed_form_one_die() -> None:
    dist = odds("coc.gun_he", {"he_dice": 1, "cover": "light", "crew": 3, "storm_of_steel_per_six": 0})
    assert dist.p("kills=1 shock=0") == Fraction(1, 2) * HitEffect.for_cover("open").kill_chance()


@pytest.mark.parametrize("inputs", [
    {"he_dice": 4, "cover": "hard", "crew": 2, "teams": 2},
    {"he_dice": 6, "cover": "light", "crew": 5, "storm_of_steel_chains": True},
])
def test_odds_match_simulation(inputs: dict[str, object]) -> None:
    assert_odds_match_simulation("coc.gun_he", inputs)  # type: ignore[arg-type]


STONE: dict[str, object] = {"building": "brick_stone", "building_id": "b1", "building_name": "The farmhouse",
                            "target_id": "t"}


def test_four_sixes_at_a_unit_in_a_stone_building_make_it_unstable() -> None:
    # Three H.E. dice 6 6 6 earn three Storm of Steel dice, 6 1 1: four 6s in all, as a bombardment counts them.
    res = gun([6, 6, 6, 6, 1, 1, 1, 1, 1, 1], **STONE)
    assert res.values["sixes"] == 4 and res.values["building_unstable"] is True
    assert res.outcome == "kills=0 shock=0 building_unstable"
    assert SetBuildingState("b1", "unstable") in res.effects
    assert any("The farmhouse is unstable and collapses at the end of the Turn" in line for line in res.log)


def test_three_sixes_or_a_wooden_or_fallen_building_stand() -> None:
    three = gun([6, 6, 6, 1, 1, 1, 1, 1, 1], **STONE)
    assert three.outcome == "kills=0 shock=0" and three.values["building_unstable"] is False
    four = [6, 6, 6, 6, 1, 1, 1, 1, 1, 1]
    for other in ({"building": "wood"}, {"building_intact": False}):
        res = gun(four, **{**STONE, **other})
        assert res.outcome == "kills=0 shock=0" and not any(isinstance(e, SetBuildingState) for e in res.effects)


def test_building_inputs_that_contradict_each_other_are_refused() -> None:
    with pytest.raises(RulesInputError) as err:
        gun([], building="brick_stone", target_in_building=False)
    assert err.value.field == "target_in_building"
    with pytest.raises(RulesInputError) as err:
        gun([], building_id="b1")
    assert err.value.field == "building"


def test_unstable_building_odds_are_exact() -> None:
    inputs = {**BASE, **STONE, "he_dice": 4, "storm_of_steel_per_six": 0}
    dist = odds("coc.gun_he", inputs)  # type: ignore[arg-type]
    unstable = sum((p for key, p in dist.items() if key.endswith(" building_unstable")), Fraction(0))
    assert unstable == Fraction(1, 6) ** 4                  # all four dice show 6
    assert_odds_match_simulation("coc.gun_he", {**inputs, "he_dice": 6, "storm_of_steel_per_six": 1})  # type: ignore[arg-type]


def test_smoke_or_damaged_optics_adjust_the_four_plus() -> None:
    res = gun([4, 5, 6, 1, 1, 1], to_hit_modifier=-1, storm_of_steel_per_six=0)
    assert res.values["to_hit"] == 5 and res.values["hits"] == 2
    assert any("4+ adjusted by -1: each die needs 5+" in line for line in res.log)
    assert gun([3, 3, 1, 1, 1], to_hit_modifier=1).values["hits"] == 2
    with pytest.raises(RulesInputError) as err:
        gun([], to_hit_modifier=-3)
    assert err.value.field == "to_hit_modifier" and "would need 7" in str(err.value)
    dist = odds("coc.gun_he", {**BASE, "he_dice": 1, "cover": "light", "to_hit_modifier": -2,
                               "storm_of_steel_per_six": 0})
    assert dist.p("kills=0 shock=0") == Fraction(5, 6) + Fraction(1, 6) * (1 - HitEffect.for_cover("open")
                                                                          .kill_chance() - HitEffect.for_cover(
                                                                              "open").shock_chance())
    assert_odds_match_simulation("coc.gun_he", {**BASE, "he_dice": 5, "to_hit_modifier": -1})  # type: ignore[arg-type]


def test_kills_stop_at_the_figures_when_the_building_turns_unstable() -> None:
    kill = face("light", "kill")
    res = gun([6, 6, 6, 6, 1, 1, 1, 1, kill, kill, kill, kill], **STONE, he_dice=4, target_figures="1")
    assert res.outcome == "kills=1 shock=0 building_unstable"
    assert list(res.effects[:2]) == [ChangeFigures("t", -1), SetCondition("t", OUT_OF_PLAY)]
    assert SetBuildingState("b1", "unstable") in res.effects
    inputs = {**BASE, **STONE, "he_dice": 4, "target_figures": "1"}
    dist = odds("coc.gun_he", inputs)  # type: ignore[arg-type]
    assert {key.split()[0] for key in dist.outcomes} == {"kills=0", "kills=1"}
    assert "kills=1 shock=0 building_unstable" in dist.outcomes
    assert_odds_match_simulation("coc.gun_he", inputs)  # type: ignore[arg-type]
