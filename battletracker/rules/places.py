"""A spot on the table as players say it across the table: by what is there, or by distance and direction from a
unit, a piece of terrain or a table edge ("in the Wheat field", '6" north-east of 1st Squad', '12" from the
north edge, 20" from the west edge'), never as a pair of coordinates.

North is the table's top edge, as the map draws it (bearings are clockwise
from it, core/geometry.py). The phrase carries its own preposition, so a
sentence puts it straight after its verb: "lands in the Copse", "Aimed 4"
south of the Hedge".
"""

from __future__ import annotations

import math
from collections.abc import Callable

from battletracker.core import geometry
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.base import inches

NEAR = 12.0
"""How far from a unit or a piece of terrain a spot is still said from it, in inches: beyond, from the edges."""
AT = 0.5
"""Closer than this to a unit, a spot is at the unit (its base covers it)."""

COMPASS = ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")


def compass(bearing: float) -> str:
    """A bearing (degrees clockwise from the top edge) as the nearest of the eight compass points."""
    return COMPASS[round((bearing % 360.0) / 45.0) % len(COMPASS)]


def _the(name: str) -> str:
    """A terrain piece's name as a sentence says it: "the Wheat field" (a name already with its article kept)."""
    return name if name.lower().startswith("the ") else f"the {name}"


def place_words(game: Game, at: geometry.Point, *, besides: str | None = None) -> str:
    """Where `at` is, in words a player measures from: inside a named area or building, else from the nearest
    unit within `NEAR` (a model is what a player puts the tape against), else from the nearest piece of terrain
    within it, else from the two nearest table edges.

    `besides` is a unit not to say it from (the unit whose own place is said).
    """
    for building in game.buildings.values():
        if building.name and building.contains(at):
            return f"in {_the(building.name)}"
    for piece in game.terrain.values():
        if piece.name and piece.shape == "area" and geometry.point_in_polygon(at, piece.points):
            return f"in {_the(piece.name)}"
    x, y = at
    nearest: Unit | None = None
    gap = math.inf
    for unit in game.units.values():
        # The first nearest in the roster's order; whether a unit is in play is asked only of one nearer than
        # the nearest so far: a move's plan asks this of every unit of a 500-unit table.
        d = math.hypot(x - unit.x, y - unit.y)
        if d < gap and unit.id != besides and unit.in_play:
            nearest, gap = unit, d
    if nearest is not None:
        if gap < AT:
            return f"at {nearest.name}"
        if gap <= NEAR:
            return f'{inches(gap)}" {compass(geometry.bearing((nearest.x, nearest.y), at))} of {nearest.name}'
    pieces = [(geometry.distance_to_polyline(at, [*p.points, p.points[0]] if p.shape == "area" else p.points),
               _the(p.name)) for p in game.terrain.values() if p.name and p.points]
    if pieces:
        gap, name = min(pieces)
        if gap <= NEAR:
            return f'{inches(gap)}" from {name}'
    across = min((x, "west"), (game.table_width - x, "east"))
    down = min((y, "north"), (game.table_height - y, "south"))
    first, second = sorted((across, down))
    return f'{inches(first[0])}" from the {first[1]} edge, {inches(second[0])}" from the {second[1]} edge'


def destination(place: str) -> str:
    """Where a mover went, to follow "moved 5\" to", from `place_words` of its new place besides itself: the
    area it is in ("the Wheat field"), the unit it is at, or its place in words from a unit, a piece or the
    table's edges."""
    return place.removeprefix("in ").removeprefix("at ")


def beyond_edges(game: Game, at: geometry.Point) -> str:
    """How far beyond the table's edges a point off the table lies: '8" beyond the east edge'."""
    x, y = at
    out = [f'{inches(d)}" beyond the {edge} edge' for d, edge in (
        (-x, "west"), (x - game.table_width, "east"), (-y, "north"), (y - game.table_height, "south")) if d > 0]
    return " and ".join(out) or "on the table's edge"


def enemies_within(game: Game, unit: Unit, reach: float,
                   kind: Callable[[Unit], bool] = lambda _unit: True) -> list[Unit]:
    """The enemies of `unit` in play whose centres are within `reach` inches of its centre, of the `kind` asked
    (a vehicle, a Team on foot), nearest first, then by name: who a grenade can be thrown at, or run to."""
    here = (unit.x, unit.y)
    near = [u for u in game.units.values()
            if u.side != unit.side and u.in_play and kind(u) and geometry.in_radius(here, reach, (u.x, u.y))]
    return sorted(near, key=lambda u: (geometry.distance(here, (u.x, u.y)), u.name))
