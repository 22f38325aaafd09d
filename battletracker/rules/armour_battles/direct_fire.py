"""`ab.direct_fire_reaction`: a close-support unit's direct fire and its target's Reaction Check, as one.

The Direct fire dialog rolls the fire, then the target's Reaction Check
against the successes and sixes it scored, and applies both as one undo step.
This procedure is that whole step: the fire's inputs (`ab.close_support_fire`)
as they are, the Reaction Check's (`ab.reaction`, without `incoming` and
`incoming_sixes`, which the fire gives) each prefixed `reaction:`. Dice, in
order: the fire's, then the Reaction Check's. The outcome is the Reaction
Check's (what the fire did to the target); the odds are exact, summed over
the fire's joint successes and sixes.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import lcm

from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.rules import register
from battletracker.rules.armour_battles import fire, reaction
from battletracker.rules.armour_battles.data import RULESET
from battletracker.rules.base import Inputs, InputValue, Procedure, Resolution

NAME = "ab.direct_fire_reaction"
PREFIX = "reaction:"


def split(inputs: Inputs) -> tuple[dict[str, InputValue], dict[str, InputValue]]:
    """The fire's inputs and the Reaction Check's (without what the fire scores)."""
    fired = {k: v for k, v in inputs.items() if not k.startswith(PREFIX)}
    check = {k.removeprefix(PREFIX): v for k, v in inputs.items() if k.startswith(PREFIX)}
    return fired, check


def joined(fire_inputs: Inputs, reaction_inputs: Inputs) -> dict[str, InputValue]:
    """This procedure's inputs from the two plans' (the Reaction's `incoming` ones left out)."""
    return {**fire_inputs, **{PREFIX + k: v for k, v in reaction_inputs.items()
                              if k not in ("incoming", "incoming_sixes")}}


def direct_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    fired, check = split(inputs)
    shot = fire.fire_resolve(fired, dice)
    answer = reaction.reaction_resolve(
        {**check, "incoming": int(shot.values["successes"]), "incoming_sixes": int(shot.values["sixes"])}, dice)
    return Resolution(NAME, answer.outcome, {"fire": dict(shot.values), **answer.values},
                      [*shot.rolls, *answer.rolls], answer.effects, [*shot.log, *answer.log])


@lru_cache(maxsize=256)
def _fire_joint(dice: int, tn: int) -> Distribution[tuple[int, int]]:
    """Joint (successes, sixes) of the fire's `dice` D6 needing `tn`+; every 6 counts as a six."""
    six = Fraction(1, 6)
    other = Fraction(max(0, 6 - tn), 6)
    six_hit = 1 if tn <= 6 else 0
    weights: dict[tuple[int, int], Fraction] = {(six_hit, 1): six, (1, 0): other, (0, 0): 1 - six - other}
    one: Distribution[tuple[int, int]] = Distribution({k: p for k, p in weights.items() if p})
    return one.repeat(dice, lambda a, b: (a[0] + b[0], a[1] + b[1]), (0, 0))


def direct_odds(inputs: Inputs) -> Distribution[str]:
    fired, check = split(inputs)
    plan = fire.plan_fire(fired)
    against, check_den = reaction.weights_against(check)
    results = list(_fire_joint(plan.dice_rolled, plan.tn).items())
    fire_den = lcm(*(p.denominator for _, p in results))
    total: dict[str, int] = {}
    for (hits, sixes), p in results:
        scale = p.numerator * (fire_den // p.denominator)
        for key, n in against(hits, sixes).items():
            total[key] = total.get(key, 0) + scale * n
    return Distribution.from_weights(total, fire_den * check_den)


register(Procedure(NAME, "Direct fire and Reaction Check", direct_resolve, direct_odds, ruleset=RULESET))
