"""Armour Battles' actions: the Indirect fire, Direct fire and Close assault dialogs' plans, registered.

Each action reads the table with its plan (plans.py) and resolves the
procedure the plan picks, so a dialog's odds, `Session.act` and a replay
resolve the same thing. The Direct fire dialog's Reaction Check is an action
of its own, `ab.reaction`, taken after the fire it answers.
"""

from __future__ import annotations

from collections.abc import Callable

from battletracker.model.game import Game
from battletracker.rules.actions import Choices, Plan, procedure_plan, register_plan
from battletracker.rules.armour_battles.plans import AbPlan, close_assault, direct_fire, indirect_mission, reaction

INDIRECT_MISSION = "ab.indirect_mission"
DIRECT_FIRE = "ab.direct_fire"
REACTION = "ab.reaction"
CLOSE_ASSAULT = "ab.close_assault"


def _title(game: Game, choices: Choices, procedure_title: str) -> str:
    names = [game.units[str(choices[key])].name for key in ("firer", "target")
             if str(choices.get(key, "")) in game.units]
    return f"{procedure_title}: {' against '.join(names)}" if names else procedure_title


def _adapt(read: Callable[[Game, Choices], AbPlan]) -> Callable[[Game, Choices], Plan]:
    def plan(game: Game, choices: Choices) -> Plan:
        from battletracker.rules import get

        ab = read(game, choices)
        return procedure_plan(game, ab.procedure, ab.inputs, ab.facts, choices,
                              _title(game, choices, get(ab.procedure).title))

    plan.__doc__ = f"The action read by `{read.__name__}`, as a Plan."
    return plan


register_plan(INDIRECT_MISSION, _adapt(indirect_mission))
register_plan(DIRECT_FIRE, _adapt(direct_fire))
register_plan(REACTION, _adapt(reaction))
register_plan(CLOSE_ASSAULT, _adapt(close_assault))
