"""Reading a player's choices (rules/actions.py) into what a plan needs, refused in a player's words.

A plan takes the plain values a player picked: unit ids, yes/no, numbers,
words. Every plan reads them through these functions, so a missing target,
a friendly unit picked as the enemy or text where a number belongs is
refused with the same sentence whichever dialog, card or replay asked, the
Refusal's `field` naming the choice at fault. Callers that catch a narrower
kind of refusal (a shot's `ShotRefusal`, which a fire dialog shows instead
of its odds) pass that class as `refusal`, and get it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from battletracker.core.geometry import EPSILON
from battletracker.core.geometry import distance
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.base import InputValue
from battletracker.rules.base import Refusal

Choices = Mapping[str, InputValue]
"""What a player picked for one action: names and plain values."""
Picked = Mapping[str, object]
"""Choices as a reader takes them: a plan typed more loosely (Armour Battles') reads them too."""


@dataclass(frozen=True)
class Reach:
    """How near `origin` a chosen unit must be: within `inches`, centre to centre on the map.

    `rule` is the clause a refusal gives after the distance, saying why
    ('a figure runs at most 12"').
    """

    origin: Unit
    inches: float
    rule: str


def off_table_refusal(unit: Unit, key: str, refusal: type[Refusal] = Refusal) -> Refusal:
    """Why a unit off the table (`Unit.off_table`: destroyed, abandoned, out of play) cannot take the part `key`
    names, as a sentence: a firer can no longer fire, a target is no longer one."""
    what = {"firer": "it can no longer fire", "target": "it is no longer a target"}.get(key, "it plays no part now")
    return refusal(key, f"{unit.name} is {unit.off_table}: {what}.")


def check_within(unit: Unit, reach: Reach, key: str, refusal: type[Refusal] = Refusal) -> None:
    """Refuse `unit` beyond `reach`, saying how far it is to one decimal of an inch."""
    gap = distance((reach.origin.x, reach.origin.y), (unit.x, unit.y))
    if gap > reach.inches + EPSILON:
        raise refusal(key, f'{unit.name} is {gap:.1f}" away: {reach.rule}.')


def chosen_unit(game: Game, choices: Picked, key: str = "unit", role: str = "unit", *, in_play: bool = False,
                enemy_of: Unit | None = None, within: Reach | None = None,
                refusal: type[Refusal] = Refusal) -> Unit:
    """The unit the choice `key` names, `role` being what a player calls it ("firing unit", "target").

    Refused when none is picked or it has left the game's list; with
    `in_play`, when it is off the table (destroyed, abandoned); with
    `enemy_of`, when it is on that unit's side; with `within`, when it is
    beyond that reach.
    """
    unit_id = choices.get(key)
    if not isinstance(unit_id, str) or not unit_id:
        raise refusal(key, f"Choose the {role}.")
    unit = game.units.get(unit_id)
    if unit is None:
        raise refusal(key, f"That {role} is no longer on the table (was it removed?).")
    if in_play and not unit.in_play:
        raise off_table_refusal(unit, key, refusal)
    if enemy_of is not None and unit.side == enemy_of.side:
        raise refusal(key, f"{unit.name} is on the same side as {enemy_of.name}: pick an enemy unit.")
    if within is not None:
        check_within(unit, within, key, refusal)
    return unit


def _words(key: str) -> str:
    """A choice's key as the start of a sentence, for a choice no caller named: "turret_rotated" reads
    "Turret rotated"."""
    words = key.replace("_", " ").replace(".", " ").strip()
    return words[:1].upper() + words[1:]


def chosen_flag(choices: Picked, key: str, default: bool = False, what: str = "", *,
                refusal: type[Refusal] = Refusal) -> bool:
    """A yes/no choice (a ticked box); `default` when not given. `what` names it in a refusal."""
    value = choices.get(key)
    if value is None or value == "":
        return default
    if not isinstance(value, bool):
        raise refusal(key, f"{what or _words(key)} is yes or no.")
    return value


def _bounds(minimum: float | None, maximum: float | None) -> str:
    if minimum is not None and maximum is not None:
        return f" from {minimum:g} to {maximum:g}"
    if minimum is not None:
        return f", {minimum:g} or more"
    if maximum is not None:
        return f", {maximum:g} or less"
    return ""


def _outside(value: float, minimum: float | None, maximum: float | None) -> bool:
    return (minimum is not None and value < minimum) or (maximum is not None and value > maximum)


def chosen_whole(choices: Picked, key: str, what: str, default: int | None = None, *, minimum: int | None = None,
                 maximum: int | None = None, refusal: type[Refusal] = Refusal) -> int:
    """A whole-number choice (dice, rounds, a side), `default` when not given (None: it must be).

    A whole float (2.0, as a JSON number may come back) counts as whole.
    `what` starts the refusal: "The Team's Firepower Dice must be a whole
    number, 0 or more."
    """
    value = choices.get(key, default)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or _outside(value, minimum, maximum):
        raise refusal(key, f"{what} must be a whole number{_bounds(minimum, maximum)}.")
    return value


def chosen_number(choices: Picked, key: str, what: str, default: float | None = None, *,
                  minimum: float | None = None, maximum: float | None = None, measure: str = "",
                  refusal: type[Refusal] = Refusal) -> float:
    """A number choice (a distance, a place on the table, a bearing), `default` when not given (None: it must be).

    `measure` names what it counts ("inches": "must be a number of inches");
    infinity and not-a-number are refused like text.
    """
    value = choices.get(key, default)
    if (isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value)
            or _outside(value, minimum, maximum)):
        of = f" of {measure}" if measure else ""
        raise refusal(key, f"{what} must be a number{of}{_bounds(minimum, maximum)}.")
    return float(value)


def chosen_word(choices: Picked, key: str, allowed: tuple[str, ...], default: str, what: str, *,
                refusal: type[Refusal] = Refusal) -> str:
    """One of the words `allowed` (a cover level, a range band), `default` when not given."""
    value = choices.get(key)
    if value is None or value == "":
        return default
    if not isinstance(value, str) or value not in allowed:
        raise refusal(key, f"{what} is one of {', '.join(a.replace('_', ' ') for a in allowed)}.")
    return value


def chosen_text(choices: Picked, key: str) -> str:
    """A free-text choice (a player's reason for overriding the map), trimmed; "" when none was given."""
    value = choices.get(key)
    return value.strip() if isinstance(value, str) else ""
