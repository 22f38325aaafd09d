"""The base of a card section whose buttons change its unit: each change one undo step, a refusal said on the card.

A feature's card section (`CardSection`) shows rows of its own for one unit;
where its buttons act, they act through `Session.act` like every other edit,
and what the rules refuse reads the same red way under the section on every
card, so no section handles a refusal its own way or lets one pass silently.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from battletracker.model.game import GameError
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import message_of
from battletracker.rules.choices import Choices
from battletracker.ui.refusal import RefusalBanner
from battletracker.ui.session import Session


class ActingSection(QWidget):
    """A card section of one unit that changes the game; it places `problem`, the refusal's banner, in its rows."""

    def __init__(self, parent: QWidget | None, session: Session, unit_id: str) -> None:
        super().__init__(parent)
        self.session = session
        self.unit_id = unit_id
        self.problem = RefusalBanner(self)

    def act(self, name: str, choices: Choices) -> bool:
        """The action `name` as one undo step; False, with the rules' sentence shown, when they refuse it."""
        try:
            self.session.act(name, choices)
        except (GameError, RulesInputError) as exc:
            self.problem.show_refusal(f"Not applied: {message_of(exc)}")
            return False
        self.problem.clear()
        return True
