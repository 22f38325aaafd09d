"""While the ranging shot's dialog waits for the D12 that turns a deviation, the map shows what each face means:
twelve numbered rays round the aiming point at the bearings the rules read the die as, gone once the die is typed
or the dialog is cancelled."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGraphicsLineItem
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from battletracker.core import geometry
from battletracker.ui.features.bombardments import BombardmentsPanel
from battletracker.ui.features.bombardments.dialogs import RangingDialog
from battletracker.ui.map.labels import PixmapLabel
from battletracker.ui.map.view import MapView
from tests.ui.dice_entry import command_dice_for
from tests.ui.test_bombardments import AIM
from tests.ui.test_bombardments import panel
from tests.ui.test_bombardments import start
from tests.ui.test_bombardments import view

__all__ = ["panel", "view"]


def typed(qtbot: QtBot, dialog: RangingDialog, text: str) -> None:
    """Type dice into the prompt and press Enter, as at the table."""
    qtbot.keyClicks(dialog.runner.entry, text)
    qtbot.keyClick(dialog.runner.entry, Qt.Key.Key_Return)
    assert dialog.runner.entry_error.isHidden(), dialog.runner.entry_error.text()


def at_the_d12(qtbot: QtBot, panel: BombardmentsPanel, view: MapView) -> RangingDialog:
    """Open the ranging shot from the bombardment's row and type 3 3 (deviates 3D6") and 2 2 2: the D12 is next."""
    bid = start(panel)
    command_dice_for(panel.session, bid)
    panel.rows[bid].buttons["range"].click()
    dialog = panel.dialog
    assert isinstance(dialog, RangingDialog)
    qtbot.mouseClick(dialog.runner.typed_button, Qt.MouseButton.LeftButton)
    typed(qtbot, dialog, "3 3")
    assert face_labels(view) == {}, "no faces before the D12 is asked for"
    typed(qtbot, dialog, "2 2 2")
    assert "Deviation direction (D12)" in dialog.runner.prompt.text()
    return dialog


def face_labels(view: MapView) -> dict[str, PixmapLabel]:
    """The numbers 1-12 drawn on the map round the aiming point, by their text."""
    found: dict[str, PixmapLabel] = {}
    for item in view.map_scene.items():
        if isinstance(item, PixmapLabel) and item.text().isdigit() and geometry.distance(
                AIM, (item.pos().x(), item.pos().y())) < 8.0:
            found[item.text()] = item
    return found


def face_rays(view: MapView) -> list[QGraphicsLineItem]:
    """Short lines pointing away from the aiming point, as the faces' rays are drawn."""
    rays = []
    for item in view.map_scene.items():
        if isinstance(item, QGraphicsLineItem):
            line = item.line()
            near = geometry.distance(AIM, (line.x1(), line.y1()))
            far = geometry.distance(AIM, (line.x2(), line.y2()))
            if near < far < 8.0:
                rays.append(item)
    return rays


def test_the_d12_faces_are_drawn_round_the_aiming_point_until_the_die_is_typed(
        qtbot: QtBot, panel: BombardmentsPanel, view: MapView) -> None:
    dialog = at_the_d12(qtbot, panel, view)
    labels = face_labels(view)
    assert sorted(labels, key=int) == [str(face) for face in range(1, 13)]
    for text, label in labels.items():  # a clock face: 12 up the table, each face 30 degrees clockwise on
        at = (label.pos().x(), label.pos().y())
        assert geometry.bearing(AIM, at) == pytest.approx(int(text) % 12 * 30.0)
    three, twelve = labels["3"].pos(), labels["12"].pos()
    assert three.x() > AIM[0] and three.y() == pytest.approx(AIM[1]), "3 is to the right of the aiming point"
    assert twelve.y() < AIM[1] and twelve.x() == pytest.approx(AIM[0]), "12 is above it, towards the top edge"
    rays = face_rays(view)
    assert len(rays) == 12
    assert sorted(round(geometry.bearing((r.line().x1(), r.line().y1()), (r.line().x2(), r.line().y2())))
                  for r in rays) == list(range(0, 360, 30))

    typed(qtbot, dialog, "3")
    assert dialog.runner.result is not None and dialog.runner.result.values["bearing"] == 90.0
    assert face_labels(view) == {} and face_rays(view) == [], "the faces go once the die is typed"


def test_the_d12_faces_go_when_the_dialog_is_cancelled(qtbot: QtBot, panel: BombardmentsPanel, view: MapView,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    dialog = at_the_d12(qtbot, panel, view)
    assert len(face_labels(view)) == 12
    monkeypatch.setattr(QMessageBox, "question", lambda *_a: QMessageBox.StandardButton.Yes)  # discard the dice
    qtbot.keyClick(dialog.runner.entry, Qt.Key.Key_Escape)
    assert not dialog.isVisible()
    assert face_labels(view) == {} and face_rays(view) == []


def test_the_faces_go_when_the_player_sets_the_bearing_instead(qtbot: QtBot, panel: BombardmentsPanel,
                                                               view: MapView) -> None:
    dialog = at_the_d12(qtbot, panel, view)
    dialog.set_bearing.click()
    assert face_labels(view) == {} and face_rays(view) == []
