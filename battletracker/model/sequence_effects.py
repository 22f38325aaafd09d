"""Effects on the sequence of play, each with its exact inverse.

A side's Command Dice held, its Chain of Command dice tally, its last
Command Dice roll and its agenda of what is due; the Phase a unit last acted
in. Like every Effect, each checks everything before it
changes anything; an inverse puts back the same values in the same order, so
an undone game saves to the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.model.bombardment import PhaseStamp
from battletracker.model.effects import Changes
from battletracker.model.effects import Effect
from battletracker.model.game import ACTIVATION_WAYS
from battletracker.model.game import Activation
from battletracker.model.game import AgendaItem
from battletracker.model.game import CommandRoll
from battletracker.model.game import Game
from battletracker.model.game import GameError

SIDE_CHANGES = Changes(sides=True)
FORCE_MORALE_TEST = "force_morale_test"


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
            pips = "Chain of Command point" if side.coc_tally == 1 else "Chain of Command points"
            raise GameError(f"{side.name} has {side.coc_tally} {pips} towards a Chain of Command die; "
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
    """Record a side's last Command Dice roll (None: no roll), whose 6s decide what follows this Phase."""

    side: int
    roll: CommandRoll | None

    def apply(self, game: Game) -> Effect:
        side = game.side(self.side)
        roll = self.roll
        if roll is not None:
            if roll.turn < 1 or roll.phase < 1:
                raise GameError("turns and phases count from 1")
            faces = tuple(roll.faces)
            _faces(faces, f"{side.name}'s Command Dice roll")
            roll = CommandRoll(roll.turn, roll.phase, list(faces))
        old = SetCommandRoll(self.side, side.command_roll)
        side.command_roll = roll
        return old

    @property
    def touches(self) -> Changes:
        return SIDE_CHANGES


@dataclass(frozen=True)
class SetActed(Effect):
    """Record the Phase a unit acted in (None: Ready again, as before it ever acted)."""

    unit_id: str
    stamp: PhaseStamp | None

    def apply(self, game: Game) -> Effect:
        unit = game.unit(self.unit_id)
        stamp = self.stamp
        if stamp is not None:
            if stamp.turn < 1 or stamp.phase < 1:
                raise GameError("turns and phases count from 1")
            stamp = PhaseStamp(stamp.turn, stamp.phase)
        old = SetActed(self.unit_id, unit.acted)
        unit.acted = stamp
        return old

    @property
    def touches(self) -> Changes:
        return Changes(units=frozenset({self.unit_id}))


def _find_item(game: Game, item_id: str) -> tuple[int, int] | None:
    """(side, index) of the agenda item `item_id`, or None."""
    for s, side in enumerate(game.sides):
        for i, item in enumerate(side.agenda):
            if item.id == item_id:
                return s, i
    return None


@dataclass(frozen=True)
class AddAgendaItem(Effect):
    """Put something due on a side's agenda (at `index`, or last); its id is unique in the game."""

    side: int
    item: AgendaItem
    index: int | None = None

    def apply(self, game: Game) -> Effect:
        side = game.side(self.side)
        item = self.item
        if not item.id or _find_item(game, item.id) is not None:
            raise GameError(f"the agenda already has an item {item.id!r}")
        if item.turn < 1 or item.phase < 1:
            raise GameError("turns and phases count from 1")
        at = len(side.agenda) if self.index is None else max(0, min(self.index, len(side.agenda)))
        side.agenda.insert(at, AgendaItem(item.id, item.kind, item.event, item.text, item.turn, item.phase))
        return RemoveAgendaItem(item.id)

    @property
    def touches(self) -> Changes:
        return SIDE_CHANGES


@dataclass(frozen=True)
class QueueForceMoraleTest(Effect):
    """A Force Morale Test for the side of `unit_id`, put on that side's agenda.

    The side is read when the step applies, before the unit leaves the table
    in the same step, so a procedure that never sees the game (a sniper shot
    off the table) can still call for its side's test.
    """

    unit_id: str
    event: str
    title: str

    def apply(self, game: Game) -> Effect:
        side = game.unit(self.unit_id).side
        name = game.sides[side].name if 0 <= side < len(game.sides) else f"Side {side + 1}"
        item = AgendaItem(agenda_id(game), FORCE_MORALE_TEST, self.event,
                          f"{name}: Force Morale Test for {self.title}", game.turn, game.phase)
        return AddAgendaItem(side, item).apply(game)

    @property
    def touches(self) -> Changes:
        return SIDE_CHANGES


@dataclass(frozen=True)
class RemoveAgendaItem(Effect):
    """Take a resolved item off its side's agenda."""

    item_id: str

    def apply(self, game: Game) -> Effect:
        found = _find_item(game, self.item_id)
        if found is None:
            raise GameError(f"nothing on the agenda is called {self.item_id!r}")
        s, i = found
        item = game.sides[s].agenda.pop(i)
        return AddAgendaItem(s, item, i)

    @property
    def touches(self) -> Changes:
        return SIDE_CHANGES


def agenda_id(game: Game, taken: list[str] | None = None) -> str:
    """A fresh id for an agenda item (beyond `taken`, ids chosen for items not yet added)."""
    return game.new_id("a", [*(item.id for side in game.sides for item in side.agenda), *(taken or [])])


@dataclass(frozen=True)
class SetActivation(Effect):
    """How a Chain of Command unit is activated this Phase and what it has done (None: not activated)."""

    unit_id: str
    activation: Activation | None

    def apply(self, game: Game) -> Effect:
        unit = game.unit(self.unit_id)
        new = self.activation
        if new is not None:
            if new.turn < 1 or new.phase < 1:
                raise GameError("turns and phases count from 1")
            if new.how not in ACTIVATION_WAYS:
                raise GameError(f"a unit is activated by {', '.join(ACTIVATION_WAYS)}, not {new.how!r}")
            if new.orders_left < 0:
                raise GameError(f"{unit.name} cannot have fewer than no orders left")
            _faces(tuple(new.dice), f"{unit.name}'s activation")
            new = Activation(new.turn, new.phase, new.how, list(new.dice), new.leader, new.orders_left,
                             list(new.done))
        old = SetActivation(self.unit_id, unit.activation)
        unit.activation = new
        return old

    @property
    def touches(self) -> Changes:
        return Changes(units=frozenset({self.unit_id}))
