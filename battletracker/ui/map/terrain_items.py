"""Terrain on the map: each piece drawn in table inches under the units, and the marks on the selection's targets.

Areas (woods, crops, rubble) are translucent polygons in their kind's colour
with their name; linear obstacles (hedges, walls, bocage) are bands a fraction
of an inch wide. Each piece's path is built once when the piece changes and
filled the cheap way (`items.fill_then_outline`) into a picture kept for the
zoom, as a token's is: a repaint copies it. The picture is drawn again when
the piece changes (moved, reshaped, renamed, another kind, selected, the
palette) and when the zoom settles; in between Qt scales the old one. The
pieces sit above a table picture and below the arc of fire and the tokens.

`TargetMarks` reads cover and sight from one `TableIndex` built after each
change to the table (terrain, buildings, smoke, bombardments), not per
selection: marking the targets of a selected unit is a few queries.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF
from PySide6.QtCore import QRectF
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QFont
from PySide6.QtGui import QFontMetricsF
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPainterPath
from PySide6.QtGui import QPainterPathStroker
from PySide6.QtGui import QPen
from PySide6.QtGui import QPixmap
from PySide6.QtGui import QPolygonF
from PySide6.QtWidgets import QGraphicsItem
from PySide6.QtWidgets import QGraphicsPixmapItem
from PySide6.QtWidgets import QGraphicsScene
from PySide6.QtWidgets import QStyleOptionGraphicsItem
from PySide6.QtWidgets import QWidget

from battletracker.core import geometry
from battletracker.core.geometry import Point
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.model.terrain import TerrainPiece
from battletracker.ui.map.items import cosmetic
from battletracker.ui.map.items import fill_then_outline
from battletracker.ui.map.labels import PixmapLabel
from battletracker.ui.map.labels import chip
from battletracker.ui.map.palette import MapPalette

if TYPE_CHECKING:
    from battletracker.rules.terrain import CoverReading
    from battletracker.rules.terrain import SightReading
    from battletracker.rules.terrain import TableIndex

# Above a table picture (which lies on the felt), below the selection's arc (10) and the tokens (30).
Z_TERRAIN = 4.0
Z_TERRAIN_SELECTED = 5.0
Z_TARGET_MARKS = 32.0       # over the tokens, under markers and overlays
HANDLE_PX = 4.0             # half the side of a selected piece's corner handles
# Device pixels a piece's picture may hold (4 MB); zoomed in further it is painted directly.
PICTURE_PIXELS = 1024 * 1024
_PICTURE_PAD = HANDLE_PX + 3.0  # pixels around the path: the outline's antialiasing and the handles
_NO_CONTENTS = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
_STRIP_ROWS = 32                # pixels: the height of a band of a linear piece's picture


@dataclass(frozen=True)
class TerrainLook:
    """How a kind is drawn: fill and outline in each palette, and a linear piece's width in inches."""

    fill: str
    fill_alpha: int
    edge_light: str
    edge_dark: str
    width: float = 0.0


# Kinds of every ruleset's terrain.toml; a kind not listed is drawn by its shape.
LOOKS: dict[str, TerrainLook] = {
    "woods": TerrainLook("#2e7d32", 115, "#1b5e20", "#9be29f"),
    "crops": TerrainLook("#e8c547", 110, "#7a5c00", "#ffe27a"),
    "rubble": TerrainLook("#8a8a8a", 120, "#333333", "#e0e0e0"),
    "rough_ground": TerrainLook("#9c6b4a", 105, "#4e2f1c", "#e6c1a6"),
    "ruins": TerrainLook("#8d7f73", 120, "#3b2f26", "#e0d2c5"),
    "hedge": TerrainLook("#388e3c", 255, "#133d16", "#b9f0bc", 0.6),
    "wall": TerrainLook("#b0aca4", 255, "#3d3a35", "#f2efe8", 0.4),
    "bocage": TerrainLook("#1f4d22", 255, "#0b240d", "#8fd694", 0.9),
    "barricade": TerrainLook("#9e9e9e", 255, "#303030", "#eeeeee", 0.5),
    "bulkhead": TerrainLook("#5d6d7e", 255, "#1c2833", "#d6e0ea", 0.6),
}
AREA_LOOK = TerrainLook("#7e8c6e", 100, "#2f3a26", "#dde8cf")
LINE_LOOK = TerrainLook("#6d6d6d", 255, "#222222", "#eeeeee", 0.5)


def look_of(piece: TerrainPiece) -> TerrainLook:
    look = LOOKS.get(piece.kind)
    if look is None or (piece.shape == "linear") != (look.width > 0.0):
        return LINE_LOOK if piece.shape == "linear" else AREA_LOOK
    return look


def piece_path(piece: TerrainPiece) -> QPainterPath:
    """The outline to fill: the polygon of an area, the band of its width along a linear obstacle."""
    polygon = QPolygonF([QPointF(x, y) for x, y in piece.points])
    path = QPainterPath()
    if piece.shape == "area":
        path.addPolygon(polygon)
        path.closeSubpath()
        return path
    path.addPolygon(polygon)
    stroker = QPainterPathStroker()
    stroker.setWidth(look_of(piece).width)
    stroker.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    stroker.setCapStyle(Qt.PenCapStyle.FlatCap)
    return stroker.createStroke(path).simplified()


Rect = tuple[float, float, float, float]
Anchor = tuple[tuple[float, float], tuple[float, float]]

_ABOVE: Anchor = ((0.5, 1.0), (0.0, -3.0))
_AREA_TOP: Anchor = ((0.5, 0.0), (0.0, 3.0))
_AREA_BOTTOM: Anchor = ((0.5, 1.0), (0.0, -3.0))
_ON_LINE: Anchor = ((0.5, 0.5), (0.0, 0.0))


def label_places(piece: TerrainPiece) -> list[tuple[Point, Anchor]]:
    """Where the name may go, best first: an area's top, then its bottom; a line's middle, then its ends.

    The first place clear of the units and the targets' marks is taken, so a
    unit standing on a wall's middle does not hide the wall's name.
    """
    if piece.shape == "area":
        box = geometry.bounding_box(piece.points)
        mid = (box.left + box.right) / 2.0
        return [((mid, box.top), _AREA_TOP), ((mid, box.bottom), _AREA_BOTTOM)]
    pts = piece.points
    return [(label_point(piece), _ON_LINE), (pts[0], _ABOVE), (pts[-1], _ABOVE), (label_point(piece), _ABOVE)]


def _covered(a: Rect, avoid: list[Rect]) -> float:
    """How many pixels of `a` the rectangles of `avoid` cover (counted again where they overlap)."""
    left, top, right, bottom = a
    total = 0.0
    for b in avoid:
        # Most rectangles are nowhere near: plain comparisons turn them away before any arithmetic.
        if b[0] >= right or b[2] <= left or b[1] >= bottom or b[3] <= top:
            continue
        w = min(right, b[2]) - max(left, b[0])
        h = min(bottom, b[3]) - max(top, b[1])
        if w > 0.0 and h > 0.0:
            total += w * h
    return total


def label_point(piece: TerrainPiece) -> Point:
    """Where the name goes: the top middle of an area's box (units mostly stand lower in it, where their own
    names go), the middle of a line's length."""
    if piece.shape == "area":
        box = geometry.bounding_box(piece.points)
        return ((box.left + box.right) / 2.0, box.top)
    pts = piece.points
    total = sum(geometry.distance(a, b) for a, b in zip(pts, pts[1:], strict=False))
    walked = 0.0
    for a, b in zip(pts, pts[1:], strict=False):
        step = geometry.distance(a, b)
        if walked + step >= total / 2.0 and step > 0.0:
            k = (total / 2.0 - walked) / step
            return (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k)
        walked += step
    return pts[0]


class TerrainItem(QGraphicsItem):
    """One terrain piece: its filled outline, its name, and corner handles while it is selected."""

    def __init__(self, piece: TerrainPiece, palette: MapPalette, font: QFont) -> None:
        super().__init__()
        self.setZValue(Z_TERRAIN)
        self.piece_id = piece.id
        self.selected = False
        self._palette = palette
        self._path = QPainterPath()
        self._bounds = QRectF()
        self._zoom = (0.0, 1.0)         # pixels per inch and device pixel ratio the picture is drawn at
        # What the name was last placed for (zoom, its size, what to keep clear of), to skip placing it again.
        self._placed_for: tuple[float, tuple[float, float], list[Rect]] | None = None
        self._places: list[tuple[Point, Anchor]] = []  # where the name may go, best first (`label_places`)
        # The piece as a picture Qt paints itself (under the name), drawn again on every change and zoom.
        self.body = QGraphicsPixmapItem(self)
        self.body.setShapeMode(QGraphicsPixmapItem.ShapeMode.BoundingRectShape)
        self.body.hide()
        self._more: list[QGraphicsPixmapItem] = []     # a linear piece's picture in bands: see `_strips`
        self.label = PixmapLabel(font, (0.5, 0.5), (0.0, 0.0), self)
        self.sync(piece)

    def label_rect(self, scale: float) -> tuple[float, float, float, float]:
        """The name's pixels at `scale` pixels per inch, for the units' names to keep clear of."""
        at = self.label.pos()
        return self.label.pixel_rect(at.x() * scale, at.y() * scale, *self._label_anchor)

    def place_label(self, scale: float, avoid: list[Rect]) -> None:
        """Put the name at its first place (see `label_places`) clear of `avoid`, pixel rectangles at `scale`,
        or where they cover least of it. Nothing to do when neither those near its places, the zoom nor the
        name changed since."""
        places = self._places
        rects = [self.label.pixel_rect(point[0] * scale, point[1] * scale, *anchor) for point, anchor in places]
        left, top = min(r[0] for r in rects), min(r[1] for r in rects)
        right, bottom = max(r[2] for r in rects), max(r[3] for r in rects)
        near = [b for b in avoid if not (b[0] >= right or b[2] <= left or b[1] >= bottom or b[3] <= top)]
        placed_for = (scale, self.label.size_px, near)
        if placed_for == self._placed_for:
            return
        self._placed_for = placed_for
        chosen, least = places[0], float("inf")
        for place, rect in zip(places, rects, strict=True):
            covered = _covered(rect, near)
            if covered < least:
                chosen, least = place, covered
                if covered == 0.0:
                    break
        (x, y), self._label_anchor = chosen
        self.label.set_anchor(*self._label_anchor)
        self.label.setPos(x, y)

    def sync(self, piece: TerrainPiece, points: list[Point] | None = None) -> None:
        """Take the piece from the model, or show it with other `points` (while it is dragged)."""
        shown = piece if points is None else TerrainPiece(piece.id, piece.name, piece.kind, piece.shape, points)
        self.prepareGeometryChange()
        self.piece = piece
        self.points = list(shown.points)
        self._look = look_of(piece)
        self._path = piece_path(shown)
        self._bounds = self._path.boundingRect().adjusted(-0.5, -0.5, 0.5, 0.5)
        self._name = piece.name
        self._label_anchor = ((0.5, 0.0), (0.0, 3.0)) if piece.shape == "area" else ((0.5, 0.5), (0.0, 0.0))
        self._placed_for = None
        self._places = label_places(shown)
        self.label.set_anchor(*self._label_anchor)
        self.label.setPos(*label_point(shown))
        self._restyle()

    def set_palette(self, palette: MapPalette, font: QFont) -> None:
        self._palette = palette
        self.label.set_font(font)
        self._restyle()

    def _restyle(self) -> None:
        look, p = self._look, self._palette
        self._fill = QColor(look.fill)
        self._fill.setAlpha(look.fill_alpha)
        edge = QColor(look.edge_dark if p.dark else look.edge_light)
        self._edge = cosmetic(edge, 2.0 if self.selected else 1.0)
        self._handle_pen = QPen(p.selection, 1.0)
        self.label.set_chips([chip(self._name, p.label_text, p.label_back)] if self._name else [])
        self._redraw()

    def set_zoom(self, scale: float, dpr: float = 1.0) -> None:
        """Draw the piece's picture for `scale` pixels per inch (when the zoom settles)."""
        if (scale, dpr) != self._zoom:
            self._zoom = (scale, dpr)
            self._redraw()

    def _redraw(self) -> None:
        """The picture again at the zoom it is kept for, or painting directly if it would be too big."""
        scale, dpr = self._zoom
        box = self._path.boundingRect()
        left = math.floor(box.left() * scale - _PICTURE_PAD)
        top = math.floor(box.top() * scale - _PICTURE_PAD)
        width = math.ceil(box.right() * scale + _PICTURE_PAD) - left
        height = math.ceil(box.bottom() * scale + _PICTURE_PAD) - top
        pictured = scale > 0.0 and width * height * dpr * dpr <= PICTURE_PIXELS
        self.setFlag(_NO_CONTENTS, pictured)
        self.body.setVisible(pictured)
        if not pictured:
            self._show_strips([])
            self.update()
            return
        picture = QPixmap(round(width * dpr), round(height * dpr))
        picture.setDevicePixelRatio(dpr)
        picture.fill(Qt.GlobalColor.transparent)
        painter = QPainter(picture)
        painter.translate(-left, -top)
        painter.scale(scale, scale)
        self._draw(painter)
        painter.end()
        strips = self._strips(picture, left, top, scale, dpr)
        if strips:
            (x, y, first), rest = strips[0], strips[1:]
        else:
            (x, y, first), rest = (left, top, picture), []
        self.body.setPixmap(first)
        self.body.setOffset(x, y)
        self.body.setScale(1.0 / scale)
        self._show_strips(rest)

    def _strips(self, picture: QPixmap, left: int, top: int, scale: float,
                dpr: float) -> list[tuple[float, float, QPixmap]]:
        """A linear piece's picture cut into bands of rows, each only as wide as the band's part of the line.

        A hedge running across the table fills a sliver of its box: the rest is clear pixels,
        which Qt blends one by one while it scales the picture between a zoom step and the
        zoom settling. The bands are cut from the one picture (at whole device pixels, at a
        whole pixel ratio), so the pixels are the same. Empty for an area (it fills its box),
        or when cutting saves little. Each band is (left, top, picture) in pixels at `scale`.
        """
        if self.piece.shape != "linear" or dpr != round(dpr) or len(self.points) < 2:
            return []
        reach = self._look.width * scale + _PICTURE_PAD + 2.0       # a mitred corner, the outline, the handles
        ends = [(x * scale - left, y * scale - top) for x, y in self.points]
        segments = list(zip(ends, ends[1:], strict=False))
        width, height = picture.width() / dpr, picture.height() / dpr
        out: list[tuple[float, float, QPixmap]] = []
        kept = 0.0
        for y0 in range(0, math.ceil(height), _STRIP_ROWS):
            y1 = min(y0 + _STRIP_ROWS, math.ceil(height))
            lo, hi = math.inf, -math.inf
            for (ax, ay), (bx, by) in segments:
                t0, t1 = 0.0, 1.0
                if by != ay:
                    u0, u1 = (y0 - reach - ay) / (by - ay), (y1 + reach - ay) / (by - ay)
                    t0, t1 = max(t0, min(u0, u1)), min(t1, max(u0, u1))
                elif not y0 - reach <= ay <= y1 + reach:
                    continue
                if t0 > t1:
                    continue
                xs = (ax + (bx - ax) * t0, ax + (bx - ax) * t1)
                lo, hi = min(lo, *xs), max(hi, *xs)
            if lo > hi:
                continue
            x0, x1 = max(0, math.floor(lo - reach)), min(math.ceil(width), math.ceil(hi + reach))
            if x1 <= x0:
                continue
            kept += (x1 - x0) * (y1 - y0)
            strip = picture.copy(round(x0 * dpr), round(y0 * dpr), round((x1 - x0) * dpr), round((y1 - y0) * dpr))
            strip.setDevicePixelRatio(dpr)
            out.append((left + x0, top + y0, strip))
        return out if kept < 0.6 * width * height else []

    def _show_strips(self, strips: list[tuple[float, float, QPixmap]]) -> None:
        """The bands after the first (`body` shows that one) as pictures Qt paints itself; spare ones hidden."""
        scale = self._zoom[0]
        while len(self._more) < len(strips):
            extra = QGraphicsPixmapItem(self)
            extra.setShapeMode(QGraphicsPixmapItem.ShapeMode.BoundingRectShape)
            extra.stackBefore(self.label)
            self._more.append(extra)
        for extra, (x, y, strip) in zip(self._more, strips, strict=False):
            extra.setPixmap(strip)
            extra.setOffset(x, y)
            extra.setScale(1.0 / scale)
            extra.show()
        for extra in self._more[len(strips):]:
            extra.hide()
            extra.setPixmap(QPixmap())

    def set_selected(self, selected: bool) -> None:
        if selected != self.selected:
            self.selected = selected
            self.setZValue(Z_TERRAIN_SELECTED if selected else Z_TERRAIN)
            self._restyle()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        """Drawn directly: zoomed in past PICTURE_PIXELS, before the view's first zoom is known, and in report
        and export scenes (which have no view); otherwise the piece has no contents and `body` shows it."""
        self._draw(painter)

    def _draw(self, painter: QPainter) -> None:
        """The filled outline and, while selected, the corner handles (in device pixels)."""
        fill_then_outline(painter, self._path, self._fill, self._edge)
        if self.selected:
            transform = painter.worldTransform()
            painter.resetTransform()
            painter.setPen(self._handle_pen)
            painter.setBrush(QColor("#ffffff"))
            h = HANDLE_PX
            for x, y in self.points:
                at = transform.map(QPointF(x, y))
                painter.drawRect(QRectF(at.x() - h, at.y() - h, 2 * h, 2 * h))


class TerrainLayer:
    """The scene's terrain items, kept in step with the game's pieces."""

    def __init__(self, scene: QGraphicsScene, palette: MapPalette, font: QFont) -> None:
        self.scene = scene
        self.palette = palette
        self.font = font
        self.items: dict[str, TerrainItem] = {}
        self.selected: str | None = None
        self.zoom = (0.0, 1.0)          # pixels per inch and device pixel ratio the pieces are pictured at

    def sync(self, game: Game) -> None:
        """Add, update and remove items so they match `game.terrain` (drawing order: the table's)."""
        for piece_id in [p for p in self.items if p not in game.terrain]:
            self.scene.removeItem(self.items.pop(piece_id))
        for order, piece in enumerate(game.terrain.values()):
            item = self.items.get(piece.id)
            if item is None:
                item = TerrainItem(piece, self.palette, self.font)
                item.set_zoom(*self.zoom)
                self.items[piece.id] = item
                self.scene.addItem(item)
            elif item.piece != piece or item.points != piece.points:
                item.sync(piece)
            item.setZValue((Z_TERRAIN_SELECTED if item.selected else Z_TERRAIN) + order * 1e-4)
        if self.selected not in self.items:
            self.selected = None

    def select(self, piece_id: str | None) -> None:
        self.selected = piece_id if piece_id in self.items else None
        for pid, item in self.items.items():
            item.set_selected(pid == self.selected)

    def set_zoom(self, scale: float, dpr: float = 1.0) -> None:
        """Picture every piece for `scale` pixels per inch (when the zoom settles)."""
        self.zoom = (scale, dpr)
        for item in self.items.values():
            item.set_zoom(scale, dpr)

    def label_rects(self, scale: float) -> list[tuple[float, float, float, float]]:
        return [item.label_rect(scale) for item in self.items.values() if item.label.size_px[0] > 0.0]

    def place_labels(self, scale: float, avoid: list[Rect]) -> None:
        """Each piece's name clear of `avoid` (the units' bodies and the targets' marks, in pixels) where it can be."""
        for item in self.items.values():
            if item.label.size_px[0] > 0.0:
                item.place_label(scale, avoid)

    def set_palette(self, palette: MapPalette, font: QFont) -> None:
        self.palette, self.font = palette, font
        for item in self.items.values():
            item.set_palette(palette, font)

    def piece_at(self, game: Game, at: Point, tolerance: float) -> str | None:
        """The piece under a table point (the last drawn first): inside an area, or on a line's band."""
        for piece in reversed(list(game.terrain.values())):
            box = geometry.bounding_box(piece.points)
            if not box.grown(tolerance + 1.0).contains(at):
                continue
            if piece.shape == "area":
                if geometry.point_in_polygon(at, piece.points) \
                        or geometry.distance_to_polyline(at, [*piece.points, piece.points[0]]) <= tolerance:
                    return piece.id
            elif geometry.distance_to_polyline(at, piece.points) <= look_of(piece).width / 2.0 + tolerance:
                return piece.id
        return None


# -- the selection's targets ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class TargetReading:
    """What the selected unit makes of one target: sight to it and the cover it has against it."""

    sight: SightReading
    cover: CoverReading
    open_level: str

    @property
    def letter(self) -> str:
        """The cover's first letter ("L", "H"), empty in the open."""
        return "" if self.cover.level == self.open_level else self.cover.level[:1].upper()

    def sentence(self) -> str:
        return f"{self.sight.reason}. {self.cover.reason}."


def _eye_path(size: float) -> QPainterPath:
    path = QPainterPath()
    w, h = size * 0.8, size * 0.45
    cx, cy = size / 2.0, size / 2.0
    path.moveTo(cx - w / 2, cy)
    path.quadTo(cx, cy - h, cx + w / 2, cy)
    path.quadTo(cx, cy + h, cx - w / 2, cy)
    path.closeSubpath()
    return path


@lru_cache(maxsize=64)
def mark_pixmap(blind: bool, letter: str, font_key: str, dpr: float) -> QPixmap:
    """A target's mark, drawn once per look: a struck-through eye (no sight) and/or its cover letter."""
    font = QFont()
    font.fromString(font_key)
    fm = QFontMetricsF(font)
    size = fm.height() + 2.0
    width = (size if blind else 0.0) + (size if letter else 0.0) + (2.0 if blind and letter else 0.0)
    pix = QPixmap(max(1, round(width * dpr)), max(1, round(size * dpr)))
    pix.setDevicePixelRatio(dpr)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    x = 0.0
    if blind:
        p.setPen(QPen(QColor("#ffffff"), 1.0))
        p.setBrush(QColor("#b71c1c"))
        p.drawEllipse(QRectF(x + 0.5, 0.5, size - 1.0, size - 1.0))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(QColor("#ffffff"), 1.3))
        p.drawPath(_eye_path(size).translated(x, 0.0))
        p.drawEllipse(QPointF(x + size / 2.0, size / 2.0), size * 0.1, size * 0.1)
        p.setPen(QPen(QColor("#ffffff"), 1.8))
        p.drawLine(QPointF(x + size * 0.22, size * 0.78), QPointF(x + size * 0.78, size * 0.22))
        x += size + 2.0
    if letter:
        p.setPen(QPen(QColor("#ffffff"), 1.0))
        p.setBrush(QColor("#1565c0") if letter != "H" else QColor("#4a148c"))
        p.drawRoundedRect(QRectF(x + 0.5, 0.5, size - 1.0, size - 1.0), 3.0, 3.0)
        p.setFont(font)
        p.drawText(QRectF(x, 0.0, size, size), Qt.AlignmentFlag.AlignCenter, letter)
    p.end()
    return pix


class TargetMark(QGraphicsPixmapItem):
    """The mark beside one target token: fixed size at any zoom, above its top-left."""

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setShapeMode(QGraphicsPixmapItem.ShapeMode.BoundingRectShape)
        self.setZValue(Z_TARGET_MARKS)
        self.reading: TargetReading | None = None


class TargetMarks:
    """Marks on the selected unit's targets: no Line of Sight, and the cover each has against it."""

    def __init__(self, scene: QGraphicsScene, font: QFont) -> None:
        self.scene = scene
        self.font = font
        self.marks: dict[str, TargetMark] = {}
        self.readings: dict[str, TargetReading] = {}
        self._index: TableIndex | None = None

    def forget_table(self) -> None:
        """The table changed (terrain, buildings, smoke): the next marking builds the index again."""
        self._index = None

    def index(self, game: Game) -> TableIndex:
        from battletracker.rules.terrain import TableIndex  # with the first selection that has targets

        if self._index is None:
            self._index = TableIndex(game)
        return self._index

    def set_font(self, font: QFont) -> None:
        self.font = font
        for mark in self.marks.values():
            mark.reading = None

    def update(self, game: Game, firer: Unit | None, targets: set[str], places: dict[str, tuple[Point, float]]) -> None:
        """Mark each target (its token's centre and half-height in `places`) as `firer` sees it."""
        self.readings = {}
        if firer is not None and targets:
            from battletracker.rules.terrain import terrain_rules

            index = self.index(game)
            open_level = terrain_rules(game.ruleset).levels[0]
            for target_id in targets:
                target = game.units.get(target_id)
                if target is not None:
                    self.readings[target_id] = TargetReading(index.sight(firer, target),
                                                             index.cover_against(firer, target), open_level)
        dpr = 1.0
        views = self.scene.views()
        if views:
            dpr = views[0].devicePixelRatioF()
        font_key = self.font.toString()
        for target_id, reading in self.readings.items():
            blind, letter = not reading.sight.clear, reading.letter
            mark = self.marks.get(target_id)
            if not blind and not letter:
                if mark is not None:
                    mark.hide()
                continue
            if mark is None:
                mark = TargetMark()
                self.marks[target_id] = mark
                self.scene.addItem(mark)
            if mark.reading != reading:
                pix = mark_pixmap(blind, letter, font_key, dpr)
                mark.setPixmap(pix)
                mark.setOffset(-pix.width() / dpr - 2.0, -pix.height() / dpr - 2.0)
                mark.reading = reading
                mark.setToolTip(reading.sentence())
            (x, y), half = places.get(target_id, ((0.0, 0.0), 0.0))
            mark.setPos(x - half * 0.5, y - half * 0.5)
            mark.show()
        for target_id in [t for t in self.marks if t not in self.readings]:
            self.scene.removeItem(self.marks.pop(target_id))

    def rects(self, scale: float) -> list[tuple[float, float, float, float]]:
        """The shown marks in pixels at `scale`, for the units' names to keep clear of."""
        out = []
        for mark in self.marks.values():
            if mark.isVisible():
                box = mark.boundingRect()
                x, y = mark.x() * scale + box.left(), mark.y() * scale + box.top()
                out.append((x, y, x + box.width(), y + box.height()))
        return out

    def reading(self, unit_id: str) -> TargetReading | None:
        return self.readings.get(unit_id)


# -- the Line-of-Sight ruler -----------------------------------------------------------------------------------

Z_SIGHT_RULER = 50.0


class SightRuler(QGraphicsItem):
    """A line from a unit to a point: green where sight is clear, red from where it is blocked, and its reading."""

    def __init__(self, palette: MapPalette, font: QFont) -> None:
        super().__init__()
        self.setZValue(Z_SIGHT_RULER)
        self._a = QPointF()
        self._b = QPointF()
        self._stop = QPointF()
        self.blocked = False
        self.label = PixmapLabel(font, (0.0, 1.0), (8.0, -6.0), self)
        self.set_palette(palette, font)

    def set_palette(self, palette: MapPalette, font: QFont) -> None:
        self._palette = palette
        self.label.set_font(font)
        self._clear = QColor("#7CFC7C") if palette.dark else QColor("#1b7a1f")
        self._red = QColor("#ff6e6e") if palette.dark else QColor("#c62828")
        halo = QColor("#000000") if palette.dark else QColor("#ffffff")
        halo.setAlpha(170)
        self._halo = cosmetic(halo, 1.0)
        self.update()

    def set_line(self, a: Point, b: Point, blocked_at: float | None, text: str,
                 room: tuple[float, float] = (1e9, 1e9)) -> None:
        """From a to b, blocked `blocked_at` inches from a (None: clear all the way); `text`'s parts
        (split at " | ") each in a chip, centred above b but kept within `room`: the pixels of the map left and
        right of b."""
        self.prepareGeometryChange()
        self._a, self._b = QPointF(*a), QPointF(*b)
        length = geometry.distance(a, b)
        self.blocked = blocked_at is not None
        k = 1.0 if blocked_at is None or length <= 0.0 else min(max(blocked_at / length, 0.0), 1.0)
        self._stop = self._a + (self._b - self._a) * k
        p = self._palette
        self.label.set_chips([chip(part, p.measure_text, p.measure_back) for part in text.split(" | ")])
        half = self.label.size_px[0] / 2.0
        left, right = room
        shift = max(min(0.0, right - half - 4.0), half + 4.0 - left)    # the start of the text wins
        self.label.set_anchor((0.5, 1.0), (shift, -10.0))
        self.label.setPos(self._b)
        self.update()

    def text(self) -> str:
        return self.label.text()

    def boundingRect(self) -> QRectF:
        return QRectF(self._a, self._b).normalized().adjusted(-0.5, -0.5, 0.5, 0.5)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        # Side-by-side one-pixel lines in device pixels, as the measuring ruler: no stroker.
        transform = painter.worldTransform()
        a, stop, b = transform.map(self._a), transform.map(self._stop), transform.map(self._b)
        painter.resetTransform()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        dx, dy = b.x() - a.x(), b.y() - a.y()
        length = (dx * dx + dy * dy) ** 0.5
        nx, ny = (-dy / length, dx / length) if length > 1e-9 else (0.0, 1.0)
        painter.setPen(self._halo)
        for k in (-2.0, -1.0, 1.0, 2.0):
            shift = QPointF(nx * k, ny * k)
            painter.drawLine(a + shift, b + shift)
        for colour, start, end in ((self._clear, a, stop), (self._red, stop, b)):
            if start == end:
                continue
            painter.setPen(cosmetic(colour, 1.0))
            for k in (-1.0, -0.5, 0.0, 0.5, 1.0):
                shift = QPointF(nx * k, ny * k)
                painter.drawLine(start + shift, end + shift)
        painter.setPen(_NO_PEN_PEN)
        painter.setBrush(self._red if self.blocked else self._clear)
        painter.drawEllipse(stop, 3.5, 3.5)


_NO_PEN_PEN = QPen(Qt.PenStyle.NoPen)
