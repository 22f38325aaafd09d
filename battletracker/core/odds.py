"""Exact discrete distributions, built by enumeration and convolution.

Probabilities are `Fraction`s so "sums to 1" is an equality, not a tolerance,
and a closed-form check such as 30/36 compares exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any, Generic, TypeVar

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)

Prob = Fraction


class Distribution(Generic[T]):
    """Outcome -> exact probability. Outcomes with probability 0 are dropped."""

    __slots__ = ("_p",)

    def __init__(self, probabilities: Mapping[T, Fraction | int] | Iterable[tuple[T, Fraction | int]]) -> None:
        items = probabilities.items() if isinstance(probabilities, Mapping) else probabilities
        p: dict[T, Fraction] = {}
        for outcome, prob in items:
            prob = Fraction(prob)
            if prob < 0:
                raise ValueError(f"negative probability for {outcome!r}")
            if prob:
                p[outcome] = p.get(outcome, Fraction(0)) + prob
        self._p = p

    # construction -----------------------------------------------------------
    @classmethod
    def certain(cls, outcome: T) -> Distribution[T]:
        return cls({outcome: 1})

    @classmethod
    def uniform(cls, outcomes: Iterable[T]) -> Distribution[T]:
        listed = list(outcomes)
        if not listed:
            raise ValueError("a uniform distribution needs at least one outcome")
        share = Fraction(1, len(listed))
        return cls((o, share) for o in listed)

    @classmethod
    def die(cls, sides: int = 6) -> Distribution[int]:
        return Distribution.uniform(range(1, sides + 1))

    @classmethod
    def dice_sum(cls, count: int, sides: int = 6) -> Distribution[int]:
        return _dice_sum(count, sides)

    @classmethod
    def mix(cls, weighted: Iterable[tuple[Fraction | int, Distribution[T]]]) -> Distribution[T]:
        """Weighted mixture: sum of weight * distribution (weights should sum to 1)."""
        out: dict[T, Fraction] = {}
        for weight, dist in weighted:
            w = Fraction(weight)
            for o, p in dist._p.items():
                out[o] = out.get(o, Fraction(0)) + w * p
        return Distribution(out)

    # queries ------------------------------------------------------------------
    def p(self, outcome: T) -> Fraction:
        return self._p.get(outcome, Fraction(0))

    def items(self) -> Iterator[tuple[T, Fraction]]:
        return iter(self._p.items())

    @property
    def outcomes(self) -> list[T]:
        return list(self._p)

    def total(self) -> Fraction:
        return sum(self._p.values(), Fraction(0))

    def probability(self, predicate: Callable[[T], bool]) -> Fraction:
        return sum((p for o, p in self._p.items() if predicate(o)), Fraction(0))

    def at_least(self, n: Any) -> Fraction:
        return self.probability(lambda o: o >= n)  # type: ignore[operator]

    def at_most(self, n: Any) -> Fraction:
        return self.probability(lambda o: o <= n)  # type: ignore[operator]

    def mean(self) -> Fraction:
        return sum((Fraction(o) * p for o, p in self._p.items()), Fraction(0))  # type: ignore[arg-type]

    def as_floats(self) -> dict[T, float]:
        return {o: float(p) for o, p in self._p.items()}

    # transformation -------------------------------------------------------------
    def map(self, f: Callable[[T], U]) -> Distribution[U]:
        out: dict[U, Fraction] = {}
        for o, p in self._p.items():
            k = f(o)
            out[k] = out.get(k, Fraction(0)) + p
        return Distribution(out)

    def bind(self, f: Callable[[T], Distribution[U]]) -> Distribution[U]:
        """Chain a dependent step: for each outcome, the distribution that follows it."""
        out: dict[U, Fraction] = {}
        for o, p in self._p.items():
            for k, q in f(o)._p.items():
                out[k] = out.get(k, Fraction(0)) + p * q
        return Distribution(out)

    def convolve(self, other: Distribution[U], combine: Callable[[T, U], Any] = lambda a, b: a + b) -> Distribution[Any]:  # type: ignore[operator]
        """Independent combination of two outcomes (sum by default)."""
        out: dict[Any, Fraction] = {}
        for a, p in self._p.items():
            for b, q in other._p.items():
                k = combine(a, b)
                out[k] = out.get(k, Fraction(0)) + p * q
        return Distribution(out)

    def __add__(self, other: Distribution[Any]) -> Distribution[Any]:
        return self.convolve(other)

    def repeat(self, count: int) -> Distribution[Any]:
        """Sum of `count` independent copies (0 copies is certainly 0)."""
        result: Distribution[Any] = Distribution.certain(0)
        for _ in range(count):
            result = result + self
        return result

    def condition(self, predicate: Callable[[T], bool]) -> Distribution[T]:
        """The distribution given that `predicate` holds (renormalised)."""
        kept = {o: p for o, p in self._p.items() if predicate(o)}
        total = sum(kept.values(), Fraction(0))
        if not total:
            raise ValueError("conditioning on an impossible event")
        return Distribution({o: p / total for o, p in kept.items()})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Distribution) and self._p == other._p

    def __hash__(self) -> int:
        return hash(frozenset(self._p.items()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{o!r}: {p}" for o, p in self._p.items())
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
    return result.map(lambda counts: tuple((c, n) for c, n in zip(cats, counts)))
