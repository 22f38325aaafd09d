"""Armour Battles in the app: the unit card's dice, Suppression and Disruption;
the Indirect and Direct fire dialogs for close-support units; the selected
unit's range profile on the map. Importing the package registers them."""

from battletracker.ui.features.armour_battles import actions, card, overlays

__all__ = ["actions", "card", "overlays"]
