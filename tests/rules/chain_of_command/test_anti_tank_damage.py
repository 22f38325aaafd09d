"""Both Vehicle Damage tables row by row, what each result leaves on the vehicle, and Shock on vehicles."""

from __future__ import annotations

from typing import Any

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model.effects import SetCondition
from battletracker.model.effects import SetDamage
from battletracker.model.effects import add_shock
from battletracker.rules import resolve
from battletracker.rules.chain_of_command.damage import BANDS
from battletracker.rules.chain_of_command.damage import apply_damage
from battletracker.rules.chain_of_command.damage import band_for
from battletracker.rules.chain_of_command.damage import consequences
from battletracker.rules.chain_of_command.damage import damage_result
from battletracker.rules.chain_of_command.damage import later_shock_doubled
from battletracker.rules.chain_of_command.damage import outcome_group
from battletracker.rules.chain_of_command.damage import outcome_keys
from battletracker.rules.chain_of_command.damage import results
from battletracker.rules.chain_of_command.vehicle_shock import shock_effects
from battletracker.rules.chain_of_command.vehicle_shock import take_shock

# The seed's tables, written out independently of at_fire.toml: (band, D6 rolls, result, Shock).
AFV_TABLE = [
    ("equal", (1, 2), "reverse", 1), ("equal", (3, 4), "none", 0), ("equal", (5, 6), "halt_and_engage", 0),
    ("net1", (1, 2, 3), "shock", 1), ("net1", (4,), "engine_damage", 1), ("net1", (5,), "hull_mg_destroyed", 1),
    ("net1", (6,), "commander_stunned", 1),
    ("net2", (1, 2, 3), "shock", 2), ("net2", (4,), "immobilised", 2), ("net2", (5,), "optics_damaged", 2),
    ("net2", (6,), "commander_wounded", 2),
    ("net3", (1, 2, 3, 4), "destroyed", 0), ("net3", (5, 6), "explodes", 0),
]
APC_TABLE = [
    ("equal", (1, 2), "reverse", 1), ("equal", (3, 4), "none", 0), ("equal", (5, 6), "pedal_to_metal", 0),
    ("net1", (1, 2, 3), "shock", 1), ("net1", (4,), "engine_damage", 1), ("net1", (5,), "mg_suppressed", 1),
    ("net1", (6,), "commander_stunned", 1),
    ("net2", (1, 2, 3), "shock", 2), ("net2", (4,), "immobilised", 2),
    ("net2", (5,), "weapon_position_destroyed", 2), ("net2", (6,), "commander_wounded", 2),
    ("net3", (1, 2, 3, 4), "destroyed", 0), ("net3", (5, 6), "explodes", 0),
]
RECORDED = {"engine_damage", "hull_mg_destroyed", "commander_stunned", "immobilised", "optics_damaged",
            "commander_wounded", "weapon_position_destroyed", "mg_suppressed", "halt_and_engage", "destroyed",
            "explodes"}
NET = {"equal": 0, "net1": 1, "net2": 2, "net3": 3}
ROWS = [(vehicle, band, roll, result, shock) for vehicle, table in (("afv", AFV_TABLE), ("apc", APC_TABLE))
        for band, rolls, result, shock in table for roll in rolls]


def shoot_for_band(vehicle: str, band: str, roll: int, **extra: Any) -> Any:
    """A round that scores exactly the band's net hits (rear armour, no Armour Dice), then `roll` for damage."""
    net = NET[band]
    dice = [3, 3, *[6] * net, roll]
    scripted = ScriptedDice(dice)
    res = resolve("coc.at_fire", {"strike_dice": net, "armour_dice": 0, "location": "rear", "visibility": "open",
                                  "target": vehicle, **extra}, scripted)
    assert scripted.remaining == 0
    return res


@pytest.mark.parametrize(("vehicle", "band", "roll", "result", "shock"), ROWS)
def test_every_row_of_both_damage_tables(vehicle: str, band: str, roll: int, result: str, shock: int) -> None:
    res = shoot_for_band(vehicle, band, roll, target_id="v", target_shock=1)
    assert res.outcome == f"{band}:{result}"
    assert (res.values["band"], res.values["result"], res.values["damage_roll"]) == (band, result, roll)
    assert res.values["shock_added"] == shock
    assert res.values["total_shock"] == 1 + shock
    expected = [add_shock("v", shock)] if shock else []
    if result in RECORDED:
        expected.append(SetDamage("v", result))
    assert list(res.effects) == expected
    assert res.rolls[-1] == (res.rolls[-1][0], (roll,))


@pytest.mark.parametrize(("vehicle", "band", "roll", "result", "shock"), [r for r in ROWS if r[4]])
def test_shock_is_doubled_on_an_immobilised_afv_only(vehicle: str, band: str, roll: int, result: str,
                                                    shock: int) -> None:
    """Only the AFV table's Vehicle Immobilised says "Any subsequent Shock suffered is doubled"."""
    res = shoot_for_band(vehicle, band, roll, target_id="v", target_immobilised=True)
    added = 2 * shock if vehicle == "afv" else shock
    assert res.values["shock_added"] == added
    assert res.effects[0] == add_shock("v", added)
    assert any("doubled" in line for line in res.log) == (vehicle == "afv")


def test_immobilised_apc_takes_undoubled_shock_and_immobilised_afv_doubled() -> None:
    apc = shoot_for_band("apc", "net1", 1, target_id="v", target_shock=1, target_immobilised=True)
    assert list(apc.effects) == [add_shock("v", 1)] and apc.values["total_shock"] == 2
    afv = shoot_for_band("afv", "net1", 1, target_id="v", target_shock=1, target_immobilised=True)
    assert list(afv.effects) == [add_shock("v", 2)] and afv.values["total_shock"] == 3
    assert later_shock_doubled("afv", ["immobilised"]) and not later_shock_doubled("apc", ["immobilised"])
    assert not later_shock_doubled("afv", ["engine_damage"])
    assert "Any later Shock is doubled" not in consequences("apc", "immobilised")


@pytest.mark.parametrize("vehicle", ["afv", "apc"])
def test_outcome_keys_in_table_order(vehicle: str) -> None:
    table = AFV_TABLE if vehicle == "afv" else APC_TABLE
    assert outcome_keys(vehicle) == tuple(dict.fromkeys(f"{band}:{result}" for band, _r, result, _s in table))
    assert {r.name for r in results(vehicle)} == {result for _b, _r, result, _s in table}


def test_bands_of_net_hits() -> None:
    assert [band_for(n) for n in (-2, -1, 0, 1, 2, 3, 4, 9)] == [None, None, "equal", "net1", "net2", "net3",
                                                                  "net3", "net3"]
    assert BANDS == ("equal", "net1", "net2", "net3")
    assert [outcome_group(k) for k in ("miss", "no_effect", "equal:none", "net3:explodes")] == [
        "miss", "no_effect", "equal", "net3"]


# --- what each result means, as data the app shows ----------------------------------------------------------------

def test_recorded_results_are_the_ones_kept_on_the_vehicle() -> None:
    for vehicle in ("afv", "apc"):
        kept = {r.name for r in results(vehicle) if r.record}
        assert kept == RECORDED & {r.name for r in results(vehicle)}


@pytest.mark.parametrize(("vehicle", "result", "line"), [
    ("afv", "reverse", 'Reverse 1D6" directly away from the firer now, avoiding obstacles'),
    ("afv", "halt_and_engage", "+1 Shock if it cannot be activated"),
    ("afv", "engine_damage", "Cannot move Flat Out for the rest of the game"),
    ("afv", "engine_damage", "Cannot move and fire its main armament in the same Phase"),
    ("apc", "engine_damage", "Cannot move and fire any weapon in the same Phase"),
    ("afv", "hull_mg_destroyed", "The hull MG (or a single top-mounted MG) cannot fire again"),
    ("afv", "commander_stunned", "The commander cannot activate in the vehicle's next active Phase"),
    ("afv", "immobilised", "Any later Shock is doubled"),
    ("apc", "immobilised", 'Passengers deploy now within 4" of the centre of the APC'),
    ("afv", "optics_damaged", "-2 to hit when firing A.P. with the main gun"),
    ("afv", "optics_damaged", "-1 to hit when firing H.E."),
    ("afv", "commander_wounded", "Force Morale test: Leader Wounded"),
    ("apc", "mg_suppressed", "May not fire any MGs in its next Phase of activation"),
    ("apc", "pedal_to_metal", "Drive straight ahead at Flat Out speed now, avoiding obstacles"),
    ("apc", "weapon_position_destroyed", "One MG position is destroyed; with several, the firing player chooses "
                                         "which"),
    ("afv", "destroyed", "Force Morale test: loss of an AFV Support"),
    ("apc", "destroyed", "Passengers deploy now; roll one hit on each passenger, Leaders included, as though in "
                         "Hard Cover"),
    ("afv", "explodes", 'Every infantry Team within 4" takes 1D6 hits, rolling for effect as though in the Open'),
    ("apc", "explodes", "Force Morale test: loss of an APC Support"),
])
def test_consequence_lines(vehicle: str, result: str, line: str) -> None:
    assert line in consequences(vehicle, result)


def test_result_details() -> None:
    assert damage_result("afv", "none").consequences == ()
    assert damage_result("afv", "halt_and_engage").duration == "next_phase"
    assert damage_result("apc", "mg_suppressed").duration == "next_phase"
    assert damage_result("afv", "immobilised").duration == "game"
    assert damage_result("afv", "reverse").duration == "immediate"
    assert damage_result("afv", "commander_wounded").force_morale_test == "Leader Wounded"
    assert damage_result("afv", "explodes").force_morale_test == "Loss of an AFV Support, +1"
    assert damage_result("afv", "engine_damage").force_morale_test == ""
    for vehicle in ("afv", "apc"):
        assert damage_result(vehicle, "destroyed").wreck and damage_result(vehicle, "explodes").wreck
        assert damage_result(vehicle, "explodes").blast_radius == 4
        assert damage_result(vehicle, "destroyed").blast_radius == 0
        assert not damage_result(vehicle, "immobilised").wreck
    assert damage_result("afv", "explodes").title == "AFV Explodes"
    assert "Flat Out" in damage_result("afv", "engine_damage").definition
    with pytest.raises(ValueError, match="no damage result 'pedal_to_metal' for an afv"):
        damage_result("afv", "pedal_to_metal")


def test_outcome_lines_put_shock_first_and_abandonment_last() -> None:
    afv = apply_damage("afv", "net2", 6, current_shock=2, immobilised=False)
    assert afv.outcome == "net2:commander_wounded"
    assert afv.lines()[0] == "2 Shock, 4 in all"
    assert afv.lines()[-2:] == ("Four Shock: the crew abandon the vehicle", "Force Morale test (Bad Things Happen)")
    apc = apply_damage("apc", "net1", 2, current_shock=3, immobilised=False)
    assert apc.lines()[-1] == "Four Shock: the crew abandon the vehicle"
    none = apply_damage("afv", "equal", 3, current_shock=3, immobilised=True)
    assert none.lines() == () and none.effects("v") == []


# --- Shock on vehicles --------------------------------------------------------------------------------------------

def test_take_shock() -> None:
    s = take_shock(current=2, base=1, immobilised=True)
    assert (s.base, s.added, s.before, s.total, s.doubled, s.abandoned, s.newly_abandoned) == (
        1, 2, 2, 4, True, True, True)
    s = take_shock(current=1, base=2, immobilised=False)
    assert (s.added, s.total, s.doubled, s.abandoned) == (2, 3, False, False)
    s = take_shock(current=5, base=1, immobilised=False)
    assert s.abandoned and not s.newly_abandoned


def test_shock_effects() -> None:
    assert shock_effects("v", take_shock(0, 0, True)) == []
    assert shock_effects("v", take_shock(0, 2, False)) == [add_shock("v", 2)]
    assert shock_effects("v", take_shock(3, 1, False)) == [add_shock("v", 1), SetCondition("v", "abandoned")]
    assert shock_effects("v", take_shock(3, 2, True)) == [add_shock("v", 4), SetCondition("v", "abandoned")]


def test_a_destroyed_vehicle_takes_no_shock() -> None:
    res = shoot_for_band("afv", "net3", 6, target_id="v", target_shock=3)
    assert res.outcome == "net3:explodes"
    assert res.values["shock_added"] == 0 and not res.values["abandoned"]
    assert list(res.effects) == [SetDamage("v", "explodes")]
