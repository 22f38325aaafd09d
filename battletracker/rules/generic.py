"""Procedures that belong to no ruleset: the plain dice pool."""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.dice import count_at_least
from battletracker.core.odds import Distribution
from battletracker.core.odds import successes
from battletracker.rules import register
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import counted

MAX_POOL = 60


@dataclass(frozen=True)
class PoolInputs:
    dice: int
    target: int


def _parse(inputs: Inputs) -> PoolInputs:
    r = InputReader(inputs)
    parsed = PoolInputs(
        dice=r.int("dice", minimum=1, maximum=MAX_POOL),
        target=r.int("target", minimum=1, maximum=6),
    )
    r.finish()
    return parsed


def outcome_key(n: int) -> str:
    return f"{n} successes"


def pool_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    roller = Roller(dice)
    rolled = roller.roll_ints(f"{p.dice}D6", D6, p.dice)
    n = count_at_least(rolled, p.target)
    text = f"Rolled {p.dice}D6 needing {p.target}+: {' '.join(map(str, rolled))} -> {counted(n, 'successes')}"
    return Resolution(
        procedure="dice.pool",
        outcome=outcome_key(n),
        values={"successes": n},
        rolls=roller.rolls,
        log=[text],
    )


def pool_odds(inputs: Inputs) -> Distribution[str]:
    p = _parse(inputs)
    return successes(p.dice, p.target).map(outcome_key)


def pool_label(outcome: str) -> str:
    """"1 successes" (the stable key) reads "1 success"."""
    n, _, _ = outcome.partition(" ")
    return counted(int(n), "successes") if n.isdigit() else outcome


register(Procedure("dice.pool", "Dice pool", pool_resolve, pool_odds, label=pool_label,
                   typical={"dice": 10, "target": 4}, largest={"dice": 60, "target": 4},
                   worst_best=("0 successes", "10 successes")))
