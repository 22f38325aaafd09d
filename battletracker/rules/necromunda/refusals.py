"""Refusals a player reads: whole sentences in the table's words, never an input's name.

A `Refusal` is still a `RulesInputError` whose `field` names the input (so
tests and callers can tell what was refused), but its text is the sentence
alone. `in_words` turns the `InputReader`'s generic errors ("bs: must be at
most 6, not 7") into one ("The shooter's BS must be at most 6, not 7."), and
`speaking` does so for everything a procedure's parse raises.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

from battletracker.rules import base
from battletracker.rules.base import Inputs
from battletracker.rules.base import RulesInputError

T = TypeVar("T")

FIELD_WORDS: dict[str, str] = {
    "bs": "the shooter's BS",
    "range": "the range",
    "short_range": "the weapon's short range",
    "long_range": "the weapon's long range",
    "acc_short": "the weapon's accuracy at short range",
    "acc_long": "the weapon's accuracy at long range",
    "rapid_fire": "the X of the weapon's Rapid Fire (X)",
    "firepower_dice": "the number of Firepower dice",
    "ammo": "the X of the weapon's Ammo (X+)",
    "light": "whether the weapon is Light",
    "close_combat": "whether the shot is in close combat",
    "profile_state": "the profile's state",
    "weapon": "the weapon's number",
    "weapon_name": "the weapon's name",
    "weapon_profiles": "the weapon's number of profiles",
    "profile": "the profile's number",
    "other_modifier": "the other Hit roll modifier",
    "target_engaged": "whether the target is Engaged",
    "target_seriously_injured": "whether the target is Seriously Injured",
    "target_near_ledge": "whether the target is within 1/2\" of a ledge",
    "firer_id": "the shooter",
    "fighter_id": "the fighter",
    "target_id": "the target",
    "cool": "the fighter's Cool",
    "modifier": "the Cool check modifier",
    "hits": "the number of Hits",
    "combat": "the combat",
    "at_risk": "the list of models at risk of a stray shot",
    "engaged": "the list of Engaged models",
    "seriously_injured": "the list of Seriously Injured models",
    "near_ledge": "the list of models within 1/2\" of a ledge",
    "allocation": "the walking-fire allocation",
    "walking_candidates": "the list of models walking fire may reach",
    "walking_fire": "the models given the walking-fire Hits",
    "template": "whether the attack is a Template",
    "template_hits": "the list of models under the Template",
    "not_in_sight": "the list of enemies out of Line of Sight",
    "firepower_die_faces": "the Firepower die faces setting",
    "ammo_trait_reading": "the Ammo (X+) with Firepower dice setting",
    "toolkit_stray_shots": "the stray shots option",
    "names": "the fighters' names",
}


class Refusal(base.Refusal):
    """A refused input whose text is one sentence for the player, capitalised and ending in a full stop."""

    def __init__(self, field: str, text: str) -> None:
        super().__init__(field, sentence(text))


def sentence(text: str) -> str:
    """Capitalised, ending in a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def field_words(field: str) -> str:
    """The input in a player's words ("the shooter's BS"); an unknown input is quoted."""
    return FIELD_WORDS.get(field, f"the input {field!r}")


def weapon_words(name: str, fallback: str = "this weapon") -> str:
    """ "the autogun" for "Autogun"; a name in capitals (an acronym) keeps them; no name gives `fallback`."""
    name = name.strip()
    if not name:
        return fallback
    if not name[1:2].isupper():
        name = name[0].lower() + name[1:]
    return f"the {name}"


def in_words(exc: RulesInputError) -> Refusal:
    """The refusal as a sentence: a `Refusal` as it is, any other with its input named in words."""
    if isinstance(exc, Refusal):
        return exc
    detail = str(exc).removeprefix(f"{exc.field}: ")
    if detail == "is not an input of this procedure":
        return Refusal(exc.field, f"{exc.field!r} is not an input of this procedure")
    return Refusal(exc.field, f"{field_words(exc.field)} {detail}")


def speaking(parse: Callable[[Inputs], T]) -> Callable[[Inputs], T]:
    """A procedure's parse whose every refusal reads as a sentence."""

    @functools.wraps(parse)
    def wrapper(inputs: Inputs) -> T:
        try:
            return parse(inputs)
        except RulesInputError as exc:
            raise in_words(exc) from None

    return wrapper
