"""One unit's card: name, type, figures, counters, ammunition, weapons, armour, badges.

A card is created empty, with only an estimated height, and fills itself in
the first time it scrolls into view (`ensure_current`), so a roster of five
hundred units costs five hundred light frames rather than ten thousand
widgets. After a change it updates its labels in place and rebuilds a row
only when the row's shape changed (a counter appeared, a weapon was added).
Widgets that go away are deleted later, never inside the click that removed
them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING
from typing import Protocol
from typing import cast

from PySide6.QtCore import QPoint
from PySide6.QtCore import QRectF
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtGui import QFont
from PySide6.QtGui import QMouseEvent
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPaintEvent
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QMenu
from PySide6.QtWidgets import QSizePolicy
from PySide6.QtWidgets import QToolButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.model.game import Unit
from battletracker.rules.resupply import resupply_refusal
from battletracker.rules.words import damage_choices
from battletracker.rules.words import damage_result
from battletracker.rules.words import title
from battletracker.ui.cards.chips import Chip
from battletracker.ui.cards.chips import ChipsView
from battletracker.ui.cards.chips import condition_colour
from battletracker.ui.cards.chips import damage_colour
from battletracker.ui.cards.flow import FlowLayout
from battletracker.ui.cards.names import COMMON_CONDITIONS
from battletracker.ui.cards.names import VEHICLE_CONDITIONS
from battletracker.ui.cards.names import ammo_text
from battletracker.ui.cards.names import armour_text
from battletracker.ui.cards.names import kind_title
from battletracker.ui.cards.names import weapon_line
from battletracker.ui.extensions import SectionWidget
from battletracker.ui.extensions import card_sections
from battletracker.ui.extensions import unit_actions
from battletracker.ui.session import Session
from battletracker.ui.text import as_typed
from battletracker.ui.text import literal
from battletracker.ui.text import plain

if TYPE_CHECKING:
    from battletracker.rules.actions import Choices

STRIPE = 6
MARGIN = 8
RADIUS = 6.0
MIN_WIDTH = 220


class CardHost(Protocol):
    """What a card asks of the panel that holds it."""

    def act(self, name: str, choices: Choices) -> bool: ...

    def show_refusal(self, text: str) -> None: ...

    def select_unit(self, unit_id: str) -> None: ...

    def edit_unit(self, unit_id: str) -> None: ...

    def remove_unit(self, unit_id: str) -> None: ...

    def run_action(self, key: str, unit_id: str) -> None: ...

    def menu_opens(self) -> None:
        """Called before a card's menu is built: the unit actions it lists must be there."""


def _button(text: str, tip: str, name: str) -> QToolButton:
    b = QToolButton()
    b.setText(text)
    b.setToolTip(as_typed(tip))  # an ammunition row's buttons name the weapon
    b.setAccessibleName(tip)
    b.setObjectName(name)
    b.setFocusPolicy(Qt.FocusPolicy.TabFocus)
    return b


class Stepper(QWidget):
    """"Shock [-] 2 [+]": one counter with its buttons."""

    def __init__(self, key: str, label: str, tip: str, on_minus: Callable[[], None], on_plus: Callable[[], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key = key
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.label = QLabel(label, self)
        self.minus = _button("\u2212", f"One {tip} fewer", f"minus_{key}")
        self.plus = _button("+", f"One {tip} more", f"plus_{key}")
        side = self.plus.sizeHint().height()
        for b in (self.minus, self.plus):
            b.setFixedSize(side, side)
        self.value = QLabel(self)
        self.value.setObjectName(f"value_{key}")
        self.value.setAlignment(Qt.AlignmentFlag.AlignCenter)
        bold = QFont(self.value.font())
        bold.setBold(True)
        self.value.setFont(bold)
        layout.addWidget(self.label)
        layout.addSpacing(3)
        layout.addWidget(self.minus)
        layout.addWidget(self.value)
        layout.addWidget(self.plus)
        self.minus.clicked.connect(on_minus)
        self.plus.clicked.connect(on_plus)

    def set_value(self, text: str, widest: str) -> None:
        self.value.setText(text)
        self.value.setMinimumWidth(self.value.fontMetrics().horizontalAdvance(widest) + 4)


class UnitCard(QFrame):
    """A unit's card; every button goes through the host and so through the session."""

    def __init__(self, session: Session, unit_id: str, host: CardHost, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.unit_id = unit_id
        self._host = host
        self._built = False
        self._dirty = True
        self._selected = False
        self._side_colour = QColor("#808080")
        self._counter_keys: list[str] = []
        self._ammo_shape: list[tuple[int, str, bool]] = []
        self._steppers: dict[str, Stepper] = {}
        self._ammo_labels: dict[int, QLabel] = {}
        self._ammo_widgets: list[QWidget] = []
        self._content: QWidget | None = None
        self._sections: list[SectionWidget] = []
        self._section_counters: set[str] = set()      # shown by a section, not as a generic counter
        self._section_conditions: set[str] = set()    # shown by a section, not as a badge
        self._measured = False
        self.setObjectName(f"card_{unit_id}")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(MIN_WIDTH)
        self._frame = QVBoxLayout(self)
        self._frame.setContentsMargins(MARGIN + STRIPE, MARGIN, MARGIN, MARGIN)

    # -- state ---------------------------------------------------------------
    @property
    def built(self) -> bool:
        return self._built

    @property
    def selected(self) -> bool:
        return self._selected

    def unit(self) -> Unit | None:
        return self.session.game.units.get(self.unit_id)

    def set_selected(self, on: bool) -> None:
        if on != self._selected:
            self._selected = on
            self.update()

    def set_side_colour(self, colour: QColor) -> None:
        if colour != self._side_colour:
            self._side_colour = colour
            self.update()

    def mark_dirty(self) -> None:
        self._dirty = True

    def estimate(self, line: int, control: int) -> None:
        """Hold an estimated height until the card is first filled in.

        A card emptied after being shown keeps its measured height, which is
        closer than any estimate; it is set only when it differs, as each set
        re-lays the whole roster.
        """
        if self._built or self._measured:
            return
        unit = self.unit()
        if unit is None:
            return
        rows_of_text = 1 + len(unit.weapons) + (1 if unit.vehicle else 0)
        counters = 2 + sum(1 for k, v in unit.counters.items() if v and k != "shock")
        badges = bool(unit.conditions or (unit.vehicle and unit.vehicle.damage))
        ammo = sum(1 for w in unit.weapons if w.ammo is not None)
        sections = len(card_sections(self.session.game, unit))
        rows_of_controls = 1 + (counters + 1) // 2 + ammo + (1 if badges else 0) + sections
        rows = rows_of_text + rows_of_controls
        height = 2 * MARGIN + rows_of_text * line + rows_of_controls * control + 4 * (rows - 1)
        if self.minimumHeight() != height or self.maximumHeight() != height:
            self.setFixedHeight(height)

    def ensure_current(self) -> bool:
        """Build the card or bring it up to date; True when anything was done."""
        if self._built and not self._dirty:
            return False
        unit = self.unit()
        if unit is None:
            return False
        fresh = not self._built
        if fresh:
            self._build()
        self._update(unit)
        if fresh and self._content is not None:
            self._content.show()
        self._dirty = False
        return True

    # -- building --------------------------------------------------------------
    def release(self) -> None:
        """Drop the card's widgets and keep its height: what a card far out of view costs."""
        if self._content is None:
            return
        height = self.height()
        self._content.hide()
        self._frame.removeWidget(self._content)
        self._content.deleteLater()
        self._content = None
        self._built = False
        self._measured = True
        self._dirty = True
        self._counter_keys = []
        self._ammo_shape = []
        self._steppers = {}
        self._ammo_labels = {}
        self._ammo_widgets = []
        self._sections = []
        self._section_counters = set()
        self._section_conditions = set()
        self.setFixedHeight(height)

    def _build(self) -> None:
        self._built = True
        self.setMinimumHeight(0)
        self.setMaximumHeight(16777215)
        content = self._content = QWidget(self)
        root = QVBoxLayout(content)
        root.setContentsMargins(0, 0, 0, 0)
        root.setSpacing(4)
        self._frame.addWidget(content)

        header = QHBoxLayout()
        header.setSpacing(6)
        self.name_label = plain(QLabel(content))
        self.name_label.setObjectName("name")
        self.name_label.setWordWrap(True)
        font = QFont(self.name_label.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.1)
        self.name_label.setFont(font)
        self.menu_button = _button("\u22ef", "Conditions, edit, remove", "menu")
        self.menu_button.setAutoRaise(True)
        self.menu_button.clicked.connect(lambda: self._popup_menu(self.menu_button, full=True))
        header.addWidget(self.name_label, 1)
        header.addWidget(self.menu_button, 0, Qt.AlignmentFlag.AlignTop)
        root.addLayout(header)

        kind_row = QHBoxLayout()
        kind_row.setSpacing(6)
        self.type_label = plain(QLabel(content))
        self.type_label.setObjectName("type")
        self.type_label.setWordWrap(True)
        self.type_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.conditions_button = _button("Conditions\u2026", "Set or clear conditions and damage", "conditions")
        self.conditions_button.setAutoRaise(True)
        self.conditions_button.clicked.connect(lambda: self._popup_menu(self.conditions_button, full=False))
        kind_row.addWidget(self.type_label, 1)
        kind_row.addWidget(self.conditions_button, 0, Qt.AlignmentFlag.AlignTop)
        root.addLayout(kind_row)
        self.chips = ChipsView(content)
        self.chips.setObjectName("badges")
        root.addWidget(self.chips)

        self.counters_box = QWidget(content)
        self.counters_flow = FlowLayout(self.counters_box, spacing=10, line_spacing=4)
        root.addWidget(self.counters_box)

        self.ammo_box = QWidget(content)
        self.ammo_rows = QVBoxLayout(self.ammo_box)
        self.ammo_rows.setContentsMargins(0, 0, 0, 0)
        self.ammo_rows.setSpacing(3)
        root.addWidget(self.ammo_box)

        self.weapons_label = plain(QLabel(content))
        self.weapons_label.setObjectName("weapons")
        self.weapons_label.setWordWrap(True)
        self.weapons_label.setTextFormat(Qt.TextFormat.PlainText)
        root.addWidget(self.weapons_label)

        self.armour_label = plain(QLabel(content))
        self.armour_label.setObjectName("armour")
        self.armour_label.setWordWrap(True)
        root.addWidget(self.armour_label)

        unit = self.unit()
        if unit is not None:
            for section in card_sections(self.session.game, unit):
                widget = section.create(content, self.session, self.unit_id)
                widget.setObjectName(f"section_{section.key}")
                root.addWidget(widget)
                self._sections.append(cast(SectionWidget, widget))
                self._section_counters.update(section.counters)
                self._section_conditions.update(section.conditions)

    def _update(self, unit: Unit) -> None:
        self.name_label.setText(unit.name)
        self.type_label.setText(kind_title(unit))
        self._update_counters(unit)
        self._update_ammo(unit)
        lines = [weapon_line(w) for w in unit.weapons]
        self.weapons_label.setText("\n".join(lines))
        self.weapons_label.setVisible(bool(lines))
        self.armour_label.setText(armour_text(unit))
        self.armour_label.setVisible(unit.vehicle is not None)
        chips = self._chips_for(unit)
        self.chips.set_chips(chips)
        self.chips.setVisible(bool(chips))
        for section in self._sections:
            section.refresh(unit)
        self.setToolTip(literal(unit.notes))

    def _update_counters(self, unit: Unit) -> None:
        others = sorted(k for k, v in unit.counters.items()
                        if v and k != "shock" and k not in self._section_counters)
        shock = ["shock"] if self.session.game.ruleset == "chain_of_command" or unit.shock else []
        keys = ["figures", *shock, *others]
        if keys != self._counter_keys:
            for stepper in self._steppers.values():
                self._discard(stepper, self.counters_flow)
            self._steppers = {}
            for key in keys:
                stepper = self._make_stepper(key)
                self.counters_flow.addWidget(stepper)
                stepper.show()
                self._steppers[key] = stepper
            self._counter_keys = keys
        full = str(unit.figures_max)
        self._steppers["figures"].set_value(f"{unit.figures}/{unit.figures_max}", f"{full}/{full}")
        for key in keys[1:]:
            value = str(unit.counters.get(key, 0))
            self._steppers[key].set_value(value, "00")

    def _make_stepper(self, key: str) -> Stepper:
        if key == "figures":
            return Stepper(key, "Figures", "figure", lambda: self._figures(-1), lambda: self._figures(1),
                           self.counters_box)
        words = title(key)
        return Stepper(key, words, words.lower(), lambda: self._counter(key, -1), lambda: self._counter(key, 1),
                       self.counters_box)

    def _update_ammo(self, unit: Unit) -> None:
        shape = [(i, w.name, resupply_refusal(w) is None) for i, w in enumerate(unit.weapons) if w.ammo is not None]
        if shape != self._ammo_shape:
            for widget in self._ammo_widgets:
                self._discard(widget, self.ammo_rows)
            self._ammo_widgets = []
            self._ammo_labels = {}
            for index, name, refillable in shape:
                self._add_ammo_row(index, name, refillable)
            self._ammo_shape = shape
        for index, label in self._ammo_labels.items():
            weapon = unit.weapons[index]
            empty = weapon.ammo == 0
            label.setText(ammo_text(weapon) + (" \u2014 none left" if empty else ""))
            font = label.font()
            font.setBold(empty)
            label.setFont(font)
        self.ammo_box.setVisible(bool(shape))

    def _add_ammo_row(self, index: int, name: str, refillable: bool) -> None:
        """"Panzerschreck 2/3 rounds [Spend] [Refill]", wrapping the buttons under a narrow card."""
        row = QWidget(self.ammo_box)
        flow = FlowLayout(row, spacing=6)
        title_label = plain(QLabel(name, row))
        value = plain(QLabel(row))
        value.setObjectName(f"ammo_{index}")
        spend = _button("Spend", f"Spend one from the {name}", f"spend_{index}")
        spend.clicked.connect(lambda: self._spend(index))
        for widget in (title_label, value, spend):
            flow.addWidget(widget)
        if refillable:
            refill = _button("Refill", f"Refill the {name} to its maximum", f"refill_{index}")
            refill.clicked.connect(lambda: self._refill(index))
            flow.addWidget(refill)
        self.ammo_rows.addWidget(row)
        row.show()
        self._ammo_labels[index] = value
        self._ammo_widgets.append(row)

    @staticmethod
    def _discard(widget: QWidget, layout: FlowLayout | QVBoxLayout) -> None:
        widget.hide()
        layout.removeWidget(widget)
        widget.deleteLater()

    def _chips_for(self, unit: Unit) -> list[Chip]:
        chips = [Chip(title(c), condition_colour(c)) for c in unit.conditions if c not in self._section_conditions]
        if unit.vehicle is not None:
            for key in unit.vehicle.damage:
                result = damage_result(self.session.game.ruleset, unit.vehicle.category, key)
                chips.append(Chip(result.title, damage_colour(key), result.definition))
        return chips

    # -- actions ---------------------------------------------------------------
    def _counter(self, key: str, delta: int) -> None:
        unit = self.unit()
        if unit is not None:
            self._host.act("unit.counter", {"unit": unit.id, "counter": key, "delta": delta})

    def _figures(self, delta: int) -> None:
        unit = self.unit()
        if unit is not None:
            self._host.act("unit.figures", {"unit": unit.id, "delta": delta})

    def _spend(self, index: int) -> None:
        unit = self.unit()
        if unit is not None:
            self._host.act("unit.ammo", {"unit": unit.id, "weapon": index})

    def _refill(self, index: int) -> None:
        unit = self.unit()
        if unit is not None:
            self._host.act("unit.ammo", {"unit": unit.id, "weapon": index, "refill": True})

    def set_condition(self, condition: str, present: bool) -> bool:
        unit = self.unit()
        return unit is not None and self._host.act("unit.condition", {"unit": unit.id, "condition": condition,
                                                                      "present": present})

    def set_damage(self, damage: str, present: bool) -> bool:
        unit = self.unit()
        if unit is None or unit.vehicle is None:
            return False
        return self._host.act("unit.damage", {"unit": unit.id, "damage": damage, "present": present})

    # -- menus -----------------------------------------------------------------
    def build_menu(self, full: bool) -> QMenu:
        """Checkable conditions (and damage for vehicles); with `full`, Edit and Remove too."""
        self._host.menu_opens()  # the features' entries are there even before they are installed
        menu = QMenu(self)
        menu.setToolTipsVisible(True)
        unit = self.unit()
        if unit is None:
            return menu
        menu.addSection("Conditions")
        offered = [*COMMON_CONDITIONS, *(VEHICLE_CONDITIONS if unit.vehicle else ())]
        for condition in [*offered, *(c for c in unit.conditions if c not in offered)]:
            action = menu.addAction(title(condition))
            action.setCheckable(True)
            action.setChecked(unit.has(condition))
            action.setObjectName(f"condition_{condition}")
            action.toggled.connect(lambda on, c=condition: self.set_condition(c, on))
        if unit.vehicle is not None:
            menu.addSection("Damage")
            choices = [(r.key, r.title, r.definition)
                       for r in damage_choices(self.session.game.ruleset, unit.vehicle.category)]
            known = {key for key, _title, _definition in choices}
            choices += [(d, title(d), "") for d in unit.vehicle.damage if d not in known]
            for key, text, definition in choices:
                action = menu.addAction(text)
                action.setToolTip(definition)
                action.setCheckable(True)
                action.setChecked(key in unit.vehicle.damage)
                action.setObjectName(f"damage_{key}")
                action.toggled.connect(lambda on, k=key: self.set_damage(k, on))
        actions = unit_actions(self.session.game, unit)
        if actions:
            menu.addSection("Actions")
            for unit_action in actions:
                entry = menu.addAction(unit_action.title)
                entry.setToolTip(unit_action.tip)
                entry.setObjectName(f"action_{unit_action.key}")
                entry.triggered.connect(lambda _=False, k=unit_action.key: self._host.run_action(k, self.unit_id))
        if full:
            menu.addSeparator()
            edit = menu.addAction("Edit\u2026")
            edit.setObjectName("edit")
            edit.triggered.connect(lambda: self._host.edit_unit(self.unit_id))
            remove = menu.addAction("Remove\u2026")
            remove.setObjectName("remove")
            remove.triggered.connect(lambda: self._host.remove_unit(self.unit_id))
        return menu

    def _popup_menu(self, anchor: QWidget, full: bool) -> None:
        menu = self.build_menu(full)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(anchor.mapToGlobal(QPoint(0, anchor.height())))

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        menu = self.build_menu(full=True)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(event.globalPos())

    # -- mouse and paint -------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._host.select_unit(self.unit_id)
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._host.edit_unit(self.unit_id)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        rect = QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5)
        if self._selected:
            border = palette.highlight().color()
            painter.setPen(border)
            pen = painter.pen()
            pen.setWidthF(3.0)
            painter.setPen(pen)
        else:
            painter.setPen(palette.mid().color())
        painter.setBrush(palette.base())
        painter.drawRoundedRect(rect, RADIUS, RADIUS)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self._side_colour)
        stripe = QRectF(rect.left() + 3, rect.top() + 3, STRIPE - 1, rect.height() - 6)
        painter.drawRoundedRect(stripe, 2.5, 2.5)
        painter.end()
