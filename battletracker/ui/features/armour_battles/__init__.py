"""Armour Battles in the app: the unit card's dice, Suppression and Disruption;
the Indirect and Direct fire dialogs for close-support units; the selected
unit's range profile on the map."""

from battletracker.ui.extensions import Feature
from battletracker.ui.features.armour_battles import actions
from battletracker.ui.features.armour_battles import card
from battletracker.ui.features.armour_battles import overlays

FEATURE = Feature(
    "armour_battles",
    unit_actions=(actions.INDIRECT_FIRE, actions.DIRECT_FIRE, actions.CLOSE_ASSAULT),
    card_sections=(card.SECTION,),
    window_extensions=(overlays.range_profile_overlay,),
)

__all__ = ["FEATURE", "actions", "card", "overlays"]
