"""Bombardments, buildings and smoke: the table state a Forward Observer's D6 and the ruins keep.

A `Bombardment` is one call for Medium Mortars (high explosive or smoke) from
the Forward Observer's first ranging shot until its last smoke clears, or one
SOS Fire whose pinning lasts into the next Phase. Its `state` walks:

    ranging  -> landed  (a ranging shot deviated: fire for effect there, or re-aim -> ranging)
    ranging  -> ready   (on target: the bombardment begins and fires this activation)
    landed   -> ready   (fire for effect on the landing point)
    ready    -> firing  (first Phase of fire) -> firing ... (one Phase of fire per activation)
    ready/firing -> lingering (out of Phases, or contact lost; the Forward Observer is removed)
    lingering -> cleared (its effects and smoke end after `linger_phases` more Phase ends)

The hidden Static/Rolling die (`pattern_die`) is kept here for the owner; who may
see it is `pattern_visible_to`. `last_fired` and `last_ranged` are the Phases of
its last Phase of fire and last ranging shot, because a bombardment fires once a
Phase and ranges again only in a later Phase. The rules layer decides every transition and
the game changes only through the Effects in bombardment_effects.py, which
check a changed record with `check_bombardment` before storing it.

A `Building` is a map object with a footprint, a material and its occupants;
a `SmokeArea` is smoke on the table that is not a bombardment (the dust of a
collapsed building), cleared at the Turn end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from dataclasses import field

from battletracker.core import geometry
from battletracker.model.game import GameError
from battletracker.model.game import Scalar
from battletracker.model.game import check_position

BOMBARDMENT_KINDS = ("high_explosive", "smoke", "sos")
BOMBARDMENT_STATES = ("ranging", "landed", "ready", "firing", "lingering", "cleared")
ACTIVE_STATES = ("ready", "firing", "lingering")
"""States in which the bombardment's area has effects on the table."""
AREA_SHAPES = ("rectangle", "circle")
EDGE_DIRECTIONS = tuple(geometry.EDGE_DIRECTIONS)
EVENT_KINDS = ("placed", "ranging", "fire_for_effect", "re_aim", "pattern", "fire", "move", "reveal",
               "contact_lost", "ended", "cleared", "rounds_added", "turn_end", "edited")

BUILDING_MATERIALS = ("wood", "brick_stone")
BUILDING_STATES = ("intact", "unstable", "collapsed", "on_fire")

MAX_PHASE_DIE = 6


@dataclass(frozen=True, order=True)
class PhaseStamp:
    """One Phase on the game clock: Turn and Phase in the order they are played (so stamps compare)."""

    turn: int
    phase: int

    def __str__(self) -> str:
        return f"Turn {self.turn}, Phase {self.phase}"


@dataclass
class BombardmentEvent:
    """One line of a bombardment's history, with where it happened for the map.

    A ranging shot's event has the aiming point in (`from_x`, `from_y`) and the
    landing point in (`x`, `y`), so the map can draw its deviation arrow;
    `values` keeps the numbers (roll, distance, bearing, ...).
    """

    turn: int
    phase: int
    kind: str
    text: str
    x: float = 0.0
    y: float = 0.0
    from_x: float = 0.0
    from_y: float = 0.0
    values: dict[str, Scalar] = field(default_factory=dict)


@dataclass
class Bombardment:
    """One Forward Observer's bombardment (or one SOS Fire) and everything the panel shows about it.

    (`x`, `y`) is the current aiming point, the centre of the area; a rolling
    bombardment moves it before each of its later Phases of fire.
    `phases_left` is the Forward Observer's phase die; `moves_left` is how many
    more rolling moves it makes (0 once static or bought extra rounds).
    `pinned` lists the units this bombardment has Pinned. `last_fired` and
    `last_ranged` are the Phases it last fired and last ranged in (None: never).
    """

    id: str
    side: int
    kind: str = "high_explosive"
    state: str = "ranging"
    observer_id: str = ""
    x: float = 0.0
    y: float = 0.0
    landed_x: float | None = None
    landed_y: float | None = None
    unobserved_attempts: int = 0
    phases_left: int = 0
    phases_fired: int = 0
    devastating: bool = False
    pattern_die: int | None = None
    revealed: bool = False
    direction: str | None = None
    moves_left: int = 0
    extra_rounds: int = 0
    linger_phases: int = 0
    shape: str = "rectangle"
    width: float = 18.0
    depth: float = 12.0
    radius: float = 6.0
    facing: float = 0.0
    firepower_dice: int = 6
    to_hit: int = 4
    pinned: list[str] = field(default_factory=list)
    history: list[BombardmentEvent] = field(default_factory=list)
    last_fired: PhaseStamp | None = None
    last_ranged: PhaseStamp | None = None

    @property
    def centre(self) -> geometry.Point:
        return (self.x, self.y)

    @property
    def active(self) -> bool:
        """Whether its area has effects now (begun and not yet cleared)."""
        return self.state in ACTIVE_STATES

    @property
    def observer_on_table(self) -> bool:
        return self.state in ("ranging", "landed", "ready", "firing")

    def contains(self, point: geometry.Point, centre: geometry.Point | None = None) -> bool:
        """Whether `point` is inside the area (centred on `centre`, else the current aiming point)."""
        at = self.centre if centre is None else centre
        if self.shape == "circle":
            return geometry.in_radius(at, self.radius, point)
        return geometry.in_rectangle(at, self.width, self.depth, self.facing, point)

    def outline(self, centre: geometry.Point | None = None) -> list[geometry.Point]:
        """The rectangle's corners for the map (a circle is drawn from `radius`)."""
        at = self.centre if centre is None else centre
        if self.shape == "circle":
            return []
        return geometry.rectangle_corners(at, self.width, self.depth, self.facing)

    def pattern_visible_to(self, side: int | None) -> bool:
        """The hidden die is the owner's secret until the second Phase of fire reveals it."""
        return self.revealed or side == self.side


@dataclass
class Building:
    """A building on the map: footprint (centre, width, depth, facing), material, storeys, occupants."""

    id: str
    name: str
    x: float
    y: float
    width: float = 6.0
    depth: float = 4.0
    facing: float = 0.0
    material: str = "brick_stone"
    storeys: int = 1
    occupants: list[str] = field(default_factory=list)
    state: str = "intact"

    @property
    def centre(self) -> geometry.Point:
        return (self.x, self.y)

    def contains(self, point: geometry.Point) -> bool:
        return geometry.in_rectangle(self.centre, self.width, self.depth, self.facing, point)

    def outline(self) -> list[geometry.Point]:
        return geometry.rectangle_corners(self.centre, self.width, self.depth, self.facing)


@dataclass
class SmokeArea:
    """Smoke that is not a bombardment: `to_hit` is the modifier for firing through it.

    `source` names what made it (a collapsed building's id); it is removed at
    the Turn end after it appears.
    """

    id: str
    x: float
    y: float
    width: float
    depth: float
    facing: float = 0.0
    source: str = ""
    to_hit: int = -1

    @property
    def centre(self) -> geometry.Point:
        return (self.x, self.y)

    def crosses(self, a: geometry.Point, b: geometry.Point) -> bool:
        """Whether a line of fire from `a` to `b` passes through the smoke."""
        return geometry.segment_crosses_rectangle(a, b, self.centre, self.width, self.depth, self.facing)

    def outline(self) -> list[geometry.Point]:
        return geometry.rectangle_corners(self.centre, self.width, self.depth, self.facing)


# consistency checks shared by the effects and the save file -------------------------------------------------


def _finite(what: str, *values: float) -> None:
    for v in values:
        if not math.isfinite(v):
            raise GameError(f"{what}: {v} is not a position on the table")


def _placed(what: str, facing: float, *places: float) -> None:
    """Positions and sizes within the table's reach, and a facing that is a number."""
    check_position(what, *places)
    _finite(what, facing)


def check_event(event: BombardmentEvent) -> None:
    if event.kind not in EVENT_KINDS:
        raise GameError(f"{event.kind!r} is not a bombardment event ({', '.join(EVENT_KINDS)})")
    if event.turn < 1 or event.phase < 1:
        raise GameError("bombardment history: turns and phases count from 1")
    check_position("bombardment history", event.x, event.y, event.from_x, event.from_y)


def check_bombardment(b: Bombardment) -> None:
    """Raise GameError naming the first thing about `b` that no bombardment can be."""
    name = f"bombardment {b.id!r}"
    if not b.id:
        raise GameError("a bombardment needs an id")
    if b.side < 0:
        raise GameError(f"{name}: no side number {b.side + 1}")
    if b.kind not in BOMBARDMENT_KINDS:
        raise GameError(f"{name}: {b.kind!r} is not a kind of bombardment ({', '.join(BOMBARDMENT_KINDS)})")
    if b.state not in BOMBARDMENT_STATES:
        raise GameError(f"{name}: {b.state!r} is not a bombardment state ({', '.join(BOMBARDMENT_STATES)})")
    _placed(name, b.facing, b.x, b.y, b.width, b.depth, b.radius)
    if (b.landed_x is None) != (b.landed_y is None):
        raise GameError(f"{name}: a landing point needs both x and y")
    if b.landed_x is not None and b.landed_y is not None:
        check_position(name, b.landed_x, b.landed_y)
    if b.state == "landed" and b.landed_x is None:
        raise GameError(f"{name}: a ranging shot that landed needs its landing point")
    for label, n in (("unobserved attempts", b.unobserved_attempts), ("Phases left", b.phases_left),
                     ("Phases fired", b.phases_fired), ("rolling moves left", b.moves_left),
                     ("extra rounds", b.extra_rounds), ("lingering Phases", b.linger_phases)):
        if n < 0:
            raise GameError(f"{name}: {label} cannot be negative ({n})")
    if b.state in ("ready", "firing") and b.phases_left < 1:
        raise GameError(f"{name}: a bombardment that is firing needs Phases left on its die")
    if b.state == "lingering" and b.linger_phases < 1:
        raise GameError(f"{name}: lingering effects need at least one Phase end to clear")
    if b.pattern_die is not None and not 1 <= b.pattern_die <= 6:
        raise GameError(f"{name}: the Static/Rolling die shows 1-6, not {b.pattern_die}")
    if b.direction is not None and b.direction not in EDGE_DIRECTIONS:
        raise GameError(f"{name}: {b.direction!r} is not a direction along a table edge "
                        f"({', '.join(EDGE_DIRECTIONS)})")
    if b.shape not in AREA_SHAPES:
        raise GameError(f"{name}: {b.shape!r} is not an area shape ({', '.join(AREA_SHAPES)})")
    if b.width <= 0 or b.depth <= 0 or b.radius <= 0:
        raise GameError(f"{name}: the area's width, depth and radius must be more than 0")
    if b.firepower_dice < 1:
        raise GameError(f"{name}: at least one Firepower Die, not {b.firepower_dice}")
    if not 2 <= b.to_hit <= 6:
        raise GameError(f"{name}: the score to hit is 2-6, not {b.to_hit}")
    if len(set(b.pinned)) != len(b.pinned):
        raise GameError(f"{name}: lists the same Pinned unit twice")
    for event in b.history:
        check_event(event)
    for stamp in (b.last_fired, b.last_ranged):
        if stamp is not None and (stamp.turn < 1 or stamp.phase < 1):
            raise GameError(f"{name}: turns and phases count from 1")


def check_building(b: Building) -> None:
    name = f"building {b.id!r}"
    if not b.id:
        raise GameError("a building needs an id")
    _placed(name, b.facing, b.x, b.y, b.width, b.depth)
    if b.width <= 0 or b.depth <= 0:
        raise GameError(f"{name}: width and depth must be more than 0")
    if b.material not in BUILDING_MATERIALS:
        raise GameError(f"{name}: {b.material!r} is not a building material ({', '.join(BUILDING_MATERIALS)})")
    if b.state not in BUILDING_STATES:
        raise GameError(f"{name}: {b.state!r} is not a building state ({', '.join(BUILDING_STATES)})")
    if b.storeys < 1:
        raise GameError(f"{name}: a building has at least one storey, not {b.storeys}")
    if len(set(b.occupants)) != len(b.occupants):
        raise GameError(f"{name}: lists the same occupant twice")


def check_smoke(s: SmokeArea) -> None:
    name = f"smoke {s.id!r}"
    if not s.id:
        raise GameError("smoke needs an id")
    _placed(name, s.facing, s.x, s.y, s.width, s.depth)
    if s.width <= 0 or s.depth <= 0:
        raise GameError(f"{name}: width and depth must be more than 0")
