"""Buildings from the Bombardments panel: placed from two corners or a centre, units in and out, undo exact."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.ui.extensions import unit_actions
from battletracker.ui.features.bombardments import BombardmentsPanel
from battletracker.ui.features.bombardments.buildings import BuildingDialog
from battletracker.ui.features.bombardments.buildings import corners_to_footprint
from battletracker.ui.map.view import MapView
from battletracker.ui.session import Session
from tests.ui.test_bombardments import items
from tests.ui.test_bombardments import panel
from tests.ui.test_bombardments import view

__all__ = ["panel", "view"]


def click(view: MapView, at: tuple[float, float]) -> None:
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     view.mapFromScene(QPointF(*at)))


def test_corners_give_the_centre_and_size() -> None:
    assert corners_to_footprint((30.0, 40.0), (20.0, 36.0)) == ((25.0, 38.0), 10.0, 4.0)


def test_add_building_from_two_corners_on_the_map(qtbot: QtBot, session: Session, panel: BombardmentsPanel,
                                                  view: MapView) -> None:
    start = savefile.game_to_dict(session.game)
    dialog = panel.open_add_building()
    assert isinstance(dialog, BuildingDialog)
    dialog.name.setText("Farmhouse")
    dialog.material.setCurrentIndex(dialog.material.findData("brick_stone"))
    dialog.storeys.setValue(2)
    dialog.accept()
    assert view.picking
    click(view, (18.0, 36.0))
    assert view.picking, "then the opposite corner"
    click(view, (26.0, 41.0))
    (building,) = session.game.buildings.values()
    assert building.name == "Farmhouse" and building.storeys == 2 and building.material == "brick_stone"
    assert building.centre == pytest.approx((22.0, 38.5), abs=0.2)
    assert (building.width, building.depth) == pytest.approx((8.0, 5.0), abs=0.3)
    assert session.undo_stack.count() == 1
    key = f"building:{building.id}"
    assert key in items(panel), "intact buildings are drawn too"
    label = items(panel)[f"building_label:{building.id}"]
    assert "Farmhouse, 2 storeys" in label.text()  # type: ignore[attr-defined]
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == start
    assert key not in items(panel)


def test_add_building_by_centre_and_size(session: Session, panel: BombardmentsPanel, view: MapView) -> None:
    dialog = panel.open_add_building()
    dialog.name.setText("Barn")
    dialog.material.setCurrentIndex(dialog.material.findData("wood"))
    dialog.by_centre.setChecked(True)
    dialog.width_box.setValue(5.0)
    dialog.depth_box.setValue(3.0)
    dialog.facing.setValue(30.0)
    dialog.accept()
    click(view, (40.0, 40.0))
    (building,) = session.game.buildings.values()
    assert building.material == "wood" and building.storeys == 1
    assert (building.width, building.depth, building.facing) == (5.0, 3.0, 30.0)
    assert building.centre == pytest.approx((40.0, 40.0), abs=0.2)


def test_units_go_in_and_out_each_one_undo_step(session: Session, panel: BombardmentsPanel,
                                                view: MapView) -> None:
    assert panel.place_building("Farmhouse", (22.0, 38.0), 6.0, 4.0, 0.0, "brick_stone", 2)
    (bid,) = session.game.buildings
    start = savefile.game_to_dict(session.game)
    game = session.game
    keys = [a.key for a in unit_actions(game, game.units["u7"])]
    assert "coc.enter_building" in keys and "coc.leave_building" not in keys
    assert "coc.enter_building" not in [a.key for a in unit_actions(game, game.units["u11"])], "not a vehicle"

    panel.start_enter_building("u7")
    click(view, (50.0, 10.0))
    assert "No building " in panel.problem.text() and session.undo_stack.count() == 1
    panel.start_enter_building("u7")
    click(view, (23.0, 39.0))
    assert session.game.buildings[bid].occupants == ["u7"]
    assert session.undo_stack.count() == 2
    assert "1st Squad goes into Farmhouse" in session.game.log[-1].text
    assert "(1st Squad)" in items(panel)[f"building_label:{bid}"].text()  # type: ignore[attr-defined]
    keys = [a.key for a in unit_actions(game, session.game.units["u7"])]
    assert "coc.leave_building" in keys and "coc.enter_building" not in keys

    assert panel.leave_building("u7")
    assert session.game.buildings[bid].occupants == []
    assert session.undo_stack.count() == 3
    assert not panel.leave_building("u7") and "not in a building" in panel.problem.text()
    session.undo_stack.undo()
    assert session.game.buildings[bid].occupants == ["u7"]
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == start


def test_the_unit_actions_run_through_the_window(qtbot: QtBot, session: Session) -> None:
    from battletracker.ui.features.bombardments.buildings import ENTER_BUILDING
    from battletracker.ui.features.bombardments.buildings import LEAVE_BUILDING
    from battletracker.ui.main_window import MainWindow

    win = MainWindow(session)
    win.feature_host.load()
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    panel = win.findChild(BombardmentsPanel)
    assert panel is not None
    assert panel.place_building("Farmhouse", (22.0, 38.0), 6.0, 4.0, 0.0, "brick_stone", 2)
    (bid,) = session.game.buildings
    ENTER_BUILDING.run(win.feature_host, "u7")
    assert win.map.picking
    click(win.map, (22.0, 38.0))
    assert session.game.buildings[bid].occupants == ["u7"]
    LEAVE_BUILDING.run(win.feature_host, "u7")
    assert session.game.buildings[bid].occupants == []
