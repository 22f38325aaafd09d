"""ab.close_support_assault: a close-support unit fights a Close Assault as a gun."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.armour_battles.close_assault import plan_assault
from tests.rules.oddscheck import assert_odds_match_simulation

NAME = "ab.close_support_assault"


def assault(**extra: str | int | bool) -> dict[str, str | int | bool]:
    inputs: dict[str, str | int | bool] = {"dice_type": "fp", "fp_dice": 7, "at_dice": 4}
    inputs.update(extra)
    return inputs


def test_close_support_units_fight_at_plus_2_tn() -> None:
    res = resolve(NAME, assault(), ScriptedDice([6, 6, 5, 4, 3, 2, 1]))
    assert (res.values["gun_tn"], res.values["tn"]) == (2, 6)
    assert res.outcome == "successes=2"
    assert res.values["sixes"] == 2


def test_attacker_first_round_bonus_and_later_rounds() -> None:
    assert plan_assault(assault(attacker=True)).tn == 5
    assert plan_assault(assault(attacker=True, first_round=False)).tn == 6
    assert plan_assault(assault(dice_type="at")).dice_rolled == 4


def test_suppressed_close_support_unit_slides_from_7_plus() -> None:
    plan = plan_assault(assault(suppressed=True))
    assert (plan.tn_unslid, plan.tn, plan.slide_dice, plan.dice_rolled) == (7, 6, -1, 6)


def test_no_at_dice_against_armour_uses_fp_at_a_further_plus_2() -> None:
    plan = plan_assault(assault(dice_type="at", at_dice=0, attacker=True))
    assert plan.dice_used == "fp"
    assert (plan.tn_unslid, plan.tn, plan.dice_rolled) == (7, 6, 6)


def test_close_support_units_cannot_overrun() -> None:
    with pytest.raises(RulesInputError, match="overrun: close-support units cannot perform overrun attacks") as info:
        resolve(NAME, assault(overrun=True), ScriptedDice([6] * 7))
    assert info.value.field == "overrun"
    assert odds(NAME, assault(overrun=False)).total() == 1


def test_closed_form_odds() -> None:
    dist = odds(NAME, assault(dice_type="at"))
    assert dist.p("successes=0") == Fraction(5, 6) ** 4


@pytest.mark.parametrize("extra", [{}, {"attacker": True}, {"suppressed": True, "dice_type": "at"},
                                   {"tn_modifier": -4, "attacker": True}])
def test_odds_match_simulation(extra: dict[str, str | int | bool]) -> None:
    assert_odds_match_simulation(NAME, assault(**extra))
