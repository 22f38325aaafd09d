"""Unit and vehicle cards in a dock, grouped by side; every edit goes through the session."""

from battletracker.ui.cards.card import UnitCard
from battletracker.ui.cards.panel import CardsPanel

__all__ = ["CardsPanel", "UnitCard"]
