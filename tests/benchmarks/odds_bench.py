"""Exact odds of every registered procedure at typical inputs (budget 1 ms, uncached)."""

from __future__ import annotations

import functools
import gc
import statistics
import time
from collections.abc import Callable

from battletracker.rules import Procedure, get, procedures
from tests.benchmarks.common import median_ms, report

BUDGET_MS = 1.0

# Typical inputs per procedure, as the dialogs would pass them.
TYPICAL: dict[str, dict[str, object]] = {
    "dice.pool": {"dice": 10, "target": 4},
    "coc.fire": {"firepower_dice": 12, "to_hit": 4, "cover": "light", "storm_of_steel": True, "teams": 2},
    "coc.tripod_mg": {"figures": 5, "range_band": "effective", "target_quality": "regular", "cover": "light"},
    "coc.sniper": {"target_kind": "infantry", "leader_attached": True},
    "coc.flamethrower": {"range": 8, "fuel": 3, "target_kind": "wooden_building", "to_hit": 4},
    "coc.gun_he": {"he_dice": 4, "cover": "hard", "crew": 4, "teams": 2},
    "coc.grenade_into_vehicle": {"firepower_dice": 3, "vehicle": "open_topped", "passenger_teams": 2, "to_hit": 4},
    "coc.at_fire": {"strike_dice": 9, "armour_dice": 6, "location": "front", "visibility": "open", "target": "afv"},
    "coc.armour_save_only": {"armour_dice": 6, "target": "afv"},
    "coc.at_grenade": {"weapon": "Teller mine", "armour_dice": 2, "target": "afv", "distance": 4},
    "coc.reverse": {},
    "coc.ranging_shot": {"aim_x": 36, "aim_y": 24, "unobserved_attempts": 1},
    "coc.sos_fire": {"cover": "light"},
    "ab.indirect_placement": {"aim_x": 30, "aim_y": 20, "range": 24, "ranges": "9/18/36", "los": False,
                              "observer": True},
    "ab.indirect_mission": {
        "firer_id": "stuh", "aim_x": 30.0, "aim_y": 20.0, "range": 24.0, "ranges": "9/18/36", "los": False,
        "observer": True, "fp_dice": 7, "at_dice": 4, "marker_id": "impact1", "units": 4,
        **{f"unit{n}_{key}": value for n, (uid, x, y, armoured, reaction) in enumerate(
            [("rifles", 29.0, 20.0, False, 4), ("smgs", 31.5, 21.0, False, 4), ("t34", 30.0, 18.0, True, 5),
             ("far", 32.01, 20.0, False, 4)], 1)
           for key, value in (("id", uid), ("x", x), ("y", y), ("armoured", armoured), ("reaction_dice", reaction))},
    },
    "ab.close_support_fire": {"mode": "indirect", "dice_type": "fp", "fp_dice": 7, "at_dice": 4, "move": "single",
                              "range": 24, "ranges": "9/18/36"},
    "ab.reaction": {"reaction_dice": 4, "incoming": 3, "incoming_sixes": 1, "suppression": "artillery"},
    "coc.bombardment_step": {},
    "table.step": {},
    "ab.direct_fire_reaction": {"mode": "direct", "dice_type": "fp", "fp_dice": 7, "at_dice": 4, "move": "single",
                                "range": 12, "ranges": "9/18/36", "reaction:reaction_dice": 4,
                                "reaction:suppression": "artillery"},
    "ab.close_support_assault": {"dice_type": "fp", "fp_dice": 7, "at_dice": 4},
    "necro.shoot": {"bs": 4, "range": 10, "short_range": 8, "long_range": 24, "acc_short": 1, "rapid_fire": 2,
                    "ammo": 4},
    "necro.cool_check": {"cool": 7},
    "necro.engaged_allocation": {"combat": "u1,u2,u3", "hits": 3},
    "necro.reload": {"profile_state": "out_of_ammo"},
    "necro.stray_shots": {"at_risk": "u1,u2,u3", "hits": 2, "toolkit_stray_shots": True},
}


def _caches() -> list[functools._lru_cache_wrapper[object]]:
    """The rules' and odds' memo caches (not the data tables, which load once at start)."""
    return [obj for obj in gc.get_objects()
            if isinstance(obj, functools._lru_cache_wrapper)
            and obj.__module__.startswith(("battletracker.core", "battletracker.rules"))
            and obj.__module__ not in ("battletracker.rules.tables", "battletracker.rules.presets")]


def cold_median_ms(fn: Callable[[], object], caches: list[functools._lru_cache_wrapper[object]],
                   repeat: int = 9) -> float:
    """Median time of `fn` with every memo cache emptied before each run (outside the timing)."""
    fn()
    times = []
    for _ in range(repeat):
        for cache in caches:
            cache.cache_clear()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    procedures()
    caches = _caches()
    for name, inputs in sorted(TYPICAL.items()):
        proc = get(name)

        def run(proc: Procedure = proc, inputs: dict[str, object] = inputs) -> None:
            proc.odds(inputs)  # type: ignore[arg-type]

        report(f"odds {name} (cold)", cold_median_ms(run, caches), BUDGET_MS)
        report(f"odds {name} (cached)", median_ms(run), BUDGET_MS)
    missing = sorted(set(procedures()) - set(TYPICAL))
    if missing:
        print(f"no typical inputs for: {', '.join(missing)}")


if __name__ == "__main__":
    main()
