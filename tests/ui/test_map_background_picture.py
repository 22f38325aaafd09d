"""The table's felt, grid and edge labels are drawn once per zoom and then copied, looking the same."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication, QGraphicsScene
from pytestqt.qtbot import QtBot

from battletracker.ui.map import MapView
from battletracker.ui.map.scene import MapScene
from battletracker.ui.session import Session
from tests.ui.test_map import small_battle


@pytest.fixture
def view(qtbot: QtBot) -> MapView:
    v = MapView(Session(small_battle()))
    qtbot.addWidget(v)
    v.resize(900, 600)
    v.show()
    qtbot.waitExposed(v)
    return v


def count_draws(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts every time the background is really drawn (not copied)."""
    drawn = [0]
    original = MapScene._paint_background

    def counting(scene: MapScene, *args: object) -> None:
        drawn[0] += 1
        original(scene, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(MapScene, "_paint_background", counting)
    return drawn


def direct(view: MapView, monkeypatch: pytest.MonkeyPatch) -> QImage:
    """What the view shows with the background drawn afresh for the whole view."""
    with monkeypatch.context() as m:
        m.setattr(MapScene, "drawBackground",
                  lambda scene, painter, rect: MapScene._paint_background(scene, painter, rect))
        return view.grab().toImage()


def test_a_repaint_at_the_same_zoom_copies_the_background_and_looks_the_same(
        view: MapView, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = count_draws(monkeypatch)
    for _ in range(3):
        view.viewport().repaint()
    assert drawn[0] <= 2                # drawn, then pictured; copied from then on
    before = drawn[0]
    for _ in range(3):
        view.viewport().repaint()
    assert drawn[0] == before
    assert view.grab().toImage() == direct(view, monkeypatch)


def test_the_background_is_drawn_again_after_a_zoom_and_a_palette_change(
        view: MapView, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = count_draws(monkeypatch)
    for _ in range(3):
        view.viewport().repaint()
    before = drawn[0]
    view.zoom_by(1.25)
    view.viewport().repaint()
    assert drawn[0] == before + 1
    assert view.grab().toImage() == direct(view, monkeypatch)
    old = view.grab().toImage()
    palette = QPalette(view.palette())
    palette.setColor(QPalette.ColorRole.Window, QColor("#202020"))
    palette.setColor(QPalette.ColorRole.Base, QColor("#181818"))
    view.setPalette(palette)
    QApplication.processEvents()
    shown = view.grab().toImage()
    assert shown != old
    assert shown == direct(view, monkeypatch)


def test_whoever_invalidates_the_background_has_it_drawn_again(
        view: MapView, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = count_draws(monkeypatch)
    for _ in range(3):
        view.viewport().repaint()
    before = drawn[0]
    scene = view.map_scene
    # as a table picture shown or hidden does: the grid is then drawn elsewhere or here again
    scene.invalidate(scene.sceneRect(), QGraphicsScene.SceneLayer.BackgroundLayer)
    view.viewport().repaint()
    assert drawn[0] == before + 1
