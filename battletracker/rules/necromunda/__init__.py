"""Necromunda shooting: Firepower dice, ammo, stray shots, blasts and templates.

Procedures (registered on import: the package imports every module of it):
`necro.attack` (a whole Shoot action), and its parts `necro.shoot`,
`necro.stray_shots`, `necro.cool_check`, `necro.engaged_allocation`;
`necro.reload`. Pure functions
for the map and the dialogs: conditions (Suppression, ledges), targeting
(target priority, walking fire), areas (Blast and Template), profiles (traits,
shoot inputs from a weapon profile, weapon presets), options (the Arbitrator's
toolkit settings).
"""

from battletracker.rules import import_modules

import_modules(__name__, __path__)
