"""A side's dice against every game like this one: the same rolls with the dice rolled again."""

from __future__ import annotations

import itertools
from fractions import Fraction

from battletracker.core.odds import Distribution
from battletracker.rules import odds
from battletracker.rules.luck import percentile
from battletracker.rules.luck_games import SAMPLE
from battletracker.rules.luck_games import as_bad
from battletracker.rules.luck_games import as_good
from battletracker.rules.luck_games import games_like
from battletracker.rules.luck_games import simulated
from battletracker.rules.luck_games import spread


def pool(dice: int, target: int) -> Distribution[str]:
    return odds("dice.pool", {"dice": dice, "target": target})


def by_enumeration(dists: list[Distribution[str]], rolled: list[str]) -> Fraction:
    """P(a lower sum of percentiles) + P(the same sum)/2, over every way the dice could have fallen."""
    mine = sum((percentile(d, o) for d, o in zip(dists, rolled, strict=True)), Fraction(0))
    chance = Fraction(0)
    for outcomes in itertools.product(*(d.outcomes for d in dists)):
        p = Fraction(1)
        for d, o in zip(dists, outcomes, strict=True):
            p *= d.p(o)
        total = sum((percentile(d, o) for d, o in zip(dists, outcomes, strict=True)), Fraction(0))
        chance += p if total < mine else p / 2 if total == mine else 0
    return chance


def test_a_rolls_spread_is_each_outcomes_percentile_with_its_odds() -> None:
    d = pool(4, 4)
    s = spread(d)
    assert s.total() == 1 and s.mean() == Fraction(1, 2)
    for outcome in d.outcomes:
        p = percentile(d, outcome)
        assert s.p(p) == d.p(outcome)
    assert as_good(s, percentile(d, "4 successes")) == d.p("4 successes")
    assert as_bad(s, percentile(d, "1 successes")) == d.p("0 successes") + d.p("1 successes")


def test_each_roll_in_the_middle_of_an_even_spread_is_exactly_half_the_games() -> None:
    three = Distribution.uniform(["0 successes", "1 successes", "2 successes"])
    five = Distribution.uniform([f"{n} successes" for n in range(5)])
    dists = [three, five, three, five, five]
    rolled = ["1 successes", "2 successes", "1 successes", "2 successes", "2 successes"]
    assert all(percentile(d, o) == Fraction(1, 2) for d, o in zip(dists, rolled, strict=True))
    got = games_like([spread(d) for d in dists], [percentile(d, o) for d, o in zip(dists, rolled, strict=True)])
    assert got.chance == Fraction(1, 2) and got.exact and (got.rolls, got.varied) == (5, 5)


def test_every_roll_the_best_possible_beats_nearly_every_game() -> None:
    dists = [pool(4, 4), pool(3, 5), pool(6, 3), pool(2, 4)]
    best = [f"{n} successes" for n in (4, 3, 6, 2)]
    got = games_like([spread(d) for d in dists], [percentile(d, o) for d, o in zip(dists, best, strict=True)])
    all_best = Fraction(1)
    for d, o in zip(dists, best, strict=True):
        all_best *= d.p(o)
    assert got.chance == 1 - all_best / 2 and got.chance > Fraction(999, 1000)
    worst = ["0 successes"] * 4
    low = games_like([spread(d) for d in dists], [percentile(d, o) for d, o in zip(dists, worst, strict=True)])
    assert low.chance < Fraction(1, 100)


def test_the_exact_chance_is_every_way_the_dice_could_have_fallen() -> None:
    dists = [pool(3, 4), pool(2, 5), pool(4, 3), odds("dice.pool", {"dice": 1, "target": 6})]
    for rolled in (["2 successes", "0 successes", "3 successes", "1 successes"],
                   ["1 successes", "1 successes", "2 successes", "0 successes"]):
        got = games_like([spread(d) for d in dists], [percentile(d, o) for d, o in zip(dists, rolled, strict=True)])
        assert got.exact and got.chance == by_enumeration(dists, rolled)


def test_the_exact_chance_agrees_with_a_seeded_simulation_within_its_error() -> None:
    dists = [pool(n % 7 + 1, n % 4 + 3) for n in range(10)]
    rolled = [f"{(n * 5) % (n % 7 + 2)} successes" for n in range(10)]
    spreads = [spread(d) for d in dists]
    scored = [percentile(d, o) for d, o in zip(dists, rolled, strict=True)]
    exact = games_like(spreads, scored)
    assert exact.exact and 0 < exact.chance < 1
    sim = simulated(spreads, scored, sample=20_000, seed=7)
    assert sim.games == 20_000 and 0 < sim.error < 0.0036
    assert abs(float(sim.chance - exact.chance)) < 4 * sim.error
    # Past the exact limit, the report's chance is the simulation's, with its sample said.
    fallback = games_like(spreads, scored, limit=1)
    assert not fallback.exact and fallback.games == SAMPLE and fallback != sim
    assert abs(float(fallback.chance - exact.chance)) < 4 * fallback.error


def test_a_roll_that_could_not_have_gone_otherwise_changes_nothing() -> None:
    command = Distribution.uniform(["a", "b", "c"])  # every outcome ranks alike: always the middle
    d = pool(4, 4)
    alone = games_like([spread(d)], [percentile(d, "3 successes")])
    both = games_like([spread(d), spread(command)], [percentile(d, "3 successes"), percentile(command, "a")])
    assert both.chance == alone.chance and (both.rolls, both.varied) == (2, 1)
    assert games_like([spread(command)], [Fraction(1, 2)]).chance == Fraction(1, 2)
