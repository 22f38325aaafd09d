"""Necromunda shapes on the map: range bands, the stray-shot corridor, toolkit radii, blasts, the Template.

The selected fighter's short and long range follow the selection (a window
extension); the Shoot dialog adds its own layer while it is open. Every shape
is built from the same distances the rules use (`stray_shots.CORRIDOR`,
`targeting.WALKING_FIRE_RADIUS`, `targeting.PRIORITY_RANGE`, markers.toml).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QPainterPath
from PySide6.QtGui import QPen
from PySide6.QtWidgets import QGraphicsItem
from PySide6.QtWidgets import QGraphicsPathItem

from battletracker.core.geometry import Point
from battletracker.core.geometry import bearing
from battletracker.core.geometry import offset
from battletracker.model.effects import Changes
from battletracker.model.game import Unit
from battletracker.rules.necromunda.areas import TemplateShape
from battletracker.rules.necromunda.areas import template_end
from battletracker.rules.necromunda.stray_shots import CORRIDOR
from battletracker.rules.necromunda.table import is_fighter
from battletracker.rules.necromunda.table import profile_ranges
from battletracker.rules.necromunda.table import profile_refs
from battletracker.rules.necromunda.table import traits_of
from battletracker.rules.necromunda.targeting import PRIORITY_RANGE
from battletracker.rules.necromunda.targeting import WALKING_FIRE_RADIUS
from battletracker.rules.necromunda.template import TemplatePlacement
from battletracker.ui.map.items import Z_OVERLAYS
from battletracker.ui.map.items import circle_item
from battletracker.ui.map.items import cosmetic
from battletracker.ui.map.items import line_item
from battletracker.ui.map.items import text_item
from battletracker.ui.map.palette import MapPalette

if TYPE_CHECKING:
    from battletracker.ui.extensions import FeatureHost
    from battletracker.ui.map.view import MapView

SELECTION_KEY = "necromunda.range"
SHOOT_KEY = "necromunda.shoot"

SHORT_COLOUR = QColor("#2e7d32")
LONG_COLOUR = QColor("#f9a825")
CORRIDOR_COLOUR = QColor("#d81b60")
WALKING_COLOUR = QColor("#8e24aa")
PRIORITY_COLOUR = QColor("#1e88e5")
BLAST_COLOUR = QColor("#e53935")


def _label(view: MapView, at: Point, text: str) -> QGraphicsItem:
    palette = MapPalette.from_qpalette(view.palette())
    return text_item(at, text, view.map_scene.label_font, palette.label_text, palette.label_back)


def _joined_circles(a: Point, a_radius: float, b: Point, b_radius: float, heading: float) -> QPainterPath:
    """A circle round each end and the band between them, along `heading` from a to b."""
    path = QPainterPath()
    for (x, y), radius in ((a, a_radius), (b, b_radius)):
        if radius > 0:
            path.addEllipse(QRectF(x - radius, y - radius, 2 * radius, 2 * radius))
    corners = [offset(a, heading - 90, a_radius), offset(b, heading - 90, b_radius),
               offset(b, heading + 90, b_radius), offset(a, heading + 90, a_radius)]
    band = QPainterPath()
    band.moveTo(*corners[0])
    for c in corners[1:]:
        band.lineTo(*c)
    band.closeSubpath()
    return path.united(band)


def _shaded(path: QPainterPath, colour: QColor, pen: QPen, alpha: int) -> QGraphicsPathItem:
    item = QGraphicsPathItem(path)
    item.setPen(pen)
    fill = QColor(colour)
    fill.setAlpha(alpha)
    item.setBrush(fill)
    item.setZValue(Z_OVERLAYS)
    return item


def corridor_item(a: Point, b: Point, half_width: float, colour: QColor) -> QGraphicsPathItem:
    """Everything within `half_width` of the segment a-b: a stadium, as the rules' corridor is."""
    return _shaded(_joined_circles(a, half_width, b, half_width, bearing(a, b)), colour,
                   cosmetic(colour, 1.0, Qt.PenStyle.DashLine), 45)


def template_item(origin: Point, heading: float, shape: TemplateShape, colour: QColor) -> QGraphicsPathItem:
    """The Template's teardrop, the same outline `areas.in_template` measures against."""
    end = template_end(origin, heading, shape)
    return _shaded(_joined_circles(origin, shape.narrow_width / 2, end, shape.wide_radius, heading), colour,
                   cosmetic(colour, 1.5), 60)


def range_items(view: MapView, origin: Point, short: float, long: float, name: str,
                filled: bool = True) -> list[QGraphicsItem]:
    """A profile's short range and long range (dashed), labelled with the distances.

    Filled for the selection; rings only in the Shoot dialog's layer, which lies over it.
    """
    items: list[QGraphicsItem] = []
    if long > 0:
        items.append(circle_item(origin, long, LONG_COLOUR, 18 if filled else 0, Qt.PenStyle.DashLine))
        items.append(_label(view, offset(origin, 180.0, long), f'{name}: long {long:g}"'))
    if short > 0:
        items.append(circle_item(origin, short, SHORT_COLOUR, 30 if filled else 0))
        items.append(_label(view, offset(origin, 180.0, short), f'short {short:g}"'))
    return items


def shoot_items(view: MapView, shooter: Unit, target: Unit | None, ranges: tuple[float, float] | None,
                name: str, *, stray: bool, walking: bool, priority: bool,
                blast: float | None, template: TemplatePlacement | None = None) -> list[QGraphicsItem]:
    """The Shoot dialog's layer: ranges, line of fire, and the toolkit shapes that are on."""
    origin = (shooter.x, shooter.y)
    items: list[QGraphicsItem] = []
    if ranges is not None:
        items.extend(range_items(view, origin, ranges[0], ranges[1], name, filled=False))
    if priority:
        items.append(circle_item(origin, PRIORITY_RANGE, PRIORITY_COLOUR, 0, Qt.PenStyle.DotLine))
        items.append(_label(view, offset(origin, 0.0, PRIORITY_RANGE), f'target priority {PRIORITY_RANGE:g}"'))
    if target is not None:
        at = (target.x, target.y)
        items.append(line_item(origin, at, CORRIDOR_COLOUR))
        if stray:
            items.append(corridor_item(origin, at, CORRIDOR, CORRIDOR_COLOUR))
        if walking:
            items.append(circle_item(at, WALKING_FIRE_RADIUS, WALKING_COLOUR, 25, Qt.PenStyle.DashLine))
            items.append(_label(view, offset(at, 135.0, WALKING_FIRE_RADIUS + 0.8),
                                f'walking fire {WALKING_FIRE_RADIUS:g}"'))
        if blast is not None:
            items.append(circle_item(at, blast / 2, BLAST_COLOUR, 60))
            items.append(_label(view, offset(at, 0.0, blast / 2), f'Blast ({blast:g}")'))
    if template is not None:
        items.append(template_item(template.origin, template.heading, template.shape, BLAST_COLOUR))
        items.append(_label(view, template_end(template.origin, template.heading, template.shape), "Template"))
    return items


def selection_ranges(host: FeatureHost) -> None:
    """Draw the selected fighter's first shooting profile's range bands, following the session."""
    session, view = host.session, host.map

    def update(_: object = None) -> None:
        unit = session.game.units.get(session.selected or "")
        if unit is None or not is_fighter(session.game, unit):
            view.clear_overlay(SELECTION_KEY)
            return
        for ref in profile_refs(unit):
            ranges = profile_ranges(unit, ref.weapon, ref.profile)
            if ranges is not None and not traits_of(unit.weapons[ref.weapon], ref.profile).template:
                view.set_overlay(SELECTION_KEY, range_items(view, (unit.x, unit.y), *ranges, ref.title))
                return
        view.clear_overlay(SELECTION_KEY)

    def on_changed(changes: Changes) -> None:
        if session.selected is not None and changes.unit(session.selected):
            update()

    session.selection_changed.connect(update)
    session.changed.connect(on_changed)
    session.game_replaced.connect(update)
    update()
