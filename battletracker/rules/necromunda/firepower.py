"""The Firepower die and what its ammo symbols do to a weapon.

The documents name the die's four symbols (one, two and three bullet holes,
and one bullet hole with the ammo symbol) but not how many faces carry each,
so the faces are the ruleset setting `firepower_die_faces`. Each face is a
named face of a `Die`, so typed-in dice are the faces as printed ("2",
"1+ammo") and a face that appears twice is twice as likely, in the odds and in
the app's own dice alike.

Ammo symbols: one puts the profile Out of Ammo, two or more jam the weapon for
the battle. The sentence about the Ammo (X+) trait is read as the setting
`ammo_trait_reading` says (see AMMO_READINGS).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from battletracker.core.dice import Die, Face
from battletracker.core.odds import Distribution
from battletracker.core.text import brief
from battletracker.rules.base import InputReader, RulesInputError
from battletracker.rules.tables import setting

RULESET = "necromunda"
FACES_SETTING = "firepower_die_faces"
READING_SETTING = "ammo_trait_reading"
SIDES = 6
MAX_HOLES = 3
AMMO_MARK = "+ammo"

AMMO_READINGS: dict[str, str] = {
    "always": (
        "Read literally: a weapon with Ammo (X+) counts one more ammo symbol than its Firepower dice show, "
        "so it goes Out of Ammo with no symbol rolled and jams on one."
    ),
    "with_rolled_symbol": (
        "A weapon with Ammo (X+) counts one more ammo symbol only when its Firepower dice show at least one, "
        "so any ammo symbol jams it."
    ),
    "never": (
        "The Ammo (X+) trait adds nothing to the Firepower dice; resolve the trait's own Ammo check "
        "from the rulebook."
    ),
}

AMMO_OK = "ok"
AMMO_OUT = "out"
AMMO_JAMMED = "jammed"
PROFILE_STATE_AFTER = {AMMO_OK: "ok", AMMO_OUT: "out_of_ammo", AMMO_JAMMED: "jammed"}

_FACE = re.compile(r"^([1-9])(\+ammo)?$")


@dataclass(frozen=True)
class FirepowerFace:
    """One face: its bullet holes and whether it carries the ammo symbol."""

    holes: int
    ammo: bool = False

    @property
    def label(self) -> str:
        return f"{self.holes}{AMMO_MARK}" if self.ammo else str(self.holes)


@dataclass(frozen=True)
class FirepowerDie:
    """The six faces of the Firepower die, in the order the setting lists them."""

    faces: tuple[FirepowerFace, ...]

    @property
    def die(self) -> Die:
        return Die("Firepower", tuple(face.label for face in self.faces))

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(face.label for face in self.faces)

    def face(self, value: Face) -> FirepowerFace:
        """The face a rolled (or typed) value names."""
        label = str(self.die.validate(value))
        for face in self.faces:
            if face.label == label:
                return face
        raise ValueError(f"{value!r} is not a face of the Firepower die")

    def describe(self) -> str:
        return ", ".join(self.labels)


def parse_faces(text: str, field: str = FACES_SETTING) -> FirepowerDie:
    """A Firepower die from the setting's text ("1, 1, 2, 2, 3, 1+ammo").

    Refused with a message naming `field` unless there are exactly six faces,
    each 1 to 3 bullet holes with an optional +ammo.
    """
    parts = [p.strip().lower().replace(" ", "") for p in text.split(",")]
    faces: list[FirepowerFace] = []
    for part in parts:
        match = _FACE.match(part)
        if match is None or int(match.group(1)) > MAX_HOLES:
            raise RulesInputError(field, f"{brief(part)} is not a Firepower die face: write 1, 2 or 3 bullet holes, "
                                         f"with +ammo for the ammo symbol (e.g. 1+ammo)")
        faces.append(FirepowerFace(int(match.group(1)), match.group(2) is not None))
    if len(faces) != SIDES:
        raise RulesInputError(field, f"the Firepower die has {SIDES} faces, not {len(faces)} ({brief(text)})")
    return FirepowerDie(tuple(faces))


def default_die() -> FirepowerDie:
    """The Firepower die as the ruleset's settings describe it."""
    return parse_faces(str(setting(RULESET, FACES_SETTING)))


def read_die(r: InputReader) -> FirepowerDie:
    """The `firepower_die_faces` input (the game's setting), else the ruleset default."""
    return parse_faces(r.str(FACES_SETTING, str(setting(RULESET, FACES_SETTING))))


def read_reading(r: InputReader) -> str:
    """The `ammo_trait_reading` input (the game's setting), else the ruleset default."""
    return r.choice(READING_SETTING, tuple(AMMO_READINGS), str(setting(RULESET, READING_SETTING)))


def ammo_symbols_counted(rolled: int, has_ammo_trait: bool, reading: str) -> int:
    """Ammo symbols that count against the weapon: those rolled, plus the Ammo (X+) one if it applies."""
    if reading not in AMMO_READINGS:
        raise ValueError(f"{reading!r} is not a reading of the Ammo (X+) trait ({', '.join(AMMO_READINGS)})")
    extra = has_ammo_trait and (reading == "always" or (reading == "with_rolled_symbol" and rolled > 0))
    return rolled + (1 if extra else 0)


def ammo_state(symbols: int) -> str:
    """One ammo symbol: Out of Ammo. Two or more: the weapon jams for the battle."""
    if symbols <= 0:
        return AMMO_OK
    return AMMO_OUT if symbols == 1 else AMMO_JAMMED


@lru_cache(maxsize=256)
def holes_and_symbols(die: FirepowerDie, count: int) -> Distribution[tuple[int, int]]:
    """Exact joint distribution of (bullet holes, ammo symbols) over `count` Firepower dice."""
    one = Distribution.uniform((face.holes, 1 if face.ammo else 0) for face in die.faces)
    return one.repeat(count, lambda a, b: (a[0] + b[0], a[1] + b[1]), (0, 0))
