"""The Direct fire dialog: a close-support unit fires its full FP or AT Dice at
one unit it can see, with the range, flank and movement modifiers; the
target's Reaction Check follows, and both go on as one undo step."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QGroupBox
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.model.game import GameError
from battletracker.rules import RulesInputError
from battletracker.rules.armour_battles import actions as ab_actions
from battletracker.rules.armour_battles.plans import direct_fire
from battletracker.rules.armour_battles.plans import map_sight
from battletracker.rules.armour_battles.plans import profile_of
from battletracker.rules.base import message_of
from battletracker.rules.tables import TableError
from battletracker.ui.features.armour_battles.common import MOVE_TITLES
from battletracker.ui.features.armour_battles.common import MapSight
from battletracker.ui.features.armour_battles.target_fire import TargetFire
from battletracker.ui.procedure_parts import FactsPanel
from battletracker.ui.procedure_parts import TargetPicker
from battletracker.ui.procedure_parts import UnitProcedureDialog
from battletracker.ui.procedure_runner import FirstOpening
from battletracker.ui.session import Session
from battletracker.ui.text import plain

if TYPE_CHECKING:
    from battletracker.ui.map.view import MapView


class DirectFireDialog(UnitProcedureDialog):
    """The shot and the target's Reaction Check, applied as one action.

    Not a PlannedActionDialog: two rolls in turn (the fire, then the Reaction Check with the Cover Dice it
    calls for) make one Apply, and the Line of Sight tick follows the map until the player overrules it.
    """
    first_opening = FirstOpening("armour_battles", 2, "Armour Battles direct fire", "ab.direct_fire", "stuh")

    def __init__(self, session: Session, firer_id: str, map_view: MapView | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(session, firer_id, map_view, parent, "Direct fire: {unit}", (1040, 760))
        firer = session.game.unit(firer_id)
        self.current: TargetFire | None = None
        self.applied = False

        self.target_picker = TargetPicker(map_view, f"Click the unit {firer.name} fires at",
                                          "Click the target on the map (Esc cancels)", self,
                                          empty="No unit to fire at")
        others = [unit for unit in session.game.units.values() if unit.id != firer_id and profile_of(unit) is not None]
        self.target_picker.set_units((unit.id, unit.name) for unit in others)
        enemy = next((unit.id for unit in others if unit.side != firer.side), None)
        if enemy is not None:
            self.target_picker.select(enemy)
        self.facts = FactsPanel(self)
        self.move_box = QComboBox(self)
        for key, text in MOVE_TITLES.items():
            self.move_box.addItem(text, key)
        self.los = QCheckBox("Line of sight to the target", self)
        self.los.setChecked(True)
        self.sight = MapSight(self.los, self)
        self.flank = QCheckBox("Firing at the target's flank or rear", self)
        self.opportunity = QCheckBox("Opportunity fire", self)
        form_box = QGroupBox("The shot", self)
        form = QFormLayout(form_box)
        form.addRow("Target", self.target_picker)
        form.addRow("From the table", self.facts)
        form.addRow("Firer's move", self.move_box)
        sight_row = QHBoxLayout()
        sight_row.addWidget(self.los)
        sight_row.addWidget(self.sight.reason, 1)
        form.addRow(sight_row)
        form.addRow(self.flank)
        form.addRow(self.opportunity)

        self.holder = QVBoxLayout()
        self.apply_button = QPushButton("&Apply", self)
        self.apply_button.setEnabled(False)
        self.apply_button.setToolTip("The target's suppression and Disruption as one undo step")
        self.status = plain(QLabel(self))
        self.status.setWordWrap(True)
        close = self.close_buttons()
        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(self.apply_button)
        layout = QVBoxLayout(self)
        layout.addWidget(form_box)
        layout.addLayout(self.holder, 1)
        layout.addLayout(bottom)
        layout.addWidget(close)

        self.target_picker.chosen.connect(lambda _unit_id: self._target_changed())
        self.target_picker.outside.connect(self._refuse_target)
        for box in (self.los, self.flank, self.opportunity):
            box.toggled.connect(self._rebuild)
        self.move_box.currentIndexChanged.connect(self._rebuild)
        self.sight.reason.editingFinished.connect(self._rebuild)
        self.apply_button.clicked.connect(self.apply)
        self._target_changed()

    @property
    def target_id(self) -> str | None:
        return self.target_picker.current()

    def set_target(self, unit_id: str) -> bool:
        """Fire at `unit_id` if it is a unit with combat numbers other than the firer."""
        return self.target_picker.select(unit_id)

    def _refuse_target(self, unit_id: str) -> None:
        """Say why the unit clicked on the map is not in the list of targets."""
        unit = self.session.game.units.get(unit_id)
        if unit_id == self.unit_id:
            self.status.setText(f"{self.unit_name} cannot fire at itself.")
        elif unit is not None:
            self.status.setText(f"{unit.name} has no combat numbers to fire at.")

    def choices(self, flank: bool = True) -> dict[str, str | bool]:
        """What the player picked; the flank tick is theirs once the table has set it for the target."""
        picked: dict[str, str | bool] = {
            "firer": self.unit_id, "target": self.target_id or "", "move": str(self.move_box.currentData()),
            **self.sight.choices(), "opportunity": self.opportunity.isChecked(),
        }
        if flank:
            picked["flank_or_rear"] = self.flank.isChecked()
        return picked

    def _target_changed(self) -> None:
        """A new target: from the table, whether the shot is at its flank or rear and whether it is seen."""
        if self.target_id is not None and self.unit_id in self.session.game.units:
            self.sight.follow(map_sight(self.session.game, self.unit_id, self.target_id))
        if self.target_id is not None:
            try:
                plan = direct_fire(self.session.game, {**self.choices(flank=False), "los": True,
                                                       "opportunity": False})
            except (RulesInputError, TableError):
                pass
            else:
                self.flank.blockSignals(True)
                self.flank.setChecked(bool(plan.inputs["flank_or_rear"]))
                self.flank.blockSignals(False)
        self._rebuild()

    def _rebuild(self) -> None:
        if self.current is not None:
            self.holder.removeWidget(self.current)
            self.current.deleteLater()
            self.current = None
        tid = self.target_id
        if tid is None:
            self.facts.set_note("No unit to fire at")
            return
        self.current = TargetFire(self.session, self.choices(), self)
        self.facts.set_facts(self.current.plan.facts if self.current.plan is not None else ())
        self.current.completed.connect(lambda _uid: self._progress())
        self.holder.addWidget(self.current)
        if self.current.refusal:
            self.current.fire.problem.show_refusal(self.current.refusal)
        self._progress()

    def _progress(self) -> None:
        ready = self.current is not None and not self.current.refusal and self.current.done
        self.apply_button.setEnabled(ready and not self.applied)
        if self.applied:
            self.status.setText("Applied.")
        elif self.current is not None and not ready and not self.current.refusal:
            self.status.setText("Roll the fire, then the target's Reaction Check.")
        else:
            self.status.setText("")

    def apply(self) -> bool:
        """Apply the fire and the Reaction Check as the one recorded action `ab.direct_fire`, with the dice shown."""
        t = self.current
        if t is None or self.applied or not t.done or t.fire.result is None or t.reaction.result is None:
            return False
        faces = [face for res in (t.fire.result, t.reaction.result) for _label, values in res.rolls
                 for face in values]
        try:
            self.session.act(ab_actions.DIRECT_FIRE, {**self.choices(), "cover": t.cover.value()}, faces,
                             typed=t.fire.typed_dice or t.reaction.typed_dice)
        except (GameError, RulesInputError) as exc:
            self.status.setText(f"Not applied: {message_of(exc)}")
            return False
        self.applied = True
        t.fire.mark_applied()
        t.reaction.mark_applied()
        for w in (self.target_picker, self.move_box, self.los, self.flank, self.opportunity):
            w.setEnabled(False)
        self._progress()
        return True
