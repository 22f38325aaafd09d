"""coc.reverse: Reverse 1D6 directly away from the firer."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model.effects import MoveUnit
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.chain_of_command.reverse import reverse_bearing
from battletracker.rules.chain_of_command.reverse import reverse_point
from tests.rules.oddscheck import assert_odds_match_simulation

PLACED: dict[str, Any] = {"target_x": 10, "target_y": 10, "firer_x": 10, "firer_y": 20}


@pytest.mark.parametrize(("vehicle", "firer", "inches", "expected"), [
    ((10, 10), (10, 20), 3, (10, 7)),      # firer below: back up the table
    ((10, 10), (0, 10), 4, (14, 10)),      # firer to the left: back to the right
    ((0, 0), (-3, -4), 5, (3, 4)),         # along the diagonal
])
def test_reverse_point(vehicle: tuple[float, float], firer: tuple[float, float], inches: int,
                       expected: tuple[float, float]) -> None:
    x, y = reverse_point(vehicle, firer, inches)
    assert math.isclose(x, expected[0], abs_tol=1e-9) and math.isclose(y, expected[1], abs_tol=1e-9)


def test_reverse_bearing_points_away_from_the_firer() -> None:
    assert math.isclose(reverse_bearing((10, 10), (10, 20)), 0.0, abs_tol=1e-9)
    assert math.isclose(reverse_bearing((10, 10), (0, 10)), 90.0)
    with pytest.raises(ValueError, match="no direction away"):
        reverse_bearing((1, 1), (1, 1))


def test_reverse_moves_the_token_and_keeps_its_facing() -> None:
    res = resolve("coc.reverse", {**PLACED, "target_facing": 180, "target_id": "sherman"}, ScriptedDice([3]))
    assert res.outcome == "3"
    assert res.values["distance"] == 3
    assert math.isclose(res.values["x"], 10) and math.isclose(res.values["y"], 7)
    assert list(res.rolls) == [("Reverse (1D6 inches)", (3,))]
    [move] = res.effects
    assert isinstance(move, MoveUnit) and move.unit_id == "sherman" and move.facing == 180
    assert math.isclose(move.x, 10) and math.isclose(move.y, 7)
    game = Game(sides=[Side("Allies", "#3366cc")])
    game.units = {"sherman": Unit("sherman", "Sherman", "vehicle", 0, 10.0, 10.0, 180.0, vehicle=Vehicle())}
    undo = game.apply(move)
    assert (game.unit("sherman").x, round(game.unit("sherman").y, 9)) == (10.0, 7.0)
    game.apply(undo)
    assert (game.unit("sherman").x, game.unit("sherman").y, game.unit("sherman").facing) == (10.0, 10.0, 180.0)


def test_reverse_without_positions_only_rolls() -> None:
    res = resolve("coc.reverse", {}, ScriptedDice([6]))
    assert res.outcome == "6" and list(res.effects) == [] and res.values["x"] is None
    placed = resolve("coc.reverse", PLACED, ScriptedDice([2]))
    assert list(placed.effects) == [] and math.isclose(placed.values["y"], 8)


def test_reverse_odds() -> None:
    dist = odds("coc.reverse", PLACED)
    assert dict(dist.items()) == {str(n): Fraction(1, 6) for n in range(1, 7)}
    assert_odds_match_simulation("coc.reverse", PLACED)


@pytest.mark.parametrize(("inputs", "field", "message"), [
    ({"target_x": 1, "target_y": 1}, "firer_x", "is required with target_x, target_y: give all of"),
    ({**PLACED, "firer_y": 10}, "firer_x", "the firer stands on the vehicle"),
    ({"target_id": "t"}, "target_x", "is required to move 't'"),
    ({**PLACED, "target_id": "t"}, "target_facing", "is required to move 't' \\(it keeps its facing\\)"),
    ({**PLACED, "target_x": "left"}, "target_x", "must be a number"),
])
def test_reverse_refusals(inputs: dict[str, Any], field: str, message: str) -> None:
    with pytest.raises(RulesInputError, match=message) as err:
        resolve("coc.reverse", inputs, ScriptedDice([1]))
    assert err.value.field == field
