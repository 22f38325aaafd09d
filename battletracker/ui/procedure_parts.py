"""Pieces every procedure dialog shares, so each looks and behaves the same.

A refusal (why a procedure cannot go ahead as entered) is shown the same red
way in every dialog, and what the rules read from the table (a plan's facts)
as the same bullet list; keeping each in one class keeps the colours, the
wrapping and the safety against markup in unit names in one place. What a
dialog draws on the map goes when the dialog goes, however it is closed; a
target is chosen from a list or by clicking it on the map, the same way.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

import shiboken6
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QDialog, QGraphicsItem, QHBoxLayout, QLabel, QPushButton, QWidget

from battletracker.ui.refusal import REFUSAL_STYLE as REFUSAL_STYLE
from battletracker.ui.refusal import RefusalBanner as RefusalBanner
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
