"""What a step's effects call for in turn, whichever action made them: a ruleset's consequences.

A ruleset registers a function `(game, effects) -> effects` for its games
(`on_consequences`); `rules/actions.py::carry_out` calls every one registered
for the game's ruleset with the game as it is before the step and the step's
effects, and adds what they return to the same step (before its log lines).
Chain of Command queues a side's Force Morale Test this way when a Team is
wiped out, a Leader killed or a vehicle knocked out, by fire, a bombardment,
a grenade or a player's "figures -1" alike (chain_of_command/morale_events.py).

A consequence reads the step's result with `compare`, which applies the
effects to the game, reads it and puts the game back exactly; it never
changes the game itself. What it returns depends only on the game and the
effects, so a replay (rules/replay.py re-runs `carry_out`) adds the same.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from typing import TypeVar

from battletracker.model.changes import Effect
from battletracker.model.game import Game
from battletracker.model.game import GameError

Consequence = Callable[[Game, Sequence[Effect]], Sequence[Effect]]
T = TypeVar("T")

_registered: dict[str, list[Consequence]] = {}


def on_consequences(ruleset: str, fn: Consequence) -> Consequence:
    """Call `fn(game, effects)` for every step taken in a game of `ruleset`; it returns the effects to add."""
    found = _registered.setdefault(ruleset, [])
    if fn not in found:
        found.append(fn)
    return fn


def consequences(game: Game, effects: Sequence[Effect]) -> list[Effect]:
    """The effects the ruleset's consequences add to a step of `effects` taken in `game`, in registration order.

    Each consequence sees the step's effects and what the consequences before
    it added.
    """
    added: list[Effect] = []
    for fn in _registered.get(game.ruleset, ()):
        added.extend(fn(game, [*effects, *added]))
    return added


def compare(game: Game, effects: Sequence[Effect], look: Callable[[Game], T]) -> T | None:
    """What `look` reads of the game after the effects (None when the game refuses them: the step will fail).

    The game is left exactly as it was; `look` must return copies, not the game's own records.
    """
    try:
        return game.peek(effects, look)
    except GameError:
        return None


def registered(ruleset: str) -> tuple[Consequence, ...]:
    return tuple(_registered.get(ruleset, ()))


__all__ = ["Consequence", "compare", "consequences", "on_consequences", "registered"]
