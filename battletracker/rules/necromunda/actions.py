"""Necromunda's Shoot as an action: `necro.attack`, read by `plans.attack_plan`, registered.

The walking-fire models the player picks mid-resolution (`ChoiceNeeded`
"walking_fire") come back among the choices and join the inputs, so the
action resolves, and a replay repeats, the very allocation the player made.
"""

from __future__ import annotations

from dataclasses import replace

from battletracker.model.effects import AppendLog
from battletracker.model.game import Game
from battletracker.model.game import LogEntry
from battletracker.rules.actions import Choices
from battletracker.rules.actions import Plan
from battletracker.rules.actions import procedure_plan
from battletracker.rules.actions import register_plan
from battletracker.rules.necromunda.plans import attack_plan
from battletracker.rules.necromunda.table import falling_text

ATTACK = "necro.attack"
ANSWERS = ("walking_fire",)


def plan_attack(game: Game, choices: Choices) -> Plan:
    """The Shoot action read from the table, with the walking-fire answers given so far.

    Each fighter's falling-check line (naming its ledge) goes with the inputs,
    for the log to say of whoever the attack flags, and so do the names of
    the models the attack lists, for its dice prompts and log lines. A
    Template with no Cool check rolls no dice, so no dice line says who fires
    what: the plan writes that line itself, ahead of the procedure's line
    naming the models hit ("Kal fires Flamer (Template) at Mira", then "The
    Template hits Mira, Brute").
    """
    necro = attack_plan(game, {k: v for k, v in choices.items() if k not in ANSWERS})
    inputs = {**necro.inputs, "falling_notes": "\n".join(f"{u.id}={falling_text(u)}" for u in game.units.values())}
    p = replace(procedure_plan(game, necro.procedure, inputs, necro.facts, choices, necro.title, ANSWERS),
                log=necro.log)
    if not inputs.get("template") or inputs.get("cool"):
        return p
    title = AppendLog(LogEntry("", game.turn, game.phase, necro.title, p.log_kind))
    return replace(p, effects=(title, *p.effects))


register_plan(ATTACK, plan_attack)
