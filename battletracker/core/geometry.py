"""Table geometry in inches and degrees, shared by the rules and the map.

Coordinates: x to the right, y down from the table's top edge (as the map
draws it). Facing and bearings are degrees clockwise from "towards the top
edge": 0 points up the table, 90 to the right, 180 down, 270 to the left.
The map draws with these same functions, so what it shows is what the rules
compute.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TypeVar

Point = tuple[float, float]
K = TypeVar("K")

EPSILON = 1e-9

EDGE_DIRECTIONS: dict[str, float] = {"up": 0.0, "right": 90.0, "down": 180.0, "left": 270.0}


def distance(a: Point, b: Point) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


def normalise(angle: float) -> float:
    """An angle in [0, 360)."""
    a = angle % 360.0
    return 0.0 if math.isclose(a, 360.0) else a


def angle_between(a: float, b: float) -> float:
    """The smaller angle between two bearings, in [0, 180]."""
    d = abs(normalise(a) - normalise(b))
    return 360.0 - d if d > 180.0 else d


def bearing(origin: Point, target: Point) -> float:
    """Bearing from `origin` to `target`, clockwise from the top edge (0 for the same point)."""
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    if dx == 0 and dy == 0:
        return 0.0
    return normalise(math.degrees(math.atan2(dx, -dy)))


def direction(angle: float) -> Point:
    """Unit vector for a bearing."""
    r = math.radians(angle)
    return (math.sin(r), -math.cos(r))


def offset(origin: Point, angle: float, dist: float) -> Point:
    """The point `dist` inches from `origin` along bearing `angle` (a deviation)."""
    dx, dy = direction(angle)
    return (origin[0] + dx * dist, origin[1] + dy * dist)



def in_arc(origin: Point, facing: float, half_angle: float | None, target: Point) -> bool:
    """Whether `target` lies within `half_angle` either side of `facing` (edges included).

    None means all round. A target on the origin is inside.
    """
    if half_angle is None or half_angle >= 180.0:
        return True
    if distance(origin, target) < EPSILON:
        return True
    return angle_between(bearing(origin, target), facing) <= half_angle + EPSILON


def aspect(firer: Point, target: Point, target_facing: float, front_half_angle: float = 45.0,
           rear_half_angle: float = 45.0) -> str:
    """Which face of the target a shot from `firer` strikes: "front", "side" or "rear".

    The front face covers `front_half_angle` either side of the target's
    facing, the rear the same either side of its back; the rest is side.
    A shot exactly on a boundary counts as the face nearer the front.
    """
    towards_firer = bearing(target, firer)
    off = angle_between(towards_firer, target_facing)
    if off <= front_half_angle + EPSILON:
        return "front"
    if off <= 180.0 - rear_half_angle + EPSILON:
        return "side"
    return "rear"


def in_radius(centre: Point, radius: float, point: Point) -> bool:
    """Inside a burst, blast or circle, the edge included (2" away is inside a 2" burst)."""
    return distance(centre, point) <= radius + EPSILON


def within_burst(centre: Point, radius: float, points: Iterable[tuple[K, Point]]) -> list[K]:
    """The keys of the points inside the circle, in the order given."""
    return [key for key, p in points if in_radius(centre, radius, p)]


def distance_to_segment(a: Point, b: Point, p: Point) -> float:
    """Shortest distance from `p` to the segment a-b (the line of fire)."""
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 < EPSILON:
        return distance(a, p)
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return distance((ax + t * dx, ay + t * dy), p)


def along_line(a: Point, b: Point, p: Point) -> float:
    """How far along a-b (in inches from `a`) the foot of `p` falls."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < EPSILON:
        return 0.0
    return ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length


def corridor(a: Point, b: Point, width: float, points: Iterable[tuple[K, Point]]) -> list[K]:
    """Keys of points within `width` of the segment a-b, closest to `a` first.

    Necromunda stray shots: every model within 1" of the line along which range
    was measured, starting with the one closest to the attacker.
    """
    inside = [(distance(a, p), key) for key, p in points if distance_to_segment(a, b, p) <= width + EPSILON]
    inside.sort(key=lambda pair: pair[0])
    return [key for _, key in inside]


def step_parallel(point: Point, edge_direction: str, dist: float) -> Point:
    """Move a point `dist` inches parallel with a table edge ("up", "down", "left", "right")."""
    try:
        angle = EDGE_DIRECTIONS[edge_direction]
    except KeyError:
        raise ValueError(f"{edge_direction!r} is not a direction along a table edge "
                         f"({', '.join(EDGE_DIRECTIONS)})") from None
    return offset(point, angle, dist)


def range_band(dist: float, bands: Sequence[float]) -> int | None:
    """Index of the range band `dist` falls in (edges belong to the nearer band); None beyond the last."""
    for i, edge in enumerate(bands):
        if dist <= edge + EPSILON:
            return i
    return None


def on_table(point: Point, width: float, height: float) -> bool:
    return -EPSILON <= point[0] <= width + EPSILON and -EPSILON <= point[1] <= height + EPSILON


def rectangle_corners(centre: Point, width: float, depth: float, facing: float = 0.0) -> list[Point]:
    """Corners of a `width` x `depth` rectangle centred on `centre`, turned `facing` degrees clockwise.

    At facing 0 the width runs left-right and the depth up-down the table; the
    corners go clockwise from the top left, ready for the map to draw.
    """
    across = direction(facing + 90.0)
    along = direction(facing)
    hw, hd = width / 2.0, depth / 2.0
    out: list[Point] = []
    for sx, sy in ((-1.0, 1.0), (1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)):
        out.append((centre[0] + across[0] * hw * sx + along[0] * hd * sy,
                    centre[1] + across[1] * hw * sx + along[1] * hd * sy))
    return out


def in_rectangle(centre: Point, width: float, depth: float, facing: float, point: Point) -> bool:
    """Inside a turned rectangle (a bombardment area, a building's footprint), the edge included."""
    dx, dy = point[0] - centre[0], point[1] - centre[1]
    across = direction(facing + 90.0)
    along = direction(facing)
    u = dx * across[0] + dy * across[1]
    v = dx * along[0] + dy * along[1]
    return abs(u) <= width / 2.0 + EPSILON and abs(v) <= depth / 2.0 + EPSILON


def segment_crosses_rectangle(a: Point, b: Point, centre: Point, width: float, depth: float,
                              facing: float = 0.0) -> bool:
    """Whether the line of fire a-b passes through (or touches) a turned rectangle (smoke, a ruin)."""
    if in_rectangle(centre, width, depth, facing, a) or in_rectangle(centre, width, depth, facing, b):
        return True
    corners = rectangle_corners(centre, width, depth, facing)
    return any(_segments_meet(a, b, corners[i], corners[(i + 1) % 4]) for i in range(4))


def _segments_meet(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    def cross(o: Point, s: Point, t: Point) -> float:
        return (s[0] - o[0]) * (t[1] - o[1]) - (s[1] - o[1]) * (t[0] - o[0])

    d1, d2 = cross(q1, q2, p1), cross(q1, q2, p2)
    d3, d4 = cross(p1, p2, q1), cross(p1, p2, q2)
    if ((d1 > EPSILON and d2 < -EPSILON) or (d1 < -EPSILON and d2 > EPSILON)) and \
            ((d3 > EPSILON and d4 < -EPSILON) or (d3 < -EPSILON and d4 > EPSILON)):
        return True
    return (distance_to_segment(q1, q2, p1) <= EPSILON or distance_to_segment(q1, q2, p2) <= EPSILON
            or distance_to_segment(p1, p2, q1) <= EPSILON or distance_to_segment(p1, p2, q2) <= EPSILON)
