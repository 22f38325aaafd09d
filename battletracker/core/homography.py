"""A projector over the table: from table inches to projector pixels through four corners.

A projector above the table is seldom square to it: tilted, it draws a
keystone; turned or off-centre, a rotated and shifted one. Whatever the
angle, the projector's picture lands on the flat table by a perspective (a
homography): a table point (x, y) lights at projector pixel

    u = (h0 x + h1 y + h2) / (h6 x + h7 y + h8)
    v = (h3 x + h4 y + h5) / (h6 x + h7 y + h8)

Four table points and the four pixels that land on them fix the eight
unknowns (h8 is 1): the player drags four crosshairs onto the table's four
corners. The similarity of `core.calibration` (one scale, one turn, one
offset) is the special case with h6 = h7 = 0 and a table picture needs no
more; a projector does. The refusals are `PlacementError`s with the same
rule for points too close together to say anything.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from battletracker.core.calibration import MIN_PICTURE_GAP
from battletracker.core.calibration import MIN_TABLE_GAP
from battletracker.core.calibration import PlacementError
from battletracker.core.geometry import Point

Matrix = tuple[float, float, float, float, float, float, float, float, float]
"""A 3x3 matrix row by row."""


@dataclass(frozen=True)
class Homography:
    """A perspective map of the plane: `matrix` row by row, acting on (x, y, 1)."""

    matrix: Matrix

    def map(self, point: Point) -> Point:
        """Where `point` lands. Refuses (PlacementError) a point the perspective sends to infinity (the
        horizon of a projector tilted that far), which no table corner four crosshairs fix can be."""
        h = self.matrix
        x, y = point
        w = h[6] * x + h[7] * y + h[8]
        if abs(w) < 1e-12:
            raise PlacementError("That point is on the projector's horizon: it lights nowhere on the table.")
        return ((h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w)

    def inverse(self) -> Homography:
        """The map back (from projector pixels to table inches, say), scaled so its last entry is 1
        unless the origin itself goes to infinity."""
        a, b, c, d, e, f, g, h, i = self.matrix
        adj = (e * i - f * h, c * h - b * i, b * f - c * e,
               f * g - d * i, a * i - c * g, c * d - a * f,
               d * h - e * g, b * g - a * h, a * e - b * d)
        det = a * adj[0] + b * adj[3] + c * adj[6]
        if abs(det) < 1e-15:
            raise PlacementError("These corners do not make a picture of the table: they lie on one line.")
        m = [v / adj[8] for v in adj[:8]] + [1.0] if abs(adj[8]) > 1e-12 else [v / det for v in adj]
        return Homography((m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]))


def table_corners(width: float, height: float) -> tuple[Point, Point, Point, Point]:
    """The table's corners in the order the crosshairs are placed: top left, top right, bottom right, bottom left."""
    return ((0.0, 0.0), (width, 0.0), (width, height), (0.0, height))


def _turns(points: Sequence[Point]) -> list[float]:
    """The cross product at each corner of the quadrilateral `points`, in order: one sign all round if convex."""
    turns = []
    for i in range(4):
        (ax, ay), (bx, by), (cx, cy) = points[i], points[(i + 1) % 4], points[(i + 2) % 4]
        turns.append((bx - ax) * (cy - by) - (by - ay) * (cx - bx))
    return turns


def _check_quad(points: Sequence[Point], gap: float, what: str) -> None:
    if len(points) != 4 or not all(math.isfinite(n) for p in points for n in p):
        raise PlacementError(f"The {what} need four points, each with numbers for both its coordinates.")
    for i in range(4):
        for j in range(i + 1, 4):
            if math.dist(points[i], points[j]) < gap:
                raise PlacementError(f"Two of the {what} are on the same spot: put each on its own corner "
                                     "of the table.")
    turns = _turns(points)
    scale = max(math.dist(points[0], points[2]), math.dist(points[1], points[3])) ** 2
    if not (all(t > 1e-9 * scale for t in turns) or all(t < -1e-9 * scale for t in turns)):
        raise PlacementError(f"The {what} cross over or lie on a line: put them on the table's corners in "
                             "turn (top left, top right, bottom right, bottom left), round the table.")


def four_point(source: Sequence[Point], target: Sequence[Point],
               gaps: tuple[float, float] = (MIN_TABLE_GAP, MIN_PICTURE_GAP)) -> Homography:
    """The homography that sends each of the four `source` points onto its `target` point.

    `gaps` are how close two points of each set may be (table inches and projector
    pixels by default). Refuses (PlacementError) four points of either set that
    are not a convex four-sided shape (two on one spot, three on a line, or
    crossed over), in a player's words. A mirrored projector (rear projection)
    goes round the other way, which is still a perspective.
    """
    _check_quad(source, gaps[0], "table corners")
    _check_quad(target, gaps[1], "crosshairs")
    # Two rows per pair of the 8x8 system A h = b (h8 = 1), solved by elimination with partial pivoting.
    rows: list[list[float]] = []
    for (x, y), (u, v) in zip(source, target, strict=True):
        rows.append([x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y, u])
        rows.append([0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y, v])
    for col in range(8):
        pivot = max(range(col, 8), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-12:
            raise PlacementError("These corners do not make a picture of the table: they lie on one line.")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col]
        for r in range(8):
            if r != col and rows[r][col] != 0.0:
                k = rows[r][col] / lead[col]
                rows[r] = [a - k * b for a, b in zip(rows[r], lead, strict=True)]
    h = [rows[i][8] / rows[i][i] for i in range(8)]
    return Homography((h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1.0))


__all__ = ["Homography", "Matrix", "four_point", "table_corners"]
