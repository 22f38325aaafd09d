"""Text on the map that stays readable at every zoom.

Names, badges and readouts are drawn at a fixed pixel size (items that ignore
the view's scale) from pixmaps rendered once and shared: a full repaint with
hundreds of tokens then costs a blit per label instead of a text layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PySide6.QtCore import QRectF
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QFont
from PySide6.QtGui import QFontMetricsF
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QGraphicsItem
from PySide6.QtWidgets import QGraphicsPixmapItem


@dataclass(frozen=True)
class Chip:
    """One rounded box of text: a name, a condition badge, a shock count, a distance."""

    text: str
    fg: int                 # QColor.rgba()
    bg: int
    round: bool = False     # a circle (shock count) rather than a pill


def chip(text: str, fg: QColor, bg: QColor, round_: bool = False) -> Chip:
    return Chip(text, fg.rgba(), bg.rgba(), round_)


@lru_cache(maxsize=4096)
def chips_pixmap(chips: tuple[Chip, ...], font_key: str, dpr: float, gap: float = 2.0) -> QPixmap:
    """A row of chips rendered once; the same names and badges share one pixmap."""
    font = QFont()
    font.fromString(font_key)
    fm = QFontMetricsF(font)
    height = fm.height() + 2.0
    widths = []
    for c in chips:
        w = fm.horizontalAdvance(c.text) + (4.0 if c.round else 8.0)
        widths.append(max(w, height) if c.round else w)
    total = sum(widths) + gap * (len(chips) - 1)
    pix = QPixmap(max(1, round(total * dpr)), max(1, round(height * dpr)))
    pix.setDevicePixelRatio(dpr)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    p.setFont(font)
    x = 0.0
    for c, w in zip(chips, widths, strict=True):
        box = QRectF(x, 0.0, w, height)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor.fromRgba(c.bg))
        radius = height / 2.0
        p.drawRoundedRect(box, radius, radius)
        p.setPen(QColor.fromRgba(c.fg))
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, c.text)
        x += w + gap
    p.end()
    return pix


class PixmapLabel(QGraphicsPixmapItem):
    """A fixed-size row of chips placed at a point of its parent.

    `anchor` is the point of the pixmap that sits on the item's position, as
    fractions of its size ((0.5, 0) is top-centre); `offset` shifts it in pixels.
    Painting is Qt's own pixmap item, with no Python call per repaint.
    """

    def __init__(self, font: QFont, anchor: tuple[float, float] = (0.5, 0.0),
                 offset: tuple[float, float] = (0.0, 0.0), parent: QGraphicsItem | None = None,
                 dpr: float = 1.0) -> None:
        super().__init__(parent)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setShapeMode(QGraphicsPixmapItem.ShapeMode.BoundingRectShape)
        self._font_key = font.toString()
        self._anchor = anchor
        self._offset = offset
        self._chips: tuple[Chip, ...] = ()
        self._dpr = dpr
        self.size_px = (0.0, 0.0)
        """The label's width and height in pixels (0 when it has nothing to show)."""
        self.setVisible(False)

    @property
    def chips(self) -> tuple[Chip, ...]:
        return self._chips

    @property
    def anchor(self) -> tuple[float, float]:
        """The point of the label that sits on its position, as fractions of its size."""
        return self._anchor

    @property
    def shift(self) -> tuple[float, float]:
        """How far the label is moved off its position, in pixels (`offset` when made; Qt's `offset()` is the
        pixmap's own corner)."""
        return self._offset

    def text(self) -> str:
        return " ".join(c.text for c in self._chips)

    def set_font(self, font: QFont) -> None:
        if font.toString() != self._font_key:
            self._font_key = font.toString()
            self._relayout()

    def pixel_rect(self, x: float, y: float, anchor: tuple[float, float],
                   offset: tuple[float, float]) -> tuple[float, float, float, float]:
        """Where the label would cover, as (left, top, right, bottom) pixels, placed at pixel point (x, y)."""
        w, h = self.size_px
        left = x + offset[0] - w * anchor[0]
        top = y + offset[1] - h * anchor[1]
        return (left, top, left + w, top + h)

    def set_anchor(self, anchor: tuple[float, float], offset: tuple[float, float]) -> None:
        if (anchor, offset) != (self._anchor, self._offset):
            self._anchor, self._offset = anchor, offset
            self._relayout()

    def set_chips(self, chips: Sequence[Chip]) -> None:
        chips = tuple(chips)
        if chips != self._chips:
            self._chips = chips
            self._relayout()

    def _relayout(self) -> None:
        if not self._chips:
            self.setVisible(False)
            self.setPixmap(QPixmap())
            self.size_px = (0.0, 0.0)
            return
        pix = chips_pixmap(self._chips, self._font_key, self._dpr)
        w, h = pix.width() / self._dpr, pix.height() / self._dpr
        self.size_px = (w, h)
        self.setPixmap(pix)
        self.setOffset(-w * self._anchor[0] + self._offset[0], -h * self._anchor[1] + self._offset[1])
        self.setVisible(True)
