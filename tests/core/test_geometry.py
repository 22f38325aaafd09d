"""Table geometry: facing conventions, arcs, aspects, deviation, bursts and lines of fire."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battletracker.core.geometry import along_line
from battletracker.core.geometry import angle_between
from battletracker.core.geometry import aspect
from battletracker.core.geometry import bearing
from battletracker.core.geometry import corridor
from battletracker.core.geometry import direction
from battletracker.core.geometry import distance
from battletracker.core.geometry import distance_to_segment
from battletracker.core.geometry import in_arc
from battletracker.core.geometry import in_radius
from battletracker.core.geometry import normalise
from battletracker.core.geometry import offset
from battletracker.core.geometry import on_table
from battletracker.core.geometry import range_band
from battletracker.core.geometry import step_parallel
from battletracker.core.geometry import within_burst

ORIGIN = (10.0, 10.0)


def at(angle: float, dist: float, origin: tuple[float, float] = ORIGIN) -> tuple[float, float]:
    """A point at a bearing, computed independently of geometry.offset."""
    r = math.radians(angle)
    return (origin[0] + dist * math.sin(r), origin[1] - dist * math.cos(r))


def close(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return math.isclose(a[0], b[0], abs_tol=1e-9) and math.isclose(a[1], b[1], abs_tol=1e-9)


# -- conventions ------------------------------------------------------------------------------


def test_facing_zero_is_towards_the_top_edge_and_angles_go_clockwise() -> None:
    # y grows down the table, so "up the table" is smaller y.
    assert bearing(ORIGIN, (10, 0)) == 0
    assert bearing(ORIGIN, (20, 10)) == 90
    assert bearing(ORIGIN, (10, 20)) == 180
    assert bearing(ORIGIN, (0, 10)) == 270
    assert bearing(ORIGIN, (15, 5)) == pytest.approx(45)
    assert bearing(ORIGIN, (5, 5)) == pytest.approx(315)
    assert close(direction(0), (0, -1))
    assert close(direction(90), (1, 0))
    assert close(direction(180), (0, 1))
    assert close(direction(270), (-1, 0))


def test_bearing_to_the_same_point_does_not_depend_on_the_number_type() -> None:
    assert bearing((5, 5), (5, 5)) == bearing((5.0, 5.0), (5.0, 5.0)) == 0.0


def test_normalise_and_angle_between() -> None:
    assert normalise(360) == 0
    assert normalise(-90) == 270
    assert normalise(725) == 5
    assert normalise(-1e-20) == 0.0
    assert 0 <= normalise(-1e-12) < 360
    assert angle_between(350, 10) == 20
    assert angle_between(10, 350) == 20
    assert angle_between(0, 180) == 180
    assert angle_between(-45, 45) == 90


def test_distance() -> None:
    assert distance((0, 0), (3, 4)) == 5
    assert distance((1, 1), (1, 1)) == 0


# -- arcs ------------------------------------------------------------------------------------


@pytest.mark.parametrize("facing", [0, 90, 180, 270, 30, 350])
def test_arc_edges_are_inclusive_at_exactly_45_degrees(facing: float) -> None:
    for side in (-45, 45):
        assert in_arc(ORIGIN, facing, 45, at(facing + side, 12))
    assert in_arc(ORIGIN, facing, 45, at(facing, 12))


@pytest.mark.parametrize("facing", [0, 90, 180, 270, 30, 350])
def test_just_outside_the_arc_is_outside(facing: float) -> None:
    for side in (-45.01, 45.01, 90, 180):
        assert not in_arc(ORIGIN, facing, 45, at(facing + side, 12))


def test_arc_exact_diagonal_points() -> None:
    # (1, -1) from the origin is exactly 45 degrees right of "up".
    assert in_arc((0, 0), 0, 45, (1, -1))
    assert in_arc((0, 0), 0, 45, (-1, -1))
    assert not in_arc((0, 0), 0, 45, (1.001, -1))
    assert in_arc((0, 0), 90, 45, (1, 1))
    assert not in_arc((0, 0), 90, 45, (1, 1.001))


def test_all_round_arcs_and_a_target_on_the_firer() -> None:
    assert in_arc(ORIGIN, 0, None, at(180, 5))
    assert in_arc(ORIGIN, 0, 180, at(180, 5))
    assert in_arc(ORIGIN, 0, 10, ORIGIN)


def test_arc_across_north() -> None:
    assert in_arc(ORIGIN, 350, 45, at(30, 5))
    assert not in_arc(ORIGIN, 350, 45, at(40, 5))


# -- aspect ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shot_from", "expected"),
    [
        (0, "front"), (44.99, "front"), (45, "front"), (-45, "front"), (45.01, "side"),
        (90, "side"), (270, "side"), (134.99, "side"), (135, "side"), (-135, "side"),
        (135.01, "rear"), (180, "rear"), (224.99, "rear"), (225, "side"),
    ],
)
def test_aspect_at_the_boundaries_counts_the_face_nearer_the_front(shot_from: float, expected: str) -> None:
    target_facing = 0.0
    firer = at(target_facing + shot_from, 20)
    assert aspect(firer, ORIGIN, target_facing) == expected


def test_aspect_on_exact_lattice_diagonals() -> None:
    target = (0.0, 0.0)
    assert aspect((10, -10), target, 0) == "front"
    assert aspect((10, 10), target, 0) == "side"
    assert aspect((-10, 10), target, 0) == "side"
    assert aspect((0, 10), target, 0) == "rear"


def test_aspect_follows_the_target_facing() -> None:
    target = (0.0, 0.0)
    assert aspect((20, 0), target, 90) == "front"
    assert aspect((-20, 0), target, 90) == "rear"
    assert aspect((0, -20), target, 90) == "side"


def test_aspect_with_wider_front_and_rear_arcs() -> None:
    target = (0.0, 0.0)
    assert aspect(at(60, 10, target), target, 0, front_half_angle=60) == "front"
    assert aspect(at(120, 10, target), target, 0, front_half_angle=60, rear_half_angle=60) == "side"
    assert aspect(at(121, 10, target), target, 0, front_half_angle=60, rear_half_angle=60) == "rear"


# -- deviation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("angle", "dist", "expected"),
    [(0, 3, (10, 7)), (90, 3, (13, 10)), (180, 3, (10, 13)), (270, 3, (7, 10)), (45, math.sqrt(8), (12, 8))],
)
def test_offset_moves_by_bearing_and_distance(angle: float, dist: float, expected: tuple[float, float]) -> None:
    assert close(offset(ORIGIN, angle, dist), expected)


@given(st.floats(-720, 720), st.floats(0.01, 100))
def test_offset_lands_at_that_bearing_and_distance(angle: float, dist: float) -> None:
    p = offset(ORIGIN, angle, dist)
    assert distance(ORIGIN, p) == pytest.approx(dist)
    assert angle_between(bearing(ORIGIN, p), angle) == pytest.approx(0, abs=1e-6)


def test_step_parallel_moves_along_the_table_edges() -> None:
    assert close(step_parallel(ORIGIN, "up", 6), (10, 4))
    assert close(step_parallel(ORIGIN, "down", 6), (10, 16))
    assert close(step_parallel(ORIGIN, "left", 6), (4, 10))
    assert close(step_parallel(ORIGIN, "right", 6), (16, 10))
    with pytest.raises(ValueError, match="'north' is not a direction along a table edge"):
        step_parallel(ORIGIN, "north", 6)


# -- bursts ----------------------------------------------------------------------------------


def test_burst_includes_exactly_two_inches_and_not_two_point_oh_one() -> None:
    assert in_radius(ORIGIN, 2, (12, 10))
    assert in_radius(ORIGIN, 2, at(37, 2))
    assert not in_radius(ORIGIN, 2, (12.01, 10))
    assert not in_radius(ORIGIN, 2, at(200, 2.01))


def test_within_burst_keeps_the_given_order() -> None:
    points = [("far", (13, 10)), ("edge", (10, 12)), ("centre", ORIGIN), ("near", (11, 11))]
    assert within_burst(ORIGIN, 2, points) == ["edge", "centre", "near"]


# -- lines of fire ---------------------------------------------------------------------------


def test_distance_to_segment_and_along_line() -> None:
    a, b = (0.0, 0.0), (10.0, 0.0)
    assert distance_to_segment(a, b, (5, 3)) == 3
    assert distance_to_segment(a, b, (-4, 3)) == 5
    assert distance_to_segment(a, b, (13, 4)) == 5
    assert distance_to_segment(a, a, (3, 4)) == 5
    assert along_line(a, b, (4, 7)) == 4
    assert along_line(a, a, (4, 7)) == 0


def test_corridor_lists_models_near_the_line_closest_to_the_firer_first() -> None:
    firer, target = (0.0, 0.0), (0.0, -20.0)
    points = [
        ("by the target", (0.5, -20.5)),
        ("beyond the target", (0.0, -21.01)),
        ("far", (1.0, -15)),
        ("close", (-0.5, -3)),
        ("outside", (1.01, -10)),
        ("middle", (0.2, -9)),
        ("beside firer", (3, 0)),
    ]
    assert corridor(firer, target, 1.0, points) == ["close", "middle", "far", "by the target"]


# -- range bands and the table ------------------------------------------------------------


def test_range_band_edges_belong_to_the_nearer_band() -> None:
    bands = [12, 24, 48]
    assert range_band(0, bands) == 0
    assert range_band(12, bands) == 0
    assert range_band(12.01, bands) == 1
    assert range_band(24, bands) == 1
    assert range_band(48, bands) == 2
    assert range_band(48.01, bands) is None
    assert range_band(5, []) is None


def test_on_table() -> None:
    assert on_table((0, 0), 72, 48)
    assert on_table((72, 48), 72, 48)
    assert not on_table((72.01, 10), 72, 48)
    assert not on_table((10, -0.01), 72, 48)
