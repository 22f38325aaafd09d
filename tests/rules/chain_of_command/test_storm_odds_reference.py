"""The flamethrower's and the bombardment Phase's exact odds with the most Storm of Steel equal the odds the
slower methods before them gave, saved as the SHA-256 of every outcome's whole weight over the denominator
(the whole odds, thousands of numbers of some 2,000 bits, would fill megabytes)."""

from __future__ import annotations

import hashlib
from fractions import Fraction
from math import gcd

import pytest

from battletracker.rules import Inputs
from battletracker.rules import odds
from tests.benchmarks.odds_bench import _FLAME_AT_SECTION
from tests.benchmarks.odds_bench import LARGEST
from tests.benchmarks.odds_bench import LARGEST_STORM
from tests.benchmarks.odds_bench import STORM_OF_STEEL_MOST
from tests.benchmarks.odds_bench import TYPICAL

_PER_SIX_2: Inputs = {"storm_of_steel_per_six": 2, "storm_of_steel_chains": True}
_PER_SIX_1: Inputs = {"storm_of_steel_per_six": 1, "storm_of_steel_chains": False}
_TRANSPORT: Inputs = {**LARGEST["coc.flamethrower"], "target_ids": "u1", "target_figures": "10"}

CASES: dict[str, tuple[str, Inputs]] = {
    **{f"{name} {which}": (name, inputs) for name, which, inputs in LARGEST_STORM
       if name in ("coc.flamethrower", "coc.bombardment_phase")},
    "flame infantry S2 moved": ("coc.flamethrower", {**_FLAME_AT_SECTION, "target_kind": "infantry", "moved": True,
                                                     **_PER_SIX_2}),
    "flame infantry S1 to_hit 5": ("coc.flamethrower", {"range": 4, "fuel": 3, "to_hit": 5, "target_kind": "infantry",
                                                        "target_figures": "7", "target_id": "u1", **_PER_SIX_1}),
    "flame infantry no figures S3": ("coc.flamethrower", {"range": 4, "fuel": 3, "to_hit": 4,
                                                          "target_kind": "infantry", **STORM_OF_STEEL_MOST}),
    "flame building S2 to_hit 4": ("coc.flamethrower", {**_FLAME_AT_SECTION, "target_kind": "wooden_building",
                                                        "range_band": "effective", "target_quality": "regular",
                                                        **_PER_SIX_2}),
    "flame transport immobilised S3": ("coc.flamethrower", {**_TRANSPORT, "vehicle_immobilised": True,
                                                            **STORM_OF_STEEL_MOST}),
    "flame transport S1": ("coc.flamethrower", {**_TRANSPORT, **_PER_SIX_1}),
    "flame transport S2 moved": ("coc.flamethrower", {**_TRANSPORT, "moved": True, **_PER_SIX_2}),
    "flame typical": ("coc.flamethrower", TYPICAL["coc.flamethrower"]),
    "flame largest": ("coc.flamethrower", LARGEST["coc.flamethrower"]),
    "bomb typical": ("coc.bombardment_phase", TYPICAL["coc.bombardment_phase"]),
    "bomb largest": ("coc.bombardment_phase", LARGEST["coc.bombardment_phase"]),
    "bomb S2": ("coc.bombardment_phase", {**LARGEST["coc.bombardment_phase"], **_PER_SIX_2}),
    "bomb S3 not devastating": ("coc.bombardment_phase", {**LARGEST["coc.bombardment_phase"], "devastating": False,
                                                          **STORM_OF_STEEL_MOST}),
}

SAVED: dict[str, tuple[int, str]] = {
    "coc.flamethrower storm at infantry": (4766, "048e108b2e344e46c7a2e956e122b6b40d771b8dbac3d8d571efda008f3444c3"),
    "coc.flamethrower storm at a wooden building": (
        4882, "ac45ad5dbddc0d0c7f0897736592613a37786a79138f178757813c5f3ff52695"),
    "coc.flamethrower storm at a transport": (5290, "1a529ea6cd79cfd8b17c68450e0bf25ec808adea3ced1cd04760be6ba6a3bd02"),
    # checked against the 6s counted die by die below (the whole (hits, sixes) table took minutes)
    "coc.flamethrower storm at an empty wooden building": (
        2, "fef03061e3a90e0661a92c4062d61274d1712e37ffc1a35c257006050150d866"),
    "coc.bombardment_phase storm": (153, "69fd938ebdd2d69e3b3dd9c3fa23f2cf87453699c1afc963981d6dd07b7e472a"),
    "flame infantry S2 moved": (866, "0ce22f56206753fd49e34162a6611b33b6a6565bfe7fe9271ab6b42947e4cb61"),
    "flame infantry S1 to_hit 5": (155, "56a3eb2a170b3cecd14c7a8198b8784df76090e574e1d1fb9f3c82e17b8eb639"),
    "flame infantry no figures S3": (115921, "1679bc66ba9320325a450c168762eac5da74516e8b397422bfe2d541b9bacf97"),
    "flame building S2 to_hit 4": (1872, "aa9cbb1545611a94f3b3bbbc0ade2dcb882b1b1ed693b65fdae464fbec4180b8"),
    "flame transport immobilised S3": (4968, "e70be117d23db6bbe5116eda4aca6f02395119c73cceba59d0c74e9f3b0ec0ac"),
    "flame transport S1": (610, "91f26cf0986a2d014f3d0ead3e4e7a5a9fae5c5eb8d0dc1df91710bc766dea74"),
    "flame transport S2 moved": (1091, "509df103ffc4d44ac708697e0525ce0103fa78a0ab63c9c044c31ebad4e44d73"),
    "flame typical": (430, "f08a6c8c1ab62ea73affbc7731693de75868e1fafb2b986687d2f55c2f8c1513"),
    "flame largest": (777, "93f39499cd5ef58a501cd76cf3714f0592c6005c59e5628f55953c492c4e056c"),
    "bomb typical": (17, "50bcf5415e7e4e773dd09185cf2a9cac66fee4ceae83ad44000cdc8309a6292c"),
    "bomb largest": (153, "42045222a189e93fb5978834bb9da6cda4672ccdbc8d66df58acb690d3cc3f6d"),
    "bomb S2": (153, "0274425a8b2c98b514aa2c2ee0bc68de48137923a2d3afb9bebe2511d484da09"),
    "bomb S3 not devastating": (153, "35516c79b489e74ff32b0caba9cb25c15b50adaea2dc219fa338811bbec137f4"),
}


def digest(name: str, inputs: Inputs) -> tuple[int, str]:
    """How many outcomes, and the SHA-256 of the denominator and each outcome's weight in lowest terms."""
    dist = odds(name, inputs)
    assert dist.total() == 1
    weights, den = dist.whole_weights()
    common = gcd(den, *weights.values())
    weights, den = {key: w // common for key, w in weights.items()}, den // common
    text = f"{den}|" + "|".join(f"{key}={weights[key]}" for key in sorted(weights))
    return len(weights), hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("case", sorted(CASES))
def test_exact_odds_equal_the_saved_ones(case: str) -> None:
    name, inputs = CASES[case]
    assert digest(name, inputs) == SAVED[case]


def _times(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _sixes_of_one_die(rounds: int, per_six: int) -> list[Fraction]:
    """Chance of each count of 6s from one die and the Storm of Steel dice its 6s earn, round by round."""
    six = [Fraction(0), Fraction(1)]
    if rounds:
        extra = _sixes_of_one_die(rounds - 1, per_six)
        for _ in range(per_six):
            six = _times(six, extra)
    out = [Fraction(1, 6) * p for p in six]
    out[0] += Fraction(5, 6)
    return out


def test_an_empty_wooden_building_under_the_most_storm_of_steel_counts_only_its_sixes() -> None:
    """12 dice with 3 extra dice per 6 for 3 rounds at an empty building: two 6s set it on fire. Counted by the
    6s alone, in a second, not by the whole (hits, sixes) table of 480 by 480."""
    sixes = [Fraction(1)]
    for _ in range(12):
        sixes = _times(sixes, _sixes_of_one_die(3, 3))
    on_fire = 1 - sixes[0] - sixes[1]
    dist = odds("coc.flamethrower", {"range": 4, "fuel": 3, "to_hit": 3, "target_kind": "wooden_building",
                                     "teams": 0, **STORM_OF_STEEL_MOST})
    assert dict(dist.items()) == {"kills=0 shock=0 building_on_fire": on_fire, "kills=0 shock=0": 1 - on_fire}
