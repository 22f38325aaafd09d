"""Chain of Command activation on a unit's card: whether it is activated this Phase, how, and the way to do it.

The card's row says "Not activated" or how it was ("Command Dice 2: fired"),
with an Activate button whose menu lists only the ways the rules allow now
(rules/chain_of_command/activation.py); a Leader activated this Phase shows
its Orders left and a menu of the units it may order or rally.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QHBoxLayout, QLabel, QMenu, QPushButton, QVBoxLayout, QWidget

from battletracker.model.game import Game, GameError, Unit
from battletracker.rules.base import RulesInputError, message_of
from battletracker.rules.chain_of_command.activation import (
    RULESET,
    activated_words,
    current,
    face_for,
    is_leader,
    kind_words,
    order_targets,
    ways,
)
from battletracker.ui.extensions import CardSection, Feature
from battletracker.ui.procedure_parts import RefusalBanner
from battletracker.ui.session import Session

RULESETS = (RULESET,)


def activated_by_dice(_game: Game, unit: Unit) -> bool:
    return face_for(unit) is not None


class ActivationSection(QWidget):
    """The unit's activation this Phase, with Activate (and a Leader's Orders) as menus of what the rules allow."""

    def __init__(self, parent: QWidget, session: Session, unit_id: str) -> None:
        super().__init__(parent)
        self.session = session
        self.unit_id = unit_id
        self.state = QLabel(self)
        self.state.setObjectName("activation_state")
        self.state.setWordWrap(True)
        self.activate = QPushButton("Activate", self)
        self.activate.setObjectName("activate")
        self.activate.setAutoDefault(False)
        self.orders = QPushButton("Orders", self)
        self.orders.setObjectName("orders")
        self.orders.setAutoDefault(False)
        self.problem = RefusalBanner(self)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.state, 1)
        row.addWidget(self.activate)
        row.addWidget(self.orders)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.problem)

    def refresh(self, unit: Unit) -> None:
        game = self.session.game
        words = activated_words(game, unit)
        if not words:
            face = face_for(unit)
            words = f"Not activated this Phase (a Command Dice {face}: {kind_words(unit)})"
        self.state.setText(words)
        options = ways(game, unit) if not self.session.replaying else []
        self.activate.setVisible(bool(options))
        menu = QMenu(self.activate)
        for way in options:
            action = menu.addAction(f"With {way.words}")
            action.setObjectName(f"activate_{way.key}")
            action.triggered.connect(self._slot("coc.activate", {"unit": unit.id, "activation": way.key}))
        self.activate.setMenu(menu)
        act = current(game, unit)
        show_orders = (is_leader(unit) and act is not None and act.orders_left > 0
                       and not self.session.replaying)
        orders = QMenu(self.orders)
        if show_orders:
            for target in order_targets(game, unit, "activate"):
                entry = orders.addAction(f"Activate {target.name}")
                entry.setObjectName(f"order_{target.id}")
                entry.triggered.connect(self._slot("coc.order", {"leader": unit.id, "unit": target.id}))
            for target in order_targets(game, unit, "rally"):
                entry = orders.addAction(f"Rally Shock on {target.name} ({target.shock})")
                entry.setObjectName(f"rally_{target.id}")
                entry.triggered.connect(self._slot("coc.order", {"leader": unit.id, "unit": target.id,
                                                                 "order": "rally"}))
        self.orders.setMenu(orders)
        self.orders.setVisible(show_orders and not orders.isEmpty())

    def _slot(self, name: str, choices: dict[str, str]) -> Callable[[], None]:
        def act() -> None:
            try:
                self.session.act(name, choices)
            except (GameError, RulesInputError) as exc:
                self.problem.show_refusal(f"Not applied: {message_of(exc)}")
                return
            self.problem.clear()

        return act


FEATURE = Feature(
    "coc.activation",
    card_sections=(CardSection("coc.activation", activated_by_dice, ActivationSection, RULESETS),),
)
