"""Condition and damage badges: coloured chips drawn by one light widget.

A chip carries its own background, so it reads the same on light and dark
palettes; the text colour is whichever of black or white contrasts more with
it, and a faint outline in the palette's text colour keeps dark chips visible
on a dark window. One widget paints every chip of a card and wraps them onto
as many lines as its width needs, which keeps a card to a handful of widgets.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent
from PySide6.QtCore import QPoint
from PySide6.QtCore import QRect
from PySide6.QtCore import QSize
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QFont
from PySide6.QtGui import QFontMetrics
from PySide6.QtGui import QHelpEvent
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QSizePolicy
from PySide6.QtWidgets import QToolTip
from PySide6.QtWidgets import QWidget

CONDITION_COLOURS = {
    "pinned": "#e0a526",
    "broken": "#c62828",
    "suppressed": "#7b1fa2",
    "out_of_ammo": "#546e7a",
    "abandoned": "#ad1457",
    "seriously_injured": "#c62828",
    "out_of_action": "#263238",
    "out_of_play": "#263238",
    "engaged": "#00796b",
}
OTHER_CONDITION = "#1565c0"
DAMAGE = "#bf360c"
WRECK = "#263238"
WRECK_DAMAGE = ("destroyed", "explodes")

PAD_X = 8
PAD_Y = 2
GAP = 4
SLACK = 2  # text widths are fractional; a rounded width can elide the last letter


def condition_colour(key: str) -> QColor:
    return QColor(CONDITION_COLOURS.get(key, OTHER_CONDITION))


def damage_colour(key: str) -> QColor:
    return QColor(WRECK if key in WRECK_DAMAGE else DAMAGE)


def _luminance(c: QColor) -> float:
    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())


def text_colour_on(background: QColor) -> QColor:
    """Black or white, whichever has the higher WCAG contrast on `background`."""
    lum = _luminance(background)
    on_white = 1.05 / (lum + 0.05)
    on_black = (lum + 0.05) / 0.05
    return QColor("#ffffff") if on_white >= on_black else QColor("#000000")


@dataclass(frozen=True)
class Chip:
    text: str
    colour: QColor
    tip: str = ""


class ChipsView(QWidget):
    """A wrapping row of chips; its height follows its width."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._chips: list[Chip] = []
        font = QFont(self.font())
        font.setWeight(QFont.Weight.DemiBold)
        self.setFont(font)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def chips(self) -> list[Chip]:
        return list(self._chips)

    def set_chips(self, chips: list[Chip]) -> None:
        if chips == self._chips:
            return
        self._chips = list(chips)
        self.updateGeometry()
        self.update()

    def _rects(self, width: int) -> list[QRect]:
        fm = QFontMetrics(self.font())
        h = fm.height() + 2 * PAD_Y
        x = y = 0
        rects: list[QRect] = []
        for chip in self._chips:
            w = min(fm.horizontalAdvance(chip.text) + 2 * PAD_X + SLACK, max(width, 1))
            if x > 0 and x + w > width:
                x, y = 0, y + h + GAP
            rects.append(QRect(x, y, w, h))
            x += w + GAP
        return rects

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        rects = self._rects(width)
        return rects[-1].bottom() + 1 if rects else 0

    def sizeHint(self) -> QSize:
        fm = QFontMetrics(self.font())
        width = sum(fm.horizontalAdvance(c.text) + 2 * PAD_X + SLACK + GAP for c in self._chips)
        return QSize(width, self.heightForWidth(max(width, 1)))

    def minimumSizeHint(self) -> QSize:
        fm = QFontMetrics(self.font())
        return QSize(fm.horizontalAdvance("Pinned") + 2 * PAD_X, 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        outline = QColor(self.palette().windowText().color())
        outline.setAlpha(70)
        for chip, rect in zip(self._chips, self._rects(self.width()), strict=True):
            radius = rect.height() / 2
            painter.setPen(outline)
            painter.setBrush(chip.colour)
            painter.drawRoundedRect(rect.adjusted(0, 0, -1, -1), radius, radius)
            painter.setPen(text_colour_on(chip.colour))
            room = rect.width() - 2 * PAD_X + SLACK
            text = painter.fontMetrics().elidedText(chip.text, Qt.TextElideMode.ElideRight, room)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
        painter.end()

    def chip_at(self, pos: QPoint) -> Chip | None:
        for chip, rect in zip(self._chips, self._rects(self.width()), strict=True):
            if rect.contains(pos):
                return chip
        return None

    def event(self, event: QEvent) -> bool:
        if isinstance(event, QHelpEvent):
            chip = self.chip_at(event.pos())
            if chip is not None and chip.tip:
                QToolTip.showText(event.globalPos(), chip.tip, self)
            else:
                QToolTip.hideText()
            return True
        return super().event(event)
