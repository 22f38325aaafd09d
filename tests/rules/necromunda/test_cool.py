"""necro.cool_check: 2D6 plus modifiers against the Cool score."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.base import InputValue
from tests.rules.necromunda.helpers import assert_sentence
from tests.rules.oddscheck import assert_odds_match_simulation

NAME = "necro.cool_check"


def test_a_total_reaching_cool_passes() -> None:
    r = resolve(NAME, {"cool": 7}, ScriptedDice([3, 4]))
    assert r.outcome == "passed" and r.values == {"dice": [3, 4], "total": 7, "needed": 7}
    assert list(r.rolls) == [("Cool check", (3, 4))]
    assert resolve(NAME, {"cool": 7}, ScriptedDice([3, 3])).outcome == "failed"
    assert resolve(NAME, {"cool": 7, "modifier": 1}, ScriptedDice([3, 3])).outcome == "passed"
    assert resolve(NAME, {"cool": 7, "modifier": -1}, ScriptedDice([3, 4])).outcome == "failed"


@pytest.mark.parametrize("cool, modifier, passes", [(7, 0, 21), (6, 0, 26), (8, 0, 15), (12, 0, 1), (2, 0, 36),
                                                     (9, 2, 21), (5, -3, 15)])
def test_odds_closed_form(cool: int, modifier: int, passes: int) -> None:
    assert odds(NAME, {"cool": cool, "modifier": modifier}).p("passed") == Fraction(passes, 36)


@pytest.mark.parametrize("cool", [4, 7, 10])
def test_odds_match_simulation(cool: int) -> None:
    assert_odds_match_simulation(NAME, {"cool": cool, "modifier": -1})


@pytest.mark.parametrize("inputs, field, message", [
    ({}, "cool", "The fighter's Cool is required."),
    ({"cool": 1}, "cool", "The fighter's Cool must be at least 2, not 1."),
    ({"cool": 13}, "cool", "at most 12"),
    ({"cool": 7, "modifier": 7}, "modifier", "at most 6"),
])
def test_refusals(inputs: dict[str, InputValue], field: str, message: str) -> None:
    with pytest.raises(RulesInputError) as err:
        odds(NAME, inputs)
    assert err.value.field == field and message in str(err.value)
    assert_sentence(str(err.value))
