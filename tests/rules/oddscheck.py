"""The check every procedure's odds must pass: exact, summing to 1, and in
agreement with a seeded simulation of `resolve` (a few standard errors)."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

from battletracker.core.dice import RandomDice
from battletracker.rules import Inputs
from battletracker.rules import odds
from battletracker.rules import resolve


def assert_odds_match_simulation(name: str, inputs: Inputs, runs: int = 4000, seed: int = 1) -> None:
    dist = odds(name, inputs)
    assert dist.total() == Fraction(1), f"{name} odds sum to {dist.total()}"
    dice = RandomDice(seed)
    seen = Counter(resolve(name, inputs, dice).outcome for _ in range(runs))
    unexpected = set(seen) - set(dist.outcomes)
    assert not unexpected, f"{name}: resolve produced outcomes the odds call impossible: {unexpected}"
    for outcome, p in dist.items():
        expected = float(p)
        sigma = math.sqrt(expected * (1 - expected) / runs)
        observed = seen[outcome] / runs
        assert abs(observed - expected) <= 5 * sigma + 2 / runs, (
            f"{name} {outcome!r}: simulated {observed:.4f}, exact {expected:.4f}"
        )
