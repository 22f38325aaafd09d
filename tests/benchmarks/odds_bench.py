"""Exact odds of every registered procedure at typical inputs (budget 1 ms, uncached)."""

from __future__ import annotations

from battletracker.rules import get, procedures
from tests.benchmarks.common import median_ms, report

BUDGET_MS = 1.0

# Typical inputs per procedure, as the dialogs would pass them.
TYPICAL: dict[str, dict[str, object]] = {
    "dice.pool": {"dice": 10, "target": 4},
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
