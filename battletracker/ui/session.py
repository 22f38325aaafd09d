"""The session: sole owner of the Game and of the undo stack.

Views never write to the model. They call `Session.apply` (or one of the
helpers built on it), which turns Effects into one undo step and emits
`changed` with the record of what was touched, so each view refreshes only
what it shows.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from battletracker.model import savefile
from battletracker.model.effects import AppendLog, Changes, Effect, SetClock
from battletracker.model.game import Game, GameError
from battletracker.model.references import with_references_cleared
from battletracker.rules import Resolution
from battletracker.rules.clock import due_effects
from battletracker.ui.files import fingerprint, is_shipped

EVERYTHING = Changes(everything=True)


class EffectCommand(QUndoCommand):
    """One Effect as an undo step: redo applies it, undo applies its inverse."""

    def __init__(self, session: Session, effect: Effect, parent: QUndoCommand | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._effect = effect
        self._inverse: Effect | None = None

    def redo(self) -> None:
        self._inverse = self._session._apply_one(self._effect)

    def undo(self) -> None:
        assert self._inverse is not None
        self._session._apply_one(self._inverse)


class Session(QObject):
    """Owns the game, applies effects as undo steps and says what changed."""

    changed = Signal(object)  # Changes
    game_replaced = Signal()
    selection_changed = Signal(object)  # unit id or None
    modified_changed = Signal(bool)
    path_changed = Signal(object)  # Path or None

    def __init__(self, game: Game, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._game = game
        self._path: Path | None = None
        self.disk_fingerprint: str | None = None
        """What the file at `path` held when it was opened or last saved (see ui.files.fingerprint)."""
        self._selected: str | None = None
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)

    def _on_clean_changed(self, clean: bool) -> None:
        self.modified_changed.emit(not clean)

    # -- state ---------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The game, for reading. Changing it directly bypasses undo: use apply()."""
        return self._game

    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def modified(self) -> bool:
        return not self.undo_stack.isClean()

    @property
    def selected(self) -> str | None:
        return self._selected

    def select(self, unit_id: str | None) -> None:
        if unit_id is not None and unit_id not in self._game.units:
            unit_id = None
        if unit_id != self._selected:
            self._selected = unit_id
            self.selection_changed.emit(unit_id)

    # -- changes ---------------------------------------------------------------
    def _apply_one(self, effect: Effect) -> Effect:
        inverse = self._game.apply(effect)
        self.changed.emit(effect.touches)
        return inverse

    def check(self, effects: Sequence[Effect]) -> None:
        """Raise GameError if the effects cannot all apply; the game is left exactly as it was."""
        self._game.check_all(effects)

    def apply(self, text: str, effects: Sequence[Effect], log: Sequence[str] = (), kind: str = "effect") -> None:
        """Apply effects and their log lines as one undo step named `text`.

        Everything is checked first: a refused effect raises GameError and
        nothing is applied, logged or pushed. A unit taken off the table takes
        every reference to it along (its pins, its place in a building, its
        passengers' embarkation) in the same step.
        """
        lines = list(log) if log else [text]
        stamped = [AppendLog.now(self._game, line, kind) for line in lines]
        everything = [*with_references_cleared(self._game, effects), *stamped]
        self.check(everything)
        self.undo_stack.beginMacro(text)
        try:
            for effect in everything:
                self.undo_stack.push(EffectCommand(self, effect))
        finally:
            self.undo_stack.endMacro()

    def apply_resolution(self, resolution: Resolution, text: str, source: str | None = None) -> None:
        """A procedure's result: its effects, then its rolls and log lines, as one step.

        `source` says whose dice they were ("dice rolled at the table"), for the log.
        """
        rolls = "; ".join(f"{label}: {' '.join(str(v) for v in values)}" for label, values in resolution.rolls)
        lines = [*resolution.log]
        if rolls:
            lines.insert(0, f"{text} ({source}) - rolls: {rolls}" if source else f"{text} - rolls: {rolls}")
        self.apply(text, resolution.effects, lines or [text], kind="roll")

    def end_phase(self) -> None:
        g = self._game
        nxt = (g.active_side + 1) % max(1, len(g.sides))
        clock = SetClock(g.turn, g.phase + 1, nxt)
        side = g.sides[nxt].name if g.sides else ""
        self._advance(f"End of Turn {g.turn} Phase {g.phase}", [*due_effects(g, False, nxt), clock],
                      f"Turn {g.turn}, Phase {g.phase + 1}: {side}")

    def end_turn(self) -> None:
        g = self._game
        clock = SetClock(g.turn + 1, 1, 0)
        side = g.sides[0].name if g.sides else ""
        self._advance(f"End of Turn {g.turn}", [*due_effects(g, True, 0), clock],
                      f"Turn {g.turn + 1}, Phase 1: {side}")

    def _advance(self, text: str, effects: list[Effect], heading: str) -> None:
        self.apply(text, effects, [text, heading], kind="clock")

    # -- files -------------------------------------------------------------------
    def replace_game(self, game: Game, path: Path | None) -> None:
        """Start over on another game: a new file, an opened one, or a restored recovery."""
        self._game = game
        self._selected = None
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self._path = path
        self.disk_fingerprint = None
        self.game_replaced.emit()
        self.changed.emit(EVERYTHING)
        self.selection_changed.emit(None)
        self.path_changed.emit(path)
        self.modified_changed.emit(False)

    def open(self, path: Path) -> None:
        """Load a save file; on any problem raise SaveFileError and keep the current game.

        A file shipped with the app (a demo) opens as an untitled copy: Save asks where.
        """
        raw = savefile.read_file(path)
        game = savefile.loads(raw)
        if is_shipped(path):
            self.replace_game(game, None)
            return
        self.replace_game(game, path)
        self.disk_fingerprint = fingerprint(raw)

    def snapshot(self) -> Game:
        """A deep copy of the game for writing in the background or comparing in tests."""
        return copy.deepcopy(self._game)

    def mark_saved(self, path: Path, disk_fingerprint: str | None = None) -> None:
        self._path = path
        self.disk_fingerprint = disk_fingerprint
        self.undo_stack.setClean()
        self.path_changed.emit(path)


__all__ = ["EVERYTHING", "GameError", "Session"]
