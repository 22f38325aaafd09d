"""Every registered procedure is in the odds benchmark, at typical and at its largest inputs, and its exact
odds there sum to 1 and agree with a seeded simulation of its `resolve`."""

from __future__ import annotations

import pytest

from battletracker.rules import get
from battletracker.rules import procedures
from battletracker.rules.base import InputValue
from tests.benchmarks.odds_bench import LARGEST
from tests.benchmarks.odds_bench import LARGEST_STORM
from tests.benchmarks.odds_bench import TYPICAL
from tests.rules.oddscheck import assert_odds_match_simulation


def test_every_registered_procedure_declares_typical_inputs() -> None:
    """A procedure is benchmarked and checked by being registered: it brings its inputs along."""
    assert [name for name in procedures() if get(name).typical is None] == []


@pytest.mark.parametrize("name", sorted(TYPICAL))
def test_typical_odds_are_exact_and_agree_with_the_dice(name: str) -> None:
    assert_odds_match_simulation(name, TYPICAL[name], runs=500)


@pytest.mark.parametrize("name", sorted(LARGEST))
def test_largest_odds_are_exact_and_agree_with_the_dice(name: str) -> None:
    assert_odds_match_simulation(name, LARGEST[name], runs=1000)


@pytest.mark.parametrize("name, which, inputs", LARGEST_STORM, ids=[f"{n} {w}" for n, w, _ in LARGEST_STORM])
def test_odds_with_the_most_storm_of_steel_finish_and_agree_with_the_dice(name: str, which: str,
                                                                          inputs: dict[str, InputValue]) -> None:
    """The settings' maximum (3 extra dice per 6, chained for 3 rounds) once froze the app: 12 dice can bring
    480, and the Teams' (kills, Shock) tables were multiplied hit total by hit total."""
    assert_odds_match_simulation(name, inputs, runs=1000)


def test_table_actions_without_dice_are_a_certainty() -> None:
    for name in procedures():
        if get(name).ruleset == "table":
            assert get(name).odds(TYPICAL[name]).outcomes == ["done"]


def test_a_whole_area_summed_at_once_equals_the_targets_convolved_one_by_one() -> None:
    """The largest bombardment's area totals (kills with Shock left out, vehicle Shock, unstable buildings),
    summed as packed polynomials, are exactly the pairwise sum of every target's full (kills, Shock, vehicle
    Shock, unstable) odds with its Shock then dropped."""
    from battletracker.core.odds import Distribution
    from battletracker.rules.chain_of_command.area_fire import add_counts
    from battletracker.rules.chain_of_command.area_fire import target_counts
    from battletracker.rules.chain_of_command.area_fire import total_counts
    from battletracker.rules.chain_of_command.bombardment_data import data
    from battletracker.rules.chain_of_command.bombardment_phase import _parse

    areas = [t.area for t in _parse(LARGEST["coc.bombardment_phase"]).targets]
    buildings = [a.building_id for a in areas if a.can_collapse and a.building_id]
    assert len(buildings) == len(set(buildings)), "no building is shared, so unstable buildings simply add up"
    expected: Distribution[tuple[int, int, int, int]] = Distribution.certain((0, 0, 0, 0))
    for area in areas:
        one = target_counts(area.for_odds(), data().unstable_sixes).map(lambda c: (c[0], 0, c[2], c[3]))
        expected = expected.convolve(one, add_counts)
    assert total_counts(areas, data().unstable_sixes, (True, False, True, True)) == expected
