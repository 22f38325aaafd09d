"""A die drawn as a die: the Forward Observer's Phases left, and the hidden Static/Rolling die.

The hidden die is drawn covered (a cap with a question mark) until it is
revealed; the covered widget holds no face at all, so nothing on screen,
in a tooltip or in its accessible name can give the number away.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtCore import QRectF
from PySide6.QtCore import QSize
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QFont
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPaintEvent
from PySide6.QtGui import QPen
from PySide6.QtWidgets import QSizePolicy
from PySide6.QtWidgets import QWidget

# Where the pips sit on a face, in thirds of its inner square.
_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


class DieFace(QWidget):
    """One D6: a face 1-6 with pips, a larger number as digits, covered, or blank (no die)."""

    def __init__(self, what: str, parent: QWidget | None = None, size: int = 34) -> None:
        super().__init__(parent)
        self._what = what
        self._size = size
        self._face: int | None = None
        self._covered = False
        self.setFixedSize(QSize(size, size))
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self._describe()

    @property
    def face(self) -> int | None:
        """The face shown, or None when covered or blank."""
        return self._face

    @property
    def covered(self) -> bool:
        return self._covered

    def show_face(self, face: int) -> None:
        self._face, self._covered = face, False
        self._describe()

    def cover(self) -> None:
        self._face, self._covered = None, True
        self._describe()

    def clear(self) -> None:
        self._face, self._covered = None, False
        self._describe()

    def _describe(self) -> None:
        if self._covered:
            text = f"{self._what}: covered until it is revealed"
        elif self._face is None:
            text = f"{self._what}: none"
        else:
            text = f"{self._what}: {self._face}"
        self.setToolTip(text)
        self.setAccessibleName(text)
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        box = QRectF(1.5, 1.5, self.width() - 3.0, self.height() - 3.0)
        radius = box.width() * 0.18
        if self._face is None and not self._covered:
            p.setPen(QPen(pal.color(pal.ColorRole.Mid), 1.0, Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRoundedRect(box, radius, radius)
            return
        if self._covered:
            p.setPen(QPen(QColor("#37474f"), 1.2))
            p.setBrush(QColor("#607d8b"))
            p.drawRoundedRect(box, radius, radius)
            font = QFont(self.font())
            font.setBold(True)
            font.setPixelSize(int(box.height() * 0.6))
            p.setFont(font)
            p.setPen(QColor("#ffffff"))
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, "?")
            return
        p.setPen(QPen(QColor("#424242"), 1.2))
        p.setBrush(QColor("#fafafa"))
        p.drawRoundedRect(box, radius, radius)
        face = self._face
        assert face is not None
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("#212121"))
        if face in _PIPS:
            step = box.width() / 4.0
            pip = box.width() * 0.09
            for col, row in _PIPS[face]:
                p.drawEllipse(QPointF(box.left() + step * (col + 1), box.top() + step * (row + 1)), pip, pip)
            return
        font = QFont(self.font())
        font.setBold(True)
        font.setPixelSize(int(box.height() * 0.5))
        p.setFont(font)
        p.setPen(QColor("#212121"))
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, str(face))
