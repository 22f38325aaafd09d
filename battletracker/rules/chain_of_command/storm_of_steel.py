"""The Storm of Steel Bonus: extra dice for the 6s a weapon rolls.

The documents name the bonus but do not define it, so its two knobs are
ruleset settings (settings.toml): how many extra dice each 6 earns, and
whether 6s on extra dice earn more (at most `MAX_ROUNDS` rounds of extras,
so the exact odds stay finite and agree with the dice).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from math import gcd
from math import lcm
from operator import mul
from operator import sub

from battletracker.core.dice import D6
from battletracker.core.odds import Distribution
from battletracker.core.odds import success_chance
from battletracker.rules.base import InputReader
from battletracker.rules.base import Roller
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


def most_dice_per_die(storm: StormOfSteel | None) -> int:
    """The most dice one die can bring with the Storm of Steel dice its 6s earn, itself included."""
    if storm is None or not storm.per_six:
        return 1
    return sum(storm.per_six**i for i in range(storm.rounds + 1))


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

    low = _power_below(die, count, sixes_cap)
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


def _times_columns(a: tuple[tuple[int, ...], ...], b: tuple[tuple[int, ...], ...],
                   columns: int) -> tuple[tuple[int, ...], ...]:
    """The product of two polynomials in (hits, sixes), each a polynomial in the hits per count of sixes,
    the counts of sixes from `columns` on dropped."""
    out: list[list[int]] = [[] for _ in range(columns)]
    for x, pa in enumerate(a):
        for y, pb in enumerate(b):
            if x + y >= columns or not pa or not pb:
                continue
            row = out[x + y]
            if len(row) < len(pa) + len(pb) - 1:
                row.extend([0] * (len(pa) + len(pb) - 1 - len(row)))
            for i, u in enumerate(pa):
                if u:
                    for j, v in enumerate(pb):
                        row[i + j] += u * v
    return tuple(tuple(row) for row in out)


@lru_cache(maxsize=256)
def one_die_by_sixes(target: int, storm: StormOfSteel | None, rounds_left: int,
                     columns: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """One die with its extras as whole weights by hits, one polynomial per count of sixes below `columns`,
    over the denominator of `_one_die_hits` (so the rest of each hit total is its hits less these).

    Integer polynomials of at most 41 terms, never the whole (hits, sixes) table in fractions.
    """
    hit_not_six = max((6 if target <= 1 else max(7 - target, 0)) - 1, 0)
    six: tuple[tuple[int, ...], ...] = tuple((0, 1) if x == 1 else () for x in range(columns))
    den = 6
    if storm is not None and rounds_left and storm.per_six:
        extra, extra_den = one_die_by_sixes(target, storm, rounds_left - 1, columns)
        for _ in range(storm.per_six):
            six = _times_columns(six, extra, columns)
            den *= extra_den
    scale = den // 6  # a die that is not a six: no sixes, a miss or a hit; a six counts one six or more
    return (((5 - hit_not_six) * scale, hit_not_six * scale), *six[1:]), den


def _shifted(poly: Sequence[int], none: int, per_hit: int, degree: int) -> list[int]:
    """`poly` in the hits y as a polynomial in z with y = (none + z) / per_hit, times per_hit**degree.

    A Taylor shift by `none` in repeated additions of small multiples, not a
    binomial coefficient and a power per pair of terms.
    """
    out = [c * per_hit ** (degree - h) for h, c in enumerate(poly[:degree + 1])]
    out += [0] * (degree + 1 - len(out))
    if none:
        for i in range(degree):
            for j in range(degree - 1, i - 1, -1):
                out[j] += none * out[j + 1]
    return out


def _unpack(packed: int, slots: int, size: int) -> list[int]:
    raw = packed.to_bytes(slots * size, "little")
    return [int.from_bytes(raw[at:at + size], "little") for at in range(0, slots * size, size)]


def _power(poly: list[int], count: int) -> list[int]:
    """The coefficients of `poly` (nonzero constant term) raised to the `count`-th power.

    By the recurrence from P' D = count D' P (P = D**count): each coefficient
    is a sum over the at most 41 terms of one die, in whole numbers (the
    division is exact). For 12 dice of 40 hits each it takes half the time
    of squaring a packed integer of the 481 coefficients, which Python
    multiplies by Karatsuba's method.
    """
    degree = len(poly) - 1
    most = degree * count
    first = poly[0]
    rest = poly[1:]
    factors = [((count + 1) * i - 1) * c for i, c in enumerate(rest, 1)]  # ((count + 1) i - k) poly[i], k = 1
    out = [first**count]
    for k in range(1, most + 1):
        back = out[k - 1:k - degree - 1:-1] if k > degree else out[k - 1::-1]
        out.append(sum(map(mul, factors, back)) // (k * first))
        factors = list(map(sub, factors, rest))
    return out


@lru_cache(maxsize=256)
def effect_columns(count: int, target: int, storm: StormOfSteel | None, sixes_cap: int, none: int,
                   per_hit: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """For each count of sixes below `sixes_cap`, then every higher count together (the last column): the
    weights T_j = sum over hits h of w(h) C(h, j) none**(h - j) per_hit**(most - h), over the returned
    denominator (w(h): the weight of h hits with that count of sixes; `most`: the most hits).

    A hit's effect die kills, shocks or does nothing with weights kill, shock,
    `none` out of `per_hit`, so of h hits exactly k kill and s shock in
    C(h, j) C(j, k) kill**k shock**s none**(h - j) ways (j = k + s): the
    weight of (k kills, s Shock) is C(j, k) kill**k shock**s T_j, one product,
    where a sum over every hit total would otherwise be made for each. T is
    the polynomial of one die's hits with y -> (none + z) / per_hit, raised to
    the `count`-th power: a one-die substitution of 41 terms and `_power`
    (the counts of sixes below the cap by the binomial theorem, `_low_columns`).
    """
    rounds = storm.rounds if storm is not None else 0
    hits, den = _one_die_hits(target, storm, rounds)
    degree = max(h for h, n in enumerate(hits) if n)
    most = degree * count
    cap = min(sixes_cap, most + 1)
    by_sixes, by_sixes_den = one_die_by_sixes(target, storm, rounds, cap) if cap > 0 else ((), den)
    assert by_sixes_den == den
    common = gcd(den, *hits, *(c for p in by_sixes for c in p))  # the die's weights in lowest terms
    den //= common
    total_die = _shifted([n // common for n in hits], none, per_hit, degree)
    size = sum(total_die).bit_length() * count // 8 + 1
    width = 8 * size
    if total_die[0]:
        total = _power(total_die, count)
    else:
        total = _unpack(sum(c << (width * j) for j, c in enumerate(total_die)) ** count, most + 1, size)
    out_den = den**count * per_hit**most
    if cap <= 0:
        return (tuple(total),), out_den
    low = _low_columns([_shifted([n // common for n in p], none, per_hit, degree) for p in by_sixes], count)
    columns = [column + [0] * (most + 1 - len(column)) for column in low]
    rest = total
    for column in columns:
        rest = list(map(sub, rest, column))
    return (*(tuple(c) for c in columns), tuple(rest)), out_den


def _power_below(poly: list[int], count: int, cap: int) -> list[int]:
    """`poly` (coefficients by count of sixes, each a packed integer) to the `count`-th power, its coefficients
    of `cap` sixes and more dropped after every product: only the first few counts of sixes are read."""

    def times(a: list[int], b: list[int]) -> list[int]:
        return [sum(a[i] * b[x - i] for i in range(x + 1)) for x in range(cap)]

    low = [1] + [0] * (cap - 1)
    power, left = poly, count
    while left:
        if left & 1:
            low = times(low, power)
        left >>= 1
        if left:
            power = times(power, power)
    return low


def _kills_shifted(poly: Sequence[int], kill: int, per_hit: int, degree: int) -> list[int]:
    """`poly` in the hits y as a polynomial in the kills z, y = (per_hit - kill + kill z) / per_hit, times
    per_hit**degree."""
    return [c * kill**j for j, c in enumerate(_shifted(poly, per_hit - kill, per_hit, degree))]


@lru_cache(maxsize=256)
def kills_die(target: int, storm: StormOfSteel | None, kill: int, per_hit: int) -> tuple[tuple[int, ...], int]:
    """One die with its extras as whole weights by the kills of its hits, each hit's effect die killing with
    `kill` of its `per_hit` results, over the returned denominator (in lowest terms).

    The hits polynomial of `_one_die_hits` with y = (per_hit - kill + kill z) / per_hit: 41 terms at
    most, shared by every target with the same dice and effect.
    """
    rounds = storm.rounds if storm is not None else 0
    hits, den = _one_die_hits(target, storm, rounds)
    degree = max(h for h, n in enumerate(hits) if n)
    common = gcd(den, *hits)
    die = _kills_shifted([n // common for n in hits[:degree + 1]], kill, per_hit, degree)
    den = den // common * per_hit**degree
    common = gcd(den, *die)
    return tuple(c // common for c in die), den // common


def _power_first(die: Sequence[int], count: int, terms: int) -> list[int]:
    """The first `terms` coefficients of `die` (nonzero constant term) to the `count`-th power, by the
    recurrence of `_power` stopped there."""
    first = die[0]
    assert first, "a die that always scores has no recurrence from its constant term"
    if terms <= 0:
        return []
    degree = len(die) - 1
    out = [first**count]
    for k in range(1, min(terms, degree * count + 1)):
        out.append(sum(((count + 1) * i - k) * die[i] * out[k - i] for i in range(1, min(k, degree) + 1))
                   // (k * first))
    return out


@lru_cache(maxsize=256)
def kills_below(count: int, target: int, storm: StormOfSteel | None, kill: int, per_hit: int,
                cap: int) -> tuple[tuple[int, ...], int]:
    """The whole weights of 0, 1, ... `cap` - 1 kills of `count` dice (as `kills_die`), over the returned
    denominator: the rest of it is `cap` kills or more.

    The first `cap` coefficients of one die's polynomial to the `count`-th
    power (`_power_first`): a Team of 10 figures under 12 dice with chained
    Storm of Steel (480 hits) costs a hundred small products, not the whole
    power. Needs a die that can kill nobody (a nonzero constant term), as
    any die that can miss or roll a blank.
    """
    die, die_den = kills_die(target, storm, kill, per_hit)
    return tuple(_power_first(die, count, cap)), die_den**count


@lru_cache(maxsize=256)
def kills_and_sixes_below(count: int, target: int, storm: StormOfSteel | None, kill: int, per_hit: int,
                          kills_cap: int, sixes_cap: int) -> tuple[dict[tuple[int, int], int], int]:
    """(kills, sixes) of `count` dice, each read up to its cap (the cap meaning 'or more'), as whole weights
    over one denominator: a Team whose 6s can make its building unstable.

    Below both caps from the columns of one die by its count of 6s
    (`one_die_by_sixes`, in kills) raised by the binomial theorem
    (`_low_columns`); the kills below their cap whatever the 6s from
    `_power_first`; the lumps at the caps are what is left. The whole
    (kills, sixes) table of 480 hits is never made. Needs a die that can
    kill nobody, as `kills_below`.
    """
    rounds = storm.rounds if storm is not None else 0
    hits, den = _one_die_hits(target, storm, rounds)
    degree = max(h for h, n in enumerate(hits) if n)
    by_sixes, by_sixes_den = one_die_by_sixes(target, storm, rounds, sixes_cap)
    assert by_sixes_den == den
    common = gcd(den, *hits, *(c for p in by_sixes for c in p))
    die = _kills_shifted([n // common for n in hits[:degree + 1]], kill, per_hit, degree)
    den = (den // common * per_hit**degree) ** count
    kills = _power_first(die, count, kills_cap)
    low = _low_columns([_kills_shifted([n // common for n in p], kill, per_hit, degree) for p in by_sixes], count)
    out: dict[tuple[int, int], int] = {}
    for x, column in enumerate(low):
        for k, w in enumerate(column[:kills_cap]):
            out[(k, x)] = w
        out[(kills_cap, x)] = sum(column[kills_cap:])
    for k, w in enumerate(kills):
        out[(k, sixes_cap)] = w - sum(column[k] for column in low if k < len(column))
    out[(kills_cap, sixes_cap)] = den - sum(out.values())
    return {key: w for key, w in out.items() if w}, den


def _times_lists(a: Sequence[int], b: Sequence[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, u in enumerate(a):
        if u:
            for j, v in enumerate(b):
                out[i + j] += u * v
    return out


def _add_into(total: list[int], poly: Sequence[int]) -> None:
    if len(poly) > len(total):
        total.extend([0] * (len(poly) - len(total)))
    for i, c in enumerate(poly):
        total[i] += c


def _low_columns(die: list[list[int]], count: int) -> list[list[int]]:
    """The first len(`die`) coefficients in w of (sum of die[x] w**x)**count, each a polynomial in z (a list of
    coefficients): the counts of sixes below a cap, by the binomial theorem.

    With L the column of no sixes (a die that misses or hits without a 6:
    a line a + b z) and R the rest, the power is the sum of
    C(count, m) L**(count - m) R**m, and R**m has no term below w**m: only
    the first few m count, each a product of short polynomials (few 6s bring
    few Storm of Steel dice), never a power of the whole die.
    """
    cap = len(die)
    columns = [list(column) for column in die]
    for column in columns:
        while len(column) > 1 and not column[-1]:
            column.pop()
    a, b = (columns[0] + [0])[:2]
    assert len(columns[0]) <= 2, "a die without a 6 scores one hit at most"
    out: list[list[int]] = [[0] for _ in range(cap)]
    r_power: dict[int, list[int]] = {0: [1]}  # R**m by its count of sixes (m and up, below the cap)
    for m in range(min(cap, count + 1)):
        k = count - m
        line_power = [comb(count, m) * comb(k, j) * a ** (k - j) * b**j for j in range(k + 1 if b else 1)]
        for x, poly in r_power.items():
            _add_into(out[x], _times_lists(line_power, poly))
        more: dict[int, list[int]] = {}
        for x, poly in r_power.items():
            for y in range(1, cap - x):
                if any(columns[y]):
                    _add_into(more.setdefault(x + y, [0]), _times_lists(poly, columns[y]))
        r_power = more
    return out
