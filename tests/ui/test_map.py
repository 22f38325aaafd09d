"""The map: tokens follow the model, gestures are single undo steps, overlays match the rules' geometry."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtCore import QPointF
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QPalette
from PySide6.QtGui import QPolygonF
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QGraphicsEllipseItem
from pytestqt.qtbot import QtBot

from battletracker.core.geometry import distance
from battletracker.model.effects import AddUnit
from battletracker.model.effects import ChangeSide
from battletracker.model.effects import MoveUnit
from battletracker.model.effects import PlaceMarker
from battletracker.model.effects import RemoveUnit
from battletracker.model.effects import SetCondition
from battletracker.model.effects import add_shock
from battletracker.model.game import Game
from battletracker.model.game import Marker
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.model.game import Weapon
from battletracker.rules.targets import targets_of
from battletracker.ui.map import MapView
from battletracker.ui.map.items import UnitToken
from battletracker.ui.map.items import circle_item
from battletracker.ui.map.items import polygon_item
from battletracker.ui.session import Session


def small_battle() -> Game:
    """A few sections, a tripod MMG (arc 45, 24" band) facing down the table, and two tanks."""
    game = Game(title="Map test", sides=[Side("Germany", "#3b6fb6"), Side("United States", "#b5651d")])
    rifles = [Weapon("Rifles", ranges=[18.0, 72.0])]
    units = [
        Unit("mg", "sMG42 team", "support_weapon", 0, 36.0, 10.0, 180.0,
             weapons=[Weapon("Tripod MG42", kind="mg", arc=45.0, ranges=[24.0])]),
        Unit("g1", "1. Gruppe", "section", 0, 20.0, 10.0, 180.0, weapons=list(rifles)),
        Unit("s1", "1st Squad", "section", 1, 38.0, 26.0, 0.0, weapons=list(rifles)),       # in arc, in range
        Unit("s2", "2nd Squad", "section", 1, 56.0, 14.0, 0.0, weapons=list(rifles)),       # outside the arc
        Unit("s3", "3rd Squad", "section", 1, 36.0, 40.0, 0.0, weapons=list(rifles)),       # in arc, beyond 24"
        Unit("pz", "Panzer IV H", "vehicle", 0, 54.0, 8.0, 190.0, vehicle=Vehicle(),
             weapons=[Weapon("7.5cm KwK 40", kind="gun", arc=45.0, ranges=[72.0])]),
        Unit("sh", "Sherman", "vehicle", 1, 50.0, 36.0, 345.0, vehicle=Vehicle(),
             weapons=[Weapon("75mm M3", kind="gun", arc=45.0, ranges=[72.0])]),
    ]
    game.units = {u.id: u for u in units}
    game.markers["m1"] = Marker("m1", "objective", 36.0, 24.0, 0.0, "Crossroads")
    return game


@pytest.fixture
def session() -> Session:
    return Session(small_battle())


@pytest.fixture
def view(qtbot: QtBot, session: Session) -> MapView:
    v = MapView(session)
    qtbot.addWidget(v)
    v.resize(1200, 800)
    v.show()
    qtbot.waitExposed(v)
    return v


def tok(view: MapView, unit_id: str) -> UnitToken:
    token = view.token(unit_id)
    assert token is not None, f"no token for {unit_id}"
    return token


def vp_point(view: MapView, x: float, y: float) -> QPoint:
    return view.mapFromScene(QPointF(x, y))


def scene_of(view: MapView, p: QPoint) -> tuple[float, float]:
    s = view.mapToScene(p)
    return (s.x(), s.y())


def drag(view: MapView, start: QPoint, end: QPoint, button: Qt.MouseButton = Qt.MouseButton.LeftButton,
         steps: int = 6) -> None:
    vp = view.viewport()
    QTest.mousePress(vp, button, Qt.KeyboardModifier.NoModifier, start)
    for i in range(1, steps + 1):
        QTest.mouseMove(vp, start + (end - start) * (i / steps))
    QTest.mouseRelease(vp, button, Qt.KeyboardModifier.NoModifier, end)


def shift_wheel(view: MapView, at: QPoint, notches: int) -> None:
    vp = view.viewport()
    event = QWheelEvent(QPointF(at), QPointF(vp.mapToGlobal(at)), QPoint(), QPoint(0, 120 * notches),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.ShiftModifier, Qt.ScrollPhase.NoScrollPhase,
                        False)
    QApplication.sendEvent(vp, event)


# -- scene and tokens ------------------------------------------------------------------------------

def test_scene_is_the_table_in_inches(view: MapView, session: Session) -> None:
    table = view.map_scene.table_rect()
    assert (table.width(), table.height()) == (72.0, 48.0)
    assert view.map_scene.sceneRect().contains(table)
    # the fitted table keeps its proportions
    tl, br = view.mapFromScene(QPointF(0, 0)), view.mapFromScene(QPointF(72, 48))
    assert (br.x() - tl.x()) / (br.y() - tl.y()) == pytest.approx(1.5, rel=0.02)


def test_a_token_for_every_unit_at_its_position(view: MapView, session: Session) -> None:
    tokens = view.map_scene.tokens
    assert set(tokens) == set(session.game.units)
    for unit in session.game.units.values():
        token = tokens[unit.id]
        assert (token.x(), token.y()) == (unit.x, unit.y)
        assert token.facing == unit.facing
        assert token.label.text() == unit.name
        assert token.vehicle == unit.is_vehicle
        assert token.colour == QColor(session.game.sides[unit.side].colour)


def test_markers_are_drawn_and_follow_the_model(view: MapView, session: Session) -> None:
    assert view.map_scene.markers["m1"].label.text() == "Crossroads"
    session.apply("Smoke", [PlaceMarker(Marker("m2", "smoke", 20.0, 22.0, 3.0, "Smoke"))])
    item = view.map_scene.markers["m2"]
    assert (item.x(), item.y()) == (20.0, 22.0)
    assert item.boundingRect().width() >= 6.0
    session.undo_stack.undo()
    assert "m2" not in view.map_scene.markers


# -- dragging ----------------------------------------------------------------------------------------

def test_dragging_a_token_moves_the_unit_by_the_inches_dragged_in_one_undo_step(
        view: MapView, session: Session) -> None:
    unit = session.game.units["g1"]
    start, end = vp_point(view, 20.0, 10.0), vp_point(view, 26.0, 13.0)
    before = session.undo_stack.count()
    vp = view.viewport()
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    for i in range(1, 7):
        QTest.mouseMove(vp, start + (end - start) * (i / 6))
        assert (unit.x, unit.y) == (20.0, 10.0), "the model must not change until the drag ends"
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)

    (sx, sy), (ex, ey) = scene_of(view, start), scene_of(view, end)
    assert unit.x == pytest.approx(20.0 + ex - sx, abs=1e-9)
    assert unit.y == pytest.approx(10.0 + ey - sy, abs=1e-9)
    assert unit.x == pytest.approx(26.0, abs=0.1) and unit.y == pytest.approx(13.0, abs=0.1)
    assert unit.facing == 180.0
    assert session.undo_stack.count() == before + 1
    token = view.token("g1")
    assert token is not None and (token.x(), token.y()) == (unit.x, unit.y)
    assert "1. Gruppe moved" in session.game.log[-1].text

    session.undo_stack.undo()
    assert (unit.x, unit.y) == (20.0, 10.0)
    assert (token.x(), token.y()) == (20.0, 10.0)


def test_a_click_on_a_token_selects_it_without_an_undo_step(view: MapView, session: Session) -> None:
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     vp_point(view, 38.0, 26.0))
    assert session.selected == "s1"
    assert session.undo_stack.count() == 0
    assert tok(view, "s1").selected
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     vp_point(view, 5.0, 44.0))
    assert session.selected is None


def test_a_drag_stays_on_the_table(view: MapView, session: Session) -> None:
    drag(view, vp_point(view, 20.0, 10.0), vp_point(view, 20.0, -2.5))
    assert session.game.units["g1"].y == 0.0


def test_escape_during_a_drag_puts_the_token_back(view: MapView, session: Session) -> None:
    vp = view.viewport()
    start = vp_point(view, 20.0, 10.0)
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(vp, start + QPoint(80, 40))
    token = view.token("g1")
    assert token is not None and token.x() > 21.0
    QTest.keyClick(view, Qt.Key.Key_Escape)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start + QPoint(80, 40))
    assert (token.x(), token.y()) == (20.0, 10.0)
    assert session.undo_stack.count() == 0


# -- turning -------------------------------------------------------------------------------------------

def test_shift_wheel_turns_a_unit_as_one_undo_step(qtbot: QtBot, view: MapView, session: Session) -> None:
    unit = session.game.units["s1"]
    at = vp_point(view, unit.x, unit.y)
    for _ in range(3):
        shift_wheel(view, at, 1)
    assert unit.facing == 0.0, "the model changes when the gesture ends"
    assert tok(view, "s1").shown_facing == pytest.approx(15.0)
    qtbot.waitUntil(lambda: unit.facing != 0.0, timeout=20000)
    assert unit.facing == pytest.approx(15.0)
    assert session.undo_stack.count() == 1
    session.undo_stack.undo()
    assert unit.facing == 0.0


def test_releasing_shift_ends_a_wheel_turn(view: MapView, session: Session) -> None:
    unit = session.game.units["s2"]
    at = vp_point(view, unit.x, unit.y)
    shift_wheel(view, at, -2)
    QTest.keyRelease(view, Qt.Key.Key_Shift)
    assert unit.facing == pytest.approx(350.0)
    assert session.undo_stack.count() == 1


def test_the_handle_turns_the_selected_unit(view: MapView, session: Session) -> None:
    session.select("mg")
    handle = view.handle
    assert handle.isVisible()
    # the handle sits ahead of the unit along its facing (180: towards the bottom edge)
    assert handle.x() == pytest.approx(36.0) and handle.y() > 10.0
    start = view.mapFromScene(handle.pos())
    drag(view, start, vp_point(view, 46.0, 10.0))       # due east of the unit
    unit = session.game.units["mg"]
    assert unit.facing == pytest.approx(90.0, abs=1.0)
    assert (unit.x, unit.y) == (36.0, 10.0)
    assert session.undo_stack.count() == 1


# -- following the session -----------------------------------------------------------------------------

def test_a_shock_change_updates_that_tokens_badge(view: MapView, session: Session) -> None:
    token = view.token("s1")
    assert token is not None and not token.badges.isVisible()
    session.apply("Shock", [add_shock("s1", 2)])
    assert [c.text for c in token.badges.chips] == ["2"]
    assert token.badges.isVisible()
    session.apply("Pinned", [SetCondition("s1", "pinned")])
    assert [c.text for c in token.badges.chips] == ["2", "PIN"]
    session.undo_stack.undo()
    session.undo_stack.undo()
    assert not token.badges.isVisible()


def test_a_change_syncs_only_the_touched_token(view: MapView, session: Session,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    synced: Counter[str] = Counter()
    original = UnitToken.sync

    def counting(self: UnitToken, unit: Unit, colour: QColor, vehicle: bool | None = None) -> None:
        synced[self.unit_id] += 1
        original(self, unit, colour, vehicle)

    monkeypatch.setattr(UnitToken, "sync", counting)
    session.apply("Shock", [add_shock("s2", 1)])
    assert synced == Counter({"s2": 1})
    session.apply("Move", [MoveUnit("pz", 50.0, 9.0, 180.0)])
    assert synced == Counter({"s2": 1, "pz": 1})
    assert tok(view, "pz").pos() == QPointF(50.0, 9.0)


def test_roster_changes_add_and_remove_tokens(view: MapView, session: Session) -> None:
    new = Unit("t1", "Bazooka", "team", 1, 10.0, 40.0, 0.0)
    session.apply("Add", [AddUnit(new)])
    assert view.token("t1") is not None
    session.apply("Remove", [RemoveUnit("s3")])
    assert view.token("s3") is None
    assert set(view.map_scene.tokens) == set(session.game.units)
    session.undo_stack.undo()
    session.undo_stack.undo()
    assert view.token("s3") is not None and view.token("t1") is None


def test_a_side_colour_change_and_a_new_game_rebuild(view: MapView, session: Session) -> None:
    session.apply("Colour", [ChangeSide(1, Side("United States", "#00aa00"))])
    assert tok(view, "s1").colour == QColor("#00aa00")
    other = Game(sides=[Side("A", "#123456")], units={"a": Unit("a", "Alpha", "team", 0, 1.0, 2.0)},
                 table_width=48.0, table_height=48.0)
    session.replace_game(other, None)
    assert set(view.map_scene.tokens) == {"a"}
    assert view.map_scene.table_rect().width() == 48.0


# -- the selection's arc, rings and targets ---------------------------------------------------------------

def test_selecting_shows_arc_and_rings_and_highlights_units_in_arc_and_range(
        view: MapView, session: Session) -> None:
    scene = view.map_scene
    assert not scene.wedge.isVisible() and not scene.rings.isVisible()
    session.select("mg")
    assert scene.wedge.isVisible() and scene.rings.isVisible()
    assert scene.rings.bands == [24.0]
    assert scene.rings.origin == QPointF(36.0, 10.0)
    # the wedge covers what in_arc says is in the arc, out to the 24" band
    path = scene.wedge.path()
    assert path.contains(QPointF(36.0, 30.0))
    assert path.contains(QPointF(36.0 + 10.0, 10.0 + 10.5))    # just inside 45 degrees
    assert not path.contains(QPointF(36.0 + 10.0, 10.0 + 9.5))  # just outside
    assert not path.contains(QPointF(36.0, 35.0))               # beyond 24"
    assert scene.targets == {"s1"}
    assert tok(view, "s1").target
    assert not tok(view, "s2").target  # outside the arc
    assert not tok(view, "s3").target  # in the arc, beyond range
    assert not tok(view, "g1").target  # own side


def test_the_marked_targets_are_the_rules_targets(view: MapView, session: Session) -> None:
    game = session.game
    for unit_id in ("mg", "s1", "pz"):
        session.select(unit_id)
        assert view.map_scene.targets == set(targets_of(game, game.units[unit_id]))
        assert {u for u in game.units if tok(view, u).target} == view.map_scene.targets


def test_moving_a_unit_into_the_arc_highlights_it(view: MapView, session: Session) -> None:
    session.select("mg")
    session.apply("Move", [MoveUnit("s2", 40.0, 20.0, 0.0)])
    assert tok(view, "s2").target
    session.apply("Turn", [MoveUnit("mg", 36.0, 10.0, 90.0)])
    assert not tok(view, "s2").target
    assert view.map_scene.wedge.path().contains(QPointF(50.0, 10.0))


def test_an_all_round_unit_shows_rings_but_no_wedge(view: MapView, session: Session) -> None:
    session.select("g1")
    assert not view.map_scene.wedge.isVisible()
    assert view.map_scene.rings.bands == [18.0, 72.0]


def test_selection_from_elsewhere_highlights_and_scrolls_to_the_token(view: MapView, session: Session) -> None:
    view.zoom_by(6.0, vp_point(view, 2.0, 46.0))
    assert not view.viewport().rect().contains(vp_point(view, 54.0, 8.0))
    session.select("pz")
    assert tok(view, "pz").selected
    assert view.viewport().rect().contains(vp_point(view, 54.0, 8.0))


# -- measuring, zooming, picking and overlays ------------------------------------------------------------

def test_measuring_shows_the_distance_in_inches(view: MapView, session: Session) -> None:
    view.set_measure_mode(True)
    start, end = vp_point(view, 4.0, 30.0), vp_point(view, 16.0, 39.0)
    drag(view, start, end)
    expected = distance(scene_of(view, start), scene_of(view, end))
    assert view.measured_distance == pytest.approx(expected)
    assert expected == pytest.approx(15.0, abs=0.15)
    assert view.measure_item.isVisible()
    assert view.measure_item.text() == f'{expected:.1f}"'
    assert session.undo_stack.count() == 0 and session.selected is None
    QTest.keyClick(view, Qt.Key.Key_Escape)
    assert not view.measure_item.isVisible()


def test_right_drag_measures_between_unit_centres(view: MapView) -> None:
    drag(view, vp_point(view, 36.2, 10.1), vp_point(view, 37.9, 26.2), Qt.MouseButton.RightButton)
    assert view.measured_distance == pytest.approx(distance((36.0, 10.0), (38.0, 26.0)))
    assert view.measure_item.text() == '16.1"'


def test_wheel_zoom_keeps_the_point_under_the_mouse(view: MapView) -> None:
    at = vp_point(view, 30.0, 20.0)
    before = scene_of(view, at)
    scale = view.scale_factor
    event = QWheelEvent(QPointF(at), QPointF(view.viewport().mapToGlobal(at)), QPoint(), QPoint(0, 240),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), event)
    assert view.scale_factor == pytest.approx(scale * 1.44)
    after = scene_of(view, at)
    assert math.dist(before, after) < 1.5 / view.scale_factor
    view.fit_action.trigger()
    assert view.scale_factor == pytest.approx(scale)


def test_pick_point_and_pick_unit(view: MapView) -> None:
    got: list[object] = []
    view.pick_point(got.append, "Click the aiming point")
    assert view.picking
    at = vp_point(view, 30.0, 30.0)
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    assert got == [scene_of(view, at)] and not view.picking
    view.pick_unit(got.append)
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     vp_point(view, 5.0, 5.0))
    assert view.picking, "a click on empty table does not pick a unit"
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     vp_point(view, 50.0, 36.0))
    assert got[-1] == "sh"
    view.pick_unit(got.append)
    QTest.keyClick(view, Qt.Key.Key_Escape)
    assert got[-1] is None and not view.picking


def test_overlays_are_set_replaced_and_cleared(view: MapView) -> None:
    first = QGraphicsEllipseItem(38.0, 18.0, 4.0, 4.0)
    second = QGraphicsEllipseItem(30.0, 18.0, 4.0, 4.0)
    view.set_overlay("burst", [first])
    assert first.scene() is view.map_scene
    view.set_overlay("burst", [second])
    assert first.scene() is None and second.scene() is view.map_scene
    view.clear_overlay("burst")
    assert second.scene() is None



def test_an_area_overlay_keeps_its_outline_between_repaints_and_follows_a_new_one(view: MapView) -> None:
    area = polygon_item([(30.0, 18.0), (40.0, 18.0), (35.0, 26.0)], QColor("#e53935"), 80)
    burst = circle_item((20.0, 30.0), 3.0, QColor("#e53935"))
    view.set_overlay("fire", [area, burst])
    view.viewport().repaint()
    kept = (area._path, burst._path)
    view.viewport().repaint()
    assert kept[0] is not None and kept[1] is not None
    assert (area._path, burst._path) == kept and area._path is kept[0] and burst._path is kept[1]
    before = view.grab().toImage()
    area.setPolygon(QPolygonF([QPointF(50.0, 18.0), QPointF(60.0, 18.0), QPointF(55.0, 26.0)]))
    burst.setRect(10.0, 10.0, 4.0, 4.0)
    shown = view.grab().toImage()
    assert shown != before
    fresh = (polygon_item([(50.0, 18.0), (60.0, 18.0), (55.0, 26.0)], QColor("#e53935"), 80),
             circle_item((12.0, 12.0), 2.0, QColor("#e53935")))
    view.set_overlay("fire", list(fresh))
    assert view.grab().toImage() == shown


# -- palettes --------------------------------------------------------------------------------------------

def test_dark_palette_gives_a_dark_map_palette(view: MapView) -> None:
    dark = QPalette()
    for role, colour in ((QPalette.ColorRole.Window, "#2b2b2b"), (QPalette.ColorRole.WindowText, "#e6e6e6"),
                         (QPalette.ColorRole.Base, "#1e1e1e"), (QPalette.ColorRole.Text, "#e6e6e6")):
        dark.setColor(role, QColor(colour))
    view.setPalette(dark)
    assert view.map_scene.palette_.dark
    assert tok(view, "s1").label.chips[0].fg == QColor("#e6e6e6").rgba()
    assert not view.grab().isNull()


# -- other gestures ----------------------------------------------------------------------------------------

def test_middle_drag_pans(view: MapView) -> None:
    view.zoom_by(4.0)
    centre = view.viewport().rect().center()
    before = scene_of(view, centre)
    drag(view, centre, centre + QPoint(100, 50), Qt.MouseButton.MiddleButton)
    after = scene_of(view, centre)
    assert after[0] == pytest.approx(before[0] - 100 / view.scale_factor, abs=0.1)
    assert after[1] == pytest.approx(before[1] - 50 / view.scale_factor, abs=0.1)


def test_space_drag_pans_instead_of_moving(view: MapView, session: Session) -> None:
    view.zoom_by(4.0, vp_point(view, 20.0, 10.0))
    start = vp_point(view, 20.0, 10.0)
    QTest.keyPress(view, Qt.Key.Key_Space)
    drag(view, start, start + QPoint(60, 0))
    QTest.keyRelease(view, Qt.Key.Key_Space)
    assert (session.game.units["g1"].x, session.undo_stack.count()) == (20.0, 0)
    assert vp_point(view, 20.0, 10.0).x() == pytest.approx(start.x() + 60, abs=2)


def test_double_click_and_right_click_report_the_unit(view: MapView, qtbot: QtBot) -> None:
    at = vp_point(view, 38.0, 26.0)
    with qtbot.waitSignal(view.unit_activated) as activated:
        QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    assert activated.args == ["s1"]
    with qtbot.waitSignal(view.context_requested) as context:
        QTest.mouseClick(view.viewport(), Qt.MouseButton.RightButton, Qt.KeyboardModifier.NoModifier, at)
    assert context.args[0] == "s1"


def test_tooltip_gives_range_and_arc_from_the_selected_unit(view: MapView, session: Session) -> None:
    session.apply("Shock", [add_shock("s1", 2)])
    session.select("mg")
    text = view._tooltip_at(vp_point(view, 38.0, 26.0))
    assert "1st Squad" in text and "Shock 2" in text
    assert '22" from the south edge, 34" from the east edge, facing north (0°)' in text and "(38" not in text
    assert f'{distance((36.0, 10.0), (38.0, 26.0)):.1f}" from sMG42 team: band 1 (to 24"), in arc' in text
    assert "beyond range, in arc" in view._tooltip_at(vp_point(view, 36.0, 40.0))


def test_m_toggles_measuring_and_ctrl_0_fits(view: MapView) -> None:
    QTest.keyClick(view, Qt.Key.Key_M)
    assert view.measure_mode and view.measure_action.isChecked()
    QTest.keyClick(view, Qt.Key.Key_M)
    assert not view.measure_mode
    fitted = view.scale_factor
    view.zoom_by(3.0)
    QTest.keyClick(view, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert view.scale_factor == pytest.approx(fitted)


def test_dragging_the_selected_unit_previews_its_arc_and_targets(view: MapView, session: Session) -> None:
    session.select("mg")
    vp = view.viewport()
    start = vp_point(view, 36.0, 10.0)
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(vp, vp_point(view, 37.0, 10.0))
    QTest.mouseMove(vp, vp_point(view, 56.0, 2.0))        # now 12" above the 2nd Squad
    assert view.map_scene.targets == {"s2"}
    assert session.game.units["mg"].x == 36.0
    QTest.keyClick(view, Qt.Key.Key_Escape)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, vp_point(view, 56.0, 2.0))
    assert view.map_scene.targets == {"s1"}
    assert view.map_scene.rings.origin == QPointF(36.0, 10.0)


def test_picking_shows_a_prompt_until_done(view: MapView) -> None:
    view.pick_unit(lambda _unit: None, "Click the target")
    assert view.banner.isVisible() and "Click the target" in view.banner.text()
    view.cancel_pick()
    assert not view.banner.isVisible()
