"""What the table adds to fire at infantry: the target's building, smoke, a firing vehicle's Shock and optics."""

from __future__ import annotations

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.bombardment import Building
from battletracker.model.bombardment import SmokeArea
from battletracker.model.effects import Effect
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.model.game import Weapon
from battletracker.rules import resolve
from battletracker.rules.chain_of_command.fire_table import VehicleFire
from battletracker.rules.chain_of_command.fire_table import gun_he_facts
from battletracker.rules.chain_of_command.fire_table import smoke_on_the_line
from battletracker.rules.chain_of_command.fire_table import target_building
from battletracker.rules.chain_of_command.fire_table import vehicle_fire
from battletracker.rules.chain_of_command.fire_table import vehicle_weapons
from battletracker.rules.chain_of_command.phase_end import end_turn_effects


def tank(shock: int = 0, damage: tuple[str, ...] = ()) -> Unit:
    return Unit("pz", "Panzer IV", "vehicle", 1, 10.0, 20.0, figures=5, figures_max=5,
                counters={"shock": shock}, vehicle=Vehicle("afv", damage=list(damage)),
                weapons=[Weapon("7.5cm KwK 40", "tank_gun", 45.0, [72.0], stats={"ap": 9, "he": 4}),
                         Weapon("Hull MG", "mg", 45.0, [18.0, 72.0], stats={"firepower_dice": 6}),
                         Weapon(".50 cal", "hmg", None, [18.0, 72.0], stats={"firepower_dice": 8})])


def table(firer: Unit) -> Game:
    game = Game(sides=[Side("British", "#3366cc"), Side("German", "#cc3333")])
    for unit in (firer, Unit("u1", "1 Section", "section", 0, 40.0, 20.0, figures=8, figures_max=8),
                 Unit("u2", "2 Section", "section", 0, 40.0, 40.0, figures=8, figures_max=8)):
        game.units[unit.id] = unit
    game.buildings = {
        "farm": Building("farm", "Farmhouse", 40.0, 20.0, 6.0, 4.0, 0.0, "brick_stone", 1, ["u1"]),
        "barn": Building("barn", "Barn", 40.0, 40.0, 6.0, 4.0, 0.0, "wood", 1, ["u2"]),
        "mill": Building("mill", "Mill", 25.0, 20.0, 4.0, 4.0, 0.0, "brick_stone", 1, [], "collapsed"),
    }
    return game


def test_the_targets_building_comes_from_its_occupants() -> None:
    game = table(tank())
    farm = target_building(game, game.unit("u1"))
    assert farm.inputs == {"target_in_building": True, "building": "brick_stone", "building_intact": True,
                           "building_id": "farm", "building_name": "Farmhouse"}
    assert farm.notes == ["1 Section is in Farmhouse (brick or stone): four 6s make it unstable"]
    barn = target_building(game, game.unit("u2"))
    assert barn.inputs["building"] == "wood" and barn.notes == ["2 Section is in Barn (wood)"]
    game.buildings["farm"].state = "unstable"
    assert target_building(game, game.unit("u1")).notes == ["1 Section is in Farmhouse (brick or stone, unstable)"]
    assert target_building(game, game.unit("pz")).inputs == {}


def test_the_smoke_of_a_collapsed_building_on_the_line_of_fire_is_minus_one() -> None:
    game = table(tank())
    assert smoke_on_the_line(game, game.unit("pz"), game.unit("u1")).inputs == {}
    game.smoke = {"s1": SmokeArea("s1", 25.0, 20.0, 4.0, 4.0, source="collapse:mill")}
    facts = smoke_on_the_line(game, game.unit("pz"), game.unit("u1"))
    assert facts.inputs == {"to_hit_modifier": -1}
    assert facts.notes == ["Firing through the smoke of the collapsed Mill: -1 to hit"]
    assert smoke_on_the_line(game, game.unit("pz"), game.unit("u2")).inputs == {}   # the line passes south of it


def test_an_armoured_vehicle_loses_a_firepower_die_per_shock_and_damaged_optics_cost_he_a_one() -> None:
    mg = vehicle_fire(tank(shock=2), 6, he=False)
    assert (mg.dice, mg.to_hit_modifier) == (4, 0)
    assert mg.notes == ("2 Shock on Panzer IV: 6 Firepower Dice become 4 (one fewer per point of Shock)",)
    assert vehicle_fire(tank(shock=9), 6, he=False).dice == 0
    he = vehicle_fire(tank(shock=1, damage=("optics_damaged",)), 4, he=True)
    assert (he.dice, he.to_hit_modifier) == (3, -1) and "Optics damaged: -1 to hit with H.E." in he.notes
    assert vehicle_fire(tank(damage=("optics_damaged",)), 6, he=False).to_hit_modifier == 0   # MGs are not H.E.
    assert vehicle_fire(tank(), 6, he=True) == VehicleFire(6, 0, ())


def test_a_vehicle_fires_its_gun_as_he_and_each_machine_gun_on_its_own() -> None:
    weapons = [(w.index, w.procedure, w.dice, w.heavy) for w in vehicle_weapons(tank())]
    assert weapons == [(0, "coc.gun_he", 4, False), (1, "coc.fire", 6, False), (2, "coc.fire", 8, True)]


def test_he_from_a_shocked_tank_with_damaged_optics_through_smoke_at_a_stone_house() -> None:
    game = table(tank(shock=1, damage=("optics_damaged",)))
    game.smoke = {"s1": SmokeArea("s1", 25.0, 20.0, 4.0, 4.0, source="collapse:mill")}
    facts = gun_he_facts(game, game.unit("pz"), game.unit("u1"), 4)
    assert facts.inputs["he_dice"] == 3 and facts.inputs["to_hit_modifier"] == -2
    res = resolve("coc.gun_he", {**facts.inputs, "cover": "hard", "crew": 5, "target_id": "u1"},
                  ScriptedDice([6, 6, 6, 6, 5, 6, 1, 1, 1, 1, 1]))
    assert res.values["to_hit"] == 6 and res.values["hits"] == 5      # 4+, -1 optics, -1 smoke: 6s only
    assert res.outcome.endswith(" building_unstable")
    before = savefile.dumps(game)
    undo: list[list[Effect]] = [game.apply_all(res.effects)]
    assert game.buildings["farm"].state == "unstable"
    undo.append(game.apply_all(end_turn_effects(game)))
    assert game.buildings["farm"].state == "collapsed"
    for inverses in reversed(undo):
        for inverse in reversed(inverses):
            game.apply(inverse)
    assert savefile.dumps(game) == before
