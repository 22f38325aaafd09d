"""The game state a table keeps on paper: sides, units, markers, clock and log.

Plain mutable dataclasses. Nothing here changes them except `Game.apply`, which
takes an Effect (see effects.py) and returns the Effect that undoes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from battletracker.model.actions import Action
    from battletracker.model.bombardment import Bombardment, Building, SmokeArea
    from battletracker.model.effects import Effect

Scalar = int | float | str | bool

UNIT_KINDS = ("team", "section", "leader", "support_weapon", "sniper", "gun", "vehicle", "fighter")
VEHICLE_CATEGORIES = ("afv", "apc")
ARMOUR_FACES = ("front", "side", "rear", "top")
PROFILE_STATES = ("ok", "out_of_ammo", "jammed")
RULESETS = ("chain_of_command", "armour_battles", "necromunda")


class GameError(ValueError):
    """A change the game refuses; nothing was changed."""


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
    suppression, disruption, shots fired); each is never negative.
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

    @property
    def shock(self) -> int:
        return self.counters.get("shock", 0)

    @property
    def is_vehicle(self) -> bool:
        return self.vehicle is not None

    def has(self, condition: str) -> bool:
        return condition in self.conditions

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
class Side:
    name: str
    colour: str
    force_morale: int = 10
    coc_points: int = 0


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


@dataclass(frozen=True)
class LogEntry:
    time: str
    turn: int
    phase: int
    text: str
    kind: str = "note"


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
    bombardments: dict[str, Bombardment] = field(default_factory=dict)
    buildings: dict[str, Building] = field(default_factory=dict)
    smoke: dict[str, SmokeArea] = field(default_factory=dict)
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
        """Apply effects in order, all or nothing: on a refusal the earlier ones are undone."""
        inverses: list[Effect] = []
        try:
            for effect in effects:
                inverses.append(effect.apply(self))
        except BaseException:
            for inverse in reversed(inverses):
                inverse.apply(self)
            raise
        return inverses
