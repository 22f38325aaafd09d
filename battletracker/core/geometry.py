"""Table geometry in inches and degrees, shared by the rules and the map.

Coordinates: x to the right, y down from the table's top edge (as the map
draws it). Facing and bearings are degrees clockwise from "towards the top
edge": 0 points up the table, 90 to the right, 180 down, 270 to the left.
The map draws with these same functions, so what it shows is what the rules
compute.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from collections.abc import Sequence
from typing import NamedTuple
from typing import TypeVar

Point = tuple[float, float]
K = TypeVar("K")

EPSILON = 1e-9
_hypot = math.hypot

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
    return segment_crosses_frame(a, b, Frame.of(centre, width, depth, facing))


class Frame(NamedTuple):
    """A turned rectangle in its own axes: centre, unit vectors across and along, half width and half depth."""

    cx: float
    cy: float
    across_x: float
    across_y: float
    along_x: float
    along_y: float
    half_width: float
    half_depth: float

    @classmethod
    def of(cls, centre: Point, width: float, depth: float, facing: float = 0.0) -> Frame:
        across = direction(facing + 90.0)
        along = direction(facing)
        return cls(centre[0], centre[1], across[0], across[1], along[0], along[1], width / 2.0, depth / 2.0)


def segment_crosses_frame(a: Point, b: Point, frame: Frame) -> bool:
    """Whether a-b has a point within EPSILON of the rectangle (measured along its axes), ends included.

    The segment is turned into the rectangle's axes and clipped to it, one
    pair of sides at a time (written out twice: every line of fire near a
    building or smoke comes here).
    """
    cx, cy, rx, ry, lx, ly, hw, hd = frame
    ax, ay = a[0] - cx, a[1] - cy
    bx, by = b[0] - cx, b[1] - cy
    u0, v0 = ax * rx + ay * ry, ax * lx + ay * ly
    du, dv = bx * rx + by * ry - u0, bx * lx + by * ly - v0
    half = hw + EPSILON
    if du == 0.0:
        if not -half <= u0 <= half:
            return False
        t0, t1 = 0.0, 1.0
    else:
        e0, e1 = (-half - u0) / du, (half - u0) / du
        if e0 > e1:
            e0, e1 = e1, e0
        t0, t1 = max(0.0, e0), min(1.0, e1)
        if t0 > t1:
            return False
    half = hd + EPSILON
    if dv == 0.0:
        return -half <= v0 <= half
    e0, e1 = (-half - v0) / dv, (half - v0) / dv
    if e0 > e1:
        e0, e1 = e1, e0
    return max(t0, e0) <= min(t1, e1)


# polygons and polylines (terrain pieces) ------------------------------------------------------------------
#
# A polygon is its corners in order (either way round), closed from the last
# back to the first; a polyline is its points in order, not closed. Points on
# a polygon's edge or corner count as inside it, as a figure standing on the
# edge of a wood is in it; every function below follows that one convention.


def _cross(o: Point, s: Point, t: Point) -> float:
    return (s[0] - o[0]) * (t[1] - o[1]) - (s[1] - o[1]) * (t[0] - o[0])


def segments_intersect(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether the segments p1-p2 and q1-q2 share a point: crossing, touching at an end, or overlapping.

    Collinear segments meet only where they overlap; a segment of zero length
    is a point, and meets a segment it lies on. Touching means within
    EPSILON inches.
    """
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    reach = EPSILON * math.hypot(q2[0] - q1[0], q2[1] - q1[1])
    if (d1 > reach and d2 > reach) or (d1 < -reach and d2 < -reach):
        return False  # p1-p2 lies wholly on one side of the line through q1-q2, further than EPSILON
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    reach = EPSILON * math.hypot(p2[0] - p1[0], p2[1] - p1[1])
    if (d3 > reach and d4 > reach) or (d3 < -reach and d4 < -reach):
        return False
    if ((d1 > EPSILON and d2 < -EPSILON) or (d1 < -EPSILON and d2 > EPSILON)) and \
            ((d3 > EPSILON and d4 < -EPSILON) or (d3 < -EPSILON and d4 > EPSILON)):
        return True
    return (distance_to_segment(q1, q2, p1) <= EPSILON or distance_to_segment(q1, q2, p2) <= EPSILON
            or distance_to_segment(p1, p2, q1) <= EPSILON or distance_to_segment(p1, p2, q2) <= EPSILON)


def point_in_polygon(point: Point, polygon: Sequence[Point]) -> bool:
    """Inside the polygon or on its edge (within EPSILON; corners included); concave polygons are fine.

    Fewer than three corners make no area: nothing is inside. The distance
    to an edge near the point is `distance_to_segment`'s sums written out:
    every target and firer is tested against every wood it stands near.
    """
    n = len(polygon)
    if n < 3:
        return False
    x, y = point
    inside = False
    xj, yj = polygon[-1]
    for xi, yi in polygon:
        if (xi if xi < xj else xj) - EPSILON <= x <= (xj if xi < xj else xi) + EPSILON \
                and (yi if yi < yj else yj) - EPSILON <= y <= (yj if yi < yj else yi) + EPSILON:
            dx, dy = xj - xi, yj - yi
            length2 = dx * dx + dy * dy
            if length2 < EPSILON:
                near = _hypot(x - xi, y - yi)
            else:
                t = ((x - xi) * dx + (y - yi) * dy) / length2
                t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
                near = _hypot(x - (xi + t * dx), y - (yi + t * dy))
            if near <= EPSILON:
                return True
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        xj, yj = xi, yi
    return inside


def in_one_line(points: Sequence[Point], tolerance: float) -> bool:
    """Whether every point lies within `tolerance` inches of one straight line: an outline with no inside.

    The line joins the two points farthest apart (near enough: the point
    farthest from any point, and the point farthest from that one), so it
    runs along the points however they were clicked.
    """
    if len(points) < 3:
        return True
    a = max(points, key=lambda p: distance(points[0], p))
    b = max(points, key=lambda p: distance(a, p))
    length = distance(a, b)
    return length <= tolerance or all(abs(_cross(a, b, p)) <= tolerance * length for p in points)


def _edges(points: Sequence[Point], closed: bool) -> list[tuple[Point, Point]]:
    n = len(points)
    pairs = [(points[i], points[i + 1]) for i in range(n - 1)]
    if closed and n >= 3:
        pairs.append((points[-1], points[0]))
    return pairs


def segment_crosses_polyline(a: Point, b: Point, polyline: Sequence[Point]) -> bool:
    """Whether the segment a-b meets the polyline anywhere (touching counts)."""
    if not polyline:
        return False
    if len(polyline) == 1:
        return distance_to_segment(a, b, polyline[0]) <= EPSILON
    return _meets_any_edge(a, b, polyline, closed=False)


def segment_crosses_polygon(a: Point, b: Point, polygon: Sequence[Point]) -> bool:
    """Whether the segment a-b has any point inside the polygon or on its edge."""
    if len(polygon) < 3:
        return False
    if point_in_polygon(a, polygon) or point_in_polygon(b, polygon):
        return True
    return _meets_any_edge(a, b, polygon, closed=True)


def _meets_any_edge(a: Point, b: Point, points: Sequence[Point], closed: bool) -> bool:
    """`segments_intersect` with each edge, its clear cases decided here with its own sums.

    An edge wholly to one side of a-b is passed over, as is one with a-b
    wholly to one side of it; a clean crossing (each strictly across the
    other) meets. Only the rest (touching, within EPSILON) call
    `segments_intersect`. This runs for every line of fire against every
    hedge and wall it comes near, so the function calls are saved.
    """
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    reach = EPSILON * math.hypot(dx, dy)
    qx, qy = points[-1] if closed else points[0]
    for px, py in points if closed else points[1:]:
        d3 = dx * (qy - ay) - dy * (qx - ax)
        d4 = dx * (py - ay) - dy * (px - ax)
        if (d3 > reach and d4 > reach) or (d3 < -reach and d4 < -reach):
            qx, qy = px, py
            continue
        ex, ey = px - qx, py - qy
        d1 = ex * (ay - qy) - ey * (ax - qx)
        d2 = ex * (by - qy) - ey * (bx - qx)
        if ((d1 > EPSILON and d2 < -EPSILON) or (d1 < -EPSILON and d2 > EPSILON)) and \
                ((d3 > EPSILON and d4 < -EPSILON) or (d3 < -EPSILON and d4 > EPSILON)):
            return True  # each strictly across the other: neither is wholly to one side
        edge_reach = EPSILON * math.hypot(ex, ey)
        if not ((d1 > edge_reach and d2 > edge_reach) or (d1 < -edge_reach and d2 < -edge_reach)) \
                and segments_intersect(a, b, (qx, qy), (px, py)):
            return True
        qx, qy = px, py
    return False


def length_inside_polygon(a: Point, b: Point, polygon: Sequence[Point]) -> float:
    """How many inches of the segment a-b lie inside the polygon (a sight line's depth through a wood).

    Concave polygons and lines that leave and re-enter are measured right;
    running along an edge counts as inside.
    """
    if len(polygon) < 3:
        return 0.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < EPSILON:
        return 0.0
    share = share_inside(edges_seen_from(a, polygon_edges(polygon)), dx, dy, length)
    if share is None:
        share = _share_inside_exactly(a, dx, dy, polygon)
    return share * length


_CLEARANCE = 1e-7
"""Inches a crossing must clear every corner, and the segment's ends, for the quick count to decide."""

Edge = tuple[float, float, float, float, float, float, float]
SeenEdge = tuple[float, float, float, float, float, float, float]


def polygon_edges(polygon: Sequence[Point]) -> list[Edge]:
    """The polygon's edges as `edges_seen_from` takes them: kept with a piece to ask about many lines."""
    out: list[Edge] = []
    qx, qy = polygon[-1]
    for px, py in polygon:
        ex, ey = px - qx, py - qy
        edge = math.hypot(ex, ey)
        if edge > 0.0:
            out.append((qx, qy, ex, ey, qx * ey - qy * ex, 1e-12 * edge, _CLEARANCE / edge))
        qx, qy = px, py
    return out


def edges_seen_from(a: Point, edges: Sequence[Edge]) -> list[SeenEdge]:
    """The edges ready for `share_inside` from `a`: kept to ask about many lines from one point."""
    ax, ay = a
    return [(x - ax, y - ay, ex, ey, c - (ax * ey - ay * ex), tiny, clear) for x, y, ex, ey, c, tiny, clear in edges]


def share_inside(edges: Sequence[SeenEdge], dx: float, dy: float, length: float) -> float | None:
    """The share of the segment from the edges' point `a` to a + (dx, dy) that lies inside the polygon.

    The ray from `a` through the segment's end crosses the edges an odd
    number of times exactly when `a` is inside, and each crossing switches
    inside and outside. None when a crossing comes near a corner or an end,
    or an edge runs along the line: `length_inside_polygon` then cuts the
    segment at every edge and tests each piece.
    """
    crossings: list[float] = []
    clear_t = _CLEARANCE / length
    for wx, wy, ex, ey, n, tiny, clear_u in edges:
        denom = dx * ey - dy * ex
        if -tiny * length <= denom <= tiny * length:
            if abs(wx * dy - wy * dx) <= _CLEARANCE * length:
                return None  # the edge lies along the line
            continue
        t = n / denom
        if t > -clear_t:
            u = (wx * dy - wy * dx) / denom
            if -clear_u < u < 1.0 + clear_u:
                if t < clear_t or -clear_t < t - 1.0 < clear_t or u < clear_u or u > 1.0 - clear_u:
                    return None
                crossings.append(t)
    if not crossings:
        return 0.0
    crossings.sort()
    inside = len(crossings) % 2 == 1
    share, last = 0.0, 0.0
    for t in crossings:
        if t >= 1.0:
            break
        if inside:
            share += t - last
        inside, last = not inside, t
    if inside:
        share += 1.0 - last
    return share


def _share_inside_exactly(a: Point, dx: float, dy: float, polygon: Sequence[Point]) -> float:
    """The share of a-(a + d) inside: cut where it crosses an edge, each piece's midpoint tested."""
    cuts = [0.0, 1.0]
    for p, q in _edges(polygon, closed=True):
        ex, ey = q[0] - p[0], q[1] - p[1]
        denom = dx * ey - dy * ex
        if abs(denom) < EPSILON:
            # An edge along the line: the line goes in or out of the polygon only at the edge's ends.
            if abs((p[0] - a[0]) * dy - (p[1] - a[1]) * dx) <= EPSILON * math.hypot(dx, dy):
                cuts.extend(t for t in (_along(a, dx, dy, p), _along(a, dx, dy, q)) if 0.0 < t < 1.0)
            continue
        t = ((p[0] - a[0]) * ey - (p[1] - a[1]) * ex) / denom
        u = ((p[0] - a[0]) * dy - (p[1] - a[1]) * dx) / denom
        if 0.0 < t < 1.0 and -EPSILON <= u <= 1.0 + EPSILON:
            cuts.append(t)
    cuts.sort()
    inside = 0.0
    for t0, t1 in zip(cuts, cuts[1:], strict=False):
        if t1 - t0 <= 0.0:
            continue
        mid = (t0 + t1) / 2.0
        if point_in_polygon((a[0] + dx * mid, a[1] + dy * mid), polygon):
            inside += t1 - t0
    return inside


def _along(a: Point, dx: float, dy: float, p: Point) -> float:
    """Where the point `p`, on the line, falls along a-(a + d), as a share of it."""
    return ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)


Side = tuple[float, float, float, float]
SeenSide = tuple[float, float, float, float]


def convex_hull(points: Iterable[Point]) -> list[Point]:
    """The corners of the smallest convex polygon holding every point, anticlockwise, without straight corners."""
    ordered = sorted(set(points))
    if len(ordered) < 3:
        return ordered

    def chain(run: Sequence[Point]) -> list[Point]:
        out: list[Point] = []
        for p in run:
            px, py = p
            while len(out) >= 2:
                (ox, oy), (sx, sy) = out[-2], out[-1]
                if not (sx - ox) * (py - oy) - (sy - oy) * (px - ox) <= 0.0:
                    break
                out.pop()
            out.append(p)
        return out

    return chain(ordered)[:-1] + chain(ordered[::-1])[:-1]


def hull_sides(points: Sequence[Point]) -> list[Side]:
    """The sides of the points' convex hull as half-planes (nx, ny, h, tiny): inside where nx*x + ny*y <= h.

    `tiny` is how small `share_inside_sides` takes the normal's product with a line to be, per inch of it
    (a millionth of a radian off the side's direction).
    """
    return convex_sides(convex_hull(points))


def convex_sides(hull: Sequence[Point]) -> list[Side]:
    """`hull_sides` of a hull `convex_hull` gave: for a piece whose hull is kept anyway."""
    if len(hull) < 3:
        return []
    out: list[Side] = []
    qx, qy = hull[-1]
    for px, py in hull:
        nx, ny = py - qy, qx - px
        out.append((nx, ny, nx * qx + ny * qy, 1e-6 * math.hypot(nx, ny)))
        qx, qy = px, py
    return out


def is_outline_of(points: Sequence[Point], hull: Sequence[Point]) -> bool:
    """Whether the outline `points` is the convex `hull` itself, either way round from any corner (convex)."""
    n = len(hull)
    if len(points) != n or n == 0:
        return False
    outline = tuple(points)
    for turn in (list(hull), list(hull[::-1])):
        try:
            k = turn.index(outline[0])
        except ValueError:
            return False
        if outline == tuple(turn[k:] + turn[:k]):
            return True
    return False


def sides_seen_from(a: Point, sides: Sequence[Side]) -> list[SeenSide]:
    """The sides ready for `share_inside_sides` from `a`: kept to ask about many lines from one point."""
    ax, ay = a
    return [(nx, ny, nx * ax + ny * ay - h, tiny) for nx, ny, h, tiny in sides]


def share_inside_sides(sides: Sequence[SeenSide], dx: float, dy: float, length: float) -> float | None:
    """The share of the segment from the sides' point `a` to a + (dx, dy) inside their convex polygon.

    Clipped one side at a time (Cyrus-Beck): a few sums a side, no sorting,
    and done as soon as nothing is left. As the hull holds its polygon, this
    bounds the polygon's own share from above (and is it, for a convex
    polygon), to far better than a millionth of an inch. A line within a
    millionth of a radian of a side's direction is not divided by: it stays
    on one side of it (clearly out: nothing inside; clearly in: the side does
    not cut it), or, running along it, the answer is None.
    """
    t0, t1 = 0.0, 1.0
    for nx, ny, c, tiny in sides:
        den = nx * dx + ny * dy
        limit = tiny * length
        if den < -limit:
            t = -c / den
            if t > t0:
                if t >= t1:
                    return 0.0
                t0 = t
        elif den > limit:
            t = -c / den
            if t < t1:
                if t <= t0:
                    return 0.0
                t1 = t
        elif c > 2.0 * limit:
            return 0.0
        elif c >= -2.0 * limit:
            return None
    return t1 - t0


def distance_to_polyline(point: Point, polyline: Sequence[Point]) -> float:
    """Shortest distance from the point to the polyline (to its only point when it has one).

    Each segment's distance is `distance_to_segment`'s sums written out: every
    target is measured to every hedge and wall near it.
    """
    if not polyline:
        return math.inf
    if len(polyline) == 1:
        return distance(point, polyline[0])
    x, y = point
    best = math.inf
    ax, ay = polyline[0]
    for bx, by in polyline[1:]:
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        if length2 < EPSILON:
            d = _hypot(x - ax, y - ay)
        else:
            t = ((x - ax) * dx + (y - ay) * dy) / length2
            t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
            d = _hypot(x - (ax + t * dx), y - (ay + t * dy))
        if d < best:
            best = d
        ax, ay = bx, by
    return best


class Box(NamedTuple):
    """An axis-aligned bounding box: cheap rejection before the exact tests."""

    left: float
    top: float
    right: float
    bottom: float

    def grown(self, margin: float) -> Box:
        return Box(self.left - margin, self.top - margin, self.right + margin, self.bottom + margin)

    def contains(self, point: Point) -> bool:
        return self.left <= point[0] <= self.right and self.top <= point[1] <= self.bottom

    def meets_segment(self, a: Point, b: Point) -> bool:
        """Whether the segment a-b may touch the box (exact for boxes: a slab test)."""
        t0, t1 = 0.0, 1.0
        for start, delta, low, high in ((a[0], b[0] - a[0], self.left, self.right),
                                        (a[1], b[1] - a[1], self.top, self.bottom)):
            if abs(delta) < EPSILON:
                if start < low - EPSILON or start > high + EPSILON:
                    return False
                continue
            u0, u1 = (low - start) / delta, (high - start) / delta
            if u0 > u1:
                u0, u1 = u1, u0
            t0, t1 = max(t0, u0), min(t1, u1)
            if t0 > t1 + EPSILON:
                return False
        return True


def bounding_box(points: Iterable[Point]) -> Box:
    """The smallest box holding every point (a ValueError for no points)."""
    xs, ys = zip(*points, strict=True)
    return Box(min(xs), min(ys), max(xs), max(ys))
