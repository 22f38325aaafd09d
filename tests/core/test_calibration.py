"""Placing a picture by two points: the transform puts both points where they belong, or refuses in words."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume
from hypothesis import given
from hypothesis import strategies as st

from battletracker.core.calibration import Placement
from battletracker.core.calibration import PlacementError
from battletracker.core.calibration import fit_to_table
from battletracker.core.calibration import nearest_corner
from battletracker.core.calibration import place_by_distance
from battletracker.core.calibration import place_by_two_points

pixels = st.tuples(st.floats(0, 4096), st.floats(0, 4096))
places = st.tuples(st.floats(-100, 200), st.floats(-100, 200))


def close(a: tuple[float, float], b: tuple[float, float], tol: float = 1e-6) -> bool:
    return math.hypot(a[0] - b[0], a[1] - b[1]) <= tol * max(1.0, abs(b[0]), abs(b[1]))


@given(pixels, pixels, places, places)
def test_the_placement_maps_both_picture_points_onto_their_table_points(p1: tuple[float, float],
                                                                        p2: tuple[float, float],
                                                                        t1: tuple[float, float],
                                                                        t2: tuple[float, float]) -> None:
    assume(math.dist(p1, p2) >= 2.0 and math.dist(t1, t2) >= 0.5)
    placed = place_by_two_points((p1, p2), (t1, t2))
    assert close(placed.to_table(p1), t1) and close(placed.to_table(p2), t2)
    assert placed.scale > 0 and 0.0 <= placed.rotation < 360.0
    assert math.isclose(placed.scale, math.dist(t1, t2) / math.dist(p1, p2), rel_tol=1e-9)
    back = placed.to_picture(t2)
    assert math.dist(back, p2) <= 1e-6 * max(1.0, *map(abs, p2))


def test_a_photo_of_a_table_taken_upside_down_is_turned_half_round() -> None:
    placed = place_by_two_points(((2000.0, 1000.0), (0.0, 0.0)), ((0.0, 0.0), (72.0, 36.0)))
    assert placed.rotation == pytest.approx(180.0)
    assert placed.scale == pytest.approx(0.036)
    assert placed.to_table((1000.0, 500.0)) == pytest.approx((36.0, 18.0))


def test_a_quarter_turn_is_clockwise_as_the_map_turns() -> None:
    placed = place_by_two_points(((0.0, 0.0), (100.0, 0.0)), ((10.0, 10.0), (10.0, 20.0)))
    assert placed.rotation == pytest.approx(90.0)
    assert placed.to_table((0.0, 100.0)) == pytest.approx((0.0, 10.0))


@given(pixels, places, places)
def test_the_same_point_twice_on_the_picture_is_refused_with_a_sentence(p: tuple[float, float],
                                                                         t1: tuple[float, float],
                                                                         t2: tuple[float, float]) -> None:
    with pytest.raises(PlacementError, match="same point: click two points far apart"):
        place_by_two_points((p, (p[0] + 0.5, p[1])), (t1, t2))


def test_the_same_place_twice_on_the_table_is_refused_with_a_sentence() -> None:
    with pytest.raises(PlacementError, match="same place on the table"):
        place_by_two_points(((0.0, 0.0), (500.0, 300.0)), ((12.0, 12.0), (12.0, 12.2)))
    with pytest.raises(PlacementError, match="numbers"):
        place_by_two_points(((0.0, 0.0), (500.0, math.nan)), ((0.0, 0.0), (12.0, 12.0)))


def test_a_new_picture_is_fitted_to_the_table_and_centred() -> None:
    placed = fit_to_table(2000, 1000, 72.0, 48.0)
    assert placed == Placement(0.036, 0.0, 0.0, 6.0)
    assert placed.to_table((2000.0, 1000.0)) == pytest.approx((72.0, 42.0))
    with pytest.raises(PlacementError):
        fit_to_table(0, 10, 72.0, 48.0)


def test_the_nearest_table_corner() -> None:
    assert nearest_corner((70.0, 3.0), 72.0, 48.0) == (72.0, 0.0)
    assert nearest_corner((-5.0, 40.0), 72.0, 48.0) == (0.0, 48.0)


@given(pixels, pixels, st.floats(0.5, 500), places, st.floats(0, 359.9))
def test_two_points_and_their_measured_distance_place_the_first_point_and_keep_the_turn(
        p1: tuple[float, float], p2: tuple[float, float], measured: float, first: tuple[float, float],
        rotation: float) -> None:
    assume(math.dist(p1, p2) >= 2.0)
    placed = place_by_distance((p1, p2), measured, first, rotation)
    assert close(placed.to_table(p1), first)
    assert math.isclose(math.dist(placed.to_table(p1), placed.to_table(p2)), measured, rel_tol=1e-9)
    assert placed.rotation == pytest.approx(rotation)
    assert math.dist(placed.to_picture(first), p1) <= 1e-6 * max(1.0, *map(abs, p1))


def test_a_wall_measured_at_12_inches_across_300_pixels_sets_the_scale() -> None:
    placed = place_by_distance(((100.0, 50.0), (400.0, 50.0)), 12.0, (6.0, 10.0))
    assert placed == Placement(0.04, 0.0, 2.0, 8.0)
    assert placed.to_table((400.0, 50.0)) == pytest.approx((18.0, 10.0))


@pytest.mark.parametrize(("picture", "measured", "words"), [
    (((10.0, 10.0), (11.0, 10.5)), 12.0, "The two points on the picture are the same point"),
    (((10.0, 10.0), (400.0, 10.0)), 0.2, 'The two points must be at least 0.5" apart on the table'),
    (((10.0, 10.0), (400.0, 10.0)), math.nan, 'The two points must be at least 0.5" apart on the table'),
    (((10.0, math.inf), (400.0, 10.0)), 12.0, "Every point needs numbers"),
])
def test_a_measured_placement_that_says_nothing_is_refused_with_a_sentence(
        picture: tuple[tuple[float, float], tuple[float, float]], measured: float, words: str) -> None:
    with pytest.raises(PlacementError, match=words):
        place_by_distance(picture, measured, (0.0, 0.0))
