"""The Fire dialog: a Chain of Command team or vehicle fires its weapon at an infantry target.

Opened from the firer. The weapon decides the procedure (tripod MG, sniper,
flamethrower, gun H.E., or the unit's Firepower Dice); the target comes from
the map or the list. The dialog only gathers the player's choices (troop
quality and what the table cannot know); `fire_plans.plan_fire` reads the
rest from the table (range, band, arc, dice after losses, fuel, a spotted
sniper, cover and Line of Sight from the terrain) or refuses with a sentence.
The cover starts at the table's reading; a different cover, or Line of
Sight the map does not see, is the player's override with an optional
reason, logged with the shot; so does each further Team's cover when the
hits are shared ("Also at"). The ProcedureRunner shows the exact odds
of the plan's procedure before the roll and applies exactly what it resolves
as one undo step. The dialog is not modal, so the map stays usable for
picking.
"""

from __future__ import annotations

import contextlib

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QSizePolicy
from PySide6.QtWidgets import QSpinBox
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.model.game import Unit
from battletracker.rules import Resolution
from battletracker.rules.base import InputValue
from battletracker.rules.base import Refusal
from battletracker.rules.chain_of_command import flamethrowers
from battletracker.rules.chain_of_command import guns
from battletracker.rules.chain_of_command import shot_actions
from battletracker.rules.chain_of_command import snipers
from battletracker.rules.chain_of_command.activation import FIRE
from battletracker.rules.chain_of_command.anti_tank_plans import ShotPlan
from battletracker.rules.chain_of_command.anti_tank_plans import ShotRefusal
from battletracker.rules.chain_of_command.fire import MAX_DICE
from battletracker.rules.chain_of_command.fire import QUALITIES
from battletracker.rules.chain_of_command.fire import cover_levels
from battletracker.rules.chain_of_command.fire_plans import PROCEDURE_TITLES
from battletracker.rules.chain_of_command.fire_plans import SHARED_HITS
from battletracker.rules.chain_of_command.fire_plans import FireWeapon
from battletracker.rules.chain_of_command.fire_plans import default_cover
from battletracker.rules.chain_of_command.fire_plans import default_quality
from battletracker.rules.chain_of_command.fire_plans import default_target_kind
from battletracker.rules.chain_of_command.fire_plans import extra_target_candidates
from battletracker.rules.chain_of_command.fire_plans import fire_weapons
from battletracker.rules.chain_of_command.fire_plans import plan_fire
from battletracker.rules.chain_of_command.fire_plans import target_teams
from battletracker.rules.chain_of_command.fire_plans import targets_for
from battletracker.rules.chain_of_command.machine_guns import frontage_between
from battletracker.rules.targets import centre_to_centre
from battletracker.ui.activation_parts import ActivationRow
from battletracker.ui.map.items import line_item
from battletracker.ui.map.view import MapView
from battletracker.ui.procedure_parts import FactsPanel
from battletracker.ui.procedure_parts import OverlayScope
from battletracker.ui.procedure_parts import OverruledReading
from battletracker.ui.procedure_parts import RefusalBanner
from battletracker.ui.procedure_parts import TargetPicker
from battletracker.ui.procedure_parts import UnitProcedureDialog
from battletracker.ui.procedure_parts import replan_on
from battletracker.ui.procedure_runner import FirstOpening
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.session import Session
from battletracker.ui.text import as_typed
from battletracker.ui.text import plain

LINE_OVERLAY = "support_fire.line"
FRONTAGE_OVERLAY = "support_fire.frontage"


def _words(key: str) -> str:
    return key.replace("_", " ").capitalize()


def _cover_choice(tip: str, parent: QWidget) -> OverruledReading:
    """The cover levels, the map's reading first chosen: the target's row and each further Team's."""
    return OverruledReading.levels(parent, ((_words(level), level) for level in cover_levels()), tip)


class FireDialog(UnitProcedureDialog):
    """Fire from one unit: weapon, target, the player's choices, then the odds-first runner.

    Not a PlannedActionDialog: the choices follow the weapon (a frontage picked as two points on the map, the
    fire line drawn, area fire and the flamethrower's extra targets), which no declared choice can ask.
    """
    first_opening = FirstOpening("chain_of_command", 2, "Fire", "coc.support_fire", "u1")

    def __init__(self, session: Session, firer_id: str, map_view: MapView | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(session, firer_id, map_view, parent, "Fire - {unit}", (620, 760))
        self.line_overlay = OverlayScope(self, map_view, LINE_OVERLAY)
        self.frontage_overlay = OverlayScope(self, map_view, FRONTAGE_OVERLAY)
        self.plan: ShotPlan | None = None
        self.refused = False
        self._applied = False
        self._frontage: float | None = None
        self._frontage_start: tuple[float, float] | None = None
        self._extra: list[str] = []
        firer = session.game.unit(firer_id)

        self.weapon = QComboBox(self)
        self._weapons: list[FireWeapon] = fire_weapons(firer)
        for fw in self._weapons:
            self.weapon.addItem(fw.title)
        self.target_picker = TargetPicker(map_view, "Click the target", "Click the target on the map (Esc cancels)",
                                          self)

        self.also_picker = TargetPicker(map_view, "Click another Team to share the hits",
                                        "Click a Team beside the target on the map to add it (Esc cancels)", self,
                                        empty="No other Team beside the target", button="Pick on ma&p")
        self.also_picker.combo.setToolTip("Another Team of the target unit, or an enemy Team beside it, "
                                          "to share the hits")
        self.add_team_button = QPushButton("A&dd team", self)
        self.clear_teams_button = QPushButton("C&lear", self)
        self.clear_teams_button.setToolTip("Fire at the target alone")
        self.teams_label = plain(QLabel("", self))
        self.teams_label.setWordWrap(True)
        self.teams_box = QWidget(self)
        teams_layout = QVBoxLayout(self.teams_box)
        teams_layout.setContentsMargins(0, 0, 0, 0)
        also_row = QHBoxLayout()
        also_row.addWidget(self.also_picker, 1)
        also_row.addWidget(self.add_team_button)
        also_row.addWidget(self.clear_teams_button)
        teams_layout.addLayout(also_row)
        teams_layout.addWidget(self.teams_label)
        self.team_covers = QWidget(self)
        self.team_covers_form = QFormLayout(self.team_covers)
        self.team_covers_form.setContentsMargins(0, 0, 0, 0)
        self.team_rows: dict[str, OverruledReading] = {}
        teams_layout.addWidget(self.team_covers)

        self.cover = _cover_choice("The target's cover against this firer: the map's reading unless you "
                                        "change it", self)
        self.sight = OverruledReading.unseen_target(self, "Fire anyway when the map reads no Line of Sight (logged)")
        self.quality = QComboBox(self)
        for q in QUALITIES:
            self.quality.addItem(_words(q), q)
        self.band = QComboBox(self)
        self.band.addItem("From the table", "")
        self.band.addItem("Close", "close")
        self.band.addItem("Effective", "effective")
        self.dice = QSpinBox(self)
        self.dice.setRange(0, MAX_DICE)
        self.dice.setSuffix(" Firepower Dice")
        self.target_kind = QComboBox(self)
        self.moved = QCheckBox("Moved 1D6 this Phase (half the dice)", self)
        self.leader = QCheckBox("A Leader is attached to the target", self)
        self.in_building = QCheckBox("The target is inside a building", self)
        self.suppressing = QCheckBox("Suppressing Fire", self)
        self.suppressing.setToolTip('At one frontage of at most 9", or at two Teams within 4" of each other '
                                    "(add the second Team under Also at)")
        self.frontage_button = QPushButton("Pick &frontage...", self)
        self.frontage_button.setToolTip('Click both ends of the target frontage on the map (at most 9")')
        self.frontage_label = QLabel("", self)
        self.suppress_box = QWidget(self)
        suppress_row = QHBoxLayout(self.suppress_box)
        suppress_row.setContentsMargins(0, 0, 0, 0)
        suppress_row.addWidget(self.suppressing)
        suppress_row.addWidget(self.frontage_button)
        suppress_row.addWidget(self.frontage_label, 1)

        self.activation = ActivationRow(self)
        self.form = QFormLayout()
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form.addRow(self.activation)
        self.form.addRow("&Weapon", self.weapon)
        target_label = QLabel("&Target", self)
        target_label.setBuddy(self.target_picker.combo)
        self.form.addRow(target_label, self.target_picker)
        also_label = QLabel("Al&so at", self)
        also_label.setBuddy(self.also_picker)
        self.form.addRow(also_label, self.teams_box)
        self.form.addRow("Target &kind", self.target_kind)
        self.cover_label = QLabel("&Cover", self)
        self.cover_label.setBuddy(self.cover)
        self.form.addRow(self.cover_label, self.cover)
        self.form.addRow("Line of Sight", self.sight)
        self.form.addRow("Target &quality", self.quality)
        self.form.addRow("Ran&ge band", self.band)
        self.form.addRow("D&ice", self.dice)
        self.form.addRow("", self.moved)
        self.form.addRow("", self.leader)
        self.form.addRow("", self.in_building)
        self.form.addRow("", self.suppress_box)

        self.facts = FactsPanel(self)
        self.form.addRow("From the table", self.facts)
        self.refusal = RefusalBanner(self)
        for label in (self.facts, self.refusal):
            label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)

        # The runner's place keeps its room when a refusal hides the runner, so the form does not jump.
        self.runner_area = QWidget(self)
        self.runner_box = QVBoxLayout(self.runner_area)
        self.runner_box.setContentsMargins(0, 0, 0, 0)
        self.runner: ProcedureRunner | None = None
        buttons = self.close_buttons()

        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.refusal)
        layout.addWidget(self.runner_area, 1)
        layout.addWidget(buttons)

        self._fill_targets()
        self.weapon.currentIndexChanged.connect(self._weapon_changed)
        self.target_picker.chosen.connect(lambda _unit_id: self._target_changed())
        self.target_picker.outside.connect(self._refuse_target)
        replan_on(self.update_plan, self.activation, self.cover, self.sight, self.quality, self.band, self.dice,
                  self.target_kind, self.moved, self.leader, self.in_building, self.suppressing)
        self.frontage_button.clicked.connect(self.pick_frontage)
        self.add_team_button.clicked.connect(self._add_chosen_team)
        self.also_picker.picked.connect(self.add_team)
        self.also_picker.outside.connect(self._refuse_team)
        self.clear_teams_button.clicked.connect(self.clear_teams)
        session.changed.connect(self._on_changed)
        self._weapon_changed()

    # -- what the player chose -----------------------------------------------------
    @property
    def fire_weapon(self) -> FireWeapon:
        return self._weapons[max(0, self.weapon.currentIndex())]

    def firer(self) -> Unit | None:
        return self.session.game.units.get(self.unit_id)

    def target_unit(self) -> Unit | None:
        target_id = self.target_picker.current()
        return self.session.game.units.get(target_id) if target_id is not None else None

    def set_target(self, unit_id: str) -> bool:
        return self.target_picker.select(unit_id)

    def choices(self) -> dict[str, InputValue]:
        """What the player picked, as `plan_fire` reads it."""
        fw = self.fire_weapon
        picked: dict[str, InputValue] = {
            "firer": self.unit_id,
            "target": self.target_picker.current() or "",
            "targets": ",".join(self._extra),
            "weapon": fw.name,
            "cover": self.cover.value(),
            "cover_reason": self.cover.why(),
            "sight": self.sight.value(),
            "sight_reason": self.sight.why(),
            "target_quality": str(self.quality.currentData()),
            "range_band": str(self.band.currentData()),
            "moved": self.moved.isChecked(),
            "suppressing": self.suppressing.isChecked(),
            "leader_attached": self.leader.isChecked(),
            "target_in_building": self.in_building.isChecked(),
            "target_kind": str(self.target_kind.currentData() or ""),
        }
        for unit_id, row in self.team_rows.items():
            picked[f"cover.{unit_id}"] = row.value()
            picked[f"cover_reason.{unit_id}"] = row.why()
        if fw.procedure == "coc.fire":
            picked["firepower_dice"] = self.dice.value()
        if self._frontage is not None:
            picked["frontage"] = self._frontage
        picked.update(self.activation.choices())
        return picked

    def add_team(self, unit_id: str) -> bool:
        """Another Team shares the hits; False when it is not an enemy Team on offer."""
        firer, target = self.firer(), self.target_unit()
        if firer is None or target is None or unit_id in self._extra:
            return False
        if unit_id not in {u.id for u in extra_target_candidates(self.session.game, firer, target)}:
            return False
        self._extra.append(unit_id)
        self._fill_also()
        self.update_plan()
        return True

    def clear_teams(self) -> None:
        self._extra.clear()
        self._fill_also()
        self.update_plan()

    def _add_chosen_team(self) -> None:
        unit_id = self.also_picker.current()
        if unit_id is not None:
            self.add_team(unit_id)

    def _refuse_team(self, unit_id: str) -> None:
        """Say why the Team clicked on the map cannot share the hits."""
        unit = self.session.game.units.get(unit_id)
        if unit is None:
            return
        if unit_id in self._extra or unit_id == self.target_picker.current():
            self.refusal.show_refusal(f"{unit.name} already takes the hits.")
        else:
            self.refusal.show_refusal(f"{unit.name} cannot share the hits: only another Team of the target unit, "
                                      "or an enemy Team beside the target, can.")

    # -- building the form -----------------------------------------------------------
    def _fill_targets(self) -> None:
        firer = self.firer()
        if firer is None:
            return
        self.target_picker.set_units(((unit.id, f'{unit.name}  -  {centre_to_centre(firer, unit):.1f}"')
                                      for unit in targets_for(self.session.game, firer)), keep=True)

    def _fill_also(self) -> None:
        """Teams that could still join the target, and the Teams sharing the hits now."""
        firer, target = self.firer(), self.target_unit()
        if firer is None or target is None:
            self.also_picker.set_units(())
            self.teams_label.setText("")
            return
        self._extra = [u for u in self._extra if u != target.id and u in self.session.game.units]
        self.also_picker.set_units(
            ((unit.id, f'{unit.name}  -  {centre_to_centre(target, unit):.1f}" from the target')
             for unit in extra_target_candidates(self.session.game, firer, target) if unit.id not in self._extra),
            keep=True)
        self.add_team_button.setEnabled(bool(self.also_picker.units()))
        self.clear_teams_button.setEnabled(bool(self._extra))
        teams = self._teams(firer, target)
        self.teams_label.setText("Hits shared by: " + ", ".join(t.name for t in teams) if len(teams) > 1
                                 else "Only the target takes the hits.")
        # Beside the other Teams' "1st Squad's cover" rows, the target's own row says whose cover it is, in
        # words no wider than "Target quality" below it, so the form's labels do not squeeze the pickers.
        self.cover_label.setText("Target's &cover" if len(teams) > 1 else "&Cover")
        self._fill_team_covers(firer, teams[1:])

    def _fill_team_covers(self, firer: Unit, extra: list[Unit]) -> None:
        """A cover row for each further Team: its own reading from the map, which the player may change (logged
        with the reason), kept following the map while the player has not changed it.

        A Team joins at the end of the list and leaves from anywhere, so its row is added last or taken out,
        and the rows of the Teams that stay keep what the player chose."""
        for unit_id in [unit_id for unit_id in self.team_rows if unit_id not in {u.id for u in extra}]:
            self.team_covers_form.removeRow(self.team_rows.pop(unit_id))
        for unit in extra:
            row = self.team_rows.get(unit.id)
            if row is None:
                row = _cover_choice(as_typed(f"{unit.name}'s cover against this firer: the map's reading "
                                                  "unless you change it"), self.team_covers)
                row.changed.connect(self.update_plan)
                self.team_covers_form.addRow(plain(QLabel(f"{unit.name}'s cover", self.team_covers)), row)
                self.team_rows[unit.id] = row
            row.follow(default_cover(self.session.game, firer, unit).level)

    def _teams(self, firer: Unit, target: Unit) -> list[Unit]:
        """The Teams sharing the hits now (the target alone when the choice is refused)."""
        try:
            return target_teams(self.session.game, firer, target, ",".join(self._extra))
        except ShotRefusal:
            return [target]

    def _weapon_changed(self) -> None:
        fw = self.fire_weapon
        procedure = fw.procedure
        # An infantry anti-tank weapon's H.E. hits by the target's quality; a gun's (a vehicle's too) on 4+.
        self.form.setRowVisible(self.quality, procedure != "coc.sniper" and fw.he_kind != guns.GUN)
        self.form.setRowVisible(self.band, procedure not in ("coc.sniper", "coc.gun_he"))
        self.form.setRowVisible(self.cover, procedure not in ("coc.sniper", "coc.flamethrower"))
        self.form.setRowVisible(self.dice, procedure == "coc.fire")
        self.form.setRowVisible(self.target_kind, procedure in ("coc.sniper", "coc.flamethrower"))
        self.form.setRowVisible(self.moved, procedure == "coc.flamethrower")
        self.form.setRowVisible(self.leader, procedure == "coc.sniper")
        self.form.setRowVisible(self.in_building, procedure == "coc.gun_he")
        self.form.setRowVisible(self.suppress_box, procedure in ("coc.tripod_mg", "coc.sniper"))
        self.form.setRowVisible(self.teams_box, procedure in SHARED_HITS)
        self.frontage_button.setVisible(procedure == "coc.tripod_mg")
        self.frontage_label.setVisible(procedure == "coc.tripod_mg")
        self.dice.blockSignals(True)
        self.dice.setValue(fw.dice)
        self.dice.blockSignals(False)
        self.target_kind.blockSignals(True)
        self.target_kind.clear()
        kinds = snipers.TARGET_KINDS if procedure == "coc.sniper" else flamethrowers.TARGET_KINDS
        for kind in kinds:
            self.target_kind.addItem(_words(kind), kind)
        self.target_kind.blockSignals(False)
        self._use_runner(procedure)
        self._target_changed()

    def _use_runner(self, procedure: str) -> None:
        """A runner for the procedure the plan picks: the weapon's, or fire with no A.P. at a vehicle's."""
        if self.runner is not None:
            if self.runner.procedure == procedure:
                return
            self.runner_box.removeWidget(self.runner)
            self.runner.hide()
            self.runner.setParent(None)  # gone from the dialog now, not only once the event loop deletes it
            self.runner.deleteLater()
        self.runner = ProcedureRunner(self.session, procedure, PROCEDURE_TITLES[procedure], self.runner_area)
        self.runner.applied.connect(self._on_applied)
        self.runner_box.addWidget(self.runner)

    def _target_changed(self) -> None:
        """A new target: set the choices its card implies, then recompute."""
        target = self.target_unit()
        self._fill_also()
        self._read_cover(fresh=True)
        if target is not None:
            self.quality.blockSignals(True)
            self.quality.setCurrentIndex(max(0, self.quality.findData(default_quality(target))))
            self.quality.blockSignals(False)
            procedure = self.fire_weapon.procedure
            if procedure in ("coc.sniper", "coc.flamethrower"):
                kind = default_target_kind(procedure, target)
                self.target_kind.blockSignals(True)
                self.target_kind.setCurrentIndex(max(0, self.target_kind.findData(kind)))
                self.target_kind.blockSignals(False)
        self.update_plan()

    def _read_cover(self, fresh: bool = False) -> None:
        """Start the cover at the table's reading for a new target (`fresh`), else follow it while the player has
        not changed it."""
        firer, target = self.firer(), self.target_unit()
        if firer is not None and target is not None:
            reading = default_cover(self.session.game, firer, target).level
            if fresh:
                self.cover.reset(reading)
            else:
                self.cover.follow(reading)

    # -- inputs to odds ---------------------------------------------------------------
    def update_plan(self) -> None:
        """Plan the fire from the choices; show its facts and odds, or the sentence refusing it."""
        assert self.runner is not None
        firer, target = self.firer(), self.target_unit()
        self._applied = False
        try:
            plan = self.activation.plan_for(self.session.game, self.unit_id, FIRE,
                                            lambda: plan_fire(self.session.game, self.choices()))
        except Refusal as refusal:
            self.plan = None
            self.refused = True
            self.facts.set_facts(())
            if firer is not None and target is not None:
                self._draw_line(firer, target)
            self._refuse(str(refusal))
            return
        assert firer is not None and target is not None
        self.plan = plan
        self.refused = False
        self.facts.set_facts(plan.facts)
        self._draw_line(firer, target)
        self.refusal.clear()
        self._use_runner(plan.procedure)
        assert self.runner is not None
        self.runner.show()
        self.runner.title = f"{firer.name} fires at {target.name}"
        self.runner.set_action(shot_actions.SHOOT, self.choices())
        self.runner.set_inputs(dict(plan.inputs))

    def _refuse(self, message: str) -> None:
        assert self.runner is not None
        self.refusal.show_refusal(message)
        self.runner.hide()

    def _on_changed(self, _changes: object) -> None:
        if self.firer() is None:
            self.close()
            return
        if self.runner is not None and self.runner.result is not None and not self._applied:
            return
        self._fill_targets()
        self._fill_also()
        self._read_cover()
        self.update_plan()

    # -- after the roll --------------------------------------------------------------------
    def _on_applied(self, res: Resolution) -> None:
        """Keep the result in view; the next change to the game brings fresh odds."""
        self._applied = True
        assert self.runner is not None
        self.runner.result_view.append("<p><i>Applied: one step on the undo stack.</i></p>")

    # -- the map ---------------------------------------------------------------------------------
    def _draw_line(self, firer: Unit, target: Unit) -> None:
        if self.map_view is not None:
            colour = QColor("#d93025") if self.refused else QColor("#f9a825")
            teams = self._teams(firer, target) if self.fire_weapon.procedure in SHARED_HITS else [target]
            self.line_overlay.set([line_item((firer.x, firer.y), (t.x, t.y), colour, Qt.PenStyle.DashLine)
                                   for t in teams])

    def _refuse_target(self, unit_id: str) -> None:
        """Say why the unit clicked on the map cannot be the target, in the rules' words."""
        try:
            plan_fire(self.session.game, {**self.choices(), "target": unit_id, "targets": ""})
        except ShotRefusal as refusal:
            self.refusal.show_refusal(str(refusal))

    def pick_frontage(self) -> None:
        if self.map_view is not None:
            self.map_view.pick_point(self._frontage_first, "Click one end of the target frontage")

    def _frontage_first(self, point: tuple[float, float] | None) -> None:
        if point is None or self.map_view is None:
            return
        self._frontage_start = point
        self.map_view.pick_point(self._frontage_second, "Click the other end of the target frontage")

    def _frontage_second(self, point: tuple[float, float] | None) -> None:
        if point is None or self._frontage_start is None:
            return
        self.set_frontage(self._frontage_start, point)

    def set_frontage(self, a: tuple[float, float], b: tuple[float, float]) -> None:
        """The Suppressing Fire frontage between two table points; the rules refuse one over 9"."""
        self._frontage = frontage_between(a, b)
        self.frontage_label.setText(f'{self._frontage:.1f}" frontage')
        self.frontage_overlay.set([line_item(a, b, QColor("#8e24aa"))])
        self.suppressing.setChecked(True)
        self.update_plan()

    def done(self, result: int) -> None:
        with contextlib.suppress(RuntimeError, TypeError):
            self.session.changed.disconnect(self._on_changed)
        super().done(result)
