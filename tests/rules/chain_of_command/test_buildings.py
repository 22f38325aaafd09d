"""Buildings: placing and entering, four 6s of H.E., collapse at the Turn end into smoke, fire, smoke to hit."""

from __future__ import annotations

import pytest

from battletracker.model import savefile
from battletracker.model.bombardment import Building
from battletracker.model.bombardment import SmokeArea
from battletracker.model.bombardment_effects import SetBuildingState
from battletracker.model.effects import Effect
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.rules import RulesInputError
from battletracker.rules.chain_of_command import bombardment as bm
from battletracker.rules.chain_of_command.bombardment_phase import phase_inputs
from battletracker.rules.chain_of_command.buildings import add_building
from battletracker.rules.chain_of_command.buildings import building_of
from battletracker.rules.chain_of_command.buildings import collapse_at_turn_end
from battletracker.rules.chain_of_command.buildings import enter
from battletracker.rules.chain_of_command.buildings import he_sixes
from battletracker.rules.chain_of_command.buildings import leave
from battletracker.rules.chain_of_command.buildings import set_on_fire
from battletracker.rules.chain_of_command.buildings import smoke_to_hit
from battletracker.rules.chain_of_command.phase_end import end_phase_effects
from battletracker.rules.chain_of_command.phase_end import end_turn_effects


def table() -> Game:
    game = Game(sides=[Side("British", "#3366cc"), Side("German", "#cc3333")])
    for unit in (Unit("u1", "1 Section", "section", 0, 10.0, 10.0), Unit("sn", "Sniper", "sniper", 1, 10.0, 10.0),
                 Unit("u2", "2 Gruppe", "section", 1, 30.0, 30.0)):
        game.units[unit.id] = unit
    game.buildings = {
        "brick": Building("brick", "Farmhouse", 10.0, 10.0, 6.0, 4.0, 0.0, "brick_stone", 2, ["sn", "u1"]),
        "wood": Building("wood", "Barn", 30.0, 30.0, 6.0, 4.0, 0.0, "wood", 1, ["u2"]),
    }
    return game


def test_placing_a_building_and_going_in_and_out() -> None:
    game = table()
    game.apply_all(add_building(game, "Church", (40.0, 10.0), width=8.0, depth=12.0, storeys=3))
    church = game.buildings["bld1"]
    assert (church.material, church.storeys, church.state, church.centre) == ("brick_stone", 3, "intact",
                                                                              (40.0, 10.0))
    game.apply_all(enter(game, "bld1", "u1"))
    assert building_of(game, "u1") is church and "u1" not in game.buildings["brick"].occupants
    game.apply_all(leave(game, "u1"))
    assert building_of(game, "u1") is None and leave(game, "u1") == []


@pytest.mark.parametrize(("call", "field", "message"), [
    (lambda g: add_building(g, "Hut", (1.0, 1.0), width=2.0, depth=2.0, material="straw"), "material",
     "must be one of wood, brick_stone, not 'straw'"),
    (lambda g: add_building(g, "Hut", (1.0, 1.0), width=2.0, depth=2.0, storeys=0), "storeys",
     "at least one storey, not 0"),
    (lambda g: add_building(g, "Hut", (1.0, 1.0), width=0.0, depth=2.0), "width", "more than 0 inches, not 0"),
    (lambda g: add_building(g, "Hut", (1.0, 1.0), width=2.0, depth=2.0, building_id="brick"), "building_id",
     "'brick' is already a building"),
    (lambda g: enter(g, "nope", "u1"), "building_id", "no building with id 'nope'"),
    (lambda g: enter(g, "wood", "ghost"), "unit_id", "no unit with id 'ghost'"),
    (lambda g: he_sixes(g, "brick", -1), "sixes", "cannot be negative"),
])
def test_refusals(call: object, field: str, message: str) -> None:
    game = table()
    with pytest.raises(RulesInputError, match=message) as err:
        call(game)  # type: ignore[operator]
    assert err.value.field == field


def test_no_unit_goes_into_a_ruin_or_a_fire() -> None:
    game = table()
    game.buildings["wood"].state = "on_fire"
    with pytest.raises(RulesInputError, match="Barn is on fire; no unit can go in"):
        enter(game, "wood", "u1")


def test_four_sixes_of_he_make_brick_or_stone_unstable() -> None:
    game = table()
    assert he_sixes(game, "brick", 3) == [] and he_sixes(game, "wood", 6) == []
    effects = he_sixes(game, "brick", 4)
    assert effects[0] == SetBuildingState("brick", "unstable")
    game.apply_all(effects)
    assert game.buildings["brick"].state == "unstable" and he_sixes(game, "brick", 5) == []


def test_a_building_on_fire_is_evacuated_at_once() -> None:
    game = table()
    game.apply_all(set_on_fire(game, "wood"))
    assert (game.buildings["wood"].state, game.buildings["wood"].occupants) == ("on_fire", [])
    assert "Barn is on fire: evacuate 2 Gruppe at once" in game.log[-1].text
    with pytest.raises(RulesInputError, match="Barn is already on fire"):
        set_on_fire(game, "wood")


def test_an_unstable_building_collapses_at_the_turn_end_into_smoke_that_clears_at_the_next() -> None:
    game = table()
    before = savefile.dumps(game)
    undo: list[list[Effect]] = [game.apply_all(he_sixes(game, "brick", 4))]
    undo.append(game.apply_all(end_phase_effects(game)))
    assert game.buildings["brick"].state == "unstable", "it waits for the end of the Turn"
    count = len(game.log)
    undo.append(game.apply_all(end_turn_effects(game)))
    house = game.buildings["brick"]
    assert (house.state, house.occupants) == ("collapsed", [])
    (smoke,) = game.smoke.values()
    assert (smoke.centre, smoke.width, smoke.depth, smoke.to_hit, smoke.source) == (
        (10.0, 10.0), 6.0, 4.0, -1, "collapse:brick")
    lines = [e.text for e in game.log[count:]]
    assert "Sniper: relocate up to 12\" into cover at once" in lines
    assert "1 Section: caught in the collapse; resolve Structures Collapsing (Section 14.4.2.1)" in lines
    undo.append(game.apply_all(end_phase_effects(game)))
    assert len(game.smoke) == 1
    undo.append(game.apply_all(end_turn_effects(game)))
    assert game.smoke == {} and "The smoke of the collapsed Farmhouse clears" in game.log[-1].text
    assert collapse_at_turn_end(game) == []
    for inverses in reversed(undo):
        for inverse in reversed(inverses):
            game.apply(inverse)
    assert savefile.dumps(game) == before


def test_smoke_on_the_line_of_fire_is_minus_one_to_hit_each() -> None:
    game = table()
    game.smoke = {"s1": SmokeArea("s1", 20.0, 20.0, 4.0, 4.0), "s2": SmokeArea("s2", 30.0, 20.0, 4.0, 4.0)}
    assert smoke_to_hit(game, (10.0, 20.0), (25.0, 20.0)) == -1
    assert smoke_to_hit(game, (10.0, 20.0), (40.0, 20.0)) == -2
    assert smoke_to_hit(game, (10.0, 10.0), (40.0, 10.0)) == 0


def test_only_empty_intact_brick_buildings_in_a_bombardment_roll_for_their_sixes() -> None:
    game = table()
    game.buildings["church"] = Building("church", "Church", 12.0, 14.0, 4.0, 4.0, 0.0, "brick_stone", 1)
    game.buildings["shed"] = Building("shed", "Shed", 8.0, 14.0, 2.0, 2.0, 0.0, "wood", 1)
    game.apply_all(bm.new_bombardment(game, 0, (5.0, 5.0), (10.0, 10.0), phases=2))
    b = game.bombardments["b1"]
    b.state, b.pattern_die = "ready", 1
    inputs = phase_inputs(game, "b1", "begun")
    kinds = {inputs[f"target{i}_id"]: inputs[f"target{i}_kind"] for i in range(1, int(inputs["targets"]) + 1)}
    assert kinds == {"u1": "infantry", "sn": "infantry", "church": "building"}
