"""Effects on bombardments, buildings and smoke, each with its exact inverse.

Like every Effect, each checks everything before it changes anything and
returns the Effect that undoes it. A bombardment, building or smoke area is
stored only as a save file would load it (the validators of model/fields.py run on
it first), so no effect can leave a game that cannot be reopened.

The rules layer walks a bombardment through its states with `UpdateBombardment`
(several fields at once, checked together), records what happened with
`AppendBombardmentEvent`, and keeps its list of Pinned units with
`SetBombardmentPin`; the "pinned" condition on the unit itself is the ordinary
`SetCondition`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import fields
from dataclasses import replace
from typing import Any
from typing import TypeVar

from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment import BombardmentEvent
from battletracker.model.bombardment import Building
from battletracker.model.bombardment import SmokeArea
from battletracker.model.effects import Changes
from battletracker.model.effects import Effect
from battletracker.model.fields import FieldError
from battletracker.model.fields import bombardment_from_dict
from battletracker.model.fields import building_from_dict
from battletracker.model.fields import smoke_from_dict
from battletracker.model.game import Game
from battletracker.model.game import GameError

T = TypeVar("T")

BOMBARDMENT_CHANGES = Changes(bombardments=True)
BUILDING_CHANGES = Changes(buildings=True)

_FIXED_FIELDS = {"id": "a bombardment keeps its id", "pinned": "use SetBombardmentPin",
                 "history": "use AppendBombardmentEvent"}
_BOMBARDMENT_FIELDS = frozenset(f.name for f in fields(Bombardment)) - set(_FIXED_FIELDS)


def _as_saved(load: Callable[[Any, str], T], value: Any, where: str) -> T:
    """`value` exactly as a save file would load it (a fresh copy), or GameError saying why not."""
    try:
        return load(asdict(value), where)
    except FieldError as exc:
        raise GameError(str(exc)) from None


def bombardment(game: Game, bombardment_id: str) -> Bombardment:
    try:
        return game.bombardments[bombardment_id]
    except KeyError:
        raise GameError(f"no bombardment with id {bombardment_id!r}") from None


def building(game: Game, building_id: str) -> Building:
    try:
        return game.buildings[building_id]
    except KeyError:
        raise GameError(f"no building with id {building_id!r}") from None


def _insert(items: dict[str, T], key: str, value: T, index: int | None) -> None:
    """Put `value` at `index` in the dict's order (last when None), so undoing a removal keeps the order."""
    listed = list(items.items())
    at = len(listed) if index is None else max(0, min(index, len(listed)))
    listed.insert(at, (key, value))
    items.clear()
    items.update(listed)


# bombardments ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AddBombardment(Effect):
    """A new Forward Observer's bombardment (or SOS Fire) (at `index` in the list, or last)."""

    bombardment: Bombardment
    index: int | None = None

    def apply(self, game: Game) -> Effect:
        b = self.bombardment
        if b.id in game.bombardments:
            raise GameError(f"a bombardment with id {b.id!r} is already in the game")
        game.side(b.side)
        added = _as_saved(bombardment_from_dict, b, "bombardment")
        _insert(game.bombardments, b.id, added, self.index)
        return RemoveBombardment(b.id)

    @property
    def touches(self) -> Changes:
        return BOMBARDMENT_CHANGES


@dataclass(frozen=True)
class RemoveBombardment(Effect):
    bombardment_id: str

    def apply(self, game: Game) -> Effect:
        old = bombardment(game, self.bombardment_id)
        index = list(game.bombardments).index(self.bombardment_id)
        del game.bombardments[self.bombardment_id]
        return AddBombardment(old, index)

    @property
    def touches(self) -> Changes:
        return BOMBARDMENT_CHANGES


@dataclass(frozen=True)
class UpdateBombardment(Effect):
    """Set some of a bombardment's fields together (a state change is several at once).

    `values` is (field name, new value) pairs; the changed record is checked as
    a whole before anything is stored, and the inverse sets the old values.
    """

    bombardment_id: str
    values: tuple[tuple[str, Any], ...]

    def apply(self, game: Game) -> Effect:
        current = bombardment(game, self.bombardment_id)
        names = [name for name, _ in self.values]
        for name in names:
            if name in _FIXED_FIELDS:
                raise GameError(f"bombardment field {name!r} cannot be set this way: {_FIXED_FIELDS[name]}")
            if name not in _BOMBARDMENT_FIELDS:
                raise GameError(f"a bombardment has no field {name!r}")
        if len(set(names)) != len(names):
            raise GameError("a bombardment update sets the same field twice")
        candidate = replace(current, **dict(self.values))
        game.side(candidate.side)
        checked = _as_saved(bombardment_from_dict, candidate, f"bombardment {self.bombardment_id!r}")
        old = tuple((name, getattr(current, name)) for name in names)
        for name in names:
            setattr(current, name, getattr(checked, name))
        return UpdateBombardment(self.bombardment_id, old)

    @property
    def touches(self) -> Changes:
        return BOMBARDMENT_CHANGES


@dataclass(frozen=True)
class AppendBombardmentEvent(Effect):
    """Add a line to a bombardment's history (a ranging shot, a Phase of fire, a move, ...)."""

    bombardment_id: str
    event: BombardmentEvent

    def apply(self, game: Game) -> Effect:
        b = bombardment(game, self.bombardment_id)
        checked = _as_saved(bombardment_from_dict, replace(b, history=[self.event]), "bombardment history")
        b.history.append(checked.history[0])
        return PopBombardmentEvent(self.bombardment_id, self.event)

    @property
    def touches(self) -> Changes:
        return BOMBARDMENT_CHANGES


@dataclass(frozen=True)
class PopBombardmentEvent(Effect):
    """Remove a bombardment's newest history line, which must be `event` (undo of the append)."""

    bombardment_id: str
    event: BombardmentEvent

    def apply(self, game: Game) -> Effect:
        b = bombardment(game, self.bombardment_id)
        if not b.history or b.history[-1] != self.event:
            raise GameError(f"the newest history line of bombardment {b.id!r} is not the one to remove")
        b.history.pop()
        return AppendBombardmentEvent(self.bombardment_id, self.event)

    @property
    def touches(self) -> Changes:
        return BOMBARDMENT_CHANGES


@dataclass(frozen=True)
class SetBombardmentPin(Effect):
    """Record that this bombardment has Pinned a unit (or no longer holds it Pinned).

    `check_unit` is off on the inverse of a release: undo puts back exactly
    the list there was, even a unit that has left the game since, so undoing
    can never be refused.
    """

    bombardment_id: str
    unit_id: str
    present: bool = True
    check_unit: bool = True

    def apply(self, game: Game) -> Effect:
        b = bombardment(game, self.bombardment_id)
        was = self.unit_id in b.pinned
        if self.present and not was:
            if self.check_unit:
                game.unit(self.unit_id)
            b.pinned.append(self.unit_id)
            b.pinned.sort()
        elif not self.present and was:
            b.pinned.remove(self.unit_id)
        return SetBombardmentPin(self.bombardment_id, self.unit_id, was, check_unit=False)

    @property
    def touches(self) -> Changes:
        return Changes(units=frozenset({self.unit_id}), bombardments=True)


@dataclass(frozen=True)
class ChangeCocPoints(Effect):
    """Spend (negative) or gain whole Chain of Command dice (`Side.coc_points`); never below zero."""

    side: int
    delta: int

    def apply(self, game: Game) -> Effect:
        side = game.side(self.side)
        after = side.coc_points + self.delta
        if after < 0:
            dice = "die" if side.coc_points == 1 else "dice"
            raise GameError(f"{side.name} has {side.coc_points} Chain of Command {dice}; cannot spend {-self.delta}")
        side.coc_points = after
        return ChangeCocPoints(self.side, -self.delta)

    @property
    def touches(self) -> Changes:
        return Changes(sides=True)


# buildings -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AddBuilding(Effect):
    """Put a building on the map (at `index` in the list, or last).

    `check_units` is off on the inverse of a removal, which puts back the
    building exactly as it was, occupants and all.
    """

    building: Building
    index: int | None = None
    check_units: bool = True

    def apply(self, game: Game) -> Effect:
        b = self.building
        if b.id in game.buildings:
            raise GameError(f"a building with id {b.id!r} is already in the game")
        for unit_id in b.occupants if self.check_units else ():
            game.unit(unit_id)
        added = _as_saved(building_from_dict, b, "building")
        _insert(game.buildings, b.id, added, self.index)
        return RemoveBuilding(b.id)

    @property
    def touches(self) -> Changes:
        return BUILDING_CHANGES


@dataclass(frozen=True)
class RemoveBuilding(Effect):
    building_id: str

    def apply(self, game: Game) -> Effect:
        old = building(game, self.building_id)
        index = list(game.buildings).index(self.building_id)
        del game.buildings[self.building_id]
        return AddBuilding(old, index, check_units=False)

    @property
    def touches(self) -> Changes:
        return BUILDING_CHANGES


@dataclass(frozen=True)
class ReplaceBuilding(Effect):
    """Swap in an edited copy of a building (moved, resized, another material); the id stays.

    New occupants must be in the game, except on the inverse (`check_units`
    off), which puts back the building exactly as it was.
    """

    building: Building
    check_units: bool = True

    def apply(self, game: Game) -> Effect:
        old = building(game, self.building.id)
        for unit_id in self.building.occupants if self.check_units else ():
            if unit_id not in old.occupants:
                game.unit(unit_id)
        game.buildings[self.building.id] = _as_saved(building_from_dict, self.building, "building")
        return ReplaceBuilding(old, check_units=False)

    @property
    def touches(self) -> Changes:
        return BUILDING_CHANGES


@dataclass(frozen=True)
class SetBuildingState(Effect):
    """A building becomes intact, unstable, collapsed or on fire."""

    building_id: str
    state: str

    def apply(self, game: Game) -> Effect:
        b = building(game, self.building_id)
        _as_saved(building_from_dict, replace(b, state=self.state), f"building {b.id!r}")
        old = b.state
        b.state = self.state
        return SetBuildingState(self.building_id, old)

    @property
    def touches(self) -> Changes:
        return BUILDING_CHANGES


@dataclass(frozen=True)
class SetOccupant(Effect):
    """A unit goes into a building (present) or comes out of it.

    `check_unit` is off on the inverse of a leaving, which puts back exactly
    the occupants there were (as SetBombardmentPin does for its list).
    """

    building_id: str
    unit_id: str
    present: bool = True
    check_unit: bool = True

    def apply(self, game: Game) -> Effect:
        b = building(game, self.building_id)
        was = self.unit_id in b.occupants
        if self.present and not was:
            if self.check_unit:
                game.unit(self.unit_id)
            b.occupants.append(self.unit_id)
            b.occupants.sort()
        elif not self.present and was:
            b.occupants.remove(self.unit_id)
        return SetOccupant(self.building_id, self.unit_id, was, check_unit=False)

    @property
    def touches(self) -> Changes:
        return Changes(units=frozenset({self.unit_id}), buildings=True)


# smoke --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AddSmoke(Effect):
    """Smoke on the table (at `index` in the list, or last)."""

    smoke: SmokeArea
    index: int | None = None

    def apply(self, game: Game) -> Effect:
        s = self.smoke
        if s.id in game.smoke:
            raise GameError(f"smoke with id {s.id!r} is already on the table")
        added = _as_saved(smoke_from_dict, s, "smoke")
        _insert(game.smoke, s.id, added, self.index)
        return RemoveSmoke(s.id)

    @property
    def touches(self) -> Changes:
        return BUILDING_CHANGES


@dataclass(frozen=True)
class RemoveSmoke(Effect):
    smoke_id: str

    def apply(self, game: Game) -> Effect:
        try:
            old = game.smoke[self.smoke_id]
        except KeyError:
            raise GameError(f"no smoke with id {self.smoke_id!r}") from None
        index = list(game.smoke).index(self.smoke_id)
        del game.smoke[self.smoke_id]
        return AddSmoke(old, index)

    @property
    def touches(self) -> Changes:
        return BUILDING_CHANGES
