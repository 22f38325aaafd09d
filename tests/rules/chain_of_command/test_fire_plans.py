"""Support-weapon and small-arms fire read from the table on the demo battle, without a dialog."""

from __future__ import annotations

import re

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.core.geometry import bearing
from battletracker.model import savefile
from battletracker.model.bombardment import Building
from battletracker.model.effects import AddUnit
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import RemoveUnit
from battletracker.model.effects import SetCondition
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.model.game import Weapon
from battletracker.model.sequence_effects import QueueForceMoraleTest
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.chain_of_command.anti_tank_plans import ShotPlan
from battletracker.rules.chain_of_command.anti_tank_plans import ShotRefusal
from battletracker.rules.chain_of_command.fire_plans import SMALL_ARMS
from battletracker.rules.chain_of_command.fire_plans import extra_target_candidates
from battletracker.rules.chain_of_command.fire_plans import fire_weapons
from battletracker.rules.chain_of_command.fire_plans import plan_fire
from battletracker.rules.chain_of_command.fire_plans import targets_for
from battletracker.rules.tables import resources_dir

MG, SQUAD, SNIPER, GERMAN_SECTION, FIRST_SQUAD, LEADER = "u3", "u8", "u9", "u1", "u7", "u10"
FIELD_NAMES = re.compile(r"\b[a-z]+_[a-z_]+\b|\d+\.\d{2,}")


@pytest.fixture
def game() -> Game:
    """The demo on an open table: these shots assume no cover or hidden target (terrain: test_fire_plans_terrain.py)."""
    demo = savefile.load(resources_dir() / "demo" / "chain_of_command.json")
    demo.terrain.clear()
    return demo


def add(game: Game, unit: Unit) -> None:
    AddUnit(unit).apply(game)


def refusal(game: Game, **choices: str | float | bool) -> str:
    with pytest.raises(ShotRefusal) as caught:
        plan_fire(game, choices)
    text = str(caught.value)
    assert not FIELD_NAMES.search(text), text
    return text


def flamethrower(fuel: int, x: float = 40.0, y: float = 30.0) -> Unit:
    return Unit("u20", "Flamethrower", "support_weapon", 1, x, y, facing=0.0, figures=2, figures_max=2,
                weapons=[Weapon("M2 flamethrower", "flamethrower", 45.0, [12.0], fuel, 3, "fuel",
                                {"firepower_dice": 12})])


def test_tripod_mg_reads_dice_arc_band_and_cover_from_the_table(game: Game) -> None:
    plan = plan_fire(game, {"firer": MG, "target": SQUAD})
    mg, squad = game.unit(MG), game.unit(SQUAD)
    assert isinstance(plan, ShotPlan) and plan.procedure == "coc.tripod_mg"
    inputs = plan.inputs
    assert inputs["firepower_dice"] == 10 and inputs["figures"] == 5 and inputs["heavy"] is False
    assert inputs["range_band"] == "effective" and inputs["cover"] == "open"
    assert inputs["target_bearing"] == pytest.approx(bearing((mg.x, mg.y), (squad.x, squad.y)))
    assert inputs["target_id"] == SQUAD and inputs["target_figures"] == "12"
    assert re.fullmatch(r'Range \d+\.\d" — Effective', plan.facts[0])
    assert plan_fire(game, {"firer": MG, "target": SQUAD, "cover": "light"}).inputs["cover"] == "light"
    assert odds(plan.procedure, plan.inputs).total() == 1


def test_an_mg_down_to_one_figure_loses_two_dice(game: Game) -> None:
    ChangeFigures(MG, -4).apply(game)
    plan = plan_fire(game, {"firer": MG, "target": SQUAD})
    assert any("8 Firepower Dice (2 lost" in fact for fact in plan.facts) and plan.inputs["figures"] == 1


def test_small_arms_take_the_units_firepower_dice_or_the_players_count(game: Game) -> None:
    section = game.unit(GERMAN_SECTION)
    ways = fire_weapons(section)
    assert ways[-1].procedure == "coc.fire" and ways[-1].name == SMALL_ARMS
    plan = plan_fire(game, {"firer": GERMAN_SECTION, "target": SQUAD, "weapon": SMALL_ARMS})
    assert plan.procedure == "coc.fire" and plan.inputs["firepower_dice"] == ways[-1].dice
    two = plan_fire(game, {"firer": GERMAN_SECTION, "target": SQUAD, "weapon": SMALL_ARMS, "firepower_dice": 2})
    assert two.inputs["firepower_dice"] == 2 and "2 Firepower Dice" in two.facts


def test_extra_teams_share_the_hits_and_suppressing_two_teams_reads_their_gap(game: Game) -> None:
    plan = plan_fire(game, {"firer": MG, "target": SQUAD, "targets": FIRST_SQUAD, "suppressing": True})
    assert plan.inputs["teams"] == 2 and plan.inputs["target_ids"] == f"{SQUAD},{FIRST_SQUAD}"
    assert "target_id" not in plan.inputs and "team_gap" in plan.inputs
    assert any(fact.startswith("Suppressing two Teams") for fact in plan.facts)
    assert "cannot share the hits" in refusal(game, firer=MG, target=SQUAD, targets=GERMAN_SECTION)
    assert SNIPER not in {u.id for u in extra_target_candidates(game, game.unit(GERMAN_SECTION), game.unit(SQUAD))}


def test_refusals_are_sentences(game: Game) -> None:
    assert "has not been spotted" in refusal(game, firer=GERMAN_SECTION, target=SNIPER)
    assert refusal(game, firer=MG, target=GERMAN_SECTION) == (
        "1. Gruppe is on the same side as sMG42 team: pick an enemy unit.")
    assert refusal(game, firer=MG) == "Choose the target."
    assert "no weapon called Bazooka" in refusal(game, firer=MG, target=SQUAD, weapon="Bazooka")
    assert "Cover is one of" in refusal(game, firer=MG, target=SQUAD, cover="deep")
    add(game, Unit("u40", "Far team", "team", 1, 300.0, 300.0, figures=4, figures_max=4))
    assert "beyond the longest range band" in refusal(game, firer=MG, target="u40")


def test_fire_at_a_spotted_sniper_is_planned_as_such_and_applies_what_its_odds_count(game: Game) -> None:
    SetCondition(SNIPER, "spotted").apply(game)
    plan = plan_fire(game, {"firer": GERMAN_SECTION, "target": SNIPER, "weapon": SMALL_ARMS, "firepower_dice": 2})
    assert plan.inputs["sniper_target"] is True
    assert any("ignores Shock" in fact for fact in plan.facts)
    assert set(odds(plan.procedure, plan.inputs).outcomes) <= {"kills=0 shock=0", "kills=1 shock=0"}
    shock = resolve(plan.procedure, plan.inputs, ScriptedDice([6, 6, 1, 2]))
    assert list(shock.effects) == [] and any("ignores the Shock" in line for line in shock.log)
    kill = resolve(plan.procedure, plan.inputs, ScriptedDice([6, 6, 6, 1]))
    assert list(kill.effects) == [QueueForceMoraleTest(SNIPER, "sniper_killed", "Sniper killed"), RemoveUnit(SNIPER)]
    assert any("Force Morale Test" in line for line in kill.log)
    assert "on its own: 1st Squad cannot share the hits" in refusal(game, firer=MG, target=SNIPER,
                                                                    targets=FIRST_SQUAD)


def test_sniper_shot_and_gun_he(game: Game) -> None:
    plan = plan_fire(game, {"firer": SNIPER, "target": GERMAN_SECTION})
    assert plan.procedure == "coc.sniper" and plan.inputs["target_kind"] == "infantry"
    assert plan.inputs["target_id"] == GERMAN_SECTION and "sniper_target" not in plan.inputs
    add(game, Unit("u21", "Pak 40", "gun", 0, 40.0, 20.0, facing=180.0, figures=2, figures_max=5,
                   weapons=[Weapon("7.5cm Pak 40", "at_gun", 45.0, [72.0], stats={"ap": 8, "he": 3})]))
    he = plan_fire(game, {"firer": "u21", "target": SQUAD})
    assert he.procedure == "coc.gun_he" and he.inputs["he_dice"] == 3 and he.inputs["crew"] == 2
    assert any("cannot move" in fact for fact in he.facts)


def test_flamethrower_reads_fuel_and_the_wooden_building(game: Game) -> None:
    add(game, flamethrower(1, 20.0, 18.0))
    plan = plan_fire(game, {"firer": "u20", "target": GERMAN_SECTION})
    assert plan.procedure == "coc.flamethrower" and plan.inputs["fuel"] == 1
    assert plan.inputs["range"] == pytest.approx(8.0) and plan.inputs["target_kind"] == "infantry"
    game.buildings["b1"] = Building("b1", "Barn", 20.0, 10.0, material="wood")
    barn = plan_fire(game, {"firer": "u20", "target": GERMAN_SECTION, "target_kind": "wooden_building"})
    assert barn.inputs["building_id"] == "b1"
    assert any(fact.endswith("then 1. Gruppe must evacuate") for fact in barn.facts)
    game.buildings["b1"] = Building("b1", "Barn", 20.0, 10.0, material="brick_stone")
    assert "only a wooden building catches fire" in refusal(game, firer="u20", target=GERMAN_SECTION,
                                                            target_kind="wooden_building")


def test_flamethrower_at_a_transport_passes_its_passengers_so_their_kills_are_capped(game: Game) -> None:
    add(game, flamethrower(3, 20.0, 18.0))
    lorry = Unit("u30", "Opel Blitz", "vehicle", 0, 20.0, 13.0, figures=1, figures_max=1,
                 vehicle=Vehicle("apc", {"front": 1, "side": 1, "rear": 1, "top": 0}, True))
    add(game, lorry)
    empty = plan_fire(game, {"firer": "u20", "target": "u30"})
    assert empty.inputs["target_kind"] == "transport" and "target_figures" not in empty.inputs
    add(game, Unit("u31", "3. Gruppe", "section", 0, 20.0, 13.0, figures=3, figures_max=10,
                   stats={"embarked_in": "u30"}))
    plan = plan_fire(game, {"firer": "u20", "target": "u30"})
    assert (plan.inputs["teams"], plan.inputs["target_ids"], plan.inputs["target_figures"]) == (1, "u31", "3")
    assert "Passengers: 3. Gruppe (3)" in plan.facts
    assert max(int(o.split()[0].removeprefix("kills=")) for o in odds(plan.procedure, plan.inputs).outcomes) == 3


def test_a_one_figure_leader_never_shows_two_kills(game: Game) -> None:
    plan = plan_fire(game, {"firer": GERMAN_SECTION, "target": LEADER, "weapon": SMALL_ARMS, "firepower_dice": 2})
    assert plan.inputs["target_figures"] == "1"
    assert "kills=2 shock=0" not in odds(plan.procedure, plan.inputs).outcomes


def test_a_sniper_not_yet_spotted_is_offered_last(game: Game) -> None:
    order = [u.id for u in targets_for(game, game.unit(GERMAN_SECTION))]
    assert order[-1] == SNIPER
    SetCondition(SNIPER, "spotted").apply(game)
    assert [u.id for u in targets_for(game, game.unit(GERMAN_SECTION))] != order
