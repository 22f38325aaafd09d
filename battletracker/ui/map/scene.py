"""The table as a scene in inches, kept in step with the session.

One scene unit is one inch: x to the right, y down from the top edge, facing
clockwise from the top edge, as in `core.geometry`. The scene follows the
session's `changed` record: only the tokens of touched units are synced,
roster changes add and remove tokens, and `everything` rebuilds. Overlays
(arc, rings, targets) are drawn for the selection only.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache
from typing import Any
from typing import Protocol

from PySide6.QtCore import QObject
from PySide6.QtCore import QPoint
from PySide6.QtCore import QPointF
from PySide6.QtCore import QRect
from PySide6.QtCore import QRectF
from PySide6.QtCore import QSize
from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtGui import QColor
from PySide6.QtGui import QFont
from PySide6.QtGui import QFontMetrics
from PySide6.QtGui import QImage
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QGraphicsItem
from PySide6.QtWidgets import QGraphicsScene

from battletracker.model.changes import Changes
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.targets import targets_of
from battletracker.ui.map.backdrop import BackdropLayer
from battletracker.ui.map.items import BAND_ROWS
from battletracker.ui.map.items import Z_OVERLAYS
from battletracker.ui.map.items import Z_SELECTION_OVERLAY
from battletracker.ui.map.items import ArcWedge
from battletracker.ui.map.items import ClipLayer
from battletracker.ui.map.items import MarkerItem
from battletracker.ui.map.items import RangeRings
from battletracker.ui.map.items import UnitToken
from battletracker.ui.map.palette import MapPalette
from battletracker.ui.map.placement import Rect
from battletracker.ui.map.placement import place_labels
from battletracker.ui.map.terrain_items import TargetMarks
from battletracker.ui.map.terrain_items import TerrainLayer

# Room around the table for the edge labels, in inches.
MARGIN = 3.0
BACKGROUNDS_KEPT = 2
"""Pictures of the background kept (see MapScene.drawBackground): the place shown and the one before."""


def side_colour(game: Game, side: int) -> QColor:
    if 0 <= side < len(game.sides):
        c = QColor(game.sides[side].colour)
        if c.isValid():
            return c
    return QColor("#808080")


def drawn_as_vehicle(game: Game, unit: Unit) -> bool:
    """Whether the unit's token is a vehicle's rectangle rather than a round base."""
    if unit.is_vehicle:
        return True
    if game.ruleset == "armour_battles":
        from battletracker.rules.armour_battles.units import is_vehicle

        return is_vehicle(unit)
    return False


def _over(colour: QColor, below: QColor) -> QColor:
    """`colour` (translucent) painted over opaque `below`, as one opaque colour."""
    a = colour.alphaF()
    return QColor.fromRgbF(colour.redF() * a + below.redF() * (1 - a), colour.greenF() * a + below.greenF() * (1 - a),
                           colour.blueF() * a + below.blueF() * (1 - a))


@lru_cache(maxsize=8)
def _felt_strip(width: int, columns: tuple[int, ...], felt: int, line: int) -> QPixmap:
    """The felt one pixel high across the table, with a pixel in `line`'s colour at each of `columns`.

    Written as bytes, as a zoom needs a new strip (a painter's call per column cost more than
    the rest of the grid), and tiled down the table: copying a row Qt keeps in its cache costs
    little more than filling it, where each vertical line drawn as such costs a store per row."""
    width = max(1, width)
    pixels = bytearray(felt.to_bytes(4, "little") * width)
    colour = line.to_bytes(4, "little")
    for at in columns:
        if 0 <= at < width:
            pixels[4 * at:4 * at + 4] = colour
    return QPixmap.fromImage(QImage(bytes(pixels), width, 1, 4 * width, QImage.Format.Format_ARGB32))


@lru_cache(maxsize=64)
def _edge_text(text: str, font_key: str, colour: int, dpr: float) -> QPixmap:
    """An edge label rendered once: drawing text costs a layout on every repaint."""
    font = QFont()
    font.fromString(font_key)
    metrics = QFontMetrics(font)
    pix = QPixmap(max(1, round(metrics.horizontalAdvance(text) * dpr)), max(1, round(metrics.height() * dpr)))
    pix.setDevicePixelRatio(dpr)
    pix.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pix)
    painter.setFont(font)
    painter.setPen(QColor.fromRgba(colour))
    painter.drawText(QPointF(0.0, metrics.ascent()), text)
    painter.end()
    return pix


@lru_cache(maxsize=16)
def _edge_texts(last: int, first: int, step: int, font_key: str, colour: int,
                dpr: float) -> tuple[tuple[int, QPixmap, float, float], ...]:
    """The labels from `first` to `last` inches every `step`: each inch, its picture and its size in pixels."""
    texts = [(inch, _edge_text(f"{inch}", font_key, colour, dpr)) for inch in range(first, last + 1, step)]
    return tuple((inch, text, text.width() / dpr, text.height() / dpr) for inch, text in texts)


class SceneSource(Protocol):
    """All a MapScene reads of the session it draws: the game and the unit selected.

    The laptop's `Session` is one; the table display's `PublicSession`, the game without its secrets, is another.
    """

    @property
    def game(self) -> Game: ...

    @property
    def selected(self) -> str | None: ...


class MapScene(QGraphicsScene):
    """Tokens, markers and overlays for the session's game."""

    overlay_changed = Signal(str)
    """A procedure's overlay (by key) was drawn again or taken off: a second screen follows it."""

    def __init__(self, session: SceneSource, palette: MapPalette, font: QFont,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.palette_ = palette
        self.label_font = QFont(font)
        self.badge_font = QFont(font)
        self.tokens: dict[str, UnitToken] = {}
        self.markers: dict[str, MarkerItem] = {}
        self.overlays: dict[str, list[QGraphicsItem]] = {}
        self.targets: set[str] = set()
        self._width = 0.0
        self._height = 0.0
        self._background_seen: tuple[float, ...] | None = None
        self._backgrounds: list[tuple[tuple[float, ...], QPixmap]] = []    # the latest first
        self._set_fonts(font)
        self.clip = ClipLayer(0.0, 0.0)
        self.clip.setZValue(Z_SELECTION_OVERLAY)
        self.addItem(self.clip)
        self.wedge = ArcWedge(palette, self.clip)
        self.rings = RangeRings(palette, self.badge_font, self.clip)
        self.backdrop = BackdropLayer(self)
        self.terrain = TerrainLayer(self, palette, self.badge_font)
        self.target_marks = TargetMarks(self, self.badge_font)
        self.rebuild()

    # -- building ----------------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.session.game

    def table_rect(self) -> QRectF:
        return QRectF(0.0, 0.0, self._width, self._height)

    def _set_fonts(self, font: QFont) -> None:
        self.label_font = QFont(font)
        self.label_font.setBold(True)
        self.badge_font = QFont(font)
        self.badge_font.setBold(True)
        size = font.pointSizeF()
        if size > 0:
            self.badge_font.setPointSizeF(max(6.5, size * 0.8))

    def rebuild(self) -> None:
        """Everything again from the game: a new or opened game, or a side's colour changed."""
        game = self.game
        self._width, self._height = game.table_width, game.table_height
        self.setSceneRect(QRectF(-MARGIN, -MARGIN, self._width + 2 * MARGIN, self._height + 2 * MARGIN))
        self.clip.set_table(self._width, self._height)
        self.wedge.set_table(self._width, self._height)
        self.backdrop.sync(game.backdrop, self.table_rect())
        for token in self.tokens.values():
            self.removeItem(token)
        self.tokens.clear()
        for unit in game.units.values():
            self._add_token(unit)
        self._sync_markers()
        self.terrain.sync(game)
        self.target_marks.forget_table()
        self.refresh_selection()
        self._forget_background()

    def _add_token(self, unit: Unit) -> UnitToken:
        token = UnitToken(unit, side_colour(self.game, unit.side), self.palette_, self.label_font, self.badge_font,
                          drawn_as_vehicle(self.game, unit))
        self.tokens[unit.id] = token
        self.addItem(token)
        return token

    def _sync_markers(self) -> None:
        markers = self.game.markers
        for marker_id in [m for m in self.markers if m not in markers]:
            self.removeItem(self.markers.pop(marker_id))
        for marker in markers.values():
            item = self.markers.get(marker.id)
            if item is None:
                item = MarkerItem(marker, self.palette_, self.badge_font)
                self.markers[marker.id] = item
                self.addItem(item)
            else:
                item.sync(marker)

    # -- following the session -------------------------------------------------------
    def apply_changes(self, changes: Changes) -> set[str]:
        """Bring the scene up to date with one change record; returns the unit ids synced."""
        if changes.everything:
            self.rebuild()
            return set(self.tokens)
        game = self.game
        synced: set[str] = set()
        if changes.roster:
            for unit_id in [u for u in self.tokens if u not in game.units]:
                self.removeItem(self.tokens.pop(unit_id))
            for unit in game.units.values():
                if unit.id not in self.tokens:
                    self._add_token(unit)
                    synced.add(unit.id)
        for unit_id in changes.units:
            changed = game.units.get(unit_id)
            token = self.tokens.get(unit_id)
            if changed is not None and token is not None and unit_id not in synced:
                token.sync(changed, side_colour(game, changed.side), drawn_as_vehicle(game, changed))
                synced.add(unit_id)
        if changes.markers:
            self._sync_markers()
        if changes.backdrop:
            self.backdrop.sync(game.backdrop, self.table_rect())
        if changes.terrain:
            self.terrain.sync(game)
        table = changes.terrain or changes.buildings or changes.bombardments or changes.settings
        if table:
            self.target_marks.forget_table()
        if synced:
            self.refresh_selection(synced)
        elif table:
            self.refresh_selection(())
        elif changes.markers:
            self.layout_labels()
        return synced

    def refresh_selection(self, moved: Iterable[str] | None = None) -> None:
        """Redraw the selection's arc and rings and re-mark its targets.

        `moved` names the units that changed; if the selected unit is not among
        them the arc stays as it is and only the targets are checked again.
        """
        selected = self.session.selected
        unit = self.game.units.get(selected) if selected is not None else None
        if unit is None:
            self.wedge.hide()
            self.rings.hide()
            self.targets = set()
        else:
            if moved is None or unit.id in moved:
                self._draw_selection_overlay(unit)
            self.targets = set(targets_of(self.game, unit))
        for unit_id, token in self.tokens.items():
            token.set_flags(unit_id == selected, unit_id in self.targets)
        self._mark_targets(unit)
        self.layout_labels()

    def layout_labels(self, scale: float | None = None) -> None:
        """Draw tokens and markers for `scale` (default: the view's zoom), placing names and badges apart."""
        views = self.views()
        if scale is None:
            scale = views[0].transform().m11() if views else 1.0
        if views:
            dpr = views[0].devicePixelRatioF()
            for token in self.tokens.values():
                token.set_zoom(scale, dpr)
            for marker in self.markers.values():
                marker.set_zoom(scale, dpr)
            self.terrain.set_zoom(scale, dpr)
        bodies = [token.body_rect(scale) for token in self.tokens.values() if token.isVisible()]
        self.terrain.place_labels(scale, bodies + self.target_marks.rects(scale))
        place_labels(self.tokens.values(), scale, self._marker_rects(scale))

    def _marker_rects(self, scale: float) -> list[Rect]:
        """The markers' symbols and names, the terrain's names and the targets' marks in pixels,
        for the labels to keep clear of."""
        rects: list[Rect] = []
        for marker in self.markers.values():
            cx, cy = marker.x() * scale, marker.y() * scale
            rects.append((cx - 7.0, cy - 7.0, cx + 7.0, cy + 7.0))
            label = marker.label
            if label.size_px[0] > 0.0:
                rects.append(label.pixel_rect(cx, cy + label.y() * scale, (0.5, 0.0), (0.0, 7.0)))
        rects.extend(self.terrain.label_rects(scale))
        rects.extend(self.target_marks.rects(scale))
        return rects

    def preview_selection(self, x: float, y: float, facing: float) -> None:
        """Arc, rings and targets as if the selected unit stood at (x, y) facing `facing`.

        Shown while it is dragged or turned, before anything is applied; the next
        change from the session puts back what the model says.
        """
        selected = self.session.selected
        unit = self.game.units.get(selected) if selected is not None else None
        if unit is None:
            return
        moved = replace(unit, x=x, y=y, facing=facing)
        self._draw_selection_overlay(moved)
        self.targets = set(targets_of(self.game, moved))
        for unit_id, token in self.tokens.items():
            token.set_flags(unit_id == selected, unit_id in self.targets)
        self._mark_targets(moved)

    def _mark_targets(self, firer: Unit | None) -> None:
        """Sight and cover marks on the targets of `firer` (the selection, where it stands or is dragged to)."""
        places = {t: ((tok.x(), tok.y()), tok.extent()[1]) for t in self.targets if (tok := self.tokens.get(t))}
        self.target_marks.update(self.game, firer, self.targets, places)

    def _draw_selection_overlay(self, unit: Unit) -> None:
        arc = unit.main_arc()
        bands = sorted(unit.range_bands())
        origin = (unit.x, unit.y)
        if arc is not None and arc < 180.0:
            reach = bands[-1] if bands else math.hypot(self._width, self._height)
            self.wedge.set_wedge(origin, unit.facing, arc, reach)
            self.wedge.show()
        else:
            self.wedge.hide()
        if bands:
            self.rings.set_rings(origin, bands, unit.facing, (self._width, self._height))
            self.rings.show()
        else:
            self.rings.hide()

    # -- overlays for procedures -------------------------------------------------------
    def set_overlay(self, key: str, items: list[QGraphicsItem]) -> None:
        self._take_off(key)
        for item in items:
            if item.zValue() == 0.0:
                item.setZValue(Z_OVERLAYS)
            self.addItem(item)
        self.overlays[key] = list(items)
        self.overlay_changed.emit(key)

    def clear_overlay(self, key: str) -> None:
        if self._take_off(key):
            self.overlay_changed.emit(key)

    def _take_off(self, key: str) -> bool:
        """Remove the overlay `key`'s items; whether there was such an overlay."""
        drawn = self.overlays.pop(key, None)
        for item in drawn or []:
            if item.scene() is self:
                self.removeItem(item)
        return drawn is not None

    # -- palette ---------------------------------------------------------------------------
    def set_palette(self, palette: MapPalette, font: QFont) -> None:
        self.palette_ = palette
        self._set_fonts(font)
        for token in self.tokens.values():
            token.set_palette(palette, self.label_font, self.badge_font)
        for marker in self.markers.values():
            marker.set_palette(palette, self.badge_font)
        self.wedge.set_palette(palette)
        self.rings.set_palette(palette, self.badge_font)
        self.backdrop.grid.update()
        self.terrain.set_palette(palette, self.badge_font)
        self.target_marks.set_font(self.badge_font)
        self._forget_background()

    # -- the table -----------------------------------------------------------------------------
    def _forget_background(self) -> None:
        """The felt, grid, edge or labels look different: draw them again (and picture them again)."""
        self.invalidate(self.sceneRect(), QGraphicsScene.SceneLayer.BackgroundLayer)

    def invalidate(self, *args: Any, **kwargs: Any) -> None:
        """Qt's invalidate (any of its forms), forgetting the background's picture too.

        Whoever changes what the background draws says so with `invalidate` (a new
        palette, a new table, a table picture shown or hidden): the picture follows.
        """
        self._background_seen = None
        self._backgrounds.clear()
        super().invalidate(*args, **kwargs)

    def drawBackground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        """The margin, the felt and its grid, the table edge and its inch labels.

        Drawn once at a zoom and scroll position, then kept as a picture of the whole
        viewport: a repaint at the same zoom (a selection, a drag, a dialog's overlay)
        copies the exposed part of it, about half the cost of drawing it. The first
        paint after a zoom or a scroll draws directly, so a burst of wheel notches pays
        nothing extra; the second at the same place takes the picture. The pictures of
        the last BACKGROUNDS_KEPT places are kept, so a zoom step back (a wheel notch
        out after one in) copies too, and a new picture is drawn into the oldest one's
        pixels rather than into fresh memory. Anything else the picture depends on
        forgets them through `invalidate` (see there). Items under everything (a table
        photo at a negative z) are drawn over the background, picture or not.
        """
        rect = QRectF(rect)
        transform = painter.worldTransform()
        device = painter.device()
        width, height = device.width(), device.height()
        if transform.isRotating() or width <= 0 or height <= 0:
            self._paint_background(painter, rect)
            return
        dpr = device.devicePixelRatioF()
        key = (transform.m11(), transform.m22(), transform.dx(), transform.dy(), width, height, dpr)
        kept = self._backgrounds
        at = next((i for i, (seen, _) in enumerate(kept) if seen == key), None)
        if at is None:
            if self._background_seen != key:
                self._background_seen = key
                self._paint_background(painter, rect)
                return
            size = QSize(round(width * dpr), round(height * dpr))
            oldest = kept.pop()[1] if len(kept) >= BACKGROUNDS_KEPT else None
            picture = oldest if oldest is not None and oldest.size() == size else QPixmap(size)
            picture.setDevicePixelRatio(dpr)
            picture.fill(self.palette_.margin)     # no pixel left unset where a fractional pixel ratio rounds
            own = QPainter(picture)
            own.setRenderHints(painter.renderHints())
            own.setWorldTransform(transform)
            self._paint_background(own, transform.inverted()[0].mapRect(QRectF(0.0, 0.0, width, height)))
            own.end()
            kept.insert(0, (key, picture))
        elif at > 0:
            kept.insert(0, kept.pop(at))
        exposed = transform.mapRect(rect).toAlignedRect().intersected(QRect(0, 0, width, height))
        if exposed.isEmpty():
            return
        painter.save()
        painter.resetTransform()
        # one call: an unscaled copy of opaque pixels is a plain copy of rows on this thread
        painter.drawPixmap(QRectF(exposed), kept[0][1], QRectF(exposed.x() * dpr, exposed.y() * dpr,
                                                                exposed.width() * dpr, exposed.height() * dpr))
        painter.restore()

    def _paint_background(self, painter: QPainter, rect: QRectF) -> None:
        p = self.palette_
        table = self.table_rect()
        transform = painter.worldTransform()
        sx, dx, sy, dy = transform.m11(), transform.dx(), transform.m22(), transform.dy()
        # in whole device pixels, on the edges the felt starts and ends at (see _draw_grid)
        left, top, right, bottom = round(dx), round(dy), round(sx * self._width + dx), round(sy * self._height + dy)
        painter.save()
        painter.resetTransform()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        # the margin round the table only, unless a table picture shows (the felt is drawn opaque
        # over the table, and every pixel is drawn once): opaque fills are plain stores Qt keeps
        # on this thread, so they need no bands
        exposed = transform.mapRect(rect).toAlignedRect()
        if self.backdrop.shown:
            painter.fillRect(exposed, p.margin)
        else:
            for band in (QRect(QPoint(exposed.left(), exposed.top()), QPoint(exposed.right(), top - 1)),
                         QRect(QPoint(exposed.left(), bottom), QPoint(exposed.right(), exposed.bottom())),
                         QRect(QPoint(exposed.left(), top), QPoint(left - 1, bottom - 1)),
                         QRect(QPoint(right, top), QPoint(exposed.right(), bottom - 1))):
                band &= exposed
                if not band.isEmpty():
                    painter.fillRect(band, p.margin)
        painter.restore()
        scale = sx or 1.0
        if not self.backdrop.shown:
            self._draw_grid(painter, rect.intersected(table), scale)
        # the edge two pixels wide astride the felt's first and last pixels, as whole-pixel rectangles:
        # an antialiased outline blends two columns on every row of the table
        painter.save()
        painter.resetTransform()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(p.table_edge)
        across, down = right - left + 2, bottom - top - 2
        painter.drawRects([QRect(left - 1, top - 1, across, 2), QRect(left - 1, bottom - 1, across, 2),
                           QRect(left - 1, top + 1, 2, down), QRect(right - 1, top + 1, 2, down)])
        painter.restore()
        self._draw_edge_labels(painter, scale)

    def _draw_grid(self, painter: QPainter, rect: QRectF, scale: float, over_picture: bool = False) -> None:
        """The felt with its inch, six-inch and foot lines, in whole device pixels.

        The felt and the inch lines down it are one strip a pixel high, tiled down the table
        (in bands: see items.BAND_ROWS). The other lines are whole-pixel rectangles, one
        `drawRects` per weight and way, in the order that leaves the heavier line on top
        where two cross (six-inch lines down over the inch lines across, and so on). Over
        the felt every colour is opaque and Qt stores it without blending; over a table
        picture (`over_picture`) there is no felt and the lines keep their own alpha.
        """
        if rect.isEmpty():
            return
        p = self.palette_
        inch_lines = scale >= 6.0
        transform = painter.worldTransform()
        sx, dx, sy, dy = transform.m11(), transform.dx(), transform.m22(), transform.dy()
        left, top = round(dx), round(dy)
        width, height = round(sx * self._width + dx) - left, round(sy * self._height + dy) - top
        exposed = transform.mapRect(rect).toAlignedRect().intersected(QRect(left, top, width, height))
        if exposed.isEmpty():
            return
        felt = QColor(Qt.GlobalColor.transparent) if over_picture else p.felt
        inch, six, foot = (c if over_picture else _over(c, felt) for c in (p.grid_inch, p.grid_six, p.grid_twelve))
        w, h = int(self._width), int(self._height)
        columns = tuple(round(sx * x + dx) - left for x in range(w + 1) if x % 6) if inch_lines else ()
        strip = _felt_strip(width, columns, felt.rgba(), inch.rgba())
        painter.save()
        painter.resetTransform()
        offset = QPointF(exposed.left() - left, 0.0)
        for band_top in range(exposed.top(), exposed.bottom() + 1, BAND_ROWS):
            band = QRectF(exposed.left(), band_top, exposed.width(), min(BAND_ROWS, exposed.bottom() + 1 - band_top))
            painter.drawTiledPixmap(band, strip, offset)
        x0, y0, across, down = exposed.left(), exposed.top(), exposed.width(), exposed.height()
        inch_across = [QRect(x0, round(sy * y + dy), across, 1) for y in range(h + 1) if y % 6] if inch_lines else []
        six_down = [QRect(round(sx * x + dx), y0, 1, down) for x in range(6, w + 1, 12)]
        six_across = [QRect(x0, round(sy * y + dy), across, 1) for y in range(6, h + 1, 12)]
        foot_down = [QRect(round(sx * x + dx) - 1, y0, 2, down) for x in range(0, w + 1, 12)]
        foot_across = [QRect(x0, round(sy * y + dy) - 1, across, 2) for y in range(0, h + 1, 12)]
        painter.setClipRect(exposed, Qt.ClipOperation.IntersectClip)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(Qt.PenStyle.NoPen)
        for colour, rects in ((inch, inch_across), (six, six_down), (six, six_across), (foot, foot_down),
                              (foot, foot_across)):
            if rects:
                painter.setBrush(colour)
                painter.drawRects(rects)
        painter.restore()

    def _draw_edge_labels(self, painter: QPainter, scale: float) -> None:
        """Inches along the top and left edges, at a fixed size outside the table (text rendered once)."""
        step = 6 if scale * 6 >= 34 else 12
        transform = painter.worldTransform()
        sx, dx, sy, dy = transform.m11(), transform.dx(), transform.m22(), transform.dy()
        font_key, colour = self.badge_font.toString(), self.palette_.edge_text.rgba()
        dpr = painter.device().devicePixelRatioF()
        painter.save()
        painter.resetTransform()
        for x, text, w, h in _edge_texts(int(self._width), 0, step, font_key, colour, dpr):
            painter.drawPixmap(QPointF(round(sx * x + dx - w / 2), round(dy - h - 4)), text)
        for y, text, w, h in _edge_texts(int(self._height), step, step, font_key, colour, dpr):
            painter.drawPixmap(QPointF(round(dx - 6 - w), round(sy * y + dy - h / 2)), text)
        painter.restore()
