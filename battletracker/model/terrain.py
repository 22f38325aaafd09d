"""Terrain pieces on the table: woods, crops, rubble as areas; hedges, walls, bocage as lines.

A piece is its outline in table inches and the key of a terrain kind of the
game's ruleset (`resources/rulesets/<ruleset>/terrain.toml`), which says what
cover it gives and whether it blocks sight. A piece may override its kind's
cover level, whether it blocks sight and how deep sight goes into it; None
keeps the kind's. The model checks the shape and the numbers; whether the
kind and the cover level are the ruleset's is checked by the rules layer
(rules/terrain.py), which knows the ruleset.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from dataclasses import field

from battletracker.core.geometry import Point
from battletracker.model.game import GameError
from battletracker.model.game import check_position

TERRAIN_SHAPES = ("area", "linear")
"""An area is a closed polygon a unit stands in; a linear obstacle a polyline a unit stands behind."""

MIN_POINTS = {"area": 3, "linear": 2}
MAX_POINTS = 500
"""More corners than any drawn piece needs: a bound so a damaged file cannot make sight slow."""
MIN_AREA = 0.01
"""Square inches an area encloses at least: less is a line drawn as an area, with no inside to stand in."""


@dataclass
class TerrainPiece:
    """One piece of terrain: `points` in table inches (x right, y down), in drawing order.

    `cover` (a cover level of the ruleset), `blocks_sight` and `sight_depth`
    (inches of the piece sight passes through before it is blocked) override
    the kind's when not None.
    """

    id: str
    name: str
    kind: str
    shape: str = "area"
    points: list[Point] = field(default_factory=list)
    cover: str | None = None
    blocks_sight: bool | None = None
    sight_depth: float | None = None


def check_terrain(piece: TerrainPiece) -> None:
    """Refuse a piece no table can hold, in a player's words (shared by the effects and the save file)."""
    if not piece.id:
        raise GameError("a terrain piece needs an id")
    name = piece.name or f"terrain piece {piece.id!r}"
    if not piece.kind:
        raise GameError(f"{name}: needs a kind of terrain")
    if piece.shape not in TERRAIN_SHAPES:
        raise GameError(f"{name}: {piece.shape!r} is not a terrain shape ({', '.join(TERRAIN_SHAPES)})")
    least = MIN_POINTS[piece.shape]
    needs = "an area needs at least 3 corners" if piece.shape == "area" else "a line needs at least 2 points"
    if len(piece.points) < least:
        raise GameError(f"{name}: {needs}, not {len(piece.points)}")
    if len(piece.points) > MAX_POINTS:
        raise GameError(f"{name}: has {len(piece.points)} points, more than the {MAX_POINTS} a piece may have")
    for x, y in piece.points:
        check_position(name, x, y)
    apart = len({(round(x, 6), round(y, 6)) for x, y in piece.points})
    if apart < least:
        raise GameError(f"{name}: {needs} in different places, not {apart}")
    if piece.shape == "area" and abs(_twice_area(piece.points)) < MIN_AREA * 2:
        raise GameError(f"{name}: its corners are all in one line; an area needs 3 corners that are not in a line")
    if piece.cover is not None and not piece.cover:
        raise GameError(f"{name}: an empty cover level")
    if piece.sight_depth is not None and not (math.isfinite(piece.sight_depth) and piece.sight_depth >= 0):
        raise GameError(f"{name}: sight goes 0 inches or more into a piece, not {piece.sight_depth:g}")


def _twice_area(points: list[Point]) -> float:
    """Twice the signed area the outline encloses (the shoelace sum)."""
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, [*points[1:], points[0]], strict=True))
