"""What is off the table stays off it: a destroyed, exploded or abandoned vehicle, a wreck, a unit out of play is
never a firer, a target or a unit to activate (`Unit.off_table`, `Unit.in_play`)."""

from __future__ import annotations

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import add_shock
from battletracker.model.game import OUT_OF_PLAY
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import plan
from battletracker.rules.chain_of_command.anti_tank_plans import ShotRefusal
from battletracker.rules.chain_of_command.anti_tank_plans import enemy_vehicles
from battletracker.rules.chain_of_command.anti_tank_plans import plan_at_fire
from battletracker.rules.chain_of_command.anti_tank_plans import plan_at_grenade
from battletracker.rules.chain_of_command.anti_tank_plans import plan_grenade_into_vehicle
from battletracker.rules.chain_of_command.fire_plans import plan_fire
from battletracker.rules.chain_of_command.fire_plans import targets_for
from battletracker.rules.tables import resources_dir
from tests.rules.oddscheck import assert_odds_match_simulation

PANZER, SCHRECK, SHERMAN, MG, SQUAD, FIRST_SQUAD, GERMAN_SECTION = "u6", "u4", "u11", "u3", "u8", "u7", "u1"


@pytest.fixture
def game() -> Game:
    demo = savefile.load(resources_dir() / "demo" / "chain_of_command.json")
    demo.terrain.clear()
    return demo


def destroy(game: Game, unit_id: str, result: str = "destroyed") -> Unit:
    unit = game.unit(unit_id)
    assert unit.vehicle is not None
    unit.vehicle.damage.append(result)
    return unit


def refused(read: object, game: Game, **choices: object) -> str:
    with pytest.raises(ShotRefusal) as caught:
        read(game, choices)  # type: ignore[operator]
    return str(caught.value)


@pytest.mark.parametrize(("damage", "conditions", "words"), [
    (["destroyed"], [], "destroyed"),
    (["immobilised", "explodes"], [], "destroyed"),
    (["abandoned"], [], "abandoned"),
    ([], ["abandoned"], "abandoned"),
    ([], ["wreck"], "a wreck"),
    ([], [OUT_OF_PLAY], "out of play"),
    (["immobilised", "engine_damage"], ["pinned"], None),
])
def test_one_predicate_says_why_a_unit_is_off_the_table(damage: list[str], conditions: list[str],
                                                        words: str | None) -> None:
    unit = Unit("v", "Tank", "vehicle", 0, 0.0, 0.0, conditions=list(conditions), vehicle=Vehicle(damage=damage))
    assert unit.off_table == words
    assert unit.in_play is (words is None)


def test_no_figures_alone_is_not_off_the_table() -> None:
    """Chain of Command marks a unit with no figure left out of play; Necromunda keeps it in play."""
    assert Unit("t", "Team", "team", 0, 0.0, 0.0, figures=0).in_play


def test_the_mg_cannot_fire_at_a_destroyed_sherman(game: Game) -> None:
    assert SHERMAN in {u.id for u in targets_for(game, game.unit(MG))}
    destroy(game, SHERMAN)
    assert SHERMAN not in {u.id for u in targets_for(game, game.unit(MG))}
    assert refused(plan_fire, game, firer=MG, target=SHERMAN) == \
        "Sherman 'Lucky' is destroyed: it is no longer a target."


def test_an_abandoned_vehicle_neither_fires_nor_is_fired_at(game: Game) -> None:
    game.unit(PANZER).conditions.append("abandoned")
    assert refused(plan_fire, game, firer=PANZER, target=FIRST_SQUAD, weapon="Hull MG") == \
        "Panzer IV H is abandoned: it can no longer fire."
    assert refused(plan_at_fire, game, firer=PANZER, target=SHERMAN) == \
        "Panzer IV H is abandoned: it can no longer fire."
    assert refused(plan_at_fire, game, firer=SHERMAN, target=PANZER) == \
        "Panzer IV H is abandoned: it is no longer a target."
    assert PANZER not in {u.id for u in enemy_vehicles(game, game.unit(SHERMAN))}


def test_the_panzer_cannot_fire_again_at_the_tank_it_destroyed(game: Game) -> None:
    plan_at_fire(game, {"firer": PANZER, "target": SHERMAN})
    destroy(game, SHERMAN, "explodes")
    assert enemy_vehicles(game, game.unit(PANZER)) == []
    assert refused(plan_at_fire, game, firer=PANZER, target=SHERMAN) == \
        "Sherman 'Lucky' is destroyed: it is no longer a target."
    assert refused(plan_fire, game, firer=SHERMAN, target=SQUAD, weapon="Hull MG") == \
        "Sherman 'Lucky' is destroyed: it can no longer fire."


def test_no_grenade_at_a_wreck(game: Game) -> None:
    game.unit(SHERMAN).conditions.append("wreck")
    for read in (plan_at_grenade, plan_grenade_into_vehicle):
        assert refused(read, game, firer=SQUAD, target=SHERMAN, weapon="Gammon bomb", firepower_dice=3) == \
            "Sherman 'Lucky' is a wreck: it is no longer a target."


def test_a_destroyed_tank_is_not_activated(game: Game) -> None:
    game.active_side = game.unit(SHERMAN).side
    destroy(game, SHERMAN)
    with pytest.raises(Refusal) as caught:
        plan("coc.spend_command_die", game, {"face": 3, "unit": SHERMAN})
    assert str(caught.value) == "Sherman 'Lucky' is destroyed: it cannot be activated."


# --- fire with no A.P. at a vehicle (001, Section 16) ---------------------------------------------------------------

def halftrack(game: Game, damage: list[str] | None = None) -> Unit:
    """An American APC where the Sherman stands, facing the same way: the sMG42 strikes the face the Sherman shows."""
    sherman = game.unit(SHERMAN)
    unit = Unit("u30", "M3 half-track", "vehicle", 1, sherman.x, sherman.y, facing=sherman.facing, figures=2,
                figures_max=2, vehicle=Vehicle("apc", {"front": 2, "side": 1, "rear": 1, "top": 0},
                                               damage=list(damage or [])))
    game.units[unit.id] = unit
    return unit


def test_mg_fire_at_a_closed_sherman_is_its_frontal_armour_dice_never_kills_and_shock(game: Game) -> None:
    shot = plan_fire(game, {"firer": MG, "target": SHERMAN})
    assert shot.procedure == "coc.armour_save_only"
    assert dict(shot.inputs) == {"armour_dice": 6, "target": "afv", "target_shock": 0, "target_immobilised": False,
                                 "target_id": SHERMAN}
    assert "no A.P. Strike Dice" in shot.facts[-1] and "frontal 6 Armour Dice" in shot.facts[-1]
    saved = resolve(shot.procedure, shot.inputs, ScriptedDice([1, 2, 3, 4, 5, 1]))
    assert saved.outcome == "no_effect" and saved.effects == ()
    # no save at all: one D6 on the Equal Hits & Saves table; a 1 or 2 is 1 Shock and reverse 1D6
    unsaved = resolve(shot.procedure, shot.inputs, ScriptedDice([1, 2, 3, 4, 1, 2, 1]))
    assert unsaved.outcome == "equal:reverse"
    assert add_shock(SHERMAN, 1) in unsaved.effects
    assert not any(isinstance(e, ChangeFigures) for e in unsaved.effects)


def test_an_mg_under_suppressing_fire_adds_one_to_each_armour_die(game: Game) -> None:
    game.unit(MG).conditions.append("suppressed")
    shot = plan_fire(game, {"firer": MG, "target": SHERMAN})
    assert shot.inputs["firer_under_suppressing_fire"] is True and "+1 each" in shot.facts[-1]
    assert resolve(shot.procedure, shot.inputs, ScriptedDice([4, 1, 1, 1, 1, 1])).outcome == "no_effect"


def test_the_panzers_hull_mg_at_the_sherman_and_its_gun_refused(game: Game) -> None:
    shot = plan_fire(game, {"firer": PANZER, "target": SHERMAN, "weapon": "Hull MG"})
    assert shot.procedure == "coc.armour_save_only" and shot.inputs["armour_dice"] == 6
    assert refused(plan_fire, game, firer=PANZER, target=SHERMAN, weapon="7.5cm KwK 40").startswith(
        "Sherman 'Lucky' is an armoured vehicle: fire A.P. at it with Anti-tank fire")


def test_mg_fire_at_an_apc_penetrates_on_sixes_and_net_hits_are_shock(game: Game) -> None:
    apc = halftrack(game)
    shot = plan_fire(game, {"firer": MG, "target": apc.id})
    assert shot.procedure == "coc.grenade_into_vehicle"
    assert shot.inputs["vehicle"] == "apc_outside" and shot.inputs["firepower_dice"] == 10
    assert shot.inputs["armour_dice"] == 2  # the front, as the Sherman's aspect from the MG is the front
    # ten Firepower Dice: three 6s penetrate; the two Armour Dice save one: two net hits, two Shock on the APC
    res = resolve(shot.procedure, shot.inputs, ScriptedDice([6, 6, 6, 5, 4, 3, 2, 1, 1, 1, 5, 2]))
    assert res.outcome == "vehicle_shock=2"
    assert (res.values["penetrating_hits"], res.values["saves"], res.values["net_hits"]) == (3, 1, 2)
    assert list(res.effects) == [add_shock(apc.id, 2)]


def test_small_arms_at_an_apc_and_an_immobilised_one(game: Game) -> None:
    apc = halftrack(game, ["immobilised"])
    shot = plan_fire(game, {"firer": GERMAN_SECTION, "target": apc.id, "firepower_dice": 3})
    assert shot.inputs["firepower_dice"] == 3 and shot.inputs["vehicle_immobilised"] is False  # APC: not doubled
    res = resolve(shot.procedure, shot.inputs, ScriptedDice([6, 1, 1, 4, 4]))
    assert res.outcome == "vehicle_shock=1"


@pytest.mark.parametrize("target", ["afv", "apc"])
def test_fire_at_a_vehicle_odds_match_simulation(game: Game, target: str) -> None:
    target_id = SHERMAN if target == "afv" else halftrack(game).id
    shot = plan_fire(game, {"firer": MG, "target": target_id})
    assert odds(shot.procedure, shot.inputs).total() == 1
    assert_odds_match_simulation(shot.procedure, dict(shot.inputs))
