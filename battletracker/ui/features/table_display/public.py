"""The session as the table display sees it: the same signals, the game without its secrets.

The display's layers (a `MapScene`, the bombardments' layer, the projector's
overlays) are built on this rather than on the session, so they are given the
`public_game` only (rules/table_display.py) and the selection only when the
opponent may know where the selected unit is. A sniper spotted or no longer
secret comes and goes as a change of the roster.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtCore import Signal

from battletracker.model.changes import Changes
from battletracker.model.game import Game
from battletracker.rules.table_display import public_game
from battletracker.rules.table_display import secret_units
from battletracker.ui.session import Session


class PublicSession(QObject):
    """`game`, `selected` and the change signals of a `Session`, with what the rules keep secret taken out."""

    changed = Signal(object)            # Changes
    game_replaced = Signal()
    selection_changed = Signal(object)  # unit id or None

    def __init__(self, session: Session, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._secrets = secret_units(session.game)
        self._game = public_game(session.game)
        self._selected = self._public_selection()
        session.changed.connect(self._on_changed)
        session.game_replaced.connect(self._on_game_replaced)
        session.selection_changed.connect(self._follow_selection)

    @property
    def game(self) -> Game:
        return self._game

    @property
    def selected(self) -> str | None:
        return self._selected

    @property
    def secrets(self) -> frozenset[str]:
        """The units kept off the display now."""
        return self._secrets

    def _public_selection(self) -> str | None:
        selected = self.session.selected
        return selected if selected is not None and selected not in self._secrets else None

    def _on_changed(self, changes: Changes) -> None:
        game = self.session.game
        secrets = secret_units(game)
        self._game = public_game(game, secrets)
        if secrets != self._secrets:
            changes = changes | Changes(units=secrets ^ self._secrets, roster=True, buildings=True)
            self._secrets = secrets
        self.changed.emit(changes)
        self._follow_selection()

    def _on_game_replaced(self) -> None:
        self._secrets = secret_units(self.session.game)
        self._game = public_game(self.session.game, self._secrets)
        self.game_replaced.emit()
        self._follow_selection()

    def _follow_selection(self, _unit_id: object = None) -> None:
        selected = self._public_selection()
        if selected != self._selected:
            self._selected = selected
            self.selection_changed.emit(selected)
