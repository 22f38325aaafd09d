"""A fighter card's actions: condition toggles, level, ledge distances and Reload.

The toggles, level and ledges change the table without dice (procedure
`table.step`, their changes all in the plan); Reload resolves `necro.reload`
on the profile picked. Each goes through `Session.act`, so the save file
records it and a replay repeats it.
"""

from __future__ import annotations

import copy
import math

from battletracker.model.effects import ReplaceUnit
from battletracker.model.effects import SetCondition
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.actions import Choices
from battletracker.rules.actions import Plan
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import procedure_plan
from battletracker.rules.actions import register_plan
from battletracker.rules.necromunda.conditions import CHECK_FALLING
from battletracker.rules.necromunda.conditions import ENGAGED
from battletracker.rules.necromunda.conditions import OUT_OF_ACTION
from battletracker.rules.necromunda.conditions import SERIOUSLY_INJURED
from battletracker.rules.necromunda.conditions import SUPPRESSED
from battletracker.rules.necromunda.profiles import reload_inputs
from battletracker.rules.necromunda.reload import NAME as RELOAD_PROCEDURE
from battletracker.rules.necromunda.table import LEDGE_STATS
from battletracker.rules.necromunda.table import ledge_title
from battletracker.rules.step import STEP

CONDITION = "necro.condition"
LEVEL = "necro.level"
LEDGE = "necro.ledge"
RELOAD = "necro.reload"

CONDITION_TITLES = {
    SUPPRESSED: "Suppressed",
    ENGAGED: "Engaged",
    SERIOUSLY_INJURED: "Seriously Injured",
    OUT_OF_ACTION: "Out of Action",
    CHECK_FALLING: "Check for falling",
}


def _fighter(game: Game, choices: Choices) -> Unit:
    unit_id = choices.get("unit")
    if not isinstance(unit_id, str) or unit_id not in game.units:
        raise Refusal("unit", "Pick a fighter on the table first.")
    return game.units[unit_id]


def plan_condition(game: Game, choices: Choices) -> Plan:
    """A condition of the card (Suppressed, Engaged, ...) put on (`present` true) or taken off."""
    unit = _fighter(game, choices)
    condition = choices.get("condition")
    if not isinstance(condition, str) or condition not in CONDITION_TITLES:
        raise Refusal("condition", f"Say which condition: {', '.join(CONDITION_TITLES.values())}.")
    present = choices.get("present")
    if not isinstance(present, bool):
        raise Refusal("present", "Say whether the condition is put on or taken off.")
    name = CONDITION_TITLES[condition]
    if unit.has(condition) == present:
        raise Refusal("present", f"{unit.name} is {'already' if present else 'not'} {name}.")
    line = f"{unit.name} is {'now' if present else 'no longer'} {name}"
    title = f"{name} on {unit.name}" if present else f"{name} off {unit.name}"
    return Plan(STEP, {}, (line,), dict(choices), title, (SetCondition(unit.id, condition, present),), log=(line,))


def plan_level(game: Game, choices: Choices) -> Plan:
    """The fighter one level up (`delta` 1) or down (-1); the ground is level 0."""
    unit = _fighter(game, choices)
    delta = choices.get("delta")
    if isinstance(delta, bool) or delta not in (-1, 1):
        raise Refusal("delta", "Go up or down one level.")
    after = unit.level + int(delta)
    if after < 0:
        raise Refusal("delta", f"{unit.name} is on the ground already (level 0).")
    changed = copy.deepcopy(unit)
    changed.level = after
    line = f"{unit.name} moves from level {unit.level} to level {after}"
    return Plan(STEP, {}, (line,), dict(choices), f"Level of {unit.name}", (ReplaceUnit(changed),), log=(line,))


def plan_ledge(game: Game, choices: Choices) -> Plan:
    """The distance measured from the fighter to a ledge (`inches`), or none (no `inches`): the map has no
    heights, so falling checks read what the player measured."""
    unit = _fighter(game, choices)
    stat = choices.get("ledge")
    if not isinstance(stat, str) or stat not in LEDGE_STATS:
        raise Refusal("ledge", f"Say which ledge: {' or '.join(ledge_title(s) for s in LEDGE_STATS)}.")
    changed = copy.deepcopy(unit)
    old = unit.stats.get(stat)
    inches = choices.get("inches")
    if inches is None:
        if old is None:
            raise Refusal("inches", f"{unit.name} has no distance to {ledge_title(stat)} to remove.")
        changed.stats.pop(stat)
        line = f"{unit.name} is no longer near {ledge_title(stat)}"
    else:
        if isinstance(inches, bool) or not isinstance(inches, int | float) or not math.isfinite(inches) \
                or inches < 0:
            raise Refusal("inches", "The distance to the ledge must be a number of inches, 0 or more.")
        value = round(float(inches), 1)
        if old == value:
            raise Refusal("inches", f'{unit.name} is {value:.1f}" from {ledge_title(stat)} already.')
        changed.stats[stat] = value
        line = f'{unit.name} is {value:.1f}" from a ledge ({ledge_title(stat)})'
    return Plan(STEP, {}, (line,), dict(choices), f"Ledge distance of {unit.name}", (ReplaceUnit(changed),),
                log=(line,))


def plan_reload(game: Game, choices: Choices) -> Plan:
    """Reload on profile `profile` of weapon `weapon` (counted from 0): it is no longer Out of Ammo."""
    unit = _fighter(game, choices)
    weapon, profile = choices.get("weapon"), choices.get("profile")
    if isinstance(weapon, bool) or not isinstance(weapon, int) or not 0 <= weapon < len(unit.weapons):
        raise Refusal("weapon", f"{unit.name} has no such weapon.")
    w = unit.weapons[weapon]
    if isinstance(profile, bool) or not isinstance(profile, int) or not 0 <= profile < len(w.profiles):
        raise Refusal("profile", f"{w.name} has no such profile.")
    inputs = {**reload_inputs(w, profile), "fighter_id": unit.id, "fighter_name": unit.name, "weapon": weapon}
    return procedure_plan(game, RELOAD_PROCEDURE, inputs, (), choices, f"Reload {w.name} ({unit.name})")


register_plan(CONDITION, plan_condition)
register_plan(LEVEL, plan_level)
register_plan(LEDGE, plan_ledge)
register_plan(RELOAD, plan_reload)
