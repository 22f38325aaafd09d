"""Exact odds of the anti-tank procedures: they sum to 1, agree with simulation, and match closed forms."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

import pytest

from battletracker.rules import odds
from tests.rules.oddscheck import assert_odds_match_simulation

FRONT: dict[str, Any] = {"location": "front", "visibility": "open", "target": "afv"}

AT_FIRE_CASES: list[dict[str, Any]] = [
    {**FRONT, "strike_dice": 9, "armour_dice": 6},
    {**FRONT, "weapon": "Panzerschreck", "range": 30, "armour_dice": 4, "location": "side", "target": "apc"},
    {**FRONT, "strike_dice": 2, "armour_dice": 0, "location": "rear", "visibility": "obscured"},
    {**FRONT, "strike_dice": 4, "armour_dice": 3, "location": "top", "visibility": "badly_obscured",
     "two_orders": True, "hit_last_round_stationary": True, "target": "apc"},
    {**FRONT, "strike_dice": 0, "armour_dice": 2, "firer_shock": 2, "optics_damaged": True},
    {**FRONT, "weapon": "7.5cm Pak 40", "armour_dice": 6, "target_immobilised": True, "target_shock": 2},
]
GRENADE_CASES: list[dict[str, Any]] = [
    {"weapon": "Teller mine", "distance": 4, "armour_dice": 2, "target": "apc"},
    {"strike_dice": 3, "distance": 7, "armour_dice": 1, "target": "afv", "storm_of_steel_chains": True},
    {"strike_dice": 4, "distance": 2.5, "armour_dice": 3, "target": "afv", "storm_of_steel_per_six": 2,
     "grenade_movement_dice": 3},
    {"strike_dice": 2, "distance": 0, "armour_dice": 0, "target": "apc", "storm_of_steel_per_six": 0},
]
SAVE_ONLY_CASES: list[dict[str, Any]] = [
    {"armour_dice": 3, "target": "afv"},
    {"armour_dice": 2, "target": "apc", "firer_under_suppressing_fire": True},
    {"armour_dice": 0, "target": "afv"},
]


@pytest.mark.parametrize("inputs", AT_FIRE_CASES)
def test_at_fire_odds_match_simulation(inputs: dict[str, Any]) -> None:
    assert_odds_match_simulation("coc.at_fire", inputs)


@pytest.mark.parametrize("inputs", GRENADE_CASES)
def test_at_grenade_odds_match_simulation(inputs: dict[str, Any]) -> None:
    assert_odds_match_simulation("coc.at_grenade", inputs)


@pytest.mark.parametrize("inputs", SAVE_ONLY_CASES)
def test_armour_save_only_odds_match_simulation(inputs: dict[str, Any]) -> None:
    assert_odds_match_simulation("coc.armour_save_only", inputs)


def test_to_hit_in_the_open_with_no_adjustments_is_30_in_36() -> None:
    dist = odds("coc.at_fire", {**FRONT, "strike_dice": 9, "armour_dice": 6})
    assert 1 - dist.p("miss") == Fraction(30, 36)


@pytest.mark.parametrize(("visibility", "modifier", "hit"), [
    ("obscured", 0, Fraction(21, 36)), ("badly_obscured", 0, Fraction(10, 36)), ("open", -1, Fraction(26, 36)),
    ("badly_obscured", 1, Fraction(15, 36)), ("badly_obscured", -3, Fraction(1, 36)),
    ("badly_obscured", -4, Fraction(0)),
])
def test_to_hit_closed_forms(visibility: str, modifier: int, hit: Fraction) -> None:
    extra = {"firer_shock": -modifier} if modifier < 0 else {"two_orders": True}
    dist = odds("coc.at_fire", {**FRONT, "visibility": visibility, "strike_dice": 1, "armour_dice": 1,
                                **(extra if modifier else {})})
    assert 1 - dist.p("miss") == hit


def test_one_strike_die_against_no_armour_closed_form() -> None:
    # Rear armour, no adjustments: every hit roll with no 6 rolls one die (2/3 to penetrate), a single 6
    # rolls two, a double 6 three; no Armour Dice, so net hits = penetrating hits.
    dist = odds("coc.at_fire", {**FRONT, "location": "rear", "strike_dice": 1, "armour_dice": 0})
    p = Fraction(2, 3)
    hit_no_six, one_six, two_sixes = Fraction(19, 36), Fraction(10, 36), Fraction(1, 36)

    def bands(n: int) -> list[Fraction]:
        return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]

    equal = hit_no_six * bands(1)[0] + one_six * bands(2)[0] + two_sixes * bands(3)[0]
    net3 = two_sixes * bands(3)[3]
    assert dist.probability(lambda o: o.startswith("equal:")) == equal
    assert dist.probability(lambda o: o.startswith("net3:")) == net3
    assert dist.p("net3:explodes") == net3 / 3
    assert dist.p("no_effect") == 0


def test_armour_save_only_closed_forms() -> None:
    no_armour = odds("coc.armour_save_only", {"armour_dice": 0, "target": "afv"})
    assert dict(no_armour.items()) == {"equal:reverse": Fraction(1, 3), "equal:none": Fraction(1, 3),
                                       "equal:halt_and_engage": Fraction(1, 3)}
    one = odds("coc.armour_save_only", {"armour_dice": 1, "target": "apc"})
    assert one.p("no_effect") == Fraction(1, 3) and one.p("equal:pedal_to_metal") == Fraction(2, 9)
    suppressed = odds("coc.armour_save_only", {"armour_dice": 2, "target": "apc",
                                               "firer_under_suppressing_fire": True})
    assert suppressed.p("no_effect") == Fraction(3, 4)


def test_grenade_reach_closed_forms() -> None:
    always = odds("coc.at_grenade", {"strike_dice": 1, "distance": 2, "armour_dice": 0, "target": "afv"})
    assert always.p("failed_to_reach") == 0
    never = odds("coc.at_grenade", {"strike_dice": 1, "distance": 12.5, "armour_dice": 0, "target": "afv"})
    assert dict(never.items()) == {"failed_to_reach": Fraction(1)}
    seven = odds("coc.at_grenade", {"strike_dice": 1, "distance": 7, "armour_dice": 0, "target": "afv"})
    assert seven.p("failed_to_reach") == Fraction(15, 36)
    # Reached: one top-armour die hits on 3+ (2/3) and a 6 (1/6) earns one more die.
    p_one_hit = Fraction(3, 6) + Fraction(1, 6) * Fraction(1, 3)
    assert seven.probability(lambda o: o.startswith("net1:")) == Fraction(21, 36) * p_one_hit


def test_odds_cover_every_outcome_the_tables_allow() -> None:
    dist = odds("coc.at_fire", {**FRONT, "location": "rear", "strike_dice": 6, "armour_dice": 2})
    assert {o.split(":")[0] for o in dist.outcomes} == {"miss", "no_effect", "equal", "net1", "net2", "net3"}
    assert dist.total() == 1
