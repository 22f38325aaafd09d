"""Armour Battles' actions: the Indirect fire, Direct fire and Close assault dialogs' plans, registered.

Each action reads the table with its plan (plans.py) and resolves the
procedure the plan picks, so a dialog's odds, `Session.act` and a replay
resolve the same thing. `ab.direct_fire` is the Direct fire dialog's one
undo step: the fire and the target's Reaction Check (`cover`: its Cover
Dice), resolved together by `ab.direct_fire_reaction`.
"""

from __future__ import annotations

from collections.abc import Callable

from battletracker.model.game import Game
from battletracker.rules.actions import Choices, Plan, procedure_plan, register_plan
from battletracker.rules.armour_battles import direct_fire as fire_and_reaction
from battletracker.rules.armour_battles.plans import AbPlan, close_assault, direct_fire, indirect_mission, reaction

INDIRECT_MISSION = "ab.indirect_mission"
DIRECT_FIRE = "ab.direct_fire"
REACTION = "ab.reaction"
CLOSE_ASSAULT = "ab.close_assault"


def _adapt(read: Callable[[Game, Choices], AbPlan], title: str) -> Callable[[Game, Choices], Plan]:
    """The action read by `read`; `title` names its undo step from the `firer`'s (and `target`'s) names."""

    def plan(game: Game, choices: Choices) -> Plan:
        ab = read(game, choices)
        names = {key: game.unit(str(choices[key])).name for key in ("firer", "target") if key in choices}
        return procedure_plan(game, ab.procedure, ab.inputs, ab.facts, choices, title.format(**names))

    plan.__doc__ = f"The action read by `{read.__name__}`, as a Plan."
    return plan


def plan_direct_fire(game: Game, choices: Choices) -> Plan:
    """The fire read from the table, then the target's Reaction Check with the `cover` Dice picked."""
    shot = direct_fire(game, {k: v for k, v in choices.items() if k != "cover"})
    answer = reaction(game, {"firer": choices.get("firer", ""), "target": choices.get("target", ""),
                             "mode": "direct", "cover": choices.get("cover", 0)})
    title = f"Direct fire: {game.unit(str(choices['firer'])).name} at {game.unit(str(choices['target'])).name}"
    return procedure_plan(game, fire_and_reaction.NAME, fire_and_reaction.joined(shot.inputs, answer.inputs),
                          shot.facts, choices, title)


register_plan(INDIRECT_MISSION, _adapt(indirect_mission, "Indirect fire: {firer}"))
register_plan(DIRECT_FIRE, plan_direct_fire)
register_plan(REACTION, _adapt(reaction, "Reaction Check: {target}"))
register_plan(CLOSE_ASSAULT, _adapt(close_assault, "Close assault: {firer} against {target}"))
