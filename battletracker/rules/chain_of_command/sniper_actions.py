"""A sniper card's actions: the Spotted toggle and the enemy contacting its base.

Both change the table without dice, so their changes are all in the plan
(procedure `table.step`); `Session.act` records them and a replay repeats them.
"""

from __future__ import annotations

from battletracker.model.effects import SetCondition
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.actions import Choices
from battletracker.rules.actions import Plan
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import register_plan
from battletracker.rules.chain_of_command import fire_plans
from battletracker.rules.chain_of_command import snipers
from battletracker.rules.step import STEP

SPOTTED = "coc.sniper_spotted"
CONTACTED = "coc.sniper_contacted"


def _sniper(game: Game, choices: Choices) -> Unit:
    unit_id = choices.get("unit")
    if not isinstance(unit_id, str) or unit_id not in game.units:
        raise Refusal("unit", "Pick a sniper on the table first.")
    unit = game.units[unit_id]
    if not fire_plans.is_sniper(unit):
        raise Refusal("unit", f"{unit.name} is not a sniper.")
    return unit


def plan_spotted(game: Game, choices: Choices) -> Plan:
    """The sniper spotted (`spotted` true) or no longer: only a spotted sniper can be targeted."""
    unit = _sniper(game, choices)
    on = choices.get("spotted")
    if not isinstance(on, bool):
        raise Refusal("spotted", "Say whether the sniper is spotted or not.")
    if unit.has(snipers.SPOTTED) == on:
        raise Refusal("spotted", f"{unit.name} is {'already' if on else 'not'} spotted.")
    text = f"{unit.name} is spotted" if on else f"{unit.name} is no longer spotted"
    return Plan(STEP, {}, (text,), dict(choices), text, (SetCondition(unit.id, snipers.SPOTTED, on),), log=(text,))


def plan_contacted(game: Game, choices: Choices) -> Plan:
    """An enemy unit contacted the sniper's base: it leaves the area, with no Force Morale Test."""
    unit = _sniper(game, choices)
    text = f"{unit.name} is contacted by the enemy and leaves the area (no Force Morale Test)"
    loss = snipers.sniper_contacted(unit.id)
    return Plan(STEP, {}, (text,), dict(choices), f"{unit.name} contacted", tuple(loss.effects), log=(text,))


register_plan(SPOTTED, plan_spotted)
register_plan(CONTACTED, plan_contacted)
