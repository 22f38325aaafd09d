"""The activation row a Chain of Command dialog shows above its odds: how the unit is activated to act.

The rules decide (rules/chain_of_command/activation.py): this row shows the
ways the side has now to activate the unit, or how it was activated this
Phase, or the sentence refusing the step. The chosen way joins the dialog's
choices as `activation`, so the action that is applied activates the unit in
the same undo step as what it does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QWidget

from battletracker.model.game import Game
from battletracker.rules.base import Refusal
from battletracker.rules.chain_of_command.activation import RULESET
from battletracker.rules.chain_of_command.activation import activated_words
from battletracker.rules.chain_of_command.activation import status
from battletracker.ui.text import plain

T = TypeVar("T")


class ActivationRow(QWidget):
    """A combo of the ways to activate the unit (while it needs activating), else how it was activated."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel("Activation", self)
        self.ways = QComboBox(self)
        self.ways.setObjectName("activation_ways")
        self.ways.setToolTip("How the unit is activated for this: a held Command Dice of its face, dice combined, "
                             "or an activated Leader's Order")
        self.label.setBuddy(self.ways)
        self.state = plain(QLabel(self))  # names the Leader whose Order activated the unit
        self.state.setObjectName("activation_state")
        self.state.setWordWrap(True)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label)
        row.addWidget(self.ways, 1)
        row.addWidget(self.state, 1)
        self.ways.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self.hide()

    def update_for(self, game: Game, unit_id: str | None, doing: str) -> str | None:
        """Show what `unit_id` needs to do `doing` now; the refusal's sentence if the rules forbid it."""
        unit = game.units.get(unit_id or "")
        if game.ruleset != RULESET or unit is None:
            self.hide()
            return None
        before = self.choice()
        refusal, ways = status(game, unit, doing, before or None)
        if refusal is not None and before is not None:
            refusal, ways = status(game, unit, doing, None)
        self.ways.blockSignals(True)
        self.ways.clear()
        for way in ways:
            self.ways.addItem(way.words, way.key)
        if before is not None and self.ways.findData(before) >= 0:
            self.ways.setCurrentIndex(self.ways.findData(before))
        self.ways.blockSignals(False)
        self.ways.setVisible(bool(ways))
        self.state.setVisible(not ways)
        self.state.setText(activated_words(game, unit))
        self.setVisible(bool(ways) or bool(self.state.text()))
        return refusal

    def plan_for(self, game: Game, unit_id: str, doing: str, make: Callable[[], T]) -> T:
        """`make()`, the step's plan, once this row shows what `unit_id` needs to do `doing`.

        The plan reads the way chosen here, so the row is brought up to date first. Its own refusal comes
        first; a plan the table allows is still refused, as the firer's, while the rules forbid the step now.
        """
        not_now = self.update_for(game, unit_id, doing)
        planned = make()
        if not_now is not None:
            raise Refusal("firer", not_now)
        return planned

    def choice(self) -> str | None:
        """The way picked, while the unit needs activating (None once it is activated)."""
        if self.ways.isHidden() or self.ways.count() == 0:
            return None
        data = self.ways.currentData()
        return str(data) if data is not None else None

    def choices(self) -> dict[str, str]:
        picked = self.choice()
        return {"activation": picked} if picked else {}
