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

from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.rules import register
from battletracker.rules.armour_battles import fire
from battletracker.rules.armour_battles import reaction
from battletracker.rules.armour_battles.data import RULESET
from battletracker.rules.base import FIRER
from battletracker.rules.base import Inputs
from battletracker.rules.base import InputValue
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import counts

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


def direct_odds(inputs: Inputs) -> Distribution[str]:
    fired, check = split(inputs)
    plan = fire.plan_fire(fired)
    return reaction.odds_against_fire(check, plan.dice_rolled, plan.tn)


_TYPICAL_DIRECT_FIRE_REACTION: Inputs = {"mode": "direct", "dice_type": "fp", "fp_dice": 7, "at_dice": 4,
                                         "move": "single", "range": 12, "ranges": "9/18/36",
                                         "reaction:reaction_dice": 4, "reaction:suppression": "artillery"}
register(Procedure(NAME, "Direct fire and Reaction Check", direct_resolve, direct_odds, ruleset=RULESET,
                   better=counts("disruption", "suppressed"), rolled_by=FIRER,
                   typical=_TYPICAL_DIRECT_FIRE_REACTION,
                   largest={**_TYPICAL_DIRECT_FIRE_REACTION, "fp_dice": 20, "at_dice": 20,
                            "reaction:reaction_dice": 20},
                   worst_best=("disruption=0 suppressed=no", "disruption=7 suppressed=yes")))
