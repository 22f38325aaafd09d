"""Scene items in table inches: unit tokens, the selection's arc and rings, markers, the ruler.

Tokens are not rotated as items: the body and facing mark are drawn rotated
into a picture of the token, so the name and badges (children that ignore the
view's scale) stay upright and at a readable size below and beside the token.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PySide6.QtCore import QPointF
from PySide6.QtCore import QRect
from PySide6.QtCore import QRectF
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QFont
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPainterPath
from PySide6.QtGui import QPen
from PySide6.QtGui import QPixmap
from PySide6.QtGui import QPolygonF
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import QGraphicsEllipseItem
from PySide6.QtWidgets import QGraphicsItem
from PySide6.QtWidgets import QGraphicsLineItem
from PySide6.QtWidgets import QGraphicsPixmapItem
from PySide6.QtWidgets import QGraphicsPolygonItem
from PySide6.QtWidgets import QGraphicsScene
from PySide6.QtWidgets import QStyleOptionGraphicsItem
from PySide6.QtWidgets import QWidget

from battletracker.core.geometry import Point
from battletracker.core.geometry import direction
from battletracker.core.geometry import distance
from battletracker.core.geometry import offset
from battletracker.core.geometry import on_table
from battletracker.model.game import Marker
from battletracker.model.game import Unit
from battletracker.ui.map.labels import PixmapLabel
from battletracker.ui.map.labels import chip
from battletracker.ui.map.palette import MapPalette
from battletracker.ui.map.palette import badge_for
from battletracker.ui.map.palette import contrasting
from battletracker.ui.map.palette import is_destroyed

# Token sizes in inches: big enough to grab at the default zoom, small enough
# that a section and its neighbours do not overlap on a 72" x 48" table.
ROUND_DIAMETER = {"section": 1.75, "gun": 1.5, "support_weapon": 1.5}
DEFAULT_DIAMETER = 1.25
VEHICLE_WIDTH = 1.5
VEHICLE_LENGTH = 2.75
# Room around the body for the selection and target halos.
RING_MARGIN = 0.45

# Markers and procedures' overlays (bursts, lines of fire, arcs) sit above the tokens and
# their names and badges: a cluster of units never hides the burst that is falling on it.
Z_SELECTION_OVERLAY = 10.0
Z_TOKENS = 30.0
Z_SELECTED = 31.0
Z_MARKERS = 33.0
Z_OVERLAYS = 35.0
Z_HANDLE = 40.0
Z_MEASURE = 50.0


# Where a token's name and badges may sit, in the order tried when labels are placed
# (map/placement.py): (anchor on the label, shift in pixels, point as multiples of the
# body's half-width and half-height).
Place = tuple[tuple[float, float], tuple[float, float], tuple[float, float]]
NAME_PLACES: tuple[Place, ...] = (
    ((0.5, 0.0), (0.0, 2.0), (0.0, 1.0)),       # below
    ((0.5, 1.0), (0.0, -2.0), (0.0, -1.0)),     # above
    ((0.0, 0.5), (3.0, 0.0), (1.0, 0.0)),       # right
    ((1.0, 0.5), (-3.0, 0.0), (-1.0, 0.0)),     # left
    ((0.0, 0.0), (0.0, 2.0), (0.5, 1.0)),       # below right
    ((1.0, 0.0), (0.0, 2.0), (-0.5, 1.0)),      # below left
    ((0.0, 1.0), (0.0, -2.0), (0.5, -1.0)),     # above right
    ((1.0, 1.0), (0.0, -2.0), (-0.5, -1.0)),    # above left
)
BADGE_PLACES: tuple[Place, ...] = (
    ((0.0, 1.0), (0.0, 0.0), (0.55, -0.75)),    # above right
    ((0.0, 0.0), (0.0, 0.0), (0.55, 0.75)),     # below right
    ((1.0, 1.0), (0.0, 0.0), (-0.55, -0.75)),   # above left
    ((1.0, 0.0), (0.0, 0.0), (-0.55, 0.75)),    # below left
    ((0.0, 0.5), (3.0, 0.0), (1.0, 0.0)),       # right
    ((1.0, 0.5), (-3.0, 0.0), (-1.0, 0.0)),     # left
)

# Looked up once: enum attribute access is a measurable part of a token's paint.
_ANTIALIAS = QPainter.RenderHint.Antialiasing
_NO_PEN = Qt.PenStyle.NoPen
_NO_CONTENTS = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents

# Device pixels: a token's picture wider than this (zoomed right in) is not kept; the token
# is painted directly instead, which costs little when only a few tokens fit in the view.
PICTURE_LIMIT = 128


def qpoint(p: Point) -> QPointF:
    return QPointF(p[0], p[1])


def cosmetic(colour: QColor, width: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(colour, width, style)
    pen.setCosmetic(True)
    return pen


@lru_cache(maxsize=512)
def disc_sprite(fill: int, edge: int, diameter: float, dpr: float,
                halos: tuple[tuple[float, int], ...] = ()) -> QPixmap:
    """A round token body with its halos (grow in pixels, colour; outermost first).

    Drawn once per look and zoom and shared by every token that looks the same.
    """
    margin = halos[0][0] if halos else 0.0
    side = math.ceil(diameter + 2.0 * margin + 2.0)
    pix = QPixmap(max(1, round(side * dpr)), max(1, round(side * dpr)))
    pix.setDevicePixelRatio(dpr)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    centre = QPointF(side / 2.0, side / 2.0)
    p.setPen(Qt.PenStyle.NoPen)
    for grow, colour in halos:
        p.setBrush(QColor.fromRgba(colour))
        p.drawEllipse(centre, diameter / 2.0 + grow, diameter / 2.0 + grow)
    p.setPen(QPen(QColor.fromRgba(edge), 1.0))
    p.setBrush(QColor.fromRgba(fill))
    p.drawEllipse(centre, diameter / 2.0, diameter / 2.0)
    p.end()
    return pix


class UnitToken(QGraphicsItem):
    """One unit on the table: side colour, facing mark, name, condition and shock badges."""

    def __init__(self, unit: Unit, colour: QColor, palette: MapPalette, font: QFont, badge_font: QFont,
                 vehicle: bool | None = None) -> None:
        super().__init__()
        self.unit_id = unit.id
        self.setZValue(Z_TOKENS)
        self._palette = palette
        self.colour = QColor(colour)
        self.name = ""
        self.facing = 0.0
        self.preview_facing: float | None = None
        self.vehicle = False
        self.destroyed = False
        self.selected = False
        self.target = False
        self._size = (DEFAULT_DIAMETER, DEFAULT_DIAMETER)
        self._bounds = QRectF()
        self._scale = 0.0
        self._zoom = (0.0, 1.0)         # pixels per inch and device pixel ratio the picture is drawn at
        self._direct = True
        # The body, halos and facing mark as a picture Qt draws itself (under the name and badges):
        # a repaint then calls no Python for the token at all.
        self.body = QGraphicsPixmapItem(self)
        self.body.setShapeMode(QGraphicsPixmapItem.ShapeMode.BoundingRectShape)
        self.body.hide()
        self.label = PixmapLabel(font, (0.5, 0.0), (0.0, 2.0), self)
        self.badges = PixmapLabel(badge_font, (0.0, 1.0), (0.0, 0.0), self)
        self.name_place = 0         # index into NAME_PLACES
        self.badge_place = 0        # index into BADGE_PLACES
        # What the picture and the labels were last made of: a sync draws again only what changed.
        self._synced_look: tuple[object, ...] | None = None
        self._synced_labels: tuple[object, ...] | None = None
        self.sync(unit, colour, vehicle)

    # -- state from the model -------------------------------------------------
    def sync(self, unit: Unit, colour: QColor, vehicle: bool | None = None) -> None:
        """Take position, facing, look and badges from the unit.

        `vehicle` says whether it is drawn as a vehicle's rectangle when the
        ruleset knows vehicles by more than `unit.vehicle` (see scene.drawn_as_vehicle).
        """
        vehicle = unit.is_vehicle if vehicle is None else vehicle
        size = (VEHICLE_WIDTH, VEHICLE_LENGTH) if vehicle else (ROUND_DIAMETER.get(unit.kind, DEFAULT_DIAMETER),) * 2
        conditions = [*unit.conditions, *(unit.vehicle.damage if unit.vehicle else [])]
        destroyed = any(is_destroyed(c) for c in conditions)
        look = (vehicle, size, colour.rgba(), unit.facing, destroyed)
        labels = (unit.name, unit.shock, conditions)
        self.setPos(unit.x, unit.y)
        if labels != self._synced_labels:
            renamed = self._synced_labels is None or unit.name != self.name
            self._synced_labels = labels
            self.name, self._shock, self._conditions = labels
            self._relabel(name=renamed)
        if look == self._synced_look and self.preview_facing is None:
            return  # the picture stays as it is: the token moved, or only its name or badges changed
        self._synced_look = look
        self.vehicle = vehicle
        self._size = size
        self.colour = QColor(colour)
        self.destroyed = destroyed
        fill = QColor(self.colour)
        if self.destroyed:
            fill = fill.darker(160)
            fill.setAlpha(170)
        self._fill = fill
        self._edge = QPen(self.colour.darker(190), 1.0)
        self._look = (fill.rgba(), self._edge.color().rgba())
        self._mark = contrasting(self.colour)
        self.preview_facing = None
        self.facing = unit.facing
        self._reshape()

    def set_palette(self, palette: MapPalette, font: QFont, badge_font: QFont) -> None:
        self._palette = palette
        self._scale = 0.0
        self.label.set_font(font)
        self.badges.set_font(badge_font)
        self._relabel()
        self._redraw()

    def _relabel(self, name: bool = True) -> None:
        """The badges again, and the name unless `name` is False (it has not changed)."""
        p = self._palette
        if name:
            self.label.set_chips([chip(self.name, p.label_text, p.label_back)] if self.name else [])
        chips = []
        if self._shock > 0:
            chips.append(chip(str(self._shock), QColor("#ffffff"), p.shock_fill, True))
        seen: set[str] = set()
        for condition in self._conditions:
            style = badge_for(condition)
            if style.text not in seen:
                seen.add(style.text)
                chips.append(chip(style.text, contrasting(style.fill), style.fill))
        self.badges.set_chips(chips)

    @property
    def shown_facing(self) -> float:
        return self.facing if self.preview_facing is None else self.preview_facing

    def set_preview_facing(self, facing: float | None) -> None:
        """Show a facing that is not in the model yet (during a rotate gesture)."""
        self.preview_facing = None if facing is None else facing % 360.0
        self._reshape()

    def set_flags(self, selected: bool, target: bool) -> None:
        if selected != self.selected or target != self.target:
            if selected != self.selected:
                self.name_place, self.badge_place = (p[0] for p in self.preferred_places(selected))
            self.selected, self.target = selected, target
            self.setZValue(Z_SELECTED if selected else Z_TOKENS)
            self._reshape()

    def preferred_places(self, selected: bool | None = None) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The name's and the badges' places in the order to try them.

        The selected token's rotation handle sits ahead of it: when that is below
        the token, the name goes above and the badges below so the handle does not cover them.
        """
        selected = self.selected if selected is None else selected
        if selected and 90.0 < self.shown_facing < 270.0:
            return (1, 0, 2, 3, 6, 7, 4, 5), (1, 0, 3, 2, 4, 5)
        return (0, 1, 2, 3, 4, 5, 6, 7), (0, 1, 2, 3, 4, 5)

    def place_labels(self, name: int, badges: int) -> None:
        """Put the name and the badges at the given places (indices into NAME_PLACES, BADGE_PLACES)."""
        self.name_place, self.badge_place = name, badges
        ex, ey = self.extent()
        anchor, shift, (kx, ky) = NAME_PLACES[name]
        self.label.set_anchor(anchor, shift)
        self.label.setPos(kx * ex, ky * ey)
        anchor, shift, (kx, ky) = BADGE_PLACES[badges]
        self.badges.set_anchor(anchor, shift)
        self.badges.setPos(kx * ex, ky * ey)

    # -- geometry ---------------------------------------------------------------
    def extent(self) -> tuple[float, float]:
        """Half-width and half-height of the body as drawn at its facing."""
        w, length = self._size
        if not self.vehicle:
            return (w / 2.0, w / 2.0)
        r = math.radians(self.shown_facing)
        s, c = abs(math.sin(r)), abs(math.cos(r))
        return (w / 2.0 * c + length / 2.0 * s, w / 2.0 * s + length / 2.0 * c)

    def body_rect(self, scale: float) -> tuple[float, float, float, float]:
        """What the body covers as drawn at `scale` pixels per inch, its selection or target ring included,
        as (left, top, right, bottom) pixels: other names keep clear of it."""
        ex, ey = self.extent()
        grow = self._halos(scale)[0][0] if self.selected or self.target else 0.0
        pos = self.pos()
        x, y, gx, gy = pos.x() * scale, pos.y() * scale, ex * scale + grow, ey * scale + grow
        return (x - gx, y - gy, x + gx, y + gy)

    def reach(self) -> float:
        """Distance from the centre to the far end of the body along its facing."""
        return self._size[1] / 2.0

    def _reshape(self) -> None:
        """Outline, facing mark and label places for the shown facing, in inches from the centre."""
        w, length = self._size
        f = self.shown_facing
        self._ahead = direction(f)
        self._across = direction(f + 90.0)
        half = length / 2.0
        if self.vehicle:
            tip, base, spread = half - 0.15, half - 0.75, w * 0.28
            self._body_poly: QPolygonF | None = self._rect_outline(0.0, 0.0, 1.0)
            self._bounds_r = math.hypot(w, length) / 2.0 + RING_MARGIN
        else:
            tip, base, spread = half * 0.95, half * 0.05, half * 0.36
            self._body_poly = None
            self._bounds_r = w / 2.0 + RING_MARGIN
        r = self._bounds_r
        if self._bounds.width() != 2 * r:
            self.prepareGeometryChange()
            self._bounds = QRectF(-r, -r, 2 * r, 2 * r)
        (fx, fy), (sx, sy) = self._ahead, self._across
        self._mark_poly = QPolygonF([QPointF(fx * tip, fy * tip),
                                     QPointF(fx * base + sx * spread, fy * base + sy * spread),
                                     QPointF(fx * base - sx * spread, fy * base - sy * spread)])
        self._scale = 0.0        # drawn again
        self.place_labels(self.name_place, self.badge_place)
        self._redraw()

    def set_zoom(self, scale: float, dpr: float = 1.0) -> None:
        """Draw the token's picture for `scale` pixels per inch (when the zoom settles).

        Between a zoom and this call Qt scales the previous picture, so the token keeps
        its place and size on screen; it is drawn sharp again here.
        """
        if (scale, dpr) != self._zoom:
            self._zoom = (scale, dpr)
            self._redraw()

    def _redraw(self) -> None:
        """The picture again at the zoom it is kept for, or painting directly if it would be too big."""
        scale, dpr = self._zoom
        side = 2 * math.ceil(self._bounds_r * scale + 2.0)
        direct = scale <= 0.0 or side > PICTURE_LIMIT
        if direct != self._direct:
            self._direct = direct
            self.setFlag(_NO_CONTENTS, not direct)
            self.body.setVisible(not direct)
        if direct:
            self.update()
            return
        if self._scale != scale:
            self._prepare(scale, dpr)
        if self._body_poly is None:
            # as wide as the round body's sprite, to a pixel: it lands on the same pixels as when painted
            side += self._sprite.width() % 2
        side = self._tight(side, scale, dpr)
        picture = QPixmap(round(side * dpr), round(side * dpr))
        picture.setDevicePixelRatio(dpr)
        picture.fill(Qt.GlobalColor.transparent)
        painter = QPainter(picture)
        self._draw(painter, side / 2.0, side / 2.0, scale, dpr)
        painter.end()
        self.body.setPixmap(picture)
        self.body.setOffset(-side / 2.0, -side / 2.0)
        self.body.setScale(1.0 / scale)

    def _tight(self, side: int, scale: float, dpr: float) -> int:
        """The picture's side cut down to what is drawn: the body, its halos and its edge.

        The bounds keep room for the widest halo; a picture that size is mostly clear pixels,
        which Qt still blends one by one while it scales the picture between a zoom step and
        the zoom settling. Cut by whole pixels on each side (at a whole device pixel ratio), so
        what is drawn lands on the same pixels.
        """
        if dpr != round(dpr):
            return side
        if self._body_poly is None:
            drawn = self._sprite.width() / dpr
        else:
            grow = self._halo_px[0][0] if self._halo_px else 0.0
            w, length = self._size
            drawn = 2.0 * (math.hypot(w / 2.0 * scale + grow, length / 2.0 * scale + grow) + 2.0)
        return side - 2 * max(0, math.floor((side - drawn) / 2.0))

    def _rect_outline(self, cx: float, cy: float, scale: float, grow: float = 0.0) -> QPolygonF:
        """A vehicle's body at its facing: centre and `grow` in pixels, `scale` pixels per inch."""
        w, length = self._size
        (fx, fy), (sx, sy) = self._ahead, self._across
        hl, hw = length / 2.0 * scale + grow, w / 2.0 * scale + grow
        return QPolygonF([QPointF(cx + fx * hl + sx * hw, cy + fy * hl + sy * hw),
                          QPointF(cx - fx * hl + sx * hw, cy - fy * hl + sy * hw),
                          QPointF(cx - fx * hl - sx * hw, cy - fy * hl - sy * hw),
                          QPointF(cx + fx * hl - sx * hw, cy + fy * hl - sy * hw)])

    def contains_point(self, x: float, y: float) -> bool:
        """Whether a table point is on the body (hit testing that ignores the halo margin)."""
        dx, dy = x - self.x(), y - self.y()
        w, length = self._size
        if not self.vehicle:
            return math.hypot(dx, dy) <= w / 2.0 + 0.1
        along = dx * self._ahead[0] + dy * self._ahead[1]
        across = dx * self._across[0] + dy * self._across[1]
        return abs(along) <= length / 2.0 + 0.1 and abs(across) <= w / 2.0 + 0.1

    def boundingRect(self) -> QRectF:
        return self._bounds

    # -- drawing ------------------------------------------------------------------
    # Tokens are drawn in device pixels from the centre: Qt's raster engine fills a
    # small ellipse under a scaled transform several times slower than the same
    # ellipse in pixels, and pens wider than one pixel go through the stroker. Halos
    # are filled shapes under the body rather than thick outlines for the same reason,
    # and round bodies are shared sprites. The drawing goes into the token's picture
    # (`body`), drawn again when the token changes or the zoom settles; Qt's item
    # cache was tried and dropped: it doubles the first repaint after every zoom step.
    def _halos(self, scale: float) -> list[tuple[float, QColor]]:
        """Selection and target halos as (grow in pixels, colour), outermost first."""
        if not (self.selected or self.target):
            return []
        p = self._palette
        room = RING_MARGIN * scale * 0.9      # the halos must stay inside boundingRect
        halos = []
        if self.selected:
            halos.append((min(8.5 if self.target else 5.5, room), p.selection))
        if self.target:
            halos.append((min(5.0, room * 0.6 if self.selected else room), p.target))
        halos.append((min(1.75, room * 0.25), p.selection_gap))
        return halos

    def _prepare(self, scale: float, dpr: float) -> None:
        """Everything paint() needs at this zoom, so a repaint is a blit and a triangle."""
        self._scale = scale
        to_pixels = QTransform.fromScale(scale, scale)
        self._mark_px = to_pixels.map(self._mark_poly)
        self._halo_px = self._halos(scale) if self.selected or self.target else []
        if self._body_poly is None:
            diameter = round(self._size[0] * scale * 4.0) / 4.0
            halos = tuple((grow, colour.rgba()) for grow, colour in self._halo_px)
            self._sprite = disc_sprite(*self._look, diameter, dpr, halos)
            self._sprite_half = self._sprite.width() / dpr / 2.0
        else:
            self._body_px = to_pixels.map(self._body_poly)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        """Only when zoomed in past PICTURE_LIMIT: otherwise the token has no contents and `body` shows it."""
        transform = painter.worldTransform()
        cx, cy = transform.dx(), transform.dy()
        painter.resetTransform()
        self._draw(painter, cx, cy, transform.m11(), painter.device().devicePixelRatioF())

    def _draw(self, painter: QPainter, cx: float, cy: float, scale: float, dpr: float) -> None:
        """The body, halos and facing mark (or a destroyed unit's cross) centred on device point (cx, cy)."""
        if scale != self._scale:
            self._prepare(scale, dpr)
        painter.setRenderHint(_ANTIALIAS)
        if self._body_poly is None:
            half = self._sprite_half
            painter.drawPixmap(QPointF(cx - half, cy - half), self._sprite)
        else:
            painter.setPen(Qt.PenStyle.NoPen)
            for grow, colour in self._halo_px:
                painter.setBrush(colour)
                painter.drawPolygon(self._rect_outline(cx, cy, scale, grow))
            painter.setPen(self._edge)
            painter.setBrush(self._fill)
            painter.drawPolygon(self._body_px.translated(cx, cy))
        if self.destroyed:
            painter.setPen(QPen(self._mark, 2.0))
            ex, ey = self.extent()
            k = 0.55 * scale
            painter.drawLine(QPointF(cx - ex * k, cy - ey * k), QPointF(cx + ex * k, cy + ey * k))
            painter.drawLine(QPointF(cx - ex * k, cy + ey * k), QPointF(cx + ex * k, cy - ey * k))
        else:
            painter.setPen(_NO_PEN)
            painter.setBrush(self._mark)
            painter.drawPolygon(self._mark_px.translated(cx, cy))


class RotationHandle(QGraphicsPixmapItem):
    """The knob beside the selected token: drag it to turn the unit.

    A picture drawn when the stem turns or the palette changes, which Qt paints itself.
    """

    RADIUS = 8.0

    def __init__(self, palette: MapPalette) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setZValue(Z_HANDLE)
        self.setToolTip("Drag to turn the unit (Ctrl snaps to 15°).\nShift+wheel over a unit turns it 5° a notch.")
        self._palette = palette
        self._stem = QPointF()
        self._redraw()

    def set_palette(self, palette: MapPalette) -> None:
        self._palette = palette
        self._redraw()

    def set_stem(self, towards: QPointF) -> None:
        """Draw a line from the knob to `towards` (pixels from the knob): the token it turns."""
        if towards != self._stem:
            self._stem = QPointF(towards)
            self._redraw()

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addEllipse(QPointF(0.0, 0.0), self.RADIUS + 2.0, self.RADIUS + 2.0)
        return path

    def _redraw(self) -> None:
        r = self.RADIUS + 2.0
        area = QRectF(-r, -r, 2 * r, 2 * r).united(QRectF(self._stem, self._stem).adjusted(-2, -2, 2, 2))
        area = QRectF(area.toAlignedRect())
        scene = self.scene()
        dpr = scene.views()[0].devicePixelRatioF() if scene is not None and scene.views() else 1.0
        picture = QPixmap(round(area.width() * dpr), round(area.height() * dpr))
        picture.setDevicePixelRatio(dpr)
        picture.fill(Qt.GlobalColor.transparent)
        painter = QPainter(picture)
        painter.translate(-area.left(), -area.top())
        self._draw(painter)
        painter.end()
        self.setPixmap(picture)
        self.setOffset(area.topLeft())

    def _draw(self, painter: QPainter) -> None:
        p = self._palette
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(p.selection, 2.0))
        painter.drawLine(QPointF(0.0, 0.0), self._stem)
        painter.setPen(QPen(QColor("#ffffff"), 1.5))
        painter.setBrush(p.selection)
        painter.drawEllipse(QPointF(0.0, 0.0), self.RADIUS, self.RADIUS)
        # a circular arrow
        r = self.RADIUS * 0.5
        painter.setPen(QPen(QColor("#ffffff"), 1.6))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawArc(QRectF(-r, -r, 2 * r, 2 * r), 100 * 16, 250 * 16)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor("#ffffff"))
        tip = QPointF(r * math.cos(math.radians(100)), -r * math.sin(math.radians(100)))
        painter.drawPolygon(QPolygonF([tip + QPointF(-2.6, -2.2), tip + QPointF(2.4, -0.6), tip + QPointF(-1.0, 2.8)]))


class ClipLayer(QGraphicsItem):
    """Draws nothing; keeps the selection's wedge and rings inside the table edges."""

    def __init__(self, width: float, height: float) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemClipsChildrenToShape)
        self._rect = QRectF(0.0, 0.0, width, height)

    def set_table(self, width: float, height: float) -> None:
        self.prepareGeometryChange()
        self._rect = QRectF(0.0, 0.0, width, height)

    def boundingRect(self) -> QRectF:
        return self._rect

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRect(self._rect)
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        return


def wedge_path(origin: Point, facing: float, half_angle: float, radius: float) -> QPainterPath:
    """The arc of fire as a closed path, built with the rules' own `offset` (bearings clockwise from up)."""
    steps = max(2, math.ceil(2 * half_angle / 2.0))
    path = QPainterPath(qpoint(origin))
    for i in range(steps + 1):
        bearing = facing - half_angle + 2 * half_angle * i / steps
        path.lineTo(qpoint(offset(origin, bearing, radius)))
    path.closeSubpath()
    return path


class ArcWedge(QGraphicsItem):
    """The selected unit's arc of fire out to its longest range band.

    Like the rings, it covers the table and repaints only along its outline
    when it moves: a shift of the origin by d, a turn by a and a change of
    reach by r change no pixel farther than d + reach * a + r from the old or
    the new outline. A jump farther than that repaints both wedges whole.
    """

    def __init__(self, palette: MapPalette, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self._palette = palette
        self._pen = cosmetic(palette.arc_edge, 1.0)
        self._path = QPainterPath()
        self._shape: tuple[Point, float, float, float] | None = None
        self._table = QRectF()

    def set_table(self, width: float, height: float) -> None:
        self.prepareGeometryChange()
        self._table = QRectF(0.0, 0.0, width, height)

    def set_wedge(self, origin: Point, facing: float, half_angle: float, radius: float) -> None:
        old, old_path = self._shape, self._path
        self._shape = (origin, facing, half_angle, radius)
        self._path = wedge_path(origin, facing, half_angle, radius)
        scene = self.scene()
        if scene is None or not self.isVisible():
            return
        pen_pad = _pen_pad(scene)
        if old is None or old[2] != half_angle:
            scene.update(old_path.boundingRect().united(self._path.boundingRect()).adjusted(
                -pen_pad, -pen_pad, pen_pad, pen_pad))
            return
        turn = math.radians(abs((facing - old[1] + 180.0) % 360.0 - 180.0))
        pad = distance(origin, old[0]) + max(radius, old[3]) * turn + abs(radius - old[3]) + pen_pad
        if pad > 4.0:
            scene.update(old_path.boundingRect().united(self._path.boundingRect()).adjusted(
                -pen_pad, -pen_pad, pen_pad, pen_pad))
            return
        for path in (old_path, self._path):
            corners = [(path.elementAt(i).x, path.elementAt(i).y) for i in range(path.elementCount())]
            for patch in outline_patches(corners, pad, self._table):
                scene.update(patch)

    def set_palette(self, palette: MapPalette) -> None:
        self._palette = palette
        self._pen = cosmetic(palette.arc_edge, 1.0)
        self.update()

    def path(self) -> QPainterPath:
        return self._path

    def boundingRect(self) -> QRectF:
        return self._table

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        fill_then_outline(painter, self._path, self._palette.arc_fill, self._pen)


# Rows of device pixels per fill: Qt hands a fill of more than about a hundred rows to a
# helper thread, which on a busy machine makes a repaint wait several times its own work.
BAND_ROWS = 64


def fill_then_outline(painter: QPainter, path: QPainterPath, fill: QColor, outline: QPen) -> None:
    """A translucent area: filled without antialiasing, its edge hidden under an antialiased outline.

    An antialiased fill of a wide translucent area costs three times a plain one,
    for pixels the outline covers anyway. A tall area is filled in bands of
    BAND_ROWS device rows, each clipped to whole pixels so no row is blended twice.
    """
    painter.setRenderHint(_ANTIALIAS, False)
    painter.setPen(_NO_PEN)
    painter.setBrush(fill)
    transform = painter.worldTransform()
    device = transform.mapRect(path.boundingRect()).toAlignedRect()
    if device.height() <= BAND_ROWS:
        painter.drawPath(path)
    else:
        for top in range(device.top(), device.bottom() + 1, BAND_ROWS):
            painter.save()
            painter.resetTransform()
            painter.setClipRect(QRect(device.left(), top, device.width(), BAND_ROWS), Qt.ClipOperation.IntersectClip)
            painter.setWorldTransform(transform)
            painter.drawPath(path)
            painter.restore()
    painter.setRenderHint(_ANTIALIAS)
    painter.setPen(outline)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPath(path)


def _pen_pad(scene: QGraphicsScene) -> float:
    """Three pixels at the view's zoom, in inches: a one-pixel pen and its antialiasing."""
    views = scene.views()
    scale = views[0].transform().m11() if views else 1.0
    return 3.0 / max(scale, 1e-6)


PATCH = 2.0     # inches of outline per repainted patch


def outline_patches(corners: list[Point], pad: float, table: QRectF) -> list[QRectF]:
    """Rectangles covering everything within `pad` of a polyline, in pieces of about PATCH inches, on the table."""
    patches = []
    for (x0, y0), (x1, y1) in zip(corners, corners[1:], strict=False):
        pieces = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / PATCH))
        for k in range(pieces):
            ax, ay = x0 + (x1 - x0) * k / pieces, y0 + (y1 - y0) * k / pieces
            bx, by = x0 + (x1 - x0) * (k + 1) / pieces, y0 + (y1 - y0) * (k + 1) / pieces
            patch = QRectF(min(ax, bx) - pad, min(ay, by) - pad, abs(bx - ax) + 2 * pad, abs(by - ay) + 2 * pad)
            if patch.intersects(table):
                patches.append(patch)
    return patches


class RangeRings(QGraphicsItem):
    """Range band edges around the selected unit, each labelled with its distance.

    The item stays put and covers the table; moving the rings (a drag previewing
    the selection) asks the scene to repaint only short patches along the old
    and the new circles. Moved as one item, the square round the longest band,
    most of the table, would be repainted on every move of the mouse.
    """

    def __init__(self, palette: MapPalette, font: QFont, parent: QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self._palette = palette
        self._pen = cosmetic(palette.ring, 1.0, Qt.PenStyle.DashLine)
        self._font = font
        self._bands: list[float] = []
        self._labels: list[PixmapLabel] = []
        self._origin = QPointF()
        self._table = QRectF()

    @property
    def origin(self) -> QPointF:
        """The centre of the rings, in table inches."""
        return QPointF(self._origin)

    def set_rings(self, origin: Point, bands: list[float], facing: float, table: tuple[float, float]) -> None:
        if self._table != QRectF(0.0, 0.0, *table):
            self.prepareGeometryChange()
            self._table = QRectF(0.0, 0.0, *table)
        self._repaint_patches()
        self._origin = qpoint(origin)
        self._bands = list(bands)
        self._repaint_patches()
        while len(self._labels) > len(self._bands):
            label = self._labels.pop()
            if label.scene() is not None:
                label.scene().removeItem(label)
        while len(self._labels) < len(self._bands):
            self._labels.append(PixmapLabel(self._font, (0.5, 0.5), (0.0, 0.0), self))
        for label, band in zip(self._labels, self._bands, strict=True):
            label.set_chips([chip(f'{band:g}"', self._palette.label_text, self._palette.label_back)])
            label.setPos(qpoint(_label_point(origin, band, facing, table)))

    def _repaint_patches(self) -> None:
        """Ask the scene to repaint short patches along every ring, where they cross the table."""
        scene = self.scene()
        if scene is None or not self.isVisible() or not self._bands:
            return
        pen_pad = _pen_pad(scene)
        ox, oy = self._origin.x(), self._origin.y()
        for band in self._bands:
            steps = max(8, math.ceil(2.0 * math.pi * band / PATCH))
            sag = band * (1.0 - math.cos(math.pi / steps))
            turns = [2.0 * math.pi * i / steps for i in range(steps + 1)]
            corners = [(ox + band * math.cos(t), oy + band * math.sin(t)) for t in turns]
            for patch in outline_patches(corners, sag + pen_pad, self._table):
                scene.update(patch)

    @property
    def bands(self) -> list[float]:
        return list(self._bands)

    def set_palette(self, palette: MapPalette, font: QFont) -> None:
        self._palette = palette
        self._pen = cosmetic(palette.ring, 1.0, Qt.PenStyle.DashLine)
        self._font = font
        for label, band in zip(self._labels, self._bands, strict=True):
            label.set_font(font)
            label.set_chips([chip(f'{band:g}"', palette.label_text, palette.label_back)])
        self.update()

    def boundingRect(self) -> QRectF:
        return self._table

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(_ANTIALIAS)
        painter.setPen(self._pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for band in self._bands:
            painter.drawEllipse(self._origin, band, band)


def _label_point(origin: Point, radius: float, facing: float, table: tuple[float, float]) -> Point:
    """Where to label a ring: ahead of the unit if that is on the table, else the nearest bearing that is."""
    for turn in (0, 20, -20, 45, -45, 90, -90, 135, -135, 180):
        p = offset(origin, facing + turn, radius)
        if on_table(p, table[0] - 1.0, table[1] - 0.5) and p[0] >= 1.0 and p[1] >= 0.5:
            return p
    return offset(origin, facing, radius)


# Marker kinds a later feature places; anything else is drawn like "marker".
_MARKER_COLOURS = {
    "smoke": ("#9e9e9e", 120),
    "impact": ("#e53935", 60),
    "burst": ("#e53935", 60),
    "blast": ("#e53935", 60),
    "aiming_point": ("#1e88e5", 40),
    "aim": ("#1e88e5", 40),
    "objective": ("#fdd835", 70),
}


class MarkerItem(QGraphicsItem):
    """A marker from the game: a circle of its radius (if any), a centre mark and its label."""

    def __init__(self, marker: Marker, palette: MapPalette, font: QFont) -> None:
        super().__init__()
        self.setZValue(Z_MARKERS)
        self.marker_id = marker.id
        self._palette = palette
        self._font = font
        self._radius = 0.0
        self._kind = ""
        self._zoom = (0.0, 1.0)         # pixels per inch and device pixel ratio the area is pictured at
        # The area as a picture Qt paints itself, drawn again when the zoom settles (see UnitToken).
        self.area = QGraphicsPixmapItem(self)
        self.area.setShapeMode(QGraphicsPixmapItem.ShapeMode.BoundingRectShape)
        self.area.hide()
        self.label = PixmapLabel(font, (0.5, 0.0), (0.0, 7.0), self)
        self.symbol = _MarkerSymbol(self)
        self.sync(marker)

    def sync(self, marker: Marker) -> None:
        self.prepareGeometryChange()
        self.setPos(marker.x, marker.y)
        self._radius = marker.radius
        self._kind = marker.kind
        self._text = marker.label or marker.kind.replace("_", " ")
        self._relabel()
        self.update()

    def _relabel(self) -> None:
        p = self._palette
        self.label.setY(self._radius)
        self.label.set_chips([chip(self._text, p.label_text, p.label_back)] if self._text else [])
        self.symbol.set_colour(self.colour())
        name, alpha = _MARKER_COLOURS.get(self._kind, ("", 0))
        self._fill = QColor(name) if name else QColor(p.marker_fill)
        if name:
            self._fill.setAlpha(alpha)
        self._outline = cosmetic(self.colour(), 1.0, Qt.PenStyle.DashLine)
        self._area = QPainterPath()
        self._area.addEllipse(QPointF(0.0, 0.0), self._radius, self._radius)
        self._redraw()

    def set_zoom(self, scale: float, dpr: float = 1.0) -> None:
        """Picture the area for `scale` pixels per inch (when the zoom settles)."""
        if (scale, dpr) != self._zoom:
            self._zoom = (scale, dpr)
            self.symbol.set_colour(self.symbol.colour, dpr)
            self._redraw()

    def _redraw(self) -> None:
        """The area's picture again, or painting it directly when it would be too big.

        With no radius there is nothing of its own to draw: Qt then skips the item when painting.
        """
        scale, dpr = self._zoom
        side = 2 * math.ceil(self._radius * scale + 2.0)
        pictured = self._radius > 0 and scale > 0.0 and side <= 4 * PICTURE_LIMIT
        self.setFlag(_NO_CONTENTS, self._radius <= 0 or pictured)
        self.area.setVisible(pictured)
        if not pictured:
            self.update()
            return
        picture = QPixmap(round(side * dpr), round(side * dpr))
        picture.setDevicePixelRatio(dpr)
        picture.fill(Qt.GlobalColor.transparent)
        painter = QPainter(picture)
        painter.setRenderHint(_ANTIALIAS)
        painter.translate(side / 2.0, side / 2.0)
        painter.scale(scale, scale)
        fill_then_outline(painter, self._area, self._fill, self._outline)
        painter.end()
        self.area.setPixmap(picture)
        self.area.setOffset(-side / 2.0, -side / 2.0)
        self.area.setScale(1.0 / scale)

    def set_palette(self, palette: MapPalette, font: QFont) -> None:
        self._palette = palette
        self.label.set_font(font)
        self._relabel()
        self.update()

    def colour(self) -> QColor:
        name, _ = _MARKER_COLOURS.get(self._kind, ("", 0))
        return QColor(name) if name else QColor(self._palette.marker)

    def boundingRect(self) -> QRectF:
        r = self._radius + 0.2
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self._radius > 0:
            fill_then_outline(painter, self._area, self._fill, self._outline)


_DIAMOND = QPolygonF([QPointF(0, -6), QPointF(6, 0), QPointF(0, 6), QPointF(-6, 0)])


@lru_cache(maxsize=64)
def _diamond(fill: int, edge: int, dpr: float) -> QPixmap:
    """A marker's centre mark, drawn once per colour."""
    side = 16
    pix = QPixmap(round(side * dpr), round(side * dpr))
    pix.setDevicePixelRatio(dpr)
    pix.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pix)
    painter.setRenderHint(_ANTIALIAS)
    painter.translate(side / 2.0, side / 2.0)
    painter.setPen(QPen(QColor.fromRgba(edge), 1.2))
    painter.setBrush(QColor.fromRgba(fill))
    painter.drawPolygon(_DIAMOND)
    painter.end()
    return pix


class _MarkerSymbol(QGraphicsPixmapItem):
    """A fixed-size diamond at a marker's centre, so a zero-radius marker is still seen (painted by Qt itself)."""

    def __init__(self, parent: QGraphicsItem) -> None:
        super().__init__(parent)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setShapeMode(QGraphicsPixmapItem.ShapeMode.BoundingRectShape)
        self.setOffset(-8.0, -8.0)
        self.set_colour(QColor("#000000"))

    def set_colour(self, colour: QColor, dpr: float = 1.0) -> None:
        self.colour = QColor(colour)
        self.setPixmap(_diamond(self.colour.rgba(), contrasting(colour).rgba(), dpr))


class MeasureItem(QGraphicsItem):
    """The ruler: a line between two table points and its length in inches to one decimal."""

    def __init__(self, palette: MapPalette, font: QFont, label_at_middle: bool = False) -> None:
        super().__init__()
        self.setZValue(Z_MEASURE)
        self._palette = palette
        self._a = QPointF()
        self._b = QPointF()
        self._middle = label_at_middle
        # beside the pointer for the ruler; on the line, clear of the token, for a move
        anchor, shift = ((0.5, 0.5), (0.0, 0.0)) if label_at_middle else ((0.0, 1.0), (8.0, -6.0))
        self.label = PixmapLabel(font, anchor, shift, self)
        self.set_palette(palette, font)

    def set_line(self, a: Point, b: Point, text: str) -> None:
        self.prepareGeometryChange()
        self._a, self._b = qpoint(a), qpoint(b)
        self.label.setPos((self._a + self._b) / 2.0 if self._middle else self._b)
        p = self._palette
        self.label.set_chips([chip(text, p.measure_text, p.measure_back)])
        self.update()

    def text(self) -> str:
        return self.label.text()

    def set_palette(self, palette: MapPalette, font: QFont) -> None:
        self._palette = palette
        self.label.set_font(font)
        halo = QColor("#000000") if not palette.dark else QColor("#ffffff")
        halo.setAlpha(90)
        self._halo_pen = cosmetic(halo, 1.0)
        self._line_pen = cosmetic(palette.measure, 1.0)
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(self._a, self._b).normalized().adjusted(-0.5, -0.5, 0.5, 0.5)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        # In device pixels, the 4- and 2-pixel strokes as side-by-side one-pixel lines: Qt
        # draws those directly, where a wider pen or a thin filled band goes through its
        # general rasteriser at many times the cost.
        transform = painter.worldTransform()
        a, b = transform.map(self._a), transform.map(self._b)
        dot = 0.15 * transform.m11() + 1.0
        painter.resetTransform()
        painter.setRenderHint(_ANTIALIAS)
        dx, dy = b.x() - a.x(), b.y() - a.y()
        length = math.hypot(dx, dy)
        nx, ny = (-dy / length, dx / length) if length > 1e-9 else (0.0, 1.0)
        for pen, offsets in ((self._halo_pen, (-1.5, -0.5, 0.5, 1.5)), (self._line_pen, (-0.5, 0.0, 0.5))):
            painter.setPen(pen)
            for k in offsets:
                shift = QPointF(nx * k, ny * k)
                painter.drawLine(a + shift, b + shift)
        painter.setPen(_NO_PEN)
        painter.setBrush(self._palette.measure)
        for end in (a, b):
            painter.drawEllipse(end, dot, dot)


class AreaCircle(QGraphicsEllipseItem):
    """A translucent circle (a burst, an area of fire) filled the cheap way: see `fill_then_outline`.

    Its path is kept from one repaint to the next, made again when the circle is set.
    """

    _path: QPainterPath | None = None

    def setRect(self, *args: Any, **kwargs: Any) -> None:
        self._path = None
        super().setRect(*args, **kwargs)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self._path is None:
            self._path = QPainterPath()
            self._path.addEllipse(self.rect())
        fill_then_outline(painter, self._path, self.brush().color(), self.pen())


class AreaPolygon(QGraphicsPolygonItem):
    """A translucent polygon (an area of fire, smoke, a building) filled the cheap way: see `fill_then_outline`.

    Its path is kept from one repaint to the next, made again when the polygon is set.
    """

    _path: QPainterPath | None = None

    def setPolygon(self, *args: Any, **kwargs: Any) -> None:
        self._path = None
        super().setPolygon(*args, **kwargs)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self._path is None:
            self._path = QPainterPath()
            self._path.addPolygon(self.polygon())
            self._path.closeSubpath()
        fill_then_outline(painter, self._path, self.brush().color(), self.pen())


def circle_item(centre: Point, radius: float, colour: QColor, fill_alpha: int = 50,
                style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QGraphicsEllipseItem:
    """A circle for `MapView.set_overlay` (a burst, a deviation radius), drawn the cheap way.

    One-pixel cosmetic pens: anything wider goes through Qt's stroker and costs
    more than the rest of a repaint put together. Wide filled circles are filled
    without antialiasing under their outline.
    """
    rect = QRectF(centre[0] - radius, centre[1] - radius, 2 * radius, 2 * radius)
    item = AreaCircle(rect) if fill_alpha > 0 and radius >= 1.0 else QGraphicsEllipseItem(rect)
    item.setPen(cosmetic(QColor(colour), 1.0, style))
    fill = QColor(colour)
    fill.setAlpha(fill_alpha)
    item.setBrush(fill)
    item.setZValue(Z_OVERLAYS)
    return item


def polygon_item(corners: list[Point], colour: QColor, fill_alpha: int,
                 style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QGraphicsPolygonItem:
    """A translucent polygon for `MapView.set_overlay` (an area of fire, smoke, a building)."""
    item = AreaPolygon(QPolygonF([QPointF(x, y) for x, y in corners]))
    item.setPen(cosmetic(QColor(colour), 1.0, style))
    fill = QColor(colour)
    fill.setAlpha(fill_alpha)
    item.setBrush(fill)
    item.setZValue(Z_OVERLAYS)
    return item


def line_item(a: Point, b: Point, colour: QColor, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QGraphicsLineItem:
    """A line for `MapView.set_overlay` (a line of fire, a barrage line)."""
    item = QGraphicsLineItem(a[0], a[1], b[0], b[1])
    item.setPen(cosmetic(QColor(colour), 1.0, style))
    item.setZValue(Z_OVERLAYS)
    return item


def text_item(at: Point, text: str, font: QFont, fg: QColor, bg: QColor) -> PixmapLabel:
    """A label for `MapView.set_overlay`, centred on a table point and readable at any zoom."""
    item = PixmapLabel(font, (0.5, 0.5))
    item.set_chips([chip(text, fg, bg)])
    item.setPos(at[0], at[1])
    item.setZValue(Z_OVERLAYS)
    return item
