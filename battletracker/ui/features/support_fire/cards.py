"""What a Chain of Command card shows for snipers and guns.

A sniper's card counts the shots it has fired (each helps the enemy Team on
Overwatch spot it) and carries the Spotted toggle: until it is spotted the
sniper cannot be targeted and ignores Suppressing Fire. A gun with fewer than
three crew, attached Leaders included, cannot move; its card says so.
"""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.chain_of_command import fire_plans
from battletracker.rules.chain_of_command import guns
from battletracker.rules.chain_of_command import sniper_actions
from battletracker.rules.chain_of_command import snipers
from battletracker.ui.cards.section import ActingSection
from battletracker.ui.session import Session


def is_sniper(_game: Game, unit: Unit) -> bool:
    return fire_plans.is_sniper(unit)


def is_gun(_game: Game, unit: Unit) -> bool:
    return unit.kind == "gun"


class SniperSection(ActingSection):
    """Shots fired and the Spotted toggle, both through the session so they undo."""

    def __init__(self, parent: QWidget, session: Session, unit_id: str) -> None:
        super().__init__(parent, session, unit_id)
        self.shots = QLabel(self)
        self.shots.setWordWrap(True)
        self.spotted = QCheckBox("Spotted", self)
        self.spotted.setToolTip("Only a spotted sniper can be targeted and is affected by Suppressing Fire")
        self.contact = QPushButton("Contacted by enemy", self)
        self.contact.setToolTip("An enemy unit contacted the sniper's base: it leaves the area "
                                "(no Force Morale Test)")
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.spotted)
        row.addStretch(1)
        row.addWidget(self.contact)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.shots)
        layout.addLayout(row)
        layout.addWidget(self.problem)
        self.spotted.toggled.connect(self.set_spotted)
        self.contact.clicked.connect(self.contacted)

    def refresh(self, unit: Unit) -> None:
        shots = unit.counters.get(snipers.SHOTS_COUNTER, 0)
        bonus = snipers.spotting_bonus(shots)
        self.shots.setText(f"Shots fired: {shots}" + (f" (+{bonus} to the enemy's roll to spot it)" if bonus else ""))
        self.spotted.blockSignals(True)
        self.spotted.setChecked(unit.has(snipers.SPOTTED))
        self.spotted.blockSignals(False)

    def set_spotted(self, on: bool) -> None:
        unit = self.session.game.units.get(self.unit_id)
        if unit is None or unit.has(snipers.SPOTTED) == on:
            return
        self.act(sniper_actions.SPOTTED, {"unit": self.unit_id, "spotted": on})

    def contacted(self) -> None:
        if self.unit_id in self.session.game.units:
            self.act(sniper_actions.CONTACTED, {"unit": self.unit_id})


class GunCrewSection(QWidget):
    """The note that a gun short of crew stays where it is (it still fires inside its arc)."""

    def __init__(self, parent: QWidget, session: Session, unit_id: str) -> None:
        super().__init__(parent)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.note.setStyleSheet("font-weight: bold;")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note)

    def refresh(self, unit: Unit) -> None:
        short = not guns.gun_can_move(unit.figures)
        self.note.setText(f"Cannot move (fewer than {guns.FULL_CREW} crew: {unit.figures}); "
                          "still fires inside its arc" if short else "")
        self.setVisible(short)
