"""Cover and Line of Sight for every pair of 50 firers and 50 targets on a 72" x 48" table with 40 pieces.

Run with `python -m tests.benchmarks.terrain_bench`. The map marks what a
selected unit can see as the selection moves, so the whole table's answers
(2,500 pairs, cover and sight each) should take under 5 ms once the table is
prepared. Prints the medians (wall-clock and this thread's CPU time, which
other programs' load inflates less) of the pairs alone (the same targets
each time, as the map asks while the selection moves: the index keeps what
their places decide), of other targets each time, and of preparing the
table and answering, and, as information, the ratio to a bare loop of 2,500
distances measured in the same run. Not a test: timings are printed, not
asserted. The table is a busy one: ten woods in the middle, so most lines
cross one.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable

from battletracker.core.geometry import Point
from battletracker.core.geometry import distance
from battletracker.model.bombardment import Building
from battletracker.model.bombardment import SmokeArea
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.terrain import TerrainPiece
from battletracker.rules.terrain import TableIndex
from tests.benchmarks.common import median_ms
from tests.benchmarks.common import report
from tests.benchmarks.common import report_ratio

GOAL_MS = 5.0
RATIO_GOAL = 16.0
"""Information only: the 5 ms goal over the 0.3 ms the bare loop took on the machine it was written on."""
WIDTH, HEIGHT = 72.0, 48.0
AREAS = (("woods", 10), ("crops", 6), ("rubble", 4), ("rough_ground", 4))
LINES = (("hedge", 8), ("wall", 5), ("bocage", 3))


def _blob(rng: random.Random, centre: Point, radius: float, corners: int) -> list[Point]:
    """An irregular (often concave) outline around `centre`, as a player draws a wood."""
    out = []
    for i in range(corners):
        angle = 2 * math.pi * i / corners
        r = radius * rng.uniform(0.6, 1.0)
        out.append((round(centre[0] + r * math.cos(angle), 2), round(centre[1] + r * math.sin(angle), 2)))
    return out


def _line(rng: random.Random, start: Point, length: float, bends: int) -> list[Point]:
    angle = rng.uniform(0, math.pi)
    out = [start]
    for _ in range(bends + 1):
        angle += rng.uniform(-0.5, 0.5)
        x, y = out[-1]
        step = length / (bends + 1)
        out.append((round(x + step * math.cos(angle), 2), round(y + step * math.sin(angle), 2)))
    return out


def terrain_table(seed: int = 17) -> tuple[Game, list[Point], list[Point]]:
    """The table (24 areas, 16 linear pieces, two buildings, one smoke) and 50 firers and 50 targets."""
    rng = random.Random(seed)
    game = Game(title="Terrain", sides=[Side("British", "#3366cc"), Side("German", "#cc3333")])
    n = 0
    for kind, count in AREAS:
        for _ in range(count):
            n += 1
            centre = (rng.uniform(6, WIDTH - 6), rng.uniform(6, HEIGHT - 6))
            game.terrain[f"t{n}"] = TerrainPiece(f"t{n}", f"{kind} {n}", kind, "area",
                                                 _blob(rng, centre, rng.uniform(3, 6), rng.randint(5, 9)))
    for kind, count in LINES:
        for _ in range(count):
            n += 1
            start = (rng.uniform(2, WIDTH - 2), rng.uniform(2, HEIGHT - 2))
            game.terrain[f"t{n}"] = TerrainPiece(f"t{n}", f"{kind} {n}", kind, "linear",
                                                 _line(rng, start, rng.uniform(8, 18), rng.randint(0, 3)))
    game.buildings = {"bld1": Building("bld1", "Farmhouse", 36.0, 24.0, 6.0, 4.0, 20.0),
                      "bld2": Building("bld2", "Barn", 20.0, 30.0, 8.0, 5.0)}
    game.smoke = {"s1": SmokeArea("s1", 50.0, 20.0, 6.0, 4.0)}
    firers = [(rng.uniform(1, WIDTH - 1), rng.uniform(1, 18)) for _ in range(50)]
    targets = [(rng.uniform(1, WIDTH - 1), rng.uniform(30, HEIGHT - 1)) for _ in range(50)]
    return game, firers, targets


def cpu_ms(fn: Callable[[], object], repeat: int = 21) -> float:
    """The median CPU time of this thread for one call, in milliseconds."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.thread_time()
        fn()
        times.append((time.thread_time() - start) * 1000.0)
    return statistics.median(times)


def main() -> None:
    game, firers, targets = terrain_table()
    index = TableIndex(game)

    def pairs() -> object:
        return index.readings(firers, targets)

    def prepared_and_pairs() -> object:
        return TableIndex(game).readings(firers, targets)

    asked = [targets, [(x + 0.25, y) for x, y in targets]]

    def pairs_other_targets() -> object:
        asked.reverse()
        return index.readings(firers, asked[0])

    def bare() -> object:
        return [distance(f, t) for f in firers for t in targets]

    found = index.readings(firers, targets)
    blocked = sum(not s.clear for row in found.sight for s in row)
    covered = sum(c.source is not None for row in found.cover for c in row)
    print(f"{len(game.terrain)} pieces; of 2500 pairs {blocked} without Line of Sight, {covered} in cover")
    report("cover and sight, 50 x 50 pairs, 40 pieces, wall", median_ms(pairs, repeat=21), GOAL_MS)
    pairs_ms = cpu_ms(pairs)
    report("cover and sight, 50 x 50 pairs, 40 pieces, CPU", pairs_ms, GOAL_MS)
    report("the same, targets other than last time's, CPU", cpu_ms(pairs_other_targets), GOAL_MS)
    report("the same, preparing the table first, CPU", cpu_ms(prepared_and_pairs), GOAL_MS)
    report_ratio("cover and sight against 2500 bare distances, CPU", pairs_ms, cpu_ms(bare, repeat=201),
                 goal=RATIO_GOAL, baseline="distances")


if __name__ == "__main__":
    main()
