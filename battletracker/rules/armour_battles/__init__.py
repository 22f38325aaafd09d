"""Armour Battles (Wargames Design): close-support units' direct and indirect
fire, the Reaction Check and close assault. Importing the package registers
its procedures."""

from battletracker.rules.armour_battles import (
    actions,
    close_assault,
    direct_fire,
    fire,
    mission,
    placement,
    reaction,
    units,
)

__all__ = ["actions", "close_assault", "direct_fire", "fire", "mission", "placement", "reaction", "units"]
