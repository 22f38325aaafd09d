"""Fusion with tick boxes and radio buttons that can be seen on a dark palette.

Apart from theme.py, so the light start never builds QStyle's enums in Python: this loads only when
the palette is dark.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPalette
from PySide6.QtGui import QPen
from PySide6.QtWidgets import QProxyStyle
from PySide6.QtWidgets import QStyle
from PySide6.QtWidgets import QStyleOption
from PySide6.QtWidgets import QWidget

INDICATOR_EDGE = "#8a8d94"
"""The edge of a tick box or radio button on a dark palette, light enough to see against the box."""

_INDICATORS = (QStyle.PrimitiveElement.PE_IndicatorCheckBox, QStyle.PrimitiveElement.PE_IndicatorItemViewItemCheck,
               QStyle.PrimitiveElement.PE_IndicatorRadioButton)


class VisibleBoxes(QProxyStyle):
    """Fusion, with tick boxes and radio buttons edged in a light grey on a dark palette.

    Fusion edges them a shade darker than the window, which on a dark palette is the box's own
    colour: an unticked box in a list could not be seen at all.
    """

    def drawPrimitive(self, element: QStyle.PrimitiveElement, option: QStyleOption, painter: QPainter,
                      widget: QWidget | None = None) -> None:
        super().drawPrimitive(element, option, painter, widget)
        if element not in _INDICATORS or option.palette.color(QPalette.ColorRole.Window).lightness() >= 128:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(QColor(INDICATOR_EDGE), 1.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        box = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5)
        if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            painter.drawEllipse(box)
        else:
            painter.drawRoundedRect(box, 1.0, 1.0)
        painter.restore()
