"""Chain of Command activation on a unit's card: whether it is activated this Phase, how, and the way to do it.

The card's row says "Not activated" or how it was ("Command Dice 2: fired"),
with an Activate button whose menu lists only the ways the rules allow now
(rules/chain_of_command/activation.py); a Leader activated this Phase shows
its Orders left and a menu of the units it may order or rally.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QMenu
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.chain_of_command.activation import RULESET
from battletracker.rules.chain_of_command.activation import activated_words
from battletracker.rules.chain_of_command.activation import current
from battletracker.rules.chain_of_command.activation import face_for
from battletracker.rules.chain_of_command.activation import is_leader
from battletracker.rules.chain_of_command.activation import kind_words
from battletracker.rules.chain_of_command.activation import order_targets
from battletracker.rules.chain_of_command.activation import ways
from battletracker.ui.cards.section import ActingSection
from battletracker.ui.extensions import CardSection
from battletracker.ui.extensions import Feature
from battletracker.ui.session import Session
from battletracker.ui.text import as_typed
from battletracker.ui.text import menu_name
from battletracker.ui.text import plain

RULESETS = (RULESET,)


def activated_by_dice(_game: Game, unit: Unit) -> bool:
    return face_for(unit) is not None


class ActivationSection(ActingSection):
    """The unit's activation this Phase, with Activate (and a Leader's Orders) as menus of what the rules allow."""

    def __init__(self, parent: QWidget, session: Session, unit_id: str) -> None:
        super().__init__(parent, session, unit_id)
        self.state = plain(QLabel(self))  # names the Leader whose Order activated the unit
        self.state.setObjectName("activation_state")
        self.activate = QPushButton("Activate", self)
        self.activate.setObjectName("activate")
        self.activate.setAutoDefault(False)
        self.orders = QPushButton("Orders", self)
        self.orders.setObjectName("orders")
        self.orders.setAutoDefault(False)
        activate_menu = QMenu(self.activate)
        activate_menu.aboutToShow.connect(lambda: self._fill_activate(activate_menu))
        self.activate.setMenu(activate_menu)
        orders_menu = QMenu(self.orders)
        orders_menu.aboutToShow.connect(lambda: self._fill_orders(orders_menu))
        self.orders.setMenu(orders_menu)
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
            words = f"Not activated: a {face_for(unit)} or an Order"
        self.state.setText(words)
        self.state.setToolTip(as_typed(f"{unit.name} acts once activated this Phase: a Command Dice {face_for(unit)} "
                                      f"({kind_words(unit)}), dice combined to it, or an activated Leader's Order"))
        options = ways(game, unit) if not self.session.replaying else []
        self.activate.setVisible(bool(options))
        act = current(game, unit)
        self.orders.setVisible(is_leader(unit) and act is not None and act.orders_left > 0
                               and not self.session.replaying)

    def _fill_activate(self, menu: QMenu) -> None:
        """The ways to activate the unit as the rules read the game when the menu opens."""
        menu.clear()
        unit = self.session.game.units.get(self.unit_id)
        options = ways(self.session.game, unit) if unit is not None else []
        for way in options:
            action = menu.addAction(f"With {menu_name(way.words)}")
            action.setObjectName(f"activate_{way.key}")
            action.triggered.connect(self._slot("coc.activate", {"unit": self.unit_id, "activation": way.key}))
        if not options:
            menu.addAction("No way to activate it now").setEnabled(False)

    def _fill_orders(self, menu: QMenu) -> None:
        """The Leader's Orders it may give now: activate a unit of its command in range, or rally its Shock."""
        menu.clear()
        game = self.session.game
        leader = game.units.get(self.unit_id)
        if leader is None:
            return
        for target in order_targets(game, leader, "activate"):
            entry = menu.addAction(f"Activate {menu_name(target.name)}")
            entry.setObjectName(f"order_{target.id}")
            entry.triggered.connect(self._slot("coc.order", {"leader": leader.id, "unit": target.id}))
        for target in order_targets(game, leader, "rally"):
            entry = menu.addAction(f"Rally Shock on {menu_name(target.name)} ({target.shock})")
            entry.setObjectName(f"rally_{target.id}")
            entry.triggered.connect(self._slot("coc.order", {"leader": leader.id, "unit": target.id,
                                                             "order": "rally"}))
        if menu.isEmpty():
            menu.addAction("No unit of its command in range").setEnabled(False)

    def _slot(self, name: str, choices: dict[str, str]) -> Callable[[], object]:
        """A menu entry's slot: the action, its refusal shown under the section."""
        return lambda: self.act(name, choices)


FEATURE = Feature(
    "coc.activation",
    card_sections=(CardSection("coc.activation", activated_by_dice, ActivationSection, RULESETS),),
)
