"""Effects on the sequence of play, each with its exact inverse.

Command Dice held and the Chain of Command dice tally (on the Side), the last
Command Dice roll, who has acted this Phase (or Necromunda round) and the
agenda of what is due. Like every Effect, each checks everything before it
changes anything; an inverse puts back the same values in the same order, so
an undone game saves to the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.model.bombardment import PhaseStamp
from battletracker.model.effects import Changes, Effect
from battletracker.model.game import AgendaItem, CommandRoll, Game, GameError

SIDE_CHANGES = Changes(sides=True)
CLOCK_CHANGES = Changes(clock=True)


def _faces(faces: tuple[int, ...], where: str) -> None:
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise GameError(f"{where}: a die shows 1 to 6, not {face!r}")


@dataclass(frozen=True)
class SetHeldDice(Effect):
    """The Command Dice a side holds this Phase (the faces not yet spent), in order."""

    side: int
    faces: tuple[int, ...]

    def apply(self, game: Game) -> Effect:
        side = game.side(self.side)
        _faces(self.faces, f"{side.name}'s Command Dice")
        old = SetHeldDice(self.side, tuple(side.held_dice))
        side.held_dice = list(self.faces)
        return old

    @property
    def touches(self) -> Changes:
        return SIDE_CHANGES


@dataclass(frozen=True)
class ChangeCocTally(Effect):
    """Add pips to (or take them from) a side's Chain of Command dice tally; never below zero."""

    side: int
    delta: int

    def apply(self, game: Game) -> Effect:
        side = game.side(self.side)
        after = side.coc_tally + self.delta
        if after < 0:
            raise GameError(f"{side.name} has {side.coc_tally} pip(s) towards a Chain of Command die; "
                            f"cannot take {-self.delta}")
        side.coc_tally = after
        return ChangeCocTally(self.side, -self.delta)

    @property
    def touches(self) -> Changes:
        return SIDE_CHANGES


@dataclass(frozen=True)
class ChangeForceMorale(Effect):
    """Lower (negative) or raise a side's Force Morale; never below zero."""

    side: int
    delta: int

    def apply(self, game: Game) -> Effect:
        side = game.side(self.side)
        after = side.force_morale + self.delta
        if after < 0:
            raise GameError(f"{side.name}'s Force Morale is {side.force_morale}; it cannot fall by {-self.delta}")
        side.force_morale = after
        return ChangeForceMorale(self.side, -self.delta)

    @property
    def touches(self) -> Changes:
        return SIDE_CHANGES


@dataclass(frozen=True)
class SetCommandDiceCount(Effect):
    """How many Command Dice a side rolls each Phase (a side setting)."""

    side: int
    count: int

    def apply(self, game: Game) -> Effect:
        side = game.side(self.side)
        if not 1 <= self.count <= 12:
            raise GameError(f"{side.name} rolls 1 to 12 Command Dice, not {self.count}")
        old = SetCommandDiceCount(self.side, side.command_dice)
        side.command_dice = self.count
        return old

    @property
    def touches(self) -> Changes:
        return SIDE_CHANGES


@dataclass(frozen=True)
class SetCommandRoll(Effect):
    """Record the last Command Dice roll (None: no roll), whose 6s decide what follows this Phase."""

    roll: CommandRoll | None

    def apply(self, game: Game) -> Effect:
        old = SetCommandRoll(game.command_roll)
        if self.roll is None:
            game.command_roll = None
            return old
        game.side(self.roll.side)
        if self.roll.turn < 1 or self.roll.phase < 1:
            raise GameError("turns and phases count from 1")
        faces = tuple(self.roll.faces)
        _faces(faces, "a Command Dice roll")
        game.command_roll = CommandRoll(self.roll.side, self.roll.turn, self.roll.phase, list(faces))
        return old

    @property
    def touches(self) -> Changes:
        return CLOCK_CHANGES


@dataclass(frozen=True)
class SetActed(Effect):
    """Record that a unit acted in a Phase (None forgets it); `index` keeps its place when undone."""

    unit_id: str
    stamp: PhaseStamp | None
    index: int | None = None

    def apply(self, game: Game) -> Effect:
        if not self.unit_id:
            raise GameError("a unit that acted needs an id")
        listed = list(game.acted.items())
        keys = [key for key, _ in listed]
        old_index = keys.index(self.unit_id) if self.unit_id in game.acted else None
        old = SetActed(self.unit_id, game.acted.get(self.unit_id), old_index)
        if old_index is not None:
            del listed[old_index]
        if self.stamp is not None:
            if self.stamp.turn < 1 or self.stamp.phase < 1:
                raise GameError("turns and phases count from 1")
            at = old_index if old_index is not None else self.index
            at = len(listed) if at is None else max(0, min(at, len(listed)))
            listed.insert(at, (self.unit_id, PhaseStamp(self.stamp.turn, self.stamp.phase)))
        game.acted = dict(listed)
        return old

    @property
    def touches(self) -> Changes:
        return Changes(units=frozenset({self.unit_id}))


@dataclass(frozen=True)
class SetAllActed(Effect):
    """Replace the whole record of who acted (an empty one: everybody is Ready again)."""

    entries: tuple[tuple[str, PhaseStamp], ...] = ()

    def apply(self, game: Game) -> Effect:
        ids = [unit_id for unit_id, _ in self.entries]
        if len(set(ids)) != len(ids) or not all(ids):
            raise GameError("each unit that acted is listed once, by its id")
        old = SetAllActed(tuple(game.acted.items()))
        game.acted = {unit_id: PhaseStamp(s.turn, s.phase) for unit_id, s in self.entries}
        return old

    @property
    def touches(self) -> Changes:
        return Changes(roster=True)


@dataclass(frozen=True)
class AddAgendaItem(Effect):
    """Put something due on the agenda (at `index`, or last)."""

    item: AgendaItem
    index: int | None = None

    def apply(self, game: Game) -> Effect:
        item = self.item
        if not item.id or any(i.id == item.id for i in game.agenda):
            raise GameError(f"the agenda already has an item {item.id!r}")
        game.side(item.side)
        if item.turn < 1 or item.phase < 1:
            raise GameError("turns and phases count from 1")
        at = len(game.agenda) if self.index is None else max(0, min(self.index, len(game.agenda)))
        game.agenda.insert(at, AgendaItem(item.id, item.kind, item.side, item.event, item.text, item.turn,
                                          item.phase))
        return RemoveAgendaItem(item.id)

    @property
    def touches(self) -> Changes:
        return CLOCK_CHANGES


@dataclass(frozen=True)
class RemoveAgendaItem(Effect):
    """Take a resolved item off the agenda."""

    item_id: str

    def apply(self, game: Game) -> Effect:
        for i, item in enumerate(game.agenda):
            if item.id == self.item_id:
                del game.agenda[i]
                return AddAgendaItem(item, i)
        raise GameError(f"nothing on the agenda is called {self.item_id!r}")

    @property
    def touches(self) -> Changes:
        return CLOCK_CHANGES


def agenda_id(game: Game) -> str:
    """A fresh id for an agenda item."""
    return game.new_id("a", [item.id for item in game.agenda])
