"""A question in a message box whose answers are buttons named for what they do, its text shown as typed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMessageBox
    from PySide6.QtWidgets import QWidget


def ask(parent: QWidget, icon: QMessageBox.Icon, title: str, text: str,
        answers: Sequence[tuple[str, QMessageBox.ButtonRole]]) -> int | None:
    """Which of `answers` the player chose, by its place (the first is the default), or None for Cancel.

    Plain text, so a game's or a file's name is shown as it is spelled, never read as markup.
    """
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Cancel, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    buttons = [box.addButton(label, role) for label, role in answers]
    box.setDefaultButton(buttons[0])
    box.exec()
    return next((place for place, button in enumerate(buttons) if button is box.clickedButton()), None)
