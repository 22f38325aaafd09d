"""Chain of Command support weapons at the table: the Fire dialog, sniper and gun card rows, reach overlays.

Adds a "Fire..." unit action for infantry, support units and vehicles with a
weapon (the procedure follows the weapon: tripod MG, sniper, flamethrower,
H.E. of a gun, a vehicle's gun or an infantry anti-tank weapon, or the unit's Firepower
Dice), the sniper's shots and Spotted toggle and a short-crewed gun's note on
the cards, and the flamethrower's and
sniper's circles around the selected unit on the map, and a "Grenade into
vehicle..." action for a Team beside an enemy vehicle.
"""

from __future__ import annotations

from battletracker.rules.chain_of_command import snipers
from battletracker.rules.chain_of_command.fire_plans import can_fire
from battletracker.ui.extensions import CardSection
from battletracker.ui.extensions import Feature
from battletracker.ui.extensions import UnitAction
from battletracker.ui.features.support_fire import overlays
from battletracker.ui.features.support_fire.cards import GunCrewSection
from battletracker.ui.features.support_fire.cards import SniperSection
from battletracker.ui.features.support_fire.cards import is_gun
from battletracker.ui.features.support_fire.cards import is_sniper
from battletracker.ui.features.support_fire.dialog import FireDialog
from battletracker.ui.features.support_fire.grenade_vehicle import GRENADE_INTO_VEHICLE
from battletracker.ui.procedure_parts import open_unit_dialog

RULESETS = ("chain_of_command",)


FIRE = UnitAction(
    key="coc.support_fire",
    title="Fire...",
    applies=can_fire,
    run=open_unit_dialog(FireDialog),
    rulesets=RULESETS,
    shortcut="Ctrl+F",
    tip="Fire this unit's weapon at an enemy unit, with the exact odds before the roll",
)
FEATURE = Feature(
    "coc.support_fire",
    unit_actions=(FIRE, GRENADE_INTO_VEHICLE),
    card_sections=(CardSection("coc.sniper", is_sniper, SniperSection, RULESETS,
                               counters=(snipers.SHOTS_COUNTER,), conditions=(snipers.SPOTTED,)),
                   CardSection("coc.gun_crew", is_gun, GunCrewSection, RULESETS)),
    window_extensions=(overlays.install,),
)

__all__ = ["FEATURE", "FireDialog"]
