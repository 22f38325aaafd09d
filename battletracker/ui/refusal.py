"""The red banner that says why something cannot go ahead, the same in every dialog, dock and card.

Apart from the dialogs' other parts (procedure_parts.py, which gives it too), so the units
panel shows it without loading what only a procedure dialog needs.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QWidget

from battletracker.ui.theme import REFUSAL_BACKGROUND
from battletracker.ui.theme import REFUSAL_TEXT

REFUSAL_STYLE = f"color: {REFUSAL_TEXT}; background: {REFUSAL_BACKGROUND}; padding: 4px; border-radius: 3px;"


class RefusalBanner(QLabel):
    """Why the procedure, the entry or the Apply cannot go ahead, in red; hidden while nothing is refused.

    Every refusal on screen is one of these, in a dialog, a dock or a card, so they all look alike on the
    light and the dark palette. The text is plain, never markup: a refusal often quotes a unit's name,
    which the player typed. It wraps to the width it is given, a narrow dock's as a wide dialog's.
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

    def set_refusal(self, text: str | None) -> None:
        """Show `text` as the refusal, or clear the banner when there is none (None or empty)."""
        if text:
            self.show_refusal(text)
        else:
            self.clear()

    def clear(self) -> None:
        """Nothing is refused any more: empty and hide the banner."""
        super().clear()
        self.hide()

    def refused(self) -> bool:
        """Whether a refusal is showing."""
        return not self.isHidden()
