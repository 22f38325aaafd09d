"""What a ranged Hit does to a fighter's conditions, and the ledge it may fall from.

Conditions are the names kept in `Unit.conditions`. A Hit makes a fighter
Suppressed unless it is Engaged or Seriously Injured (an Engaged fighter is
fighting in a combat, a Seriously Injured one is already down). A fighter
within 1/2" of a ledge that becomes Suppressed or Seriously Injured from a
ranged Hit must check for falling; the app flags it with `check_falling` so the
player resolves the fall (page 69 of the rulebook, not in the documents).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from battletracker.core.geometry import EPSILON
from battletracker.model.effects import Effect
from battletracker.model.effects import SetCondition

K = TypeVar("K")

SUPPRESSED = "suppressed"
ENGAGED = "engaged"
SERIOUSLY_INJURED = "seriously_injured"
OUT_OF_ACTION = "out_of_action"
CHECK_FALLING = "check_falling"
CONDITIONS = (SUPPRESSED, ENGAGED, SERIOUSLY_INJURED, OUT_OF_ACTION, CHECK_FALLING)

LEDGE_REACH = 0.5


def becomes_suppressed(engaged: bool, seriously_injured: bool) -> bool:
    """Whether a fighter hit by a ranged attack becomes Suppressed."""
    return not (engaged or seriously_injured)


def within_ledge_reach(ledge_distance: float) -> bool:
    """Within 1/2" of a ledge (exactly 1/2" counts): close enough to fall when hit."""
    return ledge_distance <= LEDGE_REACH + EPSILON


def must_check_falling(became_suppressed: bool, became_seriously_injured: bool, near_ledge: bool) -> bool:
    """A fighter near a ledge checks for falling when a ranged Hit suppresses or seriously injures it."""
    return near_ledge and (became_suppressed or became_seriously_injured)


def ledge_to_fall_from(ledges: Iterable[tuple[K, float]]) -> tuple[K, ...]:
    """The ledge a fighter falls from, given (ledge, distance) pairs from the map.

    Only ledges within 1/2" count. The closer ledge is the one; when several
    are equally close all of them are returned, for the controlling player to
    choose. No ledge in reach gives an empty tuple.
    """
    near = [(d, key) for key, d in ledges if within_ledge_reach(d)]
    if not near:
        return ()
    closest = min(d for d, _ in near)
    return tuple(key for d, key in near if d <= closest + EPSILON)


def hit_effects(unit_id: str, *, engaged: bool, seriously_injured: bool, near_ledge: bool) -> list[Effect]:
    """The condition changes a ranged Hit makes on one fighter.

    Suppressed unless Engaged or Seriously Injured, and the falling flag when
    that Suppression happens within 1/2" of a ledge.
    """
    if not becomes_suppressed(engaged, seriously_injured):
        return []
    effects: list[Effect] = [SetCondition(unit_id, SUPPRESSED)]
    if must_check_falling(True, False, near_ledge):
        effects.append(SetCondition(unit_id, CHECK_FALLING))
    return effects


def seriously_injured_effects(unit_id: str, *, near_ledge: bool) -> list[Effect]:
    """A fighter Seriously Injured by a ranged Hit: the condition, and the falling flag near a ledge.

    The Injury roll that decides this belongs to resolving the Hit's wound;
    the falling check it triggers is a shooting rule, so it lives here.
    """
    effects: list[Effect] = [SetCondition(unit_id, SERIOUSLY_INJURED)]
    if must_check_falling(False, True, near_ledge):
        effects.append(SetCondition(unit_id, CHECK_FALLING))
    return effects
