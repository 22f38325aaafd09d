"""`necro.cool_check`: a Cool check, as target priority asks for one.

Necromunda's mental characteristics are scores on 2D6: Cool 7+ passes on a
2D6 total (plus any modifier) of 7 or more. The documents name the check
without stating it, so this is that usual form with no automatic pass or fail
on a double. Inputs: `cool` (the score needed, 2-12) and `modifier`.
Outcome: `passed` or `failed`. Values: `dice`, `total`, `needed`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.rules import register
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import listed_order
from battletracker.rules.base import listed_rank
from battletracker.rules.base import worded
from battletracker.rules.necromunda.refusals import speaking

NAME = "necro.cool_check"
MAX_MODIFIER = 6


@dataclass(frozen=True)
class CoolInputs:
    cool: int
    modifier: int


@speaking
def _parse(inputs: Inputs) -> CoolInputs:
    r = InputReader(inputs)
    parsed = CoolInputs(
        cool=r.int("cool", minimum=2, maximum=12),
        modifier=r.int("modifier", 0, minimum=-MAX_MODIFIER, maximum=MAX_MODIFIER),
    )
    r.finish()
    return parsed


def outcome_key(total: int, cool: int) -> str:
    return "passed" if total >= cool else "failed"


def cool_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    roller = Roller(dice)
    rolled = roller.roll_ints("Cool check", D6, 2)
    total = sum(rolled) + p.modifier
    outcome = outcome_key(total, p.cool)
    mod = f" {p.modifier:+d}" if p.modifier else ""
    log = [f"Cool check: {rolled[0]} + {rolled[1]}{mod} = {total} against Cool {p.cool}+: {outcome}"]
    values = {"dice": list(rolled), "total": total, "needed": p.cool}
    return Resolution(NAME, outcome, values, roller.rolls, [], log)


def cool_odds(inputs: Inputs) -> Distribution[str]:
    p = _parse(inputs)
    return _odds(p.cool, p.modifier)


@lru_cache(maxsize=256)
def _odds(cool: int, modifier: int) -> Distribution[str]:
    return Distribution.dice_sum(2).map(lambda total: outcome_key(total + modifier, cool))


register(Procedure(NAME, "Cool check", cool_resolve, cool_odds, ruleset="necromunda",
                   label=worded({"passed": "Cool check passed", "failed": "Cool check failed"}),
                   order=listed_order("failed", "passed"),
                   better=listed_rank("failed", "passed"), rolled_by=("firer_id", "firer", "unit"),
                   typical={"cool": 7},
                   worst_best=("failed", "passed")))
