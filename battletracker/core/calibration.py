"""Placing a picture on the table: from picture pixels to table inches.

A photo of the table or a scenario map is placed by a similarity transform
(one scale, one rotation, one offset): a picture pixel (u, v) lands on the
table at

    x = X + s * (u cos r - v sin r)
    y = Y + s * (u sin r + v cos r)

where s is inches per pixel, r the rotation in degrees clockwise (y runs down
the table, as in `core.geometry`) and (X, Y) where the picture's top-left
corner lies. That is exactly how the map turns and scales a picture item, so
the picture drawn is the picture the placement describes.

Two points known on both the picture and the table (two table corners, say)
fix the placement: taken as complex numbers, table = a * picture + b, with
a = (t2 - t1) / (p2 - p1).

Two points on the picture and the distance measured between them on the table
(the length of a wall, a ruler laid on the table in the photo) fix the scale;
the first point's place on the table fixes where the picture lies; its turn is
kept as it is, since a distance says nothing about direction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from battletracker.core.geometry import Point
from battletracker.core.geometry import normalise

MIN_PICTURE_GAP = 2.0
"""Pixels between the two points clicked on the picture, at least: closer, a slip of the mouse turns the picture."""
MIN_TABLE_GAP = 0.5
"""Inches between the two places typed for them on the table, at least."""


class PlacementError(ValueError):
    """Two points that cannot place a picture; the message says why in a player's words."""


@dataclass(frozen=True)
class Placement:
    """Where a picture lies on the table: `scale` inches per pixel, `rotation` degrees clockwise,
    (`x`, `y`) the table point under the picture's top-left corner."""

    scale: float
    rotation: float
    x: float
    y: float

    def to_table(self, pixel: Point) -> Point:
        """The table point (inches) under a picture pixel."""
        c, s = _turn(self.rotation)
        u, v = pixel
        return (self.x + self.scale * (u * c - v * s), self.y + self.scale * (u * s + v * c))

    def to_picture(self, point: Point) -> Point:
        """The picture pixel over a table point (the inverse of `to_table`)."""
        c, s = _turn(self.rotation)
        dx, dy = (point[0] - self.x) / self.scale, (point[1] - self.y) / self.scale
        return (dx * c + dy * s, -dx * s + dy * c)


def _turn(rotation: float) -> tuple[float, float]:
    r = math.radians(rotation)
    return math.cos(r), math.sin(r)


def place_by_two_points(picture: tuple[Point, Point], table: tuple[Point, Point]) -> Placement:
    """The placement that puts picture pixel `picture[i]` on table point `table[i]`, for both points.

    Refuses (PlacementError) two clicks on the same spot of the picture or two
    table places that are the same: they say nothing about scale or turn.
    """
    (u1, v1), (u2, v2) = picture
    (x1, y1), (x2, y2) = table
    if not all(math.isfinite(n) for n in (u1, v1, u2, v2, x1, y1, x2, y2)):
        raise PlacementError("Every point needs numbers for both its coordinates.")
    p = complex(u2 - u1, v2 - v1)
    t = complex(x2 - x1, y2 - y1)
    if abs(p) < MIN_PICTURE_GAP:
        raise PlacementError("The two points on the picture are the same point: click two points far apart, "
                             "such as two opposite corners of the table.")
    if abs(t) < MIN_TABLE_GAP:
        raise PlacementError("The two points are at the same place on the table: give each point its own "
                             "place, such as two opposite corners of the table.")
    a = t / p
    b = complex(x1, y1) - a * complex(u1, v1)
    return Placement(abs(a), normalise(math.degrees(math.atan2(a.imag, a.real))), b.real, b.imag)


def check_measured(measured: float) -> None:
    """Refuse (PlacementError) a measured distance too short to scale a picture by, in the player's words."""
    if not math.isfinite(measured) or measured < MIN_TABLE_GAP:
        raise PlacementError(f"The two points must be at least {MIN_TABLE_GAP:g}\" apart on the table: measure "
                             "between two points far apart, such as the ends of a long wall.")


def place_by_distance(picture: tuple[Point, Point], measured: float, first: Point,
                      rotation: float = 0.0) -> Placement:
    """The placement at `rotation` that puts the picture's two points `measured` inches apart on the table,
    the first of them on table point `first`.

    Refuses (PlacementError) two clicks on the same spot of the picture, or a
    distance that is not a number of inches at least `MIN_TABLE_GAP`.
    """
    (u1, v1), (u2, v2) = picture
    if not all(math.isfinite(n) for n in (u1, v1, u2, v2, *first, rotation)):
        raise PlacementError("Every point needs numbers for both its coordinates.")
    check_measured(measured)
    gap = math.hypot(u2 - u1, v2 - v1)
    if gap < MIN_PICTURE_GAP:
        raise PlacementError("The two points on the picture are the same point: click two points far apart, "
                             "such as the two ends of something you measured.")
    scale = measured / gap
    c, s = _turn(rotation)
    return Placement(scale, normalise(rotation), first[0] - scale * (u1 * c - v1 * s),
                     first[1] - scale * (u1 * s + v1 * c))


def fit_to_table(width: int, height: int, table_width: float, table_height: float) -> Placement:
    """A picture of `width` x `height` pixels as large as fits on the table, unturned and centred."""
    if width <= 0 or height <= 0:
        raise PlacementError("The picture has no pixels.")
    scale = min(table_width / width, table_height / height)
    return Placement(scale, 0.0, (table_width - width * scale) / 2.0, (table_height - height * scale) / 2.0)


def nearest_corner(point: Point, table_width: float, table_height: float) -> Point:
    """The corner of the table nearest to `point`: what a player most often knows on a photo of the table."""
    corners = [(0.0, 0.0), (table_width, 0.0), (0.0, table_height), (table_width, table_height)]
    return min(corners, key=lambda c: math.hypot(c[0] - point[0], c[1] - point[1]))


__all__ = ["MIN_PICTURE_GAP", "MIN_TABLE_GAP", "Placement", "PlacementError", "fit_to_table", "nearest_corner",
           "place_by_distance", "place_by_two_points"]
