"""The rules API: every procedure by its stable name.

    procedures()                       -> names, e.g. "coc.at_fire"
    plan(name, game, choices)          -> Plan: one player action read from the table (rules/actions.py)
    perform(game, name, choices, dice) -> Resolution of the whole action, its effects ready to apply
    resolve(name, inputs, dice)        -> Resolution
    odds(name, inputs)                 -> exact Distribution over outcome keys

Every module of a ruleset package registers what it holds (procedures, plans)
when imported, and the package imports all its modules by walking itself
(`import_modules`), so a new module joins by existing. The registry imports the
shared actions and every ruleset package (each subpackage of this one) on first
use, so callers never need to.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import TYPE_CHECKING
from typing import Any

from battletracker.core.dice import Dice
from battletracker.model.actions import Action
from battletracker.rules.base import ChoiceNeeded
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import OddsTooLarge
from battletracker.rules.base import Procedure
from battletracker.rules.base import Refusal
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import RulesInputError

if TYPE_CHECKING:
    from battletracker.core.odds import Distribution
    from battletracker.rules.actions import Plan
    from battletracker.rules.actions import perform
    from battletracker.rules.actions import plan
    from battletracker.rules.actions import register_plan

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
    "import_modules",
    "odds",
    "procedures",
    "register",
    "ruleset_packages",
    "resolve",
    "Action",
    "Plan",
    "Refusal",
    "perform",
    "plan",
    "register_plan",
]

# The actions every ruleset shares, beside the ruleset packages (found as this package's subpackages).
SHARED_MODULES = (
    "battletracker.rules.generic",
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


def import_modules(package: str, path: Iterable[str]) -> None:
    """Import every module of `package` (its `__name__` and `__path__`) in name order.

    A ruleset package calls it from its `__init__`, so a module added to it
    registers itself without a list to edit. The walk follows `__path__`, as
    the import system does, so it finds the modules from a checkout, a wheel
    (zipped too) and the bundle alike; the name order makes every start import
    them in the same order.
    """
    import pkgutil

    for found in sorted(pkgutil.iter_modules(path), key=lambda module: module.name):
        importlib.import_module(f"{package}.{found.name}")


def ruleset_packages() -> tuple[str, ...]:
    """What registers the procedures: the shared actions, then every ruleset package (each subpackage of
    `battletracker.rules`, in name order), found when asked so that importing the rules walks nothing."""
    import pkgutil

    found = sorted(f"{__name__}.{module.name}" for module in pkgutil.iter_modules(__path__) if module.ispkg)
    return (*SHARED_MODULES, *found)


def _load() -> None:
    """Import every ruleset once; a failed import is raised again on the next call."""
    global _loaded
    if not _loaded:
        for name in ruleset_packages():
            importlib.import_module(name)
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
