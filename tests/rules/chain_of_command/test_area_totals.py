"""An area's kills and unstable buildings counted die by die (area_totals.py) equal the targets' full odds
(area_fire.total_counts) with everything else dropped, wherever the full odds finish."""

from __future__ import annotations

import random

import pytest

from battletracker.rules import Inputs
from battletracker.rules.chain_of_command.area_fire import AreaTarget
from battletracker.rules.chain_of_command.area_fire import total_counts
from battletracker.rules.chain_of_command.area_totals import area_kills_unstable
from battletracker.rules.chain_of_command.area_totals import kills_and_unstable
from battletracker.rules.chain_of_command.bombardment_data import data
from battletracker.rules.chain_of_command.bombardment_phase import _parse
from tests.benchmarks.odds_bench import LARGEST
from tests.benchmarks.odds_bench import LARGEST_STORM
from tests.rules.chain_of_command.test_bombardment_phase import BASE
from tests.rules.chain_of_command.test_bombardment_phase import INFANTRY
from tests.rules.chain_of_command.test_bombardment_phase import PASSENGERS
from tests.rules.chain_of_command.test_bombardment_phase import targets

HQ = {**INFANTRY, "id": "hq", "name": "HQ", "figures": 4, "cover": "hard", "building": "brick_stone", "storeys": 2,
      "building_id": "bld1"}


def _areas(inputs: Inputs) -> list[AreaTarget]:
    return [t.area for t in _parse(inputs).targets]


def _full(areas: list[AreaTarget]) -> object:
    return total_counts(areas, data().unstable_sixes, (True, False, False, True)).map(lambda c: (c[0], c[3]))


@pytest.mark.parametrize("settings", [
    {},
    {"storm_of_steel_per_six": 2},
    {"storm_of_steel_per_six": 1, "storm_of_steel_chains": True},
    {"storm_of_steel_per_six": 0},
    {"bombardment_devastating_doubles_all": False},
])
def test_the_largest_bombardment_counted_die_by_die_equals_the_full_odds(settings: dict[str, object]) -> None:
    areas = _areas({**LARGEST["coc.bombardment_phase"], **settings})  # type: ignore[dict-item]
    assert area_kills_unstable(areas, data().unstable_sixes) == _full(areas)


def test_the_most_storm_of_steel_equals_the_full_odds_where_they_finish() -> None:
    """3 extra dice per 6 for 3 rounds: a Section in the Open, an MG team, the HQ in its brick building and the
    two vehicles (the full odds of the passengers and of the empty church take most of a minute)."""
    storm = next(inputs for name, _, inputs in LARGEST_STORM if name == "coc.bombardment_phase")
    areas = [a for a in _areas(storm)
             if a.name in ("1 Section", "MG team", "HQ", "Panzer IV", "Sd.Kfz. 251")]
    assert len(areas) == 5
    assert area_kills_unstable(areas, data().unstable_sixes) == _full(areas)


@pytest.mark.parametrize("specs", [
    # two units in one brick building: their kills add up, the building falls once
    (HQ, {**HQ, "id": "hq2", "figures": 2, "cover": "light"}),
    # figures not known: kills are not capped
    ({**INFANTRY, "figures": None, "id": None}, {**INFANTRY, "id": "u2", "figures": 1}),
    # two passenger Teams and an empty building, the mortars hitting on 6 alone
    ({**PASSENGERS, "teams": 2}, {"kind": "building", "name": "Church", "id": "c1"}),
    # identical units
    (INFANTRY, {**INFANTRY, "id": "u2"}, {**INFANTRY, "id": "u3"}),
])
def test_shared_buildings_unknown_figures_and_several_teams_equal_the_full_odds(
        specs: tuple[dict[str, object], ...]) -> None:
    given = [{k: v for k, v in spec.items() if v is not None} for spec in specs]
    for storm in ({}, {"storm_of_steel_per_six": 2, "storm_of_steel_chains": True}):
        areas = _areas({**BASE, **targets(*given), **storm, "to_hit": 6})  # type: ignore[dict-item]
        assert area_kills_unstable(areas, data().unstable_sixes) == _full(areas)


def test_a_target_with_the_most_storm_of_steel_is_a_short_table() -> None:
    """12 Firepower Dice with 3 extra dice per 6 for 3 rounds can bring 480 hits; a 4-figure Team in a brick
    building still reads as at most 5 kill counts by building standing or unstable."""
    inputs = {**BASE, **targets(HQ), "phases_fired": 0, "state": "ready", "activation": "begun",
              "devastating": True, "storm_of_steel_per_six": 3, "storm_of_steel_chains": True}
    (area,) = _areas(inputs)  # type: ignore[arg-type]
    weights, den = kills_and_unstable(area.for_odds(), data().unstable_sixes)
    assert set(weights) == {(k, u) for k in range(5) for u in (0, 1)}
    assert sum(weights.values()) == den


def _random_area(rng: random.Random) -> dict[str, object]:
    specs: list[dict[str, object]] = []
    for i in range(rng.randint(1, 4)):
        kind = rng.choice(["infantry", "passengers", "vehicle", "building"])
        spec: dict[str, object] = {"kind": kind, "id": f"x{i}", "name": f"Target {i}"}
        if kind == "infantry":
            spec.update(cover=rng.choice(["open", "light", "hard"]), pinned=rng.random() < 0.3)
            if rng.random() < 0.8:
                spec["figures"] = rng.randint(1, 10)
            if rng.random() < 0.4:
                spec.update(building="brick_stone", storeys=rng.randint(1, 3), building_id=rng.choice(["b1", "b2"]))
        elif kind == "passengers":
            spec.update(figures=rng.randint(1, 10), teams=rng.randint(1, 2), vehicle_id="lorry")
        elif kind == "vehicle":
            spec["open_topped"] = rng.random() < 0.5
        specs.append(spec)
    inputs = {**BASE, **targets(*specs), "to_hit": rng.randint(2, 6), "firepower_dice": rng.randint(1, 8),
              "storm_of_steel_per_six": rng.randint(0, 2), "storm_of_steel_chains": rng.random() < 0.3}
    if rng.random() < 0.4:
        inputs.update(phases_fired=0, state="ready", activation="begun", devastating=True)
    return inputs


@pytest.mark.parametrize("seed", range(20))
def test_random_areas_equal_the_full_odds(seed: int) -> None:
    """Units in and out of buildings (some sharing one), with and without figures, passengers, vehicles, empty
    buildings; any to-hit, Firepower Dice and Storm of Steel the full odds finish with."""
    areas = _areas(_random_area(random.Random(seed)))  # type: ignore[arg-type]
    assert area_kills_unstable(areas, data().unstable_sixes) == _full(areas)
