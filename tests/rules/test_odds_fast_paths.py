"""The fast exact odds equal the plain convolution they replace, outcome for outcome and weight for weight."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from battletracker.core.odds import Distribution
from battletracker.core.odds import success_chance
from battletracker.rules import get
from battletracker.rules.armour_battles import direct_fire
from battletracker.rules.armour_battles import fire
from battletracker.rules.armour_battles import reaction
from battletracker.rules.base import InputValue
from battletracker.rules.chain_of_command import anti_tank
from battletracker.rules.chain_of_command.fire import HitEffect
from battletracker.rules.chain_of_command.fire import Volley
from battletracker.rules.chain_of_command.fire import _reduced_faces
from battletracker.rules.chain_of_command.fire import _team_rows
from battletracker.rules.chain_of_command.fire import cap_kills
from battletracker.rules.chain_of_command.fire import keyed_volley_odds
from battletracker.rules.chain_of_command.fire import kills_shock_key
from battletracker.rules.chain_of_command.fire import split_hits
from battletracker.rules.chain_of_command.fire import volley_counts
from battletracker.rules.chain_of_command.storm_of_steel import StormOfSteel
from battletracker.rules.chain_of_command.storm_of_steel import capped_weights
from battletracker.rules.chain_of_command.storm_of_steel import hits_and_sixes
from battletracker.rules.chain_of_command.storm_of_steel import hits_and_sixes_weights
from battletracker.rules.chain_of_command.storm_of_steel import kills_below
from battletracker.rules.chain_of_command.storm_of_steel import kills_die
from battletracker.rules.necromunda import allocation
from battletracker.rules.necromunda import stray_shots
from battletracker.rules.necromunda.id_lists import counts_key
from tests.benchmarks.odds_bench import LARGEST
from tests.benchmarks.odds_bench import TYPICAL


def _plain_volley(volley: Volley, sixes_cap: int) -> Distribution[tuple[int, int, int]]:
    """(kills, shock, capped sixes) by convolving one effect die per hit, Team by Team."""
    effect = volley.effect
    one = Distribution.uniform(effect.read(face) for face in range(1, 7))

    def after(hx: tuple[int, int]) -> Distribution[tuple[int, int, int]]:
        hits, sixes = hx
        total: Distribution[tuple[int, int]] = Distribution.certain((0, 0))
        for team, share in enumerate(split_hits(hits, volley.teams)):
            team_counts = one.repeat(share, lambda a, b: (a[0] + b[0], a[1] + b[1]), (0, 0))
            capped = team_counts.map(lambda c, t=team: cap_kills(c[0], c[1], volley.figures_of(t)))
            total = total.convolve(capped, lambda a, b: (a[0] + b[0], a[1] + b[1]))
        return total.map(lambda c: (c[0], 0 if volley.shock_ignored else c[1], min(sixes, sixes_cap)))

    return hits_and_sixes(volley.dice, volley.to_hit, volley.storm).bind(after)


@pytest.mark.parametrize("count, target, storm", [
    (0, 4, StormOfSteel(3, True)), (1, 4, None), (5, 3, StormOfSteel()), (2, 4, StormOfSteel(3, True)),
    (4, 6, StormOfSteel(2, True)), (2, 5, StormOfSteel(0, True)), (2, 6, StormOfSteel(3, True)),
])
def test_hits_and_sixes_equal_one_die_convolved_die_by_die(count: int, target: int,
                                                           storm: StormOfSteel | None) -> None:
    one = hits_and_sixes(1, target, storm)
    plain = one.repeat(count, lambda a, b: (a[0] + b[0], a[1] + b[1]), (0, 0))
    assert hits_and_sixes(count, target, storm) == plain


@pytest.mark.parametrize("volley, sixes_cap", [
    (Volley(0, 4, None, HitEffect.for_cover("open")), 0),
    (Volley(3, 4, None, HitEffect.for_cover("light")), 0),
    (Volley(4, 3, StormOfSteel(), HitEffect.for_cover("open", 2)), 2),
    (Volley(2, 4, StormOfSteel(1, True), HitEffect.for_cover("hard")), 1_000),
    (Volley(4, 5, None, HitEffect.for_cover("light"), 1, (2,)), 0),
    (Volley(3, 4, StormOfSteel(), HitEffect.for_cover("open"), 2, (), True), 3),
    (Volley(6, 4, None, HitEffect.for_cover("light"), 2, (2, 3)), 1),
    (Volley(1, 3, StormOfSteel(3, True), HitEffect.for_cover("open", 2), 2, (5, 5)), 0),
    (Volley(2, 4, StormOfSteel(2, True), HitEffect.for_cover("hard"), 3, (1, 0, 4)), 2),
    (Volley(5, 2, StormOfSteel(), HitEffect.for_cover("light"), 2, (3, 1), True), 0),
])
def test_keyed_volley_odds_equal_the_plain_convolution(volley: Volley, sixes_cap: int) -> None:
    plain = _plain_volley(volley, sixes_cap).map(lambda c: kills_shock_key(c[0], c[1]) + _words(c[2]))
    assert keyed_volley_odds(volley, sixes_cap, _words) == plain


def _words(sixes: int) -> str:
    return f" sixes={sixes}" if sixes % 2 else ""


MOST = StormOfSteel(3, True)


@pytest.mark.parametrize("volley, sixes_cap", [
    (Volley(1, 3, StormOfSteel(2, True), HitEffect.for_cover("open", 2), 1, (3,)), 2),
    (Volley(2, 4, StormOfSteel(2, True), HitEffect.for_cover("open", 2), 1, (10,)), 0),
    (Volley(2, 6, StormOfSteel(3, False), HitEffect.for_cover("light"), 1, (2,)), 3),
    (Volley(2, 2, StormOfSteel(1, True), HitEffect.for_cover("hard"), 3), 2),
    (Volley(2, 5, StormOfSteel(2, True), HitEffect.for_cover("open", 2), 1, (1,), True), 1),
    (Volley(3, 4, StormOfSteel(1, False), HitEffect("odd", ("kill", "kill", "shock", "kill", "shock", "kill")), 1,
            (4,)), 2),
    (Volley(2, 4, MOST, HitEffect("none", ("none",) * 6), 1, (2,)), 2),
])
def test_one_team_odds_with_storm_of_steel_equal_the_plain_convolution(volley: Volley, sixes_cap: int) -> None:
    """One Team (or Teams without figures): each (kills, Shock) weight read off the one-die polynomial
    substituted and raised to the dice equals one effect die convolved per hit, with chained extras too."""
    plain = _plain_volley(volley, sixes_cap).map(lambda c: kills_shock_key(c[0], c[1]) + _words(c[2]))
    assert keyed_volley_odds(volley, sixes_cap, _words) == plain


@pytest.mark.parametrize("volley, sixes_cap", [
    (Volley(12, 3, StormOfSteel(1, True), HitEffect.for_cover("open", 2), 1, (10,)), 2),
    (Volley(12, 4, StormOfSteel(2, False), HitEffect.for_cover("light"), 1, (5,)), 0),
    (Volley(8, 4, StormOfSteel(3, True), HitEffect.for_cover("open", 2), 1, (4,)), 2),
    (Volley(6, 5, StormOfSteel(1, True), HitEffect.for_cover("hard"), 2), 1),
])
def test_one_team_odds_equal_the_taylor_shift_of_every_hit_total(volley: Volley, sixes_cap: int) -> None:
    """Where the hit-by-hit path still finishes (up to 320 hits), the new one gives the same odds."""
    shifted = volley_counts(volley, sixes_cap).map(lambda c: kills_shock_key(c[0], c[1]) + _words(c[2]))
    assert keyed_volley_odds(volley, sixes_cap, _words) == shifted


def _capped_hit_by_hit(volley: Volley, sixes_cap: int) -> Distribution[tuple[int, int, int]]:
    """Several Teams with figures, every hit total through the Teams' rows and one Taylor shift of them all (the
    way `volley_counts` counted them before the rolls leaving every Team alive were read as at one Team)."""
    fire, den = capped_weights(volley.dice, volley.to_hit, volley.storm, sixes_cap)
    most_h = max(h for h, _ in fire)
    xc = min(sixes_cap, max(x for _, x in fire)) + 1
    kill, shock, none, per_hit = _reduced_faces(volley.effect)
    left: dict[int, dict[tuple[int, int], int]] = {}  # m hits still to read -> (kills, sixes) -> weight
    for (h, x), n in fire.items():
        states: dict[tuple[int, int], int] = {(0, 0): 1}
        for share, f in zip(split_hits(h, volley.teams), volley.figures, strict=True):
            merged: dict[tuple[int, int], int] = {}
            for (k0, m0), w0 in states.items():
                for k, m, w in _team_rows(kill, per_hit, share, f):
                    merged[(k0 + k, m0 + m)] = merged.get((k0 + k, m0 + m), 0) + w0 * w
            states = merged
        for (k, m), w in states.items():
            row = left.setdefault(m, {})
            key = (k, min(x, xc - 1))
            row[key] = row.get(key, 0) + w * n * per_hit ** (most_h - h)
    out: dict[tuple[int, int, int], int] = {}
    for m, row in left.items():
        for s in range(m + 1):
            ways = comb(m, s) * shock**s * none ** (m - s)
            for (k, x), n in row.items():
                key = (k, s * volley.effect.shock_multiplier, x)
                out[key] = out.get(key, 0) + n * ways
    return Distribution.from_weights(out, den * per_hit**most_h)


@pytest.mark.parametrize("volley, sixes_cap", [
    (Volley(12, 3, MOST, HitEffect.for_cover("open", 2), 2, (5, 5)), 0),
    (Volley(5, 4, MOST, HitEffect.for_cover("light"), 2, (5, 4)), 4),
    (Volley(8, 3, MOST, HitEffect.for_cover("open"), 3, (3, 3, 2)), 0),
    (Volley(4, 4, MOST, HitEffect.for_cover("hard"), 2, (1, 6)), 2),
])
def test_teams_with_figures_at_the_most_storm_of_steel_equal_every_hit_total_read_apart(volley: Volley,
                                                                                        sixes_cap: int) -> None:
    """Up to 480 hits shared by Teams with their figures: the rolls that leave every Team alive read as at one
    Team give the same odds as every hit total shared and read Team by Team."""
    assert volley_counts(volley, sixes_cap) == _capped_hit_by_hit(volley, sixes_cap)


@pytest.mark.parametrize("models, hits", [(2, 1), (3, 4), (6, 7)])
def test_hits_allocated_in_a_combat_equal_the_plain_convolution(models: int, hits: int) -> None:
    ids = tuple(f"u{n}" for n in range(1, models + 1))
    one = Distribution.uniform(range(models))
    plain = one.repeat(hits, lambda acc, i: acc[:i] + (acc[i] + 1,) + acc[i + 1:], (0,) * models)
    assert allocation.allocation_odds({"combat": ",".join(ids), "hits": hits}) == plain.map(
        lambda counts: counts_key(ids, counts))


@pytest.mark.parametrize("models, hits", [(1, 1), (3, 2), (5, 6), (8, 3)])
def test_stray_shots_equal_the_plain_convolution(models: int, hits: int) -> None:
    low = Fraction(stray_shots.HIT_ON_AT_MOST, 6)
    one = {1 << i: low * (1 - low) ** i for i in range(models)}
    one[0] = (1 - low) ** models
    assert stray_shots._odds(models, hits) == Distribution(one).repeat(hits, lambda a, b: a | b, 0)


@pytest.mark.parametrize("dice, tn", [(0, 4), (3, 2), (6, 5), (9, 6)])
@pytest.mark.parametrize("suppression", ["normal", "artillery"])
@pytest.mark.parametrize("incoming, sixes", [(1, 0), (1, 1), (4, 0), (4, 3), (12, 2)])
def test_reaction_odds_equal_reading_every_roll(dice: int, tn: int, suppression: str, incoming: int,
                                                sixes: int) -> None:
    six = Fraction(1, 6)
    other = success_chance(tn) - six
    one = Distribution({(1, 1): six, (1, 0): other, (0, 0): 1 - six - other})
    saves = one.repeat(dice, lambda a, b: (a[0] + b[0], a[1] + b[1]), (0, 0))
    plain = saves.map(lambda pair: reaction.outcome_key(
        max(0, incoming - pair[0]), reaction.suppresses(suppression, sixes, pair[1])))
    assert reaction._odds(dice, tn, incoming, sixes, suppression) == plain


@pytest.mark.parametrize("inputs", [TYPICAL["ab.direct_fire_reaction"], {
    **TYPICAL["ab.direct_fire_reaction"], "fp_dice": 9, "reaction:reaction_dice": 6, "reaction:suppression": "normal"},
    LARGEST["ab.direct_fire_reaction"], {**TYPICAL["ab.direct_fire_reaction"], "fp_dice": 0},
    {**TYPICAL["ab.direct_fire_reaction"], "range": 30, "move": "double", "reaction:reaction_dice": 0},
    {**TYPICAL["ab.direct_fire_reaction"], "range": 4, "fp_dice": 13, "reaction:reaction_dice": 2,
     "reaction:suppressed": True, "reaction:suppression": "normal", "reaction:disruption": 2}])
def test_direct_fire_odds_equal_the_check_against_every_result_of_the_fire(inputs: dict[str, InputValue]) -> None:
    fired, check = direct_fire.split(inputs)
    plan = fire.plan_fire(fired)
    six = Fraction(1, 6)
    other = success_chance(plan.tn) - six
    one = Distribution({(1, 1): six, (1, 0): other, (0, 0): 1 - six - other})
    joint = one.repeat(plan.dice_rolled, lambda a, b: (a[0] + b[0], a[1] + b[1]), (0, 0))
    plain = joint.bind(lambda pair: reaction.reaction_odds({**check, "incoming": pair[0], "incoming_sixes": pair[1]}))
    assert get("ab.direct_fire_reaction").odds(inputs) == plain


@pytest.mark.parametrize(("strike_dice", "armour_dice", "storm"), [
    (2, 0, StormOfSteel(1, False)), (3, 2, StormOfSteel(2, True)), (4, 6, StormOfSteel(1, True))])
def test_grenade_penetrating_hits_capped_equal_the_plain_hits(strike_dice: int, armour_dice: int,
                                                               storm: StormOfSteel) -> None:
    plain = hits_and_sixes(strike_dice, 4, storm).map(lambda hs: hs[0])
    after = anti_tank._after_penetration(anti_tank._penetrating_hits(strike_dice, 4, storm, armour_dice),
                                         armour_dice, 4, "afv")
    assert after == anti_tank._after_penetration(plain, armour_dice, 4, "afv")


@pytest.mark.parametrize("target", [1, 2, 4, 6, 7])
@pytest.mark.parametrize("storm", [None, StormOfSteel(1, False), StormOfSteel(2, True), StormOfSteel(3, True)])
def test_hits_without_sixes_equal_the_hits_of_hits_and_sixes(target: int, storm: StormOfSteel | None) -> None:
    weights, den = hits_and_sixes_weights(3, target, storm, False)
    hits = Distribution.from_weights({h: n for (h, _), n in weights.items()}, den)
    assert hits == hits_and_sixes(3, target, storm).map(lambda hs: hs[0])


@pytest.mark.parametrize("target", [2, 4, 6])
@pytest.mark.parametrize("storm", [None, StormOfSteel(1, False), StormOfSteel(2, True), StormOfSteel(3, True)])
@pytest.mark.parametrize("sixes_cap", [1, 2, 3])
def test_capped_sixes_equal_hits_and_sixes_capped(target: int, storm: StormOfSteel | None, sixes_cap: int) -> None:
    weights, den = capped_weights(3, target, storm, sixes_cap)
    capped = Distribution.from_weights(weights, den)
    assert capped == hits_and_sixes(3, target, storm).map(lambda hs: (hs[0], min(hs[1], sixes_cap)))


@pytest.mark.parametrize("cap", [0, 1, 3])
def test_kills_below_a_cap_are_the_first_weights_of_the_whole_power(cap: int) -> None:
    """Below no kill there is nothing; below `cap` kills, the first `cap` weights of the dice's whole polynomial."""
    storm = StormOfSteel(per_six=1, chains=False)
    die, _den = kills_die(4, storm, 1, 3)
    whole = [1]
    for _ in range(3):
        whole = [sum(whole[i] * die[k - i] for i in range(len(whole)) if 0 <= k - i < len(die))
                 for k in range(len(whole) + len(die) - 1)]
    below, _ = kills_below(3, 4, storm, 1, 3, cap)
    assert list(below) == whole[:cap]
