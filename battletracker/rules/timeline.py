"""The game as it was after each of its recorded actions, for the replay timeline.

Step k is the state after the first k actions (step 0: the recorded start).
A `Timeline` keeps one game, the cursor, and moves it: one step forward
applies that action's effects, one step back their inverses, so scrubbing
costs one action per step. An action is replayed through the rules
(rules/replay.py) only the first time the cursor reaches it; a copy of the
state is kept every `every` steps, so a long jump starts from the nearest copy
instead of from the start.
"""

from __future__ import annotations

import copy
import operator
from functools import reduce

from battletracker.model.effects import Changes, Effect
from battletracker.model.game import Game
from battletracker.rules.replay import ReplayError, Step, replay_action, start_of

CHECKPOINT_EVERY = 25


def _touched(effects: tuple[Effect, ...] | list[Effect]) -> Changes:
    return reduce(operator.or_, (e.touches for e in effects), Changes())


def _copy(game: Game) -> Game:
    """A copy that changing cannot reach back: the log entries, actions and start, never changed, are shared."""
    memo: dict[int, object] = {id(entry): entry for entry in game.log}
    memo.update((id(action), action) for action in game.actions)
    if game.start is not None:
        memo[id(game.start)] = game.start
    return copy.deepcopy(game, memo)


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
        self._checkpoints: dict[int, Game] = {0: start_of(game)}
        self._cursor = _copy(self._checkpoints[0])
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
        base = max(c for c in self._checkpoints if c <= target)
        if abs(target - self._at) > self.every and not base <= self._at <= target:
            # What differs between the two states: every step between them (the ones
            # past the replayed steps add theirs as they are replayed below).
            low, high = sorted((self._at, target))
            changes = reduce(operator.or_, (_touched(s.effects) for s in self._steps[low:high]), changes)
            self._jump(base)
        while self._at > target:
            undo = self._steps[self._at - 1].inverses
            self._cursor.apply_all(list(reversed(undo)))
            changes |= _touched(undo)
            self._at -= 1
        while self._at < min(target, self.length):
            i = self._at
            if i < len(self._steps):
                self._cursor.apply_all(self._steps[i].effects)
            else:
                try:
                    self._steps.append(replay_action(self._source, self._cursor, i))
                except ReplayError as exc:
                    self.stopped, self.length = exc, i
                    self._jump(max(c for c in self._checkpoints if c <= i))
                    return Changes(everything=True) | self.go(i)
            changes |= _touched(self._steps[i].effects)
            self._at += 1
            if self._at % self.every == 0 and self._at not in self._checkpoints:
                self._checkpoints[self._at] = _copy(self._cursor)
        return changes

    def _jump(self, checkpoint: int) -> None:
        """Put the cursor (the same game object, which the views read) in the checkpoint's state."""
        self._cursor.__dict__.update(_copy(self._checkpoints[checkpoint]).__dict__)
        self._at = checkpoint

    def inverses_to_end(self, step: int) -> list[Effect]:
        """The effects that take the last step's state back to `step`'s: the later actions undone, newest first.

        Every action up to `length` is replayed for it (the cursor stays where it was).
        """
        here = self._at
        self.go(self.length)
        self.go(here)
        return [e for s in reversed(self._steps[step:self.length]) for e in reversed(s.inverses)]
