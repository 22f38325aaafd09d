"""A grenade tossed into an enemy vehicle (`coc.grenade_into_vehicle`) from a Team beside it.

Offered to a Team on foot with an enemy vehicle within THROW_REACH. The
documents say the grenade is tossed into the vehicle but give no distance;
6" (centre to centre on the map) keeps the action to Teams close enough to
throw, and the player judges the last inch at the table. What the card says
decides how the grenade works: into an open-topped vehicle or a Transport
(`open_topped`, hits on the passengers and Shock from 6s), or against an APC
from outside (`apc_outside`, Armour Dice of the face the Team sees). A closed
AFV that is no APC is refused: that is the anti-tank grenade's work. The
throw's score comes from the ruleset setting, shown as a default to check,
or the player says where the throw landed.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from battletracker.core.geometry import aspect, distance
from battletracker.model.game import Game, Scalar, Unit
from battletracker.rules.chain_of_command.damage import later_shock_doubled
from battletracker.rules.chain_of_command.fire import MAX_DICE, RULESET
from battletracker.rules.tables import setting
from battletracker.ui.features.support_fire.plan import IMMOBILISED, default_quality, fire_weapons
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.session import Session

PROCEDURE = "coc.grenade_into_vehicle"
THROW_REACH = 6.0
THROW_SETTING = "grenade_throw_to_hit"
REFUSAL_STYLE = "color: white; background: #b3261e; padding: 4px; border-radius: 3px;"
THROW_CHOICES = (
    ("roll", "Roll the throw (2D6)"),
    ("in", "The throw landed inside"),
    ("bullseye", "Landed inside with a Bullseye! (one 6)"),
    ("missed", "The throw missed"),
)
MODE_TITLES = {"open_topped": "Into the open-topped vehicle or Transport", "apc_outside": "At the APC from outside"}


def outcome_label(outcome: str) -> str:
    """A short bar label: the vehicle's Shock, with the passengers' kills and Shock when they take any."""
    parts = dict(p.split("=", 1) for p in outcome.split() if "=" in p)
    if "vehicle_shock" not in parts:
        return outcome
    vehicle = f"{parts['vehicle_shock']} Shock"
    kills, shock = parts.get("kills", "0"), parts.get("shock", "0")
    return vehicle if kills == shock == "0" else f"{kills}k {shock}s, {vehicle}"


def vehicles_in_throw(game: Game, unit: Unit) -> list[Unit]:
    """Enemy vehicles within THROW_REACH of the Team, nearest first."""
    here = (unit.x, unit.y)
    near = [v for v in game.units.values()
            if v.vehicle is not None and v.side != unit.side and v.in_play
            and distance(here, (v.x, v.y)) <= THROW_REACH + 1e-9]
    return sorted(near, key=lambda v: (distance(here, (v.x, v.y)), v.name))


def can_throw_into_vehicle(game: Game, unit: Unit) -> bool:
    return unit.vehicle is None and unit.figures > 0 and bool(vehicles_in_throw(game, unit))


def grenade_modes(vehicle: Unit) -> list[str]:
    """How a grenade can hurt this vehicle, read from its card."""
    card = vehicle.vehicle
    if card is None:
        return []
    modes = []
    if card.open_topped or vehicle.stats.get("transport") is True:
        modes.append("open_topped")
    if card.category == "apc":
        modes.append("apc_outside")
    return modes


def passengers_of(game: Game, vehicle: Unit) -> list[Unit]:
    """Teams carried by the vehicle (`stats["embarked_in"]`), as the bombardment rules read them."""
    return [u for u in game.units.values()
            if u.stats.get("embarked_in") == vehicle.id and u.vehicle is None and u.in_play]


def throw_to_hit(game: Game) -> int:
    value = setting(RULESET, THROW_SETTING, game.settings)
    assert isinstance(value, int)
    return value


@dataclass(frozen=True)
class GrenadeChoice:
    """What the player sets: how the grenade works, its dice, the throw, the APC's Armour Dice."""

    mode: str
    firepower_dice: int
    throw: str = "roll"
    to_hit: int = 7
    armour_dice: int = 0


def grenade_inputs(game: Game, vehicle: Unit, choice: GrenadeChoice) -> dict[str, Scalar]:
    """The procedure's inputs for a grenade at `vehicle`: the card's Shock and damage, the passengers."""
    assert vehicle.vehicle is not None
    doubled = later_shock_doubled(vehicle.vehicle.category, vehicle.vehicle.damage)
    inputs: dict[str, Scalar] = {
        "firepower_dice": choice.firepower_dice, "vehicle": choice.mode, "vehicle_id": vehicle.id,
        "vehicle_current_shock": vehicle.shock, "vehicle_immobilised": doubled,
    }
    if choice.mode == "apc_outside":
        inputs["armour_dice"] = choice.armour_dice
        return inputs
    inputs[THROW_SETTING] = choice.to_hit
    if choice.throw != "roll":
        inputs["throw_hit"] = choice.throw != "missed"
        if choice.throw == "bullseye":
            inputs["bullseye_dice"] = 1
    carried = passengers_of(game, vehicle)
    if carried:
        inputs.update(passenger_teams=len(carried), range_band="close", target_quality=default_quality(carried[0]),
                      cover="open", target_ids=",".join(u.id for u in carried),
                      target_figures=",".join(str(u.figures) for u in carried))
    return inputs


class GrenadeIntoVehicleDialog(QDialog):
    """Throw a grenade into a vehicle beside the Team: odds first, then one undo step."""

    def __init__(self, session: Session, unit_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.unit_id = unit_id
        self._applied = False
        unit = session.game.unit(unit_id)
        self.setWindowTitle(f"Grenade into vehicle - {unit.name}")
        self.setMinimumSize(620, 720)

        self.vehicle_box = QComboBox(self)
        here = (unit.x, unit.y)
        for vehicle in vehicles_in_throw(session.game, unit):
            self.vehicle_box.addItem(f'{vehicle.name}  -  {distance(here, (vehicle.x, vehicle.y)):.1f}"', vehicle.id)
        self.mode_box = QComboBox(self)
        self.dice_box = QSpinBox(self)
        self.dice_box.setRange(0, MAX_DICE)
        self.dice_box.setSuffix(" Firepower Dice")
        ordinary = [fw.dice for fw in fire_weapons(unit) if fw.procedure == "coc.fire"]
        self.dice_box.setValue(ordinary[0] if ordinary else 1)
        self.dice_box.setToolTip("The Team's Firepower Dice; the confined space and any Bullseye! add theirs")
        self.throw_box = QComboBox(self)
        for key, title in THROW_CHOICES:
            self.throw_box.addItem(title, key)
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
        self.facts = QLabel(self)
        self.facts.setWordWrap(True)
        self.refusal = QLabel(self)
        self.refusal.setWordWrap(True)
        self.refusal.setStyleSheet(REFUSAL_STYLE)
        self.refusal.hide()
        for label in (self.facts, self.refusal, self.to_hit_note):
            label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)

        self.form = QFormLayout()
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form.addRow("&Vehicle", self.vehicle_box)
        self.form.addRow("&Grenade", self.mode_box)
        self.form.addRow("&Dice", self.dice_box)
        self.form.addRow("&Throw", self.throw_box)
        self.form.addRow("Throw &needs", self.to_hit_box)
        self.form.addRow("", self.to_hit_note)
        self.form.addRow("&Armour", self.armour_box)
        self.runner = ProcedureRunner(session, PROCEDURE, "Grenade into a vehicle", self, group=outcome_label)
        self.runner.applied.connect(self._on_applied)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.facts)
        layout.addWidget(self.refusal)
        layout.addWidget(self.runner, 1)
        layout.addWidget(buttons)

        self.vehicle_box.currentIndexChanged.connect(self._vehicle_changed)
        self.mode_box.currentIndexChanged.connect(self._mode_changed)
        for spin in (self.dice_box, self.to_hit_box, self.armour_box):
            spin.valueChanged.connect(self.update_inputs)
        self.throw_box.currentIndexChanged.connect(self.update_inputs)
        session.changed.connect(self._on_changed)
        self._vehicle_changed()

    def vehicle(self) -> Unit | None:
        vehicle_id = self.vehicle_box.currentData()
        return self.session.game.units.get(vehicle_id) if isinstance(vehicle_id, str) else None

    def _vehicle_changed(self) -> None:
        """Modes the card allows, the first preselected; the Armour Dice of the face the Team sees."""
        vehicle = self.vehicle()
        self.mode_box.blockSignals(True)
        self.mode_box.clear()
        if vehicle is not None and vehicle.vehicle is not None:
            for mode in grenade_modes(vehicle):
                self.mode_box.addItem(MODE_TITLES[mode], mode)
            unit = self.session.game.unit(self.unit_id)
            face = aspect((unit.x, unit.y), (vehicle.x, vehicle.y), vehicle.facing)
            self.armour_box.blockSignals(True)
            self.armour_box.setValue(vehicle.vehicle.armour.get(face, 0))
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

    def choice(self) -> GrenadeChoice:
        return GrenadeChoice(str(self.mode_box.currentData() or ""), self.dice_box.value(),
                             str(self.throw_box.currentData()), self.to_hit_box.value(), self.armour_box.value())

    def update_inputs(self) -> None:
        """The card's facts, then the exact odds, or why no grenade can be thrown."""
        vehicle = self.vehicle()
        if vehicle is None or vehicle.vehicle is None:
            self._refuse(f'No enemy vehicle within {THROW_REACH:g}" of the Team.')
            return
        if not grenade_modes(vehicle):
            self._refuse(f"{vehicle.name} is a closed {vehicle.vehicle.category.upper()}, neither open-topped nor an "
                         "APC: a grenade cannot be tossed inside (use Anti-tank grenade).")
            return
        choice = self.choice()
        carried = passengers_of(self.session.game, vehicle)
        facts = [f"{vehicle.name}: Shock {vehicle.shock}"
                 + (", immobilised" if IMMOBILISED in vehicle.vehicle.damage else "")
                 + (" (Shock doubled)" if later_shock_doubled(vehicle.vehicle.category, vehicle.vehicle.damage)
                    else "")]
        if choice.mode == "open_topped":
            facts.append("Passengers: " + (", ".join(f"{u.name} ({u.figures})" for u in carried) if carried
                                           else "none; only the 6s count, as Shock on the vehicle"))
            facts.append("+1 die for the confined space, +1 for a Bullseye!; every 6 is one Shock on the vehicle")
        else:
            facts.append("Every 6 penetrates (no Storm of Steel); each net hit after the Armour Dice is one Shock")
        self.facts.setText("; ".join(facts))
        self.refusal.hide()
        self.runner.show()
        self._applied = False
        unit = self.session.game.unit(self.unit_id)
        self.runner.title = f"{unit.name} throws a grenade at {vehicle.name}"
        self.runner.set_inputs(grenade_inputs(self.session.game, vehicle, choice))

    def _refuse(self, message: str) -> None:
        self.refusal.setText(message)
        self.refusal.show()
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


def open_grenade_dialog(session: Session, unit_id: str, parent: QWidget | None = None) -> GrenadeIntoVehicleDialog:
    dialog = GrenadeIntoVehicleDialog(session, unit_id, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
