"""One target's part of a fire mission: the FP or AT roll with its exact odds,
then the target's Reaction Check against what the roll scored.

Neither roll is applied on its own: the dialog applies every target's
Reaction effects together, as one undo step, once each target is done.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFormLayout, QGroupBox, QHBoxLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from battletracker.model.game import GameError
from battletracker.rules import Resolution, RulesInputError
from battletracker.rules.armour_battles.fire import plan_fire
from battletracker.rules.armour_battles.plans import describe_fire
from battletracker.rules.armour_battles.reaction import DISRUPTION
from battletracker.rules.armour_battles.units import dice_type_for, fire_inputs, is_suppressed, reaction_dice
from battletracker.rules.tables import TableError
from battletracker.ui.features.armour_battles.common import scalars
from battletracker.ui.procedure_runner import ProcedureRunner, with_settings
from battletracker.ui.session import Session

MAX_COVER_DICE = 6


def fire_label(outcome: str) -> str:
    """Short bar labels so a dozen bars fit side by side: "successes=2" reads "2 hits"."""
    return outcome.replace("successes=", "") + " hits"


def reaction_label(outcome: str) -> str:
    """"disruption=1 suppressed=yes" reads "1 D + S" (Disruption taken, and suppressed)."""
    parts = dict(part.split("=", 1) for part in outcome.split())
    return f"{parts.get('disruption', '?')} D" + (" + S" if parts.get("suppressed") == "yes" else "")


class TargetFire(QWidget):
    """The fire at one unit and its Reaction; `completed` once the Reaction has a result."""

    completed = Signal(str)  # target id

    def __init__(self, session: Session, firer_id: str, target_id: str, mode: str,
                 shot: Mapping[str, str | int | float | bool], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.firer_id = firer_id
        self.target_id = target_id
        self.mode = mode
        game = session.game
        firer, target = game.unit(firer_id), game.unit(target_id)
        self.target_name = target.name
        self.dice_type = dice_type_for(target)
        self.refusal = ""
        self.plan_text = ""

        self.heading = QLabel(self)
        self.heading.setWordWrap(True)
        self.fire = ProcedureRunner(session, "ab.close_support_fire", f"{mode.capitalize()} fire", self,
                                    group=fire_label)
        self.fire.apply_button.hide()
        self.cover = QSpinBox(self)
        self.cover.setRange(0, MAX_COVER_DICE)
        self.cover.setSuffix(" D")
        self.cover.setToolTip("Cover Dice the target adds to its Reaction Check")
        self.key_label = QLabel("Bars: Disruption taken (D), and + S when the unit ends suppressed", self)
        self.key_label.setWordWrap(True)
        self.reaction = ProcedureRunner(session, "ab.reaction", "Reaction Check", self,
                                        group=reaction_label)
        self.reaction.apply_button.hide()
        self.reaction.setEnabled(False)

        fire_box = QGroupBox(f"{self.dice_type.upper()} Dice against {target.name}", self)
        fire_layout = QVBoxLayout(fire_box)
        fire_layout.addWidget(self.fire)
        reaction_box = QGroupBox(f"{target.name}'s Reaction Check", self)
        reaction_layout = QVBoxLayout(reaction_box)
        form = QFormLayout()
        form.addRow("Cover Dice", self.cover)
        form.addRow(self.key_label)
        reaction_layout.addLayout(form)
        reaction_layout.addWidget(self.reaction)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.heading)
        rolls = QHBoxLayout()
        rolls.addWidget(fire_box, 1)
        rolls.addWidget(reaction_box, 1)
        layout.addLayout(rolls, 1)

        try:
            self.inputs: dict[str, str | int | float | bool] = {
                **fire_inputs(firer, target, mode, float(shot["range"])), **shot,
            }
            self.reaction_dice = reaction_dice(target, mode)
        except (RulesInputError, TableError) as exc:
            self.inputs = {}
            self.reaction_dice = 0
            self.refusal = str(exc)
        self._show_plan()
        if not self.refusal:
            self.fire.set_inputs(self.inputs)
        else:
            self.fire.setEnabled(False)
        self.fire.resolved.connect(self._fired)
        self.reaction.resolved.connect(lambda _res: self.completed.emit(self.target_id))
        self.cover.valueChanged.connect(lambda _v: self._fired(self.fire.result) if self.fire.result else None)

    def _show_plan(self) -> None:
        if self.refusal:
            self.heading.setText(f"<b>{self.target_name}</b>: not fired at ({self.refusal})")
            return
        try:
            plan = plan_fire(scalars(with_settings(self.session, "ab.close_support_fire", self.inputs)))
        except (RulesInputError, TableError) as exc:
            self.refusal = str(exc)
            self.heading.setText(f"<b>{self.target_name}</b>: {exc}")
            return
        self.plan_text = describe_fire(plan)
        self.heading.setText(f"<b>{self.target_name}</b>: {self.plan_text} "
                             f"({plan.band} range, {plan.suppression} suppressions)")

    @property
    def done(self) -> bool:
        """Finished: the Reaction has a result, or the target could not be fired at."""
        return bool(self.refusal) or self.reaction.result is not None

    def _fired(self, res: Resolution | None) -> None:
        if res is None:
            return
        try:
            target = self.session.game.unit(self.target_id)
        except GameError:
            return
        self.reaction.setEnabled(True)
        ok = self.reaction.set_inputs({
            "reaction_dice": self.reaction_dice,
            "incoming": int(res.values["successes"]),
            "incoming_sixes": int(res.values["sixes"]),
            "suppression": str(res.values["suppression"]),
            "suppressed": is_suppressed(target),
            "cover_dice": self.cover.value(),
            "indirect": self.mode == "indirect",
            "disruption": target.counters.get(DISRUPTION, 0),
            "target_id": self.target_id,
            "firer_id": self.firer_id,
        })
        if ok and res.values["successes"] == 0:
            self.reaction.start_typed()  # nothing to roll: no check is made

    def log_lines(self) -> list[str]:
        """What the battle log keeps of this target: each roll, then the rules' own lines."""
        if self.refusal:
            return [f"{self.target_name}: not fired at ({self.refusal})."]
        lines: list[str] = []
        for res in (self.fire.result, self.reaction.result):
            if res is None:
                continue
            rolls = "; ".join(f"{label}: {' '.join(str(v) for v in values)}" for label, values in res.rolls)
            if rolls:
                lines.append(f"{self.target_name} - {rolls}")
            lines.extend(f"{self.target_name}: {line}" for line in res.log)
        return lines
