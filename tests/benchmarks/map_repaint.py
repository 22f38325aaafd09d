"""Full map repaint with 50 and 500 units and every overlay on, at 1600x1000.

Run with `python -m tests.benchmarks.map_repaint`. Prints the median time of a
forced full repaint of the map's viewport and its ratio to the budget in
DEVELOPERS.md (under 8 ms for 50 units, under 16 ms for 500). Not a test:
timings are printed, not asserted.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QColor  # noqa: E402
from PySide6.QtWidgets import QApplication, QGraphicsItem  # noqa: E402

from battletracker.model.game import Game, Marker, Side, Unit, Vehicle, Weapon  # noqa: E402
from battletracker.ui.map import MapView  # noqa: E402
from battletracker.ui.map.items import circle_item, line_item  # noqa: E402
from battletracker.ui.session import Session  # noqa: E402
from tests.benchmarks.common import report_ratio  # noqa: E402

BUDGETS_MS = {50: 8.0, 500: 16.0}
SIZE = (1600, 1000)
REPEATS = 40

_KINDS = ("section", "team", "leader", "support_weapon", "sniper", "gun", "vehicle")
_CONDITIONS = ("pinned", "suppressed", "broken", "abandoned", "out_of_ammo")


def battle(n: int, seed: int = 7) -> Game:
    """A 72" x 48" table with `n` units of every kind, some shocked and pinned, and a few markers."""
    rng = random.Random(seed)
    game = Game(title=f"{n} units", sides=[Side("Blue", "#3b6fb6"), Side("Red", "#b5651d")])
    for i in range(n):
        kind = _KINDS[i % len(_KINDS)]
        side = i % 2
        unit = Unit(
            id=f"u{i + 1}", name=f"{kind.replace('_', ' ').title()} {i + 1}", kind=kind, side=side,
            x=rng.uniform(2.0, 70.0), y=rng.uniform(2.0, 46.0), facing=rng.uniform(0.0, 360.0),
            counters={"shock": rng.choice((0, 0, 1, 2, 4))},
            conditions=[rng.choice(_CONDITIONS)] if rng.random() < 0.2 else [],
            weapons=[Weapon("Rifles", ranges=[18.0, 72.0])],
            vehicle=Vehicle() if kind == "vehicle" else None,
        )
        game.units[unit.id] = unit
    mg = game.units["u4"]
    mg.x, mg.y, mg.facing = 36.0, 10.0, 180.0
    mg.weapons = [Weapon("Tripod MG", kind="mg", arc=45.0, ranges=[12.0, 24.0, 36.0])]
    for i, (kind, radius) in enumerate((("smoke", 3.0), ("impact", 2.0), ("aiming_point", 0.0), ("objective", 0.0))):
        game.markers[f"m{i + 1}"] = Marker(f"m{i + 1}", kind, 12.0 + 14.0 * i, 30.0, radius, kind.replace("_", " "))
    return game


def burst_overlay() -> list[QGraphicsItem]:
    """What a procedure dialog would add: a burst, its deviation circle and the line of fire."""
    red = QColor("#e53935")
    return [circle_item((40.0, 20.0), 2.0, red, 70), circle_item((40.0, 20.0), 6.0, red, 30, Qt.PenStyle.DashLine),
            line_item((36.0, 10.0), (40.0, 20.0), red)]


def _timed(repaint: Callable[[], None]) -> tuple[float, float]:
    """Median wall-clock and main-thread CPU milliseconds of `repaint`."""
    wall, cpu = [], []
    for _ in range(REPEATS):
        w0, c0 = time.perf_counter(), time.thread_time()
        repaint()
        wall.append((time.perf_counter() - w0) * 1000.0)
        cpu.append((time.thread_time() - c0) * 1000.0)
    return statistics.median(wall), statistics.median(cpu)


def table_photo() -> str:
    """A photo-sized table picture (2048 x 1365, noisy like a photo) as a game keeps it."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QImage, QPainter

    from battletracker.model.backdrop import picture_text

    rng = random.Random(3)
    image = QImage(2048, 1365, QImage.Format.Format_RGB32)
    image.fill(QColor("#6f8f4a"))
    painter = QPainter(image)
    for _ in range(4000):
        painter.fillRect(rng.randrange(2048), rng.randrange(1365), rng.randrange(4, 60), rng.randrange(4, 60),
                         QColor(rng.randrange(40, 140), rng.randrange(60, 160), rng.randrange(30, 90)))
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "JPEG", 85)  # type: ignore[call-overload]
    return picture_text(bytes(data.data()))


def measure(app: QApplication, n: int, picture: str | None = None) -> tuple[tuple[float, float], tuple[float, float]]:
    """Full repaints of the map with `n` units: as it stands, and each right after a zoom step.

    The second number guards against caches that make the first measure look
    good and the first frame of every zoom slow.
    """
    session = Session(battle(n))
    if picture is not None:
        session.act("backdrop.set", {"image": picture, "name": "table.jpg"})
        session.act("backdrop.place", {"px1": 0.0, "py1": 0.0, "px2": 2048.0, "py2": 1365.0,
                                       "x1": 1.0, "y1": 47.0, "x2": 71.0, "y2": 1.0})
    view = MapView(session)
    view.resize(*SIZE)
    view.show()
    app.processEvents()
    view.fit_table()
    session.select("u4")
    view.measure_item.set_line((5.0, 40.0), (30.0, 44.0), '25.3"')
    view.measure_item.show()
    view.set_overlay("burst", burst_overlay())
    app.processEvents()
    viewport = view.viewport()
    for _ in range(5):
        viewport.repaint()
    warm = _timed(viewport.repaint)
    zoom = [1.01]

    def zoom_and_repaint() -> None:
        zoom[0] = 1.0 / zoom[0]
        view.scale(zoom[0], zoom[0])
        viewport.repaint()

    cold = _timed(zoom_and_repaint)
    assert view.map_scene.targets, "the selected MG should have targets in its arc"
    view.close()
    view.deleteLater()
    app.processEvents()
    return warm, cold


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    print(f"map repaint at {SIZE[0]}x{SIZE[1]}, selection arc, rings, targets, markers, ruler and an overlay on")
    print("(wall-clock medians; CPU time of the painting thread in brackets, which other load does not inflate)")
    for n, budget in BUDGETS_MS.items():
        (wall, cpu), (cold_wall, cold_cpu) = measure(app, n)
        print(f"  {n:4d} units: median {wall:6.2f} ms ({cpu:5.2f} CPU)  budget {budget:4.1f} ms  "
              f"ratio {wall / budget:.2f}")
        print(f"    after a zoom step: median {cold_wall:6.2f} ms ({cold_cpu:5.2f} CPU)  budget {budget:4.1f} ms  "
              f"ratio {cold_wall / budget:.2f}")
    picture = table_photo()
    print("over a table photo, CPU time of the painting thread beside the bare table's in the same run:")
    for n in BUDGETS_MS:
        (_wall, bare), (_cold_wall, bare_zoom) = measure(app, n)
        (_wall, cpu), (_cold_wall, cold_cpu) = measure(app, n, picture)
        report_ratio(f"  {n} units over a 2048 px table photo", cpu, bare, 1.5, "without")
        report_ratio("    after a zoom step", cold_cpu, bare_zoom, 3.0, "without")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
