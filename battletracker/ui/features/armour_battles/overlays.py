"""The selected Armour Battles unit's range profile on the map: short,
effective and long range rings, and for close-support units the doubled
indirect long range, each labelled where it crosses the table's top."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QGraphicsItem

from battletracker.core.geometry import offset
from battletracker.model.effects import Changes
from battletracker.rules.armour_battles.plans import profile_of
from battletracker.ui.features.armour_battles.common import indirect_multiplier
from battletracker.ui.features.armour_battles.common import is_armour_battles
from battletracker.ui.map.items import circle_item
from battletracker.ui.map.items import text_item

if TYPE_CHECKING:
    from battletracker.ui.extensions import FeatureHost

OVERLAY = "ab.range_profile"
RING_COLOURS = {"short": "#43a047", "effective": "#1e88e5", "long": "#8e24aa", "indirect_long": "#e53935"}
RING_TITLES = {"short": "short", "effective": "effective", "long": "long", "indirect_long": "indirect long"}


def range_profile_items(host: FeatureHost) -> list[QGraphicsItem]:
    """Rings for the selected unit, or nothing when it is not an Armour Battles unit with ranges."""
    session = host.session
    uid = session.selected
    if uid is None or not is_armour_battles(session.game) or uid not in session.game.units:
        return []
    unit = session.game.unit(uid)
    profile = profile_of(unit)
    if profile is None:
        return []
    rings = profile.ranges.rings(indirect_multiplier())
    if not profile.close_support:
        rings.pop("indirect_long")
    font = QFont(host.map.font())
    font.setPointSizeF(max(7.0, font.pointSizeF() * 0.85))
    items: list[QGraphicsItem] = []
    centre = (unit.x, unit.y)
    for key, radius in rings.items():
        colour = QColor(RING_COLOURS[key])
        style = Qt.PenStyle.DashLine if key == "indirect_long" else Qt.PenStyle.SolidLine
        items.append(circle_item(centre, radius, colour, 0, style))
        items.append(text_item(offset(centre, 0.0, radius), f'{RING_TITLES[key]} {radius:g}"', font,
                               QColor("#ffffff"), colour))
    return items


def range_profile_overlay(host: FeatureHost) -> None:
    """Keep the selected unit's range rings on the map as it moves or the selection changes."""

    def redraw(_changes: object = None) -> None:
        if isinstance(_changes, Changes) and not (_changes.everything or _changes.units or _changes.roster
                                                   or _changes.settings):
            return
        items = range_profile_items(host)
        if items:
            host.map.set_overlay(OVERLAY, items)
        else:
            host.map.clear_overlay(OVERLAY)

    host.session.changed.connect(redraw)
    host.session.selection_changed.connect(redraw)
    host.session.game_replaced.connect(redraw)
    redraw()
