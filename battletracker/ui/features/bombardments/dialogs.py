"""The dialogs behind the Bombardments panel's buttons.

The dialogs only gather the player's choices: each is a named action
(rules/chain_of_command/bombardment_actions.py) whose plan reads the table.
Every roll goes through a `ProcedureRunner` (exact odds first, dice digital or
typed) whose Apply takes the action through `Session.act`, one recorded undo
step; the steps that roll nothing (the hidden die) take it directly.
The dialogs are not modal: the map stays usable while one is open.
Each unit's cover starts at the map's reading (its card's, else the area
terrain or building it stands in; a wall or hedge gives none from above);
a different cover takes an optional reason, logged with the roll.
"""

from __future__ import annotations

from fractions import Fraction

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QButtonGroup
from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QDoubleSpinBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QGridLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QRadioButton
from PySide6.QtWidgets import QScrollArea
from PySide6.QtWidgets import QSpinBox
from PySide6.QtWidgets import QTextBrowser
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.core import geometry
from battletracker.model.bombardment import Bombardment
from battletracker.model.effects import Changes
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.rules import RulesInputError
from battletracker.rules.actions import Plan
from battletracker.rules.actions import plan
from battletracker.rules.base import InputValue
from battletracker.rules.base import message_of
from battletracker.rules.chain_of_command.bombardment import PINNED
from battletracker.rules.chain_of_command.bombardment import carrier_of
from battletracker.rules.chain_of_command.bombardment import describe_pattern
from battletracker.rules.chain_of_command.bombardment import next_centre
from battletracker.rules.chain_of_command.bombardment import observer_name
from battletracker.rules.chain_of_command.bombardment import phases_words
from battletracker.rules.chain_of_command.bombardment import units_in_area
from battletracker.rules.chain_of_command.bombardment_data import RULESET
from battletracker.rules.chain_of_command.bombardment_data import data
from battletracker.rules.chain_of_command.bombardment_phase import activation_now
from battletracker.rules.chain_of_command.bombardment_phase import bombardment_cover
from battletracker.rules.chain_of_command.bombardment_phase import rolled_cover
from battletracker.rules.chain_of_command.bombardment_phase import target_chances
from battletracker.rules.chain_of_command.coc_points import coc_store
from battletracker.rules.chain_of_command.fire import cover_levels
from battletracker.rules.chain_of_command.ranging import bearing_die_faces
from battletracker.rules.chain_of_command.ranging import bearing_die_words
from battletracker.rules.chain_of_command.sos_fire import sos_targets
from battletracker.rules.tables import TableError
from battletracker.rules.tables import setting
from battletracker.rules.terrain import CoverReading
from battletracker.rules.terrain import TableIndex
from battletracker.ui.features.bombardments.parts import BombardmentWindow
from battletracker.ui.features.bombardments.parts import framed_note
from battletracker.ui.form_parts import PickFirstDialog
from battletracker.ui.map.bombardments import BombardmentLayer
from battletracker.ui.odds_plot import GroupFn
from battletracker.ui.procedure_parts import FactsPanel
from battletracker.ui.procedure_parts import RefusalBanner
from battletracker.ui.procedure_parts import TargetPicker
from battletracker.ui.procedure_parts import UnitPicking
from battletracker.ui.procedure_runner import FirstOpening
from battletracker.ui.procedure_runner import NotOpened
from battletracker.ui.procedure_runner import ProcedureDialog
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.procedure_runner import with_settings
from battletracker.ui.session import Session
from battletracker.ui.text import as_typed
from battletracker.ui.text import esc
from battletracker.ui.text import plain

ACTIVATION_CHOICES = (
    ("command_die", "Command Dice 1"),
    ("coc_point", "Chain of Command point"),
    ("none", "Neither: contact with the mortars is lost"),
)


def _numbers(outcome: str) -> dict[str, int]:
    """The counts in an outcome key such as "kills=2 shock=3 vehicle_shock=1" ("unstable" counts 1)."""
    out: dict[str, int] = {}
    for part in outcome.split():
        name, _, value = part.partition("=")
        out[name] = int(value) if value.isdigit() else 1
    return out


def kills_group(outcome: str) -> str:
    """The whole area's outcome by its kills, so the chart stays readable with many units in the area."""
    kills = _numbers(outcome).get("kills")
    return outcome.replace("_", " ") if kills is None else f"{kills} kill{'s' if kills != 1 else ''}"


CHANCE_WORDS = {"kills": "at least one kill", "vehicle_shock": "Shock on the vehicle",
                "unstable": "building made unstable"}


def summary(chances: tuple[tuple[str, Fraction], ...]) -> str:
    """One unit's odds in words: the chance of any kill, of Shock on its vehicle, of bringing its building down."""
    return ", ".join(f"{CHANCE_WORDS[key]} {float(p):.0%}" for key, p in chances) or "no effect"


def map_cover(session: Session, unit_id: str) -> CoverReading:
    """The unit's cover from the map against fire from above: the start of the player's choice."""
    return bombardment_cover(TableIndex(session.game), session.game.units[unit_id])


NO_CHANCES = "Each unit's chances show here once this Phase of fire can be made (the reason is above)."

class CoverRow:
    """One unit's place: its cover (the map's unless changed, with a reason), a wall or hedge as its only cover,
    left out."""

    def __init__(self, grid: QGridLayout, row: int, parent: QWidget, name: str, reading: CoverReading, *,
                 takes_cover: bool, can_leave_out: bool, pinned: bool = False) -> None:
        self.pinned = pinned
        self.reading = reading
        self.name = plain(QLabel(name, parent))
        self.rolled = QLabel(parent)
        self.rolled.setObjectName("rolled_cover")
        self.cover = QComboBox(parent)
        for level in cover_levels():
            self.cover.addItem(level.capitalize(), level)
        self.reason = QLineEdit(parent)
        self.reason.setPlaceholderText("why, if not the map's (logged)")
        self.linear = QCheckBox("Behind a linear obstacle", parent)
        self.linear.setToolTip("Its only cover is a wall, hedge or fence: no protection from fire falling from above")
        self.leave_out = QCheckBox("Leave this unit out", parent)
        self.leave_out.setToolTip("The players agree it is not under the bombardment")
        self.leave_out.setVisible(can_leave_out)
        self.cover.setEnabled(takes_cover)
        self.linear.setEnabled(takes_cover)
        if not takes_cover:
            self.cover.setToolTip("A vehicle or its passengers: cover does not change their dice")
        for column, widget in enumerate((self.name, self.cover, self.linear, self.leave_out, self.rolled,
                                         self.reason)):
            grid.addWidget(widget, row, column)
        self.leave_out.toggled.connect(lambda out: self._follow_leave_out(out, takes_cover))
        self.cover.currentIndexChanged.connect(lambda _i: self._show_rolled())
        self.linear.toggled.connect(lambda _on: self._show_rolled())
        self.set_reading(reading)

    def set_reading(self, reading: CoverReading) -> None:
        """Start the cover at the map's reading; its reason is the combo's tooltip."""
        self.reading = reading
        self.cover.blockSignals(True)
        self.cover.setCurrentIndex(max(0, self.cover.findData(reading.level)))
        self.cover.blockSignals(False)
        self.cover.setToolTip(as_typed(f"From the map: {reading.reason}"))
        self.reason.clear()
        self._show_rolled()

    def _show_rolled(self) -> None:
        """Say the cover the dice are rolled with when it is not the one chosen (Pinned, or behind a wall)."""
        rolled = rolled_cover(self.level, self.linear.isChecked(), self.pinned)
        why = "Pinned" if self.pinned and not self.linear.isChecked() else "only a wall or hedge"
        text = f"Rolled as {rolled.capitalize()} ({why})" if rolled != self.level and self.cover.isEnabled() else ""
        self.rolled.setText(text)
        self.rolled.setVisible(bool(text))
        self.reason.setVisible(self.cover.isEnabled() and self.level != self.reading.level)

    def _follow_leave_out(self, out: bool, takes_cover: bool) -> None:
        self.cover.setEnabled(takes_cover and not out)
        self.linear.setEnabled(takes_cover and not out)
        self._show_rolled()

    @property
    def level(self) -> str:
        return str(self.cover.currentData())


def _cover_box(parent: QWidget) -> tuple[QScrollArea, QWidget, QGridLayout]:
    holder = QWidget(parent)
    grid = QGridLayout(holder)
    grid.setContentsMargins(0, 0, 0, 0)
    grid.setColumnStretch(0, 1)
    scroll = QScrollArea(parent)
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QScrollArea.Shape.NoFrame)
    scroll.setWidget(holder)
    scroll.setMaximumHeight(170)
    return scroll, holder, grid


class _RunnerDialog(ProcedureDialog):
    """A dialog around one ProcedureRunner that closes itself once the result is applied."""

    def __init__(self, session: Session, procedure: str, title: str, parent: QWidget | None,
                 group: GroupFn | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWindowTitle(title)
        self.setMinimumSize(640, 720)
        self.intro = QLabel(self)
        self.intro.setWordWrap(True)
        self.facts = FactsPanel(self)
        self.form = QFormLayout()
        self.problem = RefusalBanner(self)
        self.runner = ProcedureRunner(session, procedure, title, self, group=group)
        close = self.close_buttons()
        self.body = QVBoxLayout(self)
        self.body.addWidget(self.intro)
        self.body.addWidget(self.facts)
        self.body.addLayout(self.form)
        self.body.addWidget(self.problem)
        self.body.addWidget(self.runner, 1)
        self.body.addWidget(close)
        self.runner.applied.connect(lambda _res: self.accept())

    def show_plan(self, planned: Plan) -> None:
        """The plan is accepted: show what it read from the table, and no refusal."""
        self.facts.set_facts(planned.facts)
        self.show_problem(None)

    def show_problem(self, text: str | None) -> None:
        if text:
            self.facts.set_facts(())
            self.problem.show_refusal(text)
        else:
            self.problem.clear()
        self.runner.setEnabled(not text)

    def follow_clock(self) -> None:
        """Check the inputs again at End Phase / End Turn and when the side's dice change (a Command Dice roll):
        the Forward Observer acts only in its side's Phase, activated by a held 1 or a Chain of Command point."""
        self.session.changed.connect(self._on_changed)

    def _on_changed(self, changes: Changes) -> None:
        if changes.clock or changes.sides or changes.everything:
            self.update_inputs()

    def update_inputs(self) -> None:
        """Build the procedure's inputs from the game and the dialog's choices (each dialog says how)."""


def observer_activation_box(parent: QWidget) -> QComboBox:
    """The Forward Observer's activation: what the side holds (a 1 first), or the player's pick."""
    box = QComboBox(parent)
    box.setObjectName("observer_activation")
    box.addItem("What the side holds: a Command Dice 1, else a Chain of Command point", "")
    box.addItem("A Command Dice 1", "command_die")
    box.addItem("A Chain of Command point", "coc_point")
    box.setToolTip("Each activation of the Forward Observer spends a held Command Dice 1 or one Chain of Command "
                   "point, once the side has rolled its Command Dice this Phase")
    return box


class RangingDialog(_RunnerDialog):
    """`coc.ranging_shot` for one bombardment: 2D6 with its +1s, deviation and bearing.

    While the typed dice wait for the direction die, `layer` draws that die's
    faces round the aiming point on the map, gone once it is entered or the
    dialog closes.
    """
    first_opening = FirstOpening("bombardment", 2, "Ranging shot", "ranging")

    def __init__(self, session: Session, bombardment_id: str, parent: QWidget | None = None,
                 layer: BombardmentLayer | None = None) -> None:
        b = session.game.bombardments[bombardment_id]
        name = observer_name(session.game, b)
        super().__init__(session, "coc.ranging_shot", f"{name}: ranging shot", parent)
        self.bombardment_id = bombardment_id
        self.layer = layer
        self.intro.setText(f"<b>{esc(name)}</b> ranges in: ranging shots use no Phases of fire.")
        self.set_bearing = QCheckBox("Set the deviation bearing", self)
        self.set_bearing.setToolTip("Otherwise a die gives the direction of a deviating shot")
        self.bearing = QDoubleSpinBox(self)
        self.bearing.setRange(0.0, 359.9)
        self.bearing.setDecimals(1)
        self.bearing.setSuffix(" degrees (0 = up the map, clockwise)")
        self.bearing.setEnabled(False)
        self.form.addRow(self.set_bearing, self.bearing)
        self.bearing_note = QLabel(bearing_die_words(session.game.settings), self)
        self.bearing_note.setObjectName("ranging_bearing_note")
        self.bearing_note.setWordWrap(True)
        self.form.addRow(self.bearing_note)
        self.activation = observer_activation_box(self)
        self.form.addRow("Activation", self.activation)
        self.activation.currentIndexChanged.connect(lambda _i: self.update_inputs())
        self.set_bearing.toggled.connect(self.bearing.setEnabled)
        self.set_bearing.toggled.connect(lambda _on: self.update_inputs())
        self.bearing.valueChanged.connect(lambda _v: self.update_inputs())
        self.runner.die_asked.connect(self._show_die_faces)
        self.follow_clock()
        self.update_inputs()

    def _show_die_faces(self, asked: str) -> None:
        if self.layer is None:
            return
        faces = bearing_die_faces(self.runner.inputs(), asked) if asked else None
        if faces is None:
            self.layer.forget_bearing_die()
        else:
            self.layer.show_bearing_die(*faces)

    def done(self, result: int) -> None:
        """Close; the direction die's faces leave the map with the dialog."""
        if self.layer is not None:
            self.layer.forget_bearing_die()
        super().done(result)

    def update_inputs(self) -> None:
        choices: dict[str, InputValue] = {"bombardment": self.bombardment_id}
        if self.activation.currentData():
            choices["activation"] = str(self.activation.currentData())
        if self.set_bearing.isChecked():
            choices["bearing"] = self.bearing.value()
        try:
            planned = plan("coc.ranging_shot", self.session.game, choices)
        except RulesInputError as exc:
            self.show_problem(message_of(exc))
            return
        self.show_plan(planned)
        self.runner.set_action("coc.ranging_shot", choices)
        self.runner.set_inputs(dict(planned.inputs))


class PhaseDialog(_RunnerDialog):
    """`coc.bombardment_phase`: activation, every unit in the area with its own odds, then the dice."""
    first_opening = FirstOpening("bombardment", 1, "Phase of fire", "phase")

    def __init__(self, session: Session, bombardment_id: str, parent: QWidget | None = None) -> None:
        b = session.game.bombardments[bombardment_id]
        name = observer_name(session.game, b)
        super().__init__(session, "coc.bombardment_phase", f"{name}: Phase of fire", parent, kills_group)
        self.setMinimumSize(680, 820)
        self.bombardment_id = bombardment_id
        self.begun = b.state == "ready"
        self.cover_rows: dict[str, CoverRow] = {}
        self.intro.setText(f"<b>{esc(name)}</b> fires on every unit in its area.")
        self.targets_view = QTextBrowser(self)
        self.targets_view.setMinimumHeight(80)
        self.targets_view.setMaximumHeight(150)
        self.activation_group = QButtonGroup(self)
        self.activation_buttons: dict[str, QRadioButton] = {}
        holder = QWidget(self)
        column = QVBoxLayout(holder)
        column.setContentsMargins(0, 0, 0, 0)
        if self.begun:
            column.addWidget(QLabel("The Forward Observer's activation that began the bombardment counts.", holder))
        else:
            store = coc_store(session.game, b.side)
            points = int(store.can_spend_point)
            for key, text in ACTIVATION_CHOICES:
                label = f"{text} ({store.words()})" if key == "coc_point" else text
                button = QRadioButton(label, holder)
                self.activation_group.addButton(button)
                self.activation_buttons[key] = button
                column.addWidget(button)
                button.toggled.connect(self._on_toggled)
            self.activation_buttons[self._held_activation(session, b, points)].setChecked(True)
        self.form.addRow("Activation", holder)
        cover_box, holder, grid = _cover_box(self)
        for row, unit_id in enumerate(units_in_area(session.game, b, next_centre(b))):
            unit = session.game.units[unit_id]
            infantry = unit.vehicle is None and carrier_of(session.game, unit) is None
            self.cover_rows[unit_id] = CoverRow(grid, row, holder, unit.name,
                                                map_cover(session, unit_id), takes_cover=infantry,
                                                can_leave_out=True, pinned=unit.has(PINNED))
        for cover_row in self.cover_rows.values():
            cover_row.cover.currentIndexChanged.connect(lambda _i: self.update_inputs())
            cover_row.linear.toggled.connect(lambda _on: self.update_inputs())
            cover_row.leave_out.toggled.connect(lambda _on: self.update_inputs())
            cover_row.reason.textChanged.connect(lambda _t: self.update_inputs())
        self.body.insertWidget(4, QLabel("<b>Where each unit is</b> (cover from the map; change it if the table "
                                         "differs)", self))
        self.body.insertWidget(5, cover_box)
        self.body.insertWidget(6, QLabel("<b>Under the bombardment</b> (each unit's own chances)", self))
        self.body.insertWidget(7, self.targets_view)
        cover_box.setVisible(bool(self.cover_rows) and b.kind == "high_explosive")
        self.follow_clock()
        self.update_inputs()

    def _on_toggled(self, on: bool) -> None:
        if on:
            self.update_inputs()

    @staticmethod
    def _held_activation(session: Session, b: Bombardment, points: int) -> str:
        """The activation the side's dice allow now: a held 1 first, else a Chain of Command point, else none.

        Before this Phase's Command Dice are rolled the rules cannot say; the
        Command Dice 1 is offered and the plan asks for the roll first.
        """
        try:
            found = activation_now(session.game, b, spend_coc_point=False)
        except RulesInputError:
            return "command_die"
        if found == "none" and points > 0:
            return "coc_point"
        return found if found in ("command_die", "none") else "command_die"

    @property
    def activation(self) -> str:
        if self.begun:
            return "begun"
        for key, button in self.activation_buttons.items():
            if button.isChecked():
                return key
        return "command_die"

    def choices(self) -> dict[str, InputValue]:
        """The player's choices for the action `coc.bombardment_phase`: activation and each unit's place."""
        choices: dict[str, InputValue] = {"bombardment": self.bombardment_id, "activation": self.activation}
        for unit_id, row in self.cover_rows.items():
            choices[f"cover.{unit_id}"] = row.level
            if row.level != row.reading.level and row.reason.text().strip():
                choices[f"cover_reason.{unit_id}"] = row.reason.text().strip()
            if row.linear.isChecked():
                choices[f"linear.{unit_id}"] = True
            if row.leave_out.isChecked():
                choices[f"leave_out.{unit_id}"] = True
        return choices

    def set_activation(self, key: str) -> None:
        self.activation_buttons[key].setChecked(True)

    def update_inputs(self) -> None:
        choices = self.choices()
        try:
            planned = plan("coc.bombardment_phase", self.session.game, choices)
        except RulesInputError as exc:
            self.show_problem(message_of(exc))
            self.targets_view.setPlainText(NO_CHANCES)
            return
        inputs = dict(planned.inputs)
        self.show_plan(planned)
        self.runner.set_action("coc.bombardment_phase", choices)
        if self.runner.set_inputs(inputs):
            self._show_targets(inputs)
        else:
            self.targets_view.setPlainText(NO_CHANCES)

    def _show_targets(self, inputs: dict[str, InputValue]) -> None:
        merged = with_settings(self.session, "coc.bombardment_phase", inputs)
        try:
            per_unit = target_chances({k: v for k, v in merged.items() if isinstance(v, str | int | float | bool)})
        except (RulesInputError, TableError) as exc:
            self.targets_view.setPlainText(message_of(exc))
            return
        if self.activation == "none":
            self.targets_view.setHtml("<p>No Phase of fire: the bombardment ends and its effects end with "
                                      "this Phase.</p>")
            return
        if not per_unit:
            self.targets_view.setHtml("<p>No unit or empty brick or stone building is in the area.</p>")
            return
        rows = [f"<li><b>{esc(name)}</b>: {esc(summary(chances))}</li>" for name, chances in per_unit]
        self.targets_view.setHtml(f"<ul>{''.join(rows)}</ul>")


class SosDialog(_RunnerDialog):
    """`coc.sos_fire` against each unit in the SOS circle, one after another (each Apply one undo step)."""
    first_opening = NotOpened("needs SOS Fire called; the Phase of fire dialog's runner")

    def __init__(self, session: Session, sos_id: str, map_view: UnitPicking | None = None,
                 parent: QWidget | None = None) -> None:
        b = session.game.bombardments[sos_id]
        name = observer_name(session.game, b)
        super().__init__(session, "coc.sos_fire", f"{name}: SOS Fire", parent, kills_group)
        self.runner.applied.disconnect()
        self.runner.applied.connect(self._next_after_apply)
        self.sos_id = sos_id
        self.target_picker = TargetPicker(map_view, "Click the unit in the SOS circle to roll for",
                                          "Click the unit on the map (Esc cancels)", self,
                                          empty="Nothing left to roll for")
        self.form.addRow("Target", self.target_picker)
        cover_box, holder, grid = _cover_box(self)
        cover_box.setMaximumHeight(70)
        self.cover_row = CoverRow(grid, 0, holder, "", CoverReading(cover_levels()[0], ""), takes_cover=True,
                                  can_leave_out=False)
        self.cover_row.name.hide()
        grid.setColumnStretch(0, 0)
        grid.setColumnStretch(3, 1)
        self.fortification = QCheckBox("In a fortification or entrenchment", self)
        self.fortification.setToolTip("Not Pinned afterwards, like a unit in a building")
        grid.addWidget(self.fortification, 1, 1, 1, 2)
        self.form.addRow("Where it is", cover_box)
        self.cover_row.cover.currentIndexChanged.connect(lambda _i: self.update_inputs())
        self.cover_row.linear.toggled.connect(lambda _on: self.update_inputs())
        self.cover_row.reason.textChanged.connect(lambda _t: self.update_inputs())
        self.fortification.toggled.connect(lambda _on: self.update_inputs())
        self.fired_at: set[str] = set()
        self.done_note = framed_note(self, "sos_done")
        self.body.insertWidget(4, self.done_note)
        self.intro.setText(f"<b>{esc(name)}</b>: each Team and AFV/APC inside the circle is rolled for in turn, "
                           "then everything not in a building, entrenchment or fortification is Pinned for this "
                           "Phase and the next.")
        self.target_picker.chosen.connect(lambda _unit_id: self._target_changed())
        self.target_picker.outside.connect(self._refuse_target)
        self._fill()

    def _fill(self) -> None:
        game = self.session.game
        self.target_picker.set_units((unit_id, game.units[unit_id].name) for unit_id in sos_targets(game, self.sos_id)
                                     if unit_id not in self.fired_at)
        done = not self.target_picker.units()
        self.done_note.setText("Every Team and AFV/APC inside the circle has been rolled for." if self.fired_at
                               else "No Team or AFV/APC is inside the circle: there is nothing to roll for.")
        self.done_note.setVisible(done)
        self.runner.setEnabled(not done)
        self.target_picker.setEnabled(not done)
        if not done:
            self._target_changed()

    def _refuse_target(self, unit_id: str) -> None:
        """Say why the unit clicked on the map is not rolled for now; the chosen target stays."""
        unit = self.session.game.units.get(unit_id)
        if unit is None:
            return
        if unit_id in self.fired_at:
            self.problem.show_refusal(f"{unit.name} has been rolled for already.")
        else:
            self.problem.show_refusal(f"{unit.name} is not a Team or AFV/APC inside the SOS circle.")

    def _target_changed(self) -> None:
        """A new target starts from its cover on the map, behind no wall and outside any fortification."""
        unit_id = self.target_picker.current()
        if unit_id is None:
            return
        vehicle = self.session.game.units[unit_id].vehicle is not None
        for box in (self.cover_row.linear, self.fortification):
            box.blockSignals(True)
            box.setChecked(False)
            box.blockSignals(False)
        self.cover_row.set_reading(map_cover(self.session, unit_id))
        for widget in (self.cover_row.cover, self.cover_row.linear, self.fortification):
            widget.setEnabled(not vehicle)
        self.update_inputs()

    def choices(self) -> dict[str, InputValue]:
        """The player's choices for the action `coc.sos_fire`: the target and where it is."""
        return {"bombardment": self.sos_id, "target": self.target_picker.current() or "",
                "cover": self.cover_row.level, "cover_reason": self.cover_row.reason.text().strip(),
                "linear_obstacle": self.cover_row.linear.isChecked(),
                "in_fortification": self.fortification.isChecked()}

    def update_inputs(self) -> None:
        unit_id = self.target_picker.current()
        if unit_id is None:
            return
        choices = self.choices()
        try:
            planned = plan("coc.sos_fire", self.session.game, choices)
        except RulesInputError as exc:
            self.show_problem(message_of(exc))
            return
        inputs = dict(planned.inputs)
        self.show_plan(planned)
        self.runner.set_action("coc.sos_fire", choices)
        self.runner.set_inputs(inputs)
        self.runner.title = f"{observer_name(self.session.game, self.session.game.bombardments[self.sos_id])}: " \
                            f"SOS Fire at {self.session.game.units[unit_id].name}"

    def _next_after_apply(self, _res: object) -> None:
        unit_id = self.target_picker.current()
        if unit_id is not None:
            self.fired_at.add(unit_id)
        self._fill()


class PatternDialog(BombardmentWindow):
    """The owner's hidden Static/Rolling D6 and, for a rolling bombardment, the table edge it runs along."""

    def __init__(self, session: Session, bombardment_id: str, parent: QWidget | None = None) -> None:
        super().__init__(session, bombardment_id, parent, "hidden Static or Rolling die", 460)
        intro = QLabel(f"Only the <b>{esc(self.owner())}</b> player should look: the die stays "
                       "covered in the app until the second Phase of fire reveals it.", self)
        intro.setWordWrap(True)
        self.face = QComboBox(self)
        for face in range(1, 7):
            self.face.addItem(describe_pattern(face, "along the edge chosen below"), face)
        self.direction = QComboBox(self)
        for key, bearing in geometry.EDGE_DIRECTIONS.items():
            self.direction.addItem(f"{key} the map (bearing {bearing:g})", key)
        self.problem = RefusalBanner(self)
        form = QFormLayout()
        form.addRow("Die", self.face)
        form.addRow("Rolling direction", self.direction)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Place the die hidden")
        buttons.accepted.connect(self.place)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        self.face.currentIndexChanged.connect(lambda _i: self._sync())
        self._sync()

    def _rolling(self) -> bool:
        face = self.face.currentData()
        return isinstance(face, int) and data().pattern.rate(face) > 0

    def _sync(self) -> None:
        self.direction.setEnabled(self._rolling())

    def choose(self, face: int, direction: str | None) -> None:
        self.face.setCurrentIndex(face - 1)
        if direction is not None:
            self.direction.setCurrentIndex(list(geometry.EDGE_DIRECTIONS).index(direction))

    def place(self) -> None:
        face = int(self.face.currentData())
        direction = str(self.direction.currentData()) if self._rolling() else None
        choices: dict[str, InputValue] = {"bombardment": self.bombardment_id, "face": face}
        if direction is not None:
            choices["direction"] = direction
        try:
            self.session.act("coc.hidden_die", choices)
        except (RulesInputError, GameError) as exc:
            self.problem.show_refusal(message_of(exc))
            return
        self.accept()


def side_box(game: Game, parent: QWidget) -> QComboBox:
    """The sides to choose from, the side whose Phase it is first chosen."""
    box = QComboBox(parent)
    for i, side in enumerate(game.sides):
        box.addItem(side.name, i)
    box.setCurrentIndex(max(0, min(game.active_side, len(game.sides) - 1)))
    return box


class SosSideDialog(PickFirstDialog):
    """Which side calls SOS Fire, asked before the centre is picked on the map."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent, "SOS Fire", 380, "Pick the centre")
        self.side = side_box(session.game, self)
        self.form.addRow("Called by", self.side)
        note = QLabel(f"Next: click the centre of the {data().sos_radius:g}\" circle on the map (Esc cancels).",
                      self)
        note.setWordWrap(True)
        self.finish(note)


class NewBombardmentDialog(PickFirstDialog):
    """Who calls the mortars, high explosive or smoke, and the Forward Observer's die of Phases."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent, "New bombardment", 420, "Pick the aiming point")
        game = session.game
        self.side = side_box(game, self)
        self.kind = QComboBox(self)
        self.kind.addItem("High explosive", "high_explosive")
        self.kind.addItem("Smoke", "smoke")
        self.phases = QSpinBox(self)
        self.phases.setRange(1, 6)
        value = setting(RULESET, "bombardment_phases", game.settings)
        self.phases.setValue(int(value) if isinstance(value, int | float) else 1)
        self.phases.setSuffix(" Phases of fire")
        self.form.addRow("Side", self.side)
        self.form.addRow("Rounds", self.kind)
        self.form.addRow("Forward Observer's die", self.phases)
        self.phases_note = QLabel(phases_words(game), self)
        self.phases_note.setObjectName("bombardment_phases_note")
        self.phases_note.setWordWrap(True)
        self.form.addRow(self.phases_note)
        note = QLabel("Next: click the aiming point on the map, then where the Forward Observer stands "
                      "(Esc cancels).", self)
        note.setWordWrap(True)
        self.finish(note)
        self.setWindowModality(Qt.WindowModality.NonModal)
