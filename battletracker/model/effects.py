"""Effects: the only changes the game knows, each with an exact inverse.

A procedure returns Effects, the session applies them, the undo stack keeps
their inverses, and the battle log records them. `Effect.apply` checks
everything first and raises `GameError` before touching anything, so a
refused effect leaves the game as it was. `touches` is the small record of
what changed (Anki's OpChanges) so views refresh only what they show.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import replace
from typing import Any
from typing import TypeVar

from battletracker.core.geometry import normalise
from battletracker.model.changes import Changes as Changes
from battletracker.model.changes import Effect as Effect
from battletracker.model.fields import FieldError
from battletracker.model.fields import log_entry_from_dict
from battletracker.model.fields import marker_from_dict
from battletracker.model.fields import scalar_value
from battletracker.model.fields import side_from_dict
from battletracker.model.fields import unit_from_dict
from battletracker.model.game import PROFILE_STATES
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.game import LogEntry
from battletracker.model.game import Marker
from battletracker.model.game import Scalar
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import check_position

T = TypeVar("T")


def _finite(*values: float) -> None:
    for v in values:
        if not math.isfinite(v):
            raise GameError(f"{v} is not a position on the table")


def _as_saved(load: Callable[[Any, str], T], value: Any, where: str) -> T:
    """`value` exactly as a save file would load it, so no effect makes a game that cannot be reopened."""
    try:
        return load(asdict(value), where)
    except FieldError as exc:
        raise GameError(str(exc)) from None


def _scalar(value: Any, where: str) -> None:
    try:
        scalar_value(value, where)
    except FieldError as exc:
        raise GameError(str(exc)) from None


def _set_entry(items: dict[str, Scalar], key: str, value: Scalar | None,
               index: int | None) -> tuple[Scalar | None, int | None]:
    """Set one entry (None removes it); a new one goes at `index` (last when None).

    Returns the old value and its place, so the inverse puts a removed entry
    back where it was and a re-saved file is the same, byte for byte.
    """
    old = items.get(key)
    at = list(items).index(key) if key in items else None
    if value is None:
        items.pop(key, None)
    elif key in items or index is None:
        items[key] = value
    else:
        listed = list(items.items())
        listed.insert(max(0, min(index, len(listed))), (key, value))
        items.clear()
        items.update(listed)
    return old, at


@dataclass(frozen=True)
class ChangeCounter(Effect):
    """Add `delta` to a unit counter (shock, suppression, ...); never below zero.

    `remove_at_zero` is set on the inverse of a change that created the
    counter, so undoing it removes the counter again instead of leaving a 0.
    """

    unit_id: str
    counter: str
    delta: int
    remove_at_zero: bool = False

    def apply(self, game: Game) -> Effect:
        unit = game.unit(self.unit_id)
        existed = self.counter in unit.counters
        now = unit.counters.get(self.counter, 0)
        if now + self.delta < 0:
            raise GameError(f"{unit.name} has {now} {self.counter}; cannot remove {-self.delta}")
        if self.remove_at_zero and now + self.delta == 0:
            unit.counters.pop(self.counter, None)
        else:
            unit.counters[self.counter] = now + self.delta
        return ChangeCounter(self.unit_id, self.counter, -self.delta, not existed)

    @property
    def touches(self) -> Changes:
        return Changes(units=frozenset({self.unit_id}))


def add_shock(unit_id: str, amount: int) -> ChangeCounter:
    return ChangeCounter(unit_id, "shock", amount)


@dataclass(frozen=True)
class ChangeFigures(Effect):
    """Figures lost (negative) or returned; between zero and the unit's full strength."""

    unit_id: str
    delta: int

    def apply(self, game: Game) -> Effect:
        unit = game.unit(self.unit_id)
        after = unit.figures + self.delta
        if after < 0:
            raise GameError(f"{unit.name} has {unit.figures} figures; cannot lose {-self.delta}")
        if after > unit.figures_max:
            raise GameError(f"{unit.name} cannot have more than {unit.figures_max} figures")
        unit.figures = after
        return ChangeFigures(self.unit_id, -self.delta)

    @property
    def touches(self) -> Changes:
        return Changes(units=frozenset({self.unit_id}))


@dataclass(frozen=True)
class SpendAmmo(Effect):
    """Spend rounds (or fuel) from one weapon; negative `rounds` puts them back."""

    unit_id: str
    weapon: int
    rounds: int = 1

    def apply(self, game: Game) -> Effect:
        unit = game.unit(self.unit_id)
        weapon = unit.weapon(self.weapon)
        if weapon.ammo is None:
            raise GameError(f"{unit.name}'s {weapon.name} has unlimited ammunition")
        after = weapon.ammo - self.rounds
        if after < 0:
            raise GameError(f"{unit.name}'s {weapon.name} has no {weapon.ammo_label} left")
        if weapon.ammo_max is not None and after > weapon.ammo_max:
            raise GameError(f"{unit.name}'s {weapon.name} holds at most {weapon.ammo_max} {weapon.ammo_label}")
        weapon.ammo = after
        return SpendAmmo(self.unit_id, self.weapon, -self.rounds)

    @property
    def touches(self) -> Changes:
        return Changes(units=frozenset({self.unit_id}))


@dataclass(frozen=True)
class SetCondition(Effect):
    """Put a condition (pinned, broken, wreck, ...) on a unit or take it off."""

    unit_id: str
    condition: str
    present: bool = True

    def apply(self, game: Game) -> Effect:
        unit = game.unit(self.unit_id)
        if not self.condition:
            raise GameError("a condition needs a name")
        was = self.condition in unit.conditions
        if self.present and not was:
            unit.conditions.append(self.condition)
            unit.conditions.sort()
        elif not self.present and was:
            unit.conditions.remove(self.condition)
        return SetCondition(self.unit_id, self.condition, was)

    @property
    def touches(self) -> Changes:
        return Changes(units=frozenset({self.unit_id}))


@dataclass(frozen=True)
class SetDamage(Effect):
    """Record vehicle damage (engine_damage, immobilised, ...) or repair it."""

    unit_id: str
    damage: str
    present: bool = True

    def apply(self, game: Game) -> Effect:
        unit = game.unit(self.unit_id)
        if unit.vehicle is None:
            raise GameError(f"{unit.name} is not a vehicle")
        damage = unit.vehicle.damage
        was = self.damage in damage
        if self.present and not was:
            damage.append(self.damage)
            damage.sort()
        elif not self.present and was:
            damage.remove(self.damage)
        return SetDamage(self.unit_id, self.damage, was)

    @property
    def touches(self) -> Changes:
        return Changes(units=frozenset({self.unit_id}))


@dataclass(frozen=True)
class SetProfileState(Effect):
    """A weapon profile becomes ok, Out of Ammo or jammed."""

    unit_id: str
    weapon: int
    profile: int
    state: str

    def apply(self, game: Game) -> Effect:
        unit = game.unit(self.unit_id)
        weapon = unit.weapon(self.weapon)
        if not 0 <= self.profile < len(weapon.profiles):
            raise GameError(f"{weapon.name} has no profile number {self.profile + 1}")
        if self.state not in PROFILE_STATES:
            raise GameError(f"{self.state!r} is not a profile state ({', '.join(PROFILE_STATES)})")
        profile = weapon.profiles[self.profile]
        was = profile.state
        profile.state = self.state
        return SetProfileState(self.unit_id, self.weapon, self.profile, was)

    @property
    def touches(self) -> Changes:
        return Changes(units=frozenset({self.unit_id}))


@dataclass(frozen=True)
class SetUnitStat(Effect):
    """Set one of a unit's stats (`embarked_in` naming its carrier, say); None removes it.

    A new stat goes at `index` among the others (last when None): the inverse
    of a removal puts it back in its place.
    """

    unit_id: str
    key: str
    value: Scalar | None
    index: int | None = None

    def apply(self, game: Game) -> Effect:
        unit = game.unit(self.unit_id)
        if not self.key:
            raise GameError("a stat needs a name")
        if self.value is not None:
            _scalar(self.value, f"{unit.name}'s {self.key}")
        old, at = _set_entry(unit.stats, self.key, self.value, self.index)
        return SetUnitStat(self.unit_id, self.key, old, at)

    @property
    def touches(self) -> Changes:
        return Changes(units=frozenset({self.unit_id}))


@dataclass(frozen=True)
class MoveUnit(Effect):
    """Put a unit at a position and facing (degrees clockwise from the top edge)."""

    unit_id: str
    x: float
    y: float
    facing: float

    def apply(self, game: Game) -> Effect:
        unit = game.unit(self.unit_id)
        check_position(unit.name, self.x, self.y)
        _finite(self.facing)
        old = MoveUnit(self.unit_id, unit.x, unit.y, unit.facing)
        unit.x, unit.y, unit.facing = self.x, self.y, normalise(self.facing)
        return old

    @property
    def touches(self) -> Changes:
        return Changes(units=frozenset({self.unit_id}))


@dataclass(frozen=True)
class TurnUnit(Effect):
    """Face a unit another way without moving it (a tripod MG or gun turning onto its target)."""

    unit_id: str
    facing: float

    def apply(self, game: Game) -> Effect:
        unit = game.unit(self.unit_id)
        _finite(self.facing)
        old = TurnUnit(self.unit_id, unit.facing)
        unit.facing = normalise(self.facing)
        return old

    @property
    def touches(self) -> Changes:
        return Changes(units=frozenset({self.unit_id}))


@dataclass(frozen=True)
class AddUnit(Effect):
    """Put a new unit on the table (at `index` in the roster, or last)."""

    unit: Unit
    index: int | None = None

    def apply(self, game: Game) -> Effect:
        u = self.unit
        if u.id in game.units:
            raise GameError(f"a unit with id {u.id!r} is already in the game")
        game.side(u.side)
        _finite(u.x, u.y, u.facing)
        added = _as_saved(unit_from_dict, u, "unit")
        items = list(game.units.items())
        at = len(items) if self.index is None else max(0, min(self.index, len(items)))
        items.insert(at, (u.id, added))
        game.units.clear()
        game.units.update(items)
        return RemoveUnit(u.id)

    @property
    def touches(self) -> Changes:
        return Changes(units=frozenset({self.unit.id}), roster=True)


@dataclass(frozen=True)
class RemoveUnit(Effect):
    unit_id: str

    def apply(self, game: Game) -> Effect:
        unit = game.unit(self.unit_id)
        index = list(game.units).index(self.unit_id)
        del game.units[self.unit_id]
        return AddUnit(unit, index)

    @property
    def touches(self) -> Changes:
        return Changes(units=frozenset({self.unit_id}), roster=True)


@dataclass(frozen=True)
class ReplaceUnit(Effect):
    """Swap in an edited copy of a unit (the edit dialog); the id stays the same."""

    unit: Unit

    def apply(self, game: Game) -> Effect:
        old = game.unit(self.unit.id)
        game.side(self.unit.side)
        _finite(self.unit.x, self.unit.y, self.unit.facing)
        game.units[self.unit.id] = _as_saved(unit_from_dict, self.unit, "unit")
        return ReplaceUnit(old)

    @property
    def touches(self) -> Changes:
        return Changes(units=frozenset({self.unit.id}), roster=True)


@dataclass(frozen=True)
class PlaceMarker(Effect):
    """Place a marker (at `index` in the list, or last), or replace the one with the same id in its place."""

    marker: Marker
    index: int | None = None

    def apply(self, game: Game) -> Effect:
        check_position(self.marker.label or "a marker", self.marker.x, self.marker.y, self.marker.radius)
        if self.marker.radius < 0:
            raise GameError(f"a marker radius cannot be negative ({self.marker.radius})")
        if self.marker.side is not None:
            game.side(self.marker.side)
        placed = _as_saved(marker_from_dict, self.marker, "marker")
        old = game.markers.get(self.marker.id)
        if old is not None or self.index is None:
            game.markers[self.marker.id] = placed
        else:
            items = list(game.markers.items())
            items.insert(max(0, min(self.index, len(items))), (self.marker.id, placed))
            game.markers.clear()
            game.markers.update(items)
        return PlaceMarker(old) if old is not None else RemoveMarker(self.marker.id)

    @property
    def touches(self) -> Changes:
        return Changes(markers=True)


@dataclass(frozen=True)
class RemoveMarker(Effect):
    marker_id: str

    def apply(self, game: Game) -> Effect:
        marker = game.marker(self.marker_id)
        index = list(game.markers).index(self.marker_id)
        del game.markers[self.marker_id]
        return PlaceMarker(marker, index)

    @property
    def touches(self) -> Changes:
        return Changes(markers=True)


@dataclass(frozen=True)
class SetMarkerData(Effect):
    """Set one entry of a marker's data (a building on fire, unstable, ...); None removes it.

    A new entry goes at `index` (last when None): the inverse of a removal
    puts it back in its place.
    """

    marker_id: str
    key: str
    value: Scalar | None
    index: int | None = None

    def apply(self, game: Game) -> Effect:
        marker = game.marker(self.marker_id)
        if not self.key:
            raise GameError("marker data needs a name")
        if self.value is not None:
            _scalar(self.value, f"marker data {self.key}")
        old, at = _set_entry(marker.data, self.key, self.value, self.index)
        return SetMarkerData(self.marker_id, self.key, old, at)

    @property
    def touches(self) -> Changes:
        return Changes(markers=True)


@dataclass(frozen=True)
class AppendLog(Effect):
    """Add `entry` as the newest line of the log."""

    entry: LogEntry
    at_the_end = True

    @classmethod
    def now(cls, game: Game, text: str, kind: str = "note") -> AppendLog:
        """A log line stamped with the wall clock and the game's turn and phase."""
        from datetime import datetime

        stamp = datetime.now().isoformat(timespec="seconds")
        return cls(LogEntry(stamp, game.turn, game.phase, text, kind))

    def apply(self, game: Game) -> Effect:
        if not self.entry.text:
            raise GameError("a log entry needs text")
        game.log.append(_as_saved(log_entry_from_dict, self.entry, "log entry"))
        return PopLog(self.entry)

    @property
    def touches(self) -> Changes:
        return Changes(log=True)


@dataclass(frozen=True)
class PopLog(Effect):
    """Remove the newest log entry, which must be `entry` (undo of AppendLog).

    A star put on the entry since does not make it another entry: the inverse
    puts it back starred.
    """

    at_the_end = True

    entry: LogEntry

    def apply(self, game: Game) -> Effect:
        newest = game.log[-1] if game.log else None
        if newest is None or replace(newest, starred=False) != replace(self.entry, starred=False):
            raise GameError("the newest log entry is not the one to remove")
        game.log.pop()
        return AppendLog(newest)

    @property
    def touches(self) -> Changes:
        return Changes(log=True)


@dataclass(frozen=True)
class StarLogEntry(Effect):
    """Star or unstar the log entry at `index` (a moment for the battle report); its own kind undoes it."""

    index: int
    starred: bool

    def apply(self, game: Game) -> Effect:
        if not 0 <= self.index < len(game.log):
            raise GameError("there is no such line in the battle log")
        entry = game.log[self.index]
        game.log[self.index] = replace(entry, starred=self.starred)
        return StarLogEntry(self.index, entry.starred)

    @property
    def touches(self) -> Changes:
        return Changes(log=True)


@dataclass(frozen=True)
class SetClock(Effect):
    """Set turn, phase and the side whose Phase it is."""

    turn: int
    phase: int
    active_side: int

    def apply(self, game: Game) -> Effect:
        if self.turn < 1 or self.phase < 1:
            raise GameError("turns and phases count from 1")
        game.side(self.active_side)
        old = SetClock(game.turn, game.phase, game.active_side)
        game.turn, game.phase, game.active_side = self.turn, self.phase, self.active_side
        return old

    @property
    def touches(self) -> Changes:
        return Changes(clock=True)


@dataclass(frozen=True)
class ChangeSide(Effect):
    """Replace a side's record (name, colour, Force Morale, CoC points)."""

    index: int
    side: Side

    def apply(self, game: Game) -> Effect:
        old = game.side(self.index)
        if self.side.force_morale < 0 or self.side.coc_points < 0:
            raise GameError(f"{self.side.name}: Force Morale and Chain of Command dice cannot be negative")
        game.sides[self.index] = _as_saved(side_from_dict, self.side, "side")
        return ChangeSide(self.index, old)

    @property
    def touches(self) -> Changes:
        return Changes(sides=True, everything=True)

    @property
    def writes(self) -> Changes:
        """Only the side's record changes; every view redraws for its colour or name (`touches`)."""
        return Changes(sides=True)


@dataclass(frozen=True)
class SetSetting(Effect):
    """Set a game setting (a ruleset option); None removes it, back to the default.

    A new setting goes at `index` (last when None): the inverse of a removal
    puts it back in its place.
    """

    key: str
    value: Scalar | None
    index: int | None = None

    def apply(self, game: Game) -> Effect:
        if not self.key:
            raise GameError("a setting needs a name")
        if self.value is not None:
            _scalar(self.value, f"setting {self.key}")
        old, at = _set_entry(game.settings, self.key, self.value, self.index)
        return SetSetting(self.key, old, at)

    @property
    def touches(self) -> Changes:
        return Changes(settings=True)
