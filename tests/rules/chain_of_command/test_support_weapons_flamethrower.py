"""coc.flamethrower: 12", 12 or 6 dice, Storm of Steel, no cover, Shock doubled, buildings, transports, fuel."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model.bombardment_effects import SetBuildingState
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import SetCondition
from battletracker.model.effects import SpendAmmo
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.base import Resolution
from battletracker.rules.chain_of_command.fire import hit_effect_faces
from tests.rules.oddscheck import assert_odds_match_simulation

BASE: dict[str, object] = {"range": 8, "fuel": 3, "target_kind": "infantry", "to_hit": 4}
MISS = [1] * 12


def flame(dice: list[int], **inputs: object) -> Resolution:
    return resolve("coc.flamethrower", {**BASE, **inputs}, ScriptedDice(dice))  # type: ignore[dict-item]


def face(result: str) -> int:
    return hit_effect_faces("open").index(result) + 1


def test_twelve_dice_or_six_after_moving() -> None:
    assert flame(MISS).rolls == (("Firepower Dice", (1,) * 12),)
    assert flame([1] * 6, moved=True).rolls == (("Firepower Dice", (1,) * 6),)
    assert flame([1] * 6, moved=True).values["firepower_dice"] == 6


def test_reaches_twelve_inches_and_no_further() -> None:
    assert flame(MISS, range=12).outcome == "kills=0 shock=0"
    with pytest.raises(RulesInputError) as err:
        flame(MISS, range=12.5)
    assert err.value.field == "range" and 'at most 12", the target is 12.5" away' in str(err.value)


def test_never_at_the_double() -> None:
    with pytest.raises(RulesInputError, match="at_the_double: infantry flamethrowers never move At the Double"):
        flame([], at_the_double=True, moved=True)


def test_storm_of_steel_then_effect_dice_in_the_open_with_shock_doubled() -> None:
    res = flame([6] + [1] * 11 + [1] + [face("shock")], target_id="t")
    assert [label for label, _ in res.rolls] == ["Firepower Dice", "Storm of Steel dice", "Effect dice"]
    assert res.values["cover"] == "open"
    assert res.outcome == "kills=0 shock=2"
    assert list(res.effects) == [ChangeCounter("t", "shock", 2)]


def test_ignores_cover_so_there_is_no_cover_input() -> None:
    with pytest.raises(RulesInputError, match="cover: is not an input"):
        flame(MISS, cover="hard")


def test_fuel_spent_and_refused_at_zero() -> None:
    res = flame(MISS, fuel=3, firer_id="f1", weapon_index=1)
    assert res.values["fuel_left"] == 2
    assert list(res.effects) == [SpendAmmo("f1", 1, 1)]
    with pytest.raises(RulesInputError) as err:
        flame(MISS, fuel=0)
    assert err.value.field == "fuel" and "0 of 3 Phases" in str(err.value) and "never resupplied" in str(err.value)


def test_wooden_building_catches_fire_on_two_sixes() -> None:
    two = flame([6, 6] + [1] * 10 + [1, 1] + [face("kill"), face("kill")], target_kind="wooden_building",
                building_id="b1", target_id="t")
    assert two.values["building_on_fire"] is True
    assert two.outcome == "kills=2 shock=0 building_on_fire"
    assert SetBuildingState("b1", "on_fire") in two.effects
    assert ChangeFigures("t", -2) in two.effects
    one = flame([6] + [1] * 11 + [1] + [face("kill")], target_kind="wooden_building", building_id="b1")
    assert one.values["building_on_fire"] is False and one.outcome == "kills=1 shock=0"
    assert list(one.effects) == []


def test_a_storm_of_steel_six_counts_towards_the_fire() -> None:
    res = flame([6] + [1] * 11 + [6] + [1] + [face("kill")] * 2, target_kind="wooden_building")
    assert res.values["sixes"] == 2 and res.values["building_on_fire"] is True


def test_empty_wooden_building_rolls_no_effect_dice() -> None:
    res = flame([6, 6] + [1] * 10 + [1, 1], target_kind="wooden_building", teams=0)
    assert res.outcome == "kills=0 shock=0 building_on_fire"
    assert [label for label, _ in res.rolls] == ["Firepower Dice", "Storm of Steel dice"]


def test_transport_passengers_and_a_shock_on_the_vehicle_per_six() -> None:
    res = flame([6, 6, 4] + [1] * 9 + [6, 1] + [face("shock")] * 4, target_kind="transport", target_id="p",
                vehicle_id="v")
    assert res.values["sixes"] == 3 and res.values["hits"] == 4
    assert res.outcome == "kills=0 shock=8 vehicle_shock=3"
    assert list(res.effects) == [ChangeCounter("p", "shock", 8), ChangeCounter("v", "shock", 3)]


def test_immobilised_transport_takes_double_and_is_abandoned_at_four() -> None:
    res = flame([6, 6] + [1] * 10 + [1, 1] + [face("kill")] * 2, target_kind="transport", vehicle_id="v",
                vehicle_immobilised=True, vehicle_current_shock=1)
    assert res.outcome == "kills=2 shock=0 vehicle_shock=4+"
    assert res.values["vehicle_total_shock"] == 5 and res.values["vehicle_abandoned"] is True
    assert list(res.effects) == [ChangeCounter("v", "shock", 4), SetCondition("v", "abandoned")]
    assert any("abandoned" in line for line in res.log)


def test_twelve_sixes_key_the_vehicle_shock_as_four_or_more_and_apply_all_twelve() -> None:
    """Four added Shock abandons any vehicle, so the key stops at "4+"; the values and effects keep all 12."""
    res = flame([6] * 12 + [1] * 12 + [face("shock")] * 12, target_kind="transport", target_id="p",
                target_figures="10", vehicle_id="v", vehicle_current_shock=1)
    assert res.values["sixes"] == 12 and res.values["hits"] == 12
    assert res.outcome == "kills=0 shock=24 vehicle_shock=4+"
    assert (res.values["vehicle_shock"], res.values["vehicle_total_shock"]) == (12, 13)
    assert list(res.effects) == [ChangeCounter("p", "shock", 24), ChangeCounter("v", "shock", 12),
                                 SetCondition("v", "abandoned")]
    assert "12 Shock on the vehicle" in res.log
    told = {o.rpartition("=")[2] for o in odds("coc.flamethrower", {**BASE, "target_kind": "transport"}).outcomes}  # type: ignore[arg-type]
    assert told == {"0", "1", "2", "3", "4+"}


def test_the_vehicle_shock_key_is_exact_below_what_abandons_the_vehicle() -> None:
    sixes = [6, 6, 6] + [1] * 9 + [1, 1, 1] + [face("shock")] * 3
    assert flame(sixes, target_kind="transport").outcome == "kills=0 shock=6 vehicle_shock=3"
    assert flame(sixes, target_kind="transport", vehicle_immobilised=True).outcome == "kills=0 shock=6 vehicle_shock=4+"
    keys = {o.rpartition("=")[2] for o in odds("coc.flamethrower", {**BASE, "target_kind": "transport",  # type: ignore[arg-type]
                                                                   "vehicle_immobilised": True}).outcomes}
    assert keys == {"0", "2", "4+"}


@pytest.mark.parametrize(("inputs", "field", "words"), [
    ({"building_id": "b1"}, "building_id", "only a wooden building"),
    ({"vehicle_id": "v"}, "vehicle_id", "only a transport"),
    ({"target_kind": "vehicle"}, "target_kind", "infantry, wooden_building, transport"),
    ({"teams": 0}, "teams", "at least 1, not 0"),
    ({"to_hit": None}, "to_hit", "is required"),
    ({"fuel": -1}, "fuel", "at least 0, not -1"),
])
def test_refusals(inputs: dict[str, object], field: str, words: str) -> None:
    merged = {k: v for k, v in {**BASE, **inputs}.items() if v is not None}
    with pytest.raises(RulesInputError) as err:
        resolve("coc.flamethrower", merged, ScriptedDice([]))  # type: ignore[arg-type]
    assert err.value.field == field and words in str(err.value)


def test_odds_against_infantry_equal_coc_fire_in_the_open_doubled() -> None:
    flamed = odds("coc.flamethrower", {**BASE, "moved": True})  # type: ignore[arg-type]
    fire = odds("coc.fire", {"firepower_dice": 6, "to_hit": 4, "cover": "open", "shock_multiplier": 2,
                             "storm_of_steel": True})
    assert flamed == fire


def test_odds_of_setting_an_empty_building_alight() -> None:
    dist = odds("coc.flamethrower", {**BASE, "moved": True, "target_kind": "wooden_building", "teams": 0,
                                     "storm_of_steel_per_six": 0})  # type: ignore[arg-type]
    none_or_one = Fraction(5, 6) ** 6 + 6 * Fraction(1, 6) * Fraction(5, 6) ** 5
    assert dist.p("kills=0 shock=0 building_on_fire") == 1 - none_or_one


@pytest.mark.parametrize("inputs", [
    {"moved": True},
    {"target_kind": "wooden_building", "to_hit": None, "range_band": "close", "target_quality": "elite"},
    {"target_kind": "wooden_building", "teams": 0},
    {"target_kind": "transport", "vehicle_immobilised": True, "teams": 2},
    {"target_kind": "transport", "moved": True, "storm_of_steel_chains": True},
    {"target_kind": "transport", "target_id": "p", "target_figures": "3", "storm_of_steel_per_six": 2},
])
def test_odds_match_simulation(inputs: dict[str, object]) -> None:
    merged = {k: v for k, v in {**BASE, **inputs}.items() if v is not None}
    assert_odds_match_simulation("coc.flamethrower", merged)  # type: ignore[arg-type]
