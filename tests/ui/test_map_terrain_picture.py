"""Terrain pieces are drawn once per zoom into a picture and then copied; every change to a piece (and
the palette, the zoom) has its picture drawn again, so the map looks as a new view of the same game does."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from battletracker.model.terrain import TerrainPiece
from battletracker.rules.terrain_actions import terrain_choice
from battletracker.ui.map import MapView
from battletracker.ui.map.terrain_items import TerrainItem
from battletracker.ui.session import Session
from battletracker.ui.theme import dark_palette
from tests.ui.test_map import drag
from tests.ui.test_map import small_battle
from tests.ui.test_map import vp_point

WOOD = TerrainPiece("ter1", "Copse", "woods", "area", [(30.0, 15.0), (44.0, 15.0), (44.0, 22.0), (30.0, 22.0)])
HEDGE = TerrainPiece("ter2", "Hedge", "hedge", "linear", [(4.0, 30.0), (20.0, 28.0), (26.0, 40.0)])


@pytest.fixture
def view(qtbot: QtBot) -> MapView:
    session = Session(small_battle())
    for piece in (WOOD, HEDGE):
        session.act("terrain.add", {"piece": terrain_choice(piece)})
    v = MapView(session)
    qtbot.addWidget(v)
    v.resize(1000, 700)
    v.show()
    qtbot.waitExposed(v)
    settle(v)
    return v


def settle(view: MapView) -> QImage:
    """The view once the zoom has settled and a few repaints went by: the pieces copied from their pictures."""
    view.map_scene.layout_labels(view.scale_factor)
    for _ in range(3):
        view.viewport().repaint()
    return view.grab().toImage()


def as_in_a_new_view(view: MapView, qtbot: QtBot) -> bool:
    """Whether the view shows what a new view of the same game shows at the same size, zoom, scroll,
    palette and terrain selection."""
    shown = settle(view)
    fresh = MapView(view.session)
    qtbot.addWidget(fresh)
    fresh.setPalette(view.palette())
    fresh.resize(view.size())
    fresh.show()
    qtbot.waitExposed(fresh)
    fresh.setTransform(view.transform())
    fresh.horizontalScrollBar().setValue(view.horizontalScrollBar().value())
    fresh.verticalScrollBar().setValue(view.verticalScrollBar().value())
    assert fresh.viewportTransform() == view.viewportTransform()
    fresh.map_scene.terrain.select(view.map_scene.terrain.selected)
    same = settle(fresh) == shown
    fresh.close()
    return same


def click(view: MapView, x: float, y: float) -> None:
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, vp_point(view, x, y))


def edited(view: MapView, **change: object) -> None:
    view.terrain_tools.edit(replace(view.session.game.terrain["ter1"], **change))  # type: ignore[arg-type]


def menu_entry(view: MapView, submenu: str, text: str) -> None:
    menu = view.terrain_tools.piece_menu("ter1")
    [sub] = [a.menu() for a in menu.actions() if a.text() == submenu]
    [entry] = [a for a in sub.actions() if a.text() == text]
    entry.trigger()


CHANGES: dict[str, Callable[[MapView], None]] = {
    "moved": lambda v: drag(v, vp_point(v, 33.0, 20.0), vp_point(v, 41.0, 25.0)),
    "reshaped": lambda v: (click(v, 33.0, 20.0),
                           drag(v, vp_point(v, 44.0, 22.0), vp_point(v, 50.0, 30.0)))[-1],
    "renamed": lambda v: edited(v, name="Big copse"),
    "another kind": lambda v: menu_entry(v, "Kind", "Standing crops"),
    "its cover overridden": lambda v: menu_entry(v, "Cover", "Hard"),
    "selected": lambda v: click(v, 33.0, 20.0),
    "selected, then let go": lambda v: (click(v, 33.0, 20.0), v.repaint(), QTest.keyClick(v, Qt.Key.Key_Escape))[-1],
    "hovered": lambda v: QTest.mouseMove(v.viewport(), vp_point(v, 33.0, 20.0)),
    "dark theme": lambda v: v.setPalette(dark_palette()),
    "zoomed in": lambda v: v.zoom_by(2.5, vp_point(v, 36.0, 20.0)),
    "undone": lambda v: (edited(v, points=[(10.0, 5.0), (20.0, 5.0), (15.0, 12.0)]), v.repaint(),
                         v.session.undo_stack.undo())[-1],
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_pieces_picture_is_drawn_again_after_each_change(view: MapView, qtbot: QtBot, change: str) -> None:
    before = settle(view)
    items = view.map_scene.terrain.items
    assert all(item.body.isVisible() for item in items.values()), "each piece should be drawn from its picture"
    CHANGES[change](view)
    shown = settle(view)
    if change not in ("hovered", "selected, then let go", "undone", "its cover overridden"):
        assert shown != before, "the change should show"
    else:
        assert shown == before
    assert as_in_a_new_view(view, qtbot)


def test_a_piece_zoomed_in_past_its_pictures_size_is_painted_directly_and_looks_the_same(
        view: MapView, qtbot: QtBot) -> None:
    view.zoom_by(8.0, vp_point(view, 36.0, 20.0))
    settle(view)
    wood = view.map_scene.terrain.items["ter1"]
    assert not wood.body.isVisible()
    assert as_in_a_new_view(view, qtbot)
    view.centerOn(QPointF(37.0, 18.0))
    assert as_in_a_new_view(view, qtbot)


def test_a_hedges_picture_is_cut_into_bands_that_look_as_the_whole_picture(
        view: MapView, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    hedge = view.map_scene.terrain.items["ter2"]
    bands = [hedge.body, *(band for band in hedge._more if band.isVisible())]
    assert len(bands) > 2 and all(band.isVisible() for band in bands)
    box = hedge.body.mapRectToScene(hedge.body.boundingRect())
    for band in bands[1:]:
        box |= band.mapRectToScene(band.boundingRect())
    whole = box.width() * box.height() * view.scale_factor ** 2
    assert sum(b.pixmap().width() * b.pixmap().height() for b in bands) < 0.6 * whole
    cut = settle(view)
    monkeypatch.setattr(TerrainItem, "_strips", lambda *args: [])
    hedge.set_zoom(0.0)
    hedge.set_zoom(view.scale_factor, view.devicePixelRatioF())
    assert not any(band.isVisible() for band in hedge._more)
    assert settle(view) == cut
    # a zoom step, before the zoom settles: the old picture scaled, where a row at a join of two bands
    # may be taken from the next row of the picture
    view.scale(1.1, 1.1)
    view.viewport().repaint()
    uncut = view.grab().toImage()
    monkeypatch.undo()
    hedge.set_zoom(0.0)
    hedge.set_zoom(view.scale_factor / 1.1, view.devicePixelRatioF())
    assert all(band.isVisible() for band in hedge._more)
    view.viewport().repaint()
    shown = view.grab().toImage()
    rows = {y for y in range(shown.height()) for x in range(shown.width()) if shown.pixel(x, y) != uncut.pixel(x, y)}
    assert len(rows) < len(bands)
