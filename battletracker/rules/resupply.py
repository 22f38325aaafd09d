"""Which weapons may be refilled in play.

Chain of Command's infantry flamethrowers "have fuel for three Phases of fire
which cannot be resupplied": a flamethrower, or any weapon whose ammunition is
counted as fuel, is never refilled. Every other weapon with a maximum may be.
"""

from __future__ import annotations

from battletracker.model.game import Weapon

NEVER_RESUPPLIED_KINDS = ("flamethrower",)
NEVER_RESUPPLIED_LABELS = ("fuel",)


def resupply_refusal(weapon: Weapon) -> str | None:
    """Why `weapon` cannot be refilled, in a player's words; None when it can."""
    if weapon.ammo is None or weapon.ammo_max is None:
        return f"the {weapon.name} has no ammunition count to refill"
    if weapon.kind in NEVER_RESUPPLIED_KINDS or weapon.ammo_label in NEVER_RESUPPLIED_LABELS:
        return (f"the {weapon.name}'s {weapon.ammo_label} cannot be resupplied: a flamethrower carries fuel for "
                "three Phases of fire and no more")
    return None
