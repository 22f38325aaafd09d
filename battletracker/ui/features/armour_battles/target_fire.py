"""One target's part of a direct fire: the FP or AT roll with its exact odds,
then the target's Reaction Check against what the roll scored.

What each roll is comes from the table (`rules.armour_battles.plans`); neither
roll is applied on its own: the dialog applies the Reaction's effects as one
undo step once the target is done.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QGroupBox
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QSpinBox
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.rules import Resolution
from battletracker.rules import RulesInputError
from battletracker.rules.armour_battles.plans import MAX_COVER_DICE
from battletracker.rules.armour_battles.plans import AbPlan
from battletracker.rules.armour_battles.plans import direct_fire
from battletracker.rules.armour_battles.plans import reaction
from battletracker.rules.base import message_of
from battletracker.rules.tables import TableError
from battletracker.ui.features.armour_battles.common import IN_THE_OPEN
from battletracker.ui.procedure_parts import FactsPanel
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.session import Session


def reaction_label(outcome: str) -> str:
    """"disruption=1 suppressed=yes" reads "1 D + S" (Disruption taken, and suppressed)."""
    parts = dict(part.split("=", 1) for part in outcome.split())
    return f"{parts.get('disruption', '?')} D" + (" + S" if parts.get("suppressed") == "yes" else "")


class TargetFire(QWidget):
    """The fire at one unit and its Reaction; `completed` once the Reaction has a result."""

    completed = Signal(str)  # target id

    def __init__(self, session: Session, choices: Mapping[str, object], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.choices = dict(choices)
        self.firer_id = str(choices["firer"])
        self.target_id = str(choices["target"])
        target = session.game.unit(self.target_id)
        self.target_name = target.name
        self.refusal = ""
        self.plan: AbPlan | None = None
        try:
            self.plan = direct_fire(session.game, choices)
        except (RulesInputError, TableError) as exc:
            self.refusal = message_of(exc)
        self.inputs = dict(self.plan.inputs) if self.plan is not None else {}
        self.dice_type = str(self.inputs.get("dice_type", "at" if target.stats.get("armoured") is True else "fp"))

        self.fire = ProcedureRunner(session, "ab.close_support_fire", "Direct fire", self)
        self.fire.apply_button.hide()
        self.cover = QSpinBox(self)
        self.cover.setRange(0, MAX_COVER_DICE)
        self.cover.setSuffix(" D")
        self.cover.setSpecialValueText(IN_THE_OPEN)
        self.cover.setToolTip("Cover Dice the target adds to its Reaction Check")
        self.key_label = QLabel("Bars: Disruption taken (D), and + S when the unit ends suppressed", self)
        self.key_label.setWordWrap(True)
        self.reaction = ProcedureRunner(session, "ab.reaction", "Reaction Check", self,
                                        group=reaction_label)
        self.reaction.apply_button.hide()
        # Letters of their own: Alt+R and Alt+E are the fire's; two buttons sharing one only move the focus.
        self.reaction.roll_button.setText("Roll the chec&k for me")
        self.reaction.typed_button.setText("Enter the check's &table dice")
        self.reaction.setEnabled(False)

        fire_box = QGroupBox(f"{self.dice_type.upper()} Dice against {target.name}", self)
        fire_layout = QVBoxLayout(fire_box)
        fire_layout.addWidget(self.fire)
        reaction_box = QGroupBox(f"{target.name}'s Reaction Check", self)
        reaction_layout = QVBoxLayout(reaction_box)
        form = QFormLayout()
        form.addRow("Cover Dice", self.cover)
        form.addRow(self.key_label)
        self.reaction_facts = FactsPanel(self)
        form.addRow(self.reaction_facts)
        reaction_layout.addLayout(form)
        reaction_layout.addWidget(self.reaction)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        rolls = QHBoxLayout()
        rolls.addWidget(fire_box, 1)
        rolls.addWidget(reaction_box, 1)
        layout.addLayout(rolls, 1)

        if self.plan is not None:
            self.fire.set_inputs(self.plan.inputs)
        else:
            self.fire.setEnabled(False)
        self.fire.resolved.connect(self._fired)
        self.reaction.resolved.connect(lambda _res: self.completed.emit(self.target_id))
        self.cover.valueChanged.connect(lambda _v: self._fired(self.fire.result) if self.fire.result else None)

    @property
    def plan_text(self) -> str:
        """The dice the shot rolls, as the table gives them ("FP 7D = 7D at 4+ against ...")."""
        return "" if self.plan is None else self.plan.facts[2]

    @property
    def done(self) -> bool:
        """Finished: the Reaction has a result, or the target could not be fired at."""
        return bool(self.refusal) or self.reaction.result is not None

    def _fired(self, res: Resolution | None) -> None:
        if res is None:
            return
        try:
            answer = reaction(self.session.game, {
                "firer": self.firer_id, "target": self.target_id, "mode": "direct",
                "incoming": int(res.values["successes"]), "incoming_sixes": int(res.values["sixes"]),
                "cover": self.cover.value()})
        except (RulesInputError, TableError) as exc:
            self.reaction_facts.set_facts(())
            self.reaction.problem.show_refusal(message_of(exc))
            return
        self.reaction_facts.set_facts(answer.facts)
        self.reaction.setEnabled(True)
        ok = self.reaction.set_inputs(answer.inputs)
        if ok and res.values["successes"] == 0:
            self.reaction.start_typed()  # nothing to roll: no check is made
