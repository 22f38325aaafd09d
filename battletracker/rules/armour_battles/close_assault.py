"""A close-support unit's roll in a Close Assault: `ab.close_support_assault`.

The close-support update treats these units as guns in Close Assault: they
fight at +2 TN and can never make an overrun attack (refused with the reason).
The rest is the core rules' Close Assault as the publisher summarises it
(settings to check): each side rolls FP Dice against soft units or AT Dice
against armoured units needing 4+ (5+ if suppressed), the attacker gets -1 TN
in the first round, and there are no Reaction Checks. This procedure rolls the
close-support unit's side; the side with more successes wins, the loser takes
the difference as Disruption, and on a draw the side with fewer 6s is
suppressed and the assault is fought again.
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.rules import register
from battletracker.rules.armour_battles import sliding
from battletracker.rules.armour_battles.data import RULESET
from battletracker.rules.armour_battles.data import close_support_assault_tn
from battletracker.rules.armour_battles.data import read_int_setting
from battletracker.rules.armour_battles.fire import DICE_TYPES
from battletracker.rules.armour_battles.fire import MAX_DICE
from battletracker.rules.armour_battles.fire import successes_key
from battletracker.rules.armour_battles.fire import successes_odds
from battletracker.rules.armour_battles.sliding import SlidingLimits
from battletracker.rules.armour_battles.sliding import slide
from battletracker.rules.base import FIRER
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import counted
from battletracker.rules.base import counts

NAME = "ab.close_support_assault"
SETTINGS = ("close_assault_tn", "close_assault_tn_suppressed", "close_assault_first_round_tn",
            "close_assault_fp_vs_armour_tn") + sliding.SETTINGS


@dataclass(frozen=True)
class AssaultInputs:
    dice_type: str
    fp_dice: int
    at_dice: int
    attacker: bool
    first_round: bool
    suppressed: bool
    tn_modifier: int
    extra_dice: int
    base_tn: int
    suppressed_tn: int
    first_round_tn: int
    fp_vs_armour_tn: int
    limits: SlidingLimits


@dataclass(frozen=True)
class AssaultPlan:
    """The roll before it is thrown: which dice, the TN parts and what sliding did."""

    dice_used: str
    unit_dice: int
    gun_tn: int
    tn_unslid: int
    slide_dice: int
    dice_rolled: int
    tn: int


def _parse(inputs: Inputs) -> AssaultInputs:
    r = InputReader(inputs)
    overrun = r.bool("overrun")
    p = AssaultInputs(
        dice_type=r.choice("dice_type", DICE_TYPES),
        fp_dice=r.int("fp_dice", minimum=0, maximum=MAX_DICE),
        at_dice=r.int("at_dice", minimum=0, maximum=MAX_DICE),
        attacker=r.bool("attacker"),
        first_round=r.bool("first_round", True),
        suppressed=r.bool("suppressed"),
        tn_modifier=r.int("tn_modifier", 0, minimum=-6, maximum=6),
        extra_dice=r.int("extra_dice", 0, minimum=-MAX_DICE, maximum=MAX_DICE),
        base_tn=read_int_setting(r, "close_assault_tn"),
        suppressed_tn=read_int_setting(r, "close_assault_tn_suppressed"),
        first_round_tn=read_int_setting(r, "close_assault_first_round_tn"),
        fp_vs_armour_tn=read_int_setting(r, "close_assault_fp_vs_armour_tn"),
        limits=SlidingLimits.read(r),
    )
    r.finish()
    if overrun:
        raise RulesInputError("overrun", "close-support units cannot perform overrun attacks")
    return p


def _plan(p: AssaultInputs) -> AssaultPlan:
    gun_tn = close_support_assault_tn()
    tn = (p.suppressed_tn if p.suppressed else p.base_tn) + gun_tn + p.tn_modifier
    if p.attacker and p.first_round:
        tn += p.first_round_tn
    dice_used, unit_dice = p.dice_type, p.fp_dice if p.dice_type == "fp" else p.at_dice
    if p.dice_type == "at" and p.at_dice == 0:
        dice_used, unit_dice = "fp", p.fp_dice
        tn += p.fp_vs_armour_tn
    slid = slide(max(0, unit_dice + p.extra_dice), tn, p.limits)
    return AssaultPlan(dice_used, unit_dice, gun_tn, tn, slid.change, slid.dice, slid.tn)


def plan_assault(inputs: Inputs) -> AssaultPlan:
    return _plan(_parse(inputs))


def assault_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    plan = plan_assault(inputs)
    roller = Roller(dice)
    rolled = roller.roll_ints(f"{plan.dice_used.upper()} dice (close assault)", D6, plan.dice_rolled)
    hits = sum(1 for v in rolled if v >= plan.tn)
    sixes = sum(1 for v in rolled if v == 6)
    slid = f" (TN {plan.tn_unslid}+ slid, {plan.slide_dice:+d}D)" if plan.slide_dice else ""
    log = [f"Close assault as a gun (+{plan.gun_tn} TN): {plan.dice_used.upper()} {plan.dice_rolled}D needing "
           f"{plan.tn}+{slid}: {' '.join(map(str, rolled)) or 'no dice'} -> {counted(hits, 'successes')}, "
           f"{counted(sixes, 'sixes')}."]
    values: dict[str, int | str] = {
        "dice_used": plan.dice_used, "unit_dice": plan.unit_dice, "gun_tn": plan.gun_tn,
        "tn_unslid": plan.tn_unslid, "slide_dice": plan.slide_dice, "dice_rolled": plan.dice_rolled,
        "tn": plan.tn, "successes": hits, "sixes": sixes,
    }
    return Resolution(NAME, successes_key(hits), values, roller.rolls, [], log)


def assault_odds(inputs: Inputs) -> Distribution[str]:
    plan = plan_assault(inputs)
    return successes_odds(plan.dice_rolled, plan.tn)


register(Procedure(NAME, "Close assault (close-support unit)", assault_resolve, assault_odds,
                   ruleset=RULESET, settings=SETTINGS, better=counts("successes", "sixes"), rolled_by=FIRER,
                   typical={"dice_type": "fp", "fp_dice": 7, "at_dice": 4},
                   largest={"dice_type": "fp", "fp_dice": 20, "at_dice": 20},
                   worst_best=("successes=0", "successes=7")))
