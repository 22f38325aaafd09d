"""The Firepower die and what its ammo symbols do to a weapon.

The documents name the die's four symbols (one, two and three bullet holes,
and one bullet hole with the ammo symbol) but not how many faces carry each,
so the faces are the ruleset setting `firepower_die_faces`. Each face is a
named face of a `Die`, so typed-in dice are the faces as printed ("2",
"1+ammo") and a face that appears twice is twice as likely, in the odds and in
the app's own dice alike.

Ammo symbols: one puts the profile Out of Ammo, two or more jam the weapon for
the battle. The sentence about the Ammo (X+) trait is read as the setting
`ammo_trait_reading` says (see AMMO_READINGS). Under the default reading,
`ammo_check`, a weapon with Ammo (X+) makes an Ammo check for each ammo symbol
it rolls, a D6 that passes on X or more, and only the symbols whose check
fails count: the mechanic published material on the current rules describes,
so the trait's X decides how often the weapon runs dry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from battletracker.core.dice import Die
from battletracker.core.dice import Face
from battletracker.core.odds import Distribution
from battletracker.core.text import brief
from battletracker.rules.base import InputReader
from battletracker.rules.necromunda.refusals import Refusal
from battletracker.rules.tables import setting

RULESET = "necromunda"
FACES_SETTING = "firepower_die_faces"
READING_SETTING = "ammo_trait_reading"
SIDES = 6
MAX_HOLES = 3
AMMO_MARK = "+ammo"

CHECK_READING = "ammo_check"
AMMO_READINGS: dict[str, str] = {
    CHECK_READING: (
        "Each ammo symbol a weapon with Ammo (X+) rolls calls for an Ammo check, a D6 that passes on X or more; "
        "a symbol whose check passes costs nothing, one failed check puts the profile Out of Ammo and two or "
        "more jam the weapon."
    ),
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
            raise Refusal(field, f"{brief(part)} is not a Firepower die face: write 1, 2 or 3 bullet holes, "
                                 f"with +ammo for the ammo symbol (e.g. 1+ammo)")
        faces.append(FirepowerFace(int(match.group(1)), match.group(2) is not None))
    if len(faces) != SIDES:
        raise Refusal(field, f"the Firepower die has {SIDES} faces, not {len(faces)} ({brief(text)})")
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


def ammo_checks_needed(rolled: int, ammo: int, reading: str) -> int:
    """Ammo checks the rolled symbols call for: one each for a weapon with Ammo (X+) under `ammo_check`."""
    _known(reading)
    return rolled if reading == CHECK_READING and ammo > 0 else 0


def ammo_check_failed(roll: int, ammo: int) -> bool:
    """An Ammo check fails when the D6 is below the weapon's X."""
    return roll < ammo


def ammo_symbols_counted(rolled: int, has_ammo_trait: bool, reading: str, failed_checks: int = 0) -> int:
    """Ammo symbols that count against the weapon.

    Under `ammo_check` a weapon with the trait counts only the symbols whose
    Ammo check failed; otherwise those rolled count, plus the Ammo (X+) one
    if the reading adds it.
    """
    _known(reading)
    if reading == CHECK_READING and has_ammo_trait:
        return failed_checks
    extra = has_ammo_trait and (reading == "always" or (reading == "with_rolled_symbol" and rolled > 0))
    return rolled + (1 if extra else 0)


def _known(reading: str) -> None:
    if reading not in AMMO_READINGS:
        raise ValueError(f"{reading!r} is not a reading of the Ammo (X+) trait ({', '.join(AMMO_READINGS)})")


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


@lru_cache(maxsize=256)
def holes_and_ammo_state(die: FirepowerDie, count: int, ammo: int, reading: str) -> Distribution[tuple[int, str]]:
    """Exact joint distribution of (bullet holes, ammo state) over `count` Firepower dice and any Ammo checks.

    Whole weights over the dice's denominator times 6 per Ammo check at the most checks: each (holes,
    symbols) result and number of failed checks adds its weight directly, no Fraction per result.
    """
    weights, den = holes_and_symbols(die, count).whole_weights()
    checks_of = {rolled: ammo_checks_needed(rolled, ammo, reading) for _holes, rolled in weights}
    most = max(checks_of.values(), default=0)
    failing = max(ammo - 1, 0)  # faces of an Ammo check's D6 below X
    out: dict[tuple[int, str], int] = {}
    for (holes, rolled), n in weights.items():
        checks = checks_of[rolled]
        for failed in range(checks + 1):
            ways = comb(checks, failed) * failing**failed * (SIDES - failing) ** (checks - failed)
            if ways:
                key = (holes, ammo_state(ammo_symbols_counted(rolled, ammo > 0, reading, failed)))
                out[key] = out.get(key, 0) + n * ways * SIDES ** (most - checks)
    return Distribution.from_weights(out, den * SIDES**most)
