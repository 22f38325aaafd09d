"""`make bench`: every benchmark, printed as medians and ratios to the budgets."""

from __future__ import annotations

import importlib

MODULES = ("startup", "first_dialog", "memory", "map_repaint", "savefile_bench", "odds_bench", "replay_bench",
           "terrain_bench")


def main() -> None:
    for name in MODULES:
        print(f"\n== {name} ==", flush=True)
        importlib.import_module(f"tests.benchmarks.{name}").main()


if __name__ == "__main__":
    main()
