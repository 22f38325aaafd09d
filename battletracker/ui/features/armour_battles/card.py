"""The Armour Battles rows on a unit card: FP/AT Dice, the range profile, and
Suppression and Disruption with undoable -/+ (each change one undo step with
its log line)."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QToolButton
from PySide6.QtWidgets import QWidget

from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.armour_battles.actions import DISRUPTION_POINTS
from battletracker.rules.armour_battles.actions import MOST_SUPPRESSED
from battletracker.rules.armour_battles.actions import SUPPRESSION
from battletracker.rules.armour_battles.actions import SUPPRESSION_TITLES
from battletracker.rules.armour_battles.actions import suppression_level
from battletracker.rules.armour_battles.data import RULESET
from battletracker.rules.armour_battles.fire import indirect_dice
from battletracker.rules.armour_battles.plans import int_setting
from battletracker.rules.armour_battles.plans import profile_of
from battletracker.rules.armour_battles.reaction import ARTILLERY_SUPPRESSED
from battletracker.rules.armour_battles.reaction import DISPERSED
from battletracker.rules.armour_battles.reaction import DISRUPTION
from battletracker.rules.armour_battles.reaction import SUPPRESSED
from battletracker.ui.cards.section import ActingSection
from battletracker.ui.extensions import CardSection
from battletracker.ui.features.armour_battles.common import indirect_multiplier
from battletracker.ui.session import Session


def _step_button(parent: QWidget, text: str, tip: str) -> QToolButton:
    b = QToolButton(parent)
    b.setText(text)
    b.setToolTip(tip)
    b.setAutoRaise(False)
    return b


class ArmourBattlesSection(ActingSection):
    """FP/AT Dice, ranges, Suppression and Disruption of one Armour Battles unit."""

    def __init__(self, parent: QWidget, session: Session, unit_id: str) -> None:
        super().__init__(parent, session, unit_id)
        self.dice = QLabel(self)
        self.dice.setWordWrap(True)
        self.ranges = QLabel(self)
        self.ranges.setWordWrap(True)
        self.suppression = QLabel(self)
        self.disruption = QLabel(self)
        self.sup_minus = _step_button(self, "-", "Lift one level of suppression (artillery, then normal)")
        self.sup_plus = _step_button(self, "+", "Suppress the unit (normal, then artillery)")
        self.dis_minus = _step_button(self, "-", "Remove a Disruption Point")
        self.dis_plus = _step_button(self, "+", "Add a Disruption Point")
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 2, 0, 2)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(2)
        grid.addWidget(self.dice, 0, 0, 1, 4)
        grid.addWidget(self.ranges, 1, 0, 1, 4)
        grid.addWidget(QLabel("Suppression", self), 2, 0)
        grid.addWidget(self.sup_minus, 2, 1)
        grid.addWidget(self.suppression, 2, 2)
        grid.addWidget(self.sup_plus, 2, 3)
        grid.addWidget(QLabel("Disruption", self), 3, 0)
        grid.addWidget(self.dis_minus, 3, 1)
        grid.addWidget(self.disruption, 3, 2)
        grid.addWidget(self.dis_plus, 3, 3)
        grid.addWidget(self.problem, 4, 0, 1, 4)
        grid.setColumnStretch(2, 1)
        self.sup_minus.clicked.connect(lambda: self.change_suppression(-1))
        self.sup_plus.clicked.connect(lambda: self.change_suppression(1))
        self.dis_minus.clicked.connect(lambda: self.change_disruption(-1))
        self.dis_plus.clicked.connect(lambda: self.change_disruption(1))

    def refresh(self, unit: Unit) -> None:
        profile = profile_of(unit)
        if profile is None:
            return
        dice = f"FP {profile.fp_dice}D · AT {profile.at_dice}D"
        if profile.close_support:
            fp, at = indirect_dice(profile.fp_dice, profile.at_dice)
            dice += f" (indirect {fp}D/{at}D)"
        self.dice.setText(dice + (" · armoured" if profile.armoured else " · soft"))
        ranges = f'Ranges {profile.ranges}"'
        if profile.close_support:
            ranges += f' · indirect {profile.ranges.short:g}"-{profile.ranges.indirect_long(indirect_multiplier()):g}"'
        self.ranges.setText(ranges)
        level = suppression_level(unit)
        self.suppression.setText(SUPPRESSION_TITLES[level])
        self.sup_minus.setEnabled(level > 0)
        self.sup_plus.setEnabled(level < MOST_SUPPRESSED)
        now = unit.counters.get(DISRUPTION, 0)
        cohesion = int_setting(self.session.game, "cohesion")
        text = f"{now} of {cohesion}"
        self.disruption.setText(text + (" - Dispersed" if unit.has(DISPERSED) else ""))
        self.dis_minus.setEnabled(now > 0)

    def change_suppression(self, delta: int) -> None:
        self.act(SUPPRESSION, {"unit": self.unit_id, "delta": delta})

    def change_disruption(self, delta: int) -> None:
        self.act(DISRUPTION_POINTS, {"unit": self.unit_id, "delta": delta})


def _applies(_game: Game, unit: Unit) -> bool:
    return profile_of(unit) is not None


SECTION = CardSection(
    "armour_battles", _applies, lambda parent, session, uid: ArmourBattlesSection(parent, session, uid),
    rulesets=(RULESET,), counters=(DISRUPTION,), conditions=(SUPPRESSED, ARTILLERY_SUPPRESSED, DISPERSED))
