"""Tokens, markers and the handle as pictures Qt draws itself: the same look, clicks only on the body, any zoom."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QGraphicsItem
from pytestqt.qtbot import QtBot

from battletracker.core.geometry import offset
from battletracker.model.game import Marker
from battletracker.ui.map import MapView
from battletracker.ui.map import items
from battletracker.ui.map.items import UnitToken
from battletracker.ui.session import Session
from tests.ui.test_map import small_battle
from tests.ui.test_map import vp_point

NO_CONTENTS = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents


@pytest.fixture
def view(qtbot: QtBot) -> MapView:
    v = MapView(Session(small_battle()))
    qtbot.addWidget(v)
    v.resize(1200, 800)
    v.show()
    qtbot.waitExposed(v)
    v.map_scene.layout_labels(v.scale_factor)      # as when the zoom settles
    return v


def settle(view: MapView) -> None:
    view.map_scene.layout_labels(view.scale_factor)
    QApplication.processEvents()


def token(view: MapView, unit_id: str) -> UnitToken:
    found = view.token(unit_id)
    assert found is not None
    return found


def differing(a: QImage, b: QImage) -> int:
    """Pixels whose colour differs by more than antialiasing's rounding."""
    count = 0
    for y in range(a.height()):
        for x in range(a.width()):
            p, q = a.pixel(x, y), b.pixel(x, y)
            if any(abs(((p >> k) & 255) - ((q >> k) & 255)) > 24 for k in (0, 8, 16)):
                count += 1
    return count


def test_at_the_usual_zoom_tokens_are_pictures_that_look_as_painted(
        view: MapView, monkeypatch: pytest.MonkeyPatch) -> None:
    view.session.select("mg")        # a selected token and its targets carry halos
    settle(view)
    tokens = view.map_scene.tokens.values()
    assert all(t.flags() & NO_CONTENTS and t.body.isVisible() and not t.body.pixmap().isNull() for t in tokens)
    pictured = view.grab().toImage()
    monkeypatch.setattr(items, "PICTURE_LIMIT", 0)
    for t in tokens:
        t.set_zoom(0.0)
        t.set_zoom(view.scale_factor, view.devicePixelRatioF())
    assert not any(t.flags() & NO_CONTENTS or t.body.isVisible() for t in tokens)
    painted = view.grab().toImage()
    # the same pixels but for the facing marks, placed to a fraction of a pixel when painted
    assert differing(pictured, painted) < 50 * len(tokens)   # a shift by one pixel: ~130 a token


def test_a_click_inside_a_turned_vehicles_picture_but_beside_its_body_selects_nothing(view: MapView) -> None:
    tank = token(view, "pz")         # 54, 8 facing 190: its picture is a square round the turned hull
    assert tank.body.isVisible()
    beside = offset((54.0, 8.0), 190.0 + 90.0, 0.75 + 0.35)     # just off its side
    ahead = offset(beside, 190.0, 1.0)
    for point in (beside, ahead):
        assert tank.body.sceneBoundingRect().contains(*point)
        assert not tank.contains_point(*point)
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         vp_point(view, *point))
        assert view.session.selected is None
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     vp_point(view, 54.0, 8.0) + QPoint(2, 2))
    assert view.session.selected == "pz"


def test_zoomed_right_in_tokens_are_painted_and_zoomed_out_pictured_again(view: MapView) -> None:
    section = token(view, "s1")
    view.zoom_by(8.0, vp_point(view, 38.0, 26.0))
    settle(view)
    assert not section.flags() & NO_CONTENTS and not section.body.isVisible()
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     vp_point(view, 38.0, 26.0))
    assert view.session.selected == "s1"
    view.fit_table()
    settle(view)
    assert section.flags() & NO_CONTENTS and section.body.isVisible()
    # the picture follows the token's look: drawn again with its selection halo
    assert section.body.pixmap().width() == section.body.pixmap().height() > 0


def test_a_token_is_drawn_again_when_turned_with_the_handle(view: MapView) -> None:
    view.session.select("s1")
    settle(view)
    section = token(view, "s1")
    before = section.body.pixmap().toImage()
    section.set_preview_facing(90.0)
    assert section.body.pixmap().toImage() != before
    section.set_preview_facing(None)
    assert section.body.pixmap().toImage() == before


def test_a_markers_area_is_a_picture_that_looks_as_painted(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    game = small_battle()
    game.markers["m2"] = Marker("m2", "smoke", 20.0, 30.0, 3.0, "smoke")
    view = MapView(Session(game))
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    qtbot.waitExposed(view)
    settle(view)
    smoke = view.map_scene.markers["m2"]
    assert smoke.flags() & NO_CONTENTS and smoke.area.isVisible()
    pictured = view.grab().toImage()
    monkeypatch.setattr(items, "PICTURE_LIMIT", 0)
    smoke.set_zoom(0.0)
    smoke.set_zoom(view.scale_factor, view.devicePixelRatioF())
    assert not smoke.flags() & NO_CONTENTS and not smoke.area.isVisible()
    assert differing(pictured, view.grab().toImage()) < 60     # its dashed edge, to a fraction of a pixel


def test_the_handle_is_a_picture_that_turns_with_the_unit(view: MapView) -> None:
    view.session.select("s1")
    QApplication.processEvents()
    handle = view.handle
    assert handle.isVisible() and not handle.pixmap().isNull()
    before = handle.pixmap().toImage()
    section = token(view, "s1")
    at = view.mapFromScene(handle.scenePos())
    QTest.mousePress(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    QTest.mouseMove(view.viewport(), vp_point(view, 38.0 + 5.0, 26.0))
    assert section.shown_facing == pytest.approx(90.0, abs=1.0)
    assert handle.pixmap().toImage() != before           # its stem points back at the turned token
    QTest.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                       vp_point(view, 38.0 + 5.0, 26.0))
    assert view.session.game.units["s1"].facing == pytest.approx(90.0, abs=1.0)


def test_a_tokens_picture_holds_what_is_drawn_not_the_room_kept_for_its_widest_halo(view: MapView) -> None:
    section, tank = token(view, "s1"), token(view, "pz")
    unselected = section.body.pixmap().width()
    assert unselected == section._sprite.width()             # the round body and its edge, nothing round it
    side = tank.body.pixmap().width()
    across = math.hypot(items.VEHICLE_WIDTH, items.VEHICLE_LENGTH) * view.scale_factor
    assert across < side <= across + 6                       # the turned hull, its edge and antialiasing
    view.session.select("s1")
    settle(view)
    assert section.body.pixmap().width() == section._sprite.width() > unselected    # now with its halos


def test_a_move_only_moves_the_picture_a_shock_draws_the_badges_and_a_turn_the_body(view: MapView) -> None:
    session = view.session
    unit_id = next(iter(session.game.units))
    t = token(view, unit_id)
    body, badges = t.body.pixmap().cacheKey(), t.badges.pixmap().cacheKey()
    unit = session.game.units[unit_id]
    session.act("unit.move", {"unit": unit_id, "x": unit.x + 3.0, "y": unit.y + 2.0})
    assert (t.x(), t.y()) == (unit.x, unit.y)
    assert (t.body.pixmap().cacheKey(), t.badges.pixmap().cacheKey()) == (body, badges)
    session.act("unit.shock", {"unit": unit_id, "delta": 2})
    assert t.badges.pixmap().cacheKey() != badges
    assert t.body.pixmap().cacheKey() == body
    session.act("unit.turn", {"unit": unit_id, "facing": (unit.facing + 90.0) % 360.0})
    assert t.facing == unit.facing
    assert t.body.pixmap().cacheKey() != body
