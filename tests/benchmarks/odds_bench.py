"""Exact odds of every registered procedure, cold, at typical and at the largest inputs the rules allow,
each beside a seeded simulation of the same procedure (its `resolve` with `RandomDice`, the method odds
calculators such as UnitCrunch use): the simulation's time as a ratio and its error.

Goals: cold exact odds <= 1 ms with typical inputs and <= 5 ms with the largest, in CPU time (the
machine may be shared). A simulation runs
`SIMULATION_RUNS` samples, fewer where a procedure's `resolve` is slow (`SIMULATION_BUDGET_S` per line,
the count is printed) so that `make bench` stays within two minutes; its time is then scaled to
`SIMULATION_RUNS` for the ratio. `BENCH_SIMULATION_RUNS=100000` forces the full count everywhere.
"""

from __future__ import annotations

import functools
import gc
import os
import statistics
import time
from collections import Counter
from collections.abc import Callable

from battletracker.core.dice import RandomDice
from battletracker.rules import Inputs
from battletracker.rules import Procedure
from battletracker.rules import get
from battletracker.rules import procedures
from battletracker.rules.base import InputValue

TYPICAL_GOAL_MS = 1.0
LARGEST_GOAL_MS = 5.0
SIMULATION_RUNS = 100_000
SIMULATION_BUDGET_S = 0.25
MIN_SIMULATION_RUNS = 2_000


def _declared(which: str) -> dict[str, Inputs]:
    """Each registered procedure's `typical` or `largest` inputs, where it declares them (rules/base.py)."""
    found = {name: getattr(get(name), which) for name in procedures()}
    return {name: inputs for name, inputs in found.items() if inputs is not None}


# As the dialogs would pass them (from the seeds' worked examples and the demo).
TYPICAL: dict[str, Inputs] = _declared("typical")
# The largest inputs the rules allow, where a procedure's work grows with its inputs. Where the seeds print a
# number (12 Firepower Dice for a flamethrower, six for SOS Fire) it is used; where they leave it to a unit's
# profile, the largest the procedure accepts.
LARGEST: dict[str, Inputs] = _declared("largest")

# The Storm of Steel settings at the most the ruleset allows (settings.toml: 3 extra dice per 6, extras earning
# more for 3 rounds): 12 Firepower Dice can then bring 480 dice.
STORM_OF_STEEL_MOST: dict[str, InputValue] = {"storm_of_steel_per_six": 3, "storm_of_steel_chains": True}
_FLAME_AT_SECTION: dict[str, InputValue] = {"range": 4, "fuel": 3, "range_band": "close", "target_quality": "green",
                                             "firer_id": "flammen", "target_id": "u1", "target_figures": "10"}
# (procedure, what is measured, inputs): the flamethrower as the table's shot plans pass a Section of 10 (one
# unit with its figures) in the open, in a wooden building and carried in a transport; the bombardment's ten
# targets, passengers in a lorry, a tank and a half-track among them; SOS Fire at a Section of two Teams with its
# figures, as the table passes it (without them 115,921 kills-and-Shock outcomes).
LARGEST_STORM: list[tuple[str, str, dict[str, InputValue]]] = [
    ("coc.fire", "storm", {**LARGEST["coc.fire"], **STORM_OF_STEEL_MOST}),
    ("coc.at_grenade", "storm", {**LARGEST["coc.at_grenade"], **STORM_OF_STEEL_MOST}),
    ("coc.flamethrower", "storm at infantry", {**_FLAME_AT_SECTION, "target_kind": "infantry", **STORM_OF_STEEL_MOST}),
    ("coc.flamethrower", "storm at a wooden building", {**_FLAME_AT_SECTION, "target_kind": "wooden_building",
                                                        "building_id": "barn", **STORM_OF_STEEL_MOST}),
    ("coc.flamethrower", "storm at a transport", {**LARGEST["coc.flamethrower"], "target_ids": "u1",
                                                  "target_figures": "10", **STORM_OF_STEEL_MOST}),
    # an empty wooden building, where only the 6s count
    ("coc.flamethrower", "storm at an empty wooden building", {
        "range": 4, "fuel": 3, "range_band": "close", "target_quality": "green", "firer_id": "flammen",
        "target_kind": "wooden_building", "teams": 0, "building_id": "barn", **STORM_OF_STEEL_MOST}),
    ("coc.bombardment_phase", "storm", {**LARGEST["coc.bombardment_phase"], **STORM_OF_STEEL_MOST}),
    ("coc.sos_fire", "storm", {**LARGEST["coc.sos_fire"], "target_id": "s1", "target_figures": "10",
                               **STORM_OF_STEEL_MOST}),
]

def _caches() -> list[functools._lru_cache_wrapper[object]]:
    """The rules' and odds' memo caches (not the data tables, which load once at start)."""
    return [obj for obj in gc.get_objects()
            if isinstance(obj, functools._lru_cache_wrapper)
            and obj.__module__.startswith(("battletracker.core", "battletracker.rules"))
            and obj.__module__ not in ("battletracker.rules.tables", "battletracker.rules.presets")]


def cold_median_ms(fn: Callable[[], object], caches: list[functools._lru_cache_wrapper[object]],
                   repeat: int = 9) -> float:
    """Median CPU time of `fn` with every memo cache emptied before each run (outside the timing).

    CPU time of this thread, not wall time: on a machine shared with other
    work the time the thread waits for a core is not the odds' cost.
    """
    fn()
    times = []
    for _ in range(repeat):
        for cache in caches:
            cache.cache_clear()
        start = time.thread_time()
        fn()
        times.append((time.thread_time() - start) * 1000)
        if times[-1] > 200:  # a slow one is slow every time: three runs say enough
            repeat = min(repeat, 3)
        if len(times) >= repeat:
            break
    return statistics.median(times)


def cached_median_ms(fn: Callable[[], object], repeat: int = 15) -> float:
    """Median CPU time of `fn` once its memo caches are warm."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.thread_time()
        fn()
        times.append((time.thread_time() - start) * 1000)
    return statistics.median(times)


def simulate(proc: Procedure, inputs: Inputs, runs: int, seed: int = 1) -> tuple[Counter[str], float]:
    """Outcome counts of `runs` resolutions with seeded dice, and the CPU time they took in ms."""
    dice = RandomDice(seed)
    resolve = proc.resolve
    start = time.thread_time()
    seen = Counter(resolve(inputs, dice).outcome for _ in range(runs))
    return seen, (time.thread_time() - start) * 1000


def simulation_runs(proc: Procedure, inputs: Inputs) -> int:
    """`SIMULATION_RUNS`, or as many as `SIMULATION_BUDGET_S` allows where `resolve` is slow."""
    forced = os.environ.get("BENCH_SIMULATION_RUNS")
    if forced:
        return int(forced)
    _, pilot_ms = simulate(proc, inputs, 200, seed=2)
    fits = int(SIMULATION_BUDGET_S * 1000 / (pilot_ms / 200))
    return max(MIN_SIMULATION_RUNS, min(SIMULATION_RUNS, fits // 1000 * 1000))


def simulation_error(proc: Procedure, inputs: Inputs, seen: Counter[str], runs: int) -> float:
    """Largest absolute difference between a simulated and the exact probability of any outcome."""
    exact = proc.odds(inputs).as_floats()
    return max(abs(seen[o] / runs - exact.get(o, 0.0)) for o in set(exact) | set(seen))


def measure(name: str, which: str, inputs: Inputs, goal_ms: float,
            caches: list[functools._lru_cache_wrapper[object]]) -> bool:
    """Print one line: cold and cached exact odds against the goal, the simulation's ratio and error."""
    proc = get(name)

    def run() -> None:
        proc.odds(inputs)

    cold = cold_median_ms(run, caches)
    cached = cached_median_ms(run)
    runs = simulation_runs(proc, inputs)
    seen, sim_ms = simulate(proc, inputs, runs)
    full_ms = sim_ms * SIMULATION_RUNS / runs
    error = simulation_error(proc, inputs, seen, runs)
    within = cold <= goal_ms
    timed = "" if runs == SIMULATION_RUNS else f" (timed over {runs:,})"
    print(f"odds {name} {which:<8} cold {cold:6.2f} ms CPU (goal <= {goal_ms:g} ms: {'within' if within else 'OVER'})"
          f", cached {cached:.2f} ms | simulation of {SIMULATION_RUNS:,} {full_ms:6.0f} ms{timed},"
          f" ratio exact/simulation {cold / full_ms:.1e}x, error {error:.4f} (1/sqrt(runs) {runs ** -0.5:.4f})",
          flush=True)
    return within


def main() -> None:
    names = procedures()
    caches = _caches()
    missing = sorted(set(names) - set(TYPICAL))
    if missing:
        print(f"no typical inputs for: {', '.join(missing)}")
    over: list[str] = []
    for name in names:
        if name in TYPICAL and not measure(name, "typical", TYPICAL[name], TYPICAL_GOAL_MS, caches):
            over.append(f"{name} typical")
        if name in LARGEST and not measure(name, "largest", LARGEST[name], LARGEST_GOAL_MS, caches):
            over.append(f"{name} largest")
        for storm_name, which, inputs in LARGEST_STORM:
            if storm_name == name and not measure(name, which, inputs, LARGEST_GOAL_MS, caches):
                over.append(f"{name} {which} (the most Storm of Steel)")
    print(f"odds: {len(names)} procedures, over their goal: {', '.join(over) if over else 'none'}", flush=True)


if __name__ == "__main__":
    main()
