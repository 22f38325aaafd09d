"""Pieces every procedure dialog shares, so each looks and behaves the same.

A refusal (why a procedure cannot go ahead as entered) is shown the same red
way in every dialog, and what the rules read from the table (a plan's facts)
as the same bullet list; keeping each in one class keeps the colours, the
wrapping and the safety against markup in unit names in one place. What a
dialog draws on the map goes when the dialog goes, however it is closed; a
target is chosen from a list or by clicking it on the map, the same way, and a
reading of the map the player may overrule (cover, visibility, Line of Sight)
is one `OverruledReading`, its reason logged only when it is overruled.

A unit action's dialog is declared as data: an `ActionForm` names the action
and its choices (`UnitChoice`, `WordChoice`, `YesNo`, `Number`, `Distance`), and
`planned_action` makes the `UnitAction` that opens it as a
`PlannedActionDialog`, which plans at every change, shows the plan's facts,
its refusal or its odds, and applies through `Session.act`. Every refusal a
dialog shows goes through `attempt`, so none handles refusals its own way.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from typing import Any
from typing import Protocol
from typing import TypeVar

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QDoubleSpinBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QGraphicsItem
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLayout
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QSpinBox
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.game import Unit
from battletracker.rules.actions import Choices
from battletracker.rules.actions import Plan
from battletracker.rules.actions import plan
from battletracker.rules.base import InputValue
from battletracker.rules.base import Resolution
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import message_of
from battletracker.rules.tables import TableError
from battletracker.ui.activation_parts import ActivationRow
from battletracker.ui.extensions import FeatureHost
from battletracker.ui.extensions import UnitAction
from battletracker.ui.fit import Columns
from battletracker.ui.form_parts import measure_box
from battletracker.ui.odds_plot import GroupFn
from battletracker.ui.procedure_runner import ProcedureDialog
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.refusal import REFUSAL_STYLE as REFUSAL_STYLE
from battletracker.ui.refusal import RefusalBanner as RefusalBanner
from battletracker.ui.session import Session
from battletracker.ui.text import esc

if TYPE_CHECKING:
    from battletracker.ui.map.view import MapView

class FactsPanel(QLabel):
    """What the rules read from the table for this procedure, one bullet a sentence.

    Each fact is escaped before it goes into the list: facts quote unit names the player typed.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self._facts: tuple[str, ...] = ()

    def set_facts(self, facts: Sequence[str]) -> None:
        """Show `facts` as a bullet list (nothing at all when there are none)."""
        self._facts = tuple(facts)
        items = "".join(f"<li>{esc(fact)}</li>" for fact in self._facts)
        self.setText(f"<ul style='margin-left: 0px; -qt-list-indent: 1;'>{items}</ul>" if items else "")

    def set_note(self, text: str) -> None:
        """Show one sentence instead of facts: why there is nothing to read (no target, a refusal)."""
        self._facts = ()
        self.setText(esc(text))

    def facts(self) -> tuple[str, ...]:
        """The facts on show, as sentences."""
        return self._facts


class OverruledReading(QWidget):
    """A reading of the map the player may overrule, beside a "why" line whose words the log keeps.

    `box` is a combo of levels (each item's data its value) or a tick. It starts at the map's `reading`; the
    reason shows only while the player's value differs from it, and only then is it given to the rules, so
    a word typed for another reading is never logged. `changed` comes with each change the player makes.
    """

    changed = Signal()

    def __init__(self, box: QComboBox | QCheckBox, parent: QWidget, reading: str | bool | None,
                 placeholder: str = "why, if not the map's (logged)", tip: str = "") -> None:
        super().__init__(parent)
        box.setParent(self)
        box.setToolTip(tip)
        self.box = box
        self.reading = reading
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText(placeholder)
        # A form label's shortcut (its buddy is this row) goes to the choice, not the reason.
        self.setFocusProxy(box)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(box)
        row.addWidget(self.reason, 1)
        if isinstance(box, QCheckBox):
            box.toggled.connect(lambda _on: self._chosen())
        else:
            box.currentIndexChanged.connect(lambda _index: self._chosen())
        self.reason.textChanged.connect(lambda _text: self.changed.emit())
        self._show_reason()

    @classmethod
    def levels(cls, parent: QWidget, levels: Iterable[tuple[str, str]], tip: str = "") -> OverruledReading:
        """A combo of `levels`, (words, value) pairs, waiting for the map's first reading."""
        box = QComboBox()
        for words, value in levels:
            box.addItem(words, value)
        return cls(box, parent, None, tip=tip)

    @classmethod
    def unseen_target(cls, parent: QWidget, tip: str = "") -> OverruledReading:
        """The tick for a target the firer sees though the map reads no Line of Sight: unticked is the map's."""
        return cls(QCheckBox("Sees the target although the map does not"), parent, False, "why (logged)", tip)

    def value(self) -> str | bool:
        """The player's value: the tick, or the chosen level's data."""
        if isinstance(self.box, QCheckBox):
            return self.box.isChecked()
        return str(self.box.currentData())

    def overruled(self) -> bool:
        """Whether the player's value differs from the map's reading (never before there is one)."""
        return self.reading is not None and self.value() != self.reading

    def why(self) -> str:
        """The reason typed for overruling the map; "" while the reading stands."""
        return self.reason.text().strip() if self.overruled() else ""

    def choices(self, key: str, reason_key: str) -> dict[str, str | bool]:
        """The value as `key`, and the reason as `reason_key` when the player gave one for overruling the map."""
        why = self.why()
        return {key: self.value(), **({reason_key: why} if why else {})}

    def reset(self, reading: str | bool) -> None:
        """A new reading (another target): the choice takes it and the old reason goes."""
        self.reason.blockSignals(True)
        self.reason.clear()
        self.reason.blockSignals(False)
        self.reading = None
        self.follow(reading)

    def follow(self, reading: str | bool) -> None:
        """The map reads anew (a unit moved): the choice takes the reading unless the player has overruled it."""
        if not self.overruled():
            self.box.blockSignals(True)
            if isinstance(self.box, QCheckBox):
                self.box.setChecked(bool(reading))
            else:
                self.box.setCurrentIndex(max(0, self.box.findData(reading)))
            self.box.blockSignals(False)
        self.reading = reading
        self._show_reason()

    def _chosen(self) -> None:
        self._show_reason()
        self.changed.emit()

    def _show_reason(self) -> None:
        self.reason.setVisible(self.overruled())


def replan_on(slot: Callable[[], None], *choices: QWidget) -> None:
    """Call `slot` at every change the player makes to any of `choices`, as a dialog that plans again at each does.

    The one place that knows which signal says a choice changed (a combo's index, a box's value, a tick, an
    overruled reading or the activation row), so a dialog lists what it plans from rather than how each says so.
    """
    for choice in choices:
        if isinstance(choice, OverruledReading | ActivationRow):
            choice.changed.connect(slot)
        elif isinstance(choice, QComboBox):
            choice.currentIndexChanged.connect(lambda _index: slot())
        elif isinstance(choice, QSpinBox | QDoubleSpinBox):
            choice.valueChanged.connect(lambda _value: slot())
        else:
            assert isinstance(choice, QCheckBox)
            choice.toggled.connect(lambda _on: slot())


def _clear_overlay(view: MapView, key: str) -> None:
    # At shutdown the map may already be gone when the dialog is destroyed: nothing is left to clear.
    with contextlib.suppress(RuntimeError):
        view.clear_overlay(key)


class OverlayScope:
    """A dialog's drawing on the map under one overlay key, cleared when the dialog closes or is destroyed.

    Without a map (a dialog opened from a test or a card) drawing and clearing do nothing.
    """

    def __init__(self, owner: QDialog, view: MapView | None, key: str) -> None:
        self.view = view
        self.key = key
        if view is not None:
            # Bound to the view and key, not to this object: `destroyed` comes when the owner's Python side is gone.
            owner.finished.connect(lambda _result: _clear_overlay(view, key))
            owner.destroyed.connect(lambda *_: _clear_overlay(view, key))

    def set(self, items: Iterable[QGraphicsItem]) -> None:
        """Draw `items`, replacing what this scope drew before."""
        if self.view is not None:
            self.view.set_overlay(self.key, list(items))

    def clear(self) -> None:
        """Take this scope's drawing off the map now."""
        if self.view is not None:
            _clear_overlay(self.view, self.key)


class UnitPicking(Protocol):
    """What a TargetPicker needs from the map: `pick_unit(callback, prompt)` (MapView has it)."""

    def pick_unit(self, callback: Callable[[str | None], None], prompt: str = ...) -> None: ...


class TargetPicker(QWidget):
    """The target: a list of the units the rules allow, and "Pick on map" to click one instead.

    `chosen` carries the unit picked from the list or on the map; a unit clicked on the map that the
    list does not hold comes as `outside`, so the dialog can say why it cannot be the target, and one it
    holds comes as `picked` too (after `chosen`), for a dialog that acts on a click at once. A choice
    that may be left out (a Forward Observer, say) offers `none` first in the list; choosing it
    announces "" through `chosen`.
    """

    chosen = Signal(str)
    outside = Signal(str)
    picked = Signal(str)

    def __init__(self, view: UnitPicking | None, prompt: str, tooltip: str, parent: QWidget | None = None, *,
                 empty: str = "No unit to choose", button: str = "Pick on &map", none: str | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self.prompt = prompt
        self.none = none
        self.combo = QComboBox(self)
        # Shown in the list while it holds no unit, so an empty list says why rather than showing nothing.
        self.combo.setPlaceholderText(empty)
        self.pick_button = QPushButton(button, self)
        self.pick_button.setToolTip(tooltip)
        # Enter in a dialog's dice field submits the dice; it must never start a pick.
        self.pick_button.setAutoDefault(False)
        self.pick_button.setEnabled(view is not None)
        # A form label's shortcut (its buddy is this picker) goes to the list.
        self.setFocusProxy(self.combo)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.combo, 1)
        row.addWidget(self.pick_button)
        self.combo.currentIndexChanged.connect(self._index_changed)
        self.pick_button.clicked.connect(self.pick_on_map)

    def set_units(self, units: Iterable[tuple[str, str]], keep: bool = False) -> None:
        """Offer `units`, (id, label) pairs from the rules' list, without announcing a choice.

        With `keep`, the unit chosen before stays chosen while the new list still holds it.
        """
        before = self.current()
        self.combo.blockSignals(True)
        self.combo.clear()
        if self.none is not None:
            self.combo.addItem(self.none, None)
        for unit_id, label in units:
            self.combo.addItem(label, unit_id)
        # The first unit is chosen (the rules list the likeliest first); with a placeholder Qt would choose none.
        kept = self.combo.findData(before) if keep and before is not None else -1
        self.combo.setCurrentIndex(kept if kept >= 0 else 0 if self.combo.count() else -1)
        self.combo.blockSignals(False)

    def units(self) -> list[str]:
        """The ids on offer, in the list's order."""
        data = (self.combo.itemData(i) for i in range(self.combo.count()))
        return [unit_id for unit_id in data if isinstance(unit_id, str)]

    def current_label(self) -> str:
        """How the chosen unit reads in the list ("" while the list is empty)."""
        return self.combo.currentText() if self.current() is not None else ""

    def current(self) -> str | None:
        """The unit chosen, or None while the list is empty or `none` is chosen."""
        unit_id = self.combo.currentData()
        return unit_id if isinstance(unit_id, str) else None

    def select(self, unit_id: str) -> bool:
        """Choose `unit_id` if the list holds it; False if it does not."""
        index = self.combo.findData(unit_id)
        if index < 0:
            return False
        if index == self.combo.currentIndex():
            self.chosen.emit(unit_id)
        else:
            self.combo.setCurrentIndex(index)
        return True

    def pick_on_map(self) -> None:
        """Let the player click the target on the map (Esc cancels)."""
        if self.view is not None:
            self.view.pick_unit(self._picked, self.prompt)

    def _picked(self, unit_id: str | None) -> None:
        # The dialog may have closed (and been deleted) while the player was still clicking the map.
        if unit_id is None or not shiboken6.isValid(self):
            return
        if self.select(unit_id):
            self.picked.emit(unit_id)
        else:
            self.outside.emit(unit_id)
        window = self.window()
        window.raise_()
        window.activateWindow()

    def choose_none(self) -> None:
        """Choose the `none` entry (the dialog offers one)."""
        if self.none is not None:
            self.combo.setCurrentIndex(0)

    def _index_changed(self, index: int) -> None:
        unit_id = self.current()
        if unit_id is not None:
            self.chosen.emit(unit_id)
        elif self.none is not None and index == 0:
            self.chosen.emit("")


# -- a unit action's dialog, declared as data -----------------------------------------------------------------------

REFUSED = (RulesInputError, GameError, TableError)
"""What refuses a step: the rules (a plan's Refusal is one), the game and a ruleset's tables, each in words."""

T = TypeVar("T")


def attempt(banner: RefusalBanner, call: Callable[[], T], prefix: str = "") -> T | None:
    """`call()`, clearing `banner`; or None with the refusal's sentence (after `prefix`) shown in it.

    The one failure path of a planned dialog: planning, a click outside the list and Apply all come through
    here, so a refusal reads the same wherever it comes from and none slips past as an error dialog.
    """
    try:
        result = call()
    except REFUSED as exc:
        banner.show_refusal(prefix + message_of(exc))
        return None
    banner.clear()
    return result


Reading = Callable[[Game, Choices], T]
"""Something a choice reads from the table, given the choices made before it (the acting unit's among them)."""


def _read(value: T | Reading[T], game: Game, choices: Choices) -> T:
    return value(game, choices) if callable(value) else value


@dataclass(frozen=True)
class UnitChoice:
    """A unit from the rules' list, (id, words) pairs, or clicked on the map; "" while none is chosen.

    A unit clicked on the map that the list does not hold is planned anyway, so the rules say why it cannot
    be chosen; `outside` ("{name}" is the unit's) speaks where they accept it.
    """

    key: str
    label: str
    units: Reading[Iterable[tuple[str, str]]]
    prompt: str
    empty: str = "No unit to choose"
    default: Reading[str | None] | None = None
    outside: str = "{name} cannot be chosen here."
    tip: str = "Click the unit on the map (Esc cancels)"
    follows: tuple[str, ...] = ()
    shown: Callable[[Choices], bool] | None = None

    def make(self, dialog: PlannedActionDialog) -> QWidget:
        picker = TargetPicker(dialog.map_view, self.prompt, self.tip, dialog, empty=self.empty)
        picker.chosen.connect(lambda _unit_id: dialog.chose(self.key))
        picker.outside.connect(lambda unit_id: dialog.refuse_outside(self.key, unit_id))
        return picker

    def fill(self, widget: QWidget, game: Game, choices: Choices, fresh: bool) -> None:
        assert isinstance(widget, TargetPicker)
        widget.set_units(self.units(game, choices), keep=not fresh)
        wanted = self.default(game, choices) if fresh and self.default is not None else None
        if wanted is not None and widget.combo.findData(wanted) >= 0:
            widget.combo.setCurrentIndex(widget.combo.findData(wanted))

    def value(self, widget: QWidget) -> InputValue:
        assert isinstance(widget, TargetPicker)
        return widget.current() or ""


@dataclass(frozen=True)
class WordChoice:
    """One of the words the rules offer, (value, words) pairs: a weapon, a mode, a row of a table."""

    key: str
    label: str
    words: Reading[Iterable[tuple[str, str]]]
    default: Reading[str | None] | None = None
    tip: str | Reading[str] = ""
    follows: tuple[str, ...] = ()
    shown: Callable[[Choices], bool] | None = None

    def make(self, dialog: PlannedActionDialog) -> QWidget:
        box = QComboBox(dialog)
        box.currentIndexChanged.connect(lambda _index: dialog.chose(self.key))
        return box

    def fill(self, widget: QWidget, game: Game, choices: Choices, fresh: bool) -> None:
        assert isinstance(widget, QComboBox)
        before = widget.currentData()
        widget.clear()
        for value, words in self.words(game, choices):
            widget.addItem(words, value)
        if fresh:  # the table's default, else the first the rules list
            before = self.default(game, choices) if self.default is not None else None
        widget.setCurrentIndex(max(0, widget.findData(before)) if widget.count() else -1)
        widget.setToolTip(_read(self.tip, game, choices))

    def value(self, widget: QWidget) -> InputValue:
        assert isinstance(widget, QComboBox)
        data = widget.currentData()
        return str(data) if data is not None else ""


@dataclass(frozen=True)
class YesNo:
    """A tick the player answers: the attacker, the first round, opportunity fire."""

    key: str
    label: str
    default: bool | Reading[bool] = False
    tip: str | Reading[str] = ""
    follows: tuple[str, ...] = ()
    shown: Callable[[Choices], bool] | None = None

    def make(self, dialog: PlannedActionDialog) -> QWidget:
        tick = QCheckBox(self.label, dialog)
        tick.toggled.connect(lambda _on: dialog.chose(self.key))
        return tick

    def fill(self, widget: QWidget, game: Game, choices: Choices, fresh: bool) -> None:
        assert isinstance(widget, QCheckBox)
        if fresh:
            widget.setChecked(_read(self.default, game, choices))
        widget.setToolTip(_read(self.tip, game, choices))

    def value(self, widget: QWidget) -> InputValue:
        assert isinstance(widget, QCheckBox)
        return widget.isChecked()


@dataclass(frozen=True)
class Number:
    """A whole number the player gives (dice, a score needed), from the table's value; `note` says where it is from."""

    key: str
    label: str
    default: int | Reading[int] = 0
    least: int = 0
    most: int = 99
    prefix: str = ""
    suffix: str = ""
    tip: str | Reading[str] = ""
    note: str = ""
    follows: tuple[str, ...] = ()
    shown: Callable[[Choices], bool] | None = None

    def make(self, dialog: PlannedActionDialog) -> QWidget:
        spin = QSpinBox(dialog)
        spin.setRange(self.least, self.most)
        spin.setPrefix(self.prefix)
        spin.setSuffix(self.suffix)
        spin.valueChanged.connect(lambda _value: dialog.chose(self.key))
        return spin

    def fill(self, widget: QWidget, game: Game, choices: Choices, fresh: bool) -> None:
        assert isinstance(widget, QSpinBox)
        if fresh:
            widget.setValue(_read(self.default, game, choices))
        widget.setToolTip(_read(self.tip, game, choices))

    def value(self, widget: QWidget) -> InputValue:
        assert isinstance(widget, QSpinBox)
        return widget.value()


@dataclass(frozen=True)
class Distance:
    """A measure the player takes at the table, in inches to a tenth, starting from the rules' reading of the map.

    The map gives centre to centre; the rules may measure from the nearest figure, which only the table shows,
    so the player corrects the reading rather than typing it from nothing. `note` says how to measure.
    """

    key: str
    label: str
    default: float | Reading[float] = 0.0
    least: float = 0.0
    most: float = 48.0
    step: float = 0.5
    tip: str | Reading[str] = ""
    note: str = ""
    follows: tuple[str, ...] = ()
    shown: Callable[[Choices], bool] | None = None

    def make(self, dialog: PlannedActionDialog) -> QWidget:
        box = measure_box(dialog, self.least, self.least, self.most, step=self.step)
        box.valueChanged.connect(lambda _value: dialog.chose(self.key))
        return box

    def fill(self, widget: QWidget, game: Game, choices: Choices, fresh: bool) -> None:
        assert isinstance(widget, QDoubleSpinBox)
        if fresh:
            widget.setValue(_read(self.default, game, choices))
        widget.setToolTip(_read(self.tip, game, choices))

    def value(self, widget: QWidget) -> InputValue:
        assert isinstance(widget, QDoubleSpinBox)
        return widget.value()


Choice = UnitChoice | WordChoice | YesNo | Number | Distance
"""A choice a dialog asks, as data. `follows` names the earlier choices whose change sets it afresh from the
table (the Armour Dice of the vehicle chosen); `shown` keeps it out of the form and the choices when it does
not apply (the throw, for a grenade at an APC from outside)."""


@dataclass(frozen=True)
class ActionForm:
    """A planned action's dialog as data: its action, the choices it asks and how it reads.

    `actor` names the choice that holds the acting unit (the dialog closes when that unit leaves the game);
    `activation` is what a Chain of Command unit is activated for (FIRE), "" for no activation row. `title`
    and `heading` may quote the acting unit as "{unit}". `group` and `label` word the odds' outcomes, and
    `order` sorts them (by default the procedure's own order).
    """

    action: str
    title: str
    choices: tuple[Choice, ...] = ()
    actor: str = "firer"
    activation: str = ""
    heading: str = ""
    note: str = ""
    group: GroupFn | None = None
    label: Callable[[str], str] | None = None
    order: Callable[[str], Any] | None = None
    size: tuple[int, int] = (600, 700)


def stop_picking(view: MapView | None) -> None:
    """End a pick on the map that a closing dialog started: its answer would come to nothing."""
    if view is not None and view.picking:
        view.cancel_pick()


class UnitProcedureDialog(ProcedureDialog):
    """A procedure dialog of one acting unit that gathers its choices with parts of its own.

    For an action whose choices cannot be declared (a frontage or an aiming point picked on the map, a
    follow-up the result calls for, two rolls in turn); a pick under way on the map ends with the dialog.
    """

    def __init__(self, session: Session, unit_id: str, map_view: MapView | None, parent: QWidget | None,
                 title: str, size: tuple[int, int]) -> None:
        super().__init__(parent)
        self.session = session
        self.unit_id = unit_id
        self.map_view = map_view
        self.unit_name = session.game.unit(unit_id).name
        self.setWindowTitle(title.format(unit=self.unit_name))
        self.setMinimumSize(*size)
        self.finished.connect(lambda _result: stop_picking(self.map_view))

    def set_columns(self, left: QLayout | QWidget, right: QLayout | QWidget, weights: tuple[int, int]) -> None:
        """The dialog's body: `left` beside `right` in `weights` (one above the other in little room), then Close."""
        columns = Columns()
        for part, weight in ((left, weights[0]), (right, weights[1])):
            if isinstance(part, QWidget):
                columns.addWidget(part, weight)
            else:
                columns.addLayout(part, weight)
        layout = QVBoxLayout(self)
        layout.addLayout(columns, 1)
        layout.addWidget(self.close_buttons())


class PlannedActionDialog(ProcedureDialog):
    """One action planned by the rules at every change: its facts, its refusal or its odds, the dice, Apply.

    The choices come from the form's declarations; each change plans the action again (`rules.actions.plan`)
    and the plan's facts, or its refusal in the banner with the runner hidden, follow. A change to the game
    plans again too, unless a result waits to be applied or has been (the runner is locked until Undo); the
    dialog closes when the acting unit leaves the game. Apply is `Session.act` with the choices shown and
    the dice rolled; after it the choices lock with the runner, and a dialog that `closes_after_apply` goes.
    """

    closes_after_apply = False

    def __init__(self, session: Session, form: ActionForm, fixed: Mapping[str, InputValue],
                 map_view: MapView | None = None, parent: QWidget | None = None, heading: str = "") -> None:
        super().__init__(parent)
        self.session = session
        self.form = form
        self.fixed: dict[str, InputValue] = dict(fixed)
        self.map_view = map_view
        self.plan: Plan | None = None
        actor = session.game.units.get(str(self.fixed.get(form.actor, "")))
        self.actor_id = actor.id if actor is not None else None
        name = actor.name if actor is not None else ""
        self.heading = heading or form.heading.format(unit=name)
        self.setWindowTitle(form.title.format(unit=name) or self.heading)
        self.resize(*form.size)

        self.activation = ActivationRow(self) if form.activation and actor is not None else None
        self.fields = QFormLayout()
        self.fields.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        if self.activation is not None:
            self.fields.addRow(self.activation)
            self.activation.changed.connect(self.replan)
        self.widgets: dict[str, QWidget] = {}
        self.notes: dict[str, QLabel] = {}
        for choice in form.choices:
            widget = choice.make(self)
            self.widgets[choice.key] = widget
            if isinstance(choice, YesNo):
                self.fields.addRow(widget)
            else:
                self.fields.addRow(choice.label, widget)
            if isinstance(choice, Number | Distance) and choice.note:
                note = QLabel(choice.note, self)
                note.setWordWrap(True)
                self.notes[choice.key] = note
                self.fields.addRow("", note)
        self.facts = FactsPanel(self)
        self.refusal = RefusalBanner(self)
        self.runner = ProcedureRunner(session, form.action, self.heading, self, group=form.group,
                                      label=form.label, order=form.order)
        self.runner.apply_button.clicked.disconnect()
        self.runner.apply_button.clicked.connect(self.apply)
        self.runner.applied.connect(self._applied)
        layout = QVBoxLayout(self)
        if self.heading:
            layout.addWidget(QLabel(f"<b>{esc(self.heading)}</b>", self))
        if form.note:
            note = QLabel(esc(form.note), self)
            note.setWordWrap(True)
            layout.addWidget(note)
        layout.addLayout(self.fields)
        layout.addWidget(self.facts)
        layout.addWidget(self.refusal)
        layout.addWidget(self.runner, 1)
        layout.addWidget(self.close_buttons())
        session.changed.connect(self._on_changed)
        self.finished.connect(lambda _result: stop_picking(self.map_view))
        self._fill(lambda _choice: True)
        self.replan()

    # -- the choices --------------------------------------------------------------------------------------
    def widget(self, key: str) -> QWidget:
        """The widget asking the choice `key`."""
        return self.widgets[key]

    def choices(self) -> dict[str, InputValue]:
        """The action's choices as the plan reads them: the fixed ones, then each shown choice, then activation."""
        out = dict(self.fixed)
        for choice in self.form.choices:
            if choice.shown is None or choice.shown(out):
                out[choice.key] = choice.value(self.widgets[choice.key])
        if self.activation is not None:
            out.update(self.activation.choices())
        return out

    def _fill(self, fresh: Callable[[Choice], bool]) -> None:
        """Offer what the table allows now; a choice for which `fresh` holds takes the table's value anew."""
        game = self.session.game
        made = dict(self.fixed)
        for choice in self.form.choices:
            widget = self.widgets[choice.key]
            widget.blockSignals(True)
            choice.fill(widget, game, made, fresh(choice))
            widget.blockSignals(False)
            made[choice.key] = choice.value(widget)

    def chose(self, key: str) -> None:
        """The player changed `key`: the choices that follow it take the table's values, then plan again."""
        self._fill(lambda choice: key in choice.follows)
        self.replan()

    def choose(self, key: str, value: InputValue) -> bool:
        """Choose `value` for `key` as the player would; a unit the list does not hold is refused in words."""
        widget = self.widgets[key]
        if isinstance(widget, TargetPicker):
            if widget.select(str(value)):
                return True
            self.refuse_outside(key, str(value))
            return False
        if isinstance(widget, QComboBox):
            index = widget.findData(value)
            if index >= 0:
                widget.setCurrentIndex(index)
            return index >= 0
        if isinstance(widget, QSpinBox):
            widget.setValue(int(value))
        elif isinstance(widget, QDoubleSpinBox):
            widget.setValue(float(value))
        else:
            assert isinstance(widget, QCheckBox)
            widget.setChecked(bool(value))
        return True

    def refuse_outside(self, key: str, unit_id: str) -> None:
        """Say why the unit clicked on the map cannot be `key`, in the rules' words; the choice made stays."""
        game = self.session.game
        if attempt(self.refusal, lambda: plan(self.form.action, game, {**self.choices(), key: unit_id})) is None:
            return
        choice = next(c for c in self.form.choices if c.key == key)
        assert isinstance(choice, UnitChoice)
        name = game.units[unit_id].name if unit_id in game.units else "That unit"
        self.refusal.show_refusal(choice.outside.format(name=name))

    # -- planning and applying ----------------------------------------------------------------------------
    def replan(self) -> None:
        """Plan with the choices now made: the facts and the odds, or the refusal with the runner hidden."""
        game = self.session.game
        if self.activation is not None:
            self.activation.update_for(game, self.actor_id, self.form.activation)
        choices = self.choices()
        for choice in self.form.choices:
            shown = choice.shown is None or choice.shown(choices)
            for row in (self.widgets[choice.key], *((self.notes[choice.key],) if choice.key in self.notes else ())):
                if row.isHidden() == shown:  # only a change: showing a shown box retypes it (4" half typed as 4.0")
                    self.fields.setRowVisible(row, shown)
        missing = self._nothing_to_choose(choices)
        if missing is not None:
            self.refusal.show_refusal(f"{missing.empty}.")  # nothing to choose: the list says why, not the rules
            self.plan = None
        else:
            self.plan = attempt(self.refusal, lambda: plan(self.form.action, game, choices))
        self.runner.setVisible(self.plan is not None)
        self.runner.setEnabled(self.plan is not None)  # hidden and out of reach: no key rolls a refused action
        if self.plan is None:
            self.runner.discard_result()  # rolled for choices the rules refuse now: nothing waits to be applied
            self.facts.set_facts(())
            return
        self.facts.set_facts(self.plan.facts)
        self.runner.procedure = self.plan.procedure  # the plan names it: an action's name need not be its procedure's
        self.runner.title = self.plan.title or self.heading
        self.runner.set_action(self.form.action, choices)
        self.runner.set_inputs(self.plan.inputs)

    def _nothing_to_choose(self, choices: Choices) -> UnitChoice | None:
        """The first unit choice left empty because the rules list no unit for it."""
        for choice in self.form.choices:
            picker = self.widgets[choice.key]
            if isinstance(choice, UnitChoice) and isinstance(picker, TargetPicker) and choices.get(choice.key) == "" \
                    and not picker.units():
                return choice
        return None

    def apply(self) -> None:
        """Apply the result shown as one undo step; a refusal stays in the banner with the result."""
        if attempt(self.refusal, self.runner.commit, "Not applied: ") and self.closes_after_apply:
            self.accept()

    def _applied(self, _res: Resolution) -> None:
        self.runner.result_view.append("<p><i>Applied: one step on the undo stack.</i></p>")
        self._lock(True)

    def _lock(self, locked: bool) -> None:
        for widget in (*self.widgets.values(), *([self.activation] if self.activation is not None else [])):
            widget.setEnabled(not locked)

    def _on_changed(self, _changes: object) -> None:
        if self.actor_id is not None and self.actor_id not in self.session.game.units:
            self.close()
            return
        if self.runner.waiting or self.runner.locked:
            return
        self._lock(False)
        self._fill(lambda _choice: False)
        self.replan()

    def done(self, result: int) -> None:
        with contextlib.suppress(RuntimeError, TypeError):
            self.session.changed.disconnect(self._on_changed)
        super().done(result)


DialogOf = Callable[[Session, str, "MapView | None", QWidget | None], QDialog]
"""A unit action's dialog: made from the session, the acting unit, the map to pick on and the window."""


def open_unit_dialog(dialog: DialogOf) -> Callable[[FeatureHost, str], None]:
    """A UnitAction's run: `dialog` for the unit, not modal so the map stays clickable, deleted once closed."""

    def run(host: FeatureHost, unit_id: str) -> None:
        opened = dialog(host.session, unit_id, host.map, host.window())
        opened.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        opened.show()

    return run


def planned_action(*, key: str, title: str, form: ActionForm, applies: Callable[[Game, Unit], bool],
                   rulesets: tuple[str, ...] = (), shortcut: str | None = None, tip: str = "",
                   dialog: DialogOf | None = None) -> UnitAction:
    """A unit action and its dialog in one value: the feature lists it and the menus, keys and cards follow.

    The dialog is a PlannedActionDialog on `form` with the unit as its `actor`, or `dialog` for one that
    keeps parts of its own.
    """

    def planned(session: Session, unit_id: str, map_view: MapView | None, parent: QWidget | None) -> QDialog:
        return PlannedActionDialog(session, form, {form.actor: unit_id}, map_view, parent)

    return UnitAction(key, title, applies, open_unit_dialog(dialog or planned), rulesets, shortcut, tip)
