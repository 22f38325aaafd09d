"""Exact distributions: closed forms, the algebra, and agreement with seeded dice."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battletracker.core.odds import Distribution
from battletracker.core.odds import binomial
from battletracker.core.odds import categorical_counts
from battletracker.core.odds import success_chance
from battletracker.core.odds import successes

F = Fraction


def test_a_die_is_uniform_and_sums_to_one() -> None:
    d6 = Distribution.die(6)
    assert d6.total() == 1
    assert all(d6.p(face) == F(1, 6) for face in range(1, 7))
    assert d6.p(0) == 0 and d6.p(7) == 0
    assert d6.mean() == F(7, 2)
    assert Distribution.die(3).mean() == 2


def test_two_d6_totals_match_the_closed_form() -> None:
    two = Distribution.dice_sum(2)
    for total in range(2, 13):
        assert two.p(total) == F(6 - abs(total - 7), 36)
    assert two.at_least(7) == F(21, 36)
    assert two.at_most(4) == F(6, 36)
    assert two.mean() == 7
    assert two == Distribution.die(6) + Distribution.die(6)


def test_three_d6_totals_match_counting() -> None:
    three = Distribution.dice_sum(3)
    counts = Counter(a + b + c for a in range(1, 7) for b in range(1, 7) for c in range(1, 7))
    assert dict(three.items()) == {t: F(n, 216) for t, n in counts.items()}


@pytest.mark.parametrize(("count", "target"), [(1, 4), (3, 4), (5, 5), (10, 6), (8, 2)])
def test_successes_are_binomial(count: int, target: int) -> None:
    p = F(7 - target, 6)
    dist = successes(count, target)
    assert dist.total() == 1
    for k in range(count + 1):
        assert dist.p(k) == comb(count, k) * p**k * (1 - p) ** (count - k)
    assert dist.mean() == count * p


def test_success_chance_clamps_the_target_to_the_die() -> None:
    assert success_chance(4) == F(1, 2)
    assert success_chance(1) == 1 and success_chance(0) == 1
    assert success_chance(7) == 0 and success_chance(13, 12) == 0
    assert success_chance(12, 12) == F(1, 12)
    assert successes(4, 7) == Distribution.certain(0)
    assert successes(4, 1) == Distribution.certain(4)


def test_binomial_edges() -> None:
    assert binomial(0, F(1, 3)) == Distribution.certain(0)
    assert binomial(3, F(0)) == Distribution.certain(0)
    assert binomial(3, F(1)) == Distribution.certain(3)
    with pytest.raises(ValueError, match="negative number of dice"):
        binomial(-1, F(1, 2))


def test_at_least_on_successes() -> None:
    dist = successes(3, 4)
    assert dist.at_least(1) == 1 - F(1, 8)
    assert dist.at_least(3) == F(1, 8)
    assert dist.at_least(0) == 1
    assert dist.at_least(4) == 0


def test_construction_combines_repeats_drops_zeros_and_refuses_negatives() -> None:
    d = Distribution([("a", F(1, 4)), ("a", F(1, 4)), ("b", F(1, 2)), ("c", 0)])
    assert d.p("a") == F(1, 2) and d.outcomes == ["a", "b"]
    assert d.total() == 1
    with pytest.raises(ValueError, match="negative probability for 'x'"):
        Distribution({"x": F(-1, 2), "y": F(3, 2)})
    with pytest.raises(ValueError, match="at least one outcome"):
        Distribution.uniform([])


def test_uniform_counts_repeated_outcomes() -> None:
    d = Distribution.uniform(["hit", "hit", "miss"])
    assert d.p("hit") == F(2, 3)


def test_map_merges_outcomes() -> None:
    parity = Distribution.dice_sum(2).map(lambda t: t % 2 == 0)
    assert parity.p(True) == F(1, 2)
    assert Distribution.die(6).map(lambda v: "six" if v == 6 else "other").p("six") == F(1, 6)


def test_bind_chains_a_dependent_roll() -> None:
    # Roll a D3, then roll that many D6 and count 6s.
    chained = Distribution.die(3).bind(lambda n: successes(n, 6))
    expected = sum((successes(n, 6).p(0) for n in (1, 2, 3)), F(0)) / 3
    assert chained.p(0) == expected
    assert chained.total() == 1
    assert chained.p(3) == F(1, 3) * F(1, 216)


def test_condition_renormalises() -> None:
    given_high = Distribution.die(6).condition(lambda v: v >= 5)
    assert dict(given_high.items()) == {5: F(1, 2), 6: F(1, 2)}
    seven = Distribution.dice_sum(2).condition(lambda t: t >= 11)
    assert seven.p(12) == F(1, 3)
    with pytest.raises(ValueError, match="impossible event"):
        Distribution.die(6).condition(lambda v: v > 6)


def test_mix_weights_distributions() -> None:
    mixed = Distribution.mix([(F(1, 3), Distribution.certain("a")), (F(2, 3), Distribution.die(2).map(str))])
    assert dict(mixed.items()) == {"a": F(1, 3), "1": F(1, 3), "2": F(1, 3)}
    assert Distribution.mix([(1, Distribution.die(6)), (0, Distribution.certain(99))]) == Distribution.die(6)


def test_convolve_with_a_custom_combination() -> None:
    highest = Distribution.die(6).convolve(Distribution.die(6), max)
    assert highest.p(6) == F(11, 36)
    assert highest.p(1) == F(1, 36)
    pairs = Distribution.die(2).convolve(Distribution.uniform("xy"), lambda a, b: (a, b))
    assert pairs.p((2, "y")) == F(1, 4)


def test_repeat_sums_copies_and_zero_copies_is_the_zero() -> None:
    assert Distribution.die(6).repeat(0) == Distribution.certain(0)
    assert Distribution.die(6).repeat(3) == Distribution.dice_sum(3)
    coin = Distribution.uniform([0, 1])
    assert coin.repeat(10) == binomial(10, F(1, 2))
    assert coin.repeat(2, lambda acc, v: acc + (v,), ()).p((1, 0)) == F(1, 4)


def test_categorical_counts_is_the_multinomial() -> None:
    faces = {"hit": F(1, 2), "jam": F(1, 6), "blank": F(1, 3)}
    dist = categorical_counts(3, faces)
    assert dist.total() == 1
    for outcome, p in dist.items():
        counts = dict(outcome)
        assert sum(counts.values()) == 3
        h, j, b = counts["hit"], counts["jam"], counts["blank"]
        ways = math.factorial(3) // (math.factorial(h) * math.factorial(j) * math.factorial(b))
        assert p == ways * faces["hit"] ** h * faces["jam"] ** j * faces["blank"] ** b
    assert dist.p((("blank", 0), ("hit", 3), ("jam", 0))) == F(1, 8)
    assert categorical_counts(0, faces) == Distribution.certain((("blank", 0), ("hit", 0), ("jam", 0)))


def test_mean_needs_numbers() -> None:
    with pytest.raises(TypeError, match="numeric outcomes"):
        Distribution.uniform(["a", "b"]).mean()


def test_equality_and_hash_ignore_the_common_denominator() -> None:
    a = Distribution({1: F(1, 2), 2: F(1, 2)})
    b = Distribution({1: F(2, 4), 2: F(3, 6)})
    c = Distribution.die(2).convolve(Distribution.certain(0))
    assert a == b == c
    assert hash(a) == hash(b) == hash(c)
    assert a != Distribution.die(3)
    assert "1: 1/2" in repr(a)


def test_as_floats() -> None:
    assert Distribution.die(4).as_floats() == {1: 0.25, 2: 0.25, 3: 0.25, 4: 0.25}


def _simulate(count: int, target: int, runs: int, seed: int) -> Counter[int]:
    rng = random.Random(seed)
    return Counter(sum(rng.randint(1, 6) >= target for _ in range(count)) for _ in range(runs))


@pytest.mark.parametrize(("count", "target"), [(4, 4), (6, 5), (2, 6)])
def test_exact_successes_agree_with_a_seeded_simulation(count: int, target: int) -> None:
    runs = 20000
    seen = _simulate(count, target, runs, seed=count * 10 + target)
    for k, p in successes(count, target).items():
        sigma = math.sqrt(float(p) * (1 - float(p)) / runs)
        assert abs(seen[k] / runs - float(p)) <= 5 * sigma + 1 / runs


def test_exact_two_d6_agree_with_a_seeded_simulation() -> None:
    rng = random.Random(3)
    runs = 20000
    seen = Counter(rng.randint(1, 6) + rng.randint(1, 6) for _ in range(runs))
    for total, p in Distribution.dice_sum(2).items():
        sigma = math.sqrt(float(p) * (1 - float(p)) / runs)
        assert abs(seen[total] / runs - float(p)) <= 5 * sigma


small_dists = st.dictionaries(st.integers(-3, 6), st.integers(1, 5), min_size=1, max_size=5).map(
    lambda w: Distribution({k: F(v, sum(w.values())) for k, v in w.items()})
)


@given(small_dists, small_dists)
def test_every_operation_keeps_the_total_at_one(a: Distribution[int], b: Distribution[int]) -> None:
    assert a.total() == 1
    assert (a + b).total() == 1
    assert a.convolve(b, max).total() == 1
    assert a.map(lambda v: v % 3).total() == 1
    assert a.bind(lambda v: b if v > 0 else a).total() == 1
    assert Distribution.mix([(F(1, 3), a), (F(2, 3), b)]).total() == 1
    assert a.repeat(3).total() == 1
    assert a.reduced() == a
    assert (a + b).mean() == a.mean() + b.mean()
    outcome = a.outcomes[0]
    assert a.condition(lambda v: v == outcome) == Distribution.certain(outcome)


def test_outcome_keys_parse_to_counts_and_labels_do_not() -> None:
    from battletracker.core.odds import parse_quantities

    assert parse_quantities("kills=2 shock=3") == {"kills": 2, "shock": 3}
    assert parse_quantities("deviated suppressed=1 disrupted=0") == {"suppressed": 1, "disrupted": 0}
    assert parse_quantities("missed") is None
    assert parse_quantities("net2:immobilised") is None
    assert parse_quantities("kills=two") is None


def test_a_count_of_that_many_or_more_is_charted_on_its_bar_and_named_open_ended() -> None:
    from battletracker.core.odds import open_ended
    from battletracker.core.odds import parse_quantities

    assert parse_quantities("kills=1 shock=2 vehicle_shock=4+") == {"kills": 1, "shock": 2, "vehicle_shock": 4}
    assert parse_quantities("kills=1+2") is None
    dist = Distribution({"kills=0 vehicle_shock=3": Fraction(1, 2), "kills=1 vehicle_shock=4+": Fraction(1, 2)})
    assert open_ended(dist) == {"vehicle_shock": 4}
    assert open_ended(Distribution.certain("kills=2 shock=1")) == {}


def test_marginals_of_a_joint_kills_and_shock_distribution_are_exact() -> None:
    from fractions import Fraction

    from battletracker.core.odds import Distribution
    from battletracker.core.odds import marginals

    joint = Distribution({"kills=0 shock=0": Fraction(1, 2), "kills=0 shock=1": Fraction(1, 4),
                          "kills=1 shock=1 building_on_fire": Fraction(1, 8), "kills=2 shock=1": Fraction(1, 8)})
    per = marginals(joint)
    assert per is not None and list(per) == ["kills", "shock"]
    assert dict(per["kills"].items()) == {0: Fraction(3, 4), 1: Fraction(1, 8), 2: Fraction(1, 8)}
    assert per["kills"].at_least(1) == Fraction(1, 4)
    assert per["kills"].mean() == Fraction(3, 8) and per["shock"].mean() == Fraction(1, 2)
    assert per["shock"].total() == 1
    assert marginals(Distribution({"missed": Fraction(1, 2), "kills=1 shock=0": Fraction(1, 2)})) is None


def test_flag_chances_total_the_outcomes_that_carry_each_flag() -> None:
    from fractions import Fraction

    from battletracker.core.odds import Distribution
    from battletracker.core.odds import flag_chances

    joint = Distribution({"on_target suppressed=0": Fraction(1, 3), "on_target suppressed=1": Fraction(1, 6),
                          "deviated suppressed=0": Fraction(1, 2)})
    assert flag_chances(joint) == {"on_target": Fraction(1, 2), "deviated": Fraction(1, 2)}
