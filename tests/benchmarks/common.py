"""Shared helpers for the benchmarks: medians over repeated runs, printed plainly."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

# Headless unless a display was given; an offscreen screen the tests chose (tests/conftest.py) stays.
if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY") \
        and not os.environ.get("QT_QPA_PLATFORM", "").startswith("offscreen"):
    os.environ["QT_QPA_PLATFORM"] = "offscreen"


def median_ms(fn: Callable[[], object], repeat: int = 15, warmup: int = 2) -> float:
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def report(name: str, ms: float, budget_ms: float | None = None, unit: str = "ms") -> None:
    line = f"{name:<58} {ms:9.2f} {unit}"
    if budget_ms is not None:
        verdict = "within" if ms <= budget_ms else "OVER"
        line += f"   budget {budget_ms:g} {unit}, ratio {ms / budget_ms:.2f} ({verdict})"
    print(line, flush=True)


def report_ratio(name: str, ms: float, baseline_ms: float, goal: float, baseline: str = "baseline") -> bool:
    """Print a measurement beside the baseline measured in the same run, and whether the ratio meets its goal.

    Ratios hold across machines where absolute times do not, so every goal of
    `make bench` is a ratio to something measured side by side.
    """
    ratio = ms / baseline_ms if baseline_ms > 0 else float("inf")
    verdict = "within" if ratio <= goal else "OVER"
    print(f"{name:<58} {ms:9.2f} ms   {baseline} {baseline_ms:.2f} ms, ratio {ratio:.2f}x"
          f" (goal <= {goal:g}x: {verdict})", flush=True)
    return ratio <= goal
