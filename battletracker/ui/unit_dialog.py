"""Add a unit from the ruleset's presets, or edit one already on the table.

OK applies one AddUnit or ReplaceUnit through the session, so the whole
dialog is one undo step with one log line. Problems (no name, a position off
the table, more figures than the unit's full strength) are listed inside
the dialog as they arise and OK waits until there are none; a change the
game still refuses is shown there too and the dialog stays open.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QFont
from PySide6.QtGui import QIcon
from PySide6.QtGui import QPalette
from PySide6.QtGui import QPixmap
from PySide6.QtGui import QStandardItem
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QDoubleSpinBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QGridLayout
from PySide6.QtWidgets import QGroupBox
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QPlainTextEdit
from PySide6.QtWidgets import QSpinBox
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.model.game import ARMOUR_FACES
from battletracker.model.game import UNIT_KINDS
from battletracker.model.game import VEHICLE_CATEGORIES
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.rules import RulesInputError
from battletracker.rules.base import InputValue
from battletracker.rules.base import message_of
from battletracker.rules.presets import UnitPreset
from battletracker.rules.presets import unit_presets
from battletracker.rules.table_actions import describe_changes
from battletracker.rules.table_actions import unit_choice
from battletracker.rules.words import KIND_TITLES
from battletracker.ui.refusal import RefusalBanner
from battletracker.ui.session import Session
from battletracker.ui.text import plain

CATEGORY_TITLES = {"afv": "AFV (armoured fighting vehicle)", "apc": "APC (armoured personnel carrier)"}
BLANK = ""
SPACING = 3.0
EDGE = 1.0
PRESET_ROLE = Qt.ItemDataRole.UserRole + 1


def free_spot(game: Game, spacing: float = SPACING) -> tuple[float, float]:
    """The table centre, or the nearest point on rings around it at least `spacing` from any unit or marker."""
    cx, cy = game.table_width / 2, game.table_height / 2
    taken = [(u.x, u.y) for u in game.units.values()] + [(m.x, m.y) for m in game.markers.values()]
    rings = int(max(game.table_width, game.table_height) / spacing) + 1
    for ring in range(rings):
        steps = max(1, 8 * ring)
        for step in range(steps):
            angle = 2 * math.pi * step / steps
            x = round((cx + ring * spacing * math.sin(angle)) * 2) / 2
            y = round((cy - ring * spacing * math.cos(angle)) * 2) / 2
            if not (EDGE <= x <= game.table_width - EDGE and EDGE <= y <= game.table_height - EDGE):
                continue
            if all(math.hypot(x - tx, y - ty) >= spacing for tx, ty in taken):
                return x, y
    return cx, cy


def side_facing(game: Game, side: int) -> float:
    """The way the side's units face on average (rounded to 5 degrees); 0 when it has none."""
    units = game.units_of(side)
    if not units:
        return 0.0
    sx = sum(math.sin(math.radians(u.facing)) for u in units)
    cy = sum(math.cos(math.radians(u.facing)) for u in units)
    if math.hypot(sx, cy) < 1e-9:
        return 0.0
    return (round(math.degrees(math.atan2(sx, cy)) / 5) * 5) % 360.0


def unique_name(game: Game, base: str) -> str:
    names = {u.name for u in game.units.values()}
    if base not in names:
        return base
    n = 2
    while f"{base} {n}" in names:
        n += 1
    return f"{base} {n}"


def _kept(original: float, shown: float, decimals: int) -> float:
    """The original value when the spin box only shows it rounded, so an untouched field changes nothing."""
    return original if round(original, decimals) == round(shown, decimals) else shown


@dataclass
class AmmoRow:
    index: int
    ammo: QSpinBox
    maximum: QSpinBox


class UnitDialog(QDialog):
    """Add (unit_id None) or edit a unit; OK is one undo step through the session."""

    def __init__(self, session: Session, unit_id: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.unit_id = unit_id
        self.added_id: str | None = None
        game = session.game
        self._original = copy.deepcopy(game.unit(unit_id)) if unit_id is not None else None
        self._presets = {p.key: p for p in unit_presets(game.ruleset)}
        self._name_edited = unit_id is not None
        self._preset_chosen = False
        self._body: Unit = Unit(id="new", name="", kind="team", side=0, x=0.0, y=0.0)
        self._ammo_rows: list[AmmoRow] = []
        self._armour: dict[str, QSpinBox] = {}
        self.setWindowTitle("Edit unit" if unit_id is not None else "Add unit")
        self.setMinimumWidth(480)

        root = QVBoxLayout(self)
        root.setSpacing(10)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        form.setHorizontalSpacing(12)
        form.setVerticalSpacing(8)
        root.addLayout(form)

        self.preset = QComboBox(self)
        self.preset.setObjectName("preset")
        self.preset.setMinimumWidth(280)
        if self._original is None:
            self._fill_presets()
            form.addRow("&Preset:", self.preset)
        else:
            self.preset.hide()

        self.name = QLineEdit(self)
        self.name.setObjectName("name")
        self.name.setMinimumWidth(280)
        self.name.setPlaceholderText("What the players call it, e.g. 1st Squad")
        self.name.textEdited.connect(self._name_typed)
        form.addRow("&Name:", self.name)

        self.side = QComboBox(self)
        self.side.setObjectName("side")
        for side in game.sides:
            swatch = QPixmap(14, 14)
            swatch.fill(QColor(side.colour))
            self.side.addItem(QIcon(swatch), side.name)
        form.addRow("&Side:", self.side)

        self.kind = QComboBox(self)
        self.kind.setObjectName("kind")
        for kind in UNIT_KINDS:
            self.kind.addItem(KIND_TITLES.get(kind, kind), kind)
        form.addRow("&Kind:", self.kind)

        self.x_box = self._distance_box("x")
        self.y_box = self._distance_box("y")
        position = QHBoxLayout()
        position.setSpacing(6)
        for label, distance in (("X", self.x_box), ("Y", self.y_box)):
            caption = QLabel(label, self)
            caption.setBuddy(distance)
            position.addWidget(caption)
            position.addWidget(distance, 1)
        self.table_hint = QLabel(f"table {game.table_width:g}\" \u00d7 {game.table_height:g}\"", self)
        self.table_hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        position.addWidget(self.table_hint)
        form.addRow(self._caption("&Position:", self.x_box), position)

        self.facing = QDoubleSpinBox(self)
        self.facing.setObjectName("facing")
        self.facing.setRange(0.0, 359.9)
        self.facing.setDecimals(1)
        self.facing.setSingleStep(5.0)
        self.facing.setWrapping(True)
        self.facing.setSuffix("\u00b0")
        self.facing.setMinimumWidth(110)
        self.facing.setToolTip("Degrees clockwise from the table's top edge: 0 faces the top, 180 the bottom")
        form.addRow(self._caption("&Facing:", self.facing), self._left(self.facing))

        self.figures = self._count_box("figures", 0)
        self.figures_max = self._count_box("figures_max", 1)
        figures = QHBoxLayout()
        figures.setSpacing(6)
        figures.addWidget(self.figures)
        figures.addWidget(QLabel("of", self))
        figures.addWidget(self.figures_max)
        figures.addStretch(1)
        form.addRow(self._caption("F&igures:", self.figures), figures)

        self.notes = QPlainTextEdit(self)
        self.notes.setObjectName("notes")
        self.notes.setTabChangesFocus(True)
        self.notes.setPlaceholderText("Anything to remember about it")
        self.notes.setFixedHeight(self.notes.fontMetrics().lineSpacing() * 3 + 16)
        form.addRow("N&otes:", self.notes)

        self.ammo_group = QGroupBox("Ammunition", self)
        self.ammo_group.setObjectName("ammo")
        self.ammo_form = QFormLayout(self.ammo_group)
        self.ammo_form.setHorizontalSpacing(12)
        root.addWidget(self.ammo_group)

        self.vehicle_group = QGroupBox("Vehicle", self)
        self.vehicle_group.setObjectName("vehicle")
        vehicle_form = QFormLayout(self.vehicle_group)
        vehicle_form.setHorizontalSpacing(12)
        self.category = QComboBox(self.vehicle_group)
        self.category.setObjectName("category")
        for category in VEHICLE_CATEGORIES:
            self.category.addItem(CATEGORY_TITLES.get(category, category), category)
        vehicle_form.addRow("Type:", self.category)
        self.open_topped = QCheckBox("Open-topped", self.vehicle_group)
        self.open_topped.setObjectName("open_topped")
        vehicle_form.addRow("", self.open_topped)
        armour = QGridLayout()
        armour.setHorizontalSpacing(8)
        armour.setVerticalSpacing(6)
        for n, face in enumerate(ARMOUR_FACES):
            box = self._count_box(f"armour_{face}", 0)
            box.setParent(self.vehicle_group)
            self._armour[face] = box
            caption = QLabel(face.capitalize(), self.vehicle_group)
            caption.setBuddy(box)
            armour.addWidget(caption, n // 2, (n % 2) * 2)
            armour.addWidget(box, n // 2, (n % 2) * 2 + 1)
        armour.setColumnStretch(4, 1)
        vehicle_form.addRow("Armour Dice:", armour)
        root.addWidget(self.vehicle_group)


        root.addStretch(1)
        self.problems_label = RefusalBanner(self)
        self.problems_label.setObjectName("problems")
        root.addWidget(self.problems_label)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText("Add unit" if self._original is None else "Apply")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        root.addWidget(self.buttons)

        if self._original is not None:
            self._load(self._original)
        else:
            self._start_adding()

        for signal in (self.name.textChanged, self.x_box.valueChanged, self.y_box.valueChanged,
                       self.figures.valueChanged, self.figures_max.valueChanged):
            signal.connect(self._validate)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.side.currentIndexChanged.connect(self._side_changed)
        self.preset.currentIndexChanged.connect(self._preset_changed)
        self.preset.activated.connect(self._preset_picked)
        self._validate()

    # -- widgets ----------------------------------------------------------------------
    def _distance_box(self, name: str) -> QDoubleSpinBox:
        box = QDoubleSpinBox(self)
        box.setObjectName(name)
        box.setRange(-999.0, 999.0)
        box.setDecimals(1)
        box.setSingleStep(0.5)
        box.setSuffix('"')
        box.setMinimumWidth(100)
        return box

    def _count_box(self, name: str, minimum: int) -> QSpinBox:
        box = QSpinBox(self)
        box.setObjectName(name)
        box.setRange(minimum, 999)
        box.setMinimumWidth(80)
        return box

    def _caption(self, text: str, buddy: QWidget) -> QLabel:
        """A form label with a mnemonic, for rows whose field is a layout rather than one widget."""
        label = QLabel(text, self)
        label.setBuddy(buddy)
        return label

    def _left(self, widget: QWidget) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addWidget(widget)
        row.addStretch(1)
        return row

    def _heading(self, text: str) -> QStandardItem:
        """A group heading: bold, not choosable, in the normal text colour (not the faint disabled one)."""
        heading = QStandardItem(text)
        heading.setFlags(Qt.ItemFlag.NoItemFlags)
        font = QFont(self.preset.font())
        font.setBold(True)
        heading.setFont(font)
        heading.setForeground(self.palette().windowText())
        return heading

    def _fill_presets(self) -> None:
        """Presets under non-selectable group headings, in the order the ruleset lists them."""
        model = QStandardItemModel(self.preset)
        groups: dict[str, list[UnitPreset]] = {}
        for preset in self._presets.values():
            groups.setdefault(preset.group, []).append(preset)
        for group, presets in groups.items():
            model.appendRow(self._heading(group))
            for preset in presets:
                item = QStandardItem(preset.title)
                item.setData(preset.key, PRESET_ROLE)
                item.setToolTip(f"{group}: {preset.title}")
                model.appendRow(item)
        model.appendRow(self._heading("Other"))
        blank = QStandardItem("Blank unit (no weapons)")
        blank.setData(BLANK, PRESET_ROLE)
        model.appendRow(blank)
        self.preset.setModel(model)

    # -- filling in -------------------------------------------------------------------
    def _start_adding(self) -> None:
        game = self.session.game
        selected = game.units.get(self.session.selected or "")
        side = selected.side if selected is not None else game.active_side
        if 0 <= side < self.side.count():
            self.side.setCurrentIndex(side)
        x, y = free_spot(game)
        self.x_box.setValue(x)
        self.y_box.setValue(y)
        self.facing.setValue(side_facing(game, side))
        self._select_preset_for_side(side)
        self._preset_changed()

    def _select_preset_for_side(self, side: int) -> None:
        """Offer the side's own presets: the group named like the side, if there is one."""
        game = self.session.game
        name = game.sides[side].name if 0 <= side < len(game.sides) else ""
        model = self.preset.model()
        first: int | None = None
        for row in range(model.rowCount()):
            key = model.index(row, 0).data(PRESET_ROLE)
            if key is None:
                continue
            if first is None:
                first = row
            if key and self._presets[key].group == name:
                self.preset.setCurrentIndex(row)
                return
        if first is not None:
            self.preset.setCurrentIndex(first)

    def preset_key(self) -> str | None:
        """The chosen preset's key, "" for a blank unit, None when editing."""
        if self._original is not None:
            return None
        key = self.preset.currentData(PRESET_ROLE)
        return key if isinstance(key, str) else None

    def select_preset(self, key: str) -> None:
        """Choose a preset as the player would; the side no longer picks one for them."""
        index = self.preset.findData(key, PRESET_ROLE)
        if index < 0:
            raise KeyError(key)
        self.preset.setCurrentIndex(index)
        self._preset_picked()

    def _preset_picked(self) -> None:
        self._preset_chosen = True

    def _template(self) -> Unit:
        """The unit the chosen preset makes (or a blank one), before the dialog's fields apply."""
        key = self.preset_key() or ""
        side = max(0, self.side.currentIndex())
        if key:
            return self._presets[key].make("new", self._presets[key].title, side, 0.0, 0.0)
        return Unit(id="new", name="", kind="team", side=side, x=0.0, y=0.0)

    def _preset_changed(self) -> None:
        if self._original is not None:
            return
        template = self._template()
        if not self._name_edited:
            key = self.preset_key()
            base = self._presets[key].title if key else ""
            self.name.setText(unique_name(self.session.game, base) if base else "")
        self._load_body(template)
        self._validate()

    def _name_typed(self, _text: str) -> None:
        self._name_edited = True

    def _side_changed(self, index: int) -> None:
        if self._original is None:
            self.facing.setValue(side_facing(self.session.game, index))
            if not self._preset_chosen:
                self._select_preset_for_side(index)
        self._validate()

    def _load(self, unit: Unit) -> None:
        self.name.setText(unit.name)
        if 0 <= unit.side < self.side.count():
            self.side.setCurrentIndex(unit.side)
        self.x_box.setValue(unit.x)
        self.y_box.setValue(unit.y)
        self.facing.setValue(unit.facing)
        self.notes.setPlainText(unit.notes)
        self._load_body(unit)

    def _load_body(self, unit: Unit) -> None:
        """Kind, figures, ammunition and vehicle fields from a unit or a preset's template."""
        self._body = copy.deepcopy(unit)
        self.kind.blockSignals(True)
        self.kind.setCurrentIndex(max(0, self.kind.findData(unit.kind)))
        self.kind.blockSignals(False)
        self.figures_max.setValue(max(1, unit.figures_max))
        self.figures.setValue(unit.figures)
        while self.ammo_form.rowCount():
            self.ammo_form.removeRow(0)
        self._ammo_rows = []
        for index, weapon in enumerate(unit.weapons):
            if weapon.ammo is None:
                continue
            ammo = self._count_box(f"ammo_{index}", 0)
            maximum = self._count_box(f"ammo_max_{index}", 0)
            ammo.setValue(weapon.ammo)
            maximum.setValue(weapon.ammo_max if weapon.ammo_max is not None else weapon.ammo)
            ammo.valueChanged.connect(self._validate)
            maximum.valueChanged.connect(self._validate)
            row = QHBoxLayout()
            row.setSpacing(6)
            row.addWidget(ammo)
            row.addWidget(QLabel("of", self.ammo_group))
            row.addWidget(maximum)
            row.addWidget(plain(QLabel(weapon.ammo_label, self.ammo_group)))
            row.addStretch(1)
            self.ammo_form.addRow(plain(QLabel(f"{weapon.name}:", self.ammo_group)), row)
            self._ammo_rows.append(AmmoRow(index, ammo, maximum))
        self.ammo_group.setVisible(bool(self._ammo_rows))
        vehicle = unit.vehicle or Vehicle()
        self.category.setCurrentIndex(max(0, self.category.findData(vehicle.category)))
        self.open_topped.setChecked(vehicle.open_topped)
        for face, box in self._armour.items():
            box.setValue(vehicle.armour.get(face, 0))
        self.vehicle_group.setVisible(unit.kind == "vehicle")
        self._fit()

    def _kind_changed(self) -> None:
        self.vehicle_group.setVisible(self.kind.currentData() == "vehicle")
        self._fit()
        self._validate()

    def _fit(self) -> None:
        """Grow or shrink to the fields shown, once the dialog is on screen (before that, show() sizes it)."""
        if self.isVisible():
            self.adjustSize()

    # -- checking and applying -------------------------------------------------------------
    def problems(self) -> list[str]:
        """What stops OK, in words a player can act on."""
        game = self.session.game
        found: list[str] = []
        if not game.sides:
            found.append("This game has no sides yet, so a unit cannot join one.")
        if not self.name.text().strip():
            found.append("Give the unit a name.")
        x, y = self.x_box.value(), self.y_box.value()
        if not 0 <= x <= game.table_width:
            found.append(f"X {x:g}\" is off the table (0 to {game.table_width:g}\").")
        if not 0 <= y <= game.table_height:
            found.append(f"Y {y:g}\" is off the table (0 to {game.table_height:g}\").")
        if self.figures.value() > self.figures_max.value():
            found.append(f"{self.figures.value()} figures is more than the unit's full strength of "
                         f"{self.figures_max.value()}.")
        for row in self._ammo_rows:
            weapon = self._body.weapons[row.index]
            if row.ammo.value() > row.maximum.value():
                found.append(f"{weapon.name}: {row.ammo.value()} {weapon.ammo_label} is more than its maximum "
                             f"of {row.maximum.value()}.")
        return found

    def _validate(self) -> None:
        found = self.problems()
        self._show_problems(found)
        self.ok_button.setEnabled(not found)

    def _show_problems(self, found: list[str]) -> None:
        self.problems_label.set_refusal("\n".join(found))

    def unit(self) -> Unit:
        """The unit as the dialog's fields describe it (with its id, new or kept)."""
        game = self.session.game
        unit = copy.deepcopy(self._body)
        original = self._original
        unit.id = original.id if original is not None else game.new_id("u")
        unit.name = self.name.text().strip()
        unit.side = self.side.currentIndex()
        unit.kind = str(self.kind.currentData())
        unit.x = _kept(original.x, self.x_box.value(), 1) if original else self.x_box.value()
        unit.y = _kept(original.y, self.y_box.value(), 1) if original else self.y_box.value()
        unit.facing = _kept(original.facing, self.facing.value(), 1) if original else self.facing.value()
        unit.figures = self.figures.value()
        unit.figures_max = self.figures_max.value()
        for row in self._ammo_rows:
            weapon = unit.weapons[row.index]
            weapon.ammo = row.ammo.value()
            weapon.ammo_max = row.maximum.value()
        if unit.kind == "vehicle":
            vehicle = unit.vehicle or Vehicle()
            vehicle.category = str(self.category.currentData())
            vehicle.open_topped = self.open_topped.isChecked()
            vehicle.armour = {face: box.value() for face, box in self._armour.items()}
            unit.vehicle = vehicle
        else:
            unit.vehicle = None
        unit.notes = self.notes.toPlainText().strip()
        return unit

    def accept(self) -> None:
        found = self.problems()
        if found:
            self._show_problems(found)
            return
        unit = self.unit()
        action = self._action(unit)
        if action is not None:
            try:
                self.session.act(*action)
            except (GameError, RulesInputError) as exc:
                self._show_problems([f"Not applied: {message_of(exc)}"])
                return
            if self._original is None:
                self.added_id = unit.id
                self.session.select(unit.id)
        super().accept()

    def _action(self, unit: Unit) -> tuple[str, dict[str, InputValue]] | None:
        """The add or edit action for `unit`, or None when an edit changed nothing."""
        if self._original is None:
            key = self.preset_key()
            choices: dict[str, InputValue] = {"unit": unit_choice(unit)}
            if key:
                choices["what"] = self._presets[key].title
            return "unit.add", choices
        if not describe_changes(self.session.game, self._original, unit):
            return None
        return "unit.edit", {"unit": unit_choice(unit)}
