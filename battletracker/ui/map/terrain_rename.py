"""Renaming a terrain piece from its right-click menu: one `terrain.edit`, one undo step.

The rules refuse a blank name; the refusal stays in the dialog, with the name
as typed, so the player corrects it rather than losing it.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.model.game import GameError
from battletracker.rules import RulesInputError
from battletracker.rules.base import message_of
from battletracker.rules.terrain_actions import terrain_choice
from battletracker.ui.refusal import RefusalBanner
from battletracker.ui.session import Session


class RenameTerrainDialog(QDialog):
    """The piece's name, selected so typing replaces it; Enter renames, Esc leaves it as it was."""

    def __init__(self, session: Session, piece_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.piece = session.game.terrain[piece_id]
        self.setWindowTitle(f"Rename {self.piece.name}")
        self.name = QLineEdit(self.piece.name, self)
        self.name.selectAll()
        self.name.setMinimumWidth(260)
        self.problem = RefusalBanner(self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.rename_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.rename_button.setText("&Rename")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.name.textEdited.connect(lambda _text: self.problem.clear())
        form = QFormLayout()
        form.addRow("&Name", self.name)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)

    def accept(self) -> None:
        """Rename as one undo step; a refused name keeps the dialog open with the reason."""
        name = self.name.text().strip()
        current = self.session.game.terrain.get(self.piece.id, self.piece)
        if name != current.name:
            try:
                self.session.act("terrain.edit", {"piece": terrain_choice(replace(current, name=name))})
            except (GameError, RulesInputError) as exc:
                self.problem.show_refusal(message_of(exc))
                self.adjustSize()           # tall enough for the whole reason
                self.name.setFocus()
                return
        super().accept()
