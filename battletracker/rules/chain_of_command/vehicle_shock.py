"""Shock on vehicles (Section 16.3 as the documents quote it).

Shared by every procedure that puts Shock on an AFV or APC: anti-tank fire,
grenades and flamethrowers, bombardments and SOS fire.
"""

from __future__ import annotations

ABANDONED_AT = 4


def shock_added(base: int, immobilised: bool) -> int:
    """Shock actually added: an immobilised vehicle suffers any later Shock doubled."""
    return base * 2 if immobilised else base


def abandoned(total_shock: int) -> bool:
    """Four or more Shock and the crew abandon the vehicle."""
    return total_shock >= ABANDONED_AT


def firepower_after_shock(firepower_dice: int, shock: int) -> int:
    """An armoured vehicle firing MGs or H.E. loses one Firepower Die per Shock."""
    return max(0, firepower_dice - shock)
