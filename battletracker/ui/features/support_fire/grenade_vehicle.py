"""A grenade tossed into an enemy vehicle (`coc.grenade_into_vehicle`) from a Team beside it.

Offered to a Team on foot with an enemy vehicle within throwing reach. The
table is read by `plan_grenade_into_vehicle` (how the card lets the grenade
work, the Armour Dice of the face the Team sees, the passengers, the throw's
score from the ruleset setting); the dialog asks what the map cannot know
(the Team's dice, where the throw landed) and shows the plan's facts, odds
and result.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLabel,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from battletracker.core.geometry import distance
from battletracker.model.game import Unit
from battletracker.rules import RulesInputError
from battletracker.rules.base import message_of
from battletracker.rules.chain_of_command import shot_actions
from battletracker.rules.chain_of_command.activation import FIRE
from battletracker.rules.chain_of_command.anti_tank_plans import (
    THROWS,
    ShotPlan,
    ShotRefusal,
    face_seen,
    grenade_modes,
    plan_grenade_into_vehicle,
    throw_to_hit,
    vehicles_in_throw,
)
from battletracker.rules.chain_of_command.fire import MAX_DICE
from battletracker.rules.chain_of_command.fire_plans import small_arms_dice
from battletracker.ui.activation_parts import ActivationRow
from battletracker.ui.procedure_parts import FactsPanel, RefusalBanner, TargetPicker
from battletracker.ui.procedure_runner import NotOpened, ProcedureDialog, ProcedureRunner
from battletracker.ui.session import Session

if TYPE_CHECKING:
    from battletracker.ui.map.view import MapView

PROCEDURE = "coc.grenade_into_vehicle"
THROW_TITLES = {
    "roll": "Roll the throw (2D6)",
    "in": "The throw landed inside",
    "bullseye": "Landed inside with a Bullseye! (one 6)",
    "missed": "The throw missed",
}
MODE_TITLES = {"open_topped": "Into the open-topped vehicle or Transport", "apc_outside": "At the APC from outside"}


def outcome_label(outcome: str) -> str:
    """A short bar label: the vehicle's Shock, with the passengers' kills and Shock when they take any."""
    parts = dict(p.split("=", 1) for p in outcome.split() if "=" in p)
    if "vehicle_shock" not in parts:
        return outcome
    vehicle = f"{parts['vehicle_shock']} Shock"
    kills, shock = parts.get("kills", "0"), parts.get("shock", "0")
    return vehicle if kills == shock == "0" else f"{kills}k {shock}s, {vehicle}"


class GrenadeIntoVehicleDialog(ProcedureDialog):
    """Throw a grenade into a vehicle beside the Team: odds first, then one undo step."""
    first_opening = NotOpened("needs a team beside an enemy vehicle; the Fire dialog's runner")

    def __init__(self, session: Session, unit_id: str, map_view: MapView | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.unit_id = unit_id
        self.map_view = map_view
        self._applied = False
        self.shot: ShotPlan | None = None
        unit = session.game.unit(unit_id)
        self.setWindowTitle(f"Grenade into vehicle - {unit.name}")
        self.setMinimumSize(620, 720)

        self.target_picker = TargetPicker(map_view, "Click the vehicle the grenade is thrown at",
                                          "Click the vehicle on the map (Esc cancels)", self,
                                          empty="No enemy vehicle within throwing reach")
        here = (unit.x, unit.y)
        self.target_picker.set_units((vehicle.id, f'{vehicle.name}  -  {distance(here, (vehicle.x, vehicle.y)):.1f}"')
                                     for vehicle in vehicles_in_throw(session.game, unit))
        self.mode_box = QComboBox(self)
        self.dice_box = QSpinBox(self)
        self.dice_box.setRange(0, MAX_DICE)
        self.dice_box.setSuffix(" Firepower Dice")
        self.dice_box.setValue(small_arms_dice(unit))
        self.dice_box.setToolTip("The Team's Firepower Dice; the confined space and any Bullseye! add theirs")
        self.throw_box = QComboBox(self)
        for key in THROWS:
            self.throw_box.addItem(THROW_TITLES[key], key)
        self.to_hit_box = QSpinBox(self)
        self.to_hit_box.setRange(2, 12)
        self.to_hit_box.setPrefix("2D6 total ")
        self.to_hit_box.setSuffix("+")
        self.to_hit_box.setValue(throw_to_hit(session.game))
        self.to_hit_note = QLabel("The documents do not give this score: the ruleset setting's value, a default to "
                                  "check against your rulebook.", self)
        self.to_hit_note.setWordWrap(True)
        self.armour_box = QSpinBox(self)
        self.armour_box.setRange(0, MAX_DICE)
        self.armour_box.setSuffix(" Armour Dice")
        self.facts = FactsPanel(self)
        self.refusal = RefusalBanner(self)
        for label in (self.facts, self.refusal, self.to_hit_note):
            label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)

        self.activation = ActivationRow(self)
        self.form = QFormLayout()
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form.addRow(self.activation)
        self.form.addRow("&Vehicle", self.target_picker)
        self.form.addRow("&Grenade", self.mode_box)
        self.form.addRow("&Dice", self.dice_box)
        self.form.addRow("&Throw", self.throw_box)
        self.form.addRow("Throw &needs", self.to_hit_box)
        self.form.addRow("", self.to_hit_note)
        self.form.addRow("&Armour", self.armour_box)
        self.runner = ProcedureRunner(session, PROCEDURE, "Grenade into a vehicle", self, group=outcome_label)
        self.runner.applied.connect(self._on_applied)
        buttons = self.close_buttons()
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.facts)
        layout.addWidget(self.refusal)
        layout.addWidget(self.runner, 1)
        layout.addWidget(buttons)

        self.target_picker.chosen.connect(lambda _unit_id: self._vehicle_changed())
        self.target_picker.outside.connect(self._refuse_target)
        self.mode_box.currentIndexChanged.connect(self._mode_changed)
        for spin in (self.dice_box, self.to_hit_box, self.armour_box):
            spin.valueChanged.connect(self.update_inputs)
        self.throw_box.currentIndexChanged.connect(self.update_inputs)
        self.activation.changed.connect(self.update_inputs)
        session.changed.connect(self._on_changed)
        self._vehicle_changed()

    def vehicle(self) -> Unit | None:
        vehicle_id = self.target_picker.current()
        return self.session.game.units.get(vehicle_id) if vehicle_id is not None else None

    def set_target(self, unit_id: str) -> bool:
        """Throw at `unit_id` if it is a vehicle in reach; else say why not and keep the vehicle chosen."""
        if self.target_picker.select(unit_id):
            return True
        self._refuse_target(unit_id)
        return False

    def _refuse_target(self, unit_id: str) -> None:
        """Say why the unit clicked cannot take the grenade, in the rules' words; the chosen vehicle stays."""
        try:
            plan_grenade_into_vehicle(self.session.game, {**self.choices(), "target": unit_id, "mode": ""})
        except RulesInputError as exc:
            self.refusal.show_refusal(message_of(exc))
        else:
            name = self.session.game.units[unit_id].name if unit_id in self.session.game.units else unit_id
            self.refusal.show_refusal(f"{name} is not an enemy vehicle within throwing reach of the Team.")

    def _vehicle_changed(self) -> None:
        """Modes the card allows, the first preselected; the Armour Dice of the face the Team sees."""
        vehicle = self.vehicle()
        self.mode_box.blockSignals(True)
        self.mode_box.clear()
        if vehicle is not None and vehicle.vehicle is not None:
            for mode in grenade_modes(vehicle):
                self.mode_box.addItem(MODE_TITLES[mode], mode)
            face, armour = face_seen(self.session.game.unit(self.unit_id), vehicle)
            self.armour_box.blockSignals(True)
            self.armour_box.setValue(armour)
            self.armour_box.setToolTip(f"The {face} armour, the face the Team is beside")
            self.armour_box.blockSignals(False)
        self.mode_box.blockSignals(False)
        self._mode_changed()

    def _mode_changed(self) -> None:
        apc = self.mode_box.currentData() == "apc_outside"
        for widget in (self.throw_box, self.to_hit_box, self.to_hit_note):
            self.form.setRowVisible(widget, not apc)
        self.form.setRowVisible(self.armour_box, apc)
        self.update_inputs()

    def choices(self) -> dict[str, str | int]:
        """What the player picked, as the plan reads it."""
        out: dict[str, str | int] = {"firer": self.unit_id, "target": self.target_picker.current() or "",
                                     "mode": self.mode_box.currentData() or "",
                                     "firepower_dice": self.dice_box.value()}
        if self.mode_box.currentData() == "apc_outside":
            out["armour_dice"] = self.armour_box.value()
        else:
            out.update(throw=str(self.throw_box.currentData()), to_hit=self.to_hit_box.value())
        out.update(self.activation.choices())
        return out

    def update_inputs(self) -> None:
        """The plan's facts, then the exact odds, or why no grenade can be thrown."""
        self.shot = None
        vehicle = self.vehicle()
        if vehicle is None:
            self._refuse("No enemy vehicle within throwing reach of the Team.")
            return
        not_now = self.activation.update_for(self.session.game, self.unit_id, FIRE)
        try:
            shot = plan_grenade_into_vehicle(self.session.game, self.choices())
            if not_now is not None:
                raise ShotRefusal("firer", not_now)
        except RulesInputError as exc:
            self._refuse(message_of(exc))
            return
        self.shot = shot
        self.facts.set_facts(shot.facts)
        self.refusal.clear()
        self.runner.show()
        self._applied = False
        self.runner.title = f"{self.session.game.unit(self.unit_id).name} throws a grenade at {vehicle.name}"
        self.runner.set_action(shot_actions.GRENADE_INTO_VEHICLE, self.choices())
        self.runner.set_inputs(shot.inputs)

    def _refuse(self, message: str) -> None:
        self.refusal.show_refusal(message)
        self.runner.hide()

    def _on_applied(self, _res: object) -> None:
        """Keep the result in view; the next change to the game brings fresh odds from the card."""
        self._applied = True
        self.runner.result_view.append("<p><i>Applied: one step on the undo stack.</i></p>")

    def _on_changed(self, _changes: object) -> None:
        if self.unit_id not in self.session.game.units:
            self.close()
            return
        if self.runner.result is not None and not self._applied:
            return
        self.update_inputs()

    def done(self, result: int) -> None:
        with contextlib.suppress(RuntimeError, TypeError):
            self.session.changed.disconnect(self._on_changed)
        super().done(result)


def open_grenade_dialog(session: Session, unit_id: str, map_view: MapView | None = None,
                        parent: QWidget | None = None) -> GrenadeIntoVehicleDialog:
    dialog = GrenadeIntoVehicleDialog(session, unit_id, map_view, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
