"""What the projector draws on the cloth: the laptop's overlays as bright shapes in table inches.

Every shape is asked from the functions the laptop's map asks (the selected
unit's `main_arc` and `range_bands` as `MapScene` reads them, a bombardment's
`outline`, `radius` and `future_centres`, smoke's `outline`, the Line-of-Sight
ruler's reading), from the public game only. Line widths are in table inches,
so a line is as thick on the cloth wherever the projector stands, and the
colours are bright on black: on the table, black is no light at all, and a
bright line reads on green cloth and on terrain alike.

Procedures' own overlays on the laptop (a burst where fire would land, a line
of fire, a weapon's reach) are copied by their geometry (`copied_shapes`),
in the projector's colours; any of them drawn at a unit the opponent may not
know of is left out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from PySide6.QtCore import QPointF
from PySide6.QtCore import QRectF
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QPainterPath
from PySide6.QtGui import QPolygonF
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import QGraphicsEllipseItem
from PySide6.QtWidgets import QGraphicsItem
from PySide6.QtWidgets import QGraphicsLineItem
from PySide6.QtWidgets import QGraphicsPolygonItem

from battletracker.core import geometry
from battletracker.core.geometry import Point
from battletracker.core.homography import table_corners
from battletracker.model.bombardment import Bombardment
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.chain_of_command.bombardment import future_centres
from battletracker.ui.map.items import DEFAULT_DIAMETER
from battletracker.ui.map.items import ROUND_DIAMETER
from battletracker.ui.map.items import VEHICLE_LENGTH
from battletracker.ui.map.scene import drawn_as_vehicle

LINE = 0.18
"""Inches: an outline on the cloth, about as thick as a pencil line seen from a chair."""
THIN = 0.06
"""Inches: the check pattern's inch grid."""
ARC = QColor("#ffff00")
RINGS = QColor("#ffffff")
SELECTED = QColor("#00ffff")
KIND_COLOURS = {"high_explosive": QColor("#ff3d1f"), "smoke": QColor("#e0e0e0"), "sos": QColor("#ff9100")}
AIM = QColor("#00e5ff")
SMOKE = QColor("#e0e0e0")
SIGHT_CLEAR = QColor("#39ff14")
SIGHT_BLOCKED = QColor("#ff1744")
COPIED = QColor("#ffea00")
SECRET_REACH = 1.5
"""Inches from a secret unit's centre within which a copied overlay is taken as drawn at it."""
RING_POINTS = 120
_UNIT_RING = QPolygonF([QPointF(math.cos(2 * math.pi * i / RING_POINTS), math.sin(2 * math.pi * i / RING_POINTS))
                        for i in range(RING_POINTS)])
"""A ring as points 3 degrees apart, not Qt's curves, which flatten to visible chords where a ring is cut at the
table's edge; even a 72" ring strays from the circle by under 0.03"."""


@dataclass(frozen=True)
class Shape:
    """One thing drawn on the cloth: `path` in table inches, outlined `width` inches wide (0: none),
    filled with `colour` at `fill` alpha (0: not filled), the outline dashed or not."""

    path: QPainterPath
    colour: QColor
    width: float = LINE
    fill: int = 0
    dashed: bool = False


def _circle(centre: Point, radius: float) -> QPainterPath:
    path = QPainterPath()
    path.addEllipse(QPointF(*centre), radius, radius)
    return path


def _polygon(points: Iterable[Point], closed: bool = True) -> QPainterPath:
    path = QPainterPath()
    path.addPolygon(QPolygonF([QPointF(x, y) for x, y in points]))
    if closed:
        path.closeSubpath()
    return path


def _line(a: Point, b: Point) -> QPainterPath:
    path = QPainterPath(QPointF(*a))
    path.lineTo(QPointF(*b))
    return path


def _on_table(path: QPainterPath, game: Game) -> QPainterPath:
    table = QPainterPath()
    table.addRect(QRectF(0.0, 0.0, game.table_width, game.table_height))
    return path.intersected(table)


def selection_shapes(game: Game, unit: Unit) -> list[Shape]:
    """The selected unit's arc and range rings as the laptop draws them (MapScene), and a ring under it."""
    shapes: list[Shape] = []
    arc = unit.main_arc()
    bands = sorted(unit.range_bands())
    origin = (unit.x, unit.y)
    if arc is not None and arc < 180.0:
        reach = bands[-1] if bands else math.hypot(game.table_width, game.table_height)
        steps = max(2, math.ceil(arc / 3.0))
        edge = [geometry.offset(origin, unit.facing - arc / 2.0 + arc * i / steps, reach) for i in range(steps + 1)]
        shapes.append(Shape(_on_table(_polygon([origin, *edge]), game), ARC, LINE, 40))
    for band in bands:
        ring = QPainterPath()
        ring.addPolygon(QTransform.fromTranslate(*origin).scale(band, band).map(_UNIT_RING))
        ring.closeSubpath()
        shapes.append(Shape(_clip_ring(ring, game), RINGS, LINE))
    size = VEHICLE_LENGTH if drawn_as_vehicle(game, unit) else ROUND_DIAMETER.get(unit.kind, DEFAULT_DIAMETER)
    shapes.append(Shape(_circle(origin, size / 2.0 + 0.6), SELECTED, LINE * 1.5))
    return shapes


def _clip_ring(ring: QPainterPath, game: Game) -> QPainterPath:
    """A ring's outline cut at the table's edge (an outline, not an area: `intersected` would close it)."""
    table = QRectF(0.0, 0.0, game.table_width, game.table_height)
    if table.contains(ring.boundingRect()):
        return ring
    out = QPainterPath()
    drawing = False
    for polygon in ring.toSubpathPolygons():
        for i in range(polygon.size()):
            point = polygon.at(i)
            inside = table.contains(point)
            if inside and not drawing:
                out.moveTo(point)
            elif inside:
                out.lineTo(point)
            drawing = inside
    return out


def _area(b: Bombardment, centre: Point) -> QPainterPath:
    return _circle(centre, b.radius) if b.shape == "circle" else _polygon(b.outline(centre))


def bombardment_shapes(game: Game) -> list[Shape]:
    """Every bombardment's area (lingering ones dashed), a rolling one's later places once revealed (dashed, unfilled),
    aiming points, and smoke: what the laptop's bombardments layer draws, minus its words."""
    shapes: list[Shape] = []
    for b in game.bombardments.values():
        if b.state == "cleared":
            continue
        colour = KIND_COLOURS.get(b.kind, KIND_COLOURS["high_explosive"])
        if b.state in ("ranging", "landed"):
            x, y = b.centre
            cross = _line((x - 1.0, y), (x + 1.0, y))
            cross.addPath(_line((x, y - 1.0), (x, y + 1.0)))
            shapes.append(Shape(cross, AIM, LINE))
            shapes.append(Shape(_circle(b.centre, 0.5), AIM, LINE))
        if b.active:
            lingering = b.state == "lingering"
            shapes.append(Shape(_area(b, b.centre), colour, LINE, 30 if lingering else 60, lingering))
            for centre in future_centres(b) if b.revealed else []:
                shapes.append(Shape(_area(b, centre), colour, LINE * 0.6, 0, True))
    for smoke in game.smoke.values():
        shapes.append(Shape(_polygon(smoke.outline()), SMOKE, LINE, 50, True))
    return shapes


def sight_segments(line: tuple[Point, Point, float | None]) -> list[tuple[Point, Point, QColor]]:
    """The Line-of-Sight ruler as the laptop reads it: green while sight is clear, red from where it is blocked."""
    a, b, blocked_at = line
    length = geometry.distance(a, b)
    if length <= geometry.EPSILON:
        return []
    k = 1.0 if blocked_at is None else min(max(blocked_at / length, 0.0), 1.0)
    stop = (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k)
    segments = [(a, stop, SIGHT_CLEAR)] if k > 0.0 else []
    if k < 1.0:
        segments.append((stop, b, SIGHT_BLOCKED))
    return segments


def sight_shapes(line: tuple[Point, Point, float | None]) -> list[Shape]:
    """The ruler's segments, and a dot where sight is blocked."""
    segments = sight_segments(line)
    shapes = [Shape(_line(a, b), colour, LINE) for a, b, colour in segments]
    if segments and segments[-1][2] == SIGHT_BLOCKED:
        shapes.append(Shape(_circle(segments[-1][0], 0.35), SIGHT_BLOCKED, 0.0, 255))
    return shapes


def points_of(polygon: QPolygonF) -> list[Point]:
    return [(polygon.at(i).x(), polygon.at(i).y()) for i in range(polygon.size())]


def near(points: Iterable[Point], secrets: Iterable[Point]) -> bool:
    """Whether any of `points` is within SECRET_REACH of a secret unit."""
    hidden = list(secrets)
    return any(geometry.distance(p, s) <= SECRET_REACH for p in points for s in hidden)


def anchors(items: Iterable[QGraphicsItem]) -> list[Point]:
    """Where a laptop overlay's circles are centred and its lines and polygons run through, in table inches."""
    points: list[Point] = []
    for item in items:
        if isinstance(item, QGraphicsEllipseItem):
            centre = item.mapRectToScene(item.rect()).center()
            points.append((centre.x(), centre.y()))
        elif isinstance(item, QGraphicsLineItem):
            line = item.line()
            points.extend((p.x(), p.y()) for p in (item.mapToScene(line.p1()), item.mapToScene(line.p2())))
        elif isinstance(item, QGraphicsPolygonItem):
            points.extend(points_of(item.mapToScene(item.polygon())))
    return points


def copied_shapes(items: Iterable[QGraphicsItem], secrets: Iterable[Point]) -> list[Shape]:
    """The circles, lines and polygons of a laptop overlay, in the projector's colour; none of them if any
    is drawn at a secret unit (`secrets`: their centres), since the overlay as a whole is about that unit."""
    items = list(items)
    if near(anchors(items), secrets):
        return []
    shapes: list[Shape] = []
    for item in items:
        if not isinstance(item, (QGraphicsEllipseItem, QGraphicsLineItem, QGraphicsPolygonItem)):
            continue
        dashed = item.pen().style() != Qt.PenStyle.SolidLine
        if isinstance(item, QGraphicsEllipseItem):
            rect = item.mapRectToScene(item.rect())
            path = _circle((rect.center().x(), rect.center().y()), rect.width() / 2.0)
        elif isinstance(item, QGraphicsLineItem):
            line = item.line()
            a, b = item.mapToScene(line.p1()), item.mapToScene(line.p2())
            path = _line((a.x(), a.y()), (b.x(), b.y()))
        else:
            path = _polygon(points_of(item.mapToScene(item.polygon())))
        shapes.append(Shape(path, COPIED, LINE, 0, dashed))
    return shapes


def check_pattern(game: Game) -> list[Shape]:
    """An inch grid over the table, its edge, and a circle 12" across in the middle: a calibration checked by eye."""
    w, h = game.table_width, game.table_height
    grid = QPainterPath()
    for x in range(int(w) + 1):
        grid.addPath(_line((float(x), 0.0), (float(x), h)))
    for y in range(int(h) + 1):
        grid.addPath(_line((0.0, float(y)), (w, float(y))))
    return [Shape(grid, RINGS, THIN), Shape(_polygon(table_corners(w, h)), ARC, LINE),
            Shape(_circle((w / 2.0, h / 2.0), 6.0), SELECTED, LINE)]
