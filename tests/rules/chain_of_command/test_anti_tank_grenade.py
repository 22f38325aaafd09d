"""coc.at_grenade and coc.armour_save_only."""

from __future__ import annotations

from typing import Any

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model.effects import SetDamage
from battletracker.model.effects import SpendAmmo
from battletracker.model.effects import add_shock
from battletracker.rules import RulesInputError
from battletracker.rules import get
from battletracker.rules import resolve
from battletracker.rules.chain_of_command.anti_tank import parse_at_grenade

HALFTRACK: dict[str, Any] = {"armour_dice": 2, "target": "apc"}


def run(name: str, dice: list[int], **inputs: Any) -> Any:
    scripted = ScriptedDice(dice)
    res = resolve(name, inputs, scripted)
    assert scripted.remaining == 0, "every scripted die is used"
    return res


# --- coc.at_grenade -------------------------------------------------------------------------------------------

def test_grenade_fails_to_reach_and_is_lost() -> None:
    res = run("coc.at_grenade", [1, 2], weapon="Teller mine", distance=4, **HALFTRACK, target_id="ht",
              firer_id="gr", weapon_index=3, rounds_left=1)
    assert res.outcome == "failed_to_reach"
    assert (res.values["movement_roll"], res.values["reached"]) == (3, False)
    assert list(res.effects) == [SpendAmmo("gr", 3, 1)]
    assert res.values["damage_roll"] is None
    assert any("lost" in line for line in res.log)


def test_grenade_reaches_with_the_storm_of_steel() -> None:
    # Movement 3+2 reaches 4"; Teller mine 5 dice, the 6 earns one Storm of Steel die (a 4);
    # top armour hits on 3+: 6, 3, 4 = 3 hits; armour 5, 1 = 1 save; 2 net hits; damage 5.
    res = run("coc.at_grenade", [3, 2, 6, 3, 2, 1, 1, 4, 5, 1, 5], weapon="Teller mine", distance=4, **HALFTRACK,
              target_id="ht")
    assert res.outcome == "net2:weapon_position_destroyed"
    v = res.values
    assert (v["movement_dice"], v["movement_roll"], v["reached"]) == (2, 5, True)
    assert (v["strike_dice_rolled"], v["storm_of_steel_dice"], v["penetrating_hits"]) == (6, 1, 3)
    assert (v["saves"], v["net_hits"], v["damage_roll"], v["shock_added"]) == (1, 2, 5, 2)
    assert [label for label, _ in res.rolls] == ["Movement", "A.P. Strike Dice", "Storm of Steel dice",
                                                 "Armour Dice", "Damage (APC +2 Net Hits)"]
    assert list(res.effects) == [add_shock("ht", 2), SetDamage("ht", "weapon_position_destroyed")]


def test_storm_of_steel_settings_are_honoured() -> None:
    none = run("coc.at_grenade", [6, 6, 6, 6, 6, 1], strike_dice=3, distance=1, armour_dice=0, target="afv",
               storm_of_steel_per_six=0)
    assert none.values["storm_of_steel_dice"] == 0 and none.outcome == "net3:destroyed"
    chained = run("coc.at_grenade", [2, 2, 6, 1, 6, 2, 1], strike_dice=2, distance=1, armour_dice=0, target="afv",
                  storm_of_steel_chains=True)
    assert chained.values["storm_of_steel_dice"] == 2
    assert chained.values["penetrating_hits"] == 2 and chained.outcome == "net2:shock"


def test_movement_dice_setting() -> None:
    assert get("coc.at_grenade").settings == ("storm_of_steel_per_six", "storm_of_steel_chains",
                                              "grenade_movement_dice")
    res = run("coc.at_grenade", [4, 4, 4, 1, 3], strike_dice=1, distance=12, armour_dice=0, target="afv",
              grenade_movement_dice=3)
    assert res.values["movement_dice"] == 3 and res.values["reached"]
    assert parse_at_grenade({"strike_dice": 1, "distance": 3, "armour_dice": 0, "target": "afv"}).movement_dice == 2
    with pytest.raises(RulesInputError, match="grenade_movement_dice: must be at most 4, not 5"):
        parse_at_grenade({"strike_dice": 1, "distance": 3, "armour_dice": 0, "target": "afv",
                          "grenade_movement_dice": 5})


def test_exact_distance_reaches() -> None:
    res = run("coc.at_grenade", [2, 2, 1, 3], strike_dice=1, distance=4, armour_dice=0, target="apc")
    assert res.values["reached"] and res.outcome == "equal:none"
    short = run("coc.at_grenade", [2, 2], strike_dice=1, distance=4.5, armour_dice=0, target="apc")
    assert short.outcome == "failed_to_reach"


def test_immobilised_target_doubles_grenade_shock() -> None:
    res = run("coc.at_grenade", [3, 3, 3, 1], strike_dice=1, distance=2, armour_dice=0, target="afv",
              target_shock=2, target_immobilised=True, target_id="t")
    assert res.outcome == "net1:shock"
    assert (res.values["shock_added"], res.values["total_shock"], res.values["abandoned"]) == (2, 4, True)


@pytest.mark.parametrize(("name", "ap"), [("Petrol Bomb", 3), ("Teller mine", 5), ("No.75 Hawkins Grenade", 3),
                                          ("No.83 Gammon Bomb", 4), ("Soviet RPG 3 AT grenade", 4)])
def test_grenades_table(name: str, ap: int) -> None:
    parsed = parse_at_grenade({"weapon": name, "distance": 3, **HALFTRACK})
    assert parsed.strike_dice == ap and parsed.penetration_target == 3


@pytest.mark.parametrize(("inputs", "field", "message"), [
    ({**HALFTRACK, "distance": 3}, "strike_dice", "is required: give strike_dice, or weapon"),
    ({**HALFTRACK, "distance": 3, "weapon": "Panzerschreck"}, "weapon",
     "no anti-tank grenade or charge called 'Panzerschreck'"),
    ({**HALFTRACK, "distance": 3, "weapon": "Teller mine", "strike_dice": 5}, "strike_dice",
     "give either strike_dice or weapon, not both"),
    ({**HALFTRACK, "strike_dice": 3}, "distance", "is required"),
    ({**HALFTRACK, "strike_dice": 3, "distance": -1}, "distance", "must be at least 0, not -1"),
    ({**HALFTRACK, "strike_dice": 3, "distance": 3, "rounds_left": 0}, "rounds_left",
     "the figure has no grenades or charges left"),
    ({**HALFTRACK, "weapon": "Teller mine", "distance": 3, "rounds_left": 0}, "rounds_left",
     "the Teller mine has no grenades or charges left"),
    ({**HALFTRACK, "strike_dice": 3, "distance": 3, "location": "top"}, "location", "is not an input"),
])
def test_grenade_refusals(inputs: dict[str, Any], field: str, message: str) -> None:
    with pytest.raises(RulesInputError, match=message) as err:
        resolve("coc.at_grenade", inputs, ScriptedDice([]))
    assert err.value.field == field


# --- coc.armour_save_only ---------------------------------------------------------------------------------------

def test_a_save_means_no_effect() -> None:
    res = run("coc.armour_save_only", [5, 1, 1], armour_dice=3, target="afv", target_id="t")
    assert res.outcome == "no_effect" and res.values["saves"] == 1 and list(res.effects) == []
    assert res.values["penetrating_hits"] == 0 and res.values["save_target"] == 5


@pytest.mark.parametrize(("vehicle", "roll", "result"), [
    ("afv", 1, "reverse"), ("afv", 2, "reverse"), ("afv", 3, "none"), ("afv", 4, "none"),
    ("afv", 5, "halt_and_engage"), ("afv", 6, "halt_and_engage"),
    ("apc", 1, "reverse"), ("apc", 4, "none"), ("apc", 5, "pedal_to_metal"), ("apc", 6, "pedal_to_metal"),
])
def test_no_saves_roll_on_equal_hits_and_saves(vehicle: str, roll: int, result: str) -> None:
    res = run("coc.armour_save_only", [4, 3, roll], armour_dice=2, target=vehicle, target_id="t")
    assert res.outcome == f"equal:{result}"
    assert res.values["net_hits"] == 0 and res.values["damage_roll"] == roll
    assert [label for label, _ in res.rolls] == ["Armour Dice", f"Damage ({vehicle.upper()} Equal Hits & Saves)"]


def test_suppressing_fire_adds_one_to_each_armour_die() -> None:
    saved = run("coc.armour_save_only", [4, 3], armour_dice=2, target="afv", firer_under_suppressing_fire=True)
    assert saved.outcome == "no_effect" and saved.values["saves"] == 1 and saved.values["save_target"] == 4


def test_reverse_on_an_immobilised_vehicle_doubles_its_shock() -> None:
    res = run("coc.armour_save_only", [1, 1, 1, 2], armour_dice=3, target="afv", target_shock=1,
              target_immobilised=True, target_id="t")
    assert res.outcome == "equal:reverse"
    assert list(res.effects) == [add_shock("t", 2)]
    assert res.values["total_shock"] == 3


def test_no_armour_dice_always_rolls_damage() -> None:
    res = run("coc.armour_save_only", [6], armour_dice=0, target="apc")
    assert res.outcome == "equal:pedal_to_metal" and list(res.effects) == []


def test_armour_save_only_refusals() -> None:
    with pytest.raises(RulesInputError, match="strike_dice: is not an input of this procedure"):
        resolve("coc.armour_save_only", {"armour_dice": 3, "target": "afv", "strike_dice": 1}, ScriptedDice([]))
    with pytest.raises(RulesInputError, match="target: is required"):
        resolve("coc.armour_save_only", {"armour_dice": 3}, ScriptedDice([]))
