"""A close-support unit's fire at one target unit: `ab.close_support_fire`.

Direct fire rolls the unit's full FP or AT Dice with the normal range and
flank modifiers and movement dice, and causes normal suppressions. Indirect
fire halves the dice (rounding up), then deducts the movement dice from the
halved dice, needs 4+ at effective and long range, and causes artillery
suppressions. FP Dice are rolled against infantry and soft targets, AT Dice
against armoured units. The target's answer is `ab.reaction`.

`plan_fire(inputs)` gives everything decided before the roll (dice, target
number, refusals) so a dialog can show it first.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.core.odds import successes
from battletracker.rules import register
from battletracker.rules.armour_battles import sliding
from battletracker.rules.armour_battles.data import RULESET
from battletracker.rules.armour_battles.data import indirect_fire_rules
from battletracker.rules.armour_battles.data import read_int_setting
from battletracker.rules.armour_battles.ranges import RangeProfile
from battletracker.rules.armour_battles.ranges import parse_ranges
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

NAME = "ab.close_support_fire"
MODES = ("direct", "indirect")
DICE_TYPES = ("fp", "at")
MOVES = ("single", "double", "triple")
SUPPRESSION = {"direct": "normal", "indirect": "artillery"}
MAX_DICE = 20
DIRECT_SETTINGS = ("direct_fire_tn", "short_range_tn", "effective_range_tn", "long_range_tn", "flank_or_rear_tn",
                   "direct_double_move_dice", "direct_triple_move_dice")
SETTINGS = DIRECT_SETTINGS + sliding.SETTINGS


def successes_key(n: int) -> str:
    return f"successes={n}"


def halved(dice: int, divisor: int = 2) -> int:
    """Indirect fire's dice: the unit's dice halved, rounding up."""
    return -(-dice // divisor)


def indirect_dice(fp_dice: int, at_dice: int, move: str = "single") -> tuple[int, int]:
    """FP and AT Dice for indirect fire after halving and the move's deduction (StuH 42: 7D/4D -> 4D/2D)."""
    rules = indirect_fire_rules()
    lost = rules.move_dice(move)
    return (max(0, halved(fp_dice, rules.dice_divisor) - lost), max(0, halved(at_dice, rules.dice_divisor) - lost))


@dataclass(frozen=True)
class DirectFireModifiers:
    """The core rules' direct-fire numbers (settings, defaults to check)."""

    base_tn: int = 4
    short: int = -1
    effective: int = 0
    long: int = 1
    flank_or_rear: int = -1
    double_move: int = 1
    triple_move: int = 2

    @classmethod
    def read(cls, r: InputReader) -> DirectFireModifiers:
        return cls(*(read_int_setting(r, key) for key in DIRECT_SETTINGS))

    def band_tn(self, band: str) -> int:
        return {"short": self.short, "effective": self.effective, "long": self.long}[band]

    def move_dice(self, move: str) -> int:
        return {"single": 0, "double": self.double_move, "triple": self.triple_move}[move]


@dataclass(frozen=True)
class FireInputs:
    mode: str
    dice_type: str
    fp_dice: int
    at_dice: int
    move: str
    range: float
    ranges: RangeProfile
    flank_or_rear: bool
    los: bool
    opportunity: bool
    tn_modifier: int
    extra_dice: int
    direct: DirectFireModifiers
    limits: SlidingLimits


@dataclass(frozen=True)
class FirePlan:
    """What one shot rolls, worked out before any die is thrown.

    `unit_dice` are the unit's FP or AT Dice, `base_dice` the same after
    halving for indirect fire, `move_dice` what the move cost, `tn_unslid`
    the target number before sliding, `slide_dice` the dice sliding added (+)
    or cost (-), and `dice_rolled` / `tn` what is finally rolled.
    """

    mode: str
    dice_type: str
    band: str
    unit_dice: int
    base_dice: int
    move_dice: int
    extra_dice: int
    tn_unslid: int
    slide_dice: int
    dice_rolled: int
    tn: int
    suppression: str

    def as_values(self) -> dict[str, int | str]:
        return {
            "mode": self.mode, "dice_type": self.dice_type, "band": self.band, "unit_dice": self.unit_dice,
            "base_dice": self.base_dice, "move_dice": self.move_dice, "extra_dice": self.extra_dice,
            "tn_unslid": self.tn_unslid, "slide_dice": self.slide_dice, "dice_rolled": self.dice_rolled,
            "tn": self.tn, "suppression": self.suppression,
        }


def _parse(inputs: Inputs) -> FireInputs:
    r = InputReader(inputs)
    mode = r.choice("mode", MODES)
    p = FireInputs(
        mode=mode,
        dice_type=r.choice("dice_type", DICE_TYPES),
        fp_dice=r.int("fp_dice", minimum=0, maximum=MAX_DICE),
        at_dice=r.int("at_dice", minimum=0, maximum=MAX_DICE),
        move=r.choice("move", MOVES, "single"),
        range=r.float("range", minimum=0.0),
        ranges=parse_ranges(r.str("ranges")),
        flank_or_rear=r.bool("flank_or_rear"),
        los=r.bool("los", mode == "direct"),
        opportunity=r.bool("opportunity"),
        tn_modifier=r.int("tn_modifier", 0, minimum=-6, maximum=6),
        extra_dice=r.int("extra_dice", 0, minimum=-MAX_DICE, maximum=MAX_DICE),
        direct=DirectFireModifiers.read(r),
        limits=SlidingLimits.read(r),
    )
    firer_suppressed = r.bool("firer_suppressed")
    r.finish()
    if firer_suppressed:
        raise RulesInputError("firer_suppressed", "a suppressed unit cannot fire")
    if p.opportunity and not p.los:
        raise RulesInputError("los", "a close-support unit may only use opportunity fire "
                                     "with a direct line of sight to the target")
    if p.mode == "direct" and not p.los:
        raise RulesInputError("los", "direct fire needs a line of sight to the target; without one "
                                     "a close-support unit fires indirectly with a Forward Observer")
    if p.mode == "indirect" and p.flank_or_rear:
        raise RulesInputError("flank_or_rear", "the flank or rear modifier is for direct fire; "
                                               "indirect fire needs 4+ whatever the facing")
    return p


def _plan(p: FireInputs) -> FirePlan:
    unit_dice = p.fp_dice if p.dice_type == "fp" else p.at_dice
    if p.mode == "indirect":
        rules = indirect_fire_rules()
        band = p.ranges.check_indirect(p.range, rules.long_range_multiplier)
        base = halved(unit_dice, rules.dice_divisor)
        lost = rules.move_dice(p.move)
        tn = rules.target_number + p.tn_modifier
    else:
        band = p.ranges.check_direct(p.range)
        base = unit_dice
        lost = p.direct.move_dice(p.move)
        tn = p.direct.base_tn + p.direct.band_tn(band) + (p.direct.flank_or_rear if p.flank_or_rear else 0)
        tn += p.tn_modifier
    pool = max(0, base - lost + p.extra_dice)
    slid = slide(pool, tn, p.limits)
    return FirePlan(p.mode, p.dice_type, band, unit_dice, base, lost, p.extra_dice, tn, slid.change,
                    slid.dice, slid.tn, SUPPRESSION[p.mode])


def plan_fire(inputs: Inputs) -> FirePlan:
    """The dice and target number a shot will roll, or the RulesInputError that refuses it."""
    return _plan(_parse(inputs))


def _describe(plan: FirePlan) -> str:
    kind = plan.dice_type.upper()
    parts = [f"{plan.mode.capitalize()} fire at {plan.band} range: {kind} {plan.unit_dice}D"]
    if plan.mode == "indirect":
        parts.append(f"halved to {plan.base_dice}D")
    if plan.move_dice:
        parts.append(f"-{plan.move_dice}D for moving")
    if plan.extra_dice:
        parts.append(f"{plan.extra_dice:+d}D extra")
    if plan.slide_dice:
        parts.append(f"TN {plan.tn_unslid}+ slides to {plan.tn}+ ({plan.slide_dice:+d}D)")
    return ", ".join(parts) + f": {plan.dice_rolled}D needing {plan.tn}+."


def fire_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    plan = plan_fire(inputs)
    roller = Roller(dice)
    rolled = roller.roll_ints(f"{plan.dice_type.upper()} dice", D6, plan.dice_rolled)
    hits = sum(1 for v in rolled if v >= plan.tn)
    sixes = sum(1 for v in rolled if v == 6)
    log = [_describe(plan)]
    if plan.dice_rolled:
        log.append(f"Rolled {' '.join(map(str, rolled))}: {counted(hits, 'successes')}, {counted(sixes, 'sixes')} "
                   f"({plan.suppression} suppressions).")
    else:
        log.append("No dice left to roll: the fire has no effect.")
    values: dict[str, int | str] = {**plan.as_values(), "successes": hits, "sixes": sixes}
    return Resolution(NAME, successes_key(hits), values, roller.rolls, [], log)


@lru_cache(maxsize=512)
def successes_odds(dice: int, tn: int) -> Distribution[str]:
    """Exact chances of each `successes=N` for `dice` D6 needing `tn`+."""
    return successes(dice, tn).map(successes_key)


def fire_odds(inputs: Inputs) -> Distribution[str]:
    plan = plan_fire(inputs)
    return successes_odds(plan.dice_rolled, plan.tn)


_TYPICAL_CLOSE_SUPPORT_FIRE: Inputs = {"mode": "indirect", "dice_type": "fp", "fp_dice": 7, "at_dice": 4,
                                       "move": "single", "range": 24, "ranges": "9/18/36"}
register(Procedure(NAME, "Close-support fire", fire_resolve, fire_odds, ruleset=RULESET, settings=SETTINGS,
                   better=counts("successes", "sixes"), rolled_by=FIRER,
                   typical=_TYPICAL_CLOSE_SUPPORT_FIRE,
                   largest={**_TYPICAL_CLOSE_SUPPORT_FIRE, "fp_dice": 20, "at_dice": 20},
                   worst_best=("successes=0", "successes=4")))
