"""Necromunda shooting: Firepower dice, ammo, stray shots, blasts and templates.

Procedures (registered on import): `necro.shoot`, `necro.stray_shots`,
`necro.reload`, `necro.cool_check`, `necro.engaged_allocation`. Pure functions
for the map and the dialogs: conditions (Suppression, ledges), targeting
(target priority, walking fire), areas (Blast and Template), profiles (traits,
shoot inputs from a weapon profile, weapon presets), options (the Arbitrator's
toolkit settings).
"""

from battletracker.rules.necromunda import allocation, cool, reload, shooting, stray_shots

__all__ = ["allocation", "cool", "reload", "shooting", "stray_shots"]
