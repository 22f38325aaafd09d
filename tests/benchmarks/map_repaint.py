"""The map's full repaint with every overlay, against a bare QGraphicsView in the same run.

Run with `python -m tests.benchmarks.map_repaint`. At 50 and 500 units, the map
with a selected MG (its arc, range rings and targets marked by sight and cover),
shock and condition badges, names, markers, the ruler, the bombardments' overlay
(an area firing, a ranging shot, smoke, a building) and terrain (woods, crops,
rubble, hedges, a wall) is repainted side by side with a bare `QGraphicsView`
drawing the same units as plain ellipses and rectangles, each with its name as
a text item, at the same size and zoom. The ratio of their median CPU times (of
the whole process: Qt blends wide areas on a worker thread too) is printed
against the goal (1.3x), as it stands, with a zoom step before every
repaint (back and forth between two zooms, as a wheel notch in and one out)
and zooming in a step at a time (every repaint at a zoom not shown before);
wall-clock medians follow. Then a token is dragged with the mouse and
the share of the viewport repainted per move is printed. Last, the table
display in projector mode (keystoned, every overlay it draws: arc, rings, the
ring under the selection, bombardments, smoke, a burst, the Line-of-Sight
line) is repainted side by side with the laptop's map, against the same goal:
its shapes are stroked and mapped through the homography once when they
change, so a repaint is a black fill and a few path fills.
Not a test: timings are printed, not asserted.

Where the time goes: a token, a marker's area, a terrain piece and the
rotation handle are pictures Qt paints itself (no Python per repaint), kept
per zoom step and drawn again when the zoom settles; the felt, grid and edge
labels are a picture of the viewport taken on the second paint at a zoom and
scroll position, the pictures of the last two kept (a zoom step back copies
one); copying it costs about three times the bare view's plain fill. The
first paint at a new zoom draws them afresh: the felt and its inch lines are
one strip a pixel high tiled down the table (about 1.5 times a plain fill),
the other lines a few calls of whole-pixel rectangles, the margin and the
table edge opaque fills, about 0.4 ms of CPU at 1600x1000 in all, half of it
Python and Qt's calls. Until the zoom settles Qt scales the tokens' and the
terrain's pictures, blending pixel by pixel, clear pixels too: a token's
picture holds only its body and halos, and a linear piece's is cut into
bands of rows as wide as the line (the tokens' clear pixels were about
0.2 ms of it at 50 units, the hedges' and walls' 0.3 ms); the areas'
translucent fills, about 0.2 ms, are what is left of it. The zoom steps here
go back and forth between two zooms, so after the first few the felt is
copied from its picture: a first paint at a zoom never shown before costs
about 0.2 to 0.3 ms more (the felt drawn afresh). The arc, the rings, the ruler and the
bombardments' areas cost the same at 50 units as at 500 (each of the
bombardments' items, a fill and an outline or a dashed ring, costs 0.02 to
0.08 ms; keeping pictures of the areas saved under 0.1 ms and made the zoom
step slower, so they are painted); 500 units cost about half the bare view
(whose text items lay out their names on every repaint).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent  # noqa: E402
from PySide6.QtCore import QObject  # noqa: E402
from PySide6.QtCore import QPoint  # noqa: E402
from PySide6.QtCore import QPointF  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtGui import QColor  # noqa: E402
from PySide6.QtGui import QPaintEvent  # noqa: E402
from PySide6.QtGui import QPen  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from PySide6.QtWidgets import QGraphicsEllipseItem  # noqa: E402
from PySide6.QtWidgets import QGraphicsItem  # noqa: E402
from PySide6.QtWidgets import QGraphicsRectItem  # noqa: E402
from PySide6.QtWidgets import QGraphicsScene  # noqa: E402
from PySide6.QtWidgets import QGraphicsSimpleTextItem  # noqa: E402
from PySide6.QtWidgets import QGraphicsView  # noqa: E402
from PySide6.QtWidgets import QWidget  # noqa: E402

from battletracker.model.bombardment import Bombardment  # noqa: E402
from battletracker.model.bombardment import BombardmentEvent  # noqa: E402
from battletracker.model.bombardment import Building  # noqa: E402
from battletracker.model.bombardment import SmokeArea  # noqa: E402
from battletracker.model.game import Game  # noqa: E402
from battletracker.model.game import Marker  # noqa: E402
from battletracker.model.game import Side  # noqa: E402
from battletracker.model.game import Unit  # noqa: E402
from battletracker.model.game import Vehicle  # noqa: E402
from battletracker.model.game import Weapon  # noqa: E402
from battletracker.model.terrain import TerrainPiece  # noqa: E402
from battletracker.ui.map import MapView  # noqa: E402
from battletracker.ui.map.bombardments import BombardmentLayer  # noqa: E402
from battletracker.ui.map.items import DEFAULT_DIAMETER  # noqa: E402
from battletracker.ui.map.items import ROUND_DIAMETER  # noqa: E402
from battletracker.ui.map.items import VEHICLE_LENGTH  # noqa: E402
from battletracker.ui.map.items import VEHICLE_WIDTH  # noqa: E402
from battletracker.ui.session import Session  # noqa: E402
from tests.benchmarks.common import report_ratio  # noqa: E402

GOAL = 1.3
DRAG_GOAL = 0.25          # share of the viewport repainted per move of a drag
UNITS = (50, 500)
SIZE = (1600, 1000)
REPEATS = 40

_KINDS = ("section", "team", "leader", "support_weapon", "sniper", "gun", "vehicle")
_CONDITIONS = ("pinned", "suppressed", "broken", "abandoned", "out_of_ammo")


def battle(n: int, seed: int = 7) -> Game:
    """A 72" x 48" Chain of Command table with `n` units of every kind, some shocked and pinned,
    markers, a bombardment firing, another ranging, smoke and a building."""
    rng = random.Random(seed)
    game = Game(title=f"{n} units", sides=[Side("Blue", "#3b6fb6"), Side("Red", "#b5651d")],
                ruleset="chain_of_command")
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
    game.bombardments["b1"] = Bombardment("b1", 0, state="firing", x=48.0, y=32.0, phases_left=3)
    ranging = Bombardment("b2", 1, state="ranging", x=20.0, y=16.0, shape="circle", radius=6.0)
    ranging.history = [BombardmentEvent(1, 1, "placed", "placed", 20.0, 16.0),
                       BombardmentEvent(1, 1, "ranging", "ranging shot", 23.0, 19.0, 20.0, 16.0)]
    game.bombardments["b2"] = ranging
    game.smoke["s1"] = SmokeArea("s1", 60.0, 12.0, 6.0, 3.0, 30.0)
    game.buildings["h1"] = Building("h1", "Farmhouse", 10.0, 40.0, occupants=["u1"])
    pieces = [
        TerrainPiece("t1", "Big Wood", "woods", "area", [(30.0, 18.0), (42.0, 16.0), (46.0, 24.0), (38.0, 30.0),
                                                         (29.0, 26.0)]),
        TerrainPiece("t2", "Wheat", "crops", "area", [(4.0, 4.0), (20.0, 4.0), (20.0, 14.0), (4.0, 14.0)]),
        TerrainPiece("t3", "Ruined barn", "rubble", "area", [(52.0, 36.0), (60.0, 36.0), (60.0, 42.0), (52.0, 42.0)]),
        TerrainPiece("t4", "Scrub", "rough_ground", "area", [(60.0, 2.0), (70.0, 4.0), (68.0, 10.0), (58.0, 8.0)]),
        TerrainPiece("t5", "Long hedge", "hedge", "linear", [(0.0, 24.0), (20.0, 23.0), (28.0, 34.0), (50.0, 35.0)]),
        TerrainPiece("t6", "Bocage", "bocage", "linear", [(48.0, 0.0), (50.0, 20.0), (56.0, 30.0)]),
        TerrainPiece("t7", "Churchyard wall", "wall", "linear", [(62.0, 20.0), (70.0, 20.0), (70.0, 30.0)]),
    ]
    game.terrain = {p.id: p for p in pieces}
    return game


def bare_view(game: Game, like: MapView) -> QGraphicsView:
    """A QGraphicsView with Qt's defaults: a plain shape per unit and its name as a text item."""
    view = QGraphicsView()
    scene = QGraphicsScene(like.sceneRect(), view)
    colours = [QColor(s.colour) for s in game.sides]
    for unit in game.units.values():
        colour = colours[unit.side]
        if unit.vehicle is not None:
            shape: QGraphicsItem = QGraphicsRectItem(-VEHICLE_WIDTH / 2, -VEHICLE_LENGTH / 2, VEHICLE_WIDTH,
                                                     VEHICLE_LENGTH)
            shape.setRotation(unit.facing)
        else:
            r = ROUND_DIAMETER.get(unit.kind, DEFAULT_DIAMETER) / 2.0
            shape = QGraphicsEllipseItem(-r, -r, 2 * r, 2 * r)
        assert isinstance(shape, (QGraphicsRectItem, QGraphicsEllipseItem))
        shape.setBrush(colour)
        shape.setPen(QPen(colour.darker(190), 0.0))
        shape.setPos(unit.x, unit.y)
        scene.addItem(shape)
        name = QGraphicsSimpleTextItem(unit.name)
        name.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        name.setPos(unit.x, unit.y + 0.8)
        scene.addItem(name)
    view.setScene(scene)
    view.setViewport(QWidget())
    view.setFrameShape(QGraphicsView.Shape.NoFrame)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.resize(*SIZE)
    view.show()
    view.setTransform(like.transform())
    view.centerOn(like.mapToScene(like.viewport().rect().center()))
    return view


def _timed_pair(app_paint: Callable[[], None], bare_paint: Callable[[], None]) -> tuple[float, float, float, float]:
    """Medians of (map wall, map CPU, bare wall, bare CPU) milliseconds, the two repaints taken in turns
    so that load from elsewhere falls on both alike (CPU of the process: Qt's painting helper threads count)."""
    samples: list[list[float]] = [[], [], [], []]
    for _ in range(REPEATS):
        for k, paint in ((0, app_paint), (2, bare_paint)):
            w0, c0 = time.perf_counter(), time.process_time()
            paint()
            samples[k].append((time.perf_counter() - w0) * 1000.0)
            samples[k + 1].append((time.process_time() - c0) * 1000.0)
    m = [statistics.median(s) for s in samples]
    return m[0], m[1], m[2], m[3]


class PaintRecorder(QObject):
    """Records the area of every paint event a widget gets (the region Qt asked to repaint)."""

    def __init__(self) -> None:
        super().__init__()
        self.areas: list[int] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and isinstance(event, QPaintEvent):
            self.areas.append(sum(r.width() * r.height() for r in event.region()))
        return False


def drag_shares(app: QApplication, view: MapView, unit_id: str, steps: int = 12) -> list[float]:
    """Drag a unit's token with the mouse; the share of the viewport repainted after each move."""
    viewport = view.viewport()
    unit = view.session.game.units[unit_id]
    start = view.mapFromScene(QPointF(unit.x, unit.y))
    recorder = PaintRecorder()
    viewport.installEventFilter(recorder)
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    app.processEvents()
    shares = []
    whole = viewport.width() * viewport.height()
    for i in range(1, steps + 1):
        recorder.areas.clear()
        QTest.mouseMove(viewport, start + QPoint(6 * i, 4 * i))
        app.processEvents()
        shares.append(sum(recorder.areas) / whole)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       start + QPoint(6 * steps, 4 * steps))
    app.processEvents()
    viewport.removeEventFilter(recorder)
    return shares


def open_map(app: QApplication, n: int) -> tuple[MapView, BombardmentLayer]:
    session = Session(battle(n))
    view = MapView(session)
    view.resize(*SIZE)
    view.show()
    app.processEvents()
    view.fit_table()
    layer = BombardmentLayer(session, view)
    session.select("u4")
    view.measure_item.set_line((5.0, 40.0), (30.0, 44.0), '25.3"')
    view.measure_item.show()
    app.processEvents()
    view.map_scene.layout_labels(view.scale_factor)
    scene = view.map_scene
    assert scene.targets, "the selected MG should have targets in its arc"
    assert scene.wedge.isVisible() and scene.rings.isVisible(), "the MG's arc and rings should show"
    assert any(key.startswith("area:") for key in layer.items), "a bombardment area should show"
    assert any(key.startswith("inside:") for key in layer.items), "units inside the area should be ringed"
    assert any(t.badges.isVisible() for t in scene.tokens.values()), "some tokens should carry badges"
    assert len(scene.terrain.items) == 7, "the terrain pieces should show"
    assert any(m.isVisible() for m in scene.target_marks.marks.values()), "some targets should be marked"
    return view, layer


def measure(app: QApplication, n: int) -> None:
    view, layer = open_map(app, n)
    bare = bare_view(view.session.game, view)
    app.processEvents()
    ours, theirs = view.viewport(), bare.viewport()
    for _ in range(5):
        ours.repaint()
        theirs.repaint()
    wall, cpu, bare_wall, bare_cpu = _timed_pair(ours.repaint, theirs.repaint)
    zoom = [1.01, 1.01]

    def zoom_and_repaint(v: QGraphicsView, k: int) -> Callable[[], None]:
        def run() -> None:
            zoom[k] = 1.0 / zoom[k]
            v.scale(zoom[k], zoom[k])
            v.viewport().repaint()
        return run

    z_wall, z_cpu, z_bare_wall, z_bare_cpu = _timed_pair(zoom_and_repaint(view, 0), zoom_and_repaint(bare, 1))
    shown = (view.transform(), bare.transform())

    def zoom_in_and_repaint(v: QGraphicsView) -> Callable[[], None]:
        def run() -> None:
            v.scale(1.01, 1.01)
            v.viewport().repaint()
        return run

    new_wall, new_cpu, new_bare_wall, new_bare_cpu = _timed_pair(zoom_in_and_repaint(view), zoom_in_and_repaint(bare))
    view.setTransform(shown[0])
    bare.setTransform(shown[1])
    report_ratio(f"map repaint, {n} units, every overlay (CPU)", cpu, bare_cpu, GOAL, "bare view")
    print(f"    wall-clock {wall:.2f} ms, bare view {bare_wall:.2f} ms", flush=True)
    report_ratio(f"map repaint, {n} units, after a zoom step (CPU)", z_cpu, z_bare_cpu, GOAL, "bare view")
    print(f"    wall-clock {z_wall:.2f} ms, bare view {z_bare_wall:.2f} ms", flush=True)
    report_ratio(f"map repaint, {n} units, at a zoom not shown before (CPU)", new_cpu, new_bare_cpu, GOAL,
                 "bare view")
    print(f"    wall-clock {new_wall:.2f} ms, bare view {new_bare_wall:.2f} ms", flush=True)
    for unit_id, what in (("u4", "the selected MG (arc, 3 rings)"), ("u9", "a rifle team (rings to 72\")")):
        shares = drag_shares(app, view, unit_id)
        worst, median = max(shares), statistics.median(shares)
        verdict = "within" if worst <= DRAG_GOAL else "OVER"
        print(f"  dragging {what}: {median:.1%} of the viewport repainted per move, at most {worst:.1%}"
              f" (goal <= {DRAG_GOAL:.0%}: {verdict})", flush=True)
    bare.close()
    view.close()
    layer.deleteLater()
    bare.deleteLater()
    view.deleteLater()
    app.processEvents()


def measure_projector(app: QApplication, n: int) -> None:
    """The table display in projector mode, keystoned, with every overlay it draws, beside the laptop's map."""
    from battletracker.ui.features.table_display.display import DisplayWindow
    from battletracker.ui.features.table_display.display import fitted_corners
    from battletracker.ui.map.items import circle_item

    view, layer = open_map(app, n)
    view.set_overlay("burst", [circle_item((30.0, 20.0), 2.0, QColor("#e53935"), 50)])
    view.terrain_tools.sight_line = ((10.0, 10.0), (40.0, 30.0), 20.0)
    view.terrain_tools.sight_changed.emit()
    display = DisplayWindow(view.session, view)
    display.resize(*SIZE)
    display.show()
    display.set_mode("projector")
    corners = fitted_corners(view.session.game.table_width, view.session.game.table_height, SIZE)
    display.set_mapping([(corners[0][0] + 60.0, corners[0][1] + 30.0), (corners[1][0] - 60.0, corners[1][1] + 30.0),
                         corners[2], corners[3]])
    app.processEvents()
    drawn = display.projector_shapes()
    assert len(drawn) >= 10, "arc, rings, the ring under the MG, bombardments, smoke, the burst and the sight line"
    ours, theirs = display.projector, view.viewport()
    for _ in range(5):
        ours.repaint()
        theirs.repaint()
    wall, cpu, map_wall, map_cpu = _timed_pair(ours.repaint, theirs.repaint)
    report_ratio(f"projector repaint, {n} units, every overlay, keystoned (CPU)", cpu, map_cpu, GOAL, "laptop map")
    print(f"    wall-clock {wall:.2f} ms, laptop map {map_wall:.2f} ms ({len(drawn)} shapes)", flush=True)

    def projector_after_a_change() -> None:
        """The projector after the selection changes: its shapes read again, mapped, drawn and shown."""
        display.refresh()
        ours.repaint()

    def map_after_a_change() -> None:
        """The laptop's map after the same change: the selection's arc, rings and targets drawn again, shown."""
        view.map_scene.refresh_selection()
        theirs.repaint()

    wall, cpu, map_wall, map_cpu = _timed_pair(projector_after_a_change, map_after_a_change)
    report_ratio(f"projector after a selection change, {n} units (CPU)", cpu, map_cpu, GOAL, "laptop map")
    print(f"    wall-clock {wall:.2f} ms, laptop map {map_wall:.2f} ms", flush=True)
    display.close()
    view.close()
    layer.deleteLater()
    view.deleteLater()
    app.processEvents()


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    print(f"map repaint at {SIZE[0]}x{SIZE[1]}: selection arc, rings, targets, badges, names, markers, ruler and"
          " bombardments, beside a bare QGraphicsView of plain shapes and names, taken in turns; medians of"
          " the CPU time of every thread", flush=True)
    for n in UNITS:
        measure(app, n)
    for n in UNITS:
        measure_projector(app, n)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
