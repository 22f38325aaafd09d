"""How an applied action is recorded on the game: an Effect with an exact inverse.

Every undo step begins with `RecordAction`, so undo takes the action off the
game's list and redo puts it back. The first action recorded also keeps the
state the game was in before it (`Game.start`, as the save file writes a
game): the state a replay starts from.
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.model.actions import Action
from battletracker.model.effects import Changes
from battletracker.model.effects import Effect
from battletracker.model.fields import state_dict
from battletracker.model.game import Game
from battletracker.model.game import GameError


@dataclass(frozen=True)
class RecordAction(Effect):
    """Add `action` to the game's list; on the first one, keep the state before it as the start."""

    at_the_end = True

    action: Action

    def apply(self, game: Game) -> Effect:
        first = game.start is None
        if first:
            game.start = state_dict(game)
        game.actions.append(self.action)
        return PopAction(self.action, first)

    @property
    def touches(self) -> Changes:
        return Changes(history=True)


@dataclass(frozen=True)
class PopAction(Effect):
    """Take the newest action off the list (it must be `action`); `clear_start` forgets the start with it."""

    at_the_end = True

    action: Action
    clear_start: bool = False

    def apply(self, game: Game) -> Effect:
        if not game.actions or game.actions[-1] != self.action:
            raise GameError("the newest action is not the one to take back")
        game.actions.pop()
        if self.clear_start:
            game.start = None
        return RecordAction(self.action)

    @property
    def touches(self) -> Changes:
        return Changes(history=True)
