"""Names on the map stay readable: no other token's body or ring is drawn over a unit's or a terrain piece's name."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QGraphicsItem
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.rules.tables import resources_dir
from battletracker.ui.map import MapView
from battletracker.ui.session import Session


def on_screen(view: MapView, item: QGraphicsItem) -> QRect:
    return item.deviceTransform(view.viewportTransform()).mapRect(item.boundingRect()).toAlignedRect()


def covered_names(view: MapView) -> list[tuple[str, str]]:
    """(name, the unit drawn over it) for each unit's or terrain piece's name on which another token
    paints a pixel more than a quarter opaque (the faint antialiased rim of a body just touching a
    name does not count)."""
    scene = view.map_scene
    tokens = scene.tokens.values()
    names = [(t, t.label, t.name) for t in tokens] + [(None, item.label, item.piece.name)
                                                      for item in scene.terrain.items.values()]
    found = []
    for owner, named, name in names:
        if not named.isVisible():
            continue
        label = on_screen(view, named)
        for other in tokens:
            if other is owner:
                continue
            assert other.body.isVisible(), "at these zooms a token is its picture"
            body = on_screen(view, other.body)
            both = label.intersected(body)
            if both.isEmpty():
                continue
            picture = other.body.pixmap().toImage()
            sx, sy = picture.width() / body.width(), picture.height() / body.height()
            if any(picture.pixelColor(int((x - body.left()) * sx), int((y - body.top()) * sy)).alpha() > 64
                   for x in range(both.left(), both.right() + 1) for y in range(both.top(), both.bottom() + 1)):
                found.append((name, other.name))
    return found


@pytest.mark.parametrize("selected", [None, "u2"])
@pytest.mark.parametrize("scale", [16.5, 22.0, 25.0, 30.0])
def test_no_token_or_its_ring_covers_a_name_on_the_necromunda_demo(
        qtbot: QtBot, selected: str | None, scale: float) -> None:
    session = Session(savefile.load(resources_dir() / "demo" / "necromunda.json"))
    view = MapView(session)
    qtbot.addWidget(view)
    view.resize(1000, 900)
    view.show()
    qtbot.waitExposed(view)
    session.select(selected)        # Brakk selected: Mira and Kessa are its targets and carry rings
    view.resetTransform()
    view.scale(scale, scale)
    view.map_scene.layout_labels(view.scale_factor)    # as when the zoom settles
    QApplication.processEvents()
    assert covered_names(view) == []
