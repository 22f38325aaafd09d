"""The sequence of play as the rules read it: whose Phase it is, and what was already done in it.

The clock is the Game's: `turn`, `phase` and `active_side` (End Phase moves on
to the next Phase and the next side, End Turn to Phase 1 of the next Turn), so
a Turn and Phase name one Phase of the battle and later Phases compare
greater. A step the sequence forbids now is refused with a `SequenceRefusal`,
whose message is the whole sentence a player reads; its `field` still names
the input, for code.

Who has acted is each unit's `acted` (the Phase it last acted in). In Chain
of Command a unit has acted when it did so in this Phase; in Necromunda and
Armour Battles, whose Turns are rounds of activations, when it did so in this
Turn, and End Turn makes every fighter Ready again (`round_end_effects`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from battletracker.model.actions import RULES
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.changes import Effect
from battletracker.model.game import Game
from battletracker.rules.base import InputReader
from battletracker.rules.base import Refusal
from battletracker.rules.base import RulesInputError
from battletracker.rules.clock import on_clock

if TYPE_CHECKING:
    from battletracker.model.sequence_effects import SetActed


_played_under: ContextVar[int] = ContextVar("played_under", default=RULES)


@contextmanager
def played_under(rules: int) -> Iterator[None]:
    """Plan and resolve as under the rules an action was recorded with (`Action.rules`), for its replay.

    A game saved before Chain of Command units needed activating replays each
    of its actions as it was played; what the player does next is planned
    under the rules of now.
    """
    token = _played_under.set(rules)
    try:
        yield
    finally:
        _played_under.reset(token)


def rules_now() -> int:
    """The rules the action being planned is played under (`Action.rules`)."""
    return _played_under.get()


def activation_kept() -> bool:
    """Whether Chain of Command's activation (and what came with it) is read: every action but an old one's replay."""
    return _played_under.get() >= 2


class SequenceRefusal(Refusal):
    """A step the sequence of play does not allow now (another side's Phase, already done this Phase)."""


def now(game: Game) -> PhaseStamp:
    """The Phase the game clock shows."""
    return PhaseStamp(game.turn, game.phase)


def side_name(game: Game, side: int) -> str:
    return game.sides[side].name if 0 <= side < len(game.sides) else f"Side {side + 1}"


def read_last(r: InputReader, prefix: str) -> PhaseStamp | None:
    """`<prefix>_turn` and `<prefix>_phase` together (the Phase something was last done in), or neither."""
    turn = r.optional_int(prefix + "_turn", minimum=1)
    phase = r.optional_int(prefix + "_phase", minimum=1)
    if (turn is None) != (phase is None):
        raise RulesInputError(prefix + ("_turn" if turn is None else "_phase"),
                              f"give {prefix}_turn and {prefix}_phase together")
    return None if turn is None or phase is None else PhaseStamp(turn, phase)


def last_inputs(prefix: str, stamp: PhaseStamp | None) -> dict[str, int]:
    """The inputs `read_last` reads back."""
    return {} if stamp is None else {prefix + "_turn": stamp.turn, prefix + "_phase": stamp.phase}


def check_own_phase(side: int, active_side: int | None, doing: str) -> None:
    """Refuse `doing` (e.g. "A bombardment fires") outside its own side's Phase."""
    if active_side is not None and active_side != side:
        raise SequenceRefusal("active_side", f"{doing} only in its own side's Phase, and this is the other "
                                             "side's Phase.")


def check_once_a_phase(last: PhaseStamp | None, current: PhaseStamp, field: str, done: str, again: str) -> None:
    """Refuse a second time in one Phase: `done` says what was done ("has already fired"), `again` when next."""
    if last is None:
        return
    if last == current:
        raise SequenceRefusal(field, f"It {done} this Phase ({current}); {again}.")
    if last > current:
        raise SequenceRefusal(field, f"It {done} in {last}, after this Phase ({current}): check the game's "
                                     "Turn and Phase.")


ROUND_RULESETS = ("necromunda", "armour_battles")
"""Rulesets whose Turn is a round in which each unit activates once."""


def acted(game: Game, unit_id: str) -> bool:
    """Whether the unit has acted this Phase (Chain of Command) or this round (Necromunda, Armour Battles)."""
    unit = game.units.get(unit_id)
    stamp = None if unit is None else unit.acted
    if stamp is None:
        return False
    if game.ruleset in ROUND_RULESETS:
        return stamp.turn == game.turn
    return stamp == now(game)


def mark_acted(game: Game, unit_id: str) -> SetActed:
    """The Effect recording that the unit acts now."""
    from battletracker.model.sequence_effects import SetActed

    return SetActed(unit_id, now(game))


@on_clock
def round_end_effects(game: Game, turn_end: bool, _next_side: int | None) -> list[Effect]:
    """At the end of a round (End Turn) every fighter or unit that acted is Ready again."""
    if not turn_end or game.ruleset not in ROUND_RULESETS:
        return []
    from battletracker.model.sequence_effects import SetActed

    return [SetActed(unit.id, None) for unit in game.units.values() if unit.acted is not None]
