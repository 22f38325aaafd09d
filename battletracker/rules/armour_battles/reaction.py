"""The target's Reaction Check against incoming fire: `ab.reaction`.

From the Armour Battles core rules as the publisher summarises them (the
close-support document relies on them without stating them, so every number
here is a setting to check). When the firer scored no successes there is no
check. Otherwise the target rolls its Reaction Dice (plus Cover Dice) at 4+,
5+ if it is already suppressed; each incoming success its successes do not
cancel is one Disruption Point, and a unit is Dispersed when its Disruption
reaches its Cohesion (3). The firer's 6s suppress the target unless it rolls
as many 6s; artillery suppressions (indirect fire) suppress unless it rolls
more. A unit that takes Disruption and is not dispersed is forced back 6" plus
1D6" for each of the firer's 6s it did not match.

Effects on `target_id`: the "disruption" counter goes up by the Disruption
taken; a suppression sets the condition "suppressed", and an artillery
suppression sets "artillery_suppressed" as well; dispersal sets "dispersed".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from math import comb

from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.core.odds import success_chance
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import Effect
from battletracker.model.effects import SetCondition
from battletracker.model.game import Scalar
from battletracker.rules import register
from battletracker.rules.armour_battles import sliding
from battletracker.rules.armour_battles.data import RULESET
from battletracker.rules.armour_battles.data import read_bool_setting
from battletracker.rules.armour_battles.data import read_int_setting
from battletracker.rules.armour_battles.sliding import SlidingLimits
from battletracker.rules.armour_battles.sliding import slide
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import counted
from battletracker.rules.base import counts
from battletracker.rules.base import worse_for_roller
from battletracker.rules.tables import ruleset_file
from battletracker.rules.tables import setting

NAME = "ab.reaction"
SUPPRESSIONS = ("normal", "artillery")
SETTINGS = ("reaction_tn", "reaction_tn_suppressed", "cover_against_indirect", "cohesion",
            "forced_back_inches") + sliding.SETTINGS
MAX_DICE = 20
MAX_INCOMING = 40

DISRUPTION = "disruption"
SUPPRESSED = "suppressed"
ARTILLERY_SUPPRESSED = "artillery_suppressed"
DISPERSED = "dispersed"


def outcome_key(disruption: int, suppressed: bool) -> str:
    return f"disruption={disruption} suppressed={'yes' if suppressed else 'no'}"


def suppresses(suppression: str, firer_sixes: int, target_sixes: int) -> bool:
    """Normal fire suppresses unless the target matches the firer's 6s; artillery unless it rolls more."""
    if firer_sixes == 0:
        return False
    if suppression == "artillery":
        return target_sixes <= firer_sixes
    return target_sixes < firer_sixes


def cover_dice_words(settings: Mapping[str, Scalar]) -> str:
    """What a unit's Cover Dice are, where a fire dialog asks for them: the seed names them without a number.

    The numbers per level of cover are terrain.toml's defaults to check; a game
    whose Ruleset settings leave Cover Dice out against indirect fire says so.
    """
    dice = ruleset_file(RULESET, "terrain").table("cover").table("dice")
    words = (f"Cover Dice are extra dice a unit in cover adds to its Reaction Check, rolled with its Reaction Dice. "
             f"The rules we have give no numbers: by default {dice.int('light')} in light cover, "
             f"{dice.int('heavy')} in heavy (to check). Set each unit's from its cover at the table; "
             f"0 D means no Cover Dice: the unit is in the open.")
    if not bool(setting(RULESET, "cover_against_indirect", settings)):
        words += " This game's Ruleset settings count no Cover Dice against indirect fire."
    return words


@dataclass(frozen=True)
class ReactionInputs:
    reaction_dice: int
    incoming: int
    incoming_sixes: int
    suppression: str
    suppressed: bool
    cover_dice: int
    indirect: bool
    tn_modifier: int
    extra_dice: int
    disruption: int
    target_id: str
    firer_id: str
    base_tn: int
    suppressed_tn: int
    cover_against_indirect: bool
    cohesion: int
    forced_back_inches: int
    limits: SlidingLimits

    @property
    def cover_counted(self) -> int:
        return 0 if self.indirect and not self.cover_against_indirect else self.cover_dice


@dataclass(frozen=True)
class ReactionPlan:
    """The Reaction roll before it is thrown; `dice_rolled` is 0 when no check is needed."""

    checked: bool
    cover_dice: int
    tn_unslid: int
    slide_dice: int
    dice_rolled: int
    tn: int


def _parse(inputs: Inputs) -> ReactionInputs:
    r = InputReader(inputs)
    suppression = r.choice("suppression", SUPPRESSIONS, "normal")
    p = ReactionInputs(
        reaction_dice=r.int("reaction_dice", minimum=0, maximum=MAX_DICE),
        incoming=r.int("incoming", minimum=0, maximum=MAX_INCOMING),
        incoming_sixes=r.int("incoming_sixes", 0, minimum=0, maximum=MAX_INCOMING),
        suppression=suppression,
        suppressed=r.bool("suppressed"),
        cover_dice=r.int("cover_dice", 0, minimum=0, maximum=MAX_DICE),
        indirect=r.bool("indirect", suppression == "artillery"),
        tn_modifier=r.int("tn_modifier", 0, minimum=-6, maximum=6),
        extra_dice=r.int("extra_dice", 0, minimum=-MAX_DICE, maximum=MAX_DICE),
        disruption=r.int("disruption", 0, minimum=0),
        target_id=r.str("target_id", ""),
        firer_id=r.str("firer_id", ""),
        base_tn=read_int_setting(r, "reaction_tn"),
        suppressed_tn=read_int_setting(r, "reaction_tn_suppressed"),
        cover_against_indirect=read_bool_setting(r, "cover_against_indirect"),
        cohesion=read_int_setting(r, "cohesion"),
        forced_back_inches=read_int_setting(r, "forced_back_inches"),
        limits=SlidingLimits.read(r),
    )
    r.finish()
    _check_incoming(p.incoming, p.incoming_sixes)
    if p.disruption >= p.cohesion:
        raise RulesInputError("disruption", f"a unit with {p.disruption} Disruption has already dispersed "
                                            f"(Cohesion {p.cohesion})")
    return p


def _check_incoming(incoming: int, incoming_sixes: int) -> None:
    if incoming_sixes > incoming:
        raise RulesInputError("incoming_sixes", f"{incoming_sixes} sixes cannot be more than the "
                                                f"{incoming} successes they are part of")


def _plan(p: ReactionInputs) -> ReactionPlan:
    tn = (p.suppressed_tn if p.suppressed else p.base_tn) + p.tn_modifier
    cover = p.cover_counted
    if p.incoming == 0:
        return ReactionPlan(False, cover, tn, 0, 0, slide(0, tn, p.limits).tn)
    slid = slide(max(0, p.reaction_dice + cover + p.extra_dice), tn, p.limits)
    return ReactionPlan(True, cover, tn, slid.change, slid.dice, slid.tn)


def plan_reaction(inputs: Inputs) -> ReactionPlan:
    """The Reaction Dice and target number the target will roll, or the refusal."""
    return _plan(_parse(inputs))


def reaction_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    plan = _plan(p)
    roller = Roller(dice)
    log: list[str] = []
    saves = sixes = 0
    if plan.checked:
        rolled = roller.roll_ints("Reaction dice", D6, plan.dice_rolled)
        saves = sum(1 for v in rolled if v >= plan.tn)
        sixes = sum(1 for v in rolled if v == 6)
        cover = f" including {plan.cover_dice} Cover Dice" if plan.cover_dice else ""
        slid = f" (TN {plan.tn_unslid}+ slid, {plan.slide_dice:+d}D)" if plan.slide_dice else ""
        log.append(f"Reaction Check: {plan.dice_rolled}D{cover} needing {plan.tn}+{slid}: "
                   f"{' '.join(map(str, rolled)) or 'no dice'} -> {counted(saves, 'successes')}, "
                   f"{counted(sixes, 'sixes')} against {counted(p.incoming, 'successes')} and "
                   f"{counted(p.incoming_sixes, 'sixes')}.")
    else:
        log.append("The fire scored no successes: no Reaction Check.")
    taken = max(0, p.incoming - saves)
    suppressed = suppresses(p.suppression, p.incoming_sixes, sixes)
    total = p.disruption + taken
    dispersed = taken > 0 and total >= p.cohesion
    unmatched = max(0, p.incoming_sixes - sixes)
    forced_back = 0
    if taken and not dispersed:
        forced_back = p.forced_back_inches + sum(roller.roll_ints("Forced back (D6 per unmatched 6)", D6, unmatched))
    if taken:
        log.append(f"{taken} Disruption ({total} in all)" + (": the unit is Dispersed." if dispersed else
                                                             f'; forced back {forced_back}".'))
    if suppressed:
        log.append(f"The unit is suppressed ({p.suppression} suppression).")
    effects: list[Effect] = []
    if p.target_id:
        if taken:
            effects.append(ChangeCounter(p.target_id, DISRUPTION, taken))
        if suppressed:
            effects.append(SetCondition(p.target_id, SUPPRESSED))
            if p.suppression == "artillery":
                effects.append(SetCondition(p.target_id, ARTILLERY_SUPPRESSED))
        if dispersed:
            effects.append(SetCondition(p.target_id, DISPERSED))
    values: dict[str, int | str | bool] = {
        "checked": plan.checked, "dice_rolled": plan.dice_rolled, "tn": plan.tn, "tn_unslid": plan.tn_unslid,
        "slide_dice": plan.slide_dice, "cover_dice": plan.cover_dice, "saves": saves, "reaction_sixes": sixes,
        "incoming": p.incoming, "incoming_sixes": p.incoming_sixes, "disruption": taken,
        "disruption_total": total, "suppressed": suppressed, "suppression": p.suppression,
        "dispersed": dispersed, "unmatched_sixes": unmatched, "forced_back": forced_back,
        "target_id": p.target_id, "firer_id": p.firer_id,
    }
    return Resolution(NAME, outcome_key(taken, suppressed), values, roller.rolls, effects, log)


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return (a[0] + b[0], a[1] + b[1])


@lru_cache(maxsize=256)
def joint_rows(dice: int, tn: int) -> tuple[tuple[int, ...], ...]:
    """Joint successes and sixes of `dice` D6 needing `tn`+ (tn at most 6, so every 6 is a success), as whole
    weights over 6**dice: row s holds the weight of s successes with x of them 6s at column x (0 past s)."""
    other = int(success_chance(tn) * 6) - 1  # faces that succeed without a 6
    fail = 5 - other
    rows = []
    for saves in range(dice + 1):
        # saves successes among the dice, x of them 6s: C(dice, saves) C(saves, x) other**(saves - x) fail**rest
        ways = comb(dice, saves) * fail ** (dice - saves)
        rows.append(tuple(ways * comb(saves, x) * other ** (saves - x) if x <= saves else 0
                          for x in range(dice + 1)))
    return tuple(rows)


@lru_cache(maxsize=256)
def _saves_table(dice: int, tn: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """`joint_rows` summed along each row: column x holds the weight of s successes with at most x sixes, so a
    check reads each number of successes in one step whatever the firer's 6s."""
    return tuple(tuple(accumulate(row)) for row in joint_rows(dice, tn)), 6**dice


@lru_cache(maxsize=1024)
def _odds(dice: int, tn: int, incoming: int, incoming_sixes: int, suppression: str) -> Distribution[str]:
    if incoming == 0:
        return Distribution.certain(outcome_key(0, False))
    return Distribution.from_weights(_weights(dice, tn, incoming, incoming_sixes, suppression), 6**dice)


def _weights(dice: int, tn: int, incoming: int, incoming_sixes: int, suppression: str) -> dict[str, int]:
    """The check's outcome keys with their whole weights over 6**dice."""
    table, den = _saves_table(dice, tn)
    if incoming == 0:
        return {outcome_key(0, False): den}
    # suppressed when the target's 6s are at most `limit` (none at all when the firer rolled no 6)
    limit = -1 if incoming_sixes == 0 else incoming_sixes if suppression == "artillery" else incoming_sixes - 1
    out: dict[str, int] = {}
    for saves, row in enumerate(table):
        total = row[-1]
        suppressed = row[min(limit, dice)] if limit >= 0 else 0
        taken = max(0, incoming - saves)
        for flag, n in ((True, suppressed), (False, total - suppressed)):
            if n:
                key = outcome_key(taken, flag)
                out[key] = out.get(key, 0) + n
    return out


def reaction_odds(inputs: Inputs) -> Distribution[str]:
    p = _parse(inputs)
    plan = _plan(p)
    return _odds(plan.dice_rolled, plan.tn, p.incoming, p.incoming_sixes, p.suppression)


def odds_against_fire(check: Inputs, fire_dice: int, fire_tn: int) -> Distribution[str]:
    """The Reaction Check's odds against a fire of `fire_dice` D6 needing `fire_tn`+ (every 6 a success and a
    six), summed over every number of successes and sixes the fire can roll; the check's inputs without
    `incoming` and `incoming_sixes`, read once."""
    p = _parse({**check, "incoming": 1, "incoming_sixes": 0})
    plan = _plan(p)  # the same for any number of incoming successes but none, which needs no roll
    return _against_fire(fire_dice, fire_tn, plan.dice_rolled, plan.tn, p.suppression)


@lru_cache(maxsize=256)
def _against_fire(fire_dice: int, fire_tn: int, dice: int, tn: int, suppression: str) -> Distribution[str]:
    """Fire and check as polynomials packed in big integers, one field of `width` bits per power of z.

    The fire's weights with x sixes are F_x(z) = sum over its successes h of weight(h, x) z**h; the check's
    with at most l sixes are S_l(z) = sum over its successes s of weight(s, <= l) z**(dice - s). In a product
    the power h + dice - s is `dice` more than the Disruption taken (none at or below `dice`), so the whole
    roll is F * S_dice and the suppressed part the sum of F_x * S_limit(x): a few big-integer products instead
    of a check per fire result. Every field holds at most 6**(fire_dice + dice) < 2**(width - 1).
    """
    fire_rows = joint_rows(fire_dice, fire_tn)
    table, _ = _saves_table(dice, tn)
    width = 3 * (fire_dice + dice) + 1
    checks = [sum(row[column] << width * (dice - saves) for saves, row in enumerate(table))
              for column in range(dice + 1)]
    fire_by_sixes = [sum(row[x] << width * hits for hits, row in enumerate(fire_rows) if row[x])
                     for x in range(fire_dice + 1)]
    everything = sum(fire_by_sixes) * checks[dice]
    suppressed = 0
    for x, packed in enumerate(fire_by_sixes):
        # suppressed when the target's 6s are at most `limit` (never when the firer rolled no 6)
        limit = -1 if x == 0 else x if suppression == "artillery" else x - 1
        if limit >= 0 and packed:
            suppressed += packed * checks[min(limit, dice)]
    field = (1 << width) - 1
    by_taken: dict[tuple[int, bool], int] = {}
    for power in range(fire_dice + dice + 1):
        shift = width * power
        n_suppressed = (suppressed >> shift) & field
        n_all = (everything >> shift) & field
        taken = max(0, power - dice)
        for flag, n in ((True, n_suppressed), (False, n_all - n_suppressed)):
            if n:
                by_taken[taken, flag] = by_taken.get((taken, flag), 0) + n
    weights = {outcome_key(taken, flag): n for (taken, flag), n in by_taken.items()}
    return Distribution.from_weights(weights, 6 ** (fire_dice + dice))


register(Procedure(NAME, "Reaction Check", reaction_resolve, reaction_odds, ruleset=RULESET, settings=SETTINGS,
                   better=worse_for_roller(counts("disruption", "suppressed")), rolled_by=("target_id", "target"),
                   typical={"reaction_dice": 4, "incoming": 3, "incoming_sixes": 1, "suppression": "artillery"},
                   largest={"reaction_dice": 20, "incoming": 40, "incoming_sixes": 10, "suppression": "artillery"},
                   worst_best=("disruption=3 suppressed=yes", "disruption=0 suppressed=no")))
