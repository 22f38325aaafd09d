"""The Storm of Steel Bonus: extra dice for the 6s a weapon rolls.

The documents name the bonus but do not define it, so its two knobs are
ruleset settings (settings.toml): how many extra dice each 6 earns, and
whether 6s on extra dice earn more (at most `MAX_ROUNDS` rounds of extras,
so the exact odds stay finite and agree with the dice).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import lcm

from battletracker.core.dice import D6
from battletracker.core.odds import Distribution, success_chance
from battletracker.rules.base import InputReader, Roller
from battletracker.rules.tables import setting

MAX_ROUNDS = 3
SETTINGS = ("storm_of_steel_per_six", "storm_of_steel_chains")


@dataclass(frozen=True)
class StormOfSteel:
    per_six: int = 1
    chains: bool = False

    @classmethod
    def read(cls, r: InputReader) -> StormOfSteel:
        """The setting as given in a procedure's inputs, else the ruleset default."""
        per_six = setting("chain_of_command", "storm_of_steel_per_six")
        chains = setting("chain_of_command", "storm_of_steel_chains")
        assert isinstance(per_six, int) and isinstance(chains, bool)
        return cls(
            per_six=r.int("storm_of_steel_per_six", per_six, minimum=0, maximum=3),
            chains=r.bool("storm_of_steel_chains", chains),
        )

    @property
    def rounds(self) -> int:
        return MAX_ROUNDS if self.chains else 1


@dataclass(frozen=True)
class StormRoll:
    """The dice of one roll with its Storm of Steel extras, and what they scored."""

    base: tuple[int, ...]
    extra: tuple[int, ...]
    hits: int
    sixes: int

    @property
    def all_dice(self) -> tuple[int, ...]:
        return self.base + self.extra


def roll(roller: Roller, label: str, count: int, target: int, storm: StormOfSteel | None) -> StormRoll:
    """Roll `count` D6 needing `target`+, then the Storm of Steel dice their 6s earn."""
    base = roller.roll_ints(label, D6, count)
    dice = list(base)
    extra: list[int] = []
    new_sixes = sum(1 for v in base if v == 6)
    if storm is not None:
        for round_no in range(storm.rounds):
            earned = new_sixes * storm.per_six
            if not earned:
                break
            suffix = "" if round_no == 0 else f" (round {round_no + 1})"
            more = roller.roll_ints(f"Storm of Steel dice{suffix}", D6, earned)
            extra.extend(more)
            dice.extend(more)
            new_sixes = sum(1 for v in more if v == 6)
    hits = sum(1 for v in dice if v >= target)
    sixes = sum(1 for v in dice if v == 6)
    return StormRoll(tuple(base), tuple(extra), hits, sixes)


def _add_pairs(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return (a[0] + b[0], a[1] + b[1])


@lru_cache(maxsize=4096)
def hits_and_sixes(count: int, target: int, storm: StormOfSteel | None) -> Distribution[tuple[int, int]]:
    """Exact joint distribution of (hits, sixes) for `roll` with the same arguments."""
    weights, den = hits_and_sixes_weights(count, target, storm)
    return Distribution.from_weights(weights, den)


@lru_cache(maxsize=256)
def hits_and_sixes_weights(count: int, target: int, storm: StormOfSteel | None,
                           sixes: bool = True) -> tuple[dict[tuple[int, int], int], int]:
    """(hits, sixes) of `roll` as whole weights over one denominator; without `sixes` every count of sixes
    reads 0 (a polynomial in the hits alone, a fraction of the size, for rolls whose sixes do nothing).

    Each die and the extras its 6 earns are independent of the other dice, so
    the joint distribution is one die's (with its extras) combined `count`
    times: one die's polynomial in (hits, sixes) packed into an integer, one
    byte-aligned slot per pair wide enough that nothing carries, raised to the
    `count`-th power. With chained extras a die can bring 40 dice, so 12 dice
    reach 480: a pair-by-pair convolution would take minutes, the power takes
    milliseconds.
    """
    rounds = storm.rounds if storm is not None else 0
    only_sixes = False
    if sixes:
        one_die = list(_one_die(target, storm, rounds).items())
        only_sixes = all(h == x for (h, x), _ in one_die)
        if only_sixes:  # hitting on 6 alone every hit is a six: a polynomial in the hits suffices
            one_die = [((h, 0), p) for (h, _), p in one_die]
    else:
        hits, hits_den = _one_die_hits(target, storm, rounds)
        one_die = [((h, 0), Fraction(n, hits_den)) for h, n in enumerate(hits) if n]
    die_den = lcm(*(p.denominator for _, p in one_die))
    if count == 0:
        return {(0, 0): 1}, 1
    most_h = count * max(h for (h, _), _ in one_die)
    xs = count * max(x for (_, x), _ in one_die) + 1
    size = (die_den**count).bit_length() // 8 + 1
    die = 0
    for (h, x), p in one_die:
        die += (p.numerator * (die_den // p.denominator)) << (8 * size * (h * xs + x))
    raw = (die**count).to_bytes(size * (most_h + 1) * xs, "little")
    out: dict[tuple[int, int], int] = {}
    for h in range(most_h + 1):
        for x in range(min(h, xs - 1) + 1):
            at = (h * xs + x) * size
            n = int.from_bytes(raw[at:at + size], "little")
            if n:
                out[(h, h if only_sixes else x)] = n
    return out, die_den**count


@lru_cache(maxsize=256)
def _one_die(target: int, storm: StormOfSteel | None, rounds_left: int) -> Distribution[tuple[int, int]]:
    p_six = Fraction(1, 6)
    p_hit_not_six = max(success_chance(target) - p_six, Fraction(0))
    six: Distribution[tuple[int, int]] = Distribution.certain((1, 1))
    if storm is not None and rounds_left and storm.per_six:
        extras = _one_die(target, storm, rounds_left - 1).repeat(storm.per_six, _add_pairs, (0, 0))
        six = six.convolve(extras, _add_pairs)
    not_six = {(1, 0): p_hit_not_six, (0, 0): 1 - p_six - p_hit_not_six}
    return Distribution.mix([(p_six, six), (1, Distribution(not_six))])


@lru_cache(maxsize=256)
def _one_die_hits(target: int, storm: StormOfSteel | None, rounds_left: int) -> tuple[tuple[int, ...], int]:
    """The hits alone of one die with its extras, as whole weights by hits over one denominator.

    As `_one_die` with the sixes left out: a polynomial in the hits of at
    most 41 terms, multiplied in integers, not a table of (hits, sixes)
    pairs convolved in fractions (most of the time of a roll whose sixes do
    nothing).
    """
    hit_not_six = max((6 if target <= 1 else max(7 - target, 0)) - 1, 0)
    six = [0, 1]
    den = 6
    if storm is not None and rounds_left and storm.per_six:
        extra, extra_den = _one_die_hits(target, storm, rounds_left - 1)
        for _ in range(storm.per_six):
            product = [0] * (len(six) + len(extra) - 1)
            for i, a in enumerate(six):
                if a:
                    for j, b in enumerate(extra):
                        product[i + j] += a * b
            six = product
            den *= extra_den
    scale = den // 6
    weights = list(six)
    weights[0] += (5 - hit_not_six) * scale
    weights[1] += hit_not_six * scale
    return tuple(weights), den


@lru_cache(maxsize=256)
def capped_weights(count: int, target: int, storm: StormOfSteel | None,
                   sixes_cap: int) -> tuple[dict[tuple[int, int], int], int]:
    """(hits, sixes read as at most `sixes_cap`) of `roll` as whole weights over one denominator.

    Where only a few counts of sixes matter (two set a building on fire),
    the rolls with fewer sixes than the cap are counted as a polynomial in
    the hits for each such count, multiplied with the higher counts of sixes
    dropped, and the rest of each hit total is the cap: the whole (hits,
    sixes) table of chained Storm of Steel dice (480 by 480) is never made.
    """
    if sixes_cap <= 0:
        return hits_and_sixes_weights(count, target, storm, False)
    rounds = storm.rounds if storm is not None else 0
    one_die = list(_one_die(target, storm, rounds).items())
    most_x = max(x for (_, x), _ in one_die)
    if count == 0 or sixes_cap >= count * most_x:
        return hits_and_sixes_weights(count, target, storm)
    die_den = lcm(*(p.denominator for _, p in one_die))
    den = die_den**count
    width = 8 * ((den.bit_length() // 8) + 1)
    die = [0] * sixes_cap  # count of sixes -> packed weights by hits
    for (h, x), p in one_die:
        if x < sixes_cap:
            die[x] += (p.numerator * (die_den // p.denominator)) << (width * h)

    def times(a: list[int], b: list[int]) -> list[int]:
        return [sum(a[i] * b[x - i] for i in range(x + 1)) for x in range(sixes_cap)]

    low = [1] + [0] * (sixes_cap - 1)
    power, left = die, count
    while left:
        if left & 1:
            low = times(low, power)
        left >>= 1
        if left:
            power = times(power, power)
    hits, hits_den = hits_and_sixes_weights(count, target, storm, False)
    scale = den // hits_den
    mask = (1 << width) - 1
    out: dict[tuple[int, int], int] = {}
    for (h, _), n in hits.items():
        rest = n * scale
        for x in range(sixes_cap):
            w = (low[x] >> (width * h)) & mask
            if w:
                out[(h, x)] = w
                rest -= w
        if rest:
            out[(h, sixes_cap)] = rest
    return out, den
