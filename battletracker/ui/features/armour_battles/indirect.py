"""The Indirect fire dialog: one close-support fire mission from aiming point to
Reaction Checks.

1. Aim: the point is picked on the map (or typed); the range from the firer
   is measured; line of sight and the Forward Observer are stated. The
   halved, movement-reduced dice and any refusal (opportunity fire needs a
   line of sight) show before anything rolls.
2. Placement: `ab.indirect_placement` (deviation die digital or typed) puts
   the Impact Marker, with its 2" burst, on the table (an undo step).
3. Targets: every unit under the burst gets its FP or AT roll with exact
   odds and its Reaction Check; all their suppression and Disruption go on
   as one undo step that also lifts the Impact Marker.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGraphicsItem,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from battletracker.core.geometry import Point, bearing, distance, offset
from battletracker.model.effects import PlaceMarker, RemoveMarker
from battletracker.model.game import GameError
from battletracker.rules import Resolution, RulesInputError
from battletracker.rules.armour_battles.fire import plan_fire
from battletracker.rules.armour_battles.placement import burst_targets
from battletracker.rules.armour_battles.units import fire_inputs
from battletracker.rules.tables import TableError
from battletracker.ui.features.armour_battles.common import (
    MOVE_TITLES,
    burst_radius,
    describe_plan,
    indirect_multiplier,
    profile_of,
    scalars,
)
from battletracker.ui.features.armour_battles.target_fire import TargetFire
from battletracker.ui.map.items import circle_item, line_item
from battletracker.ui.procedure_runner import ProcedureDialog, ProcedureRunner, with_settings
from battletracker.ui.session import Session
from battletracker.ui.text import esc, plain

if TYPE_CHECKING:
    from battletracker.ui.map.view import MapView

OVERLAY = "ab.indirect"
BURST_COLOUR = QColor("#e53935")
ARROW_COLOUR = QColor("#fb8c00")
REFUSAL_STYLE = "color: white; background: #b3261e; padding: 4px; border-radius: 3px;"


class IndirectFireDialog(ProcedureDialog):
    def __init__(self, session: Session, firer_id: str, map_view: MapView | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.firer_id = firer_id
        self.map_view = map_view
        firer = session.game.unit(firer_id)
        self.firer_name = firer.name
        self.marker_id = ""
        self.placement: Resolution | None = None
        self.targets: list[TargetFire] = []
        self.applied = False
        self.observer_id: str | None = None
        self.setWindowTitle(f"Indirect fire: {firer.name}")
        self.setMinimumSize(1320, 800)

        # 1. Aim
        profile = profile_of(firer)
        self.profile_label = QLabel(self)
        if profile is not None:
            reach = profile.ranges.indirect_long(indirect_multiplier())
            self.profile_label.setText(
                f"FP {profile.fp_dice}D, AT {profile.at_dice}D, ranges {profile.ranges}; indirect fire reaches "
                f'{reach:g}" and nothing within {profile.ranges.short:g}"')
        self.aim_x = self._coordinate(session.game.table_width, firer.x)
        self.aim_y = self._coordinate(session.game.table_height, max(0.0, firer.y - 24.0))
        self.pick_aim = QPushButton("Pick on the &map", self)
        self.pick_aim.setToolTip("Click the aiming point on the table")
        self.pick_aim.setEnabled(map_view is not None)
        self.range_label = plain(QLabel(self))
        self.move_box = QComboBox(self)
        for key, text in MOVE_TITLES.items():
            self.move_box.addItem(text, key)
        self.los = QCheckBox("The firer has line of sight to the aiming point", self)
        self.observer = QCheckBox("Another unit acts as Forward Observer", self)
        self.opportunity = QCheckBox("Opportunity fire", self)
        self.opportunity.setToolTip("Only with a direct line of sight to the target")
        self.missions_label = QLabel("Single fire missions only: close-support units cannot fire "
                                     "continuous missions", self)
        self.missions_label.setWordWrap(True)
        self.pick_observer = QPushButton("Pick &observer...", self)
        self.pick_observer.setEnabled(map_view is not None)
        self.arrow_known = QCheckBox("Arrow direction read off the table", self)
        self.arrow_bearing = QSpinBox(self)
        self.arrow_bearing.setRange(0, 359)
        self.arrow_bearing.setSuffix("°")
        self.arrow_bearing.setWrapping(True)
        self.arrow_bearing.setEnabled(False)
        self.arrow_bearing.setToolTip("Degrees clockwise from the top edge; unticked, a clock die gives it")
        self.dice_label = QLabel(self)
        self.dice_label.setWordWrap(True)
        self.dice_label.setTextFormat(Qt.TextFormat.RichText)
        self.refusal = plain(QLabel(self))
        self.refusal.setWordWrap(True)
        self.refusal.setStyleSheet(REFUSAL_STYLE)
        self.refusal.hide()

        aim_row = QHBoxLayout()
        aim_row.addWidget(QLabel("x", self))
        aim_row.addWidget(self.aim_x)
        aim_row.addWidget(QLabel("y", self))
        aim_row.addWidget(self.aim_y)
        aim_row.addWidget(self.pick_aim)
        observer_row = QHBoxLayout()
        observer_row.addWidget(self.observer, 1)
        observer_row.addWidget(self.pick_observer)
        arrow_row = QHBoxLayout()
        arrow_row.addWidget(self.arrow_known, 1)
        arrow_row.addWidget(self.arrow_bearing)
        aim_box = QGroupBox("1. Aiming point", self)
        form = QFormLayout(aim_box)
        form.addRow(self.profile_label)
        form.addRow("Aiming point", aim_row)
        form.addRow("Range", self.range_label)
        form.addRow("Firer's move", self.move_box)
        form.addRow(self.los)
        form.addRow(observer_row)
        form.addRow(self.opportunity)
        form.addRow(self.missions_label)
        form.addRow(arrow_row)
        form.addRow("Dice", self.dice_label)
        form.addRow(self.refusal)

        # 2. Placement
        self.placer = ProcedureRunner(session, "ab.indirect_placement", f"Indirect fire: {firer.name}", self)
        self.placer.apply_button.setText("&Place Impact Marker")
        place_box = QGroupBox("2. Where the fire lands", self)
        QVBoxLayout(place_box).addWidget(self.placer)

        # 3. Targets
        self.targets_label = plain(QLabel("Place the Impact Marker to see the units under its burst.", self))
        self.targets_label.setWordWrap(True)
        self.tabs = QTabWidget(self)
        self.apply_button = QPushButton("Apply to &targets", self)
        self.apply_button.setToolTip("Suppression and Disruption for every target as one undo step; "
                                     "the Impact Marker is lifted")
        self.apply_button.setEnabled(False)
        self.status = plain(QLabel(self))
        self.status.setWordWrap(True)
        targets_box = QGroupBox("3. Units under the burst", self)
        tl = QVBoxLayout(targets_box)
        tl.addWidget(self.targets_label)
        tl.addWidget(self.tabs, 1)
        row = QHBoxLayout()
        row.addWidget(self.status, 1)
        row.addWidget(self.apply_button)
        tl.addLayout(row)

        close = self.close_buttons()
        left = QVBoxLayout()
        left.addWidget(aim_box)
        left.addWidget(place_box, 1)
        columns = QHBoxLayout()
        columns.addLayout(left, 4)
        columns.addWidget(targets_box, 7)
        layout = QVBoxLayout(self)
        layout.addLayout(columns, 1)
        layout.addWidget(close)

        for box in (self.aim_x, self.aim_y):
            box.valueChanged.connect(self._update)
        self.move_box.currentIndexChanged.connect(self._update)
        self.los.toggled.connect(self._update)
        self.opportunity.toggled.connect(self._update)
        self.observer.toggled.connect(self._observer_toggled)
        self.arrow_known.toggled.connect(self.arrow_bearing.setEnabled)
        self.arrow_known.toggled.connect(self._update)
        self.arrow_bearing.valueChanged.connect(self._update)
        self.pick_aim.clicked.connect(self._pick_aim)
        self.pick_observer.clicked.connect(self._pick_observer)
        self.placer.resolved.connect(lambda _res: self._draw())
        self.placer.applied.connect(self._placed)
        self.apply_button.clicked.connect(self.apply)
        self.finished.connect(self._closed)
        self._update()

    def _coordinate(self, limit: float, value: float) -> QDoubleSpinBox:
        box = QDoubleSpinBox(self)
        box.setRange(0.0, limit)
        box.setDecimals(1)
        box.setSingleStep(0.5)
        box.setSuffix('"')
        box.setValue(value)
        return box

    # -- aiming ---------------------------------------------------------------------------------
    @property
    def aim(self) -> Point:
        return (self.aim_x.value(), self.aim_y.value())

    def set_aim(self, x: float, y: float) -> None:
        self.aim_x.blockSignals(True)
        self.aim_x.setValue(x)
        self.aim_x.blockSignals(False)
        self.aim_y.setValue(y)
        self._update()

    def _firer_point(self) -> Point:
        u = self.session.game.unit(self.firer_id)
        return (u.x, u.y)

    @property
    def range(self) -> float:
        return round(distance(self._firer_point(), self.aim), 2)

    def _pick_aim(self) -> None:
        if self.map_view is not None:
            self.map_view.pick_point(lambda p: self.set_aim(*p) if p is not None else None,
                                     f"Click the aiming point for {self.firer_name}'s indirect fire")

    def _pick_observer(self) -> None:
        if self.map_view is not None:
            self.map_view.pick_unit(self.set_observer, "Click the unit acting as Forward Observer")

    def set_observer(self, unit_id: str | None) -> None:
        if unit_id is None or unit_id == self.firer_id or unit_id not in self.session.game.units:
            return
        self.observer_id = unit_id
        self.observer.blockSignals(True)
        self.observer.setChecked(True)
        self.observer.blockSignals(False)
        self.observer.setText(f"Forward Observer: {self.session.game.unit(unit_id).name}")
        self._update()

    def _observer_toggled(self, on: bool) -> None:
        if not on:
            self.observer_id = None
            self.observer.setText("Another unit acts as Forward Observer")
        self._update()

    def placement_inputs(self) -> dict[str, str | int | float | bool]:
        profile = profile_of(self.session.game.unit(self.firer_id))
        inputs: dict[str, str | int | float | bool] = {
            "aim_x": self.aim[0], "aim_y": self.aim[1], "range": self.range,
            "ranges": str(profile.ranges) if profile is not None else "",
            "los": self.los.isChecked(), "observer": self.observer.isChecked(),
            "opportunity": self.opportunity.isChecked(), "mission": "single",
            "marker_id": self._new_marker_id(),
        }
        if self.arrow_known.isChecked():
            inputs["bearing"] = float(self.arrow_bearing.value())
        return inputs

    def shot(self) -> dict[str, str | int | float | bool]:
        """What every target's roll shares: the measured range, the move, line of sight and opportunity fire."""
        return {"range": self.range, "move": str(self.move_box.currentData()), "los": self.los.isChecked(),
                "opportunity": self.opportunity.isChecked()}

    def _new_marker_id(self) -> str:
        n = 1
        while f"impact{n}" in self.session.game.markers:
            n += 1
        return f"impact{n}"

    def _update(self) -> None:
        if self.placement is not None:
            return
        dist = self.range
        self.range_label.setText(f'{dist:g}" from {self.firer_name}')
        firer = self.session.game.unit(self.firer_id)
        parts: list[str] = []
        problem = ""
        for dice_type in ("fp", "at"):
            try:
                inputs = {**fire_inputs(firer, firer, "indirect", dist), **self.shot(), "dice_type": dice_type}
                plan = plan_fire(scalars(with_settings(self.session, "ab.close_support_fire", inputs)))
            except (RulesInputError, TableError) as exc:
                problem = str(exc)
                break
            parts.append(esc(describe_plan(plan)) + ("" if dice_type == "at" else f" ({plan.band} range)"))
        self.dice_label.setText("<br>".join(parts) if not problem else "")
        valid = self.placer.set_inputs(self.placement_inputs())
        placement_problem = "" if valid else self.placer.problem.text()
        own = bool(problem) and problem != placement_problem
        self.refusal.setText(problem if own else "")
        self.refusal.setVisible(own)
        self.placer.setEnabled(not own)
        self._draw()

    def refusal_text(self) -> str:
        """Why the mission cannot be fired as it stands, or "" when it can."""
        if not self.refusal.isHidden():
            return self.refusal.text()
        return "" if self.placer.problem.isHidden() else self.placer.problem.text()

    # -- the map ------------------------------------------------------------------------------------
    def _draw(self) -> None:
        """The burst where the fire would land (or did), and the deviation arrow once it is rolled."""
        if self.map_view is None:
            return
        radius = burst_radius()
        aim = self.aim
        items: list[QGraphicsItem] = [line_item(self._firer_point(), aim, BURST_COLOUR, Qt.PenStyle.DotLine)]
        res = self.placement or self.placer.result
        if res is None:
            items.append(circle_item(aim, radius, BURST_COLOUR, 30, Qt.PenStyle.DashLine))
        else:
            impact = (float(res.values["x"]), float(res.values["y"]))
            items.append(circle_item(impact, radius, BURST_COLOUR, 50))
            if res.outcome == "deviated":
                heading = bearing(aim, impact)
                items.append(line_item(aim, impact, ARROW_COLOUR))
                for side in (150.0, -150.0):
                    items.append(line_item(impact, offset(impact, heading + side, 0.6), ARROW_COLOUR))
        self.map_view.set_overlay(OVERLAY, items)

    # -- targets --------------------------------------------------------------------------------------
    def _placed(self, res: Resolution) -> None:
        self.placement = res
        self.marker_id = next((e.marker.id for e in res.effects if isinstance(e, PlaceMarker)), "")
        for w in (self.aim_x, self.aim_y, self.pick_aim, self.move_box, self.los, self.observer, self.pick_observer,
                  self.opportunity, self.arrow_known, self.arrow_bearing):
            w.setEnabled(False)
        self.placer.roll_button.setEnabled(False)
        self.placer.typed_button.setEnabled(False)
        impact = (float(res.values["x"]), float(res.values["y"]))
        game = self.session.game
        under = burst_targets(impact, [(u.id, (u.x, u.y)) for u in game.units.values()
                                       if u.id != self.firer_id])
        shot = self.shot()
        for uid in under:
            target = TargetFire(self.session, self.firer_id, uid, "indirect", shot, self.tabs)
            target.completed.connect(lambda _uid: self._progress())
            self.targets.append(target)
            self.tabs.addTab(target, game.unit(uid).name)
        names = "; ".join(f"{t.target_name} ({t.plan_text or t.refusal})"
                          for t in self.targets)
        self.targets_label.setText(f'Under the {burst_radius():g}" burst at ({impact[0]:.1f}, {impact[1]:.1f}): '
                                   + (names or "no units."))
        self._draw()
        self._progress()

    def _progress(self) -> None:
        waiting = [t.target_name for t in self.targets if not t.done]
        self.apply_button.setEnabled(self.placement is not None and not waiting and not self.applied)
        if self.applied:
            self.status.setText("Applied. The Impact Marker has been lifted.")
        elif waiting:
            self.status.setText("Still to roll: " + ", ".join(waiting))
        elif self.placement is not None:
            self.status.setText("Every target has its result: apply them together.")

    def apply(self) -> bool:
        """Every target's suppression and Disruption, and the Impact Marker lifted, as one undo step."""
        if self.placement is None or self.applied or any(not t.done for t in self.targets):
            return False
        effects = [e for t in self.targets if t.reaction.result is not None for e in t.reaction.result.effects]
        lines = [f"Indirect fire by {self.firer_name} on {len(self.targets)} unit(s) under the Impact Marker."]
        for t in self.targets:
            lines.extend(t.log_lines())
        lines.append("The Impact Marker is removed.")
        if self.marker_id in self.session.game.markers:
            effects.append(RemoveMarker(self.marker_id))
        try:
            self.session.apply(f"Indirect fire results: {self.firer_name}", effects, lines, kind="roll")
        except GameError as exc:
            self.status.setText(f"Not applied: {exc}")
            return False
        self.applied = True
        for t in self.targets:
            t.fire.mark_applied()
            t.reaction.mark_applied()
        self.marker_id = ""
        self._progress()
        if self.map_view is not None:
            self.map_view.clear_overlay(OVERLAY)
        return True

    def _closed(self, _result: int) -> None:
        """Closing mid-mission lifts the Impact Marker it placed, so nothing is left on the table."""
        if self.map_view is not None:
            if self.map_view.picking:
                self.map_view.cancel_pick()
            self.map_view.clear_overlay(OVERLAY)
        if self.marker_id and self.marker_id in self.session.game.markers and not self.applied:
            with contextlib.suppress(GameError):
                self.session.apply(f"Indirect fire called off: {self.firer_name}", [RemoveMarker(self.marker_id)],
                                   [f"{self.firer_name}'s indirect fire is called off; the Impact Marker is removed."])
            self.marker_id = ""
