"""The Armour Battles unit actions: Indirect fire, Direct fire and Close assault for close-support units."""

from __future__ import annotations

from battletracker.rules.armour_battles.data import RULESET
from battletracker.ui.extensions import UnitAction
from battletracker.ui.features.armour_battles import assault
from battletracker.ui.features.armour_battles.common import is_close_support
from battletracker.ui.features.armour_battles.direct import DirectFireDialog
from battletracker.ui.features.armour_battles.indirect import IndirectFireDialog
from battletracker.ui.procedure_parts import open_unit_dialog
from battletracker.ui.procedure_parts import planned_action

INDIRECT_FIRE = UnitAction(
    "ab.indirect_fire", "&Indirect fire...", is_close_support, open_unit_dialog(IndirectFireDialog),
    rulesets=(RULESET,), shortcut="Ctrl+Alt+I",
    tip="A close-support fire mission: aiming point, deviation, the burst's targets and their Reactions")

DIRECT_FIRE = UnitAction(
    "ab.direct_fire", "Di&rect fire...", is_close_support, open_unit_dialog(DirectFireDialog), rulesets=(RULESET,),
    shortcut="Ctrl+Alt+F", tip="A close-support unit fires its full dice at a unit it can see")

CLOSE_ASSAULT = planned_action(
    key="ab.close_assault", title="Close &assault...", form=assault.FORM, applies=is_close_support,
    rulesets=(RULESET,), shortcut="Ctrl+Alt+A", dialog=assault.CloseAssaultDialog,
    tip="A close-support unit's roll in a Close Assault: as a gun at +2 TN, never an overrun")
