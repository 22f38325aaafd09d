"""What falls due when a Phase or a Turn ends.

Rulesets register functions that look at the game and return the Effects due
(bombardments counting down, pins expiring, smoke clearing). The session's End
Phase / End Turn applies the Effects of every registered function together
with the clock change as one undo step.
"""

from __future__ import annotations

from collections.abc import Callable

from battletracker.model.effects import Effect
from battletracker.model.game import Game

DueFn = Callable[[Game], list[Effect]]

_end_phase: list[DueFn] = []
_end_turn: list[DueFn] = []


def on_end_phase(fn: DueFn) -> DueFn:
    """Register `fn(game) -> effects` to run at every End Phase (and so at End Turn too)."""
    if fn not in _end_phase:
        _end_phase.append(fn)
    return fn


def on_end_turn(fn: DueFn) -> DueFn:
    """Register `fn(game) -> effects` to run at End Turn, after the End Phase ones."""
    if fn not in _end_turn:
        _end_turn.append(fn)
    return fn


def _collect(fns: list[DueFn], game: Game) -> list[Effect]:
    from battletracker.rules import procedures

    procedures()  # importing every ruleset registers its functions
    return [effect for fn in fns for effect in fn(game)]


def end_phase_effects(game: Game) -> list[Effect]:
    return _collect(_end_phase, game)


def end_turn_effects(game: Game) -> list[Effect]:
    return _collect(_end_turn, game)
