"""Chain of Command anti-tank fire at the table: "Anti-tank fire..." and "Anti-tank grenade...".

The firer is the selected unit; the target is picked on the map or from the
list of enemy vehicles. Everything the table already shows is read from it
(hit location from the firer's position against the target's facing, range
and range band, arc of fire, Shock, optics damage, immobilised, Armour Dice,
rounds left) so the player only ticks what the map cannot know. The odds of
every outcome, grouped by net hits, are shown before any dice; the result's
follow-ups (reverse 1D6, the infantry caught by an explosion) are offered
once it is applied. A team on foot within running reach of an enemy vehicle
can instead send a figure at it with a grenade or charge (coc.at_grenade).
"""

from __future__ import annotations

import json
import logging
import re
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex
from PySide6.QtCore import QStandardPaths
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QGridLayout
from PySide6.QtWidgets import QGroupBox
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QTreeWidget
from PySide6.QtWidgets import QTreeWidgetItem
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.model.game import ARMOUR_FACES
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules import Resolution
from battletracker.rules import RulesInputError
from battletracker.rules.base import message_of
from battletracker.rules.chain_of_command import shot_actions
from battletracker.rules.chain_of_command.activation import FIRE
from battletracker.rules.chain_of_command.anti_tank import VISIBILITIES
from battletracker.rules.chain_of_command.anti_tank import VISIBILITY_TEXT
from battletracker.rules.chain_of_command.anti_tank import at_rules
from battletracker.rules.chain_of_command.anti_tank_plans import CHECKED_ADJUSTMENTS
from battletracker.rules.chain_of_command.anti_tank_plans import FACE_NAMES
from battletracker.rules.chain_of_command.anti_tank_plans import RULESET
from battletracker.rules.chain_of_command.anti_tank_plans import ShotPlan
from battletracker.rules.chain_of_command.anti_tank_plans import at_weapons
from battletracker.rules.chain_of_command.anti_tank_plans import can_throw_grenade
from battletracker.rules.chain_of_command.anti_tank_plans import enemy_vehicles
from battletracker.rules.chain_of_command.anti_tank_plans import group_label
from battletracker.rules.chain_of_command.anti_tank_plans import group_rank
from battletracker.rules.chain_of_command.anti_tank_plans import has_at_weapon
from battletracker.rules.chain_of_command.anti_tank_plans import infantry_near
from battletracker.rules.chain_of_command.anti_tank_plans import map_run
from battletracker.rules.chain_of_command.anti_tank_plans import map_visibility
from battletracker.rules.chain_of_command.anti_tank_plans import plan_at_fire
from battletracker.rules.chain_of_command.anti_tank_plans import vehicles_in_reach
from battletracker.rules.chain_of_command.arsenal import ATWeapon
from battletracker.rules.chain_of_command.arsenal import UserEntries
from battletracker.rules.chain_of_command.arsenal import arsenal
from battletracker.rules.chain_of_command.arsenal import set_user_arsenal
from battletracker.rules.chain_of_command.arsenal import user_arsenal_entries
from battletracker.rules.chain_of_command.damage import BANDS_NOTE
from battletracker.rules.chain_of_command.damage import damage_result
from battletracker.rules.choices import Choices
from battletracker.rules.tables import TableError
from battletracker.rules.targets import centre_to_centre
from battletracker.ui.activation_parts import ActivationRow
from battletracker.ui.extensions import Feature
from battletracker.ui.extensions import FeatureHost
from battletracker.ui.extensions import UnitAction
from battletracker.ui.procedure_parts import ActionForm
from battletracker.ui.procedure_parts import Distance
from battletracker.ui.procedure_parts import FactsPanel
from battletracker.ui.procedure_parts import OverlayScope
from battletracker.ui.procedure_parts import OverruledReading
from battletracker.ui.procedure_parts import PlannedActionDialog
from battletracker.ui.procedure_parts import RefusalBanner
from battletracker.ui.procedure_parts import TargetPicker
from battletracker.ui.procedure_parts import UnitChoice
from battletracker.ui.procedure_parts import UnitProcedureDialog
from battletracker.ui.procedure_parts import WordChoice
from battletracker.ui.procedure_parts import open_unit_dialog
from battletracker.ui.procedure_parts import planned_action
from battletracker.ui.procedure_parts import replan_on
from battletracker.ui.procedure_runner import FirstOpening
from battletracker.ui.procedure_runner import NotOpened
from battletracker.ui.procedure_runner import ProcedureDialog
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.session import Session
from battletracker.ui.text import esc
from battletracker.ui.text import literal
from battletracker.ui.text import plain

if TYPE_CHECKING:
    from battletracker.ui.map.view import MapView

PROCEDURE = "coc.at_fire"
OVERLAY = "anti_tank"



def bands_note(parent: QWidget) -> QLabel:
    """Under the odds: what the equal, +1, +2 and +3 groups lead to, so a player reads them without the rulebook."""
    note = QLabel(BANDS_NOTE, parent)
    note.setObjectName("at_bands_note")
    note.setWordWrap(True)
    return note

class AntiTankDialog(UnitProcedureDialog):
    """One A.P. round from the firer's weapon at an enemy vehicle, odds first.

    Not a PlannedActionDialog: the result calls for follow-ups in the same dialog (a reverse, the vehicle's
    damage), and visibility and sight are the map's readings the player may overrule with a logged reason.
    """
    first_opening = FirstOpening("chain_of_command", 3, "Anti-tank fire", "coc.anti_tank_fire", "u4")

    def __init__(self, session: Session, firer_id: str, map_view: MapView | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(session, firer_id, map_view, parent, "Anti-tank fire: {unit}", (1120, 700))
        self.overlay = OverlayScope(self, map_view, OVERLAY)
        self.shot: ShotPlan | None = None
        self._last: Resolution | None = None
        firer = session.game.unit(firer_id)

        self.weapon_box = QComboBox(self)
        for _index, weapon in at_weapons(firer):
            self.weapon_box.addItem(weapon.name, weapon.name)
        self.target_picker = TargetPicker(map_view, "Click the target vehicle", "Click the target vehicle on the map",
                                          self)
        self.location_box = QComboBox(self)
        self.location_box.addItem("From the map", None)
        for face in ARMOUR_FACES:
            self.location_box.addItem(FACE_NAMES[face], face)
        rules = at_rules()
        self.visibility = OverruledReading.levels(
            self, ((f"{VISIBILITY_TEXT[v].capitalize()} ({rules.to_hit[v]}+)", v) for v in VISIBILITIES),
            "How well the firer sees the target: the map's reading unless you change it")
        self.sight = OverruledReading.unseen_target(self)

        self.activation = ActivationRow(self)
        form = QFormLayout()
        form.addRow(self.activation)
        form.addRow("Weapon", self.weapon_box)
        form.addRow("Target", self.target_picker)
        form.addRow("Hit location", self.location_box)
        form.addRow("Visibility", self.visibility)
        form.addRow("Line of Sight", self.sight)

        self.facts = FactsPanel(self)
        table_box = QGroupBox("From the table", self)
        QVBoxLayout(table_box).addWidget(self.facts)

        self.checks: dict[str, QCheckBox] = {}
        checks_box = QGroupBox("Adjustments the map cannot see", self)
        grid = QGridLayout(checks_box)
        for n, key in enumerate(CHECKED_ADJUSTMENTS):  # one per row: the table's wording is long
            a = rules.adjustment(key)
            box = QCheckBox(f"{a.text} ({a.modifier:+d})", checks_box)
            box.toggled.connect(self._update)
            self.checks[key] = box
            grid.addWidget(box, n, 0)

        self.refusal = RefusalBanner(self)
        self.to_hit = QLabel(self)
        self.to_hit.setWordWrap(True)
        self.to_hit.setTextFormat(Qt.TextFormat.RichText)

        self.runner = ProcedureRunner(session, PROCEDURE, "Anti-tank fire", self, group=group_label,
                                      order=group_rank)

        self.follow_up = QGroupBox("After the result", self)
        follow = QVBoxLayout(self.follow_up)
        self.follow_text = QLabel(self.follow_up)
        self.follow_text.setWordWrap(True)
        self.follow_text.setTextFormat(Qt.TextFormat.RichText)
        self.reverse_button = QPushButton("Reverse 1D6", self.follow_up)
        self.reverse_button.setToolTip("Roll the reverse and move the vehicle directly away from the firer")
        follow.addWidget(self.follow_text)
        self.next_button = QPushButton("&Next shot", self.follow_up)
        self.next_button.setToolTip("Read the table again (Shock, damage, rounds left) for another round")
        buttons = QHBoxLayout()
        buttons.addWidget(self.reverse_button)
        buttons.addStretch(1)
        buttons.addWidget(self.next_button)
        follow.addLayout(buttons)
        self.reverse_runner: ProcedureRunner | None = None
        self.reverse_dialog: ReverseDialog | None = None
        self.follow_up.hide()


        left = QVBoxLayout()
        left.addLayout(form)
        left.addWidget(table_box)
        left.addWidget(checks_box)
        left.addWidget(self.refusal)
        left.addWidget(self.to_hit)
        left.addStretch(1)
        right = QVBoxLayout()
        right.addWidget(self.runner, 1)
        right.addWidget(bands_note(self))
        right.addWidget(self.follow_up)
        self.set_columns(left, right, (1, 1))

        replan_on(self._update, self.activation, self.weapon_box, self.location_box, self.visibility, self.sight)
        self.target_picker.chosen.connect(lambda _unit_id: self._target_changed())
        self.target_picker.outside.connect(self._refuse_target)
        self.reverse_button.clicked.connect(self.start_reverse)
        self.next_button.clicked.connect(self._next_shot)
        self.runner.applied.connect(self._applied)
        self._fill_targets()

    # -- the target --------------------------------------------------------------------------------
    @property
    def firer(self) -> Unit:
        return self.session.game.unit(self.unit_id)

    def target(self) -> Unit | None:
        target_id = self.target_picker.current()
        if target_id is None or target_id not in self.session.game.units:
            return None
        return self.session.game.unit(target_id)

    def _fill_targets(self) -> None:
        firer = self.firer
        self.target_picker.set_units(
            (unit.id, f"{unit.name} ({centre_to_centre(firer, unit):.0f}\")")
            for unit in enemy_vehicles(self.session.game, firer))
        self._target_changed()

    def set_target(self, unit_id: str) -> bool:
        """Choose the target; False (with the reason shown) if it is not an enemy vehicle."""
        if self.target_picker.select(unit_id):
            return True
        self._refuse_target(unit_id)
        return False

    def _refuse_target(self, unit_id: str) -> None:
        """Say why the unit clicked cannot be the target, in the rules' words."""
        try:
            plan_at_fire(self.session.game, {**self.choices(), "target": unit_id})
        except RulesInputError as exc:
            self._refuse(message_of(exc))

    def _target_changed(self) -> None:
        """A new target: the hit location from the map, the visibility its cover there gives."""
        self.location_box.blockSignals(True)
        self.location_box.setCurrentIndex(0)
        self.location_box.blockSignals(False)
        target = self.target()
        if target is not None:
            self.visibility.reset(map_visibility(self.session.game, self.firer, target)[0])
        self._update()

    # -- inputs and odds ------------------------------------------------------------------------
    def choices(self) -> dict[str, str | bool]:
        """What the player picked, as the plan reads it."""
        out: dict[str, str | bool] = {"firer": self.unit_id, "target": self.target_picker.current() or "",
                                      "weapon": self.weapon_box.currentData() or "",
                                      "location": self.location_box.currentData() or "",
                                      **self.visibility.choices("visibility", "visibility_reason"),
                                      **self.sight.choices("sight", "sight_reason")}
        out.update({key: True for key, box in self.checks.items() if box.isChecked()})
        out.update(self.activation.choices())
        return out

    def inputs(self) -> dict[str, object] | None:
        """The coc.at_fire inputs for what is on screen, or None when the shot cannot be taken."""
        self._update()
        return None if self.shot is None or not self.refusal.isHidden() else dict(self.shot.inputs)

    def _refuse(self, text: str) -> None:
        self.refusal.show_refusal(text)
        self.runner.setEnabled(False)
        self.runner.odds_plot.hide()
        self.to_hit.clear()

    def _update(self) -> None:
        target = self.target()
        self.follow_up.hide()
        self.shot = None
        if target is None or self.weapon_box.currentData() is None:
            self.facts.set_note("No enemy AFV or APC on the table." if target is None else "")
            self._refuse("Choose an enemy vehicle to fire at.")
            return
        self._draw_line(target)
        self.runner.title = f"Anti-tank fire: {self.firer.name} at {target.name}"
        try:
            shot = self.activation.plan_for(self.session.game, self.unit_id, FIRE,
                                            lambda: plan_at_fire(self.session.game, self.choices()))
        except RulesInputError as exc:
            self.facts.set_facts(())
            self._refuse(message_of(exc))
            return
        self.shot = shot
        self.facts.set_facts(shot.facts[:-1])
        self.refusal.clear()
        self.runner.setEnabled(True)
        self.runner.odds_plot.show()
        self.to_hit.setText(f"<b>{esc(shot.reading)}.</b>")
        self.runner.set_action(shot_actions.AT_FIRE, self.choices())
        self.runner.set_inputs(shot.inputs)

    def _draw_line(self, target: Unit) -> None:
        if self.map_view is None:
            return
        from battletracker.ui.map.items import line_item

        firer = self.firer
        self.overlay.set([line_item((firer.x, firer.y), (target.x, target.y), QColor("#d93025"), Qt.PenStyle.DashLine)])

    # -- after the result -------------------------------------------------------------------------
    def _applied(self, res: Resolution) -> None:
        self._last = res
        result = res.values.get("result")
        target = self.target()
        lines: list[str] = ["<i>Applied as one undo step.</i>"]
        now = res.values.get("consequences") or ()
        if isinstance(now, tuple | list) and now:
            lines.append("<b>Now:</b><ul>" + "".join(f"<li>{esc(line)}</li>" for line in now) + "</ul>")
        self.reverse_button.setVisible(False)
        if isinstance(result, str) and target is not None and target.vehicle is not None:
            meaning = damage_result(target.vehicle.category, result)
            if result == "reverse":
                lines.append(esc(f"{target.name} must reverse 1D6\" directly away from {self.firer.name}."))
                self.reverse_button.setVisible(True)
                self.reverse_button.setEnabled(True)
            if meaning.blast_radius:
                caught = infantry_near(self.session.game, (target.x, target.y), meaning.blast_radius, target.id)
                names = ", ".join(u.name for u in caught) or "none"
                lines.append(f"Infantry Teams within {meaning.blast_radius:g}\" of the wreck take 1D6 hits each: "
                             f"<b>{esc(names)}</b>.")
                self._draw_blast(target, meaning.blast_radius)
        self.follow_text.setText("<br>".join(lines))
        self.follow_up.show()
        self._refresh_facts()

    def _refresh_facts(self) -> None:
        """Read the table again after Apply: the target's Shock and the rounds left have changed."""
        try:
            shot = plan_at_fire(self.session.game, self.choices())
        except RulesInputError as exc:
            self.facts.set_note(message_of(exc))
            return
        self.facts.set_facts(shot.facts[:-1])

    def _next_shot(self) -> None:
        if self.reverse_dialog is not None:
            self.reverse_dialog.close()
        self._fill_targets()

    def _draw_blast(self, target: Unit, radius: float) -> None:
        if self.map_view is None:
            return
        from battletracker.ui.map.items import circle_item

        self.overlay.set([circle_item((target.x, target.y), radius, QColor("#e8710a"))])

    def reverse_inputs(self) -> dict[str, object] | None:
        target = self.target()
        if target is None:
            return None
        firer = self.firer
        return {"target_x": target.x, "target_y": target.y, "firer_x": firer.x, "firer_y": firer.y,
                "target_facing": target.facing, "target_id": target.id}

    def start_reverse(self) -> ReverseDialog | None:
        """The Reverse 1D6 as its own step, in a small dialog: its Apply moves the token as one undo step."""
        inputs = self.reverse_inputs()
        target = self.target()
        if inputs is None or target is None:
            return None
        if self.reverse_dialog is not None:
            self.reverse_dialog.close()
            self.reverse_dialog.deleteLater()
        dialog = ReverseDialog(self.session, target.name, self.firer.name, inputs, self)
        dialog.runner.applied.connect(lambda _res: self.reverse_button.setEnabled(False))
        self.reverse_dialog = dialog
        self.reverse_runner = dialog.runner
        dialog.show()
        return dialog


class ReverseDialog(ProcedureDialog):
    """A vehicle's Reverse 1D6 away from the firer, one roll and Apply, apart from the shot that caused it."""
    first_opening = NotOpened("opened from the Anti-tank fire dialog's follow-up")

    def __init__(self, session: Session, target: str, firer: str, inputs: dict[str, object],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"{target} reverses")
        self.setMinimumWidth(420)
        intro = plain(QLabel(f"{target} must reverse 1D6\" directly away from {firer}. Roll one die; Apply moves "
                             "the token as one undo step.", self))
        intro.setWordWrap(True)
        self.runner = ProcedureRunner(session, "coc.reverse", f"{target} reverses", self)
        self.runner.odds_plot.hide()
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.runner, 1)
        layout.addWidget(self.close_buttons())
        self.runner.set_inputs(inputs)
        self.runner.set_action("coc.reverse", {k: v for k, v in inputs.items() if isinstance(v, str | int | float)})
        self.runner.applied.connect(lambda _res: self.accept())


ANTI_TANK_FIRE = UnitAction(
    key="coc.anti_tank_fire",
    title="Anti-tank fire...",
    applies=has_at_weapon,
    run=open_unit_dialog(AntiTankDialog),
    rulesets=(RULESET,),
    shortcut="Ctrl+Shift+T",
    tip="Fire an A.P. round at an enemy AFV or APC, with the odds before the roll",
)



# --- Anti-tank grenades and charges ----------------------------------------------------------------------------

def _grenades(_game: Game, _choices: Choices) -> Iterable[tuple[str, str]]:
    return ((g.name, f"{g.name} (A.P. {g.ap}; {', '.join(g.nations)})") for g in arsenal().grenades.values())


def _side_grenade(game: Game, choices: Choices) -> str | None:
    """The last grenade or charge the arsenal gives the unit's nation, or None to offer the first listed."""
    unit = game.unit(str(choices["firer"]))
    nation = game.sides[unit.side].name.casefold() if unit.side < len(game.sides) else ""
    used = [g.name for g in arsenal().grenades.values() if nation and any(n.casefold() in nation for n in g.nations)]
    return used[-1] if used else None


def _vehicles_in_reach(game: Game, choices: Choices) -> Iterable[tuple[str, str]]:
    unit = game.unit(str(choices["firer"]))
    return ((v.id, f"{v.name} ({centre_to_centre(unit, v):.1f}\")") for v in vehicles_in_reach(game, unit))


def _map_run(game: Game, choices: Choices) -> float:
    target = game.units.get(str(choices["target"]))
    return map_run(game.unit(str(choices["firer"])), target) if target is not None else 0.0


GRENADE_FORM = ActionForm(shot_actions.AT_GRENADE, "Anti-tank grenade: {unit}", activation=FIRE, size=(640, 720),
                          group=group_label, order=group_rank, choices=(
    WordChoice("weapon", "&Grenade or charge", _grenades, default=_side_grenade),
    UnitChoice("target", "&Vehicle", _vehicles_in_reach, "Click the vehicle to run at",
               empty="No enemy vehicle within reach", tip="Click the vehicle on the map (Esc cancels)"),
    Distance("distance", "&Distance to run", _map_run, step=1.0, follows=("target",),
             tip="From the nearest figure to the vehicle; the map gives centre to centre",
             note="The map's centre to centre to start with: measure from the nearest figure and correct it."),
))


class GrenadeDialog(PlannedActionDialog):
    """A figure runs at a vehicle with an anti-tank grenade or charge: reach, Strike Dice on the top armour.

    The declared form, and the note on what the equal, +1, +2 and +3 groups lead to under the odds.
    """
    first_opening = NotOpened("no demo unit carries anti-tank grenades; the Anti-tank fire dialog's parts")

    def __init__(self, session: Session, unit_id: str, map_view: MapView | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(session, GRENADE_FORM, {"firer": unit_id}, map_view, parent)
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        layout.insertWidget(layout.indexOf(self.runner) + 1, bands_note(self))


AT_GRENADE = planned_action(
    key="coc.at_grenade", title="Anti-tank grenade...", form=GRENADE_FORM, applies=can_throw_grenade,
    rulesets=(RULESET,), dialog=GrenadeDialog,
    tip="A figure runs at an enemy vehicle with an anti-tank grenade or charge")


# -- the player's own arsenal ----------------------------------------------------------------------------------------
# Saved as JSON in the user's data folder and handed to the rules with
# `set_user_arsenal` at start and after each edit, so `coc.at_fire`'s `weapon`
# (and the dialogs' weapon lookups) accept the player's entries by name.

ARSENAL_FILE = "arsenal.json"
ARSENAL_BYTES = 1_000_000
"""Far more than any player's own entries (one is about 300 bytes): a larger file is not read."""
SECTION_TITLES = {"weapons": "Weapons", "vehicles": "Vehicles", "grenades": "Grenades"}
WEAPON_KIND_TITLES = {"tank_gun": "Tank gun", "at_gun": "Anti-tank gun", "infantry_at": "Portable infantry weapon"}


def user_arsenal_path() -> Path:
    """Where the player's own entries live: the application's data folder (test mode in tests)."""
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(folder) / ARSENAL_FILE


def load_user_arsenal(path: Path | None = None) -> str | None:
    """Read the player's entries into the rules; None when they loaded (or there are none), else what to tell them.

    A file that cannot be used (unreadable, not JSON, nested too deeply, too
    large, not weapons, vehicles and grenades, an entry the arsenal refuses)
    would fail again at every start, and the next entry saved would replace
    it: it is moved aside as `arsenal.json.damaged-<time>`, unchanged for the
    player to mend, and the built-in arsenal loads without it.
    """
    path = path or user_arsenal_path()
    set_user_arsenal({})
    try:
        set_user_arsenal(_read_arsenal(path))
    except FileNotFoundError:
        return None  # no entries of the player's own yet
    except (OSError, ValueError, TableError, RecursionError) as exc:
        why = _arsenal_problem(exc)
        try:
            aside = _set_aside(path)
        except OSError as failure:
            return (f"Your arsenal {path} was not loaded ({why}) and could not be moved aside "
                    f"({failure.strerror or failure}): mend or move it before saving entries of your own, "
                    "which would replace it. The built-in arsenal is loaded.")
        return (f"Your arsenal {path} was not loaded ({why}); it was moved aside as {aside.name}. "
                "The built-in arsenal is loaded.")
    return None


def _read_arsenal(path: Path) -> UserEntries:
    """The entries in the file, not yet checked; only a plain file of an arsenal's size is read."""
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise ValueError("it is not a plain file")
    if info.st_size > ARSENAL_BYTES:
        raise ValueError(f"it is larger than {ARSENAL_BYTES // 1_000_000} MB, far more than any arsenal")
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError("it must hold a table of weapons, vehicles and grenades")
    return data


def _arsenal_problem(exc: BaseException) -> str:
    """Why the arsenal file cannot be used, in words."""
    if isinstance(exc, RecursionError):
        return "it is nested too deeply to read"
    if isinstance(exc, UnicodeDecodeError):
        return "it is not UTF-8 text"
    if isinstance(exc, json.JSONDecodeError):
        return f"it is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
    if isinstance(exc, OSError):
        return f"it cannot be read: {exc.strerror or exc}"
    return message_of(exc)


def _set_aside(path: Path) -> Path:
    """Rename a damaged file to `<name>.damaged-<time>` beside it, never over one set aside before."""
    from datetime import datetime

    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    count = 1
    while aside.exists() or aside.is_symlink():
        count += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{count}")
    path.rename(aside)
    return aside


def save_user_arsenal(entries: UserEntries, path: Path | None = None) -> None:
    """Check the entries (TableError names entry and field), make them current, then write them."""
    set_user_arsenal(entries)
    path = path or user_arsenal_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    spare = path.with_suffix(".tmp")
    spare.write_text(json.dumps(user_arsenal_entries(), indent=2, sort_keys=True, allow_nan=False), encoding="utf-8")
    spare.replace(path)


_NUMBER = re.compile(r"-?(?:[0-9]{1,9}(?:\.[0-9]{0,9})?|\.[0-9]{1,9})")


def _value(token: str) -> object:
    """A plain decimal number typed in a field, or the text itself so the arsenal's check names the field.

    Only ordinary figures count as numbers: "nan", "inf", "1e999" and a pasted
    wall of digits stay text, and the check refuses them by name.
    """
    if not _NUMBER.fullmatch(token):
        return token
    return float(token) if "." in token else int(token)


def _values(text: str) -> list[object]:
    return [_value(t) for t in text.replace(",", " ").split()]


def _numbers_text(values: tuple[float, ...] | tuple[int, ...] | list[object]) -> str:
    return ", ".join(f"{v:g}" if isinstance(v, int | float) else str(v) for v in values)


def weapon_fields(weapon: ATWeapon) -> dict[str, object]:
    """An arsenal weapon in the format the player's entries are saved in."""
    out: dict[str, object] = {"nation": weapon.nation, "kind": weapon.kind}
    if weapon.bands:
        out["bands"] = list(weapon.bands)
        out["ap"] = list(weapon.ap)
    else:
        out["ap"] = weapon.ap[0]
    if weapon.he is not None:
        out["he"] = weapon.he
    if weapon.rounds is not None:
        out["rounds"] = weapon.rounds
    return out


def entry_fields(section: str, name: str) -> dict[str, object]:
    """A current entry's fields: the player's own as saved, or a built-in one to start an edit from."""
    own = user_arsenal_entries()[section].get(name)
    if own is not None:
        return dict(own)
    whole = arsenal()
    if section == "weapons":
        return weapon_fields(whole.weapons[name])
    if section == "vehicles":
        v = whole.vehicles[name]
        return {"nation": v.nation, "category": v.category, "armour": dict(v.armour), "weapons": list(v.weapons)}
    g = whole.grenades[name]
    return {"nations": list(g.nations), "ap": g.ap}


def entry_summary(section: str, name: str) -> str:
    whole = arsenal()
    if section == "weapons":
        w = whole.weapons[name]
        reach = w.describe_bands() if w.bands else "whole table"
        extra = [f"H.E. {w.he}" if w.he is not None else "", f"{w.rounds} rounds" if w.rounds else ""]
        return " · ".join(p for p in (f"A.P. {_numbers_text(w.ap)}", reach, *extra) if p)
    if section == "vehicles":
        v = whole.vehicles[name]
        return f"{v.category.upper()} · armour " + " ".join(f"{face} {v.armour[face]}" for face in ARMOUR_FACES)
    return f"A.P. {whole.grenades[name].ap} · {', '.join(whole.grenades[name].nations)}"


class ArsenalDialog(QDialog):
    """The arsenal's weapons, vehicles and grenades; the player adds or edits their own and saves them.

    A built-in entry opened and saved becomes the player's own under the same
    name and stands in for it (the seeds mark many figures as examples to
    check against the player's National Arsenal); removing it brings the
    built-in figures back.
    """

    def __init__(self, parent: QWidget | None = None, path: Path | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Arsenal")
        self.path = path
        self.resize(980, 580)
        root = QHBoxLayout(self)
        left = QVBoxLayout()
        self.tree = QTreeWidget(self)
        self.tree.setHeaderLabels(["Entry", "Figures"])
        self.tree.setColumnWidth(0, 210)
        self.tree.currentItemChanged.connect(self._picked)
        left.addWidget(self.tree)
        new_row = QHBoxLayout()
        self.new_buttons: dict[str, QPushButton] = {}
        for section, text in (("weapons", "New weapon"), ("vehicles", "New vehicle"), ("grenades", "New grenade")):
            button = QPushButton(text, self)
            button.clicked.connect(lambda _on=False, s=section: self.start_new(s))
            new_row.addWidget(button)
            self.new_buttons[section] = button
        left.addLayout(new_row)
        root.addLayout(left, 5)

        right = QVBoxLayout()
        self.heading = QLabel(self)
        self.heading.setWordWrap(True)
        right.addWidget(self.heading)
        form = QFormLayout()
        self.name_edit = QLineEdit(self)
        self.nation_edit = QLineEdit(self)
        self.nation_edit.setToolTip("The nation; for a grenade, the nations that use it (comma separated) "
                                    "or Universal")
        form.addRow("Name", self.name_edit)
        form.addRow("Nations", self.nation_edit)
        self.kind_box = QComboBox(self)
        for key, text in WEAPON_KIND_TITLES.items():
            self.kind_box.addItem(text, key)
        self.category_box = QComboBox(self)
        self.category_box.addItem("AFV", "afv")
        self.category_box.addItem("APC", "apc")
        self.bands_edit = QLineEdit(self)
        self.bands_edit.setPlaceholderText("outer edges in inches, e.g. 18, 24, 36 (blank: the whole table)")
        self.ap_edit = QLineEdit(self)
        self.ap_edit.setPlaceholderText("A.P. Strike Dice, one per range band, e.g. 11, 11, 11")
        self.he_edit = QLineEdit(self)
        self.he_edit.setPlaceholderText("blank: no H.E.")
        self.rounds_edit = QLineEdit(self)
        self.rounds_edit.setPlaceholderText("blank: unlimited")
        self.armour_edits = {face: QLineEdit(self) for face in ARMOUR_FACES}
        self.weapons_edit = QLineEdit(self)
        self.weapons_edit.setPlaceholderText("weapon names, main gun first, separated by ;")
        self.rows: dict[str, list[QWidget]] = {
            "weapons": [self.kind_box, self.bands_edit, self.ap_edit, self.he_edit, self.rounds_edit],
            "vehicles": [self.category_box, *self.armour_edits.values(), self.weapons_edit],
            "grenades": [self.ap_edit],
        }
        form.addRow("Kind", self.kind_box)
        form.addRow("Category", self.category_box)
        form.addRow("Range bands", self.bands_edit)
        form.addRow("A.P. Strike Dice", self.ap_edit)
        form.addRow("H.E.", self.he_edit)
        form.addRow("Rounds", self.rounds_edit)
        for face, edit in self.armour_edits.items():
            form.addRow(f"Armour Dice, {face}", edit)
        form.addRow("Weapons", self.weapons_edit)
        self.form = form
        right.addLayout(form)
        self.error = RefusalBanner(self)
        right.addWidget(self.error)
        buttons = QHBoxLayout()
        self.save_button = QPushButton("Save as mine", self)
        self.save_button.clicked.connect(self.save_entry)
        self.remove_button = QPushButton("Remove mine", self)
        self.remove_button.clicked.connect(self.remove_entry)
        close = QPushButton("Close", self)
        close.clicked.connect(self.accept)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        buttons.addWidget(close)
        right.addStretch(1)
        right.addLayout(buttons)
        root.addLayout(right, 4)
        self.section = "weapons"
        self.fill()
        self.start_new("weapons")

    # -- the list --------------------------------------------------------------------------------------------------
    def fill(self, select: tuple[str, str] | None = None) -> None:
        self.tree.blockSignals(True)
        self.tree.clear()
        own = user_arsenal_entries()
        whole = arsenal()
        chosen: QTreeWidgetItem | None = None
        for section, title in SECTION_TITLES.items():
            top = QTreeWidgetItem(self.tree, [title])
            top.setFlags(Qt.ItemFlag.ItemIsEnabled)
            names: list[str] = list(getattr(whole, section))
            for name in sorted(names, key=str.casefold):
                label = f"{name} (yours)" if name in own[section] else name
                summary = entry_summary(section, name)
                item = QTreeWidgetItem(top, [label, summary])
                item.setToolTip(1, literal(summary))
                item.setData(0, Qt.ItemDataRole.UserRole, (section, name))
                if select == (section, name):
                    chosen = item
            top.setExpanded(True)
        self.tree.blockSignals(False)
        if chosen is not None:
            self.tree.setCurrentItem(chosen)

    def item_for(self, section: str, name: str) -> QTreeWidgetItem | None:
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            for j in range(top.childCount() if top is not None else 0):
                child = top.child(j) if top is not None else None
                if child is not None and tuple(child.data(0, Qt.ItemDataRole.UserRole) or ()) == (section, name):
                    return child
        return None

    def _picked(self, item: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None = None) -> None:
        key = item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None
        if key:
            section, name = key
            self.show_entry(section, name, entry_fields(section, name))

    # -- the form --------------------------------------------------------------------------------------------------
    def _show_rows(self, section: str) -> None:
        self.section = section
        shown = set(map(id, self.rows[section]))
        for widget in {id(w): w for ws in self.rows.values() for w in ws}.values():
            self.form.setRowVisible(widget, id(widget) in shown)
        self.error.clear()

    def start_new(self, section: str) -> None:
        self.tree.blockSignals(True)
        self.tree.setCurrentIndex(QModelIndex())
        self.tree.clearSelection()
        self.tree.blockSignals(False)
        self.show_entry(section, "", {})
        self.heading.setText(f"<b>New {section[:-1]}</b> - saved with your own data")

    def show_entry(self, section: str, name: str, fields: dict[str, object]) -> None:
        self._show_rows(section)
        own = name in user_arsenal_entries()[section]
        self.heading.setText(f"<b>{esc(name)}</b>" + (" - yours" if own else " - built in; saving makes it yours"))
        self.remove_button.setEnabled(own)
        self.name_edit.setText(name)
        nations = fields.get("nations")
        self.nation_edit.setText(", ".join(map(str, nations)) if isinstance(nations, list)
                                 else str(fields.get("nation", "")))
        self.kind_box.setCurrentIndex(max(0, self.kind_box.findData(fields.get("kind", "infantry_at"))))
        self.category_box.setCurrentIndex(max(0, self.category_box.findData(fields.get("category", "afv"))))
        bands = fields.get("bands")
        self.bands_edit.setText(_numbers_text(bands) if isinstance(bands, list) else "")
        ap = fields.get("ap")
        self.ap_edit.setText(_numbers_text(ap) if isinstance(ap, list) else ("" if ap is None else str(ap)))
        self.he_edit.setText("" if fields.get("he") is None else str(fields["he"]))
        self.rounds_edit.setText("" if fields.get("rounds") is None else str(fields["rounds"]))
        armour = fields.get("armour")
        for face, edit in self.armour_edits.items():
            edit.setText(str(armour.get(face, "")) if isinstance(armour, dict) else "")
        weapons = fields.get("weapons")
        self.weapons_edit.setText("; ".join(map(str, weapons)) if isinstance(weapons, list) else "")

    def entry(self) -> dict[str, object]:
        """The form as an arsenal entry; numbers typed wrong stay text so the check names the field."""
        if self.section == "weapons":
            out: dict[str, object] = {"nation": self.nation_edit.text().strip(), "kind": self.kind_box.currentData()}
            ap = _values(self.ap_edit.text())
            bands = _values(self.bands_edit.text())
            if bands or out["kind"] == "infantry_at":
                out["bands"] = bands
                out["ap"] = ap
            else:
                out["ap"] = ap[0] if len(ap) == 1 else ap
            for key, edit in (("he", self.he_edit), ("rounds", self.rounds_edit)):
                if edit.text().strip():
                    out[key] = _value(edit.text().strip())
            return out
        if self.section == "vehicles":
            return {"nation": self.nation_edit.text().strip(), "category": self.category_box.currentData(),
                    "armour": {face: _value(e.text().strip()) for face, e in self.armour_edits.items()},
                    "weapons": [w.strip() for w in self.weapons_edit.text().split(";") if w.strip()]}
        ap_values = _values(self.ap_edit.text())
        return {"nations": [n.strip() for n in self.nation_edit.text().split(",") if n.strip()],
                "ap": ap_values[0] if len(ap_values) == 1 else ap_values}

    def _refuse(self, text: str) -> None:
        self.error.show_refusal(text)

    def save_entry(self) -> bool:
        """Check the entry with the arsenal's own rules and save it; a refusal names the field."""
        name = self.name_edit.text().strip()
        if not name:
            self._refuse("Give the entry a name.")
            return False
        entries = user_arsenal_entries()
        entries[self.section][name] = self.entry()
        try:
            save_user_arsenal(entries, self.path)
        except TableError as exc:
            self._refuse(f"Not saved: {message_of(exc)}")
            return False
        except OSError as exc:
            self._refuse(f"Not saved: could not write the file ({message_of(exc)})")
            return False
        self.fill(select=(self.section, name))
        self.show_entry(self.section, name, entry_fields(self.section, name))
        return True

    def remove_entry(self) -> bool:
        name = self.name_edit.text().strip()
        entries = user_arsenal_entries()
        if entries[self.section].pop(name, None) is None:
            return False
        try:
            save_user_arsenal(entries, self.path)
        except (TableError, OSError) as exc:
            self._refuse(f"Not removed: {message_of(exc)}")
            return False
        self.fill()
        self.start_new(self.section)
        return True


def open_arsenal(window: QWidget) -> ArsenalDialog:
    dialog = ArsenalDialog(window)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog


def install_arsenal(host: FeatureHost) -> None:
    """Load the player's arsenal and add "Arsenal..." to the Game menu."""
    problem = load_user_arsenal()
    if problem:
        logging.getLogger("battletracker").warning(problem)
        host.show_status(problem, 0)
    menu = host.menu("game")
    menu.addSeparator()
    entry = menu.addAction("&Arsenal\u2026")
    entry.setObjectName("action-arsenal")
    entry.setToolTip("Anti-tank weapons, vehicles and grenades; add or edit your own")
    entry.triggered.connect(lambda: open_arsenal(host.window()))


FEATURE = Feature("coc.anti_tank", unit_actions=(ANTI_TANK_FIRE, AT_GRENADE), window_extensions=(install_arsenal,))
