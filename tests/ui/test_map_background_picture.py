"""The table's felt, grid and edge labels are drawn once per zoom and then copied, looking the same;
whatever they depend on (the zoom, the palette, the table's size, a table picture) has them drawn again."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtCore import QRectF
from PySide6.QtCore import QSize
from PySide6.QtGui import QColor
from PySide6.QtGui import QImage
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPalette
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QGraphicsScene
from pytestqt.qtbot import QtBot

from battletracker.model.backdrop import picture_text
from battletracker.ui.map import MapView
from battletracker.ui.map.palette import MapPalette
from battletracker.ui.map.scene import MapScene
from battletracker.ui.session import Session
from battletracker.ui.theme import dark_palette
from tests.model.pictures import png_bytes
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



def reference_grid(scene: MapScene, size: QSize, transform: QTransform) -> QImage:
    """The felt and every grid line filled one by one, lightest weight first, in whole pixels on the table."""
    p = scene.palette_
    sx, dx, sy, dy = transform.m11(), transform.dx(), transform.m22(), transform.dy()
    table = QRect(round(dx), round(dy), round(sx * 72 + dx) - round(dx), round(sy * 48 + dy) - round(dy))
    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("#804020"))
    painter = QPainter(image)
    painter.fillRect(table, p.felt)
    for every, colour in ((1, p.grid_inch), (6, p.grid_six), (12, p.grid_twelve)):
        if every == 1 and sx < 6.0:
            continue                    # no inch lines when they would crowd
        a = colour.alphaF()
        opaque = QColor.fromRgbF(*(c * a + f * (1 - a) for c, f in zip(colour.getRgbF()[:3], p.felt.getRgbF()[:3],
                                                                        strict=True)))
        thick = 2 if every == 12 else 1
        for inch in range(0, 73, every):
            at = round(sx * inch + dx) - thick // 2
            painter.fillRect(QRect(at, table.top(), thick, table.height()) & table, opaque)
        for inch in range(0, 49, every):
            at = round(sy * inch + dy) - thick // 2
            painter.fillRect(QRect(table.left(), at, table.width(), thick) & table, opaque)
    painter.end()
    return image


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("scale", "dx", "dy"), [(19.190751, 109.0, 48.0), (13.37, 41.6, -20.3), (5.2, 300.5, 7.49)])
def test_the_grid_is_the_felt_with_the_heavier_line_on_top_where_lines_cross(
        view: MapView, scheme: str, scale: float, dx: float, dy: float) -> None:
    scene = view.map_scene
    if scheme == "dark":
        scene.set_palette(MapPalette.from_qpalette(dark_palette()), view.font())
    assert scene.palette_.dark == (scheme == "dark")
    size = QSize(1200, 800)
    transform = QTransform(scale, 0.0, 0.0, scale, dx, dy)
    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("#804020"))
    painter = QPainter(image)
    painter.setRenderHints(view.renderHints())
    painter.setWorldTransform(transform)
    scene._draw_grid(painter, transform.inverted()[0].mapRect(QRectF(0, 0, 1200, 800)) & scene.table_rect(), scale)
    painter.end()
    assert image == reference_grid(scene, size, transform)



def looks_as_in_a_new_view(view: MapView, qtbot: QtBot) -> bool:
    """Whether the view shows what a view of the same game that never drew a background shows
    at the same size, zoom and scroll (the names placed alike in both)."""
    fresh = MapView(view.session)
    qtbot.addWidget(fresh)
    fresh.resize(view.size())
    fresh.show()
    qtbot.waitExposed(fresh)
    fresh.setTransform(view.transform())
    fresh.horizontalScrollBar().setValue(view.horizontalScrollBar().value())
    fresh.verticalScrollBar().setValue(view.verticalScrollBar().value())
    assert fresh.viewportTransform() == view.viewportTransform()
    for v in (view, fresh):
        v.map_scene.layout_labels(v.scale_factor)
    same = repainted(view) == fresh.grab().toImage()
    fresh.close()
    return same


def repainted(view: MapView) -> QImage:
    """The view after a few repaints where nothing moves: its background kept as a picture by then."""
    for _ in range(3):
        view.viewport().repaint()
    return view.grab().toImage()


def test_a_table_of_another_size_has_its_background_drawn_again(view: MapView, qtbot: QtBot) -> None:
    old = repainted(view)
    smaller = small_battle()
    smaller.table_width, smaller.table_height = 48.0, 48.0
    view.session.replace_game(smaller, None)
    shown = repainted(view)
    assert shown != old
    assert looks_as_in_a_new_view(view, qtbot)


def test_a_table_picture_shown_or_hidden_has_the_background_drawn_again(view: MapView, qtbot: QtBot) -> None:
    session = view.session
    view.map_scene.layout_labels(view.scale_factor)
    felt = repainted(view)
    session.act("backdrop.set", {"image": picture_text(png_bytes(150, 100)), "name": "table.png"})
    assert view.map_scene.backdrop.shown
    pictured = repainted(view)
    assert pictured != felt
    assert looks_as_in_a_new_view(view, qtbot)
    session.act("backdrop.show", {"visible": False})
    assert repainted(view) == felt


def test_a_zoom_step_back_copies_the_picture_of_the_zoom_before_and_looks_the_same(
        view: MapView, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = count_draws(monkeypatch)
    before_zoom = view.transform()
    for _ in range(3):
        view.viewport().repaint()
    view.scale(1.25, 1.25)
    for _ in range(3):
        view.viewport().repaint()
    zoomed = view.grab().toImage()
    before = drawn[0]
    view.setTransform(before_zoom)      # a wheel notch out after one in: the zoom before, exactly
    view.viewport().repaint()
    view.setTransform(QTransform(before_zoom).scale(1.25, 1.25))
    view.viewport().repaint()
    assert drawn[0] == before           # both copied from their pictures
    assert view.grab().toImage() == zoomed == direct(view, monkeypatch)
    view.scale(1.25, 1.25)              # a third zoom: drawn, then pictured in the oldest picture's pixels
    for _ in range(3):
        view.viewport().repaint()
    assert drawn[0] == before + 2
    assert view.grab().toImage() == direct(view, monkeypatch)
    view.setTransform(before_zoom)      # its picture was the oldest: drawn again
    view.viewport().repaint()
    assert drawn[0] == before + 3
    assert view.grab().toImage() == direct(view, monkeypatch)
