"""Sliding dice: a target number above 6 stays 6 and costs a die per point
over; below 2 it stays 2 and adds a die per point under."""

from __future__ import annotations

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.armour_battles.sliding import Slid
from battletracker.rules.armour_battles.sliding import SlidingLimits
from battletracker.rules.armour_battles.sliding import slide
from tests.rules.armour_battles.helpers import stuh_fire


@pytest.mark.parametrize(("dice", "tn", "expected"), [
    (5, 4, Slid(5, 4, 0)),
    (5, 6, Slid(5, 6, 0)),
    (5, 7, Slid(4, 6, -1)),
    (5, 8, Slid(3, 6, -2)),
    (5, 9, Slid(2, 6, -3)),
    (2, 9, Slid(0, 6, -2)),
    (5, 2, Slid(5, 2, 0)),
    (5, 1, Slid(6, 2, 1)),
    (5, 0, Slid(7, 2, 2)),
    (0, 0, Slid(0, 2, 0)),
    (0, 8, Slid(0, 6, 0)),
])
def test_slide_trades_target_number_for_dice(dice: int, tn: int, expected: Slid) -> None:
    assert slide(dice, tn) == expected


def test_limits_come_from_settings() -> None:
    assert slide(4, 6, SlidingLimits(highest=5, lowest=2)) == Slid(3, 5, -1)
    assert slide(4, 3, SlidingLimits(highest=6, lowest=4)) == Slid(5, 4, 1)


def test_direct_fire_at_7_plus_rolls_a_die_fewer_at_6_plus() -> None:
    # Long range (+1) and two more TN from elsewhere: 4 + 1 + 2 = 7+.
    inputs = stuh_fire(mode="direct", range=30.0, tn_modifier=2)
    res = resolve("ab.close_support_fire", inputs, ScriptedDice([6, 6, 5, 4, 3, 2]))
    assert res.values["tn_unslid"] == 7
    assert res.values["tn"] == 6
    assert res.values["slide_dice"] == -1
    assert res.values["dice_rolled"] == 6
    assert list(res.rolls) == [("FP dice", (6, 6, 5, 4, 3, 2))]
    assert res.outcome == "successes=2"


def test_direct_fire_below_2_plus_adds_dice() -> None:
    # Short range (-1), flank (-1) and two less from elsewhere: 4 - 1 - 1 - 2 = 0, so +2D at 2+.
    inputs = stuh_fire(mode="direct", range=5.0, flank_or_rear=True, tn_modifier=-2, dice_type="at")
    res = resolve("ab.close_support_fire", inputs, ScriptedDice([1, 2, 3, 4, 5, 1]))
    assert (res.values["tn_unslid"], res.values["tn"], res.values["slide_dice"]) == (0, 2, 2)
    assert res.values["dice_rolled"] == 6
    assert res.outcome == "successes=4"
    assert odds("ab.close_support_fire", inputs).p("successes=6") == pytest.approx((5 / 6) ** 6)


def test_sliding_limit_setting_overrides_default() -> None:
    # Long range is 5+; with 4 as the highest target number that is 4+ and one die fewer.
    inputs = stuh_fire(mode="direct", range=30.0, sliding_tn_highest=4)
    res = resolve("ab.close_support_fire", inputs, ScriptedDice([4] * 6))
    assert (res.values["tn"], res.values["dice_rolled"], res.outcome) == (4, 6, "successes=6")
