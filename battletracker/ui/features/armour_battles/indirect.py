"""The Indirect fire dialog: one close-support fire mission, from aiming point to
Reaction Checks, as one procedure and one undo step.

The dialog only gathers the player's choices (aiming point, line of sight or
Forward Observer, the firer's move, opportunity fire, an arrow read off the
table, Cover Dice), shows what the rules read off the table
(`rules.armour_battles.plans.indirect_mission`), the exact odds of
`ab.indirect_mission`, the dice entry and the result; Apply puts every
target's suppression and Disruption on the table at once.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QGraphicsItem
from PySide6.QtWidgets import QGroupBox
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QSpinBox
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.core.geometry import Point
from battletracker.core.geometry import bearing
from battletracker.core.geometry import offset
from battletracker.rules import Resolution
from battletracker.rules import RulesInputError
from battletracker.rules.armour_battles import actions as ab_actions
from battletracker.rules.armour_battles.mission import NAME
from battletracker.rules.armour_battles.mission import label
from battletracker.rules.armour_battles.plans import MAX_COVER_DICE
from battletracker.rules.armour_battles.plans import AbPlan
from battletracker.rules.armour_battles.plans import indirect_mission
from battletracker.rules.armour_battles.plans import map_sight
from battletracker.rules.armour_battles.plans import profile_of
from battletracker.rules.armour_battles.reaction import cover_dice_words
from battletracker.rules.base import message_of
from battletracker.rules.places import place_words
from battletracker.rules.tables import TableError
from battletracker.ui.features.armour_battles.common import IN_THE_OPEN
from battletracker.ui.features.armour_battles.common import MOVE_TITLES
from battletracker.ui.features.armour_battles.common import MapSight
from battletracker.ui.features.armour_battles.common import burst_radius
from battletracker.ui.features.armour_battles.common import indirect_multiplier
from battletracker.ui.form_parts import measure_box
from battletracker.ui.map.items import circle_item
from battletracker.ui.map.items import line_item
from battletracker.ui.procedure_parts import FactsPanel
from battletracker.ui.procedure_parts import OverlayScope
from battletracker.ui.procedure_parts import TargetPicker
from battletracker.ui.procedure_parts import UnitProcedureDialog
from battletracker.ui.procedure_runner import FirstOpening
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.refusal import RefusalBanner
from battletracker.ui.session import Session
from battletracker.ui.text import esc
from battletracker.ui.text import plain

if TYPE_CHECKING:
    from battletracker.ui.map.view import MapView

OVERLAY = "ab.indirect"
BURST_COLOUR = QColor("#e53935")
ARROW_COLOUR = QColor("#fb8c00")


class IndirectFireDialog(UnitProcedureDialog):
    """One close-support fire mission from its aiming point to every Reaction Check.

    Not a PlannedActionDialog: the aiming point is picked on the map and drawn with its burst, and the units
    the burst reaches each ask their Cover Dice, a choice whose number of rows follows the plan.
    """
    first_opening = FirstOpening("armour_battles", 1, "Armour Battles indirect fire", "ab.indirect_fire", "stuh")

    def __init__(self, session: Session, firer_id: str, map_view: MapView | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(session, firer_id, map_view, parent, "Indirect fire: {unit}", (1180, 760))
        self.overlay = OverlayScope(self, map_view, OVERLAY)
        firer = session.game.unit(firer_id)
        self.plan: AbPlan | None = None
        self.applied = False
        self.cover: dict[str, QSpinBox] = {}

        profile = profile_of(firer)
        self.profile_label = QLabel(self)
        if profile is not None:
            reach = profile.ranges.indirect_long(indirect_multiplier())
            self.profile_label.setText(
                f"FP {profile.fp_dice}D, AT {profile.at_dice}D, ranges {profile.ranges}; indirect fire reaches "
                f'{reach:g}" and nothing within {profile.ranges.short:g}"')
        self.aim_x = measure_box(self, firer.x, 0.0, session.game.table_width)
        self.aim_y = measure_box(self, max(0.0, firer.y - 24.0), 0.0, session.game.table_height)
        self.pick_aim = QPushButton("Pick on &map", self)
        self.pick_aim.setToolTip("Click the aiming point on the table")
        self.pick_aim.setEnabled(map_view is not None)
        self.move_box = QComboBox(self)
        for key, text in MOVE_TITLES.items():
            self.move_box.addItem(text, key)
        self.los = QCheckBox("The firer has line of sight to the aiming point", self)
        self.sight = MapSight(self.los, self)
        self.opportunity = QCheckBox("Opportunity fire", self)
        self.opportunity.setToolTip("Only with a direct line of sight to the target")
        self.missions_label = QLabel("Single fire missions only: close-support units cannot fire "
                                     "continuous missions", self)
        self.missions_label.setWordWrap(True)
        self.observer_picker = TargetPicker(map_view, "Click the unit acting as Forward Observer",
                                            "Click the Forward Observer on the map (Esc cancels)", self,
                                            button="Pick &observer", none="None: no other unit observes")
        self._fill_observers()
        self.arrow_known = QCheckBox("Arrow direction read off the table", self)
        self.arrow_bearing = QSpinBox(self)
        self.arrow_bearing.setRange(0, 359)
        self.arrow_bearing.setSuffix("°")
        self.arrow_bearing.setWrapping(True)
        self.arrow_bearing.setEnabled(False)
        self.arrow_bearing.setToolTip("Degrees clockwise from the top edge; unticked, a clock die gives it")
        self.cover_box = QGroupBox("Cover Dice of the units in reach", self)
        self.no_cover = QLabel("No unit is within reach of this aiming point, so none rolls Cover Dice.",
                               self.cover_box)
        self.no_cover.setWordWrap(True)
        self.cover_note = QLabel(cover_dice_words(session.game.settings), self.cover_box)
        self.cover_note.setObjectName("ab_cover_note")
        self.cover_note.setWordWrap(True)
        self.cover_form = QFormLayout()
        cover_layout = QVBoxLayout(self.cover_box)
        cover_layout.addWidget(self.no_cover)
        cover_layout.addWidget(self.cover_note)
        cover_layout.addLayout(self.cover_form)
        self.facts_label = FactsPanel(self)
        self.refusal = RefusalBanner(self)

        aim_row = QHBoxLayout()
        aim_row.addWidget(QLabel("x", self))
        aim_row.addWidget(self.aim_x)
        aim_row.addWidget(QLabel("y", self))
        aim_row.addWidget(self.aim_y)
        aim_row.addWidget(self.pick_aim)
        arrow_row = QHBoxLayout()
        arrow_row.addWidget(self.arrow_known, 1)
        arrow_row.addWidget(self.arrow_bearing)
        aim_box = QGroupBox("The fire mission", self)
        form = QFormLayout(aim_box)
        form.addRow(self.profile_label)
        form.addRow("Aiming point", aim_row)
        form.addRow("Firer's move", self.move_box)
        sight_row = QHBoxLayout()
        sight_row.addWidget(self.los)
        sight_row.addWidget(self.sight.reason, 1)
        form.addRow(sight_row)
        form.addRow("Forward Observer", self.observer_picker)
        form.addRow(self.opportunity)
        form.addRow(self.missions_label)
        form.addRow(arrow_row)
        facts_box = QGroupBox("From the table", self)
        facts_layout = QVBoxLayout(facts_box)
        facts_layout.addWidget(self.refusal)
        facts_layout.addWidget(self.facts_label, 1)

        self.runner = ProcedureRunner(session, NAME, f"Indirect fire: {firer.name}", self, group=label)
        self.runner.apply_button.setText("&Apply to the table")
        self.runner.apply_button.setToolTip("Every target's suppression and Disruption as one undo step; "
                                            "the Impact Marker is placed and lifted with it")
        self.result_label = QLabel(self)
        self.result_label.setWordWrap(True)
        roll_box = QGroupBox("Odds, dice and result", self)
        roll_layout = QVBoxLayout(roll_box)
        roll_layout.addWidget(self.runner, 1)
        roll_layout.addWidget(self.result_label)

        left = QVBoxLayout()
        left.addWidget(aim_box)
        left.addWidget(self.cover_box)
        left.addWidget(facts_box, 1)
        self.set_columns(left, roll_box, (4, 5))

        for box in (self.aim_x, self.aim_y):
            box.valueChanged.connect(self._update)
        self.move_box.currentIndexChanged.connect(self._update)
        self.los.toggled.connect(self._update)
        self.sight.reason.textChanged.connect(self._update)
        self.opportunity.toggled.connect(self._update)
        self.observer_picker.chosen.connect(lambda _unit_id: self._update())
        self.observer_picker.outside.connect(self._refuse_observer)
        self.arrow_known.toggled.connect(self.arrow_bearing.setEnabled)
        self.arrow_known.toggled.connect(self._update)
        self.arrow_bearing.valueChanged.connect(self._update)
        self.pick_aim.clicked.connect(self._pick_aim)
        self.runner.resolved.connect(self._resolved)
        self.runner.applied.connect(self._applied)
        self.finished.connect(self._closed)
        session.changed.connect(self._fill_observers)
        self._update()

    # -- the player's choices ------------------------------------------------------------------
    @property
    def aim(self) -> Point:
        return (self.aim_x.value(), self.aim_y.value())

    def set_aim(self, x: float, y: float) -> None:
        self.aim_x.blockSignals(True)
        self.aim_x.setValue(x)
        self.aim_x.blockSignals(False)
        self.aim_y.setValue(y)
        self._update()

    def _pick_aim(self) -> None:
        if self.map_view is not None:
            self.map_view.pick_point(lambda p: self.set_aim(*p) if p is not None else None,
                                     f"Click the aiming point for {self.unit_name}'s indirect fire")

    def _fill_observers(self, _changes: object = None) -> None:
        """The firer's side's other units in play, the one chosen kept while it still may observe."""
        game = self.session.game
        side = game.unit(self.unit_id).side if self.unit_id in game.units else -1
        before = self.observer_id
        self.observer_picker.set_units(((unit.id, unit.name) for unit in game.units.values()
                                        if unit.side == side and unit.id != self.unit_id and unit.in_play),
                                       keep=True)
        if self.observer_id != before:
            self._update()

    @property
    def observer_id(self) -> str | None:
        """The unit acting as Forward Observer, or None."""
        return self.observer_picker.current()

    def set_observer(self, unit_id: str | None) -> bool:
        """Make `unit_id` the Forward Observer (None: no other unit observes); False if it cannot observe."""
        if unit_id is None:
            self.observer_picker.choose_none()
            return True
        return self.observer_picker.select(unit_id)

    def _refuse_observer(self, unit_id: str) -> None:
        """Say, in the rules' words, why the unit clicked on the map cannot observe; the choice stays."""
        try:
            indirect_mission(self.session.game, {**self.choices(), "observer": unit_id})
        except (RulesInputError, TableError) as exc:
            self.refusal.show_refusal(message_of(exc))
        else:
            self.refusal.show_refusal(f"{self.session.game.unit(unit_id).name} is out of play and cannot observe.")

    def choices(self) -> dict[str, str | int | float | bool]:
        """What the player picked, as the plan reads it."""
        picked: dict[str, str | int | float | bool] = {
            "firer": self.unit_id, "x": self.aim[0], "y": self.aim[1], **self.sight.choices(),
            "move": str(self.move_box.currentData()), "opportunity": self.opportunity.isChecked(),
        }
        if self.observer_id is not None:
            picked["observer"] = self.observer_id
        if self.arrow_known.isChecked():
            picked["bearing"] = float(self.arrow_bearing.value())
        cover = ",".join(f"{uid}={box.value()}" for uid, box in self.cover.items() if box.value())
        if cover:
            picked["cover"] = cover
        return picked

    def _update(self) -> None:
        if self.applied:
            return
        if self.unit_id in self.session.game.units:
            self.sight.follow(map_sight(self.session.game, self.unit_id, self.aim))
        try:
            plan = indirect_mission(self.session.game, self.choices())
        except (RulesInputError, TableError) as exc:
            self.plan = None
            self.facts_label.set_facts(())
            self.cover_box.hide()
            self.refusal.show_refusal(message_of(exc))
            self.runner.setEnabled(False)
            self.runner.odds_plot.hide()
            self.result_label.setText("")
            self._draw()
            return
        self.plan = plan
        self._sync_cover(plan)
        self.refusal.clear()
        self.facts_label.set_facts(plan.facts)
        self.runner.setEnabled(True)
        self.runner.set_action(ab_actions.INDIRECT_MISSION, self.choices())
        self.runner.odds_plot.setVisible(self.runner.set_inputs(plan.inputs))
        self.result_label.setText("")
        self._draw()

    def _sync_cover(self, plan: AbPlan) -> None:
        """A Cover Dice box for each unit the fire can reach from this aiming point."""
        reach = [str(plan.inputs[f"unit{n}_id"]) for n in range(1, int(plan.inputs["units"]) + 1)]
        self.cover_box.show()
        self.no_cover.setVisible(not reach)
        self.cover_note.setVisible(bool(reach))
        if reach == list(self.cover):
            return
        kept = {uid: box.value() for uid, box in self.cover.items()}
        while self.cover_form.rowCount():
            self.cover_form.removeRow(0)
        self.cover = {}
        units = [self.session.game.unit(uid) for uid in reach]
        names = [unit.name for unit in units]
        for uid, unit in zip(reach, units, strict=True):
            box = QSpinBox(self.cover_box)
            box.setRange(0, MAX_COVER_DICE)
            box.setSuffix(" D")
            box.setSpecialValueText(IN_THE_OPEN)
            box.setValue(kept.get(uid, 0))
            box.valueChanged.connect(self._update)
            self.cover[uid] = box
            name = unit.name if names.count(unit.name) == 1 else \
                f"{unit.name}, {place_words(self.session.game, (unit.x, unit.y), besides=unit.id)}"
            self.cover_form.addRow(plain(QLabel(name, self.cover_box)), box)

    def refusal_text(self) -> str:
        """Why the mission cannot be fired as it stands, or "" when it can."""
        if not self.refusal.isHidden():
            return self.refusal.text()
        return "" if self.runner.problem.isHidden() else self.runner.problem.text()

    # -- the map ------------------------------------------------------------------------------------
    def _firer_point(self) -> Point:
        u = self.session.game.unit(self.unit_id)
        return (u.x, u.y)

    def _draw(self, res: Resolution | None = None) -> None:
        """The burst where the fire would land (or did), and the deviation arrow once it is rolled."""
        if self.map_view is None:
            return
        radius = burst_radius()
        aim = self.aim
        items: list[QGraphicsItem] = [line_item(self._firer_point(), aim, BURST_COLOUR, Qt.PenStyle.DotLine)]
        if res is None:
            items.append(circle_item(aim, radius, BURST_COLOUR, 30, Qt.PenStyle.DashLine))
        else:
            impact = (float(res.values["x"]), float(res.values["y"]))
            items.append(circle_item(impact, radius, BURST_COLOUR, 50))
            if res.values["deviation"] == "arrow":
                heading = bearing(aim, impact)
                items.append(line_item(aim, impact, ARROW_COLOUR))
                for side in (150.0, -150.0):
                    items.append(line_item(impact, offset(impact, heading + side, 0.6), ARROW_COLOUR))
        self.overlay.set(items)

    # -- the result ---------------------------------------------------------------------------------
    def _resolved(self, res: Resolution) -> None:
        self.result_label.setText(f"<b>{esc(label(res.outcome))}</b>")
        self._draw(res)

    def _applied(self, _res: Resolution) -> None:
        self.applied = True
        for w in (self.aim_x, self.aim_y, self.pick_aim, self.move_box, self.los, self.observer_picker,
                  self.opportunity, self.arrow_known, self.arrow_bearing, self.cover_box,
                  self.runner.roll_button, self.runner.typed_button):
            w.setEnabled(False)
        self.result_label.setText(self.result_label.text() + " Applied; the Impact Marker has been lifted.")
        self.overlay.clear()

    def apply(self) -> bool:
        """Apply the rolled mission as one undo step (the runner's Apply button)."""
        return self.runner.apply()

    def _closed(self, _result: int) -> None:
        with contextlib.suppress(RuntimeError, TypeError):
            self.session.changed.disconnect(self._fill_observers)
