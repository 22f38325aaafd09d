"""Armour Battles' actions: the Indirect fire, Direct fire and Close assault dialogs' plans, registered.

Each action reads the table with its plan (plans.py) and resolves the
procedure the plan picks, so a dialog's odds, `Session.act` and a replay
resolve the same thing. `ab.direct_fire` is the Direct fire dialog's one
undo step: the fire and the target's Reaction Check (`cover`: its Cover
Dice), resolved together by `ab.direct_fire_reaction`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import SetCondition
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.actions import Choices
from battletracker.rules.actions import Plan
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import procedure_plan
from battletracker.rules.actions import register_plan
from battletracker.rules.armour_battles import direct_fire as fire_and_reaction
from battletracker.rules.armour_battles.plans import AbPlan
from battletracker.rules.armour_battles.plans import close_assault
from battletracker.rules.armour_battles.plans import direct_fire
from battletracker.rules.armour_battles.plans import indirect_mission
from battletracker.rules.armour_battles.plans import reaction
from battletracker.rules.armour_battles.reaction import ARTILLERY_SUPPRESSED
from battletracker.rules.armour_battles.reaction import DISRUPTION
from battletracker.rules.armour_battles.reaction import SUPPRESSED
from battletracker.rules.choices import chosen_unit
from battletracker.rules.step import STEP

INDIRECT_MISSION = "ab.indirect_mission"
DIRECT_FIRE = "ab.direct_fire"
REACTION = "ab.reaction"
CLOSE_ASSAULT = "ab.close_assault"
SUPPRESSION = "ab.suppression"
DISRUPTION_POINTS = "ab.disruption"

SUPPRESSION_TITLES = ("None", "Suppressed", "Suppressed (artillery)")
"""A unit's suppression by level: 0 none, 1 suppressed, 2 artillery-suppressed (the harder one to shake off)."""
MOST_SUPPRESSED = len(SUPPRESSION_TITLES) - 1
"""Artillery suppression: no step of suppression goes beyond it."""


def suppression_level(unit: Unit) -> int:
    """0 unsuppressed, 1 suppressed, `MOST_SUPPRESSED` artillery-suppressed."""
    if ARTILLERY_SUPPRESSED in unit.conditions:
        return MOST_SUPPRESSED
    return 1 if SUPPRESSED in unit.conditions else 0


def _adapt(read: Callable[[Game, Choices], AbPlan], title: str) -> Callable[[Game, Choices], Plan]:
    """The action read by `read`; `title` names its undo step from the `firer`'s (and `target`'s) names."""

    def plan(game: Game, choices: Choices) -> Plan:
        ab = read(game, choices)
        names = {key: game.unit(str(choices[key])).name for key in ("firer", "target") if key in choices}
        planned = procedure_plan(game, ab.procedure, ab.inputs, ab.facts, choices, title.format(**names))
        return replace(planned, effects=ab.effects, log=ab.log)

    plan.__doc__ = f"The action read by `{read.__name__}`, as a Plan."
    return plan


def plan_direct_fire(game: Game, choices: Choices) -> Plan:
    """The fire read from the table, then the target's Reaction Check with the `cover` Dice picked."""
    shot = direct_fire(game, {k: v for k, v in choices.items() if k != "cover"})
    answer = reaction(game, {"firer": choices.get("firer", ""), "target": choices.get("target", ""),
                             "mode": "direct", "cover": choices.get("cover", 0)})
    title = f"Direct fire: {game.unit(str(choices['firer'])).name} at {game.unit(str(choices['target'])).name}"
    planned = procedure_plan(game, fire_and_reaction.NAME, fire_and_reaction.joined(shot.inputs, answer.inputs),
                             shot.facts, choices, title)
    return replace(planned, effects=shot.effects, log=shot.log)


def _unit_and_step(game: Game, choices: Choices) -> tuple[Unit, int]:
    unit = chosen_unit(game, choices)
    delta = choices.get("delta")
    if isinstance(delta, bool) or delta not in (-1, 1):
        raise Refusal("delta", "Step up or down by one.")
    return unit, int(delta)


def plan_suppression(game: Game, choices: Choices) -> Plan:
    """Suppression one level up (none, suppressed, artillery-suppressed) or down, from the card's -/+."""
    unit, delta = _unit_and_step(game, choices)
    level = suppression_level(unit)
    after = level + delta
    if after < 0:
        raise Refusal("delta", f"{unit.name} is not suppressed.")
    if after > MOST_SUPPRESSED:
        raise Refusal("delta", f"{unit.name} is already suppressed by artillery, the most there is.")
    line = f"Suppression on {unit.name}: {SUPPRESSION_TITLES[level]} -> {SUPPRESSION_TITLES[after]}"
    effects = (SetCondition(unit.id, SUPPRESSED, after >= 1),
               SetCondition(unit.id, ARTILLERY_SUPPRESSED, after == MOST_SUPPRESSED))
    return Plan(STEP, {}, (line,), dict(choices), f"Suppression on {unit.name}: {SUPPRESSION_TITLES[after]}",
                effects, log=(line,))


def plan_disruption(game: Game, choices: Choices) -> Plan:
    """A Disruption Point added or removed, from the card's -/+."""
    unit, delta = _unit_and_step(game, choices)
    now = unit.counters.get(DISRUPTION, 0)
    if now + delta < 0:
        raise Refusal("delta", f"{unit.name} has no Disruption Points to remove.")
    line = f"Disruption on {unit.name}: {now} -> {now + delta}"
    title = f"Disruption {'+' if delta > 0 else ''}{delta} on {unit.name}"
    return Plan(STEP, {}, (line,), dict(choices), title, (ChangeCounter(unit.id, DISRUPTION, delta),), log=(line,))


register_plan(INDIRECT_MISSION, _adapt(indirect_mission, "Indirect fire: {firer}"))
register_plan(DIRECT_FIRE, plan_direct_fire)
register_plan(REACTION, _adapt(reaction, "Reaction Check: {target}"))
register_plan(CLOSE_ASSAULT, _adapt(close_assault, "Close assault: {firer} against {target}"))
register_plan(SUPPRESSION, plan_suppression)
register_plan(DISRUPTION_POINTS, plan_disruption)
