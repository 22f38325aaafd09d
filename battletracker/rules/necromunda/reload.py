"""`necro.reload`: the Reload action takes Out of Ammo off one weapon profile.

Out of Ammo belongs to a profile: the other profiles of the same weapon still
fire, and a Reload clears one profile of the controlling player's choice. A
jammed weapon cannot be used again this battle, so it cannot be reloaded, and
a profile that is not Out of Ammo has nothing to reload; both are refused.
The documents give no roll for the action, so it always succeeds.

Inputs: `profile_state` (the chosen profile's state now), and optionally
`fighter_id`, `weapon` and `profile` (indexes from 0) for the Effect,
`weapon_name` (the profile as a player names it) for the refusals, which are
sentences (refusals.py), and the log, and `fighter_name` for the log.
Outcome: `reloaded`.
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.model.effects import Effect
from battletracker.model.effects import SetProfileState
from battletracker.model.game import PROFILE_STATES
from battletracker.rules import register
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.necromunda.refusals import Refusal
from battletracker.rules.necromunda.refusals import speaking
from battletracker.rules.necromunda.refusals import weapon_words

NAME = "necro.reload"


@dataclass(frozen=True)
class ReloadInputs:
    fighter_id: str
    weapon: int
    profile: int
    fighter_name: str
    weapon_name: str


@speaking
def _parse(inputs: Inputs) -> ReloadInputs:
    r = InputReader(inputs)
    state = r.choice("profile_state", PROFILE_STATES)
    weapon = r.int("weapon", 0, minimum=0)
    profile = r.int("profile", 0, minimum=0)
    name = r.str("weapon_name", "")
    if state == "jammed":
        raise Refusal("profile_state", f"{weapon_words(name)} is jammed and cannot be used again this battle, "
                                       f"so it cannot be reloaded")
    if state == "ok":
        raise Refusal("profile_state", f"{weapon_words(name, 'this profile')} is not Out of Ammo: there is "
                                       f"nothing to reload")
    parsed = ReloadInputs(fighter_id=r.str("fighter_id", ""), weapon=weapon, profile=profile,
                          fighter_name=r.str("fighter_name", "").strip(), weapon_name=name.strip())
    r.finish()
    return parsed


def reload_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    effects: list[Effect] = []
    if p.fighter_id:
        effects.append(SetProfileState(p.fighter_id, p.weapon, p.profile, "ok"))
    who = f"{p.fighter_name} reloads" if p.fighter_name else "Reload"
    log = [f"{who}: {p.weapon_name or 'the weapon'} is no longer Out of Ammo"]
    return Resolution(NAME, "reloaded", {"weapon": p.weapon, "profile": p.profile}, [], effects, log)


def reload_odds(inputs: Inputs) -> Distribution[str]:
    _parse(inputs)
    return Distribution.certain("reloaded")


register(Procedure(NAME, "Reload", reload_resolve, reload_odds, ruleset="necromunda",
                   typical={"profile_state": "out_of_ammo"}))
