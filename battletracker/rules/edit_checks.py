"""What a ruleset may refuse of a unit's edit (`unit.edit`), without the shared actions importing the ruleset.

A ruleset registers a check with `on_edit`: given the game and the unit as it
is and as edited, it returns the sentence the player reads when the edit is
not allowed now, or None. `check_edit` runs every check and refuses with the
first sentence, so the shared plan (rules/table_actions.py) stays free of
any ruleset. Chain of Command refuses a passenger's voluntary disembarking
while its vehicle is under a bombardment.
"""

from __future__ import annotations

from collections.abc import Callable

from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.base import Refusal

EditCheck = Callable[[Game, Unit, Unit], "str | None"]

_checks: list[EditCheck] = []


def on_edit(check: EditCheck) -> EditCheck:
    """Register `check(game, old, new)`; registering the same function twice keeps one."""
    if check not in _checks:
        _checks.append(check)
    return check


def edit_refusal(game: Game, old: Unit, new: Unit) -> str | None:
    """The first registered check's sentence against this edit, or None when every check allows it."""
    for check in _checks:
        refusal = check(game, old, new)
        if refusal is not None:
            return refusal
    return None


def check_edit(game: Game, old: Unit, new: Unit) -> None:
    """Refuse the edit (`Refusal` on the field `unit`) when a ruleset's check forbids it now."""
    refusal = edit_refusal(game, old, new)
    if refusal is not None:
        raise Refusal("unit", refusal if refusal.endswith(".") else refusal + ".")
