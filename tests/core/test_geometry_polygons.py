"""Polygons and polylines: inside (edges and corners count), crossings, depth through an area, distances."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battletracker.core import geometry
from battletracker.core.geometry import Box
from battletracker.core.geometry import bounding_box
from battletracker.core.geometry import distance_to_polyline
from battletracker.core.geometry import length_inside_polygon
from battletracker.core.geometry import point_in_polygon
from battletracker.core.geometry import segment_crosses_polygon
from battletracker.core.geometry import segment_crosses_polyline
from battletracker.core.geometry import segments_intersect

SQUARE = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
# A U opening upwards: the notch x 3..7, y 0..6 is outside.
U_SHAPE = [(0.0, 0.0), (3.0, 0.0), (3.0, 6.0), (7.0, 6.0), (7.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]

coords = st.floats(-20, 20, allow_nan=False).map(lambda v: round(v, 2))
points = st.tuples(coords, coords)


@pytest.mark.parametrize(("point", "inside"), [
    ((5.0, 5.0), True), ((0.0, 0.0), True), ((10.0, 10.0), True), ((5.0, 0.0), True), ((0.0, 7.0), True),
    ((10.0, 5.0), True), ((-0.01, 5.0), False), ((5.0, 10.01), False), ((20.0, 5.0), False)])
def test_a_point_on_an_edge_or_corner_is_inside(point: tuple[float, float], inside: bool) -> None:
    assert point_in_polygon(point, SQUARE) is inside


@pytest.mark.parametrize(("point", "inside"), [
    ((5.0, 3.0), False), ((5.0, 6.0), True), ((5.0, 8.0), True), ((1.5, 3.0), True), ((8.5, 1.0), True),
    ((3.0, 3.0), True), ((7.0, 0.0), True), ((5.0, -1.0), False)])
def test_a_concave_polygon_leaves_out_its_notch(point: tuple[float, float], inside: bool) -> None:
    assert point_in_polygon(point, U_SHAPE) is inside


def test_a_ray_through_a_corner_is_not_counted_twice() -> None:
    diamond = [(5.0, 0.0), (10.0, 5.0), (5.0, 10.0), (0.0, 5.0)]
    assert point_in_polygon((2.0, 5.0), diamond)
    assert not point_in_polygon((-2.0, 5.0), diamond)
    assert not point_in_polygon((12.0, 5.0), diamond)


def test_fewer_than_three_corners_hold_nothing() -> None:
    assert not point_in_polygon((0.0, 0.0), [(0.0, 0.0), (1.0, 1.0)])
    assert not segment_crosses_polygon((0.0, 0.0), (1.0, 1.0), [(0.0, 0.0), (1.0, 1.0)])
    assert length_inside_polygon((0.0, 0.0), (1.0, 1.0), []) == 0.0


@pytest.mark.parametrize(("p1", "p2", "q1", "q2", "meet"), [
    ((0, 0), (10, 10), (0, 10), (10, 0), True),          # crossing
    ((0, 0), (5, 5), (5, 5), (10, 0), True),             # touching at an end
    ((0, 0), (10, 0), (5, 0), (5, 5), True),             # an end on the other's middle
    ((0, 0), (10, 0), (5, 1), (5, 5), False),            # just short
    ((0, 0), (10, 0), (5, 0), (15, 0), True),            # collinear, overlapping
    ((0, 0), (10, 0), (10, 0), (15, 0), True),           # collinear, end to end
    ((0, 0), (10, 0), (11, 0), (15, 0), False),          # collinear, apart
    ((0, 0), (10, 0), (0, 1), (10, 1), False),           # parallel
    ((3, 0), (3, 0), (0, 0), (10, 0), True),             # a point on the segment
    ((3, 1), (3, 1), (0, 0), (10, 0), False),            # a point off it
])
def test_segments_meet_where_they_share_a_point(p1: tuple[float, float], p2: tuple[float, float],
                                                q1: tuple[float, float], q2: tuple[float, float], meet: bool) -> None:
    a, b, c, d = (tuple(map(float, p)) for p in (p1, p2, q1, q2))
    assert segments_intersect(a, b, c, d) is meet  # type: ignore[arg-type]
    assert segments_intersect(c, d, a, b) is meet  # type: ignore[arg-type]


def test_a_segment_crosses_a_polygon_when_any_point_of_it_is_inside() -> None:
    assert segment_crosses_polygon((-5.0, 5.0), (15.0, 5.0), SQUARE)
    assert segment_crosses_polygon((2.0, 2.0), (3.0, 3.0), SQUARE)      # wholly inside
    assert segment_crosses_polygon((-5.0, 0.0), (15.0, 0.0), SQUARE)    # along an edge
    assert not segment_crosses_polygon((5.0, 1.0), (5.0, 5.0), U_SHAPE)  # inside the notch
    assert not segment_crosses_polygon((-5.0, -1.0), (15.0, -1.0), SQUARE)


def test_the_depth_inside_counts_each_stretch_of_a_concave_polygon() -> None:
    assert length_inside_polygon((-5.0, 5.0), (15.0, 5.0), SQUARE) == pytest.approx(10.0)
    assert length_inside_polygon((2.0, 5.0), (15.0, 5.0), SQUARE) == pytest.approx(8.0)
    # Across the notch: 3" in, 4" out, 3" in.
    assert length_inside_polygon((-5.0, 3.0), (15.0, 3.0), U_SHAPE) == pytest.approx(6.0)
    # Through a corner only.
    assert length_inside_polygon((-5.0, 5.0), (5.0, -5.0), SQUARE) == pytest.approx(0.0)
    # Along an edge counts as inside.
    assert length_inside_polygon((-5.0, 0.0), (15.0, 0.0), SQUARE) == pytest.approx(10.0)


def test_distance_to_and_crossing_a_polyline() -> None:
    hedge = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)]
    assert distance_to_polyline((5.0, 3.0), hedge) == pytest.approx(3.0)
    assert distance_to_polyline((13.0, 5.0), hedge) == pytest.approx(3.0)
    assert distance_to_polyline((1.0, 1.0), [(4.0, 5.0)]) == pytest.approx(5.0)
    assert distance_to_polyline((1.0, 1.0), []) == math.inf
    assert segment_crosses_polyline((5.0, -5.0), (5.0, 5.0), hedge)
    assert segment_crosses_polyline((5.0, 5.0), (15.0, 5.0), hedge)
    assert not segment_crosses_polyline((5.0, 5.0), (9.0, 9.0), hedge)  # the open side is not closed
    assert segment_crosses_polyline((5.0, 0.0), (5.0, 5.0), hedge)      # starting on it


@given(points, points, st.lists(points, min_size=3, max_size=6))
def test_the_depth_is_the_same_either_way_and_never_more_than_the_line(a: tuple[float, float],
                                                                      b: tuple[float, float],
                                                                      polygon: list[tuple[float, float]]) -> None:
    there = length_inside_polygon(a, b, polygon)
    back = length_inside_polygon(b, a, polygon)
    assert there == pytest.approx(back, abs=1e-6)
    assert -1e-9 <= there <= math.dist(a, b) + 1e-9
    if there > 1e-6:
        assert segment_crosses_polygon(a, b, polygon)


@given(points, st.lists(points, min_size=3, max_size=6))
def test_inside_does_not_depend_on_the_direction_the_corners_go(p: tuple[float, float],
                                                                polygon: list[tuple[float, float]]) -> None:
    assert point_in_polygon(p, polygon) == point_in_polygon(p, polygon[::-1])


@given(points, points, st.lists(points, min_size=1, max_size=5))
def test_a_box_never_rejects_a_segment_that_meets_what_is_in_it(a: tuple[float, float], b: tuple[float, float],
                                                                shape: list[tuple[float, float]]) -> None:
    box = bounding_box(shape)
    if segment_crosses_polyline(a, b, shape) or segment_crosses_polygon(a, b, shape):
        assert box.meets_segment(a, b)


def test_a_box_grows_and_holds_its_edges() -> None:
    box = Box(0.0, 0.0, 2.0, 1.0)
    assert box.contains((2.0, 1.0)) and not box.contains((2.5, 1.0))
    assert box.grown(1.0).contains((2.5, 1.0))
    assert not box.meets_segment((3.0, -1.0), (3.0, 5.0))
    assert box.meets_segment((-1.0, 0.5), (3.0, 0.5))


grid = st.integers(-4, 14).map(float)  # whole inches: corners, collinear edges and ends on edges come up often


@given(st.tuples(grid, grid), st.tuples(grid, grid), st.lists(st.tuples(grid, grid), min_size=3, max_size=7))
def test_the_quick_count_agrees_with_cutting_at_every_edge_or_declines(a: tuple[float, float],
                                                                        b: tuple[float, float],
                                                                        polygon: list[tuple[float, float]]) -> None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1e-9:
        return
    quick = geometry.share_inside(geometry.edges_seen_from(a, geometry.polygon_edges(polygon)), dx, dy, length)
    if quick is not None:
        assert quick == pytest.approx(geometry._share_inside_exactly(a, dx, dy, polygon), abs=1e-9)


def test_the_quick_count_declines_a_line_through_a_corner_or_along_an_edge() -> None:
    edges = geometry.edges_seen_from((-5.0, -5.0), geometry.polygon_edges(SQUARE))
    assert geometry.share_inside(edges, 20.0, 20.0, math.hypot(20.0, 20.0)) is None   # through two corners
    edges = geometry.edges_seen_from((-5.0, 0.0), geometry.polygon_edges(SQUARE))
    assert geometry.share_inside(edges, 20.0, 0.0, 20.0) is None                       # along an edge
    edges = geometry.edges_seen_from((-5.0, 5.0), geometry.polygon_edges(SQUARE))
    assert geometry.share_inside(edges, 20.0, 0.0, 20.0) == pytest.approx(0.5)


def test_a_line_along_a_flat_outline_is_inside_only_where_it_runs_along_it() -> None:
    # A wood drawn with no area (its corners in a row): the line from 20" to 25" runs along it from 22" to 25".
    assert geometry.length_inside_polygon((20.0, 15.0), (25.0, 15.0), [(22.0, 15.0), (22.0, 15.0), (25.0, 15.0)]) \
        == pytest.approx(3.0)
    assert geometry.length_inside_polygon((20.0, 15.0), (30.0, 15.0), [(22.0, 15.0), (24.0, 15.0), (25.0, 15.0)]) \
        == pytest.approx(3.0)


@given(st.one_of(st.tuples(st.tuples(grid, grid), st.tuples(grid, grid)), st.tuples(points, points)),
       st.one_of(st.lists(st.tuples(grid, grid), min_size=3, max_size=8), st.lists(points, min_size=3, max_size=8)))
def test_the_hull_clip_bounds_the_depth_and_is_the_depth_through_a_convex_polygon(
        ends: tuple[tuple[float, float], tuple[float, float]], polygon: list[tuple[float, float]]) -> None:
    a, b = ends
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    sides = geometry.hull_sides(polygon)
    if length < 1e-9 or not sides:
        return
    share = geometry.share_inside_sides(geometry.sides_seen_from(a, sides), dx, dy, length)
    if share is None:
        return  # declined: a side runs along the line
    # concave, self-crossing, lines through corners and along edges: never less than the exact depth
    assert share * length >= length_inside_polygon(a, b, polygon) - 1e-7
    # through the hull itself (convex) the clip is the exact depth
    assert share * length == pytest.approx(length_inside_polygon(a, b, geometry.convex_hull(polygon)), abs=1e-7)


def test_the_hull_of_a_concave_outline_fills_its_notch() -> None:
    assert sorted(geometry.convex_hull(U_SHAPE)) == sorted(SQUARE)
    sides = geometry.hull_sides(U_SHAPE)
    share = geometry.share_inside_sides(geometry.sides_seen_from((5.0, -5.0), sides), 0.0, 20.0, 20.0)
    assert share == pytest.approx(0.5)   # 10" through the hull, 4" through the U itself
    assert length_inside_polygon((5.0, -5.0), (5.0, 15.0), U_SHAPE) == pytest.approx(4.0)
    parallel = geometry.share_inside_sides(geometry.sides_seen_from((-5.0, 0.0), sides), 20.0, 0.0, 20.0)
    assert parallel is None


def _meets_any_edge_slowly(a: tuple[float, float], b: tuple[float, float], points_: list[tuple[float, float]],
                           closed: bool) -> bool:
    edges = list(zip(points_, points_[1:], strict=False)) + ([(points_[-1], points_[0])] if closed else [])
    return any(segments_intersect(a, b, p, q) for p, q in edges)


@given(st.one_of(st.tuples(st.tuples(grid, grid), st.tuples(grid, grid)), st.tuples(points, points)),
       st.one_of(st.lists(st.tuples(grid, grid), min_size=2, max_size=7), st.lists(points, min_size=2, max_size=7)))
def test_crossing_a_polyline_or_polygon_is_meeting_one_of_its_edges(
        ends: tuple[tuple[float, float], tuple[float, float]], outline: list[tuple[float, float]]) -> None:
    a, b = ends
    assert segment_crosses_polyline(a, b, outline) == _meets_any_edge_slowly(a, b, outline, closed=False)
    if len(outline) >= 3:
        slow = point_in_polygon(a, outline) or point_in_polygon(b, outline) or \
            _meets_any_edge_slowly(a, b, outline, closed=True)
        assert segment_crosses_polygon(a, b, outline) == slow


def _crosses_frame_slowly(a: tuple[float, float], b: tuple[float, float], frame: geometry.Frame) -> bool:
    """The rectangle clip one pair of sides at a time, in a loop."""
    cx, cy, rx, ry, lx, ly, hw, hd = frame
    ax, ay, bx, by = a[0] - cx, a[1] - cy, b[0] - cx, b[1] - cy
    u0, v0 = ax * rx + ay * ry, ax * lx + ay * ly
    du, dv = bx * rx + by * ry - u0, bx * lx + by * ly - v0
    t0, t1 = 0.0, 1.0
    for start, delta, half in ((u0, du, hw + geometry.EPSILON), (v0, dv, hd + geometry.EPSILON)):
        if delta == 0.0:
            if not -half <= start <= half:
                return False
            continue
        e0, e1 = sorted(((-half - start) / delta, (half - start) / delta))
        t0, t1 = max(t0, e0), min(t1, e1)
        if t0 > t1:
            return False
    return True


@given(st.one_of(st.tuples(st.tuples(grid, grid), st.tuples(grid, grid)), st.tuples(points, points)),
       st.tuples(grid, grid), st.integers(1, 6).map(float), st.integers(1, 6).map(float),
       st.sampled_from([0.0, 30.0, 45.0, 90.0, 200.0]))
def test_crossing_a_rectangle_is_clipping_it_side_by_side(ends: tuple[tuple[float, float], tuple[float, float]],
                                                          centre: tuple[float, float], width: float, depth: float,
                                                          facing: float) -> None:
    a, b = ends
    frame = geometry.Frame.of(centre, width, depth, facing)
    assert geometry.segment_crosses_frame(a, b, frame) == _crosses_frame_slowly(a, b, frame)


def _distance_to_polyline_slowly(p: tuple[float, float], line: list[tuple[float, float]]) -> float:
    return min(geometry.distance_to_segment(a, b, p) for a, b in zip(line, line[1:], strict=False))


def _point_in_polygon_slowly(p: tuple[float, float], polygon: list[tuple[float, float]]) -> bool:
    """Even-odd crossings, and on an edge (within EPSILON) counts: the rule `point_in_polygon` keeps."""
    if any(geometry.distance_to_segment(a, b, p) <= geometry.EPSILON
           for a, b in zip(polygon, polygon[1:] + polygon[:1], strict=True)):
        return True
    inside = False
    for (xi, yi), (xj, yj) in zip(polygon, polygon[-1:] + polygon[:-1], strict=True):
        if (yi > p[1]) != (yj > p[1]) and p[0] < (xj - xi) * (p[1] - yi) / (yj - yi) + xi:
            inside = not inside
    return inside


@given(st.one_of(st.tuples(grid, grid), points),
       st.one_of(st.lists(st.tuples(grid, grid), min_size=3, max_size=7), st.lists(points, min_size=3, max_size=7)))
def test_inside_and_distance_written_out_are_the_edge_by_edge_answers(
        p: tuple[float, float], outline: list[tuple[float, float]]) -> None:
    assert point_in_polygon(p, outline) == _point_in_polygon_slowly(p, outline)
    assert distance_to_polyline(p, outline) == _distance_to_polyline_slowly(p, outline)


@given(st.one_of(st.lists(st.tuples(grid, grid), min_size=3, max_size=8), st.lists(points, min_size=3, max_size=8)),
       st.integers(0, 7), st.booleans())
def test_an_outline_is_its_hull_when_convex_from_any_corner_either_way_round(
        outline: list[tuple[float, float]], start: int, backwards: bool) -> None:
    hull = geometry.convex_hull(outline)
    assert geometry.convex_sides(hull) == geometry.hull_sides(outline)
    if len(hull) >= 3:
        k = start % len(hull)
        turned = hull[k:] + hull[:k]
        assert geometry.is_outline_of(turned[::-1] if backwards else turned, hull)
    rotations = [turn[k:] + turn[:k] for turn in (hull, hull[::-1]) for k in range(len(hull))]
    assert geometry.is_outline_of(outline, hull) == (outline in rotations)


def test_a_concave_outline_is_not_its_hull() -> None:
    assert not geometry.is_outline_of(U_SHAPE, geometry.convex_hull(U_SHAPE))
    assert geometry.is_outline_of(SQUARE[2:] + SQUARE[:2], geometry.convex_hull(SQUARE))
    assert geometry.is_outline_of(SQUARE[::-1], geometry.convex_hull(SQUARE))


@pytest.mark.parametrize(("outline", "flat"), [
    ([(0.0, 5.0), (9.0, 5.0), (4.0, 5.0)], True),                  # three clicks on one row of the screen
    ([(0.0, 0.0), (1.0, 1.0), (3.0, 3.0), (2.0, 2.0)], True),      # back and forth along a diagonal
    ([(0.0, 0.0), (0.0, 0.0), (0.0, 0.0)], True),
    ([(1.0, 1.0), (1.01, 1.0), (1.0, 1.01)], True),                # a crumb smaller than the tolerance
    ([(0.0, 5.0), (9.0, 5.0), (4.0, 5.04)], True),
    ([(0.0, 5.0), (9.0, 5.0), (4.0, 5.2)], False),                 # a thin sliver is still an area
    (SQUARE, False),
    (U_SHAPE, False),
])
def test_corners_in_one_line_within_the_tolerance_make_no_area(outline: list[tuple[float, float]],
                                                                 flat: bool) -> None:
    assert geometry.in_one_line(outline, 0.05) is flat
    assert geometry.in_one_line(outline[::-1], 0.05) is flat
