"""dice.pool: roll N D6, count those at the target or better, with exact odds."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

import pytest

from battletracker.core.dice import DiceError
from battletracker.core.dice import DiceExhausted
from battletracker.core.dice import ScriptedDice
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from tests.rules.oddscheck import assert_odds_match_simulation


def test_three_dice_needing_four() -> None:
    res = resolve("dice.pool", {"dice": 3, "target": 4}, ScriptedDice([6, 4, 1]))
    assert res.procedure == "dice.pool"
    assert res.outcome == "2 successes"
    assert res.values == {"successes": 2}
    assert list(res.rolls) == [("3D6", (6, 4, 1))]
    assert list(res.effects) == []
    assert list(res.log) == ["Rolled 3D6 needing 4+: 6 4 1 -> 2 successes"]


def test_inputs_may_be_text_as_a_dialog_sends_them() -> None:
    res = resolve("dice.pool", {"dice": "2", "target": "6"}, ScriptedDice(["6", "5"]))
    assert res.outcome == "1 successes"
    assert list(res.rolls) == [("2D6", (6, 5))]


@pytest.mark.parametrize(("rolled", "target", "expected"), [
    ((1, 1, 1, 1), 2, 0), ((6, 6, 6, 6), 6, 4), ((1, 2, 3, 4), 1, 4), ((5, 4, 5, 3), 5, 2),
])
def test_successes_count_dice_at_or_above_the_target(rolled: tuple[int, ...], target: int, expected: int) -> None:
    res = resolve("dice.pool", {"dice": len(rolled), "target": target}, ScriptedDice(rolled))
    assert res.values["successes"] == expected
    assert res.outcome == f"{expected} successes"


def test_only_the_dice_asked_for_are_used() -> None:
    dice = ScriptedDice([6, 5, 4, 3])
    resolve("dice.pool", {"dice": 2, "target": 4}, dice)
    assert dice.remaining == 2


def test_too_few_scripted_dice_name_the_roll() -> None:
    with pytest.raises(DiceExhausted) as caught:
        resolve("dice.pool", {"dice": 4, "target": 4}, ScriptedDice([6, 6]))
    assert caught.value.label == "4D6"
    assert caught.value.count == 4
    assert caught.value.supplied == 2


def test_a_typed_seven_is_refused_naming_the_d6() -> None:
    with pytest.raises(DiceError, match="4D6: 7 cannot be rolled on a D6"):
        resolve("dice.pool", {"dice": 4, "target": 4}, ScriptedDice([1, 2, 7, 3]))


@pytest.mark.parametrize(("inputs", "field", "message"), [
    ({"target": 4}, "dice", "dice: is required"),
    ({"dice": 3}, "target", "target: is required"),
    ({"dice": 0, "target": 4}, "dice", "dice: must be at least 1, not 0"),
    ({"dice": 61, "target": 4}, "dice", "dice: must be at most 60, not 61"),
    ({"dice": 3, "target": 0}, "target", "target: must be at least 1, not 0"),
    ({"dice": 3, "target": 7}, "target", "target: must be at most 6, not 7"),
    ({"dice": "three", "target": 4}, "dice", "dice: must be a whole number, not 'three'"),
    ({"dice": 2.5, "target": 4}, "dice", "dice: must be a whole number, not 2.5"),
    ({"dice": True, "target": 4}, "dice", "dice: must be a whole number, not True"),
    ({"dice": 3, "target": 4, "modifier": 1}, "modifier", "modifier: is not an input of this procedure"),
])
def test_invalid_inputs_are_refused_naming_the_field(inputs: dict[str, Any], field: str, message: str) -> None:
    for call in (lambda: resolve("dice.pool", inputs, ScriptedDice([6] * 60)), lambda: odds("dice.pool", inputs)):
        with pytest.raises(RulesInputError) as caught:
            call()
        assert caught.value.field == field
        assert str(caught.value) == message


@pytest.mark.parametrize(("count", "target"), [(1, 4), (3, 4), (6, 5), (10, 2), (12, 6), (60, 3)])
def test_odds_are_the_binomial_closed_form(count: int, target: int) -> None:
    dist = odds("dice.pool", {"dice": count, "target": target})
    p = Fraction(7 - target, 6)
    assert dist.total() == 1
    assert set(dist.outcomes) == {f"{k} successes" for k in range(count + 1)}
    for k in range(count + 1):
        assert dist.p(f"{k} successes") == comb(count, k) * p**k * (1 - p) ** (count - k)


def test_spot_checks() -> None:
    assert odds("dice.pool", {"dice": 2, "target": 6}).p("2 successes") == Fraction(1, 36)
    assert odds("dice.pool", {"dice": 3, "target": 4}).p("0 successes") == Fraction(1, 8)
    assert odds("dice.pool", {"dice": 5, "target": 1}).p("5 successes") == 1


@pytest.mark.parametrize(("count", "target"), [(1, 6), (3, 4), (5, 2), (8, 5), (20, 4)])
def test_odds_match_a_seeded_simulation(count: int, target: int) -> None:
    assert_odds_match_simulation("dice.pool", {"dice": count, "target": target})


def test_odds_and_resolve_share_outcome_keys() -> None:
    inputs = {"dice": 2, "target": 3}
    keys = set(odds("dice.pool", inputs).outcomes)
    for rolled in ((1, 1), (1, 3), (3, 6)):
        assert resolve("dice.pool", inputs, ScriptedDice(rolled)).outcome in keys
