"""How a side's dice compare with every game like this one: the same rolls, the dice rolled again.

A roll's luck is its percentile (rules/luck.py). Rolled again, the same roll
lands on each outcome with that outcome's odds, so its percentile is a random
number with a discrete distribution of its own, its `spread`. A side's luck
over the game is the sum of its rolls' percentiles (their mean times the count,
the same order), and a game like this one is the same rolls with each
percentile drawn again from its spread, independently. How the side's dice
compare with those games is, like a single roll's percentile:

    chance = P(a game like this gives a lower sum) + P(the same sum) / 2

It is computed exactly by convolving the spreads (sums that can no longer
reach, or no longer fall short of, the side's sum are set aside as they come),
and by a seeded simulation of `SAMPLE` games when the exact sums grow past
`EXACT_LIMIT`; `GamesLike` says which, with the simulation's standard error.

When each roll lands in the middle of a spread that is symmetric about its
middle, the chance is exactly 1/2; when every roll was the best possible it is
1 - P(every roll the best)/2. A roll that could not have gone better or worse
(every outcome ranks alike, as the Command Dice do) changes nothing.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from operator import add

from battletracker.core.odds import Distribution
from battletracker.rules.luck import percentile
from battletracker.rules.luck import rank

EXACT_LIMIT = 100_000
"""Distinct partial sums kept while convolving exactly; past it, the games are simulated."""

SAMPLE = 20_000
"""Games simulated when the exact sums grow too many (a dozen rolls of different kinds can do it): the
standard error is then at most a third of a point."""

SEED = 31
"""The simulation's seed, so the same game always reads the same."""


@lru_cache(maxsize=512)
def spread(odds: Distribution[str], better: Callable[[str], tuple[float, ...]] = rank) -> Distribution[Fraction]:
    """The distribution of a roll's percentile when the same dice are rolled again: each outcome's percentile
    under `odds` by the procedure's order `better`, with that outcome's probability."""
    return odds.map(lambda outcome: percentile(odds, outcome, better))


def as_good(spread_: Distribution[Fraction], rolled: Fraction) -> Fraction:
    """The chance of a roll as good as the one that scored `rolled`, or better."""
    return spread_.probability(lambda p: p >= rolled)


def as_bad(spread_: Distribution[Fraction], rolled: Fraction) -> Fraction:
    """The chance of a roll as bad as the one that scored `rolled`, or worse."""
    return spread_.probability(lambda p: p <= rolled)


def varied(spread_: Distribution[Fraction]) -> bool:
    """Whether the roll could have gone better or worse at all."""
    return len(spread_.outcomes) > 1


@dataclass(frozen=True)
class GamesLike:
    """How a side's rolls compare with games like this one.

    `chance` is P(lower) + P(equal)/2 over those games, exact when `games` is 0,
    otherwise the share of `games` simulated games (standard error `error`).
    `rolls` counts the side's rolls, `varied` those that could have gone
    otherwise."""

    chance: Fraction
    rolls: int
    varied: int
    games: int = 0
    error: float = 0.0

    @property
    def exact(self) -> bool:
        return self.games == 0


def _scaled(spreads: Sequence[Distribution[Fraction]], rolled: Sequence[Fraction],
            ) -> tuple[list[tuple[list[tuple[int, int]], int]], int]:
    """The varied rolls' spreads as (whole-number value, weight) lists with their denominators, the values
    over one common denominator, and the side's sum over the same denominator (the unvaried rolls left out:
    each adds the same to every game)."""
    kept = [(s, r) for s, r in zip(spreads, rolled, strict=True) if varied(s)]
    scale = math.lcm(1, *(p.denominator for s, _r in kept for p in s.outcomes),
                     *(r.denominator for _s, r in kept))
    out: list[tuple[list[tuple[int, int]], int]] = []
    for s, _r in kept:
        weights, den = s.whole_weights()
        out.append(([(int(p * scale), w) for p, w in weights.items()], den))
    return out, int(sum((r for _s, r in kept), Fraction(0)) * scale)


def games_like(spreads: Sequence[Distribution[Fraction]], rolled: Sequence[Fraction],
               limit: int = EXACT_LIMIT, sample: int = SAMPLE, seed: int = SEED) -> GamesLike:
    """How the rolls that scored `rolled` (each under its spread) compare with games like this one: exact
    while at most `limit` distinct partial sums are kept, else `simulated` with `sample` games."""
    rolls, target = _scaled(spreads, rolled)
    if not rolls:
        return GamesLike(Fraction(1, 2), len(rolled), 0)
    lows = [min(v for v, _w in r) for r, _d in rolls]
    highs = [max(v for v, _w in r) for r, _d in rolls]
    rest_low = [sum(lows[i:]) for i in range(len(rolls) + 1)]
    rest_high = [sum(highs[i:]) for i in range(len(rolls) + 1)]
    sums: dict[int, int] = {0: 1}
    lower, den = 0, 1  # the weight of the games certain to fall short, over `den`
    for i, (values, d) in enumerate(rolls):
        lower *= d
        den *= d
        low, high = rest_low[i + 1], rest_high[i + 1]
        following: dict[int, int] = {}
        for total, weight in sums.items():
            for value, w in values:
                t = total + value
                if t + high < target:
                    lower += weight * w
                elif t + low <= target:
                    following[t] = following.get(t, 0) + weight * w
                # else the game is certain to come out higher: it adds nothing
            if len(following) > limit:
                return simulated(spreads, rolled, sample, seed)
        sums = following
    below = lower + sum(w for t, w in sums.items() if t < target)
    return GamesLike(Fraction(2 * below + sums.get(target, 0), 2 * den), len(rolled), len(rolls))


def simulated(spreads: Sequence[Distribution[Fraction]], rolled: Sequence[Fraction],
              sample: int = SAMPLE, seed: int = SEED) -> GamesLike:
    """`games_like` by rolling `sample` games like this one with a generator seeded with `seed`."""
    rolls, target = _scaled(spreads, rolled)
    if not rolls:
        return GamesLike(Fraction(1, 2), len(rolled), 0)
    rng = random.Random(seed)
    totals = [0] * sample
    for values, den in rolls:
        cumulative: list[float] = []
        running = 0
        for _v, w in values:
            running += w
            cumulative.append(running / den)
        drawn = rng.choices([v for v, _w in values], cum_weights=cumulative, k=sample)
        totals = list(map(add, totals, drawn))
    lower = sum(t < target for t in totals)
    equal = sum(t == target for t in totals)
    chance = Fraction(2 * lower + equal, 2 * sample)
    mean_square = (lower + equal / 4) / sample
    error = math.sqrt(max(0.0, mean_square - float(chance) ** 2) / sample)
    return GamesLike(chance, len(rolled), len(rolls), sample, error)
