"""Exact odds of every registered procedure at typical inputs (budget 1 ms, uncached)."""

from __future__ import annotations

from battletracker.rules import get, procedures
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
}


def _clear_caches() -> None:
    import functools
    import gc

    for obj in gc.get_objects():
        if (isinstance(obj, functools._lru_cache_wrapper)
                and obj.__module__.startswith(("battletracker.core", "battletracker.rules"))
                and obj.__module__ not in ("battletracker.rules.tables", "battletracker.rules.presets")):
            obj.cache_clear()


def main() -> None:
    for name, inputs in sorted(TYPICAL.items()):
        proc = get(name)

        def run(proc=proc, inputs=inputs) -> None:
            _clear_caches()
            proc.odds(inputs)  # type: ignore[arg-type]

        def cached(proc=proc, inputs=inputs) -> None:
            proc.odds(inputs)  # type: ignore[arg-type]

        report(f"odds {name} (cold)", median_ms(run, repeat=9, warmup=1), BUDGET_MS)
        report(f"odds {name} (cached)", median_ms(cached), BUDGET_MS)
    missing = sorted(set(procedures()) - set(TYPICAL))
    if missing:
        print(f"no typical inputs for: {', '.join(missing)}")


if __name__ == "__main__":
    main()
