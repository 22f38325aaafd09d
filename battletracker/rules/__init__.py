"""The rules API: every procedure by its stable name.

    procedures()                       -> names, e.g. "coc.at_fire"
    plan(name, game, choices)          -> Plan: one player action read from the table (rules/actions.py)
    perform(game, name, choices, dice) -> Resolution of the whole action, its effects ready to apply
    resolve(name, inputs, dice)        -> Resolution
    odds(name, inputs)                 -> exact Distribution over outcome keys

Ruleset packages register their procedures when imported; the registry imports
them all on first use, so callers never need to.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from battletracker.core.dice import Dice
from battletracker.model.actions import Action
from battletracker.rules.base import (
    ChoiceNeeded,
    InputReader,
    Inputs,
    OddsTooLarge,
    Procedure,
    Refusal,
    Resolution,
    Roller,
    RulesInputError,
)

if TYPE_CHECKING:
    from battletracker.core.odds import Distribution
    from battletracker.rules.actions import Plan, perform, plan, register_plan

# The action planner (and the history, references and bombardment effects it brings) loads on
# first use: opening a game and painting the window need only the names above.
_ACTIONS = ("Plan", "perform", "plan", "register_plan")


def __getattr__(name: str) -> Any:
    if name in _ACTIONS:
        from battletracker.rules import actions

        return getattr(actions, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "ChoiceNeeded",
    "InputReader",
    "Inputs",
    "OddsTooLarge",
    "Procedure",
    "Resolution",
    "Roller",
    "RulesInputError",
    "get",
    "odds",
    "procedures",
    "register",
    "resolve",
    "Action",
    "Plan",
    "Refusal",
    "perform",
    "plan",
    "register_plan",
]

RULESET_PACKAGES = (
    "battletracker.rules.generic",
    "battletracker.rules.chain_of_command",
    "battletracker.rules.armour_battles",
    "battletracker.rules.necromunda",
    "battletracker.rules.backdrop_actions",
    "battletracker.rules.table_actions",
    "battletracker.rules.terrain_actions",
)

_registry: dict[str, Procedure] = {}
_loaded = False


def register(procedure: Procedure) -> Procedure:
    """Add a procedure; a second one under the same name is a programming error."""
    if procedure.name in _registry and _registry[procedure.name] is not procedure:
        raise ValueError(f"procedure {procedure.name!r} is registered twice")
    _registry[procedure.name] = procedure
    return procedure


def _load() -> None:
    """Import every ruleset once; a failed import is raised again on the next call."""
    global _loaded
    if not _loaded:
        for package in RULESET_PACKAGES:
            importlib.import_module(package)
        _loaded = True


def procedures(ruleset: str | None = None) -> list[str]:
    _load()
    return sorted(n for n, p in _registry.items() if ruleset is None or p.ruleset == ruleset)


def get(name: str) -> Procedure:
    _load()
    try:
        return _registry[name]
    except KeyError:
        raise RulesInputError("procedure", f"no procedure called {name!r}") from None


def resolve(name: str, inputs: Inputs, dice: Dice) -> Resolution:
    return get(name).resolve(inputs, dice)


def odds(name: str, inputs: Inputs) -> Distribution[str]:
    return get(name).odds(inputs)
