"""Scrubbing the replay across 1,000 actions on a 100-unit game: each step under a 16 ms frame; opening a
long game replays it in time linear in its actions.

Run with `python -m tests.benchmarks.replay_bench`. Prints the median time
of one step (wall-clock, and main-thread CPU with the slowest step), for the
timeline alone and with the main window's map, cards and log refreshing, and
the ratio to a frame. Not a test: timings are printed, not asserted.

The window's process mirrors the app's: the app freezes what its start built
(modules, window, the game it opened) out of the cyclic collector after the
first paint (app.py `_resume_collecting`), so here the same is frozen once the
window has painted, and not the timeline measured alone before it. The
replay's timeline, its snapshots and what each jump makes come after, as in
the app, and are collected as usual. A game opened later from the File menu
is not frozen in the app: its full collections then walk that game too.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable

from battletracker.model.game import Game
from battletracker.rules import perform
from battletracker.rules.timeline import Timeline
from tests.benchmarks.common import median_ms
from tests.benchmarks.common import report
from tests.benchmarks.common import report_ratio
from tests.benchmarks.savefile_bench import big_game

FRAME_MS = 16.0
ACTIONS = 1000


def played_game(units: int = 100, actions: int = ACTIONS, seed: int = 3) -> Game:
    """A game of `units` units with `actions` recorded actions: Shock, moves, dice pools and Phase ends."""
    rng = random.Random(seed)
    game = big_game(units, 0)
    ids = list(game.units)
    for i in range(actions):
        unit = rng.choice(ids)
        kind = i % 10
        if kind == 9:
            name, choices, dice = "clock.end_phase", {}, None
        elif kind in (3, 6):
            name, choices, dice = "dice.pool", {"dice": 4, "target": 4}, [rng.randint(1, 6) for _ in range(4)]
        elif kind in (1, 5, 8):
            name, choices, dice = "unit.move", {"unit": unit, "x": rng.uniform(2, 70), "y": rng.uniform(2, 46)}, None
        else:
            name, choices, dice = "unit.shock", {"unit": unit, "delta": 1}, None
        game.apply_all(perform(game, name, choices, dice).effects)  # type: ignore[arg-type]
    return game


def timed(steps: list[int], go: Callable[[int], object]) -> tuple[list[float], list[float]]:
    """Wall-clock and main-thread CPU milliseconds of each step (CPU time is not inflated by other load)."""
    wall, cpu = [], []
    for k in steps:
        w0, c0 = time.perf_counter(), time.thread_time()
        go(k)
        wall.append((time.perf_counter() - w0) * 1000.0)
        cpu.append((time.thread_time() - c0) * 1000.0)
    return wall, cpu


def show(name: str, times: tuple[list[float], list[float]]) -> None:
    wall, cpu = times
    report(f"{name}, wall", statistics.median(wall), FRAME_MS)
    report(f"{name}, CPU (slowest {max(cpu):.1f} ms)", statistics.median(cpu), FRAME_MS)


LINEAR_GOAL = 4.4
"""Replaying four times the actions takes at most this many times as long: linear, with a tenth to spare."""


def replay_grows_linearly() -> None:
    """Opening a long game replays its actions once: 20,000 of them take four times 5,000, not sixteen."""
    from battletracker.rules.replay import replay_steps

    short, long = played_game(20, 5_000), played_game(20, 20_000)
    report_ratio("replay 20,000 actions (opening a long game)", median_ms(lambda: replay_steps(long), 3, 1),
                 median_ms(lambda: replay_steps(short), 3, 1), LINEAR_GOAL, "5,000 actions")


def main() -> None:
    replay_grows_linearly()
    game = played_game()
    rng = random.Random(5)
    scrub = [max(0, min(ACTIONS, 500 + int(rng.gauss(0, 300)))) for _ in range(200)]
    drag = [*range(ACTIONS, -1, -5), *range(0, ACTIONS + 1, 5)]  # the slider dragged back to the start and on
    timeline = Timeline(game)
    show("timeline: first pass forward, replaying each action", timed(list(range(1, ACTIONS + 1)), timeline.go))
    show("timeline: one step back", timed(list(range(ACTIONS - 1, -1, -1)), timeline.go))
    show("timeline: slider dragged, 5 steps a frame", timed(drag, timeline.go))
    show("timeline: jumps to random steps", timed(scrub, timeline.go))
    del timeline
    try:
        from PySide6.QtWidgets import QApplication

        from battletracker.ui.main_window import MainWindow
        from battletracker.ui.session import Session
    except ImportError:
        return
    app = QApplication.instance() or QApplication([])
    session = Session(game)
    window = MainWindow(session)
    window.resize(1366, 768)
    window.show()
    app.processEvents()
    gc.freeze()  # as the app does after its first paint
    session.start_replay()

    def frame(k: int) -> None:
        session.show_step(k)
        app.processEvents()

    show("window: first pass forward (map, cards, log refreshed)", timed(list(range(1, ACTIONS + 1)), frame))
    show("window: one step back", timed(list(range(ACTIONS - 1, -1, -1)), frame))
    show("window: slider dragged, 5 steps a frame", timed(drag, frame))
    show("window: jumps to random steps (clicks on the slider)", timed(scrub, frame))
    session.stop_replay()
    window.session.undo_stack.setClean()
    window.close()


if __name__ == "__main__":
    main()
