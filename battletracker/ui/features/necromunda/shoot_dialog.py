"""The Shoot dialog: one Necromunda ranged attack, from declaring the shot to its effects.

The dialog only gathers the player's choices (a weapon profile, a target
from the list or the map, the range on the table's tape, the target's state,
the enemies out of Line of Sight) and hands them to the rules:
`plans.attack_plan` reads the table into `necro.attack`'s inputs and the facts
shown here (range band, target priority, walking fire, stray shots, the
combat, a Blast or the Template). The odds are those of `necro.attack`, the
one procedure Apply resolves: the Cool check target priority may ask for, the
shot, walking fire (each later Hit's model asked in the dice row), stray
shots and Hits allocated in a combat, with the table's dice typed in the
rules' order or rolled by the app. Everything is applied as one undo step.
The target's cover and who is out of Line of Sight start at the map's
reading (the terrain drawn on it); a different cover, or sight the map does
not see, is the player's word with an optional reason, logged.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent
from PySide6.QtCore import QObject
from PySide6.QtCore import QSize
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QDoubleSpinBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QGroupBox
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QListWidget
from PySide6.QtWidgets import QListWidgetItem
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QScrollArea
from PySide6.QtWidgets import QSizePolicy
from PySide6.QtWidgets import QSpinBox
from PySide6.QtWidgets import QStyle
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.core.odds import Distribution
from battletracker.model.game import Unit
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules.base import InputValue
from battletracker.rules.base import message_of
from battletracker.rules.necromunda import actions as necro_actions
from battletracker.rules.necromunda.attack import COOL_FAILED
from battletracker.rules.necromunda.attack import label
from battletracker.rules.necromunda.attack import result_label
from battletracker.rules.necromunda.conditions import ENGAGED
from battletracker.rules.necromunda.conditions import SERIOUSLY_INJURED
from battletracker.rules.necromunda.firepower import AMMO_READINGS
from battletracker.rules.necromunda.firepower import CHECK_READING
from battletracker.rules.necromunda.firepower import READING_SETTING
from battletracker.rules.necromunda.options import STRAY_SHOTS
from battletracker.rules.necromunda.options import TARGET_PRIORITY
from battletracker.rules.necromunda.options import WALKING_FIRE
from battletracker.rules.necromunda.options import enabled
from battletracker.rules.necromunda.plans import NecroPlan
from battletracker.rules.necromunda.plans import attack_plan
from battletracker.rules.necromunda.plans import cover_to_hit
from battletracker.rules.necromunda.plans import map_cover
from battletracker.rules.necromunda.plans import map_hidden
from battletracker.rules.necromunda.plans import measured_range
from battletracker.rules.necromunda.plans import priority_for
from battletracker.rules.necromunda.plans import sight_candidates
from battletracker.rules.necromunda.plans import template_for
from battletracker.rules.necromunda.table import RULESET
from battletracker.rules.necromunda.table import ProfileRef
from battletracker.rules.necromunda.table import enemies_by_distance
from battletracker.rules.necromunda.table import near_ledge
from battletracker.rules.necromunda.table import profile_ranges
from battletracker.rules.necromunda.table import profile_refs
from battletracker.rules.necromunda.table import traits_of
from battletracker.rules.necromunda.targeting import PRIORITY_RANGE
from battletracker.rules.necromunda.template import TemplatePlacement
from battletracker.rules.tables import TableError
from battletracker.rules.tables import setting
from battletracker.ui.features.necromunda.overlays import SHOOT_KEY
from battletracker.ui.features.necromunda.overlays import shoot_items
from battletracker.ui.fit import Columns
from battletracker.ui.procedure_parts import FactsPanel
from battletracker.ui.procedure_parts import OverlayScope
from battletracker.ui.procedure_parts import OverruledReading
from battletracker.ui.procedure_parts import RefusalBanner
from battletracker.ui.procedure_parts import TargetPicker
from battletracker.ui.procedure_parts import replan_on
from battletracker.ui.procedure_runner import FirstOpening
from battletracker.ui.procedure_runner import ProcedureDialog
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.session import Session
from battletracker.ui.text import esc
from battletracker.ui.text import plain

if TYPE_CHECKING:
    from battletracker.ui.map.view import MapView

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
NOTE_STYLE = "padding: 4px; border: 1px solid palette(mid); border-radius: 3px;"
AMMO_TITLES = {"ok": "ammo fine", "out": "Out of Ammo", "jammed": "jammed"}


def odds_summary(dist: Distribution[str]) -> str:
    """The attack's odds read two ways: the result alone, then the ammo state alone."""
    results: dict[str, Fraction] = {}
    ammo: dict[str, Fraction] = {}
    for key, p in dist.items():
        result = result_label(key)
        results[result] = results.get(result, Fraction(0)) + p
        state = next((part.removeprefix("ammo=") for part in key.split(" ") if part.startswith("ammo=")), "")
        if state:
            ammo[state] = ammo.get(state, Fraction(0)) + p

    def pct(p: Fraction) -> str:
        return f"{float(p) * 100:.1f}%"

    text = "Result: " + ", ".join(f"{k} {pct(p)}" for k, p in results.items())
    if ammo:
        text += "<br>Ammo after the shot: " + ", ".join(f"{AMMO_TITLES.get(k, k)} {pct(ammo[k])}"
                                                        for k in AMMO_TITLES if k in ammo)
    return text


class _Columns(QWidget):
    """The dialog's two columns, as tall as the dialog is.

    The left column scrolls on its own and the right one shrinks its chart to the room it has, so
    their height never depends on their width: a scroll area around the dialog (a small screen's)
    then fits them to its height instead of making them as tall as their wrapped text would like.
    Stacked, one above the other beside the map, their height does depend on their width.
    """

    def hasHeightForWidth(self) -> bool:
        layout = self.layout()
        stacked = isinstance(layout, Columns) and layout.direction() == Columns.Direction.TopToBottom
        return stacked and super().hasHeightForWidth()


class _ChoicesScroll(QScrollArea):
    """The left column: never narrower than its rows, so they are not cut at the side; it scrolls up and down."""

    def minimumSizeHint(self) -> QSize:
        inner = self.widget()
        hint = super().minimumSizeHint()
        if inner is None:
            return hint
        bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        return QSize(inner.minimumSizeHint().width() + bar + 2 * self.frameWidth(), hint.height())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()  # the rows' width changed (polished, a row shown): so does this column's
        return super().eventFilter(watched, event)


class ShootDialog(ProcedureDialog):
    """Gather one ranged attack's choices, show what the rules read and the odds, roll and apply."""
    first_opening = FirstOpening("necromunda", 1, "Necromunda Shoot", "necromunda.shoot", "u1")

    def __init__(self, session: Session, shooter_id: str, map_view: MapView | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.shooter_id = shooter_id
        self.map_view = map_view
        self.overlay = OverlayScope(self, map_view, SHOOT_KEY)
        self._hidden: set[str] = set()
        self._seen: set[str] = set()
        self._updating = False
        self._opening = True  # the defaults are set first, then the plan and its odds are computed once
        self.plan: NecroPlan | None = None
        self.shown_odds: Distribution[str] | None = None
        game = session.game
        shooter = self.shooter
        self.setWindowTitle(f"Shoot \u2013 {shooter.name}")
        self.setMinimumSize(1180, 600)
        self.stray_on = enabled(STRAY_SHOTS, game.settings)
        self.walking_on = enabled(WALKING_FIRE, game.settings)
        self.priority_on = enabled(TARGET_PRIORITY, game.settings)
        self.reading = str(setting(RULESET, READING_SETTING, game.settings))

        self.heading = QLabel(self)
        self.heading.setWordWrap(True)
        side = game.sides[shooter.side].name if 0 <= shooter.side < len(game.sides) else ""
        stats = ", ".join(f"{title} {shooter.stats[key]}+" for key, title in (("bs", "BS"), ("cool", "Cool"))
                          if key in shooter.stats)
        self.heading.setText(f"<b>{esc(shooter.name)}</b> ({esc(side)}) \u2013 {esc(stats)}, level {shooter.level}")
        self.profile_box = QComboBox(self)
        self.profile_box.setObjectName("profile")
        self.refs: list[ProfileRef] = profile_refs(shooter)
        for ref in self.refs:
            self.profile_box.addItem(ref.title + ("  (Template: no Hit roll)" if ref.template else ""))
        first = next((i for i, ref in enumerate(self.refs) if not ref.template), 0)
        self.profile_box.setCurrentIndex(first)

        self.target_picker = TargetPicker(map_view, f"Click the target for {shooter.name}",
                                          "Click the target on the map (Esc cancels)", self,
                                          empty="No enemy fighter still in the fight")
        self.target_picker.setObjectName("target")

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
        self.modifier_box.setToolTip("Anything else added to the Hit roll (skills, ...); cover is its own choice")
        self.cover = OverruledReading.levels(
            self, ((f"{level.capitalize()} ({to_hit:+d} to hit)" if to_hit else level.capitalize(), level)
                   for level, to_hit in cover_to_hit().items()))
        self.sight = OverruledReading.unseen_target(self)

        form = QFormLayout()
        form.addRow(self.heading)
        form.addRow("Weapon profile", self.profile_box)
        form.addRow("Target", self.target_picker)
        form.addRow("Range", range_row)
        form.addRow("Target is", target_state)
        form.addRow("Firepower dice", self.firepower_box)
        form.addRow("", self.close_combat_box)
        form.addRow("Cover", self.cover)
        form.addRow("Line of Sight", self.sight)
        form.addRow("Other modifier", self.modifier_box)
        self.form = form

        self.ammo_note = QLabel(self)
        self.ammo_note.setObjectName("ammo_note")
        self.ammo_note.setWordWrap(True)
        self.ammo_note.setStyleSheet(NOTE_STYLE)

        self.priority_group = QGroupBox("Target priority (Arbitrator's toolkit)", self)
        pl = QVBoxLayout(self.priority_group)
        self.sight_label = QLabel(f"Tick the enemies within {PRIORITY_RANGE:g}\" that are <b>not</b> in Line of "
                                  f"Sight:", self.priority_group)
        self.sight_list = QListWidget(self.priority_group)
        self.sight_list.setObjectName("not_in_sight")
        self.sight_list.setMaximumHeight(110)
        pl.addWidget(self.sight_label)
        pl.addWidget(self.sight_list)
        self.priority_group.setVisible(self.priority_on)

        self.facts = FactsPanel(self)
        self.facts.setObjectName("facts")
        self.facts.setStyleSheet(NOTE_STYLE)
        self.blocked = RefusalBanner(self)
        self.blocked.setObjectName("blocked")
        self.runner = ProcedureRunner(session, "necro.attack", "Shoot", self, group=result_label,
                                      label=self._label, option_words=self._name)
        self.runner.apply_button.hide()
        self.runner.setMinimumHeight(420)
        self.summary = QLabel(self)
        self.summary.setObjectName("odds_summary")
        self.summary.setWordWrap(True)

        self.template_group = QGroupBox("Template", self)
        tl = QVBoxLayout(self.template_group)
        self.template_rules = QLabel(TEMPLATE_RULES, self.template_group)
        self.template_rules.setWordWrap(True)
        self.template_rules.setStyleSheet(NOTE_STYLE)
        tl.addWidget(self.template_rules)
        self.template_group.hide()

        self.apply_button = QPushButton("&Apply", self)
        self.apply_button.setObjectName("apply")
        self.apply_button.setEnabled(False)
        self.apply_button.setToolTip("Apply everything this attack did as one undo step")
        self.status = plain(QLabel(self))
        self.status.setWordWrap(True)
        close = QPushButton("Close", self)
        close.clicked.connect(self.close_asking)
        for button in (self.apply_button, close):
            # Enter in the dice field submits those dice; it must never press one of these.
            button.setAutoDefault(False)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.apply_button)
        buttons.addWidget(close)

        # Two columns, so a laptop screen shows the whole chart and the roll beside the choices: what the
        # player chooses and what was read from the table on the left (scrolling if the list of enemies
        # is long), the odds, the dice and the result on the right, never cut by a scroll area.
        choices = QWidget(self)
        inner = QVBoxLayout(choices)
        inner.setContentsMargins(0, 0, 0, 0)
        inner.addLayout(form)
        inner.addWidget(self.ammo_note)
        inner.addWidget(self.priority_group)
        inner.addWidget(self.template_group)
        inner.addWidget(self.facts)
        inner.addWidget(self.blocked)
        inner.addStretch(1)
        scroll = _ChoicesScroll(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(choices)
        body = self.body = _Columns(self)
        roll = QVBoxLayout()
        roll.addWidget(self.summary)
        roll.addWidget(self.runner, 1)
        # Takes the room the odds plot leaves when a Template hides it, so the column keeps its height.
        self.template_room = QWidget(body)
        self.template_room.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        self.template_room.hide()
        roll.addWidget(self.template_room, 1)
        columns = Columns(body)
        columns.setContentsMargins(0, 0, 0, 0)
        columns.addWidget(scroll, 1)
        columns.addLayout(roll, 1)
        # The status line wraps within its row; the rows' heights come from the room the dialog has.
        policy = self.status.sizePolicy()
        policy.setHeightForWidth(False)
        self.status.setSizePolicy(policy)
        layout = QVBoxLayout(self)
        layout.addWidget(body, 1)
        layout.addLayout(buttons)

        self._fill_targets()
        if self.priority_on:
            self._fill_sight()
        self.profile_box.currentIndexChanged.connect(self._profile_changed)
        self.target_picker.chosen.connect(lambda _unit_id: self._target_changed())
        self.target_picker.outside.connect(self._refuse_target)
        replan_on(self.update_inputs, self.range_box, self.firepower_box, self.engaged_box, self.injured_box,
                  self.ledge_box, self.close_combat_box, self.cover, self.sight, self.modifier_box)
        self.sight_list.itemChanged.connect(self._sight_changed)
        self.runner.resolved.connect(lambda _res: self._update_apply())
        self.apply_button.clicked.connect(self.apply)
        self._profile_changed()
        self._target_changed()
        self._opening = False
        self.update_inputs()

    # -- what the dialog is about ---------------------------------------------------------
    @property
    def shooter(self) -> Unit:
        return self.session.game.unit(self.shooter_id)

    @property
    def ref(self) -> ProfileRef:
        return self.refs[max(0, self.profile_box.currentIndex())]

    @property
    def target(self) -> Unit | None:
        target_id = self.target_picker.current()
        return self.session.game.units.get(target_id) if target_id is not None else None

    @property
    def is_template(self) -> bool:
        return self.ref.template

    def template(self) -> TemplatePlacement | None:
        """The Template laid towards the current target (None without a target or for other profiles)."""
        return template_for(self.session.game, self.choices())

    def _label(self, outcome: str) -> str:
        return label(outcome, {k: u.name for k, u in self.session.game.units.items()})

    def _name(self, unit_id: str) -> str:
        unit = self.session.game.units.get(unit_id)
        return unit.name if unit is not None else unit_id

    def _fill_targets(self) -> None:
        self.target_picker.set_units((unit.id, f'{unit.name} ({dist:.1f}")')
                                     for unit, dist in enemies_by_distance(self.session.game, self.shooter))

    def set_target(self, unit_id: str) -> bool:
        """Shoot at `unit_id` if it is an enemy fighter still in the fight."""
        return self.target_picker.select(unit_id)

    def _refuse_target(self, unit_id: str) -> None:
        unit = self.session.game.units.get(unit_id)
        name = unit.name if unit is not None else "That"
        self.status.setText(f"{name} is not an enemy fighter still in the fight.")

    # -- choices -------------------------------------------------------------------------------
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
        self.template_group.setVisible(template)
        self.update_inputs()

    def _ammo_text(self, rapid_fire: int, ammo: int) -> str:
        base = ("Firepower dice: one ammo symbol puts this profile Out of Ammo; two or more jam the weapon "
                "for the rest of the battle.")
        where = ("(Game \u203a Ruleset settings \u203a Ammo (X+) with Firepower dice; a default to check "
                 "against your rulebook.)")
        if not ammo:
            return base
        if self.reading == CHECK_READING:
            return (f"Firepower dice: each ammo symbol rolled calls for an <b>Ammo check ({ammo}+)</b>, a D6 that "
                    f"passes on {ammo} or more. One failed check puts this profile Out of Ammo; two or more jam "
                    f"the weapon for the rest of the battle. {where}")
        return (f"{base}<br><b>Ammo ({ammo}+)</b>: the rules say such a weapon \u201cmay be considered to have "
                f"rolled one additional ammo symbol\u201d. This game reads it as <i>{self.reading}</i>: "
                f"{AMMO_READINGS[self.reading]} {where}")

    def _target_changed(self) -> None:
        target = self.target
        self._updating = True
        if target is not None:
            shooter = self.shooter
            self.range_box.setValue(measured_range(shooter, target))
            self.range_note.setText("measured from the map, centre to centre; change it to the table's tape")
            self.engaged_box.setChecked(target.has(ENGAGED))
            self.ledge_box.setChecked(near_ledge(target))
            self.injured_box.setChecked(target.has(SERIOUSLY_INJURED))
            self.cover.reset(map_cover(self.session.game, shooter, target).level)
            self.sight.reset(False)
        self._updating = False
        self.update_inputs()

    def _fill_sight(self) -> None:
        self.sight_list.blockSignals(True)
        self.sight_list.clear()
        for unit, dist in sight_candidates(self.session.game, self.shooter):
            item = QListWidgetItem(f'{unit.name} ({dist:.1f}")', self.sight_list)
            item.setData(Qt.ItemDataRole.UserRole, unit.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if unit.id in self.hidden() else Qt.CheckState.Unchecked)
        self.sight_list.blockSignals(False)
        self.sight_label.setVisible(self.sight_list.count() > 0)
        self.sight_list.setVisible(self.sight_list.count() > 0)

    def set_in_sight(self, unit_id: str, seen: bool) -> None:
        """Mark an enemy as in or out of the shooter's Line of Sight (what the player sees on the table).

        What the map hides starts ticked; the player's word over it is kept apart (`in_sight`)."""
        by_map = unit_id in map_hidden(self.session.game, self.shooter)
        if seen:
            self._hidden.discard(unit_id)
            if by_map:
                self._seen.add(unit_id)
        else:
            self._seen.discard(unit_id)
            if not by_map:
                self._hidden.add(unit_id)
        self._fill_sight()
        self.update_inputs()

    def _sight_changed(self, item: QListWidgetItem) -> None:
        key = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(key, str):
            self.set_in_sight(key, item.checkState() != Qt.CheckState.Checked)

    def priority(self) -> tuple[str, ...]:
        """Enemies the shot must go to unless a Cool check passes (empty when the option is off)."""
        return priority_for(self.session.game, self.shooter, self.hidden())

    def hidden(self) -> frozenset[str]:
        """The enemies out of the shooter's sight: the map's, less those the player sees, and the player's."""
        return frozenset((map_hidden(self.session.game, self.shooter) - self._seen) | self._hidden)

    def choices(self) -> dict[str, InputValue]:
        """What the player picked, as `attack_plan` takes it."""
        ref = self.ref
        choices: dict[str, InputValue] = {
            "firer": self.shooter_id, "weapon": ref.weapon, "profile": ref.profile,
            "range": self.range_box.value(), "modifier": self.modifier_box.value(),
            "target_engaged": self.engaged_box.isChecked(), "target_near_ledge": self.ledge_box.isChecked(),
            "target_seriously_injured": self.injured_box.isChecked(),
            "close_combat": self.close_combat_box.isChecked(), "not_in_sight": ",".join(sorted(self._hidden)),
            "in_sight": ",".join(sorted(self._seen)), **self.cover.choices("cover", "cover_reason"),
            **self.sight.choices("sight", "sight_reason")}
        if self.firepower_box.value():
            choices["firepower_dice"] = self.firepower_box.value()
        target = self.target
        if target is not None:
            choices["target"] = target.id
        return choices

    # -- the plan and its odds -------------------------------------------------------------------
    def update_inputs(self) -> None:
        if self._updating or self._opening:
            return
        try:
            self.plan = attack_plan(self.session.game, self.choices())
        except RulesInputError as exc:
            self.plan = None
            self._block(message_of(exc))
            self._update_overlay()
            return
        self.blocked.clear()
        self.facts.set_facts(self.plan.facts)
        self.facts.setVisible(bool(self.plan.facts))
        self.shown_odds = None
        self.runner.set_action(necro_actions.ATTACK, self.choices())
        if self.runner.set_inputs(self.plan.inputs):
            try:
                self.shown_odds = odds(self.plan.procedure, self.plan.inputs)
            except (RulesInputError, TableError):
                self.shown_odds = None
        dice_free = self.is_template and "cool" not in self.plan.inputs
        self.runner.setVisible(not dice_free)
        self.template_room.setVisible(dice_free)
        if self.shown_odds is not None and not dice_free:
            self.summary.setText(odds_summary(self.shown_odds))
            self.summary.show()
        else:
            self.summary.hide()
        if dice_free and self.shown_odds is not None:
            self.runner.start_typed()  # no dice: the result is known at once
        self._update_apply()
        self._update_overlay()

    def _block(self, text: str) -> None:
        """Show why the table forbids this attack; nothing can be rolled or applied."""
        self.blocked.show_refusal(text)
        self.facts.hide()
        self.summary.hide()
        self.shown_odds = None
        self.runner.set_inputs({})
        self.runner.problem.hide()
        self.runner.roll_button.setEnabled(False)
        self.runner.typed_button.setEnabled(False)
        self._update_apply()

    def _update_apply(self) -> None:
        ready = self.plan is not None and self.runner.result is not None
        self.apply_button.setEnabled(ready)
        self.status.setText("Ready to apply as one undo step." if ready else "")

    # -- applying ------------------------------------------------------------------------------
    def apply(self) -> bool:
        """Apply the attack as the player's recorded action `necro.attack`: one undo step, with the dice shown.

        The log's lines (the rolls, what the attack did, who checks for falling)
        come from the action itself, so a replay says the same.
        """
        res = self.runner.result
        if res is None or self.plan is None:
            return False
        if not self.runner.apply():
            self.status.setText(self.runner.problem.text())
            return False
        failed = res.outcome == COOL_FAILED
        self.update_inputs()
        self.apply_button.setEnabled(False)
        self.status.setText("Applied. The Cool check failed: choose the closest enemy as the target." if failed else
                            "Applied. Undo takes the whole attack back; the dialog now shows the next shot.")
        return True

    # -- map ------------------------------------------------------------------------------------
    def _update_overlay(self) -> None:
        if self.map_view is None:
            return
        shooter = self.shooter
        ref = self.ref
        traits = traits_of(shooter.weapons[ref.weapon], ref.profile)
        self.overlay.set(shoot_items(
            self.map_view, shooter, self.target, profile_ranges(shooter, ref.weapon, ref.profile), ref.title,
            stray=self.stray_on, walking=self.walking_on and traits.rapid_fire > 0, priority=self.priority_on,
            blast=traits.blast, template=self.template()))
