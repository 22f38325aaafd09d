"""The projector's four-corner calibration: the corners land exactly, the rest of the table to a hundredth
of an inch, circles keep their radius on the cloth, and impossible corners are refused in words."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battletracker.core.calibration import PlacementError
from battletracker.core.calibration import place_by_two_points
from battletracker.core.geometry import Point
from battletracker.core.geometry import offset
from battletracker.core.homography import Homography
from battletracker.core.homography import four_point
from battletracker.core.homography import table_corners

TABLE = (72.0, 48.0)

# A projector tilted towards the far edge, turned a little and off-centre: the table's far edge comes
# out shorter than its near edge (a keystone), as a real projector above a table draws it.
KEYSTONED = Homography((21.0, -2.2, 160.0,
                        1.4, 17.5, 90.0,
                        0.0009, -0.0042, 1.0))


def grid(step: float = 3.0) -> list[Point]:
    w, h = TABLE
    return [(x * step, y * step) for x in range(int(w / step) + 1) for y in range(int(h / step) + 1)]


def test_the_four_corners_land_exactly_on_their_crosshairs() -> None:
    corners = table_corners(*TABLE)
    pixels = [KEYSTONED.map(c) for c in corners]
    fitted = four_point(corners, pixels)
    for corner, pixel in zip(corners, pixels, strict=True):
        u, v = fitted.map(corner)
        assert u == pytest.approx(pixel[0], abs=1e-9) and v == pytest.approx(pixel[1], abs=1e-9)


def test_a_known_perspective_is_reproduced_to_a_hundredth_of_an_inch_anywhere_on_the_table() -> None:
    corners = table_corners(*TABLE)
    fitted = four_point(corners, [KEYSTONED.map(c) for c in corners])
    back = KEYSTONED.inverse()     # where each projector pixel really lights on the table
    worst = max(math.dist(back.map(fitted.map(p)), p) for p in grid(1.0))
    assert worst < 0.01


def test_a_circle_drawn_in_table_inches_is_as_wide_on_the_cloth() -> None:
    """The display draws an 18" ring in inches through the fitted map; where the projector's pixels
    really land, each point of it is 18" from the centre."""
    corners = table_corners(*TABLE)
    fitted = four_point(corners, [KEYSTONED.map(c) for c in corners])
    cloth = KEYSTONED.inverse()
    for centre in ((12.0, 10.0), (36.0, 24.0), (66.0, 44.0)):
        for radius in (2.0, 6.0, 18.0):
            on_cloth = [cloth.map(fitted.map(offset(centre, bearing, radius))) for bearing in range(0, 360, 15)]
            assert max(abs(math.dist(p, centre) - radius) for p in on_cloth) < 0.01


def test_the_inverse_takes_every_pixel_back_to_its_table_point() -> None:
    back = KEYSTONED.inverse()
    assert back.matrix[8] == 1.0
    for p in grid():
        x, y = back.map(KEYSTONED.map(p))
        assert x == pytest.approx(p[0], abs=1e-9) and y == pytest.approx(p[1], abs=1e-9)


def test_a_square_projector_is_the_table_pictures_placement() -> None:
    """With no tilt the four corners give the similarity a table picture's two points give (core.calibration)."""
    pixels = ((100.0, 50.0), (1180.0, 80.0))
    placed = place_by_two_points(pixels, ((0.0, 0.0), (72.0, 0.0)))
    corners = table_corners(*TABLE)
    fitted = four_point(corners, [placed.to_picture(c) for c in corners])
    assert fitted.matrix[6] == pytest.approx(0.0, abs=1e-12) and fitted.matrix[7] == pytest.approx(0.0, abs=1e-12)
    for p in grid():
        u, v = fitted.map(p)
        want = placed.to_picture(p)
        assert u == pytest.approx(want[0], abs=1e-7) and v == pytest.approx(want[1], abs=1e-7)


def test_a_mirrored_projector_still_calibrates() -> None:
    corners = table_corners(*TABLE)
    pixels = [(1280.0 - 16.0 * x, 20.0 + 14.0 * y) for x, y in corners]
    fitted = four_point(corners, pixels)
    assert fitted.map((36.0, 24.0)) == pytest.approx((1280.0 - 16.0 * 36.0, 20.0 + 14.0 * 24.0))


keystones = st.tuples(*(st.floats(-120.0, 120.0) for _ in range(8)))


@given(keystones)
def test_any_convex_keystone_puts_its_corners_exactly(shifts: tuple[float, ...]) -> None:
    corners = table_corners(*TABLE)
    square = ((200.0, 150.0), (1100.0, 150.0), (1100.0, 650.0), (200.0, 650.0))
    pixels = [(x + shifts[2 * i], y + shifts[2 * i + 1]) for i, (x, y) in enumerate(square)]
    fitted = four_point(corners, pixels)
    for corner, pixel in zip(corners, pixels, strict=True):
        assert math.dist(fitted.map(corner), pixel) < 1e-6


@pytest.mark.parametrize(("pixels", "words"), [
    (((100.0, 100.0), (100.5, 100.0), (900.0, 600.0), (100.0, 600.0)), "same spot"),
    (((100.0, 100.0), (500.0, 100.0), (900.0, 100.0), (100.0, 600.0)), "on a line"),
    (((100.0, 100.0), (900.0, 600.0), (900.0, 100.0), (100.0, 600.0)), "cross over"),
    (((100.0, 100.0), (math.nan, 100.0), (900.0, 600.0), (100.0, 600.0)), "numbers"),
])
def test_corners_that_cannot_be_a_table_are_refused_in_words(pixels: tuple[Point, ...], words: str) -> None:
    with pytest.raises(PlacementError, match=words):
        four_point(table_corners(*TABLE), pixels)
