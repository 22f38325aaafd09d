"""The record of one action a player took: its name, the choices made, the dice rolled.

A game keeps the list of the actions applied to it beside its state (and the
state they started from), so a saved game can say how it came to be and be
replayed from its start. An Action holds only plain values, so it goes into a
save file as JSON and comes back equal.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from battletracker.core.dice import Face
from battletracker.model.game import Scalar

# The name recorded for an undo step made by a dialog that does not go through a
# named action yet: it keeps its place in the list, and a replay stops before it.
UNTRACKED = "untracked"

RULES = 2
"""The rules an action is played under now. 1: before Chain of Command units needed activating (and before a
unit's loss put its side's Force Morale Test on the agenda); an action recorded then replays as it was played."""

_FIELDS = frozenset({"name", "choices", "dice", "time", "typed", "rules"})


class ActionError(ValueError):
    """Plain data that is not an action; the message says what is wrong."""


@dataclass(frozen=True)
class Action:
    """One applied action: `name` (e.g. "unit.shock"), the player's `choices`, the `dice` faces in roll order.

    `time` is when it was applied (ISO seconds) and `typed` whether the dice
    were rolled at the table and typed in rather than rolled by the app: the
    battle log lines it wrote say both, so a replay writes the same log.
    """

    name: str
    choices: Mapping[str, Scalar] = field(default_factory=dict)
    dice: tuple[Face, ...] = ()
    time: str = ""
    typed: bool = False
    rules: int = RULES

    def to_plain(self) -> dict[str, Any]:
        """The action as JSON data."""
        plain: dict[str, Any] = {"name": self.name, "choices": dict(self.choices), "dice": list(self.dice),
                                 "time": self.time}
        if self.typed:
            plain["typed"] = True
        if self.rules != RULES:
            plain["rules"] = self.rules
        return plain

    @classmethod
    def from_plain(cls, data: Any) -> Action:
        """An action from JSON data, every value checked; raises ActionError naming the problem.

        A save file holds a thousand actions, nearly all well formed: each is
        first read by plain type tests on its values as JSON gives them, and
        only one they do not take goes through the checks that name the problem.
        """
        if type(data) is dict and data.keys() <= _FIELDS:
            get = data.get
            name, choices, dice, time = get("name"), get("choices", {}), get("dice", []), get("time", "")
            typed, rules = get("typed", False), get("rules", RULES)
            if (type(name) is str and name and type(choices) is dict and _plain_scalars(choices)
                    and type(dice) is list and _FACE_TYPES.issuperset(map(type, dice)) and type(time) is str
                    and type(typed) is bool and type(rules) is int and 1 <= rules <= RULES):
                return cls(name, dict(choices), tuple(dice), time, typed, rules)
        return cls._checked(data)

    @classmethod
    def _checked(cls, data: Any) -> Action:
        """The full check, for an action the type tests left: what it accepts loads, else its message is the refusal."""
        if not isinstance(data, dict):
            raise ActionError("an action must be an object with a name, choices and dice")
        if not data.keys() <= _FIELDS:
            raise ActionError(f"an action has no field {sorted(set(data) - _FIELDS)[0]!r}")
        name = data.get("name")
        if not isinstance(name, str) or not name:
            raise ActionError("an action needs a name")
        choices = data.get("choices", {})
        if not isinstance(choices, dict):
            raise ActionError(f"the choices of {name} must be an object")
        for key, value in choices.items():
            if not _is_scalar(value):
                raise ActionError(f"the choice {key!r} of {name} must be text, a number or true/false")
        dice = data.get("dice", [])
        if not isinstance(dice, list) or not all(_is_face(v) for v in dice):
            raise ActionError(f"the dice of {name} must be a list of faces (numbers or names)")
        time = data.get("time", "")
        if not isinstance(time, str):
            raise ActionError(f"the time of {name} must be text")
        typed = data.get("typed", False)
        if not isinstance(typed, bool):
            raise ActionError(f"whether the dice of {name} were typed must be true or false")
        rules = data.get("rules", RULES)
        if isinstance(rules, bool) or not isinstance(rules, int) or not 1 <= rules <= RULES:
            raise ActionError(f"the rules {name} was played under must be a number from 1 to {RULES}")
        return cls(name, dict(choices), tuple(dice), time, typed, rules)


_FACE_TYPES = frozenset({int, str})


def _plain_scalars(choices: dict[str, Any]) -> bool:
    """Whether every choice is text, a whole number, true/false or a finite float, as JSON gives them."""
    for value in choices.values():
        kind = type(value)
        if not (kind is str or kind is int or kind is bool or (kind is float and value - value == 0.0)):
            return False
    return True


def _is_scalar(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, str | int | bool)


def _is_face(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))
