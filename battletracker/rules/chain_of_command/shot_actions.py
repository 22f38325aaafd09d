"""Chain of Command's shots as actions: the Fire, anti-tank and grenade dialogs' plans, registered.

Each action reads the table with its plan (fire_plans.py, anti_tank_plans.py)
and resolves the procedure that plan picks, so what a dialog shows and what
`Session.act` applies and a replay repeats are the same shot. `coc.shoot` is
the Fire dialog's action: its plan picks the procedure for the weapon
(`coc.fire`, `coc.tripod_mg`, `coc.gun_he`, `coc.sniper`, `coc.flamethrower`),
so it is not named after any one of them.
"""

from __future__ import annotations

from collections.abc import Callable

from battletracker.model.game import Game
from battletracker.rules.actions import Choices, Plan, procedure_plan, register_plan
from battletracker.rules.chain_of_command.anti_tank_plans import (
    ShotPlan,
    plan_at_fire,
    plan_at_grenade,
    plan_grenade_into_vehicle,
)
from battletracker.rules.chain_of_command.fire_plans import plan_fire

AT_FIRE = "coc.at_fire"
AT_GRENADE = "coc.at_grenade"
GRENADE_INTO_VEHICLE = "coc.grenade_into_vehicle"
SHOOT = "coc.shoot"


def _title(game: Game, choices: Choices, procedure_title: str) -> str:
    """"Anti-tank fire: PaK 40 at Panzer IV" from the firer and the target picked."""
    names = [game.units[str(choices[key])].name for key in ("firer", "target")
             if str(choices.get(key, "")) in game.units]
    return f"{procedure_title}: {' at '.join(names)}" if names else procedure_title


def _adapt(read: Callable[[Game, Choices], ShotPlan]) -> Callable[[Game, Choices], Plan]:
    def plan(game: Game, choices: Choices) -> Plan:
        from battletracker.rules import get

        shot = read(game, choices)
        return procedure_plan(game, shot.procedure, shot.inputs, shot.facts, choices,
                              _title(game, choices, get(shot.procedure).title))

    plan.__doc__ = f"The action read by `{read.__name__}`, as a Plan."
    return plan


register_plan(AT_FIRE, _adapt(plan_at_fire))
register_plan(AT_GRENADE, _adapt(plan_at_grenade))
register_plan(GRENADE_INTO_VEHICLE, _adapt(plan_grenade_into_vehicle))
register_plan(SHOOT, _adapt(plan_fire))
