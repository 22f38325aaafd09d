"""The battle log's wording of a step's rolls, and the wordings older versions wrote.

Log lines are part of a saved game, and reopening a game replays its actions
and compares what they write with the saved log (rules/replay.py): a line
worded differently would cost the game its undo history. So a change of
wording is listed in `OLD_WORDINGS`, each entry turning a line as an older
version wrote it into the line as this version writes it. The replay keeps
the saved line where the saved line is the replayed one in an older wording
(`reads_as`), so the game reopens exactly as it was saved, undo and redo
included; only new steps are written in the new words. An entry reads the
saved line alone, and the names the game's units went by when the step was
taken (for lines that said a unit by its id). Where the saved line alone
cannot give the new one (it said "Team 1", not which unit), an `OLD_FORMS`
entry reads the saved line against the line written now. A line no longer written
(`DROPPED_LINES`) is kept where the saved log has it, and a line older
versions did not write (`ADDED_LINES`) is left out where the saved log lacks it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass

from battletracker.rules.base import inches
from battletracker.rules.base import table_point
from battletracker.rules.places import compass
from battletracker.rules.words import CONDITION_TERMS
from battletracker.rules.words import possessive
from battletracker.rules.words import title

ROLLS = " - rolls: "


def _repeats(title: str, label: str) -> bool:
    """Whether the step's title already says the roll's label ("Germany: Command Dice" and "Command Dice")."""
    return bool(label) and (title == label or title.endswith(f" {label}"))


def rolls_line(title: str, rolls: Sequence[tuple[str, Sequence[object]]], source: str = "") -> str:
    """The log line of a step's rolls: "Fire - rolls: Firepower Dice: 4 6 2; Effect dice: 5".

    A roll the title already names is given by its faces alone ("Germany:
    Command Dice - rolls: 6 5 3 1 1"), never the name twice. `source` says
    whose dice they were ("dice rolled at the table").
    """
    parts = [" ".join(str(v) for v in faces) if _repeats(title, label)
             else f"{label}: {' '.join(str(v) for v in faces)}" for label, faces in rolls]
    head = f"{title} ({source})" if source else title
    return f"{head}{ROLLS}{'; '.join(parts)}"


def _named_twice(line: str, names: Mapping[str, str]) -> str:
    """A rolls line that named the roll its title already names ("...Command Dice - rolls: Command Dice: 6 5")."""
    head, found, rolled = line.partition(ROLLS)
    if not found:
        return line
    titles = [head]
    if head.endswith(")") and " (" in head:
        titles.append(head[:head.rindex(" (")])  # the title before "(dice rolled at the table)"
    parts: list[str] = []
    for part in rolled.split("; "):
        at = part.find(": ")
        while at >= 0 and not any(_repeats(title, part[:at]) for title in titles):
            at = part.find(": ", at + 2)
        parts.append(part if at < 0 else part[at + 2:])
    return f"{head}{ROLLS}{'; '.join(parts)}"


_FIGHTER_LISTS = re.compile(r"^(?P<head>Stray shot \d+: hits |The Template hits )(?P<ids>.+)$")
_ALLOCATED = re.compile(r"^Hits allocated at random \((?P<numbered>[^)]*)\): (?P<ids>.+)$")
_FIGHTER_PARTS = re.compile(r"(?P<head>Stray shot \d+: |Hit \d+ to )(?P<id>[^,:;=\s]+)")


def _fighters_named(line: str, names: Mapping[str, str]) -> str:
    """A Necromunda line that said fighters by their unit ids ("Stray shot 1: hits c", "Hit 2 to b", the
    allocation's "1 = u7", the Template's "hits b, c", a dice prompt "Stray shot 1: c: 4") with their names.

    Ids hold no ",", ":" or "=" (necromunda/id_lists.py), so the old lines split
    cleanly; an id that is no unit's is left as it was.
    """
    def said(ids: str) -> str:
        return ", ".join(names.get(k, k) for k in ids.split(", "))

    found = _FIGHTER_LISTS.match(line)
    if found is not None:
        return found["head"] + said(found["ids"])
    found = _ALLOCATED.match(line)
    if found is not None:
        numbered = ", ".join(f"{n} = {said(k)}" for n, _, k in
                             (part.partition(" = ") for part in found["numbered"].split(", ")))
        return f"Hits allocated at random ({numbered}): {said(found['ids'])}"
    if ROLLS in line or line.startswith("Walking fire: "):
        return _FIGHTER_PARTS.sub(lambda m: m["head"] + said(m["id"]), line)
    return line


_OLD_POINT = re.compile(r"\((-?\d+\.\d), (-?\d+\.\d)\)")
_OLD_MOVED = re.compile(r"(?<= moved )(\d+\.\d)(?=\" to \()")
_OLD_REVERSE = re.compile(r"^From \(([^,()]+), ([^,()]+)\) to ")
_G = r"(-?\d+(?:\.\d+)?(?:e[+-]\d+)?)"
_OLD_INCHES = re.compile(rf'\({_G}", {_G}"\)')


def _places_in_inches(line: str, names: Mapping[str, str]) -> str:
    """A line that wrote a place as bare numbers ("SOS Fire on (22.0, 38.0)") with the place as the rest of
    the app writes it, `base.table_point` ('(22", 38")'); a move's distance likewise ("moved 12.0\"" became
    "moved 12\"").

    The old lines wrote one decimal (`:.1f`), and `table_point` rounds to one
    decimal as that did, so the float the old line shows gives the very words
    the exact float now gives. A Reverse's "From (x, y)" gave the vehicle's
    place to six significant figures (`:g`), and so did the places a unit was
    added at or moved to by an edit and the two points a table picture was
    placed by ('(12.3457", 4")'); rounding those again to one decimal can,
    rarely, differ from rounding the exact place (12.0499999 wrote "12.05",
    which rounds up): such a game reopens without its undo history, as a game
    with a line that does not replay always has.
    """
    line = _OLD_REVERSE.sub(lambda m: f"From {table_point(float(m[1]), float(m[2]))} to ", line)
    line = _OLD_MOVED.sub(lambda m: inches(float(m[1])), line)
    line = _OLD_INCHES.sub(lambda m: table_point(float(m[1]), float(m[2])), line)
    return _OLD_POINT.sub(lambda m: table_point(float(m[1]), float(m[2])), line)


def area_words(key: str, value: object) -> str:
    """One changed part of a bombardment's area as the log says it to players: 'radius 5"', "4 Firepower Dice"."""
    if isinstance(value, str):
        return f"a {value}"                                  # the shape: a circle, a rectangle
    assert isinstance(value, int | float)
    if key == "facing":
        return f"facing {round(value) % 360}°"
    if key == "firepower_dice":
        return f"{value} Firepower {'Die' if value == 1 else 'Dice'}"
    if key == "to_hit":
        return f"hitting on {value}+"
    return f'{key} {inches(value)}"'                         # width, depth, radius


def recorded_area_edit(changed: Sequence[tuple[str, object]]) -> str:
    """An area edit as a bombardment's history records it ("Area edited: shape circle, radius 5.0").

    Like `recorded_point`: the record is part of a saved game's state and
    keeps the words it was first written in; the log says `area_words`.
    """
    return "Area edited: " + ", ".join(f"{key} {value}" for key, value in changed)


_AREA_KEYS = "shape|width|depth|radius|facing|firepower_dice|to_hit"
_OLD_AREA_EDIT = re.compile(rf"^(?P<head>.*Area edited: )(?P<parts>(?:{_AREA_KEYS}) .*)$")


def _area_in_words(line: str, names: Mapping[str, str]) -> str:
    """An area edit's line that gave each part as its field and value ("shape circle, radius 5.0,
    firepower_dice 4") in the words the log now says them ('a circle, radius 5", 4 Firepower Dice')."""
    found = _OLD_AREA_EDIT.match(line)
    if found is None:
        return line
    said = []
    for part in found["parts"].split(", "):
        key, _, raw = part.partition(" ")
        try:
            value: object = raw if key == "shape" else int(raw) if key in ("firepower_dice", "to_hit") \
                else float(raw)
        except ValueError:
            return line
        said.append(area_words(key, value))
    return found["head"] + ", ".join(said)


_OLD_TEAM = re.compile(r"\b(?P<t>[Tt])eam (?P<n>\d+)\b")


def _teams_named(saved: str, written: str, names: Mapping[str, str]) -> bool:
    """Whether `written` is a Fire's line that said the units sharing its hits by number ("Team 1: effect dice
    5 -> 1 kill", "open for Team 1, light for Team 2", "Effect dice, team 2: 5") with each number one unit's
    name, the same number the same name and different numbers different units (two numbers may share a
    name only when that many units go by it).

    The old line does not say which unit was Team 1, so it is read against
    the line written now, each number matching any of the game's names.
    """
    if not names or _OLD_TEAM.search(saved) is None:
        return False
    said = "|".join(re.escape(n) for n in sorted(set(names.values()), key=len, reverse=True))
    parts: list[str] = []
    groups: dict[str, str] = {}
    last = 0
    for found in _OLD_TEAM.finditer(saved):
        parts.append(re.escape(saved[last:found.start()]))
        number = found["n"]
        if number in groups:
            parts.append(f"(?P={groups[number]})")
        else:
            groups[number] = f"team{number}"
            parts.append(f"(?P<team{number}>{said})")
        last = found.end()
    parts.append(re.escape(saved[last:]))
    matched = re.fullmatch("".join(parts), written)
    if matched is None:
        return False
    units_named = Counter(names.values())
    numbers_named = Counter(matched[g] for g in groups.values())
    return all(count <= units_named[name] for name, count in numbers_named.items())


@dataclass(frozen=True)
class OldForm:
    """A wording an older version wrote that cannot be turned into the current line from the saved line alone:
    `reads(saved, written, names)` says whether the saved line is the written one in the older words."""

    change: str
    reads: Callable[[str, str, Mapping[str, str]], bool]


_OLD_CALL = re.compile(r"(?P<side>[^:]+?) (?:bombardment|smoke barrage|SOS Fire) (?:b|sos)\d+(?=[: ]|$)")
_NUMBER = r'-?\d+(?:\.\d+)?(?:e[+-]\d+)?"?'
_OLD_PLACE = re.compile(rf"(?:at |on )?\({_NUMBER}, {_NUMBER}\)")


def _said_in_words(saved: str, written: str, names: Mapping[str, str]) -> bool:
    """Whether `written` is a line that named a bombardment or SOS Fire by its side, kind and id ("Germany
    bombardment b1: ...", "United States SOS Fire sos1: ...") with the name a player knows it by ("Germany's
    mortars, first barrage: ...", "United States' SOS Fire: ..."), or said a place as a pair of coordinates
    ('aiming point (24.2", 38")', "Re-aimed at (26.0, 36.5)") as words ('aiming point 2" north of 1st Squad').

    The old line does not say which of the side's calls b1 was, nor what was
    near the place, so it is read against the line written now: each old name
    matches any name of a call by the same side (no colon in it), each place any
    words, and the rest of the line is the saved line in the current words of
    every other change.
    """
    for old in OLD_WORDINGS:
        saved = old.current(saved, names)
    if _OLD_CALL.search(saved) is None and _OLD_PLACE.search(saved) is None:
        return False
    said: list[tuple[int, int, str]] = [(m.start(), m.end(), re.escape(possessive(m["side"])) + r" [^:]+?")
                                        for m in _OLD_CALL.finditer(saved)]
    said += [(m.start(), m.end(), r"(?!(?:at |on )?\().+?") for m in _OLD_PLACE.finditer(saved)
             if not any(start <= m.start() < end for start, end, _ in said)]
    parts: list[str] = []
    last = 0
    for start, end, pattern in sorted(said):
        parts += [re.escape(saved[last:start]), pattern]
        last = end
    parts.append(re.escape(saved[last:]))
    return re.fullmatch("".join(parts), written) is not None


def _deviation_from_aim(line: str, names: Mapping[str, str]) -> str:
    """A ranging shot's deviation that gave where it landed as coordinates ('Deviates 6" on a bearing of 90
    degrees: lands at (30.2", 38")') as the way it went from the aiming point ('Deviates 6" east of the aiming
    point (a bearing of 90 degrees)')."""
    found = _OLD_DEVIATION.match(line)
    if found is None:
        return line
    return (f'Deviates {found["inches"]}" {compass(float(found["bearing"]))} of the aiming point (a bearing of '
            f'{found["bearing"]} degrees)')


_OLD_DEVIATION = re.compile(r'^Deviates (?P<inches>[\d.]+)" on a bearing of (?P<bearing>\d+) degrees: lands at \(.*\)$')
_OLD_ROLLING = re.compile(r'^(?P<move>Rolling: moves [\d.]+" \w+) to \(.*\)$')


def _rolling_without_place(line: str, names: Mapping[str, str]) -> str:
    """A rolling bombardment's move that ended with the new centre as coordinates ('Rolling: moves 6" right to
    (34.8", 33.7")') as the move alone ('Rolling: moves 6" right'); the map and the dock show where it is."""
    found = _OLD_ROLLING.match(line)
    return line if found is None else found["move"]


_RANGES_AGAIN = " ranges again"
FIRST_RANGING = " takes its first ranging shot"
"""The end of the reminder to a Forward Observer that has not ranged yet (older versions said `_RANGES_AGAIN`)."""


def _first_ranging(saved: str, written: str, names: Mapping[str, str]) -> bool:
    """Whether `written` is the reminder of a first ranging shot ("Next Phase: Germany's mortars, first barrage
    takes its first ranging shot") that older versions worded as a repeat ("... ranges again").

    The saved line alone cannot say which it was (a re-aimed bombardment still
    ranges again), so it is read against the line written now, with any older
    naming of the bombardment read as `_said_in_words` reads it.
    """
    if not (saved.startswith("Next Phase: ") and saved.endswith(_RANGES_AGAIN) and written.endswith(FIRST_RANGING)):
        return False
    saved = saved[:-len(_RANGES_AGAIN)] + FIRST_RANGING
    return saved == written or _said_in_words(saved, written, names)


OLD_FORMS: tuple[OldForm, ...] = (
    OldForm("A Fire whose hits several units share names them, not their numbers (\"Team 1: effect dice 5 -> 1 "
            "kill\" became \"2nd Squad: effect dice 5 -> 1 kill\")", _teams_named),
    OldForm("A bombardment or SOS Fire is named as a player calls it, not by its id (\"Germany bombardment b1\" "
            "became \"Germany's mortars, first barrage\", \"United States SOS Fire sos1\" \"United States' SOS "
            "Fire\"), and its places are said in words, not coordinates ('aiming point (24.2\", 38\")' became "
            "'aiming point 2\" north of 1st Squad')", _said_in_words),
    OldForm("A Forward Observer that has not ranged yet is reminded of its first ranging shot, not told it "
            "\"ranges again\" (\"Next Phase: Germany's mortars, first barrage ranges again\" became \"... takes "
            "its first ranging shot\")", _first_ranging),
)


def _terms_capitalised(line: str, names: Mapping[str, str]) -> str:
    """A condition put on or off that said a term in lower case ("1st Squad is now pinned") with its capital, as
    the seeds write it ("1st Squad is now Pinned")."""
    for key in CONDITION_TERMS:
        said = title(key)
        for change in ("is now", "is no longer"):
            old = f" {change} {said.lower()}"
            if line.endswith(old):
                return line[:-len(old)] + f" {change} {said}"
    return line


@dataclass(frozen=True)
class OldWording:
    """A wording an older version wrote: what changed, and the line in the current words.

    `current` reads the saved line and the names of the game's units by id
    when the step was taken.
    """

    change: str
    current: Callable[[str, Mapping[str, str]], str]


_OLD_TEST_OWNER = re.compile(r"^(?P<name>.+?)'s Force Morale Test")


def _test_owned(line: str, names: Mapping[str, str]) -> str:
    """A Force Morale Test that put "'s" after any side's name ("United States's") with the possessive a reader
    expects ("United States'", "British")."""
    found = _OLD_TEST_OWNER.match(line)
    return line if found is None else f"{possessive(found['name'])} Force Morale Test" + line[found.end():]


OLD_WORDINGS: tuple[OldWording, ...] = (
    OldWording("A side's Force Morale Test is owned as a reader says it (\"United States's Force Morale Test\" "
               "became \"United States' Force Morale Test\")", _test_owned),
    OldWording("A roll the step's title already names is no longer named again in the rolls line "
               "(\"Command Dice - rolls: Command Dice: 6 5 3\" became \"Command Dice - rolls: 6 5 3\")",
               _named_twice),
    OldWording("Necromunda's stray shots, walking fire, Hits allocated in a combat and Templates name the "
               "fighters, not their unit ids (\"Stray shot 1: hits c\" became \"Stray shot 1: hits Mira\")",
               _fighters_named),
    OldWording("A place on the table is written in inches from the corner (\"SOS Fire on (22.0, 38.0)\" became "
               "\"SOS Fire on (22\", 38\")\")", _places_in_inches),
    OldWording("A bombardment's area edit says each part in words (\"Area edited: shape circle, radius 5.0, "
               "firepower_dice 4\" became 'Area edited: a circle, radius 5\", 4 Firepower Dice')", _area_in_words),
    OldWording("A ranging shot's deviation says the way it went from the aiming point, not where it landed "
               "('Deviates 6\" on a bearing of 90 degrees: lands at (30.2\", 38\")' became 'Deviates 6\" east of "
               "the aiming point (a bearing of 90 degrees)')", _deviation_from_aim),
    OldWording("A rolling bombardment's move no longer ends with where it lands ('Rolling: moves 6\" right to "
               "(34.8\", 33.7\")' became 'Rolling: moves 6\" right')", _rolling_without_place),
    OldWording("A condition the rules name as a term keeps its capital when put on or off (\"1st Squad is now "
               "Pinned\", once all in lower case)", _terms_capitalised),
)


@dataclass(frozen=True)
class OldLine:
    """A line older versions wrote that this version does not, or the other way round: what changed, and the
    line's form."""

    change: str
    form: re.Pattern[str]


DROPPED_LINES: tuple[OldLine, ...] = (
    OldLine("A Template attack no longer names the models it hits a second time after the attack's own line "
            "(\"Kal fires Flamer (Template) at Mira - the Template hits Mira, Brute\" followed \"The Template hits "
            "Mira, Brute\"; after a failed Cool check it said so of a Template that hit no one)",
            re.compile(r"^.+ \(Template\) at .+ - the Template hits .+$")),
)
"""Lines older versions wrote that this version no longer writes: a replay keeps them where they were saved."""

ADDED_LINES: tuple[OldLine, ...] = (
    OldLine("A Template attack with no Cool check begins with who fires what (\"Kal fires Flamer (Template) at "
            "Mira\"), as a roll's dice line does", re.compile(r"^.+ fires .+ \(Template\) at (?:(?! - ).)+$")),
)
"""Lines this version writes where older versions wrote none: a replay leaves them out where the saved log
has no such line."""


def dropped_since(saved: str) -> bool:
    """Whether `saved` is a line only an older version wrote."""
    return any(old.form.match(saved) for old in DROPPED_LINES)


def added_since(written: str) -> bool:
    """Whether `written` is a line older versions did not write."""
    return any(new.form.match(written) for new in ADDED_LINES)


def recorded_point(at: tuple[float, float]) -> str:
    """A place as a bombardment's history records it ("(22.0, 38.0)").

    No player reads that record, but it is part of a saved game's state,
    which reopening compares with the replay: it keeps the words it was
    first written in, while the log says the place as `base.table_point` does.
    """
    return f"({at[0]:.1f}, {at[1]:.1f})"


def reads_as(saved: str, written: str, names: Mapping[str, str] | None = None) -> bool:
    """Whether the saved line is `written`, in its own words or in a wording an older version wrote.

    `names` are the game's units' names by id when the line was written.
    """
    return (saved == written or any(old.current(saved, names or {}) == written for old in OLD_WORDINGS)
            or any(old.reads(saved, written, names or {}) for old in OLD_FORMS))
