"""What the game's keys are called in a player's words: kinds, counters, conditions.

Model keys are snake_case names chosen by whichever procedure set them; the
log and the cards must read well for any of them, so unknown keys are turned
into words rather than shown raw.
"""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from battletracker.rules.tables import TableError
from battletracker.rules.tables import ruleset_file

if TYPE_CHECKING:
    from battletracker.model.game import Game

KIND_TITLES = {
    "team": "Team",
    "section": "Section",
    "leader": "Leader",
    "support_weapon": "Support weapon",
    "sniper": "Sniper",
    "gun": "Gun",
    "vehicle": "Vehicle",
    "fighter": "Fighter",
}

TITLES = {
    "out_of_ammo": "Out of ammo",
    "seriously_injured": "Seriously Injured",
    "sniper_shots": "Sniper shots",
    "check_falling": "Check falling",
    "afv": "AFV",
    "apc": "APC",
}


CONDITION_TERMS = frozenset({"pinned", "suppressed", "engaged", "seriously_injured"})
"""Conditions the rules name as a term, with capitals ("Pinned", "Seriously Injured" in the seeds): a sentence
keeps them."""


def title(key: str) -> str:
    """A model key as words: "out_of_ammo" -> "Out of ammo"."""
    if key in TITLES:
        return TITLES[key]
    words = key.replace("_", " ").strip()
    return words[:1].upper() + words[1:] if words else key


def condition_words(key: str) -> str:
    """A condition as a sentence says it: "1st Squad is now Pinned", "... is now out of ammo"."""
    return title(key) if key in CONDITION_TERMS else title(key).lower()


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def ordinal(n: int) -> str:
    """Which one in a count, as said at the table: "first", "second", ... "tenth", then "11th", "22nd"."""
    if 1 <= n <= len(_ORDINALS):
        return _ORDINALS[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


_ADJECTIVE_ENDINGS = ("ish", "ch", "ese")
"""A side named by its adjective (British, French, Japanese) owns things without an apostrophe: "British mortars"."""


def possessive(name: str) -> str:
    """A side's or a unit's name owning something: "Germany's", "United States'" (ending in s), "British"."""
    if name.lower().endswith(_ADJECTIVE_ENDINGS):
        return name
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


@dataclass(frozen=True)
class DamageResult:
    key: str
    title: str
    definition: str


@lru_cache(maxsize=16)
def damage_choices(ruleset: str, category: str) -> tuple[DamageResult, ...]:
    """Every damage result the ruleset keeps on a vehicle of this category, in table order.

    A ruleset without vehicle damage data offers none; the card still shows
    and lets the player clear whatever damage a unit carries.
    """
    try:
        results = ruleset_file(ruleset, "at_fire").table("results").table(category)
        return tuple(DamageResult(key, t.str("title"), t.str("definition"))
                     for key, t in results.tables() if t.bool("record"))
    except TableError:
        return ()


def damage_result(ruleset: str, category: str, key: str) -> DamageResult:
    """The ruleset's words for a damage key, or the key as words when the ruleset does not know it."""
    for result in damage_choices(ruleset, category):
        if result.key == key:
            return result
    return DamageResult(key, title(key), "")


class UnitNames(Mapping[str, str]):
    """Each unit's name by its id, read from the game when asked, for a procedure's `words`: most say no unit,
    and a Necromunda attack one or two, so the battle report does not list 500 names for each of its rolls."""

    def __init__(self, game: Game) -> None:
        self._units = game.units

    def __getitem__(self, unit_id: str) -> str:
        return self._units[unit_id].name

    def __iter__(self) -> Iterator[str]:
        return iter(self._units)

    def __len__(self) -> int:
        return len(self._units)
