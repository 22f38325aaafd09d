"""A side's header above its cards: colour, name, Force Morale, Chain of Command dice.

Force Morale and Chain of Command dice go up and down on every table, so
the header carries steppers for them; like every card edit they go through
the session as one undo step each. Clicking the name folds the side's cards
away, which keeps a long roster manageable.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QRectF
from PySide6.QtCore import QSize
from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtGui import QColor
from PySide6.QtGui import QFont
from PySide6.QtGui import QMouseEvent
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QSizePolicy
from PySide6.QtWidgets import QToolButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.model.game import Side
from battletracker.ui.cards.flow import FlowLayout
from battletracker.ui.text import literal
from battletracker.ui.text import plain

SWATCH = 14


class Swatch(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colour = QColor("#808080")
        self.setFixedSize(SWATCH, SWATCH)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(self.palette().windowText().color())
        painter.setBrush(self.colour)
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3)
        painter.end()


class SideHeader(QWidget):
    """Emits `step(field, delta)` for the steppers and `folded(bool)` when clicked."""

    step = Signal(str, int)
    folded = Signal(bool)

    def __init__(self, index: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.index = index
        self._folded = False
        self.setObjectName(f"side_{index}")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        root = QVBoxLayout(self)
        root.setContentsMargins(4, 10, 4, 4)
        root.setSpacing(4)

        top = QHBoxLayout()
        top.setSpacing(8)
        self.arrow = QLabel(self)
        self.swatch = Swatch(self)
        self.name_label = plain(QLabel(self))
        self.name_label.setObjectName("side_name")
        self.name_label.setWordWrap(True)
        font = QFont(self.name_label.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.2)
        self.name_label.setFont(font)
        self.count_label = QLabel(self)
        self.count_label.setObjectName("side_count")
        top.addWidget(self.arrow)
        top.addWidget(self.swatch)
        top.addWidget(self.name_label, 1)
        top.addWidget(self.count_label)
        root.addLayout(top)

        values = QWidget(self)
        values.setCursor(Qt.CursorShape.ArrowCursor)
        flow = FlowLayout(values, spacing=12)
        self.values: dict[str, QLabel] = {}
        for field, label, tip in (("force_morale", "Force Morale", "Force Morale"),
                                  ("coc_points", "CoC dice", "Chain of Command die")):
            flow.addWidget(self._stepper(values, field, label, tip))
        root.addWidget(values)
        self.values_box = values
        self._show_arrow()

    def _stepper(self, parent: QWidget, field: str, label: str, tip: str) -> QWidget:
        box = QWidget(parent)
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        row.addWidget(QLabel(label, box))
        row.addSpacing(3)
        value = QLabel(box)
        value.setObjectName(f"value_{field}")
        value.setAlignment(Qt.AlignmentFlag.AlignCenter)
        value.setMinimumWidth(value.fontMetrics().horizontalAdvance("00") + 4)
        bold = QFont(value.font())
        bold.setBold(True)
        value.setFont(bold)
        self.values[field] = value
        for text, delta, words in (("\u2212", -1, "fewer"), ("+", 1, "more")):
            button = QToolButton(box)
            button.setText(text)
            button.setObjectName(f"{'minus' if delta < 0 else 'plus'}_{field}")
            button.setToolTip(f"One {tip} {words}")
            button.setAccessibleName(f"One {tip} {words}")
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            button.setFixedSize(button.sizeHint().height(), button.sizeHint().height())
            button.clicked.connect(self._emitter(field, delta))
            row.addWidget(button)
            if delta < 0:
                row.addWidget(value)
        return box

    def _emitter(self, field: str, delta: int) -> Callable[[], None]:
        return lambda: self.step.emit(field, delta)

    def set_side(self, side: Side, units: int, morale: bool = True, points_per_die: int = 6) -> None:
        """Show the side; `morale` False hides Force Morale and Chain of Command dice (other rulesets).

        The dice's tooltip says them with the loose points towards the next die, in the seed's words
        ("Chain of Command: 1 die, 5 points of 6").
        """
        self.name_label.setText(side.name)
        self.swatch.colour = QColor(side.colour)
        self.swatch.update()
        self.count_label.setText(f"{units} unit{'s' if units != 1 else ''}")
        self.values["force_morale"].setText(str(side.force_morale))
        self.values["coc_points"].setText(str(side.coc_points))
        dice = f"{side.coc_points} {'die' if side.coc_points == 1 else 'dice'}"
        points = f"{side.coc_tally} {'point' if side.coc_tally == 1 else 'points'}"
        self.values["coc_points"].setToolTip(f"Chain of Command: {dice}, {points} of {points_per_die}")
        self.values_box.setVisible(morale)
        self.setToolTip(literal(f"{side.name}: click to fold or unfold its cards"))

    @property
    def is_folded(self) -> bool:
        return self._folded

    def set_folded(self, folded: bool) -> None:
        if folded != self._folded:
            self._folded = folded
            self._show_arrow()
            self.folded.emit(folded)

    def _show_arrow(self) -> None:
        self.arrow.setText("\u25b8" if self._folded else "\u25be")

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.set_folded(not self._folded)
        super().mousePressEvent(event)

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(max(hint.width(), 200), hint.height())
