"""The table read for anti-tank fire and grenades on the demo battle: the Panzer IV H, the Panzerschreck."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.game import OUT_OF_PLAY
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.model.game import Weapon
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.chain_of_command.anti_tank_plans import ShotRefusal
from battletracker.rules.chain_of_command.anti_tank_plans import at_weapons
from battletracker.rules.chain_of_command.anti_tank_plans import can_throw_grenade
from battletracker.rules.chain_of_command.anti_tank_plans import can_throw_into_vehicle
from battletracker.rules.chain_of_command.anti_tank_plans import enemy_vehicles
from battletracker.rules.chain_of_command.anti_tank_plans import grenade_reach
from battletracker.rules.chain_of_command.anti_tank_plans import group_label
from battletracker.rules.chain_of_command.anti_tank_plans import in_group_order
from battletracker.rules.chain_of_command.anti_tank_plans import infantry_near
from battletracker.rules.chain_of_command.anti_tank_plans import is_at_weapon
from battletracker.rules.chain_of_command.anti_tank_plans import plan_at_fire
from battletracker.rules.chain_of_command.anti_tank_plans import plan_at_grenade
from battletracker.rules.chain_of_command.anti_tank_plans import plan_grenade_into_vehicle
from battletracker.rules.chain_of_command.anti_tank_plans import vehicles_in_reach
from battletracker.rules.chain_of_command.anti_tank_plans import vehicles_in_throw
from battletracker.rules.tables import resources_dir
from tests.rules.oddscheck import assert_odds_match_simulation

PANZER, SCHRECK, SHERMAN, RIFLES, SQUAD = "u6", "u4", "u11", "u1", "u2"
WORKED_EXAMPLE = [6, 1, 1, 1, 2, 3, 4, 4, 5, 5, 6, 6, 1, 2, 3, 4, 5, 6, 4]
FIELD_NAMES = re.compile(r"\b[a-z]+_[a-z_]+\b|\d+\.\d{2,}")


@pytest.fixture
def game() -> Game:
    return savefile.load(resources_dir() / "demo" / "chain_of_command.json")


def refusal(game: Game, **choices: str | float | bool) -> str:
    with pytest.raises(ShotRefusal) as caught:
        plan_at_fire(game, choices)
    text = str(caught.value)
    assert not FIELD_NAMES.search(text), text
    return text


def test_who_fires_and_at_what(game: Game) -> None:
    assert [w.name for _i, w in at_weapons(game.unit(PANZER))] == ["7.5cm KwK 40"]
    assert is_at_weapon(game.unit(SCHRECK).weapons[0]) and not at_weapons(game.unit(RIFLES))
    assert [u.id for u in enemy_vehicles(game, game.unit(PANZER))] == [SHERMAN]
    assert enemy_vehicles(game, game.unit(SHERMAN))[0].id == PANZER


def test_panzer_iv_at_the_sherman_reads_the_front_and_the_close_range(game: Game) -> None:
    shot = plan_at_fire(game, {"firer": PANZER, "target": SHERMAN, "weapon": "7.5cm KwK 40"})
    assert shot.procedure == "coc.at_fire"
    assert shot.inputs["location"] == "front" and shot.inputs["armour_dice"] == 6
    assert shot.inputs["weapon"] == "7.5cm KwK 40" and shot.inputs["target"] == "afv"
    assert (shot.inputs["firer_id"], shot.inputs["weapon_index"], shot.inputs["visibility"]) == (PANZER, 0, "open")
    assert shot.facts[0] == 'Range 28.3": the whole table is Close Range for the 7.5cm KwK 40, A.P. 9'
    assert "Target in the arc, 2° off the barrel" in shot.facts
    assert "Front armour: 6 Armour Dice" in shot.facts
    assert shot.reading.startswith("To hit: 5+ on 2D6, modifier +0")
    res = resolve(shot.procedure, shot.inputs, ScriptedDice(WORKED_EXAMPLE))
    assert res.outcome == "net2:immobilised"


def test_the_weapon_defaults_to_the_first_that_fires_ap_and_must_be_on_the_card(game: Game) -> None:
    assert plan_at_fire(game, {"firer": PANZER, "target": SHERMAN}).inputs["weapon"] == "7.5cm KwK 40"
    assert refusal(game, firer=PANZER, target=SHERMAN, weapon="Hull MG") == (
        "Panzer IV H carries no anti-tank weapon called Hull MG.")


def test_side_shot_the_firers_shock_and_a_chosen_face(game: Game) -> None:
    game.unit(SHERMAN).facing = 90.0
    game.unit(PANZER).counters["shock"] = 1
    shot = plan_at_fire(game, {"firer": PANZER, "target": SHERMAN, "two_orders": True})
    inputs = shot.inputs
    assert (inputs["location"], inputs["armour_dice"], inputs["firer_shock"], inputs["two_orders"]) == (
        "side", 4, 1, True)
    assert "modifier +0" in shot.reading
    top = plan_at_fire(game, {"firer": PANZER, "target": SHERMAN, "location": "top"})
    assert (top.inputs["location"], top.inputs["armour_dice"]) == ("top", 2)
    assert "Top armour (chosen; the facings give side): 2 Armour Dice" in top.facts


def test_outside_the_arc_is_refused_in_whole_degrees_unless_the_turret_rotates(game: Game) -> None:
    game.unit(PANZER).facing = 90.0
    text = refusal(game, firer=PANZER, target=SHERMAN)
    assert text.startswith("Sherman 'Lucky' is 98° off the barrel of Panzer IV H's 7.5cm KwK 40, outside the arc "
                           "of fire (the arc is 45° either side)")
    shot = plan_at_fire(game, {"firer": PANZER, "target": SHERMAN, "turret_rotated": True})
    assert shot.inputs["turret_rotated"] is True and "modifier -1" in shot.reading
    assert any(f.startswith("Target 98° off the barrel, outside the arc") for f in shot.facts)


def test_panzerschreck_band_rounds_and_out_of_ammunition(game: Game) -> None:
    shot = plan_at_fire(game, {"firer": SCHRECK, "target": SHERMAN})
    assert shot.inputs["weapon"] == "Panzerschreck" and shot.inputs["rounds_left"] == 3
    assert shot.inputs["range"] == 31.11
    assert shot.facts[0].startswith('Range 31.1": band 3 of 0-18", 18-24", 24-36", A.P. 11')
    assert "Rounds left: 3 on the card" in shot.facts and "modifier -2" in shot.reading
    game.unit(SCHRECK).weapons[0].ammo = 0
    assert refusal(game, firer=SCHRECK, target=SHERMAN) == (
        "The Panzerschreck has no rounds left (Limited Ammunition: 3 rounds).")


def test_beyond_the_last_band_is_refused(game: Game) -> None:
    game.unit(SCHRECK).y = 0.0
    assert refusal(game, firer=SCHRECK, target=SHERMAN) == (
        "Sherman 'Lucky' is 42.2\" away: the Panzerschreck cannot fire beyond 36\" (0-18\", 18-24\", 24-36\").")


def test_a_card_weapon_outside_the_arsenal_reads_its_own_ap_and_bands(game: Game) -> None:
    weapon = game.unit(SCHRECK).weapons[0]
    weapon.name, weapon.stats["ap"], weapon.ranges = "Home-made launcher", 6, [12.0, 24.0, 36.0]
    shot = plan_at_fire(game, {"firer": SCHRECK, "target": SHERMAN})
    assert (shot.inputs["strike_dice"], shot.inputs["extra_range_bands"]) == (6, 2)
    assert shot.facts[0] == "Range 31.1\": A.P. 6 from Panzerschreck's card, 2 range bands past the first"


def test_no_target_or_a_friendly_one_is_refused_by_name(game: Game) -> None:
    assert refusal(game, firer=PANZER) == "Choose the enemy vehicle to anti-tank fire."
    assert refusal(game, firer=PANZER, target="u7") == (
        "1st Squad is not an enemy AFV or APC: anti-tank fire needs a vehicle target.")


def test_engine_damage_and_moving_is_refused_as_a_sentence(game: Game) -> None:
    vehicle = game.unit(PANZER).vehicle
    assert vehicle is not None
    vehicle.damage.append("engine_damage")
    text = refusal(game, firer=PANZER, target=SHERMAN, firer_moved=True)
    assert text == ("The firer has Engine Damage: it cannot move and fire its main armament in the same Phase.")


def test_the_plans_odds_are_exact_and_grouped(game: Game) -> None:
    shot = plan_at_fire(game, {"firer": PANZER, "target": SHERMAN})
    dist = in_group_order(odds(shot.procedure, shot.inputs))
    groups: dict[str, Fraction] = {}
    for outcome, p in dist.items():
        groups[group_label(outcome)] = groups.get(group_label(outcome), Fraction(0)) + p
    assert [g.split(":")[0] for g in groups] == ["miss", "no effect", "equal", "+1", "+2", "+3"]
    assert groups["miss"] == Fraction(6, 36)
    assert_odds_match_simulation(shot.procedure, shot.inputs)


def test_the_game_settings_go_into_the_inputs(game: Game) -> None:
    game.settings["grenade_movement_dice"] = 3
    squad = game.unit(SQUAD)
    squad.x, squad.y = 50.0, 20.0
    assert grenade_reach(game) == 18.0 and can_throw_grenade(game, squad)
    shot = plan_at_grenade(game, {"firer": SQUAD, "target": SHERMAN, "weapon": "Teller mine"})
    assert shot.inputs["grenade_movement_dice"] == 3 and shot.facts[0] == 'Run 16.0" on 3D6'


def test_infantry_near_a_wreck(game: Game) -> None:
    game.unit("u8").x, game.unit("u8").y = 52.0, 38.0
    assert [u.id for u in infantry_near(game, (50.0, 36.0), 4.0, SHERMAN)] == ["u8"]


def test_grenade_only_within_running_reach(game: Game) -> None:
    squad = game.unit(SQUAD)
    assert not can_throw_grenade(game, squad) and not can_throw_grenade(game, game.unit(PANZER))
    with pytest.raises(ShotRefusal, match=r"^Sherman 'Lucky' is 31\.4\" away: a figure runs at most 12\"\.$"):
        plan_at_grenade(game, {"firer": SQUAD, "target": SHERMAN, "weapon": "Teller mine"})
    squad.x, squad.y = 50.0, 30.0
    assert [v.id for v in vehicles_in_reach(game, squad)] == [SHERMAN] and can_throw_grenade(game, squad)
    shot = plan_at_grenade(game, {"firer": SQUAD, "target": SHERMAN, "weapon": "Teller mine"})
    assert shot.procedure == "coc.at_grenade"
    assert (shot.inputs["armour_dice"], shot.inputs["distance"], shot.inputs["target_id"]) == (2, 6.0, SHERMAN)
    assert shot.facts[:2] == ('Run 6.0" on 2D6', "Top armour: 2 Armour Dice")
    measured = plan_at_grenade(game, {"firer": SQUAD, "target": SHERMAN, "weapon": "Teller mine", "distance": 4.5})
    assert measured.facts[0] == 'Run 4.5" (the map gives 6.0" centre to centre) on 2D6'
    assert resolve(measured.procedure, measured.inputs, ScriptedDice([2, 1])).outcome == "failed_to_reach"
    assert_odds_match_simulation(measured.procedure, measured.inputs)
    with pytest.raises(ShotRefusal, match="^Choose the grenade or charge from the arsenal.$"):
        plan_at_grenade(game, {"firer": SQUAD, "target": SHERMAN, "weapon": "Brick"})


# -- a grenade into a vehicle ------------------------------------------------------------------------------------------

def beside_a_halftrack(game: Game, open_topped: bool = True, category: str = "apc") -> tuple[Unit, Unit]:
    """A four-man rifle team 3" from a half-track that faces it."""
    team = Unit("u40", "Rifle team", "team", 0, 30.0, 30.0, figures=4, figures_max=4,
                weapons=[Weapon("Rifles", "small_arms", 24.0, [18.0, 48.0], stats={"firepower_dice": 3})])
    vehicle = Unit("u41", "M3 half-track", "vehicle", 1, 30.0, 33.0, facing=0.0, figures=1, figures_max=1,
                   vehicle=Vehicle(category, {"front": 2, "side": 1, "rear": 1, "top": 0}, open_topped))
    game.units[team.id], game.units[vehicle.id] = team, vehicle
    return team, vehicle


def test_grenade_into_an_open_topped_halftrack(game: Game) -> None:
    team, vehicle = beside_a_halftrack(game)
    assert can_throw_into_vehicle(game, team) and not can_throw_into_vehicle(game, game.unit(PANZER))
    assert [v.id for v in vehicles_in_throw(game, team)] == [vehicle.id]
    shot = plan_grenade_into_vehicle(game, {"firer": team.id, "target": vehicle.id, "firepower_dice": 3})
    assert shot.procedure == "coc.grenade_into_vehicle"
    assert (shot.inputs["vehicle"], shot.inputs["grenade_throw_to_hit"], shot.inputs["firepower_dice"]) == (
        "open_topped", 7, 3)
    assert shot.facts[:2] == ("M3 half-track: Shock 0", "Passengers: none; only the 6s count, as Shock on the vehicle")
    # Three Firepower Dice, +1 confined space, +1 Bullseye! from the throw of 3 and 6.
    res = resolve(shot.procedure, shot.inputs, ScriptedDice([3, 6, 2, 3, 5, 6, 6]))
    assert (res.values["bullseye_dice"], res.values["vehicle_shock"]) == (1, 2)
    assert_odds_match_simulation(shot.procedure, shot.inputs)


def test_the_passengers_and_the_landed_throw(game: Game) -> None:
    team, vehicle = beside_a_halftrack(game)
    game.units["u42"] = Unit("u42", "Rifle squad", "section", 1, 30.0, 33.0, figures=8, figures_max=8,
                             stats={"embarked_in": vehicle.id, "quality": "elite"})
    game.settings["grenade_throw_to_hit"] = 9
    shot = plan_grenade_into_vehicle(game, {"firer": team.id, "target": vehicle.id, "firepower_dice": 3,
                                            "throw": "bullseye"})
    assert (shot.inputs["throw_hit"], shot.inputs["bullseye_dice"], shot.inputs["grenade_throw_to_hit"]) == (
        True, 1, 9)
    assert (shot.inputs["target_ids"], shot.inputs["target_figures"], shot.inputs["target_quality"]) == (
        "u42", "8", "elite")
    assert "Passengers: Rifle squad (8)" in shot.facts


def test_an_apc_from_outside_takes_the_armour_of_the_face_the_team_sees(game: Game) -> None:
    team, vehicle = beside_a_halftrack(game, open_topped=False)
    shot = plan_grenade_into_vehicle(game, {"firer": team.id, "target": vehicle.id, "firepower_dice": 3})
    assert (shot.inputs["vehicle"], shot.inputs["armour_dice"]) == ("apc_outside", 2)
    assert "Front armour faces the Team: 2 Armour Dice" in shot.facts
    res = resolve(shot.procedure, shot.inputs, ScriptedDice([6, 6, 2, 5, 1]))
    assert (res.values["net_hits"], res.values["vehicle_shock"]) == (1, 1)
    with pytest.raises(ShotRefusal, match="^M3 half-track's card does not allow that: it is not open-topped.$"):
        plan_grenade_into_vehicle(game, {"firer": team.id, "target": vehicle.id, "firepower_dice": 3,
                                         "mode": "open_topped"})


def test_a_closed_tank_or_one_out_of_reach_is_refused(game: Game) -> None:
    team, vehicle = beside_a_halftrack(game, open_topped=False, category="afv")
    with pytest.raises(ShotRefusal, match=r"^M3 half-track is a closed AFV, neither open-topped nor an APC: "):
        plan_grenade_into_vehicle(game, {"firer": team.id, "target": vehicle.id, "firepower_dice": 3})
    with pytest.raises(ShotRefusal, match=r"^Sherman 'Lucky' is 20\.9\" away: a grenade is thrown at a vehicle "
                                          r"within 6\"\.$"):
        plan_grenade_into_vehicle(game, {"firer": team.id, "target": SHERMAN, "firepower_dice": 3})


def test_a_unit_out_of_play_is_never_offered_nor_accepted(game: Game) -> None:
    team, vehicle = beside_a_halftrack(game)
    game.units["u42"] = Unit("u42", "Rifle squad", "section", 1, 30.0, 33.0, figures=2, figures_max=8,
                             stats={"embarked_in": vehicle.id})
    game.units["u43"] = Unit("u43", "Gun crew", "team", 1, 30.0, 33.0, stats={"embarked_in": vehicle.id},
                             conditions=[OUT_OF_PLAY])
    shot = plan_grenade_into_vehicle(game, {"firer": team.id, "target": vehicle.id, "firepower_dice": 3})
    assert (shot.inputs["target_ids"], shot.inputs["target_figures"]) == ("u42", "2")
    assert [u.id for u in infantry_near(game, (30.0, 33.0), 4.0, vehicle.id)] == [team.id, "u42"]
    game.unit("u42").conditions.append(OUT_OF_PLAY)
    assert [u.id for u in infantry_near(game, (30.0, 33.0), 4.0, vehicle.id)] == [team.id]
    vehicle.conditions.append(OUT_OF_PLAY)
    game.unit(SHERMAN).conditions.append(OUT_OF_PLAY)
    assert enemy_vehicles(game, game.unit(PANZER)) == [] and vehicles_in_throw(game, team) == []
    assert not can_throw_into_vehicle(game, team)
    with pytest.raises(ShotRefusal, match=r"^Sherman 'Lucky' is out of play: it is no longer a target\.$"):
        plan_at_fire(game, {"firer": PANZER, "target": SHERMAN, "weapon": "7.5cm KwK 40"})
    game.unit(SHERMAN).conditions.clear()
    game.unit(PANZER).conditions.append(OUT_OF_PLAY)
    assert refusal(game, firer=PANZER, target=SHERMAN, weapon="7.5cm KwK 40").startswith(
        "Panzer IV H is out of play")


def test_an_immobilised_apc_takes_the_grenade_shock_undoubled(game: Game) -> None:
    team, vehicle = beside_a_halftrack(game)
    assert vehicle.vehicle is not None
    vehicle.vehicle.damage.append("immobilised")
    shot = plan_grenade_into_vehicle(game, {"firer": team.id, "target": vehicle.id, "firepower_dice": 3})
    assert shot.inputs["vehicle_immobilised"] is False
    assert shot.facts[0] == "M3 half-track: Shock 0, immobilised"
    vehicle.vehicle.category = "afv"
    shot = plan_grenade_into_vehicle(game, {"firer": team.id, "target": vehicle.id, "firepower_dice": 3})
    assert shot.inputs["vehicle_immobilised"] is True
    assert shot.facts[0] == "M3 half-track: Shock 0, immobilised (Shock doubled)"
