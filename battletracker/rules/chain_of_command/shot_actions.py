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
from dataclasses import replace

from battletracker.model.game import Game
from battletracker.rules.actions import Choices
from battletracker.rules.actions import Plan
from battletracker.rules.actions import procedure_plan
from battletracker.rules.actions import register_plan
from battletracker.rules.chain_of_command.activation import FIRE
from battletracker.rules.chain_of_command.activation import acting
from battletracker.rules.chain_of_command.anti_tank_plans import ShotPlan
from battletracker.rules.chain_of_command.anti_tank_plans import plan_at_fire
from battletracker.rules.chain_of_command.anti_tank_plans import plan_at_grenade
from battletracker.rules.chain_of_command.anti_tank_plans import plan_grenade_into_vehicle
from battletracker.rules.chain_of_command.fire_plans import plan_fire

AT_FIRE = "coc.at_fire"
AT_GRENADE = "coc.at_grenade"
GRENADE_INTO_VEHICLE = "coc.grenade_into_vehicle"
SHOOT = "coc.shoot"


def shot_plan(read: Callable[[Game, Choices], ShotPlan], title: str) -> Callable[[Game, Choices], Plan]:
    """The action read by `read`; `title` names its undo step from the `firer`'s and `target`'s names.

    A new shot registers its plan through this (`register_plan(NAME, shot_plan(read, title))`), so it
    keeps the rules every shot keeps: who may fire now, and what firing spends.

    The firer must be activated, or be activated by the choice `activation`, and
    not have fired this Phase (activation.py): the step spends what activates it.
    """

    def plan(game: Game, choices: Choices) -> Plan:
        shot_choices = {k: v for k, v in choices.items() if k != "activation"}
        shot = read(game, shot_choices)
        firer = game.unit(str(choices.get("firer", "")))
        activated, facts = acting(game, firer, FIRE, choices)
        names = {key: game.unit(str(choices.get(key, ""))).name for key in ("firer", "target")}
        planned = procedure_plan(game, shot.procedure, shot.inputs, (*facts, *shot.facts), choices,
                                 title.format(**names))
        return replace(planned, log=(*facts, *shot.log), effects=tuple(activated))

    plan.__doc__ = f"The action read by `{read.__name__}`, as a Plan."
    return plan


register_plan(AT_FIRE, shot_plan(plan_at_fire, "Anti-tank fire: {firer} at {target}"))
register_plan(AT_GRENADE, shot_plan(plan_at_grenade, "Anti-tank grenade: {firer} at {target}"))
register_plan(GRENADE_INTO_VEHICLE, shot_plan(plan_grenade_into_vehicle, "{firer} throws a grenade at {target}"))
register_plan(SHOOT, shot_plan(plan_fire, "{firer} fires at {target}"))
