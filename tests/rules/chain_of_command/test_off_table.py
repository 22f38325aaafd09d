"""What is off the table stays off it: a destroyed, exploded or abandoned vehicle, a wreck, a unit out of play is
never a firer, a target or a unit to activate (`Unit.off_table`, `Unit.in_play`)."""

from __future__ import annotations

import pytest

from battletracker.model import savefile
from battletracker.model.game import OUT_OF_PLAY, Game, Unit, Vehicle
from battletracker.rules.actions import Refusal, plan
from battletracker.rules.chain_of_command.anti_tank_plans import (
    ShotRefusal,
    enemy_vehicles,
    plan_at_fire,
    plan_at_grenade,
    plan_grenade_into_vehicle,
)
from battletracker.rules.chain_of_command.fire_plans import plan_fire, targets_for
from battletracker.rules.tables import resources_dir

PANZER, SCHRECK, SHERMAN, MG, SQUAD, FIRST_SQUAD = "u6", "u4", "u11", "u3", "u8", "u7"


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
