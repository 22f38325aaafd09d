"""`necro.stray_shots`: where the shots of a missed attack go (Arbitrator's toolkit).

When an attack misses, each model within 1" of the line along which range
was measured is at risk, the one closest to the attacker first: a D6 of 1-3
hits it, 4-6 moves the shot on to the next. Every Hit the attack would have
caused (`necro.shoot`'s `stray_hits`) follows that sequence afresh from the
closest model, so a model can be hit more than once, and a shot that passes
every model hits no one.

The map lists the models at risk with `stray_shot_candidates` (the attacker
and the target are left out: the attack has already missed the target).
Inputs: `at_risk` (ids, closest first), `hits`, and which of them are
`engaged`, `seriously_injured` or `near_ledge` (within 1/2" of a ledge), for
the Suppression and falling flags on the models hit, and their `names`
("id=name" rows) for the dice prompts and the log. Dice: one D6 per model
tried, Hit by Hit. Outcome: `none`, or `hit=` and the ids of the models hit at
least once, in the order at risk ("hit=u3,u7"). The rule is a toolkit option:
refused unless the setting `toolkit_stray_shots` is on.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from functools import lru_cache
from math import gcd
from typing import Any
from typing import TypeVar

from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.geometry import Point
from battletracker.core.geometry import corridor
from battletracker.core.odds import Distribution
from battletracker.model.effects import Effect
from battletracker.rules import register
from battletracker.rules.base import FIRER
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import all_alike
from battletracker.rules.necromunda.conditions import hit_effects
from battletracker.rules.necromunda.id_lists import read_ids
from battletracker.rules.necromunda.id_lists import read_names
from battletracker.rules.necromunda.options import STRAY_SHOTS
from battletracker.rules.necromunda.options import read_toolkit
from battletracker.rules.necromunda.refusals import Refusal
from battletracker.rules.necromunda.refusals import speaking

K = TypeVar("K")

NAME = "necro.stray_shots"
CORRIDOR = 1.0
HIT_ON_AT_MOST = 3
MAX_AT_RISK = 8
MAX_HITS = 18


def stray_shot_candidates(attacker: tuple[K, Point], target: tuple[K, Point],
                          models: Iterable[tuple[K, Point]]) -> list[K]:
    """Models within 1" of the line from the attacker to the target, closest to the attacker first."""
    others = [(key, point) for key, point in models if key != attacker[0] and key != target[0]]
    return corridor(attacker[1], target[1], CORRIDOR, others)


@dataclass(frozen=True)
class StrayInputs:
    at_risk: tuple[str, ...]
    hits: int
    engaged: frozenset[str]
    seriously_injured: frozenset[str]
    near_ledge: frozenset[str]
    names: dict[str, str] = field(default_factory=dict, compare=False)

    def name(self, unit_id: str) -> str:
        """How the dice prompts and the log say a model: its name, else its id."""
        return self.names.get(unit_id, unit_id)


@speaking
def _parse(inputs: Inputs) -> StrayInputs:
    r = InputReader(inputs)
    if not read_toolkit(r, STRAY_SHOTS):
        raise Refusal(STRAY_SHOTS, "stray shots are an Arbitrator's toolkit option that is off in this game")
    at_risk = read_ids(r, "at_risk", maximum=MAX_AT_RISK)
    parsed = StrayInputs(
        at_risk=at_risk,
        hits=r.int("hits", 1, minimum=1, maximum=MAX_HITS),
        engaged=frozenset(read_ids(r, "engaged", within=at_risk)),
        seriously_injured=frozenset(read_ids(r, "seriously_injured", within=at_risk)),
        near_ledge=frozenset(read_ids(r, "near_ledge", within=at_risk)),
        names=read_names(r),
    )
    r.finish()
    return parsed


def outcome_key(models_hit: Iterable[str]) -> str:
    listed = list(models_hit)
    return "hit=" + ",".join(listed) if listed else "none"


def stray_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    roller = Roller(dice)
    per_hit: list[str | None] = []
    log: list[str] = []
    for h in range(1, p.hits + 1):
        struck: str | None = None
        for unit_id in p.at_risk:
            roll = roller.roll_ints(f"Stray shot {h}: {p.name(unit_id)}", D6)[0]
            if roll <= HIT_ON_AT_MOST:
                struck = unit_id
                break
        per_hit.append(struck)
        log.append(f"Stray shot {h}: " + (f"hits {p.name(struck)}" if struck else "hits no one"))
    counts = {unit_id: per_hit.count(unit_id) for unit_id in p.at_risk if unit_id in per_hit}
    effects: list[Effect] = []
    for unit_id in counts:
        effects.extend(hit_effects(unit_id, engaged=unit_id in p.engaged,
                                   seriously_injured=unit_id in p.seriously_injured,
                                   near_ledge=unit_id in p.near_ledge))
    values: dict[str, Any] = {
        "per_hit": per_hit,
        "counts": counts,
        "models_hit": list(counts),
        "missed_everyone": per_hit.count(None),
    }
    return Resolution(NAME, outcome_key(counts), values, roller.rolls, effects, log)


def stray_odds(inputs: Inputs) -> Distribution[str]:
    p = _parse(inputs)
    return _keyed(p.at_risk, p.hits)


@lru_cache(maxsize=512)
def _keyed(at_risk: tuple[str, ...], hits: int) -> Distribution[str]:
    keys = _mask_keys(at_risk)
    return _odds(len(at_risk), hits).map(keys.__getitem__)


@lru_cache(maxsize=512)
def _mask_keys(at_risk: tuple[str, ...]) -> tuple[str, ...]:
    """The outcome key of every bit mask over the at-risk order: each mask's models are its mask without the
    last one, then that one (an attack keys the masks of every number of shots with them)."""
    listed: list[str] = [""]
    for mask in range(1, 1 << len(at_risk)):
        last = mask.bit_length() - 1
        before = listed[mask ^ (1 << last)]
        listed.append(f"{before},{at_risk[last]}" if before else at_risk[last])
    return tuple("hit=" + models if models else outcome_key(()) for models in listed)


@lru_cache(maxsize=512)
def _odds(models: int, hits: int) -> Distribution[int]:
    """Which models are hit at least once, as a bit mask over the at-risk order.

    One shot hits model i (the first to roll low enough) with weight w_i and
    no one with weight q, over 6**models. `hits` shots all land inside a set T
    of models (or on no one) with weight (q + the sum of w_i over T)**hits;
    taking away the chances of T's smaller subsets (a Moebius transform over
    the masks) leaves the chance of exactly T being hit: 2**models sums rather
    than a convolution per shot.
    """
    (weights,), den = mixed_weights(models, (((hits, 1),),))
    return Distribution.from_weights({mask: w for mask, w in enumerate(weights) if w}, den)


@lru_cache(maxsize=512)
def mixed_weights(models: int, groups: tuple[tuple[tuple[int, int], ...], ...],
                  ) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Which models are hit at least once (each bit mask's whole weight, as `_odds`) when the number of shots
    is itself rolled, for several groups at once: each group pairs numbers of shots with their whole weights.
    Returns each group's mask weights and the scale they share: a group's weights add up to its total weight
    times the scale.

    The Moebius transform is linear, so it runs once on the masks' weights summed over the numbers of shots
    (each a polynomial in the mask's inside weight, read by Horner's rule) rather than once per number of
    shots; an attack's Firepower dice give it a dozen. The groups ride in one big integer, a field of
    `width` bits each: every field stays between 0 and its group's total times the scale, all the way
    through the transform, so no field borrows from its neighbour.
    """
    pairs = [pair for group in groups for pair in group]
    most = max(n for n, _ in pairs)
    fewest = min(n for n, _ in pairs)
    low, high = HIT_ON_AT_MOST, 6 - HIT_ON_AT_MOST
    one = [low * high**i * 6 ** (models - 1 - i) for i in range(models)]
    # one shot's weights share a factor (3**models when 1-3 hits): leaving it out keeps the numbers small
    unit = gcd(6**models, high**models, *one)
    one = [w // unit for w in one]
    base = 6**models // unit
    scale = base**most
    width = max(sum(w for _, w in group) for group in groups).bit_length() + scale.bit_length() + 1
    coefficients = [0] * (most + 1)
    for g, group in enumerate(groups):
        for n, w in group:
            coefficients[n] += (w * base ** (most - n)) << (width * g)
    highest_first = coefficients[fewest:][::-1]
    inside = [high**models // unit] * (1 << models)
    for mask in range(1, 1 << models):
        lowest = mask & -mask
        inside[mask] = inside[mask ^ lowest] + one[lowest.bit_length() - 1]
    exactly = []
    for x in inside:
        acc = 0
        for c in highest_first:
            acc = acc * x + c
        exactly.append(acc * x**fewest)
    for i in range(models):
        bit = 1 << i
        for mask in range(1 << models):
            if mask & bit:
                exactly[mask] -= exactly[mask ^ bit]
    field = (1 << width) - 1
    return tuple(tuple((packed >> (width * g)) & field for packed in exactly) for g in range(len(groups))), scale


def stray_label(outcome: str, names: Mapping[str, str] | None = None) -> str:
    """"hit=u1,u2" reads "Stray shots hit u1, u2", or the models' `names` by id ("Stray shots hit Vex, Kal")."""
    hit = outcome.removeprefix("hit=").split(",") if outcome.startswith("hit=") else []
    return "Stray shots hit " + (", ".join((names or {}).get(k, k) for k in hit) if hit else "no one")


# Which models the stray shots find is good or bad by whose they are, which the outcome does not say:
# the dice luck leaves the roll out.
register(Procedure(NAME, "Stray shots", stray_resolve, stray_odds, ruleset="necromunda", settings=(STRAY_SHOTS,),
                   label=stray_label, named_label=stray_label, better=all_alike, rolled_by=FIRER,
                   typical={"at_risk": "u1,u2,u3", "hits": 2, "toolkit_stray_shots": True},
                   largest={"at_risk": "u1,u2,u3,u4,u5,u6,u7,u8", "hits": 18, "toolkit_stray_shots": True}))
