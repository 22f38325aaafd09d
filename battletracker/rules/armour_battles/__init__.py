"""Armour Battles (Wargames Design): close-support units' direct and indirect
fire, the Reaction Check and close assault. Importing the package registers
its procedures."""

from battletracker.rules.armour_battles import close_assault, fire, placement, reaction, units
from battletracker.rules.clock import on_clock
from battletracker.rules.sequence import round_end_effects

on_clock(round_end_effects)

__all__ = ["close_assault", "fire", "placement", "reaction", "units"]
