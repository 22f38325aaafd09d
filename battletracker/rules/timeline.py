"""The game as it was after each of its recorded actions, for the replay timeline.

Step k is the state after the first k actions (step 0: the recorded start).
A `Timeline` keeps one game, the cursor, and moves it: one step forward
applies that action's effects, one step back their inverses, so scrubbing
costs one action per step. An action is replayed through the rules
(rules/replay.py) only the first time the cursor reaches it; a snapshot of the
state is kept every `every` steps, so a long jump starts from the snapshot
nearest the target, before or after it, instead of from the start.
"""

from __future__ import annotations

import operator
import pickle
from dataclasses import dataclass
from dataclasses import fields
from functools import reduce
from typing import Any

from battletracker.model.actions import Action
from battletracker.model.effects import Changes
from battletracker.model.effects import Effect
from battletracker.model.game import Game
from battletracker.model.game import LogEntry
from battletracker.rules.replay import ReplayError
from battletracker.rules.replay import Step
from battletracker.rules.replay import replay_action
from battletracker.rules.replay import start_of

CHECKPOINT_EVERY = 25

_SHARED = ("log", "actions", "start")
"""Game fields never changed in place (lists of frozen records, the recorded start): a snapshot shares them."""


def _touched(effects: tuple[Effect, ...] | list[Effect]) -> Changes:
    return reduce(operator.or_, (e.touches for e in effects), Changes())


@dataclass(frozen=True)
class _Snapshot:
    """A game's state kept apart from it: everything but the shared fields pickled, which is exact and
    several times quicker to make a game of again than a deep copy."""

    state: bytes
    log: tuple[LogEntry, ...]
    actions: tuple[Action, ...]
    start: dict[str, Any] | None

    @classmethod
    def of(cls, game: Game) -> _Snapshot:
        rest = {name: value for name, value in vars(game).items() if name not in _SHARED}
        return cls(pickle.dumps(rest, pickle.HIGHEST_PROTOCOL), tuple(game.log), tuple(game.actions), game.start)

    def fields(self) -> dict[str, Any]:
        """A fresh copy of every field, to put into a game: changing it cannot reach the snapshot."""
        values: dict[str, Any] = pickle.loads(self.state)  # noqa: S301 - bytes this process pickled itself
        values.update(log=list(self.log), actions=list(self.actions), start=self.start)
        return values


class Timeline:
    """The states of `game` step by step; the game itself is only read (its actions and log).

    `length` is the last step that can be shown: every action, or the ones
    before the first that does not replay (`stopped` then says why).
    Raises ReplayError when the game has no recorded start.
    """

    def __init__(self, game: Game, every: int = CHECKPOINT_EVERY) -> None:
        self._source = game
        self.every = max(1, every)
        self.length = len(game.actions)
        self.stopped: ReplayError | None = None
        self._steps: list[Step] = []
        self._touches: list[Changes] = []  # what step i + 1 touches, going either way
        self._flags: list[int] = []  # the same record's flags as the bits of one number, to join many at once
        start = start_of(game)
        self._checkpoints: dict[int, _Snapshot] = {0: _Snapshot.of(start)}
        self._cursor = start
        self._at = 0

    @property
    def step(self) -> int:
        return self._at

    @property
    def game(self) -> Game:
        """The state at `step`; it changes in place as the timeline moves: read it, never change it."""
        return self._cursor

    def title(self, step: int) -> str:
        """The name of the action that led to `step` ("" for the start or a step not replayed yet)."""
        return self._steps[step - 1].title if 0 < step <= len(self._steps) else ""

    def go(self, step: int) -> Changes:
        """Move to `step` (kept within 0..length) and say what changed in the game shown."""
        target = max(0, min(step, self.length))
        changes = Changes()
        # From the snapshot nearest the target, before or after it, when that saves more than `every` steps.
        # Every snapshot is of a step replayed already, so the walk back from one after the target is known.
        base = min(self._checkpoints, key=lambda c: (abs(target - c), c > target))
        if abs(target - self._at) > abs(target - base) + self.every:
            # What differs between the two states: every step between them (the ones
            # past the replayed steps add theirs as they are replayed below).
            low, high = sorted((self._at, target))
            changes = _union(self._touches[low:high], reduce(operator.or_, self._flags[low:high], 0))
            self._jump(base)
        while self._at > target:
            undo = self._steps[self._at - 1].inverses
            self._cursor.apply_all(list(reversed(undo)))
            changes |= self._touches[self._at - 1]
            self._at -= 1
        while self._at < min(target, self.length):
            i = self._at
            if i < len(self._steps):
                self._cursor.apply_all(self._steps[i].effects)
            else:
                try:
                    step_i = replay_action(self._source, self._cursor, i)
                except ReplayError as exc:
                    self.stopped, self.length = exc, i
                    self._jump(max(c for c in self._checkpoints if c <= i))
                    return Changes(everything=True) | self.go(i)
                self._steps.append(step_i)
                touched = _touched(step_i.effects) | _touched(step_i.inverses)
                self._touches.append(touched)
                self._flags.append(sum(1 << n for n, name in enumerate(_FLAGS) if getattr(touched, name)))
            changes |= self._touches[i]
            self._at += 1
            if self._at % self.every == 0 and self._at not in self._checkpoints:
                self._checkpoints[self._at] = _Snapshot.of(self._cursor)
        return changes

    def _jump(self, checkpoint: int) -> None:
        """Put the cursor (the same game object, which the views read) in the checkpoint's state."""
        vars(self._cursor).update(self._checkpoints[checkpoint].fields())
        self._at = checkpoint

    def inverses_to_end(self, step: int) -> list[Effect]:
        """The effects that take the last step's state back to `step`'s: the later actions undone, newest first.

        Every action up to `length` is replayed for it (the cursor stays where it was).
        """
        here = self._at
        self.go(self.length)
        self.go(here)
        return [e for s in reversed(self._steps[step:self.length]) for e in reversed(s.inverses)]


def _union(changes: list[Changes], flags: int) -> Changes:
    """The units of `changes` and the flags whose bits are set in `flags`, in one record built once."""
    units: frozenset[str] = frozenset().union(*(c.units for c in changes))
    return Changes(units=units, **{name: bool(flags >> n & 1) for n, name in enumerate(_FLAGS)})


_FLAGS = tuple(f.name for f in fields(Changes) if f.name != "units")
