"""Reach on the map for the selected unit: a flamethrower's 12" and a sniper's 3" circle.

The map already draws the selected tripod MG's or gun's 90 degree arc; this
adds what it does not know about: how far a flamethrower reaches and the 3"
circle within which a sniper is seen. Only the selection is drawn, so the
overlay costs nothing on a crowded table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem

from battletracker.model.game import Game
from battletracker.rules.chain_of_command import flamethrowers
from battletracker.rules.chain_of_command import snipers
from battletracker.rules.chain_of_command.fire_plans import has_flamethrower
from battletracker.rules.chain_of_command.fire_plans import is_sniper
from battletracker.ui.map.items import circle_item
from battletracker.ui.map.items import text_item

if TYPE_CHECKING:
    from battletracker.ui.extensions import FeatureHost

REACH_OVERLAY = "support_fire.reach"
FLAME_COLOUR = QColor("#ef6c00")
SIGHT_COLOUR = QColor("#6a1b9a")


def reach_circles(game: Game, unit_id: str | None) -> list[tuple[float, str, QColor]]:
    """(radius, label, colour) of the circles to draw around the selected unit."""
    unit = game.units.get(unit_id or "")
    if unit is None or game.ruleset != "chain_of_command":
        return []
    circles: list[tuple[float, str, QColor]] = []
    if has_flamethrower(unit):
        circles.append((flamethrowers.MAX_RANGE, f'flamethrower {flamethrowers.MAX_RANGE:g}"', FLAME_COLOUR))
    if is_sniper(unit):
        circles.append((snipers.SIGHT_RADIUS, f'sniper seen within {snipers.SIGHT_RADIUS:g}"', SIGHT_COLOUR))
    return circles


def install(host: FeatureHost) -> None:
    """Follow the selection and the game: redraw the reach circles of the selected unit."""
    session, view = host.session, host.map

    def redraw(*_args: object) -> None:
        game = session.game
        circles = reach_circles(game, session.selected)
        if not circles:
            view.clear_overlay(REACH_OVERLAY)
            return
        unit = game.unit(session.selected or "")
        items: list[QGraphicsItem] = []
        font = view.map_scene.label_font
        for radius, label, colour in circles:
            items.append(circle_item((unit.x, unit.y), radius, colour, 25, Qt.PenStyle.DashLine))
            items.append(text_item((unit.x, unit.y + radius), label, font, QColor("#ffffff"), colour))
        view.set_overlay(REACH_OVERLAY, items)

    session.selection_changed.connect(redraw)
    session.changed.connect(redraw)
    session.game_replaced.connect(redraw)
    redraw()
