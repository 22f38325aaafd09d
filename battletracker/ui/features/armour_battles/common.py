"""What the Armour Battles dialogs and the card share for display. Reading the
table (a unit's combat numbers, the game's settings, the dice a shot rolls)
is in `rules.armour_battles.plans`."""

from __future__ import annotations

from battletracker.model.game import Game, Unit
from battletracker.rules.armour_battles.data import RULESET, indirect_fire_rules
from battletracker.rules.armour_battles.plans import profile_of

MOVE_TITLES = {"single": "Single move", "double": "Double move", "triple": "Triple move"}


def is_armour_battles(game: Game) -> bool:
    return game.ruleset == RULESET


def is_close_support(game: Game, unit: Unit) -> bool:
    profile = profile_of(unit)
    return profile is not None and profile.close_support


def burst_radius() -> float:
    return indirect_fire_rules().burst_radius


def indirect_multiplier() -> int:
    return indirect_fire_rules().long_range_multiplier
