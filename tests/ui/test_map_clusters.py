"""The map reads clearly when units cluster: names and badges keep clear of each other, a burst stays on
top of them, and every vehicle (Armour Battles ones too) is a rectangle."""

from __future__ import annotations

from itertools import combinations

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.effects import MoveUnit
from battletracker.model.game import Game
from battletracker.model.game import Marker
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.rules.tables import resources_dir
from battletracker.ui.map import MapView
from battletracker.ui.map.items import MarkerItem
from battletracker.ui.map.items import UnitToken
from battletracker.ui.map.items import circle_item
from battletracker.ui.map.labels import PixmapLabel
from battletracker.ui.session import Session


def cluster() -> Game:
    """Three sections within an inch and a half of each other, shocked and pinned, under a 2" burst."""
    game = Game(title="Cluster", sides=[Side("Germany", "#3b6fb6"), Side("United States", "#b5651d")])
    units = [
        Unit("a", "1st Squad", "section", 1, 30.0, 20.0, 0.0, counters={"shock": 2}, conditions=["pinned"]),
        Unit("b", "2nd Squad", "section", 1, 31.4, 20.4, 0.0, counters={"shock": 1}),
        Unit("c", "3rd Squad", "section", 1, 30.6, 21.5, 0.0, conditions=["pinned"]),
    ]
    game.units = {u.id: u for u in units}
    game.markers["burst"] = Marker("burst", "burst", 30.7, 20.6, 2.0, "2\" burst")
    return game


def show(qtbot: QtBot, session: Session) -> MapView:
    view = MapView(session)
    qtbot.addWidget(view)
    view.resize(1366, 700)
    view.show()
    qtbot.waitExposed(view)
    return view


def pixel_rect(view: MapView, label: PixmapLabel) -> QRectF:
    return label.deviceTransform(view.viewportTransform()).mapRect(label.boundingRect())


def labels_of(view: MapView) -> list[tuple[str, QRectF]]:
    found = []
    for unit_id, token in view.map_scene.tokens.items():
        for label in (token.label, token.badges):
            if label.isVisible():
                found.append((f"{unit_id} {label.text()}", pixel_rect(view, label)))
    return found


@pytest.mark.parametrize("zoom", [1.0, 1.6, 2.5])
def test_names_and_badges_of_three_close_units_do_not_overlap(qtbot: QtBot, zoom: float) -> None:
    view = show(qtbot, Session(cluster()))
    view.zoom_by(zoom)
    qtbot.waitUntil(lambda: not view._label_timer.isActive())
    labels = labels_of(view)
    assert len(labels) == 6
    for (a, ra), (b, rb) in combinations(labels, 2):
        assert not ra.intersects(rb), f"{a} overlaps {b} at zoom {zoom}"


def test_labels_keep_clear_after_a_unit_moves_into_the_cluster(qtbot: QtBot) -> None:
    session = Session(cluster())
    view = show(qtbot, session)
    view.zoom_by(1.6)
    qtbot.waitUntil(lambda: not view._label_timer.isActive())
    session.select("a")
    for (a, ra), (b, rb) in combinations(labels_of(view), 2):
        assert not ra.intersects(rb), f"{a} overlaps {b} with a selected"


def test_the_burst_and_its_marker_are_drawn_above_the_names_and_badges(qtbot: QtBot) -> None:
    session = Session(cluster())
    view = show(qtbot, session)
    burst = circle_item((30.7, 20.6), 2.0, QColor("#e53935"), 60)
    view.set_overlay("burst", [burst])
    marker = view.map_scene.markers["burst"]
    assert isinstance(marker, MarkerItem)
    for token in view.map_scene.tokens.values():
        token.set_flags(True, True)      # even the selected token
        assert burst.zValue() > token.zValue()
        assert marker.zValue() > token.zValue()
    # What is drawn at the burst's centre: the marker's symbol comes before any token's label.
    centre = view.mapFromScene(QPointF(30.7, 20.6))
    stack = view.items(centre)
    assert stack.index(marker.symbol) < min((stack.index(i) for i in stack if isinstance(i.parentItem(), UnitToken)),
                                            default=len(stack))
    assert stack.index(burst) < min((stack.index(i) for i in stack if isinstance(i, UnitToken)), default=len(stack))


def test_armour_battles_vehicles_are_rectangles(qtbot: QtBot) -> None:
    game = savefile.load(resources_dir() / "demo" / "armour_battles.json")
    session = Session(game)
    view = show(qtbot, session)
    for unit_id in ("stuh", "stuh2", "t34", "t34b"):
        token = view.token(unit_id)
        assert token is not None and token.vehicle, unit_id
        half_width, half_length = token.extent()          # a long body, not a disc
        assert half_length > half_width * 1.2, unit_id
    for unit_id in ("rifles", "smgs"):
        token = view.token(unit_id)
        assert token is not None and not token.vehicle
    # Still a rectangle after the unit changes and after the change is undone.
    session.select("t34")
    view.zoom_by(2.0)
    token = view.token("t34")
    assert token is not None
    session.apply("Move", [MoveUnit("t34", 40.0, 20.0, 90.0)])
    session.undo_stack.undo()
    assert token.vehicle
