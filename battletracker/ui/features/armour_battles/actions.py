"""The Armour Battles unit actions: Indirect fire, Direct fire and Close assault for close-support units."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from battletracker.rules.armour_battles.data import RULESET
from battletracker.ui.extensions import FeatureHost, UnitAction
from battletracker.ui.features.armour_battles.assault import CloseAssaultDialog
from battletracker.ui.features.armour_battles.common import is_close_support
from battletracker.ui.features.armour_battles.direct import DirectFireDialog
from battletracker.ui.features.armour_battles.indirect import IndirectFireDialog


def _show(dialog: QDialog) -> None:
    """Non-modal, so the map stays clickable for picking points and units."""
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()


def open_indirect_fire(host: FeatureHost, unit_id: str) -> None:
    _show(IndirectFireDialog(host.session, unit_id, host.map, host.window()))


def open_direct_fire(host: FeatureHost, unit_id: str) -> None:
    _show(DirectFireDialog(host.session, unit_id, host.map, host.window()))


def open_close_assault(host: FeatureHost, unit_id: str) -> None:
    _show(CloseAssaultDialog(host.session, unit_id, host.map, host.window()))


INDIRECT_FIRE = UnitAction(
    "ab.indirect_fire", "&Indirect fire...", is_close_support, open_indirect_fire, rulesets=(RULESET,),
    shortcut="Ctrl+Alt+I",
    tip="A close-support fire mission: aiming point, deviation, the burst's targets and their Reactions")

DIRECT_FIRE = UnitAction(
    "ab.direct_fire", "Di&rect fire...", is_close_support, open_direct_fire, rulesets=(RULESET,),
    shortcut="Ctrl+Alt+F", tip="A close-support unit fires its full dice at a unit it can see")

CLOSE_ASSAULT = UnitAction(
    "ab.close_assault", "Close &assault...", is_close_support, open_close_assault, rulesets=(RULESET,),
    shortcut="Ctrl+Alt+A", tip="A close-support unit's roll in a Close Assault: as a gun at +2 TN, never an overrun")
