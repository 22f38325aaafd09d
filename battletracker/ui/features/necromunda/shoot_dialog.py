"""The Shoot dialog: one Necromunda ranged attack from declaring the shot to its effects.

Declare the shot (a weapon profile and a target, from the list or the map),
measure range (from the map, editable to match the tape on the table), see
the exact odds of a miss, each number of Hits and each ammo state, then roll
or type the table's dice: the Hit D6, then the Firepower dice as faces. The
Arbitrator's toolkit options the game turns on are checked here: target
priority (a Cool check before another target may be chosen), walking fire
(later Hits to enemies within 3" of the target) and stray shots (a miss may
hit models within 1" of the line of fire). A Template profile makes no Hit
roll: the Template is laid on the map from the shooter towards the target and
the fighters it hits are listed. Everything the attack does is
applied as one undo step.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from battletracker.core.geometry import distance
from battletracker.core.odds import Distribution
from battletracker.model.effects import Effect, SetCondition
from battletracker.model.game import GameError, Unit
from battletracker.rules import Resolution, odds
from battletracker.rules.base import InputValue
from battletracker.rules.necromunda.areas import blast_hits, marker_sizes
from battletracker.rules.necromunda.conditions import CHECK_FALLING, ENGAGED, SERIOUSLY_INJURED, hit_effects
from battletracker.rules.necromunda.firepower import AMMO_READINGS, READING_SETTING
from battletracker.rules.necromunda.options import STRAY_SHOTS, TARGET_PRIORITY, WALKING_FIRE, enabled
from battletracker.rules.necromunda.profiles import shoot_inputs
from battletracker.rules.necromunda.stray_shots import MAX_AT_RISK, MAX_HITS, stray_shot_candidates
from battletracker.rules.necromunda.targeting import (
    PRIORITY_RANGE,
    FighterOnTable,
    check_walking_fire,
    needs_cool_check,
    priority_targets,
    walking_fire_candidates,
)
from battletracker.rules.tables import setting
from battletracker.ui.features.necromunda.overlays import SHOOT_KEY, profile_ranges, shoot_items
from battletracker.ui.features.necromunda.table import (
    RULESET,
    ProfileRef,
    enemies_by_distance,
    falling_text,
    fighters_on_table,
    in_the_fight,
    near_ledge,
    profile_refs,
    traits_of,
)
from battletracker.ui.features.necromunda.template_attack import COMBAT_REACH, TemplatePlacement, place_template
from battletracker.ui.procedure_runner import ProcedureDialog, ProcedureRunner, with_settings
from battletracker.ui.session import Session
from battletracker.ui.text import esc, plain

if TYPE_CHECKING:
    from battletracker.ui.map.view import MapView

MAX_COMBAT = 6
TEMPLATE_RULES = (
    "<b>How this dialog resolves a Template.</b> The full Template rules (rulebook pages 162 and 165) are not "
    "in the documents this app follows, so it takes the plain reading: the Template is laid with its narrow "
    "end touching the shooter's base, pointing at the target, and every fighter whose base it touches is hit, "
    "friend or foe, with no Hit roll. The documents' own rules then apply: only models on the target's level "
    "can be hit, and a hit on an Engaged model also hits every model it is Engaged with (read from the map as "
    "the Engaged fighters in base contact). Each fighter hit becomes Suppressed unless Engaged or Seriously "
    "Injured, and one within \u00bd\" of a ledge (the distances on its card) is flagged to check for "
    "falling. Check the placement on the table, and anything your rulebook adds (a roll to avoid the "
    "Template, ammo), before applying."
)
WARNING_STYLE = "color: white; background: #b3261e; padding: 4px; border-radius: 3px;"
NOTE_STYLE = "padding: 4px; border: 1px solid palette(mid); border-radius: 3px;"


def result_of(key: str) -> str:
    """The plot's bars: the result alone ("hits=2 ammo=out" with "hits=2"); the summary gives the ammo odds."""
    return key.partition(" ammo=")[0]


AMMO_TITLES = {"ok": "ammo fine", "out": "Out of Ammo", "jammed": "jammed"}


def odds_summary(dist: Distribution[str]) -> str:
    """The attack's odds read two ways: the result alone, then the ammo state alone."""
    results: dict[str, Fraction] = {}
    ammo: dict[str, Fraction] = {}
    for key, p in dist.items():
        result, _, state = key.partition(" ammo=")
        results[result] = results.get(result, Fraction(0)) + p
        if state:
            ammo[state] = ammo.get(state, Fraction(0)) + p

    def order(item: tuple[str, Fraction]) -> tuple[int, str]:
        key = item[0]
        return (0, key) if not key.startswith("hits=") else (1, f"{int(key[5:]):03d}")

    def pct(p: Fraction) -> str:
        return f"{float(p) * 100:.1f}%"

    text = "Result: " + ", ".join(f"{k.replace('_', ' ').replace('=', ' ')} {pct(p)}"
                                  for k, p in sorted(results.items(), key=order))
    if ammo:
        text += "<br>Ammo after the shot: " + ", ".join(f"{AMMO_TITLES.get(k, k)} {pct(ammo[k])}"
                                                        for k in AMMO_TITLES if k in ammo)
    return text


class ShootDialog(ProcedureDialog):
    """Declare, measure, roll and apply one ranged attack."""

    def __init__(self, session: Session, shooter_id: str, map_view: MapView | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.shooter_id = shooter_id
        self.map_view = map_view
        self._hidden: set[str] = set()
        self._cool: Resolution | None = None
        self._updating = False
        game = session.game
        shooter = self.shooter
        self.setWindowTitle(f"Shoot \u2013 {shooter.name}")
        self.setMinimumSize(680, 820)
        self.stray_on = enabled(STRAY_SHOTS, game.settings)
        self.walking_on = enabled(WALKING_FIRE, game.settings)
        self.priority_on = enabled(TARGET_PRIORITY, game.settings)
        self.reading = str(setting(RULESET, READING_SETTING, game.settings))

        self.heading = QLabel(self)
        self.heading.setWordWrap(True)
        side = game.sides[shooter.side].name if 0 <= shooter.side < len(game.sides) else ""
        stats = ", ".join(f"{label} {shooter.stats[key]}+" for key, label in (("bs", "BS"), ("cool", "Cool"))
                          if key in shooter.stats)
        self.heading.setText(f"<b>{esc(shooter.name)}</b> ({esc(side)}) \u2013 {esc(stats)}, level {shooter.level}")
        self.profile_box = QComboBox(self)
        self.profile_box.setObjectName("profile")
        self.refs: list[ProfileRef] = profile_refs(shooter)
        for ref in self.refs:
            self.profile_box.addItem(ref.title + ("  (Template: no Hit roll)" if ref.template else ""))
        first = next((i for i, ref in enumerate(self.refs) if not ref.template), 0)
        self.profile_box.setCurrentIndex(first)

        self.target_box = QComboBox(self)
        self.target_box.setObjectName("target")
        self.pick_button = QPushButton("Pick on map", self)
        self.pick_button.setEnabled(map_view is not None)
        self.pick_button.setToolTip("Click the target on the map")
        target_row = QHBoxLayout()
        target_row.addWidget(self.target_box, 1)
        target_row.addWidget(self.pick_button)

        self.range_box = QDoubleSpinBox(self)
        self.range_box.setObjectName("range")
        self.range_box.setRange(0.0, 500.0)
        self.range_box.setDecimals(1)
        self.range_box.setSingleStep(0.5)
        self.range_box.setSuffix('"')
        self.range_note = QLabel(self)
        range_row = QHBoxLayout()
        range_row.addWidget(self.range_box)
        range_row.addWidget(self.range_note, 1)
        self.firepower_box = QSpinBox(self)
        self.firepower_box.setObjectName("firepower_dice")
        self.engaged_box = QCheckBox("Engaged", self)
        self.injured_box = QCheckBox("Seriously Injured (\u22121 to hit)", self)
        self.close_combat_box = QCheckBox("In close combat (Rapid Fire and Light: a single shot)", self)
        target_state = QHBoxLayout()
        self.ledge_box = QCheckBox("within \u00bd\" of a ledge", self)
        self.ledge_box.setObjectName("near_ledge")
        self.ledge_box.setToolTip("From the ledge distances on the target's card; a Hit that suppresses it "
                                  "means a falling check")
        target_state.addWidget(self.engaged_box)
        target_state.addWidget(self.injured_box)
        target_state.addWidget(self.ledge_box)
        target_state.addStretch(1)
        self.modifier_box = QSpinBox(self)
        self.modifier_box.setRange(-6, 6)
        self.modifier_box.setToolTip("Anything else added to the Hit roll (cover, skills, ...)")

        form = QFormLayout()
        form.addRow(self.heading)
        form.addRow("Weapon profile", self.profile_box)
        form.addRow("Target", target_row)
        form.addRow("Range", range_row)
        form.addRow("Target is", target_state)
        form.addRow("Firepower dice", self.firepower_box)
        form.addRow("", self.close_combat_box)
        form.addRow("Other modifier", self.modifier_box)
        self.form = form

        self.ammo_note = QLabel(self)
        self.ammo_note.setObjectName("ammo_note")
        self.ammo_note.setWordWrap(True)
        self.ammo_note.setStyleSheet(NOTE_STYLE)

        self.priority_group = QGroupBox("Target priority (Arbitrator's toolkit)", self)
        pl = QVBoxLayout(self.priority_group)
        self.priority_label = plain(QLabel(self.priority_group))
        self.priority_label.setWordWrap(True)
        self.sight_label = QLabel("Tick the enemies within 12\" that are <b>not</b> in Line of Sight:",
                                  self.priority_group)
        self.sight_list = QListWidget(self.priority_group)
        self.sight_list.setObjectName("not_in_sight")
        self.sight_list.setMaximumHeight(110)
        self.cool_runner = ProcedureRunner(session, "necro.cool_check", "Cool check", self.priority_group)
        self.cool_runner.apply_button.hide()
        self.cool_runner.setMinimumHeight(220)
        pl.addWidget(self.priority_label)
        pl.addWidget(self.sight_label)
        pl.addWidget(self.sight_list)
        pl.addWidget(self.cool_runner)
        self.priority_group.setVisible(self.priority_on)

        self.blocked = QLabel(self)
        self.blocked.setObjectName("blocked")
        self.blocked.setWordWrap(True)
        self.blocked.setStyleSheet(WARNING_STYLE)
        self.blocked.hide()
        self.runner = ProcedureRunner(session, "necro.shoot", "Shoot", self, group=result_of)
        self.runner.apply_button.hide()
        self.runner.setMinimumHeight(420)
        self.summary = QLabel(self)
        self.summary.setObjectName("odds_summary")
        self.summary.setWordWrap(True)

        self.walking_group = QGroupBox("Walking fire (Arbitrator's toolkit): give each Hit a model", self)
        self.walking_form = QFormLayout(self.walking_group)
        self.walking_boxes: list[QComboBox] = []
        self.walking_group.hide()

        self.stray_group = QGroupBox("Stray shots (Arbitrator's toolkit)", self)
        sl = QVBoxLayout(self.stray_group)
        self.stray_label = QLabel(self.stray_group)
        self.stray_label.setWordWrap(True)
        self.stray_runner = ProcedureRunner(session, "necro.stray_shots", "Stray shots", self.stray_group)
        self.stray_runner.apply_button.hide()
        self.stray_runner.setMinimumHeight(260)
        sl.addWidget(self.stray_label)
        sl.addWidget(self.stray_runner)
        self.stray_group.hide()

        self.combat_group = QGroupBox("Hits on an Engaged target: allocated at random in the combat", self)
        cl = QVBoxLayout(self.combat_group)
        self.combat_label = plain(QLabel(self.combat_group))
        self.combat_label.setWordWrap(True)
        self.combat_runner = ProcedureRunner(session, "necro.engaged_allocation", "Allocate Hits", self.combat_group)
        self.combat_runner.apply_button.hide()
        self.combat_runner.setMinimumHeight(260)
        cl.addWidget(self.combat_label)
        cl.addWidget(self.combat_runner)
        self.combat_group.hide()

        self.blast_label = plain(QLabel(self))
        self.blast_label.setObjectName("blast")
        self.blast_label.setWordWrap(True)
        self.blast_label.setStyleSheet(NOTE_STYLE)
        self.blast_label.hide()

        self.template_group = QGroupBox("Template", self)
        tl = QVBoxLayout(self.template_group)
        self.template_rules = QLabel(TEMPLATE_RULES, self.template_group)
        self.template_rules.setWordWrap(True)
        self.template_rules.setStyleSheet(NOTE_STYLE)
        self.template_label = QLabel(self.template_group)
        self.template_label.setObjectName("template_hits")
        self.template_label.setWordWrap(True)
        tl.addWidget(self.template_rules)
        tl.addWidget(self.template_label)
        self.template_group.hide()

        self.apply_button = QPushButton("&Apply", self)
        self.apply_button.setObjectName("apply")
        self.apply_button.setEnabled(False)
        self.apply_button.setToolTip("Apply everything this attack did as one undo step")
        self.status = plain(QLabel(self))
        self.status.setWordWrap(True)
        close = QPushButton("Close", self)
        close.setAutoDefault(False)
        close.clicked.connect(self.close_asking)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.apply_button)
        buttons.addWidget(close)

        body = self.body = QWidget(self)
        inner = QVBoxLayout(body)
        inner.addLayout(form)
        inner.addWidget(self.ammo_note)
        inner.addWidget(self.priority_group)
        inner.addWidget(self.blocked)
        inner.addWidget(self.summary)
        inner.addWidget(self.runner, 1)
        inner.addWidget(self.walking_group)
        inner.addWidget(self.stray_group)
        inner.addWidget(self.combat_group)
        inner.addWidget(self.blast_label)
        inner.addWidget(self.template_group)
        # Takes the room the odds plot leaves when a Template hides it, so the rows above keep their height.
        self.template_room = QWidget(body)
        self.template_room.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        self.template_room.hide()
        inner.addWidget(self.template_room, 1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(body)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addLayout(buttons)

        self._fill_targets()
        if self.priority_on:
            self._fill_sight()
        self.profile_box.currentIndexChanged.connect(self._profile_changed)
        self.target_box.currentIndexChanged.connect(self._target_changed)
        self.pick_button.clicked.connect(self.pick_target)
        for box in (self.range_box, self.firepower_box, self.modifier_box):
            box.valueChanged.connect(self.update_inputs)
        for check in (self.engaged_box, self.injured_box, self.ledge_box, self.close_combat_box):
            check.toggled.connect(self.update_inputs)
        self.sight_list.itemChanged.connect(self._sight_changed)
        self.runner.resolved.connect(self._shot_resolved)
        self.cool_runner.resolved.connect(self._cool_resolved)
        self.stray_runner.resolved.connect(lambda _res: self._update_apply())
        self.combat_runner.resolved.connect(lambda _res: self._update_apply())
        self.apply_button.clicked.connect(self.apply)
        self.finished.connect(self._clear_overlay)
        self._profile_changed()
        self._target_changed()

    # -- what the dialog is about ---------------------------------------------------------
    @property
    def shooter(self) -> Unit:
        return self.session.game.unit(self.shooter_id)

    @property
    def ref(self) -> ProfileRef:
        return self.refs[max(0, self.profile_box.currentIndex())]

    @property
    def target(self) -> Unit | None:
        target_id = self.target_box.currentData()
        return self.session.game.units.get(target_id) if isinstance(target_id, str) else None

    @property
    def is_template(self) -> bool:
        return self.ref.template

    def template(self) -> TemplatePlacement | None:
        """The Template laid towards the current target (None without a target or for other profiles)."""
        target = self.target
        if not self.is_template or target is None:
            return None
        return place_template(self.session.game, self.shooter, target)

    def _fill_targets(self) -> None:
        self.target_box.clear()
        for unit, dist in enemies_by_distance(self.session.game, self.shooter):
            self.target_box.addItem(f'{unit.name} ({dist:.1f}")', unit.id)

    def set_target(self, unit_id: str) -> bool:
        index = self.target_box.findData(unit_id)
        if index < 0:
            return False
        self.target_box.setCurrentIndex(index)
        return True

    def pick_target(self) -> None:
        if self.map_view is None:
            return

        def picked(unit_id: str | None) -> None:
            if unit_id is not None and not self.set_target(unit_id):
                self.status.setText("That is not an enemy fighter still in the fight.")

        self.map_view.pick_unit(picked, f"Click the target for {self.shooter.name}")

    # -- inputs -------------------------------------------------------------------------------
    def _profile_changed(self) -> None:
        weapon = self.shooter.weapons[self.ref.weapon]
        traits = traits_of(weapon, self.ref.profile)
        self._updating = True
        self.firepower_box.setRange(1 if traits.rapid_fire else 0, max(traits.rapid_fire, 0))
        self.firepower_box.setValue(traits.rapid_fire)
        self.firepower_box.setEnabled(traits.rapid_fire > 1)
        self.close_combat_box.setVisible(bool(traits.rapid_fire and traits.light))
        if not (traits.rapid_fire and traits.light):
            self.close_combat_box.setChecked(False)
        self._updating = False
        self.ammo_note.setText(self._ammo_text(traits.rapid_fire, traits.ammo))
        self.ammo_note.setVisible(bool(traits.rapid_fire))
        template = traits.template
        for widget in (self.range_box, self.modifier_box, self.engaged_box, self.injured_box, self.ledge_box):
            widget.setEnabled(not template)
        self.runner.setVisible(not template)
        self.template_group.setVisible(template)
        self.template_room.setVisible(template)
        self.update_inputs()

    def _ammo_text(self, rapid_fire: int, ammo: int) -> str:
        base = ("Firepower dice: one ammo symbol puts this profile Out of Ammo; two or more jam the weapon "
                "for the rest of the battle.")
        if not ammo:
            return base
        return (f"{base}<br><b>Ammo ({ammo}+)</b>: the rules say such a weapon \u201cmay be considered to have "
                f"rolled one additional ammo symbol\u201d. This game reads it as <i>{self.reading}</i>: "
                f"{AMMO_READINGS[self.reading]} (Game \u203a Ruleset settings \u203a Ammo (X+) with Firepower dice; "
                f"a default to check against your rulebook.)")

    def _target_changed(self) -> None:
        target = self.target
        self._updating = True
        if target is not None:
            shooter = self.shooter
            self.range_box.setValue(round(distance((shooter.x, shooter.y), (target.x, target.y)), 1))
            self.range_note.setText("measured from the map, centre to centre; change it to the table's tape")
            self.engaged_box.setChecked(target.has(ENGAGED))
            self.ledge_box.setChecked(near_ledge(target))
            self.injured_box.setChecked(target.has(SERIOUSLY_INJURED))
        self._updating = False
        self.update_inputs()

    def _fill_sight(self) -> None:
        self.sight_list.blockSignals(True)
        self.sight_list.clear()
        for unit, dist in enemies_by_distance(self.session.game, self.shooter):
            if dist > PRIORITY_RANGE:
                break
            item = QListWidgetItem(f'{unit.name} ({dist:.1f}")', self.sight_list)
            item.setData(Qt.ItemDataRole.UserRole, unit.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if unit.id in self._hidden else Qt.CheckState.Unchecked)
        self.sight_list.blockSignals(False)
        self.sight_label.setVisible(self.sight_list.count() > 0)
        self.sight_list.setVisible(self.sight_list.count() > 0)

    def set_in_sight(self, unit_id: str, seen: bool) -> None:
        """Mark an enemy as in or out of the shooter's Line of Sight (what the player sees on the table)."""
        (self._hidden.discard if seen else self._hidden.add)(unit_id)
        self._fill_sight()
        self.update_inputs()

    def _sight_changed(self, item: QListWidgetItem) -> None:
        key = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(key, str):
            self.set_in_sight(key, item.checkState() != Qt.CheckState.Checked)

    def inputs(self) -> dict[str, InputValue]:
        """`necro.shoot`'s inputs from the dialog; a profile the rules cannot read gives its reason."""
        shooter = self.shooter
        ref = self.ref
        weapon = shooter.weapons[ref.weapon]
        inputs: dict[str, InputValue] = dict(shoot_inputs(weapon, ref.profile))
        traits = traits_of(weapon, ref.profile)
        inputs.update(bs=shooter.stats.get("bs", 0), range=self.range_box.value(),
                      target_engaged=self.engaged_box.isChecked(), target_near_ledge=self.ledge_box.isChecked(),
                      target_seriously_injured=self.injured_box.isChecked(),
                      other_modifier=self.modifier_box.value(), firer_id=shooter.id, weapon=ref.weapon)
        single = traits.rapid_fire and traits.light and self.close_combat_box.isChecked()
        if single:
            inputs["close_combat"] = True
        elif traits.rapid_fire:
            inputs["firepower_dice"] = self.firepower_box.value()
        target = self.target
        if target is not None:
            inputs["target_id"] = target.id
        return inputs

    def update_inputs(self) -> None:
        if self._updating:
            return
        if self.is_template:
            self.summary.hide()
            self.blocked.hide()
            self._check_priority()
            self._clear_after_shot()
            self._show_template()
            self._update_overlay()
            return
        try:
            inputs = self.inputs()
        except ValueError as exc:
            self._block(str(exc))
            self._update_overlay()
            return
        if self.runner.set_inputs(inputs):
            merged = with_settings(self.session, "necro.shoot", inputs)
            self.summary.setText(odds_summary(odds("necro.shoot", {k: v for k, v in merged.items()
                                                                   if isinstance(v, str | int | float | bool)})))
            self.summary.show()
        else:
            self.summary.hide()
        self.blocked.hide()
        self._check_priority()
        self._clear_after_shot()
        self._update_overlay()

    def _show_template(self) -> None:
        placement = self.template()
        target = self.target
        game = self.session.game
        if placement is None or target is None:
            self.template_label.setText("Choose a target to lay the Template towards.")
        elif not placement.reaches:
            self.template_label.setText(esc(f"The Template laid towards {target.name} does not reach: it is "
                                            f"{placement.shape.length:g}\" long and must touch the target's base."))
        else:
            lines = [f"<b>Hit</b> (level {target.level}):"]
            for key in placement.hit:
                unit = game.units[key]
                state = ("Engaged: not Suppressed" if unit.has(ENGAGED) else
                         "Seriously Injured: not Suppressed" if unit.has(SERIOUSLY_INJURED) else
                         "becomes Suppressed and checks for falling" if near_ledge(unit) else "becomes Suppressed")
                lines.append(f"\u2022 {esc(unit.name)} \u2013 {state}")
            if placement.other_level:
                lines.append("Under it on another level, not hit: "
                             + esc(", ".join(game.units[k].name for k in placement.other_level)))
            self.template_label.setText("<br>".join(lines))
        self._update_apply()

    # -- target priority ------------------------------------------------------------------
    def priority(self) -> tuple[str, ...]:
        """Enemies the shot must go to unless a Cool check passes (empty when the option is off)."""
        if not self.priority_on:
            return ()
        shooter = self.shooter
        fighters = fighters_on_table(self.session.game, frozenset(self._hidden))
        return priority_targets((shooter.x, shooter.y), shooter.side, fighters)

    def _block(self, text: str) -> None:
        """Refuse the roll for a reason the dialog knows (the rules' own refusals show in the runner)."""
        self.blocked.setText(text)
        self.blocked.show()
        self.runner.roll_button.setEnabled(False)
        self.runner.typed_button.setEnabled(False)

    def _check_priority(self) -> None:
        if not self.priority_on:
            return
        priority = self.priority()
        target = self.target
        names = ", ".join(self.session.game.units[k].name for k in priority)
        cool = self.shooter.stats.get("cool")
        needs = target is not None and needs_cool_check(target.id, priority)
        if not priority:
            self.priority_label.setText("No enemy in Line of Sight within 12\" must be the target "
                                        "(none that close, or the closest is Engaged or Seriously Injured): "
                                        "any target may be chosen.")
        elif not needs:
            self.priority_label.setText(f"{names} is the closest enemy in Line of Sight within 12\" and is the "
                                        f"target: no Cool check is needed.")
        else:
            self.priority_label.setText(f"{names} is the closest enemy in Line of Sight within 12\": to shoot "
                                        f"another target {self.shooter.name} must first pass a Cool check "
                                        f"(Cool {cool}+ on 2D6).")
        self.cool_runner.setVisible(needs)
        if needs and self._cool is None:
            self.cool_runner.set_inputs({"cool": cool if isinstance(cool, int) and not isinstance(cool, bool) else 0})
        passed = self._cool is not None and self._cool.outcome == "passed"
        if needs and not passed:
            failed = self._cool is not None
            self._block(
                f"Target priority: {self.shooter.name} failed the Cool check and must shoot {names}." if failed
                else f"Target priority: pass the Cool check above before shooting {target.name if target else ''}, "
                     f"or choose {names}.")
        else:
            self.blocked.hide()

    def _cool_resolved(self, res: Resolution) -> None:
        self._cool = res
        self.cool_runner.roll_button.setEnabled(False)
        self.cool_runner.typed_button.setEnabled(False)
        self._check_priority()
        if res.outcome == "passed" and not self.is_template:
            self.runner.set_inputs(self.inputs())
            self._check_priority()
        self._update_apply()

    # -- after the shot -----------------------------------------------------------------------
    def _clear_after_shot(self) -> None:
        self.walking_group.hide()
        self.stray_group.hide()
        self.combat_group.hide()
        self.blast_label.hide()
        self._update_apply()

    def _fighters(self) -> list[FighterOnTable]:
        shooter = self.shooter
        ranges = profile_ranges(shooter, self.ref.weapon, self.ref.profile)
        reach = ranges[1] if ranges else 0.0
        in_range = frozenset(u.id for u in self.session.game.units.values()
                             if distance((shooter.x, shooter.y), (u.x, u.y)) <= reach)
        return fighters_on_table(self.session.game, frozenset(self._hidden), in_range)

    def walking_candidates(self) -> list[str]:
        target = self.target
        if target is None:
            return []
        fighters = self._fighters()
        original = next(f for f in fighters if f.key == target.id) if in_the_fight(target) else None
        if original is None:
            return []
        return walking_fire_candidates(original, self.shooter.side, fighters)

    def stray_candidates(self) -> list[str]:
        target = self.target
        if target is None:
            return []
        shooter = self.shooter
        models = [(u.id, (u.x, u.y)) for u in self.session.game.units.values() if in_the_fight(u)]
        return stray_shot_candidates((shooter.id, (shooter.x, shooter.y)), (target.id, (target.x, target.y)),
                                     models)

    def _shot_resolved(self, res: Resolution) -> None:
        self._clear_after_shot()
        hits = int(res.values.get("hits", 0))
        target = self.target
        game = self.session.game
        if self.walking_on and hits > 1 and target is not None:
            candidates = self.walking_candidates()
            if candidates:
                self._build_walking(hits, target, candidates)
        stray = int(res.values.get("stray_hits", 0))
        if self.stray_on and not res.values.get("hit") and stray and target is not None:
            at_risk = self.stray_candidates()
            if at_risk:
                shown = at_risk[:MAX_AT_RISK]
                names = ", ".join(game.units[k].name for k in shown)
                self.stray_label.setText(f"The attack missed: {min(stray, MAX_HITS)} stray shot(s). Models within "
                                         f"1\" of the line of fire, closest to {self.shooter.name} first: {names}. "
                                         f"Each is hit on a 1-3.")
                self.stray_runner.set_inputs({
                    "at_risk": ",".join(shown),
                    "hits": min(stray, MAX_HITS),
                    "engaged": ",".join(k for k in shown if game.units[k].has(ENGAGED)),
                    "seriously_injured": ",".join(k for k in shown if game.units[k].has(SERIOUSLY_INJURED)),
                    "near_ledge": ",".join(k for k in shown if near_ledge(game.units[k])),
                })
                self.stray_group.show()
        if res.values.get("allocate_at_random") and target is not None:
            combat = self.combat_of(target)
            names = ", ".join(game.units[k].name for k in combat)
            if len(combat) >= 2:
                self.combat_label.setText(f"{target.name} is Engaged: each Hit goes at random to one of {names} "
                                          f"(Engaged models within {COMBAT_REACH:g}\" of the target, friend or foe).")
                self.combat_runner.set_inputs({"combat": ",".join(combat), "hits": hits})
            else:
                self.combat_label.setText(f"{target.name} is Engaged but no other Engaged model is within "
                                          f"{COMBAT_REACH:g}\" on the map: allocate the Hits at the table.")
                self.combat_runner.hide()
            self.combat_group.show()
        blast = traits_of(self.shooter.weapons[self.ref.weapon], self.ref.profile).blast
        if blast is not None and res.values.get("hit") and target is not None:
            fighters = fighters_on_table(game)
            hit = blast_hits((target.x, target.y), blast, target.id, fighters, marker_sizes().base_radius)
            names = ", ".join(game.units[k].name for k in hit)
            self.blast_label.setText(f"Blast ({blast:g}\") centred on {target.name}: under the marker on level "
                                     f"{target.level}: {names or 'no one'}. Scatter it on the table if the rules "
                                     f"call for it and resolve each model's Hit.")
            self.blast_label.show()
        self._update_apply()
        self._update_overlay()

    def _build_walking(self, hits: int, target: Unit, candidates: list[str]) -> None:
        while self.walking_form.rowCount():
            self.walking_form.removeRow(0)
        self.walking_boxes = []
        game = self.session.game
        first = plain(QLabel(f"{target.name} (the original target)", self.walking_group))
        self.walking_form.addRow("Hit 1", first)
        for i in range(2, hits + 1):
            box = QComboBox(self.walking_group)
            box.setObjectName(f"walking_{i}")
            box.addItem(target.name, target.id)
            for key in candidates:
                box.addItem(f"{game.units[key].name}", key)
            box.currentIndexChanged.connect(lambda _i: self._update_overlay())
            self.walking_form.addRow(f"Hit {i}", box)
            self.walking_boxes.append(box)
        self.walking_group.show()

    def walking_allocation(self, hits: int, target: Unit) -> tuple[str, ...]:
        """The model each Hit goes to, checked against the walking-fire rule."""
        given = [target.id, *(str(b.currentData()) for b in self.walking_boxes)]
        return check_walking_fire(hits, target.id, given, self.walking_candidates())

    def combat_of(self, target: Unit) -> list[str]:
        """The target and the Engaged models near it, closest first: the map's best reading of the combat."""
        near = [(distance((target.x, target.y), (u.x, u.y)), u.id) for u in self.session.game.units.values()
                if u.id != target.id and in_the_fight(u) and u.has(ENGAGED)
                and distance((target.x, target.y), (u.x, u.y)) <= COMBAT_REACH]
        near.sort()
        return [target.id, *(k for _d, k in near)][:MAX_COMBAT]

    def _stray_needed(self) -> bool:
        return not self.stray_group.isHidden()

    def _combat_needed(self) -> bool:
        return not self.combat_group.isHidden() and not self.combat_runner.isHidden()

    def _update_apply(self) -> None:
        if self.is_template:
            placement = self.template()
            ready = placement is not None and placement.reaches and self.blocked.isHidden()
            self.apply_button.setEnabled(ready)
            self.status.setText("Ready to apply as one undo step." if ready else "")
            return
        ready = (self.runner.result is not None
                 and (not self._stray_needed() or self.stray_runner.result is not None)
                 and (not self._combat_needed() or self.combat_runner.result is not None))
        self.apply_button.setEnabled(ready)
        if self.runner.result is not None and not ready:
            self.status.setText("Roll the stray shots or the allocation before applying.")
        elif ready:
            self.status.setText("Ready to apply as one undo step.")
        else:
            self.status.setText("")

    # -- applying ------------------------------------------------------------------------------
    def effects_and_log(self) -> tuple[str, list[Effect], list[str]]:
        """Everything the attack does, in order: Cool check, the shot, walking fire, stray shots."""
        res = self.runner.result
        assert res is not None
        shooter = self.shooter
        target = self.target
        ref = self.ref
        title = f"{shooter.name} shoots {ref.title}" + (f" at {target.name}" if target else "")
        log: list[str] = []
        if self._cool is not None:
            log.extend(self._cool.log)
        rolls = "; ".join(f"{label}: {' '.join(str(v) for v in values)}" for label, values in res.rolls)
        log.append(f"{title}" + (f" - rolls: {rolls}" if rolls else ""))
        log.extend(res.log)
        effects: list[Effect] = list(res.effects)
        hits = int(res.values.get("hits", 0))
        if target is not None and self.walking_boxes and hits > 1:
            allocation = self.walking_allocation(hits, target)
            game = self.session.game
            others = [k for k in dict.fromkeys(allocation) if k != target.id]
            log.append("Walking fire: " + ", ".join(f"Hit {i + 1} to {game.units[k].name}"
                                                    for i, k in enumerate(allocation)))
            for key in others:
                unit = game.units[key]
                effects.extend(hit_effects(key, engaged=unit.has(ENGAGED),
                                           seriously_injured=unit.has(SERIOUSLY_INJURED),
                                           near_ledge=near_ledge(unit)))
        if self._combat_needed() and self.combat_runner.result is not None:
            drawn = self.combat_runner.result
            arolls = "; ".join(f"{label}: {' '.join(str(v) for v in values)}" for label, values in drawn.rolls)
            log.append(f"Allocation - rolls: {arolls}")
            log.extend(drawn.log)
        if self._stray_needed() and self.stray_runner.result is not None:
            stray = self.stray_runner.result
            srolls = "; ".join(f"{label}: {' '.join(str(v) for v in values)}" for label, values in stray.rolls)
            log.append(f"Stray shots - rolls: {srolls}")
            log.extend(stray.log)
            effects.extend(stray.effects)
        return title, effects, log

    def template_effects_and_log(self) -> tuple[str, list[Effect], list[str]]:
        """The Template's Hits: each fighter under it on the target's level, and their combats."""
        placement = self.template()
        target = self.target
        if placement is None or target is None or not placement.reaches:
            raise ValueError("the Template does not reach the target")
        game = self.session.game
        title = f"{self.shooter.name} fires {self.ref.title} (Template) at {target.name}"
        names = ", ".join(game.units[k].name for k in placement.hit)
        log = list(self._cool.log) if self._cool is not None else []
        log.append(f"{title} - the Template hits {names}")
        effects: list[Effect] = []
        for key in placement.hit:
            unit = game.units[key]
            hit = hit_effects(key, engaged=unit.has(ENGAGED), seriously_injured=unit.has(SERIOUSLY_INJURED),
                              near_ledge=near_ledge(unit))
            effects.extend(hit)
            if hit:
                log.append(f"{unit.name} becomes Suppressed")
        return title, effects, log

    def falling_lines(self, effects: list[Effect]) -> list[str]:
        """One line for each fighter the attack flags to check for falling, naming its ledge."""
        units = self.session.game.units
        flagged = dict.fromkeys(e.unit_id for e in effects if isinstance(e, SetCondition)
                                and e.condition == CHECK_FALLING and e.present and e.unit_id in units)
        return [falling_text(units[k]) for k in flagged]

    def apply(self) -> bool:
        if self.runner.result is None and not self.is_template:
            return False
        try:
            title, effects, log = self.template_effects_and_log() if self.is_template else self.effects_and_log()
            log.extend(self.falling_lines(effects))
            self.session.apply(title, effects, log, kind="roll")
        except (GameError, ValueError) as exc:
            self.status.setText(f"Not applied: {exc}")
            return False
        for runner in (self.cool_runner, self.runner, self.stray_runner, self.combat_runner):
            runner.mark_applied()
        self._cool = None
        self.update_inputs()
        self.apply_button.setEnabled(False)
        self.status.setText("Applied. Undo takes the whole attack back; the dialog now shows the next shot.")
        return True

    # -- map ------------------------------------------------------------------------------------
    def _update_overlay(self) -> None:
        if self.map_view is None:
            return
        shooter = self.shooter
        ref = self.ref
        traits = traits_of(shooter.weapons[ref.weapon], ref.profile)
        self.map_view.set_overlay(SHOOT_KEY, shoot_items(
            self.map_view, shooter, self.target, profile_ranges(shooter, ref.weapon, ref.profile), ref.title,
            stray=self.stray_on, walking=self.walking_on and traits.rapid_fire > 0, priority=self.priority_on,
            blast=traits.blast, template=self.template()))

    def _clear_overlay(self) -> None:
        if self.map_view is not None:
            self.map_view.clear_overlay(SHOOT_KEY)


