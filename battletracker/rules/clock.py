"""What falls due when a Phase or a Turn ends.

Rulesets register a function `(game, turn_end, next_side) -> effects` that
looks at the game and returns the Effects due (bombardments counting down,
pins expiring, smoke clearing, reminders as log lines). The session's End
Phase / End Turn applies all of them with the clock change as one undo step.
A Turn ends at the end of a Phase, so `turn_end` means both.
"""

from __future__ import annotations

from collections.abc import Callable

from battletracker.model.changes import Effect
from battletracker.model.game import Game

DueFn = Callable[[Game, bool, int | None], list[Effect]]

_due: list[DueFn] = []


def on_clock(fn: DueFn) -> DueFn:
    """Register `fn(game, turn_end, next_side)` to run at every End Phase and End Turn."""
    if fn not in _due:
        _due.append(fn)
    return fn


def due_effects(game: Game, turn_end: bool, next_side: int | None) -> list[Effect]:
    """Every registered ruleset's Effects for the end of this Phase (and Turn, with `turn_end`)."""
    from battletracker.rules import procedures

    procedures()  # importing every ruleset registers its functions
    return [effect for fn in _due for effect in fn(game, turn_end, next_side)]
