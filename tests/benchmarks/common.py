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
