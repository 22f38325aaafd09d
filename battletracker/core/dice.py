"""Dice: the only way a procedure gets a random number.

A procedure asks a `Dice` object for rolls in the order the rules roll them.
`RandomDice` is the app's own dice, `ScriptedDice` replays a fixed list (tests,
replays and the dice a player typed in from the table). When a `ScriptedDice`
runs out it raises `DiceExhausted` naming what the procedure wanted next, which
is how a dialog knows which dice to ask the player for.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from battletracker.core.text import brief

Face = int | str


class DiceError(ValueError):
    """A roll that cannot be on the die it was made for, or a missing roll."""


class DiceExhausted(DiceError):
    """Scripted dice ran out; carries what the procedure asked for next."""

    def __init__(self, label: str, die: Die, count: int, supplied: int) -> None:
        self.label = label
        self.die = die
        self.count = count
        self.supplied = supplied
        super().__init__(
            f"no dice left for {label!r}: it needs {count} {die.name} "
            f"and {supplied} were given"
        )


@dataclass(frozen=True)
class Die:
    """A die shape: its name and its faces (numbers, or names such as "hit")."""

    name: str
    faces: tuple[Face, ...]

    @property
    def numeric(self) -> bool:
        return all(isinstance(f, int) for f in self.faces)

    def describe_faces(self) -> str:
        if self.numeric and self.faces == tuple(range(1, len(self.faces) + 1)):
            return f"1-{len(self.faces)}"
        return ", ".join(str(f) for f in self.faces)

    def validate(self, value: Face) -> Face:
        """Return `value` as a face of this die, or raise a message naming the die.

        Typed input arrives as text, so numeric strings are accepted for
        numeric dice and face names are matched case-insensitively.
        """
        if self.numeric:
            if isinstance(value, str):
                text = value.strip()
                if not (text.isascii() and text.removeprefix("-").isdigit()):
                    raise DiceError(f"{brief(value)} is not a number: a {self.name} shows {self.describe_faces()}")
                if len(text) > _FACE_DIGITS:
                    raise DiceError(f"{brief(text)} cannot be rolled on a {self.name} "
                                    f"(faces {self.describe_faces()})")
                value = int(text)
            if not _whole(value) or value not in self.faces:
                raise DiceError(f"{brief(value)} cannot be rolled on a {self.name} (faces {self.describe_faces()})")
            return value
        if isinstance(value, str):
            for face in self.faces:
                if str(face).lower() == value.strip().lower():
                    return face
        elif _whole(value) and value in self.faces:
            return value
        raise DiceError(f"{brief(value)} is not a face of the {self.name} (faces {self.describe_faces()})")


_FACE_DIGITS = 6  # more digits than any die's face has: refused before `int` reads them


def _whole(value: object) -> bool:
    """An int that is not a bool: a roll of 6.0 or True is not a roll of 6 or 1."""
    return isinstance(value, int) and not isinstance(value, bool)


def numeric_die(sides: int) -> Die:
    if sides < 2:
        raise DiceError(f"a die needs at least two sides, not {sides}")
    return Die(f"D{sides}", tuple(range(1, sides + 1)))


D3 = numeric_die(3)
D6 = numeric_die(6)
D12 = numeric_die(12)


class Dice(Protocol):
    """Where a procedure's rolls come from."""

    def roll(self, die: Die, count: int, label: str) -> tuple[Face, ...]:
        """Roll `count` dice of shape `die` for the step called `label`."""
        ...


class RandomDice:
    """The app's own dice; a seed makes a run repeatable (simulations, tests)."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def roll(self, die: Die, count: int, label: str) -> tuple[Face, ...]:
        return tuple(self._rng.choice(die.faces) for _ in range(count))


class ScriptedDice:
    """Dice that replay given values in order, each checked against its die."""

    def __init__(self, values: Iterable[Face]) -> None:
        self._values: list[Face] = list(values)
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._values) - self._next

    @property
    def used(self) -> int:
        return self._next

    def roll(self, die: Die, count: int, label: str) -> tuple[Face, ...]:
        if self.remaining < count:
            raise DiceExhausted(label, die, count, self.remaining)
        taken = self._values[self._next : self._next + count]
        checked: list[Face] = []
        for value in taken:
            try:
                checked.append(die.validate(value))
            except DiceError as exc:
                raise DiceError(f"{label}: {exc}") from None
        self._next += count
        return tuple(checked)


def parse_typed_rolls(text: str, die: Die, count: int | None = None) -> tuple[Face, ...]:
    """Validate dice a player typed ("6 1", "6,1", "hit"): every value on `die`.

    Raises `DiceError` naming the die and the offending value; with `count`
    it also insists on exactly that many dice.
    """
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        raise DiceError(f"no dice entered: type the {die.name} results separated by spaces")
    values = tuple(die.validate(p) for p in parts)
    if count is not None and len(values) != count:
        raise DiceError(f"{count} {die.name} needed, {len(values)} entered")
    return values


def count_at_least(values: Sequence[Face], target: int) -> int:
    """How many numeric faces reach `target`."""
    return sum(1 for v in values if isinstance(v, int) and v >= target)
