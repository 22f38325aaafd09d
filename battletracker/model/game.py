"""The game state a table keeps on paper: sides, units, markers, clock and log.

Plain mutable dataclasses. Nothing here changes them except `Game.apply`, which
takes an Effect (see effects.py) and returns the Effect that undoes it.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from dataclasses import fields
from dataclasses import replace
from typing import TYPE_CHECKING
from typing import Any
from typing import TypeVar

if TYPE_CHECKING:
    from battletracker.model.actions import Action
    from battletracker.model.backdrop import Backdrop
    from battletracker.model.bombardment import Bombardment
    from battletracker.model.bombardment import Building
    from battletracker.model.bombardment import PhaseStamp
    from battletracker.model.bombardment import SmokeArea
    from battletracker.model.changes import Changes
    from battletracker.model.effects import Effect
    from battletracker.model.terrain import TerrainPiece

Scalar = int | float | str | bool
T = TypeVar("T")

UNIT_KINDS = ("team", "section", "leader", "support_weapon", "sniper", "gun", "vehicle", "fighter")
VEHICLE_CATEGORIES = ("afv", "apc")
ARMOUR_FACES = ("front", "side", "rear", "top")
PROFILE_STATES = ("ok", "out_of_ammo", "jammed")
ACTIVATION_WAYS = ("command_die", "order", "coc_point")
OUT_OF_PLAY = "out_of_play"
"""The condition of a unit that has lost every figure: it stays in the game (log, report) but plays no part."""
OFF_TABLE_CONDITIONS = {OUT_OF_PLAY: "out of play", "abandoned": "abandoned", "destroyed": "destroyed",
                        "wreck": "a wreck"}
"""Conditions that take a unit out of the game for good, with the words a refusal says them in ("is abandoned")."""
OFF_TABLE_DAMAGE = {"destroyed": "destroyed", "explodes": "destroyed", "abandoned": "abandoned"}
"""Vehicle damage results that leave a wreck or an empty hull (at_fire.toml's destroyed and explodes; abandoned)."""
RULESETS = ("chain_of_command", "armour_battles", "necromunda")


class GameError(ValueError):
    """A change the game refuses; nothing was changed."""


REACH = 2000.0
"""How far from the table's top-left corner, in inches, anything may lie (across and up, either way).

The largest table is 1000" a side (`check_table`), so this leaves room for
anything off its edges, while keeping every distance the rules measure and
every shape the map draws small enough to stay exact and quick: a wood at a
hundred million inches took most of a minute to draw, and one at 1e308 made
the drawing overflow.
"""


def check_position(what: str, *values: float) -> None:
    """Refuse a coordinate or size that is not a number or lies beyond REACH, naming `what` and the bound."""
    for v in values:
        if not math.isfinite(v):
            raise GameError(f"{what}: {v} is not a position on the table")
        if not -REACH <= v <= REACH:
            raise GameError(f"{what}: {v:g}\" is too far from the table (everything on it lies within "
                            f"{REACH:g}\" of its corner)")


@dataclass
class WeaponProfile:
    """One way of firing a weapon (Necromunda ammunition types, for example)."""

    name: str
    stats: dict[str, Scalar] = field(default_factory=dict)
    traits: list[str] = field(default_factory=list)
    state: str = "ok"


@dataclass
class Weapon:
    """A weapon a unit carries: its arc, range bands and what it has left to fire.

    `arc` is the half-angle either side of the facing (45 for a tripod MG);
    None means all round. `ranges` are the outer edges of its range bands in
    inches. `ammo` None means unlimited; flamethrower fuel is ammo counted in
    Phases of fire, with `ammo_label` "fuel".
    """

    name: str
    kind: str = "small_arms"
    arc: float | None = None
    ranges: list[float] = field(default_factory=list)
    ammo: int | None = None
    ammo_max: int | None = None
    ammo_label: str = "rounds"
    stats: dict[str, Scalar] = field(default_factory=dict)
    profiles: list[WeaponProfile] = field(default_factory=list)


@dataclass
class Vehicle:
    """What makes a unit a vehicle: AFV or APC, Armour Dice per face, damage."""

    category: str = "afv"
    armour: dict[str, int] = field(default_factory=lambda: {face: 0 for face in ARMOUR_FACES})
    open_topped: bool = False
    damage: list[str] = field(default_factory=list)


@dataclass
class Unit:
    """A unit, team, figure or vehicle on the table, in inches and degrees.

    `counters` holds every number that goes up and down in play (shock,
    suppression, disruption, shots fired); each is never negative. `acted` is
    the Phase it last acted in (its activation), None before it ever has.
    `activation` is how a Chain of Command unit was last activated, and what
    it has done since (a Leader's orders left among it).
    """

    id: str
    name: str
    kind: str
    side: int
    x: float
    y: float
    facing: float = 0.0
    figures: int = 1
    figures_max: int = 1
    counters: dict[str, int] = field(default_factory=lambda: {"shock": 0})
    conditions: list[str] = field(default_factory=list)
    weapons: list[Weapon] = field(default_factory=list)
    vehicle: Vehicle | None = None
    stats: dict[str, Scalar] = field(default_factory=dict)
    level: int = 0
    notes: str = ""
    acted: PhaseStamp | None = None
    activation: Activation | None = None

    @property
    def shock(self) -> int:
        return self.counters.get("shock", 0)

    @property
    def is_vehicle(self) -> bool:
        return self.vehicle is not None

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def off_table(self) -> str | None:
        """Why the unit plays no further part, in words ("destroyed", "abandoned", "out of play"); None while it does.

        A vehicle destroyed, exploded or abandoned (its damage or its condition), a wreck, a unit out of play
        (Chain of Command marks a unit left with no figure so): never a firer, a target or a unit to activate
        again. A figure count of 0 alone does not: Necromunda keeps such a unit in play.
        """
        if self.vehicle is not None:
            for result in self.vehicle.damage:
                if result in OFF_TABLE_DAMAGE:
                    return OFF_TABLE_DAMAGE[result]
        for condition in self.conditions:
            if condition in OFF_TABLE_CONDITIONS:
                return OFF_TABLE_CONDITIONS[condition]
        return None

    @property
    def in_play(self) -> bool:
        """False once the unit is off the table (`off_table`): never a firer, a target or activated again."""
        return self.off_table is None

    def weapon(self, index: int) -> Weapon:
        if not 0 <= index < len(self.weapons):
            raise GameError(f"{self.name} has no weapon number {index + 1}")
        return self.weapons[index]

    def main_arc(self) -> float | None:
        """The narrowest arc among the unit's weapons: what its card and map show."""
        arcs = [w.arc for w in self.weapons if w.arc is not None]
        return min(arcs) if arcs else None

    def range_bands(self) -> list[float]:
        """Range band edges of the first weapon that has any."""
        for w in self.weapons:
            if w.ranges:
                return list(w.ranges)
        return []


@dataclass
class Activation:
    """How a Chain of Command unit was activated in one Phase, and what it has done since.

    `how` is "command_die" (`dice` the faces spent: one die, or several
    combined), "order" (`leader` the id of the Leader whose order it was) or
    "coc_point". `orders_left` is what a Leader activated this way may still
    give; `done` what the unit has done in this activation ("move", "fire",
    "order"), in order.
    """

    turn: int
    phase: int
    how: str
    dice: list[int] = field(default_factory=list)
    leader: str = ""
    orders_left: int = 0
    done: list[str] = field(default_factory=list)


@dataclass
class Side:
    """A side's standing: Force Morale, Chain of Command dice, its Command Dice, and what it has due.

    `coc_points` are the side's whole Chain of Command dice, `coc_tally` the
    pips the 5s of its Command Dice have added towards the next one.
    `command_dice` is how many Command Dice it rolls each Phase,
    `command_roll` its last roll, `held_dice` the faces (1 to 4) of it not
    spent yet, in order. `agenda` lists what the side must resolve (a Force
    Morale Test after its sniper is killed, say).
    """

    name: str
    colour: str
    force_morale: int = 10
    coc_points: int = 0
    command_dice: int = 5
    held_dice: list[int] = field(default_factory=list)
    coc_tally: int = 0
    command_roll: CommandRoll | None = None
    agenda: list[AgendaItem] = field(default_factory=list)


@dataclass
class Marker:
    """Anything placed on the table that is not a unit: aiming points, smoke, bursts."""

    id: str
    kind: str
    x: float
    y: float
    radius: float = 0.0
    label: str = ""
    side: int | None = None
    data: dict[str, Scalar] = field(default_factory=dict)


@dataclass
class CommandRoll:
    """A side's last Command Dice roll: in which Phase, every face as rolled (its 6s decide what follows)."""

    turn: int
    phase: int
    faces: list[int] = field(default_factory=list)


@dataclass
class AgendaItem:
    """Something due that a side must resolve, such as a Force Morale Test after its sniper is killed.

    `id` is unique in the game. `kind` says which procedure resolves it
    ("force_morale_test"), `event` the rules' occasion for it
    ("sniper_killed"), `text` what the player reads, `turn` and `phase` when
    it fell due.
    """

    id: str
    kind: str
    event: str
    text: str
    turn: int
    phase: int


@dataclass(frozen=True)
class LogEntry:
    """One line of the battle log. `starred`: a player marked it as a moment for the battle report."""

    time: str
    turn: int
    phase: int
    text: str
    kind: str = "note"
    starred: bool = False


@dataclass
class Game:
    title: str = "New battle"
    ruleset: str = "chain_of_command"
    table_width: float = 72.0
    table_height: float = 48.0
    turn: int = 1
    phase: int = 1
    active_side: int = 0
    sides: list[Side] = field(default_factory=list)
    units: dict[str, Unit] = field(default_factory=dict)
    markers: dict[str, Marker] = field(default_factory=dict)
    log: list[LogEntry] = field(default_factory=list)
    settings: dict[str, Scalar] = field(default_factory=dict)
    backdrop: Backdrop | None = None  # the table's own picture under the map (model/backdrop.py)
    bombardments: dict[str, Bombardment] = field(default_factory=dict)
    buildings: dict[str, Building] = field(default_factory=dict)
    smoke: dict[str, SmokeArea] = field(default_factory=dict)
    terrain: dict[str, TerrainPiece] = field(default_factory=dict)
    # The actions applied (model/actions.py) and the state before the first of
    # them, as a save file writes a game: what a replay starts from.
    actions: list[Action] = field(default_factory=list)
    start: dict[str, Any] | None = None

    def unit(self, unit_id: str) -> Unit:
        try:
            return self.units[unit_id]
        except KeyError:
            raise GameError(f"no unit with id {unit_id!r}") from None

    def marker(self, marker_id: str) -> Marker:
        try:
            return self.markers[marker_id]
        except KeyError:
            raise GameError(f"no marker with id {marker_id!r}") from None

    def side(self, index: int) -> Side:
        if not 0 <= index < len(self.sides):
            raise GameError(f"no side number {index + 1}")
        return self.sides[index]

    def units_of(self, side: int) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side]

    def new_id(self, prefix: str, taken: Iterable[str] | None = None) -> str:
        """A fresh id such as "u7": one past the highest number already used."""
        used = set(taken if taken is not None else [*self.units, *self.markers])
        n = 1
        for key in used:
            if key.startswith(prefix) and key[len(prefix):].isdigit():
                n = max(n, int(key[len(prefix):]) + 1)
        return f"{prefix}{n}"

    def apply(self, effect: Effect) -> Effect:
        """Apply one effect and return its exact inverse; refused effects change nothing."""
        return effect.apply(self)

    def apply_all(self, effects: Sequence[Effect]) -> list[Effect]:
        """Apply effects in order, all or nothing.

        On a refusal the game gets back a copy of everything the effects touch,
        taken before the first one: putting a copy back cannot be refused, so
        the game is left exactly as it was even when an effect's inverse would
        not apply (a Pinned unit that is no longer in the game, say).
        """
        saved = _Snapshot(self, effects)
        inverses: list[Effect] = []
        try:
            for effect in effects:
                inverses.append(effect.apply(self))
        except BaseException:
            saved.restore(self)
            raise
        return inverses

    def check_all(self, effects: Sequence[Effect]) -> None:
        """Raise GameError if the effects cannot all apply; either way the game is left exactly as it was."""
        self.peek(effects, lambda _game: None)

    def peek(self, effects: Sequence[Effect], look: Callable[[Game], T]) -> T:
        """What `look` reads of the game once the effects are applied; the game is then left exactly as it was.

        Raises GameError if the effects cannot all apply. `look` must keep no
        record of the game (a unit, a side): they are put back as they were.
        """
        saved = _Snapshot(self, effects)
        try:
            for effect in effects:
                effect.apply(self)
            return look(self)
        finally:
            saved.restore(self)


_REGIONS: dict[str, tuple[str, ...]] = {
    "markers": ("markers",),
    "log": ("log",),
    "clock": ("turn", "phase", "active_side"),
    "sides": ("sides",),
    "settings": ("settings",),
    "bombardments": ("bombardments",),
    "buildings": ("buildings", "smoke"),
    "terrain": ("terrain",),
    "history": ("actions", "start"),
    "backdrop": ("backdrop",),
}
"""The Game fields behind each flag of an effect's `touches` (smoke areas count as buildings)."""

_ALL_BUT_UNITS = frozenset(f.name for f in fields(Game)) - {"units"}

_FROZEN_ITEMS = frozenset({"log", "actions"})
"""Game fields holding only frozen records (log entries, actions): kept as lists, never copied one by one."""


class _Snapshot:
    """What some effects may change, by their `writes`, kept to be put back exactly.

    Records (units, markers, bombardments, sides, ...) are put back into the
    same objects, so whoever holds one still sees the game. Units are copied
    one by one, only those named in `touches.units`, so a 500-unit game is not
    copied for one unit's Shock; the roster's order is always kept.
    """

    def __init__(self, game: Game, effects: Sequence[Effect]) -> None:
        writes = [e.writes for e in effects]
        everything = any(w.everything for w in writes)
        names = _ALL_BUT_UNITS if everything else {
            name for w in writes for flag, region in _REGIONS.items() if getattr(w, flag) for name in region}
        touched = set(game.units) if everything else {u for w in writes for u in w.units}
        at_the_end = all(e.at_the_end for e, w in zip(effects, writes, strict=True) if w.log or w.history)
        self.fields: dict[str, _Kept | _KeptEnd] = {
            name: _KeptEnd(getattr(game, name), len(effects)) if name in _FROZEN_ITEMS and at_the_end
            else _Kept(getattr(game, name), records=name not in _FROZEN_ITEMS) for name in names}
        self.roster = list(game.units.items())
        self.units = [_Kept(game.units[u]) for u in touched if u in game.units]

    def restore(self, game: Game) -> None:
        for name, kept in self.fields.items():
            setattr(game, name, kept.restore())
        for unit in self.units:
            unit.restore()
        game.units.clear()
        game.units.update(self.roster)


_RECORD_TYPES: dict[type[Any], bool] = {}


def _record(value: Any) -> bool:
    """A mutable dataclass (a unit, a marker, a side...); frozen ones such as log entries never change."""
    kind = type(value)
    known = _RECORD_TYPES.get(kind)
    if known is None:
        params = None if isinstance(value, type) else getattr(kind, "__dataclass_params__", None)
        known = _RECORD_TYPES[kind] = params is not None and not params.frozen
    return known


class _Kept:
    """One value as it was: a record's fields, a container's items in order and a copy of each record in it.

    `records` False skips looking for records in a container of frozen ones
    (the log's 10,000 entries).
    """

    def __init__(self, value: Any, records: bool = True) -> None:
        self.value = value
        self.items: list[Any] | None = None
        if isinstance(value, dict):
            self.items = list(value.items())
            inside: Iterable[Any] = value.values()
        elif isinstance(value, list):
            self.items = list(value)
            inside = value
        else:
            inside = (value,)
        self.records = [(r, _copied(r)) for r in inside if _record(r)] if records else []

    def restore(self) -> Any:
        """Put the value back in place and return it (the same object it was)."""
        for record, saved in self.records:
            vars(record).clear()
            vars(record).update(vars(saved))
        if isinstance(self.value, dict) and self.items is not None:
            self.value.clear()
            self.value.update(self.items)
        elif isinstance(self.value, list) and self.items is not None:
            self.value[:] = self.items
        return self.value


class _KeptEnd:
    """A list of frozen entries as it was, for effects that change it only at its end (Effect.at_the_end):
    its length and its last `count` entries, enough to undo `count` additions or removals there."""

    def __init__(self, value: list[Any], count: int) -> None:
        self.value = value
        self.start = max(0, len(value) - count)
        self.end = value[self.start:]

    def restore(self) -> list[Any]:
        self.value[self.start:] = self.end
        return self.value


_ATOMS = frozenset({str, int, float, bool, type(None)})


def _copied(value: Any) -> Any:
    """A deep copy of a record as `copy.deepcopy` makes it, quicker for what records hold.

    Records hold plain values, lists, dicts and other records; anything else
    is left to `copy.deepcopy`.
    """
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is list:
        return [v if type(v) in _ATOMS else _copied(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _ATOMS else _copied(v) for k, v in value.items()}
    if kind is tuple:
        return tuple(_copied(v) for v in value)
    if getattr(kind, "__dataclass_params__", None) is not None and not hasattr(kind, "__slots__"):
        copied = object.__new__(kind)
        vars(copied).update({k: v if type(v) in _ATOMS else _copied(v) for k, v in vars(value).items()})
        return copied
    return copy.deepcopy(value)


def table_copy(game: Game) -> Game:
    """A copy of the table as it stands, for a picture of it: no history, the log's (unchanging) entries shared.

    Copied as `_copied` copies a record, several times quicker than
    `copy.deepcopy` on a 500-unit table: the battle report pictures a long
    game's table at dozens of moments, and draws each picture from a copy.
    """
    copied: Game = _copied(replace(game, log=[], actions=[], start=None))
    copied.log = list(game.log)
    return copied


_HISTORY_FIELDS = frozenset({"log", "actions", "start"})
"""What a copy of the table takes as `table_copy` does, never from the copy before it."""


class TableCopies:
    """`table_copy`s of one game at moments as it changes, each sharing with the copy before it every record no
    effect applied since has written (`Effect.writes`): the records of a copy are never changed, so the copies
    can share them.

    The battle report pictures the table after each Turn, starred line and
    roll that takes the lead in luck: whole copies of a 500-unit table cost it
    more than replaying the game.
    """

    def __init__(self, start: Game) -> None:
        """`start`: the table before the first effect `wrote` is told of, which nothing changes afterwards."""
        self._last = start
        self._units: set[str] = set()
        self._fields: set[str] = set()
        self._everything = False

    def wrote(self, written: Iterable[Changes]) -> None:
        """Note what effects just applied to the game may have changed: their `Effect.writes`."""
        for writes in written:
            self._everything = self._everything or writes.everything
            self._units.update(writes.units)
            for flag, region in _REGIONS.items():
                if getattr(writes, flag):
                    self._fields.update(region)

    def copy(self, game: Game) -> Game:
        """`table_copy(game)`, its records that nothing wrote since the copy before it shared with that copy."""
        if self._everything:
            copied = table_copy(game)
        else:
            last = self._last
            copied = replace(last, log=list(game.log), actions=[], start=None)
            for name in self._fields - _HISTORY_FIELDS:
                setattr(copied, name, _copied(getattr(game, name)))
            copied.units = {k: last.units[k] if k in last.units and k not in self._units else _copied(u)
                            for k, u in game.units.items()}
        self._last = copied
        self._units.clear()
        self._fields.clear()
        self._everything = False
        return copied
