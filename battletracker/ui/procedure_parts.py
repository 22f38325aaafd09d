"""Pieces every procedure dialog shares, so each looks and behaves the same.

A refusal (why a procedure cannot go ahead as entered) is shown the same red
way in every dialog; keeping it in one class keeps the colours, the wrapping
and the plain-text safety in one place.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

# White on a deep red: both colours are set, so the banner reads the same on a light or a dark palette.
REFUSAL_STYLE = "color: white; background: #b3261e; padding: 4px; border-radius: 3px;"


class RefusalBanner(QLabel):
    """Why the procedure cannot go ahead, in red above the roll; hidden while nothing is refused.

    The text is plain, never markup: a refusal often quotes a unit's name, which the player typed.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self.setStyleSheet(REFUSAL_STYLE)
        self.hide()

    def show_refusal(self, text: str) -> None:
        """Show `text` as the reason the procedure is refused."""
        self.setText(text)
        self.show()

    def clear(self) -> None:
        """Nothing is refused any more: empty and hide the banner."""
        super().clear()
        self.hide()

    def refused(self) -> bool:
        """Whether a refusal is showing."""
        return not self.isHidden()
