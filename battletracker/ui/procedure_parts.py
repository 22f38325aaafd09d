"""Pieces every procedure dialog shares, so each looks and behaves the same.

A refusal (why a procedure cannot go ahead as entered) is shown the same red
way in every dialog, and what the rules read from the table (a plan's facts)
as the same bullet list; keeping each in one class keeps the colours, the
wrapping and the safety against markup in unit names in one place. What a
dialog draws on the map goes when the dialog goes, however it is closed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QGraphicsItem, QLabel, QWidget

from battletracker.ui.text import esc

if TYPE_CHECKING:
    from battletracker.ui.map.view import MapView

# White on a deep red: both colours are set, so the banner reads the same on a light or a dark palette.
REFUSAL_STYLE = "color: white; background: #b3261e; padding: 4px; border-radius: 3px;"


class RefusalBanner(QLabel):
    """Why the procedure cannot go ahead, in red above the roll; hidden while nothing is refused.

    The text is plain, never markup: a refusal often quotes a unit's name, which the player typed.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self.setStyleSheet(REFUSAL_STYLE)
        self.hide()

    def show_refusal(self, text: str) -> None:
        """Show `text` as the reason the procedure is refused."""
        self.setText(text)
        self.show()

    def clear(self) -> None:
        """Nothing is refused any more: empty and hide the banner."""
        super().clear()
        self.hide()

    def refused(self) -> bool:
        """Whether a refusal is showing."""
        return not self.isHidden()


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
