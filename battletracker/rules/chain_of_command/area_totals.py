"""Exact odds of a whole area's kills and buildings made unstable, without the rest of each target's counts.

A bombardment's Phase of fire reads the area as its total kills and the
brick or stone buildings it makes unstable. Per target only two numbers
matter then: its kills, capped at its figures, and whether its 6s reach the
count that makes its building unstable. Both are sums over the Firepower
Dice, each die with the Storm of Steel dice its 6 earns and one effect die
per hit: a die's kills and 6s do not depend on the other dice. So one die's
(kills, sixes) is a small polynomial, at most (figures + 1) by
(unstable 6s + 1) with the counts past the caps lumped, and the target's is
its power, taken in packed integers. The hits, the Shock and the 6s beyond
the cap are never counted one by one: 12 dice with chained Storm of Steel
dice can bring 480 hits, yet the table stays eleven by five.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from math import factorial
from math import gcd
from operator import add
from operator import mul
from operator import sub

from battletracker.core.odds import Distribution
from battletracker.rules.chain_of_command import storm_of_steel
from battletracker.rules.chain_of_command.area_fire import AreaTarget
from battletracker.rules.chain_of_command.storm_of_steel import StormOfSteel

Weights = dict[tuple[int, int], int]
"""(kills, sixes) -> whole weight over a denominator given beside it; the last index of each is 'or more'."""


def _die_hits(target: int) -> tuple[int, int]:
    """Faces of one D6 that hit without being a 6, and faces that miss, for `target`+ to hit."""
    hit_not_six = max(min(7 - target, 6) - 1, 0)
    return hit_not_six, 5 - hit_not_six


def _saturating(a: Weights, b: Weights, kills_cap: int, sixes_cap: int) -> Weights:
    out: Weights = {}
    for (k1, x1), w1 in a.items():
        for (k2, x2), w2 in b.items():
            key = (min(k1 + k2, kills_cap), min(x1 + x2, sixes_cap))
            out[key] = out.get(key, 0) + w1 * w2
    return out


@lru_cache(maxsize=256)
def _one_die(target: int, storm: StormOfSteel | None, rounds_left: int, kill: int, per_hit: int,
             kills_cap: int, sixes_cap: int) -> tuple[Weights, int]:
    """One Firepower Die with the Storm of Steel dice its 6 earns, and an effect die per hit: (kills, sixes)
    each read up to its cap (the cap meaning 'or more'), as whole weights over the denominator beside them.

    `kill` of the `per_hit` equally likely effect results kill.
    """
    hit_not_six, miss = _die_hits(target)
    hit: Weights = {(0, 0): per_hit - kill}
    if kill:
        hit[(min(1, kills_cap), 0)] = hit.get((min(1, kills_cap), 0), 0) + kill
    extras: Weights = {(0, 0): 1}
    extras_den = 1
    if storm is not None and rounds_left and storm.per_six:
        extra, extra_den = _one_die(target, storm, rounds_left - 1, kill, per_hit, kills_cap, sixes_cap)
        for _ in range(storm.per_six):
            extras = _saturating(extras, extra, kills_cap, sixes_cap)
            extras_den *= extra_den
    six = _saturating({(k, min(x + 1, sixes_cap)): w for (k, x), w in hit.items()}, extras, kills_cap, sixes_cap)
    out: Weights = dict(six)
    out[(0, 0)] = out.get((0, 0), 0) + miss * per_hit * extras_den
    for (k, x), w in hit.items():
        out[(k, x)] = out.get((k, x), 0) + hit_not_six * w * extras_den
    return {key: w for key, w in out.items() if w}, 6 * per_hit * extras_den


@lru_cache(maxsize=256)
def kills_and_sixes(count: int, target: int, storm: StormOfSteel | None, kill: int, per_hit: int,
                    kills_cap: int, sixes_cap: int) -> tuple[Weights, int]:
    """`count` Firepower Dice (with their Storm of Steel dice and effect dice): (kills, sixes), each read up to
    its cap ('or more' at the cap; a cap of 0 leaves that count out), as whole weights over one denominator.

    The counts below both caps come from the power of one die's table, kept
    as a packed polynomial in the kills per count of sixes and cut at the
    caps after every product (a product's low terms come only from its
    factors' low terms). The lumps at a cap are what is left of the totals:
    the kills alone and the sixes alone are powers of their own.
    """
    if count == 0:
        return {(0, 0): 1}, 1
    rounds = storm.rounds if storm is not None else 0
    die, die_den = _one_die(target, storm, rounds, kill, per_hit, kills_cap, sixes_cap)
    den = die_den**count
    width = 8 * (den.bit_length() // 8 + 1)
    mask = (1 << (width * kills_cap)) - 1
    rows = [0] * sixes_cap  # sixes below the cap -> packed weights by kills below the cap
    kills_row = 0  # any sixes -> packed weights by kills below the cap
    sixes_mass = [0] * sixes_cap  # sixes below the cap -> weight of any kills
    for (k, x), w in die.items():
        if k < kills_cap:
            kills_row += w << (width * k)
            if x < sixes_cap:
                rows[x] += w << (width * k)
        if x < sixes_cap:
            sixes_mass[x] += w

    def rows_times(a: list[int], b: list[int]) -> list[int]:
        return [sum(a[i] * b[x - i] for i in range(x + 1)) & mask for x in range(sixes_cap)]

    def mass_times(a: list[int], b: list[int]) -> list[int]:
        return [sum(a[i] * b[x - i] for i in range(x + 1)) for x in range(sixes_cap)]

    one_rows = [1] + [0] * (sixes_cap - 1) if sixes_cap else []
    power = (rows, kills_row, sixes_mass)
    result = (one_rows, 1, list(one_rows))
    left = count
    while left:
        if left & 1:
            result = (rows_times(result[0], power[0]), (result[1] * power[1]) & mask,
                      mass_times(result[2], power[2]))
        left >>= 1
        if left:
            power = (rows_times(power[0], power[0]), (power[1] * power[1]) & mask, mass_times(power[2], power[2]))
    size = width // 8

    def unpacked(packed: int) -> list[int]:
        raw = packed.to_bytes(size * kills_cap, "little")
        return [int.from_bytes(raw[k * size:(k + 1) * size], "little") for k in range(kills_cap)]

    low = [unpacked(r) for r in result[0]]
    by_kills = unpacked(result[1])
    out: Weights = {}
    rest = den
    for x, row in enumerate(low):
        for k, w in enumerate(row):
            out[(k, x)] = w
        out[(kills_cap, x)] = result[2][x] - sum(row)
    for k, w in enumerate(by_kills):
        out[(k, sixes_cap)] = w - sum(row[k] for row in low)
    rest -= sum(out.values())
    out[(kills_cap, sixes_cap)] = rest
    return {key: w for key, w in out.items() if w}, den


@lru_cache(maxsize=1024)
def kills_and_unstable(target: AreaTarget, unstable_sixes: int) -> tuple[Weights, int]:
    """One target's (kills, 1 if its 6s make its building unstable) as whole weights over one denominator.

    Kills are capped at the target's figures as `roll_effects` caps them;
    vehicles and their Shock count nothing here.
    """
    sixes_cap = unstable_sixes if target.can_collapse else 0
    if target.volley is None:
        if target.kind == "vehicle" or not sixes_cap:
            return {(0, 0): 1}, 1
        # only the 6s count: as hits of the same dice needing 6s, where every hit is a 6 and every 6 a hit
        fewer, den = storm_of_steel.kills_below(target.dice, 6, target.storm, 1, 1, sixes_cap)
        return {key: w for key, w in (((0, 0), sum(fewer)), ((0, 1), den - sum(fewer))) if w}, den
    volley = target.volley
    assert volley.teams == 1, "an area target's Teams take its dice together"
    faces = volley.effect.faces
    kill = faces.count("kill")
    common = gcd(kill, len(faces))
    figures = volley.figures[0] if volley.figures else None
    kills_cap = figures if figures is not None else volley.dice * storm_of_steel.most_dice_per_die(volley.storm) + 1
    kill, per_hit = kill // common, len(faces) // common
    if not storm_of_steel.kills_die(volley.to_hit, volley.storm, kill, per_hit)[0][0]:  # every die kills
        weights, den = kills_and_sixes(volley.dice, volley.to_hit, volley.storm, kill, per_hit, kills_cap, sixes_cap)
    elif not sixes_cap:
        return _kills_only(volley.dice, volley.to_hit, volley.storm, kill, per_hit, kills_cap)
    else:
        weights, den = storm_of_steel.kills_and_sixes_below(volley.dice, volley.to_hit, volley.storm, kill, per_hit,
                                                            kills_cap, sixes_cap)
    return _read(weights, sixes_cap, figures), den


def _kills_only(count: int, target: int, storm: StormOfSteel | None, kill: int, per_hit: int,
                kills_cap: int) -> tuple[Weights, int]:
    """A target whose 6s count for nothing: its kills below the cap from the truncated power of one die's kills
    (`storm_of_steel.kills_below`), the rest of the denominator at the cap."""
    low, den = storm_of_steel.kills_below(count, target, storm, kill, per_hit, kills_cap)
    weights: Weights = {(k, 0): w for k, w in enumerate(low) if w}
    rest = den - sum(low)
    if rest:
        weights[(kills_cap, 0)] = rest
    return weights, den


def _read(weights: Weights, sixes_cap: int, figures: int | None) -> Weights:
    out: Weights = {}
    for (k, x), w in weights.items():
        key = (k if figures is None else min(k, figures), int(bool(sixes_cap) and x >= sixes_cap))
        out[key] = out.get(key, 0) + w
    return out


def area_kills_unstable(targets: Sequence[AreaTarget], unstable_sixes: int) -> Distribution[tuple[int, int]]:
    """Exact distribution of (total kills, buildings made unstable) over independent targets.

    Targets that can bring down the same building are combined first, so it
    counts once; then every part's kills are summed as one packed polynomial
    per count of unstable buildings.
    """
    by_building: dict[str, tuple[Weights, int]] = {}
    parts: list[tuple[Weights, int]] = []
    for target in targets:
        one = kills_and_unstable(target.for_odds(), unstable_sixes)
        if set(one[0]) == {(0, 0)}:  # a vehicle, or nothing its dice can do
            continue
        if target.can_collapse and target.building_id is not None:
            before = by_building.get(target.building_id, ({(0, 0): 1}, 1))
            by_building[target.building_id] = _same_building(before, one)
        else:
            parts.append(one)
    return _summed([*parts, *by_building.values()])


def _same_building(a: tuple[Weights, int], b: tuple[Weights, int]) -> tuple[Weights, int]:
    """Two targets in one building: their kills add up, but the building becomes unstable once."""
    out: Weights = {}
    for (k1, u1), w1 in a[0].items():
        for (k2, u2), w2 in b[0].items():
            key = (k1 + k2, max(u1, u2))
            out[key] = out.get(key, 0) + w1 * w2
    return out, a[1] * b[1]


def _reduced(part: tuple[Weights, int]) -> tuple[Weights, int]:
    """A part's weights in lowest terms: every bit saved here is saved again in every product after it."""
    weights, den = part
    g = den
    for w in weights.values():
        g = gcd(g, w)
        if g == 1:
            return part
    return {key: w // g for key, w in weights.items()}, den // g


Poly = dict[int, list[int]]
"""Count of unstable buildings -> weights by total kills."""


def _as_poly(part: tuple[Weights, int]) -> tuple[Poly, int]:
    weights, den = _reduced(part)
    kills = max(k for k, _ in weights) + 1
    poly: Poly = {}
    for (k, u), w in weights.items():
        poly.setdefault(u, [0] * kills)[k] += w
    return poly, den


def _times(a: tuple[Poly, int], b: tuple[Poly, int]) -> tuple[Poly, int]:
    """The sum of two independent parts: their kills polynomials multiplied as packed integers (a byte-aligned
    slot per count of kills, wide enough for the product's weights so nothing carries)."""
    den = a[1] * b[1]
    size = den.bit_length() // 8 + 1

    def packed(row: list[int]) -> int:
        return int.from_bytes(b"".join(w.to_bytes(size, "little") for w in row), "little")

    kills = len(next(iter(a[0].values()))) + len(next(iter(b[0].values()))) - 1
    pa = {u: packed(row) for u, row in a[0].items()}
    pb = {u: packed(row) for u, row in b[0].items()}
    sums: dict[int, int] = {}
    for ua, x in pa.items():
        for ub, y in pb.items():
            sums[ua + ub] = sums.get(ua + ub, 0) + x * y
    out: Poly = {}
    for u, poly in sums.items():
        raw = poly.to_bytes(size * kills, "little")
        out[u] = [int.from_bytes(raw[k * size:(k + 1) * size], "little") for k in range(kills)]
    return out, den


def _values(row: list[int], xs: range) -> list[int]:
    """The polynomial with coefficients `row` at each of `xs`, by Horner's rule over all of them at once."""
    out = [row[-1]] * len(xs)
    for c in reversed(row[:-1]):
        out = [v * x + c for v, x in zip(out, xs, strict=True)]
    return out


def _product(values: list[list[int]]) -> list[int]:
    """Point by point, the product of several polynomials' values, pairwise as a balanced tree (factors of
    similar size, where integer products are cheapest)."""
    while len(values) > 1:
        values = [list(map(mul, values[i], values[i + 1])) if i + 1 < len(values) else values[i]
                  for i in range(0, len(values), 2)]
    return values[0]


def _interpolated(values: list[int]) -> list[int]:
    """The coefficients of the polynomial of degree below len(values) that takes `values` at 0, 1, 2, ...

    Newton's form from the forward differences (the k-th difference of a
    polynomial with whole coefficients divides by k!), expanded by Horner's
    rule: only subtractions and products by small numbers.
    """
    degree = len(values) - 1
    differences = [values[0]]
    row = values
    for _ in range(degree):
        row = list(map(sub, row[1:], row[:-1]))
        differences.append(row[0])
    out = [differences[degree] // factorial(degree)]
    for k in range(degree - 1, -1, -1):  # out * (x - k) + differences[k] / k!
        out = list(map(sub, [differences[k] // factorial(k), *out], [*(k * c for c in out), 0]))
    return out


def _at_points(parts: list[tuple[Poly, int]], most: int, width: int) -> dict[int, list[int]]:
    """The product of the parts' kills polynomials by their values at 0, 1, ... `most` and interpolation.

    The parts with one count of unstable buildings multiply first, as one;
    the rest one product per point and pair of counts. Where there are
    several counts, each point's values are packed into one number, a slot
    of `width` bits per count (every weight fits), and interpolated at once.
    """
    xs = range(most + 1)
    single = [_values(poly[0], xs) for poly, _ in parts if set(poly) == {0}]
    at_points = {0: _product(single) if single else [1] * len(xs)}
    for poly, _ in parts:
        if set(poly) == {0}:
            continue
        sums: dict[int, list[int]] = {}
        for u, row in poly.items():
            values = _values(row, xs)
            for before, before_values in at_points.items():
                product = list(map(mul, before_values, values))
                same = sums.get(before + u)
                sums[before + u] = product if same is None else list(map(add, same, product))
        at_points = sums
    counts = sorted(at_points)
    packed = [sum(values[i] << (width * n) for n, values in enumerate(at_points[u] for u in counts))
              for i in range(len(xs))]
    coefficients = _interpolated(packed)
    mask = (1 << width) - 1
    return {u: [(c >> (width * n)) & mask for c in coefficients] for n, u in enumerate(counts)}


def _packed(parts: list[tuple[Poly, int]]) -> dict[int, list[int]]:
    """The product of the parts' kills polynomials packed into integers: the parts with one count of unstable
    buildings pairwise as a balanced tree (each product's slots only as wide as its own weights need, its two
    factors of similar size, where integer products are cheapest), then the rest, smallest first."""
    kill_only = [part for part in parts if set(part[0]) == {0}]
    both = sorted((part for part in parts if set(part[0]) != {0}), key=_size)
    while len(kill_only) > 1:
        kill_only = sorted(kill_only, key=_size)
        kill_only = [_times(kill_only[i], kill_only[i + 1]) if i + 1 < len(kill_only) else kill_only[i]
                     for i in range(0, len(kill_only), 2)]
    total: tuple[Poly, int] = ({0: [1]}, 1)
    for poly in kill_only + both:
        total = _times(total, poly) if total[1] > 1 else poly
    return total[0]


MOST_POINTS = 100
"""Kills up to which `_summed` multiplies at points; beyond (Teams whose figures are not known) the
interpolation, which grows as the square of the points, costs more than products of packed polynomials."""
POINTS_FROM_BITS = 1500
"""Bits of the area's denominator from which `_summed` multiplies at points: below, the packed products are
cheaper (at the default settings a devastating bombardment over ten targets has some 700 bits)."""


def _summed(parts: Sequence[tuple[Weights, int]]) -> Distribution[tuple[int, int]]:
    """The sum of independent parts.

    With long weights each part's kills polynomial is taken at the points 0,
    1, ... up to the most kills of them all; there the polynomials multiply
    as numbers, and the product's coefficients come back by interpolation.
    With the most Storm of Steel every weight has some 12,000 bits: a few
    hundred products and differences of such numbers, where multiplying the
    polynomials packed into single integers (`_packed`, cheaper for short
    weights) would multiply numbers of half a million bits. Last the empty buildings, which kill nobody: one small
    number per count, not a polynomial (at the points each would add a
    count of unstable buildings to interpolate). Each part is in lowest
    terms, so the sum is too.
    """
    killing: list[tuple[Poly, int]] = []
    no_kills: list[tuple[Poly, int]] = []
    for part in parts:
        poly = _as_poly(part)
        if len(next(iter(poly[0].values()))) > 1:
            killing.append(poly)
        else:
            no_kills.append(poly)
    den = 1
    for _, part_den in killing:
        den *= part_den
    most = sum(len(next(iter(poly.values()))) - 1 for poly, _ in killing)
    if not killing:
        rows: Poly = {0: [1]}
    elif most <= MOST_POINTS and den.bit_length() >= POINTS_FROM_BITS:
        rows = _at_points(killing, most, den.bit_length() + 1)
    else:
        rows = _packed(killing)
    total = (rows, den)
    for poly in no_kills:
        total = _times_scalars(total, poly)
    rows, den = total
    return Distribution.from_lowest_terms({(k, u): w for u, row in rows.items() for k, w in enumerate(row) if w}, den)


def _size(part: tuple[Poly, int]) -> int:
    return part[1].bit_length() * len(next(iter(part[0].values()))) * len(part[0])


def _times_scalars(a: tuple[Poly, int], b: tuple[Poly, int]) -> tuple[Poly, int]:
    """`a` with a part that kills nobody: each row times a number."""
    out: Poly = {}
    for ua, row in a[0].items():
        for ub, (w,) in b[0].items():
            into = out.setdefault(ua + ub, [0] * len(row))
            for k, n in enumerate(row):
                into[k] += n * w
    return out, a[1] * b[1]


def _at_least_one(weights: Weights, den: int, kills: bool) -> Fraction:
    return Fraction(sum(w for (k, x), w in weights.items() if (k if kills else x) >= 1), den)


@lru_cache(maxsize=1024)
def unit_chances(target: AreaTarget, unstable_sixes: int) -> tuple[tuple[str, Fraction], ...]:
    """One target's exact chances of what the panel lists for it: at least one kill (`kills`, infantry and
    passengers), Shock on its vehicle (`vehicle_shock`: any 6, for vehicles and passengers) and its brick or
    stone building made unstable (`unstable`, where its dice can roll enough 6s).

    Each is one count read up to a cap of 1 (or the 6s that make a building
    unstable), so the odds stay a few numbers with any Storm of Steel.
    """
    out: list[tuple[str, Fraction]] = []
    dice, to_hit, storm = target.dice, target.to_hit, target.storm
    if target.volley is not None:
        volley = target.volley
        dice, to_hit, storm = volley.dice, volley.to_hit, volley.storm
        faces = volley.effect.faces
        kill = faces.count("kill")
        common = gcd(kill, len(faces))
        weights, den = kills_and_sixes(dice, to_hit, storm, kill // common, len(faces) // common, 1, 0)
        out.append(("kills", _at_least_one(weights, den, True)))
    if target.kind in ("vehicle", "passengers"):
        weights, den = kills_and_sixes(dice, to_hit, storm, 0, 1, 1, 1)
        out.append(("vehicle_shock", _at_least_one(weights, den, False)))
    if target.can_collapse:
        weights, den = kills_and_sixes(dice, to_hit, storm, 0, 1, 1, unstable_sixes)
        unstable = Fraction(sum(w for (_, x), w in weights.items() if x >= unstable_sixes), den)
        if unstable:
            out.append(("unstable", unstable))
    return tuple(out)
