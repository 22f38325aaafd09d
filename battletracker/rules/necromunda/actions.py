"""Necromunda's Shoot as an action: `necro.attack`, read by `plans.attack_plan`, registered.

The walking-fire models the player picks mid-resolution (`ChoiceNeeded`
"walking_fire") come back among the choices and join the inputs, so the
action resolves, and a replay repeats, the very allocation the player made.
"""

from __future__ import annotations

from battletracker.model.game import Game
from battletracker.rules.actions import Choices, Plan, procedure_plan, register_plan
from battletracker.rules.necromunda.plans import attack_plan

ATTACK = "necro.attack"
ANSWERS = ("walking_fire",)


def plan_attack(game: Game, choices: Choices) -> Plan:
    """The Shoot action read from the table, with the walking-fire answers given so far."""
    necro = attack_plan(game, {k: v for k, v in choices.items() if k not in ANSWERS})
    return procedure_plan(game, necro.procedure, necro.inputs, necro.facts, choices, necro.title, ANSWERS)


register_plan(ATTACK, plan_attack)
