"""Where along a sight line it is first blocked: what the map's Line-of-Sight ruler draws in red."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battletracker.model.bombardment import Building
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.terrain import TerrainPiece
from battletracker.rules.terrain import TableIndex
from battletracker.rules.terrain import circle_entry
from battletracker.rules.terrain import depth_reached
from battletracker.rules.terrain import first_crossing

WOOD = TerrainPiece("w", "Big Wood", "woods", "area", [(10.0, 0.0), (30.0, 0.0), (30.0, 20.0), (10.0, 20.0)])
BOCAGE = TerrainPiece("b", "Bocage", "bocage", "linear", [(50.0, 0.0), (50.0, 40.0)])


def table(*pieces: TerrainPiece) -> Game:
    game = Game(ruleset="chain_of_command", sides=[Side("British", "#3366cc"), Side("German", "#cc3333")])
    game.terrain = {p.id: p for p in pieces}
    return game


def test_a_clear_line_has_no_blocked_point() -> None:
    reading, at = TableIndex(table(WOOD)).sight_line((0.0, 30.0), (40.0, 30.0))
    assert reading.clear and at is None


def test_a_wood_blocks_from_where_the_line_is_deeper_in_it_than_its_depth() -> None:
    reading, at = TableIndex(table(WOOD)).sight_line((0.0, 10.0), (40.0, 10.0))
    assert not reading.clear and reading.blocker == "w"
    assert at == pytest.approx(10.0 + 4.0)       # enters at 10", woods hide beyond 4" of them


def test_a_linear_obstacle_blocks_from_where_it_is_crossed() -> None:
    reading, at = TableIndex(table(BOCAGE)).sight_line((40.0, 10.0), (60.0, 10.0))
    assert reading.reason == "No Line of Sight: Bocage is in the way"
    assert at == pytest.approx(10.0)


def test_the_nearest_blocker_is_named() -> None:
    game = table(WOOD, BOCAGE)
    game.buildings["h"] = Building("h", "Farmhouse", 40.0, 10.0)
    reading, at = TableIndex(game).sight_line((60.0, 10.0), (0.0, 10.0))
    assert reading.blocker == "b" and at == pytest.approx(10.0)
    reading, at = TableIndex(game).sight_line((45.0, 10.0), (0.0, 10.0))
    assert reading.reason == "No Line of Sight: crosses Farmhouse"
    assert at is not None and 0.0 < at < 5.0


def test_depth_reached_on_a_concave_outline_counts_every_stretch_inside() -> None:
    u_shape = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (7.0, 10.0), (7.0, 3.0), (3.0, 3.0), (3.0, 10.0), (0.0, 10.0)]
    # along y = 5: inside 0..3, outside 3..7, inside 7..10
    assert depth_reached((-1.0, 5.0), (11.0, 5.0), u_shape, 4.0) == pytest.approx(1.0 + 7.0 + 1.0)
    assert depth_reached((-1.0, 5.0), (11.0, 5.0), u_shape, 6.5) is None


def test_first_crossing_and_circle_entry() -> None:
    assert first_crossing((0.0, 0.0), (10.0, 0.0), [(4.0, -1.0), (4.0, 1.0), (8.0, 1.0), (8.0, -1.0)]) \
        == pytest.approx(4.0)
    assert circle_entry((0.0, 0.0), (10.0, 0.0), (6.0, 0.0), 2.0) == pytest.approx(4.0)
    assert circle_entry((0.0, 0.0), (10.0, 0.0), (6.0, 5.0), 2.0) is None
    assert circle_entry((6.0, 0.0), (10.0, 0.0), (6.0, 0.0), 2.0) == 0.0


@given(st.floats(-20.0, 20.0), st.floats(-20.0, 20.0), st.floats(-20.0, 20.0), st.floats(-20.0, 20.0))
def test_the_ruler_agrees_with_sight_and_stays_on_the_line(x0: float, y0: float, x1: float, y1: float) -> None:
    game = table(TerrainPiece("w", "Copse", "woods", "area", [(-5.0, -5.0), (5.0, -5.0), (5.0, 5.0), (-5.0, 5.0)]),
                 TerrainPiece("h", "Wall", "bocage", "linear", [(-10.0, 12.0), (10.0, 12.0)]))
    index = TableIndex(game)
    reading, at = index.sight_line((x0, y0), (x1, y1))
    assert reading.clear == index.sight((x0, y0), (x1, y1)).clear
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    assert (at is None) == reading.clear
    assert at is None or -1e-9 <= at <= length + 1e-6
