"""The session: sole owner of the Game and of the undo stack.

Views never write to the model. They call `Session.act` with an action's
name and the player's choices (rules/actions.py): it plans, resolves, applies
the result as one undo step, records the action on the game and emits
`changed` once with the union of what was touched, so each view refreshes
only what it shows. `Session.apply` takes ready-made Effects, for dialogs not
yet on that path; their steps are recorded as untracked actions.

While the player replays the game (`start_replay`), `game` is the state at
the replay's step, read-only: every change is refused with a ReadOnlyError
saying so, and `live_game` is the game itself, which saving writes.
"""

from __future__ import annotations

import copy
import operator
from collections.abc import Sequence
from dataclasses import replace
from functools import reduce
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtCore import Signal
from PySide6.QtGui import QUndoCommand
from PySide6.QtGui import QUndoStack

from battletracker.core.dice import Dice
from battletracker.core.dice import Face
from battletracker.core.dice import RandomDice
from battletracker.model import savefile
from battletracker.model.actions import UNTRACKED
from battletracker.model.actions import Action
from battletracker.model.changes import Changes
from battletracker.model.changes import Effect
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.savefile import SaveFileError
from battletracker.rules import Resolution
from battletracker.rules import saved_games
from battletracker.ui.files import fingerprint
from battletracker.ui.files import is_shipped

if TYPE_CHECKING:
    # Imported where they are used: the window paints before anyone acts or replays.
    from battletracker.rules.actions import Choices
    from battletracker.rules.replay import Progress
    from battletracker.rules.replay import Step
    from battletracker.rules.timeline import Timeline

EVERYTHING = Changes(everything=True)


def _unstarred(game: Game) -> Game:
    """The game with no log line starred: stars mark moments for the report and are no part of a replay."""
    plain = copy.copy(game)
    plain.log = [replace(entry, starred=False) for entry in game.log]
    return plain


class ReadOnlyError(GameError):
    """A change asked for while the game is being replayed."""


class StepCommand(QUndoCommand):
    """One undo step: redo applies its effects in order, undo their inverses in reverse order.

    Each emits the session's `changed` once, with everything the step touched.
    """

    def __init__(self, session: Session, text: str, effects: Sequence[Effect],
                 applied: Sequence[Effect] | None = None) -> None:
        """`applied`: the inverses of effects already applied to the game, so pushing the step applies nothing."""
        super().__init__(text)
        self._session = session
        self._effects = list(effects)
        self._inverses: list[Effect] = list(applied) if applied is not None else []
        self._skip_redo = applied is not None

    def redo(self) -> None:
        if self._skip_redo:
            self._skip_redo = False
            return
        self._inverses = self._session._apply_step(self._effects)

    def undo(self) -> None:
        self._session._apply_step(list(reversed(self._inverses)))


class Session(QObject):
    """Owns the game, applies effects as undo steps and says what changed."""

    changed = Signal(object)  # Changes
    game_replaced = Signal()
    selection_changed = Signal(object)  # unit id or None
    modified_changed = Signal(bool)
    path_changed = Signal(object)  # Path or None
    replay_changed = Signal()  # the replay started, moved or ended

    def __init__(self, game: Game, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._game, steps, lost = self._with_history(game)
        self._timeline: Timeline | None = None
        self._path: Path | None = None
        self.disk_fingerprint: str | None = None
        """What the file at `path` held when it was opened or last saved (see ui.files.fingerprint)."""
        self._selected: str | None = None
        self._pending: Changes | None = None
        self.dice: Dice = RandomDice()
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self.undo_stack.indexChanged.connect(self._on_index_changed)
        self.history_lost: str | None = lost
        """Why the game last put here opened without its Undo history (its record does not replay), in words."""
        self._push_steps(steps)
        self.undo_stack.setClean()

    def _on_clean_changed(self, clean: bool) -> None:
        self.modified_changed.emit(not clean)

    # -- state ---------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The game shown, for reading: while replaying, the state at the replay's step.

        Changing it directly bypasses undo: use act() or apply().
        """
        return self._timeline.game if self._timeline is not None else self._game

    @property
    def live_game(self) -> Game:
        """The game itself, as played so far, even while a replay shows an earlier state."""
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
        if unit_id is not None and unit_id not in self.game.units:
            unit_id = None
        if unit_id != self._selected:
            self._selected = unit_id
            self.selection_changed.emit(unit_id)

    # -- changes ---------------------------------------------------------------
    def _apply_step(self, effects: Sequence[Effect]) -> list[Effect]:
        inverses = self._game.apply_all(effects)
        touched = reduce(operator.or_, (e.touches for e in effects), Changes())
        self._pending = touched if self._pending is None else self._pending | touched
        return inverses

    def _on_index_changed(self, _index: int) -> None:
        """Say what changed once the undo stack has moved, so `modified` already tells the truth."""
        pending, self._pending = self._pending, None
        if pending is not None:
            self.changed.emit(pending)

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
        from battletracker.model.effects import AppendLog
        from battletracker.model.history import RecordAction
        from battletracker.model.references import with_references_cleared

        self._refuse_while_replaying()
        lines = list(log) if log else [text]
        stamped = [AppendLog.now(self._game, line, kind) for line in lines]
        record = RecordAction(Action(UNTRACKED, {"title": text}, (), stamped[0].entry.time))
        self._push(text, [record, *with_references_cleared(self._game, effects), *stamped])

    def _push(self, text: str, effects: Sequence[Effect]) -> None:
        self._refuse_while_replaying()
        self.check(effects)
        self.undo_stack.push(StepCommand(self, text, effects))

    def act(self, name: str, choices: Choices, dice: Sequence[Face] | None = None, *,
            typed: bool = False) -> Resolution:
        """Take the action `name` (rules/actions.py) as one undo step and record it; returns its result.

        Without `dice` the session's own dice roll; with them (the faces rolled
        at the table, in order, with `typed`; or the app's own rolled earlier,
        without) they are used exactly. A refusal (Refusal or
        any RulesInputError from the plan, GameError from the model) raises
        and nothing is applied.
        """
        from battletracker.rules.actions import carry_out
        from battletracker.rules.actions import plan

        self._refuse_while_replaying()
        p = plan(name, self._game, choices)
        result = carry_out(self._game, p, name, choices, dice, rng=self.dice, typed=typed)
        self._push(p.title or name, result.effects)
        return result

    def apply_resolution(self, resolution: Resolution, text: str, source: str | None = None) -> None:
        """A procedure's result: its effects, then its rolls and log lines, as one step.

        `source` says whose dice they were ("dice rolled at the table"), for the log.
        """
        from battletracker.rules.log_lines import rolls_line  # with the first roll: the window paints without it

        lines = [*resolution.log]
        if resolution.rolls:
            lines.insert(0, rolls_line(text, resolution.rolls, source or ""))
        self.apply(text, resolution.effects, lines or [text], kind="roll")

    def star_log(self, rows: Sequence[int], starred: bool) -> None:
        """Star (or unstar) log lines as moments for the battle report: one undo step, not a game action."""
        from battletracker.model.effects import StarLogEntry

        effects = [StarLogEntry(i, starred) for i in rows if self._game.log[i].starred != starred]
        if effects:
            self._push("Star in the log" if starred else "Unstar in the log", effects)

    def end_phase(self) -> None:
        self.act("clock.end_phase", {})

    def end_turn(self) -> None:
        self.act("clock.end_turn", {})

    # -- replay -------------------------------------------------------------------
    @property
    def replaying(self) -> bool:
        return self._timeline is not None

    @property
    def timeline(self) -> Timeline | None:
        """The replay's timeline while replaying, else None."""
        return self._timeline

    def replay_position(self) -> str:
        """Where the replay is, as "step 12 of 40", for the banner and the refusals."""
        timeline = self._timeline
        return f"step {timeline.step} of {timeline.length}" if timeline is not None else ""

    def _refuse_while_replaying(self) -> None:
        if self._timeline is not None:
            raise ReadOnlyError(f"the game is read-only while you replay it ({self.replay_position()}). "
                                "Use Back to the game, or Continue from here, to play on.")

    def start_replay(self) -> None:
        """Show the game at its start, read-only, to step through its actions; GameError when it cannot be."""
        if self._timeline is not None:
            return
        if not self._game.actions:
            raise GameError("there is nothing to replay yet: no action has been taken in this game")
        from battletracker.rules.replay import ReplayError
        from battletracker.rules.timeline import Timeline

        try:
            self._timeline = Timeline(self._game)
        except ReplayError as exc:
            raise GameError(f"this game cannot be replayed: {exc}") from None
        self._drop_missing_selection()
        self.changed.emit(EVERYTHING)
        self.replay_changed.emit()

    def _drop_missing_selection(self) -> None:
        """Unselect a unit that is not in the game shown (not yet added, or removed, at this step)."""
        if self._selected is not None and self._selected not in self.game.units:
            self.select(None)

    def show_step(self, step: int) -> None:
        """Move the replay to `step` (0: the start; kept within the steps that replay)."""
        if self._timeline is None:
            return
        before = self._timeline.step
        changes = self._timeline.go(step)
        if self._timeline.step != before or changes.everything:
            self._drop_missing_selection()
            self.changed.emit(changes)
            self.replay_changed.emit()

    def stop_replay(self) -> None:
        """Back to the game as played so far."""
        if self._timeline is None:
            return
        self._timeline = None
        self._drop_missing_selection()
        self.changed.emit(EVERYTHING)
        self.replay_changed.emit()

    def continue_from_here(self) -> None:
        """Play on from the replay's step: the later actions are dropped, as one undo step that gives them back.

        Raises GameError (and stays in the replay) when the later actions cannot
        all be replayed, since they could not be given back exactly.
        """
        timeline = self._timeline
        if timeline is None:
            return
        step, total = timeline.step, len(self._game.actions)
        effects = timeline.inverses_to_end(step)
        if timeline.stopped is not None:
            raise GameError(f"cannot continue from here: {timeline.stopped}")
        here = timeline.step
        timeline.go(timeline.length)
        same = _unstarred(timeline.game) == _unstarred(self._game)
        timeline.go(here)
        if not same:
            raise GameError("cannot continue from here: replaying the actions does not give the game as it is")
        self._timeline = None
        if step < total:
            dropped = total - step
            try:
                self._push(f"Continue from step {step} of {total} ({dropped} later "
                           f"action{'s' if dropped > 1 else ''} dropped)", effects)
            except GameError:
                self._timeline = timeline
                raise
        self._drop_missing_selection()
        self.changed.emit(EVERYTHING)
        self.replay_changed.emit()

    # -- files -------------------------------------------------------------------
    def replace_game(self, game: Game, path: Path | None, progress: Progress | None = None) -> None:
        """Start over on another game: a new file, an opened one, or a restored recovery.

        The new game and its undo history are made whole before anything of the
        current game changes, so a game that fails on the way, or whose replay
        the player cancels through `progress` (Cancelled), leaves the session
        as it was.
        """
        opened, steps, lost = self._with_history(game, progress)
        replaying, self._timeline = self._timeline is not None, None
        self._game = opened
        self.history_lost = lost
        self._selected = None
        self.undo_stack.clear()
        self._push_steps(steps)
        self.undo_stack.setClean()
        self._path = path
        self.disk_fingerprint = None
        self.game_replaced.emit()
        self.changed.emit(EVERYTHING)
        self.selection_changed.emit(None)
        self.path_changed.emit(path)
        self.modified_changed.emit(False)
        if replaying:
            self.replay_changed.emit()

    def _push_steps(self, steps: Sequence[Step]) -> None:
        """The replayed steps as undo steps, their effects already applied (StepCommand skips its first redo)."""
        for step in steps:
            self.undo_stack.push(StepCommand(self, step.title, step.effects, step.inverses))

    @staticmethod
    def _with_history(game: Game, progress: Progress | None = None) -> tuple[Game, list[Step], str | None]:
        """A loaded game with its undo history: its actions replayed from its start, one step each.

        Only when every action replays to exactly the loaded state; otherwise
        the game opens as it was saved, without undo history, and
        the third value says why in the replay's words (`history_lost`; the window says it once).
        The actions are replayed once: the replayed game becomes the game, and
        each undo step keeps the inverses its replay gave, so nothing is applied twice.
        """
        if game.start is None or not game.actions:
            return game, [], None
        from battletracker.rules.replay import ReplayError
        from battletracker.rules.replay import replay_steps

        try:
            replayed, steps = replay_steps(game, progress)
        except (ReplayError, GameError, SaveFileError, RecursionError) as exc:
            return game, [], (str(exc) if isinstance(exc, ReplayError) else
                              f"its recorded start does not load: {exc}")
        if replace(replayed, start=game.start) != game:  # its start is `game.start` replayed, however written
            return game, [], _differs(replace(replayed, start=game.start), game, len(steps))
        return replayed, steps, None

    def open(self, path: Path, progress: Progress | None = None) -> None:
        """Load a save file; on any problem raise SaveFileError and keep the current game.

        A file shipped with the app (a demo) opens as an untitled copy: Save asks where.
        `progress` follows the replay that gives back the Undo history (see replace_game).
        """
        raw = savefile.read_file(path)
        game = saved_games.loads(raw)
        if is_shipped(path):
            self.replace_game(game, None, progress)
            return
        self.replace_game(game, path, progress)
        self.disk_fingerprint = fingerprint(raw)

    def snapshot(self) -> Game:
        """A deep copy of the game for writing in the background or comparing in tests."""
        return copy.deepcopy(self._game)

    def mark_saved(self, path: Path, disk_fingerprint: str | None = None) -> None:
        self._path = path
        self.disk_fingerprint = disk_fingerprint
        self.undo_stack.setClean()
        self.path_changed.emit(path)


def _differs(replayed: Game, saved: Game, actions: int) -> str:
    """Where a game replayed from its record first differs from the game as saved, as the replay check says it."""
    from battletracker.model.fields import state_dict
    from battletracker.rules.replay import first_difference

    where = first_difference(state_dict(replayed), state_dict(saved)) or "a part the game does not show"
    return f"all {actions} actions replay, but the state differs at {where}"


__all__ = ["EVERYTHING", "GameError", "ReadOnlyError", "Session"]
