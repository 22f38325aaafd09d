"""coc.grenade_into_vehicle: into an open-topped vehicle or transport, or against an APC from outside."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import SetCondition
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.base import Resolution
from battletracker.rules.chain_of_command.fire import hit_effect_faces
from battletracker.rules.tables import ruleset_settings
from tests.rules.oddscheck import assert_odds_match_simulation

OPEN: dict[str, object] = {"firepower_dice": 3, "vehicle": "open_topped"}
APC: dict[str, object] = {"firepower_dice": 4, "vehicle": "apc_outside", "armour_dice": 2}


def grenade(base: dict[str, object], dice: list[int], **inputs: object) -> Resolution:
    return resolve("coc.grenade_into_vehicle", {**base, **inputs}, ScriptedDice(dice))  # type: ignore[dict-item]


def test_the_seeds_example() -> None:
    # Three Firepower Dice, +1 confined space, +1 Bullseye from a throw of 3 and 6;
    # they roll 2, 3, 5, 6, 6 and the two 6s put two Shock on the vehicle.
    res = grenade(OPEN, [3, 6, 2, 3, 5, 6, 6], vehicle_id="flakpanzer")
    assert list(res.rolls) == [("Throw", (3, 6)), ("Firepower Dice", (2, 3, 5, 6, 6))]
    assert res.values["bullseye_dice"] == 1 and res.values["dice_rolled"] == 5
    assert res.outcome == "kills=0 shock=0 vehicle_shock=2"
    assert list(res.effects) == [ChangeCounter("flakpanzer", "shock", 2)]
    assert "Armour Dice" not in [label for label, _ in res.rolls]


def test_settings_are_defaults_to_check() -> None:
    keys = {s.key: s for s in ruleset_settings("chain_of_command")}
    for key in ("grenade_throw_to_hit", "grenade_bullseye_double_six"):
        assert keys[key].check is True and "check" in keys[key].description


def test_a_missed_throw_rolls_nothing_more() -> None:
    res = grenade(OPEN, [2, 4], vehicle_id="v")
    assert res.outcome == "missed" and list(res.effects) == [] and len(res.rolls) == 1


def test_the_throw_to_hit_is_a_setting() -> None:
    assert grenade(OPEN, [4, 4, 1, 1, 1, 1], grenade_throw_to_hit=8).values["throw_hit"] is True
    assert grenade(OPEN, [4, 3], grenade_throw_to_hit=8).outcome == "missed"


def test_two_sixes_on_the_throw() -> None:
    res = grenade(OPEN, [6, 6] + [1] * 6)
    assert res.values["bullseye_dice"] == 2 and res.values["dice_rolled"] == 6
    res = grenade(OPEN, [6, 6] + [1] * 5, grenade_bullseye_double_six=1)
    assert res.values["dice_rolled"] == 5


def test_the_player_can_say_whether_the_throw_hit() -> None:
    res = grenade(OPEN, [6, 1, 1, 1, 1], throw_hit=True, bullseye_dice=1)
    assert list(res.rolls) == [("Firepower Dice", (6, 1, 1, 1, 1))]
    assert res.outcome == "kills=0 shock=0 vehicle_shock=1"
    assert grenade(OPEN, [], throw_hit=False).outcome == "missed"


def test_hits_fall_on_the_passengers_and_sixes_shock_the_vehicle() -> None:
    kill = hit_effect_faces("open").index("kill") + 1
    shock = hit_effect_faces("open").index("shock") + 1
    res = grenade(OPEN, [3, 6, 6, 4, 1, 1, 1, kill, shock], passenger_teams=1, to_hit=4, target_id="p",
                  vehicle_id="v", vehicle_immobilised=True)
    assert res.values["hits"] == 2 and res.values["sixes"] == 1
    assert res.outcome == "kills=1 shock=1 vehicle_shock=2"
    assert list(res.effects) == [ChangeFigures("p", -1), ChangeCounter("p", "shock", 1), ChangeCounter("v", "shock", 2)]


def test_open_topped_rolls_no_armour_dice() -> None:
    res = grenade(OPEN, [3, 6, 1, 1, 1, 1, 1], armour_dice=4)
    assert [label for label, _ in res.rolls] == ["Throw", "Firepower Dice"]


def test_apc_from_outside_sixes_penetrate_armour_saves_net_shock() -> None:
    res = grenade(APC, [6, 6, 6, 2, 5, 1], vehicle_id="apc")
    assert list(res.rolls) == [("Firepower Dice", (6, 6, 6, 2)), ("Armour Dice", (5, 1))]
    assert (res.values["penetrating_hits"], res.values["saves"], res.values["net_hits"]) == (3, 1, 2)
    assert res.outcome == "vehicle_shock=2"
    assert list(res.effects) == [ChangeCounter("apc", "shock", 2)]


def test_apc_from_outside_has_no_storm_of_steel() -> None:
    res = grenade(APC, [6, 6, 6, 6, 1, 1])
    assert [label for label, _ in res.rolls] == ["Firepower Dice", "Armour Dice"]
    with pytest.raises(RulesInputError, match="storm_of_steel_per_six: is not an input"):
        grenade(APC, [], storm_of_steel_per_six=2)


def test_apc_saves_can_cancel_every_hit_and_shock_is_doubled_when_immobilised() -> None:
    assert grenade(APC, [6, 1, 1, 1, 5, 6]).outcome == "vehicle_shock=0"
    res = grenade(APC, [6, 6, 1, 1, 1, 1], vehicle_id="apc", vehicle_immobilised=True, vehicle_current_shock=0)
    assert res.outcome == "vehicle_shock=4" and res.values["vehicle_abandoned"] is True
    assert list(res.effects) == [ChangeCounter("apc", "shock", 4), SetCondition("apc", "abandoned")]


@pytest.mark.parametrize(("base", "inputs", "field", "words"), [
    (APC, {"passenger_teams": 1}, "passenger_teams", "does not reach the passengers (1 team given)"),
    (APC, {"throw_hit": True}, "throw_hit", "no throw"),
    (APC, {"bullseye_dice": 1}, "bullseye_dice", "no throw"),
    (OPEN, {"bullseye_dice": 1}, "bullseye_dice", "throw_hit = true"),
    (OPEN, {"throw_hit": False, "bullseye_dice": 1}, "bullseye_dice", "throw_hit = true"),
    (OPEN, {"bullseye_dice": 3}, "bullseye_dice", "at most 2, not 3"),
    (OPEN, {"to_hit": 4}, "to_hit", "passenger_teams is 0"),
    (OPEN, {"cover": "light"}, "cover", "passenger_teams is 0"),
    (OPEN, {"target_id": "p"}, "target_id", "passenger_teams is 0"),
    (OPEN, {"passenger_teams": 1}, "to_hit", "is required"),
    (OPEN, {"passenger_teams": 2, "to_hit": 4, "target_ids": "a"}, "target_ids", "shared by 2 teams"),
    (OPEN, {"vehicle": "closed"}, "vehicle", "open_topped, apc_outside"),
    (OPEN, {"grenade_throw_to_hit": 13}, "grenade_throw_to_hit", "at most 12, not 13"),
    (OPEN, {"vehicle_current_shock": -1}, "vehicle_current_shock", "at least 0, not -1"),
])
def test_refusals(base: dict[str, object], inputs: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(RulesInputError) as err:
        grenade(base, [], **inputs)
    assert err.value.field == field and words in str(err.value)


def test_closed_forms() -> None:
    throw_lands = Fraction(21, 36)  # 2D6 total of 7 or more
    assert odds("coc.grenade_into_vehicle", OPEN).p("missed") == 1 - throw_lands  # type: ignore[arg-type]
    one = odds("coc.grenade_into_vehicle", {"firepower_dice": 1, "vehicle": "apc_outside"})
    assert one.p("vehicle_shock=1") == Fraction(1, 6)
    told = odds("coc.grenade_into_vehicle", {**OPEN, "firepower_dice": 0, "throw_hit": True})  # type: ignore[arg-type]
    assert told.p("kills=0 shock=0 vehicle_shock=1") == Fraction(1, 6)


@pytest.mark.parametrize(("base", "inputs"), [
    (OPEN, {}),
    (OPEN, {"passenger_teams": 2, "range_band": "close", "target_quality": "green", "cover": "light"}),
    (OPEN, {"throw_hit": True, "bullseye_dice": 2, "vehicle_immobilised": True}),
    (APC, {}),
    (APC, {"firepower_dice": 8, "armour_dice": 3, "vehicle_immobilised": True}),
])
def test_odds_match_simulation(base: dict[str, object], inputs: dict[str, object]) -> None:
    assert_odds_match_simulation("coc.grenade_into_vehicle", {**base, **inputs})  # type: ignore[arg-type]
