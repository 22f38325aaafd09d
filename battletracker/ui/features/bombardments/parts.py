"""What the bombardment windows and the panel share: a window about one bombardment, and a framed note.

Each small window a bombardment's row opens (its area, extra rounds, the
hidden die) is titled with its Forward Observer's name, as the row is, so a
player with two bombardments on the table knows which one they are changing;
one showing the hidden die asks only the owner's player to look.
"""

from __future__ import annotations

from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QFrame
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QWidget

from battletracker.model.bombardment import Bombardment
from battletracker.rules.chain_of_command.bombardment import observer_name
from battletracker.ui.session import Session


class BombardmentWindow(QDialog):
    """A small window about one bombardment, titled "{observer}: {what}" and at least `width` wide."""

    def __init__(self, session: Session, bombardment_id: str, parent: QWidget | None, what: str,
                 width: int) -> None:
        super().__init__(parent)
        self.session = session
        self.bombardment_id = bombardment_id
        self.observer = observer_name(session.game, self.bombardment)
        self.setWindowTitle(f"{self.observer}: {what}")
        self.setMinimumWidth(width)

    @property
    def bombardment(self) -> Bombardment:
        return self.session.game.bombardments[self.bombardment_id]

    def owner(self) -> str:
        """The side whose bombardment it is, by name: only its player should see the hidden die."""
        sides = self.session.game.sides
        side = self.bombardment.side
        return sides[side].name if 0 <= side < len(sides) else "its owner"


def framed_note(parent: QWidget, name: str) -> QLabel:
    """A note in a frame, hidden until there is something to say (all rolled for, smoke in a close combat)."""
    note = QLabel(parent)
    note.setObjectName(name)
    note.setWordWrap(True)
    note.setFrameShape(QFrame.Shape.StyledPanel)
    note.setMargin(6)
    note.hide()
    return note
