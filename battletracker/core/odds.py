"""Exact discrete distributions, built by enumeration and convolution.

Probabilities are `Fraction`s so "sums to 1" is an equality, not a tolerance,
and a closed-form check such as 30/36 compares exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Hashable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from math import comb
from math import gcd
from math import lcm
from typing import Any
from typing import Generic
from typing import TypeVar

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)

Prob = Fraction


class Distribution(Generic[T]):
    """Outcome -> exact probability. Outcomes with probability 0 are dropped.

    Stored as integer weights over one common denominator, so convolution and
    mixing are integer arithmetic; `p()` hands out `Fraction`s.
    """

    __slots__ = ("_w", "_den")

    def __init__(self, probabilities: Mapping[T, Fraction | int] | Iterable[tuple[T, Fraction | int]]) -> None:
        items = list(probabilities.items() if isinstance(probabilities, Mapping) else probabilities)
        fractions = [(o, Fraction(p)) for o, p in items]
        den = 1
        for _o, p in fractions:
            if p < 0:
                raise ValueError(f"negative probability for {_o!r}")
            den = lcm(den, p.denominator)
        w: dict[T, int] = {}
        for o, p in fractions:
            if p:
                w[o] = w.get(o, 0) + p.numerator * (den // p.denominator)
        self._w = w
        self._den = den

    @classmethod
    def _weights(cls, weights: dict[T, int], den: int) -> Distribution[T]:
        d: Distribution[T] = cls.__new__(cls)
        d._w = {o: n for o, n in weights.items() if n}
        d._den = den
        return d

    # construction -----------------------------------------------------------
    @classmethod
    def from_weights(cls, weights: Mapping[T, int], den: int) -> Distribution[T]:
        """Outcome -> whole-number weight over one common denominator `den`.

        For procedures that count equally likely dice results directly (a
        multinomial, say): integer arithmetic, no Fraction per outcome.
        """
        if den <= 0:
            raise ValueError(f"a denominator must be positive, not {den}")
        for o, n in weights.items():
            if n < 0:
                raise ValueError(f"negative weight for {o!r}")
        return cls._weights(dict(weights), den).reduced()

    @classmethod
    def from_lowest_terms(cls, weights: Mapping[T, int], den: int) -> Distribution[T]:
        """As `from_weights`, for weights the caller knows to have no factor in common with `den`.

        Independent parts each in lowest terms multiply to a whole in lowest
        terms (Gauss's lemma): for a product of many parts the search for a
        common factor, a greatest common divisor per weight of thousands of
        bits, would find none.
        """
        if den <= 0:
            raise ValueError(f"a denominator must be positive, not {den}")
        for o, n in weights.items():
            if n < 0:
                raise ValueError(f"negative weight for {o!r}")
        return cls._weights(dict(weights), den)

    @classmethod
    def certain(cls, outcome: T) -> Distribution[T]:
        return cls._weights({outcome: 1}, 1)

    @classmethod
    def uniform(cls, outcomes: Iterable[T]) -> Distribution[T]:
        listed = list(outcomes)
        if not listed:
            raise ValueError("a uniform distribution needs at least one outcome")
        w: dict[T, int] = {}
        for o in listed:
            w[o] = w.get(o, 0) + 1
        return cls._weights(w, len(listed))

    @classmethod
    def die(cls, sides: int = 6) -> Distribution[int]:
        return Distribution.uniform(range(1, sides + 1))

    @classmethod
    def dice_sum(cls, count: int, sides: int = 6) -> Distribution[int]:
        return _dice_sum(count, sides)

    @classmethod
    def mix(cls, weighted: Iterable[tuple[Fraction | int, Distribution[T]]]) -> Distribution[T]:
        """Weighted mixture: sum of weight * distribution (weights should sum to 1)."""
        parts = [(Fraction(w), d) for w, d in weighted]
        den = 1
        for w, d in parts:
            den = lcm(den, w.denominator * d._den)
        out: dict[T, int] = {}
        for w, d in parts:
            scale = w.numerator * (den // (w.denominator * d._den))
            for o, n in d._w.items():
                out[o] = out.get(o, 0) + n * scale
        return Distribution._weights(out, den)

    # queries ------------------------------------------------------------------
    def p(self, outcome: T) -> Fraction:
        return Fraction(self._w.get(outcome, 0), self._den)

    def items(self) -> Iterator[tuple[T, Fraction]]:
        return ((o, Fraction(n, self._den)) for o, n in self._w.items())

    @property
    def outcomes(self) -> list[T]:
        return list(self._w)

    def total(self) -> Fraction:
        return Fraction(sum(self._w.values()), self._den)

    def probability(self, predicate: Callable[[T], bool]) -> Fraction:
        return Fraction(sum(n for o, n in self._w.items() if predicate(o)), self._den)

    def at_least(self, n: Any) -> Fraction:
        return self.probability(lambda o: bool(o >= n))

    def at_most(self, n: Any) -> Fraction:
        return self.probability(lambda o: bool(o <= n))

    def mean(self) -> Fraction:
        total = Fraction(0)
        for o, n in self._w.items():
            if not isinstance(o, int | Fraction):
                raise TypeError(f"the mean needs numeric outcomes, not {o!r}")
            total += o * n
        return total / self._den

    def whole_weights(self) -> tuple[dict[T, int], int]:
        """Outcome -> whole-number weight, and their common denominator: for callers that combine
        distributions by integer arithmetic of their own (packed polynomials)."""
        return dict(self._w), self._den

    def as_floats(self) -> dict[T, float]:
        return {o: n / self._den for o, n in self._w.items()}

    # transformation -------------------------------------------------------------
    def map(self, f: Callable[[T], U]) -> Distribution[U]:
        out: dict[U, int] = {}
        for o, n in self._w.items():
            k = f(o)
            out[k] = out.get(k, 0) + n
        return Distribution._weights(out, self._den)

    def bind(self, f: Callable[[T], Distribution[U]]) -> Distribution[U]:
        """Chain a dependent step: for each outcome, the distribution that follows it."""
        return Distribution.mix((Fraction(n, self._den), f(o)) for o, n in self._w.items())

    def convolve(self, other: Distribution[U],
                 combine: Callable[[T, U], Any] = lambda a, b: a + b,  # type: ignore[operator]
                 ) -> Distribution[Any]:
        """Independent combination of two outcomes (sum by default)."""
        out: dict[Any, int] = {}
        for a, n in self._w.items():
            for b, m in other._w.items():
                k = combine(a, b)
                out[k] = out.get(k, 0) + n * m
        return Distribution._weights(out, self._den * other._den)

    def __add__(self, other: Distribution[Any]) -> Distribution[Any]:
        return self.convolve(other)

    def repeat(self, count: int, combine: Callable[[Any, T], Any] = lambda a, b: a + b,
               zero: Any = 0) -> Distribution[Any]:
        """Combination (sum by default) of `count` independent copies; 0 copies is `zero`."""
        result: Distribution[Any] = Distribution.certain(zero)
        for _ in range(count):
            result = result.convolve(self, combine)
        return result.reduced()

    def reduced(self) -> Distribution[T]:
        """The same distribution with its weights in lowest terms (keeps numbers small)."""
        g = self._den
        for n in self._w.values():
            g = gcd(g, n)
            if g == 1:
                return self
        return Distribution._weights({o: n // g for o, n in self._w.items()}, self._den // g)

    def ordered(self, key: Callable[[T], Any]) -> Distribution[T]:
        """The same distribution with its outcomes in the order `key` sorts them (the order a view lists them),
        its weights untouched: no `Fraction` per outcome."""
        return Distribution._weights({o: self._w[o] for o in sorted(self._w, key=key)}, self._den)

    def condition(self, predicate: Callable[[T], bool]) -> Distribution[T]:
        """The distribution given that `predicate` holds (renormalised)."""
        kept = {o: n for o, n in self._w.items() if predicate(o)}
        total = sum(kept.values())
        if not total:
            raise ValueError("conditioning on an impossible event")
        return Distribution._weights(kept, total).reduced()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Distribution) and dict(self.items()) == dict(other.items())

    def __hash__(self) -> int:
        return hash(frozenset(self.items()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{o!r}: {p}" for o, p in self.items())
        return f"Distribution({{{inner}}})"


@lru_cache(maxsize=256)
def _dice_sum(count: int, sides: int) -> Distribution[int]:
    return Distribution.die(sides).repeat(count)


@lru_cache(maxsize=1024)
def binomial(count: int, p: Fraction) -> Distribution[int]:
    """Number of successes among `count` independent trials of probability `p`."""
    if count < 0:
        raise ValueError("a negative number of dice")
    q = 1 - p
    return Distribution({k: comb(count, k) * p**k * q ** (count - k) for k in range(count + 1)})


def success_chance(target: int, sides: int = 6) -> Fraction:
    """Chance one die scores `target` or more (target clamped to the die)."""
    if target <= 1:
        return Fraction(1)
    if target > sides:
        return Fraction(0)
    return Fraction(sides - target + 1, sides)


def successes(count: int, target: int, sides: int = 6) -> Distribution[int]:
    """Successes when rolling `count` dice each needing `target`+."""
    return binomial(count, success_chance(target, sides))


def categorical_counts(count: int, faces: Mapping[U, Fraction]) -> Distribution[tuple[tuple[U, int], ...]]:
    """Joint counts of each category over `count` dice (a multinomial).

    `faces` maps a category to the chance one die shows it. Outcomes are sorted
    tuples of (category, count) so they are hashable and comparable.
    """
    cats = sorted(faces, key=repr)
    start: Distribution[tuple[int, ...]] = Distribution.certain(tuple(0 for _ in cats))
    one = Distribution({i: faces[c] for i, c in enumerate(cats)})
    result = start
    for _ in range(count):
        result = result.convolve(one, lambda acc, i: acc[:i] + (acc[i] + 1,) + acc[i + 1 :])
    return result.map(lambda counts: tuple((c, n) for c, n in zip(cats, counts, strict=True)))


def parse_quantities(key: str) -> dict[str, int] | None:
    """The counts an outcome key names: "kills=2 shock=3 building_on_fire" -> {"kills": 2, "shock": 3}.

    Words without "=" are flags that ride along and are left out. A value "N+"
    (`vehicle_shock=4+`: that many or more, where more changes nothing) counts
    as N, the bar it is charted on (`open_ended` says which). None when the
    key names no count, or a value is not a whole number: such keys are labels,
    not quantities, and are charted as they are.
    """
    counts: dict[str, int] = {}
    for word in key.split():
        name, sep, value = word.partition("=")
        if not sep:
            continue
        number = value.removesuffix("+")
        if not name or not number.lstrip("-").isdigit():
            return None
        counts[name] = int(number)
    return counts or None


def open_ended(dist: Distribution[str]) -> dict[str, int]:
    """The quantities some outcome names as "N+" (N or more), each with its N: no mean can be taken of them."""
    out: dict[str, int] = {}
    for outcome in dist.outcomes:
        for word in outcome.split():
            name, sep, value = word.partition("=")
            if sep and value.endswith("+") and value[:-1].isdigit():
                out[name] = int(value[:-1])
    return out


def marginals(dist: Distribution[str],
              parse: Callable[[str], dict[str, int] | None] = parse_quantities) -> dict[str, Distribution[int]] | None:
    """One distribution per quantity the outcomes count (kills, Shock, ...), in the keys' order.

    Many joint outcomes (a 10-die volley has dozens of kills-and-Shock pairs)
    read at a glance as one short distribution per quantity. A quantity an
    outcome does not name counts 0 there. None when any outcome is not made of
    quantities.
    """
    parsed: list[tuple[dict[str, int], Fraction]] = []
    names: dict[str, None] = {}
    for outcome, p in dist.items():
        counts = parse(outcome)
        if counts is None:
            return None
        parsed.append((counts, p))
        names.update(dict.fromkeys(counts))
    if not names:
        return None
    out: dict[str, Distribution[int]] = {}
    for name in names:
        weights: dict[int, Fraction] = {}
        for counts, p in parsed:
            value = counts.get(name, 0)
            weights[value] = weights.get(value, Fraction(0)) + p
        out[name] = Distribution(weights)
    return out


def flag_chances(dist: Distribution[str]) -> dict[str, Fraction]:
    """The chance of each flag word riding along with the counts ("deviated", "building_on_fire"), in key order.

    A flag is a word without "=" in an outcome key that also counts things;
    each flag's chance is the total of the outcomes that carry it.
    """
    out: dict[str, Fraction] = {}
    for outcome, p in dist.items():
        for word in outcome.split():
            if "=" not in word:
                out[word] = out.get(word, Fraction(0)) + p
    return out
