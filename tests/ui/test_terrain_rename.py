"""Renaming a terrain piece as a player does: right-click it, choose Rename..., type, press Enter."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.ui.map import MapView
from battletracker.ui.map.terrain_rename import RenameTerrainDialog
from battletracker.ui.session import Session
from tests.ui import test_map
from tests.ui.refusals import assert_refusal
from tests.ui.test_map_terrain import _choose_in_menu
from tests.ui.test_map_terrain import click
from tests.ui.test_map_terrain import put_wood

MENU_QUIRKS = ("This plugin does not support raise", "does not support grabbing the keyboard")


# The small battle on a shown map, as tests/ui/test_map.py sets it up.
session = test_map.session
view = test_map.view


def open_rename(view: MapView, qtbot: QtBot) -> RenameTerrainDialog:
    """Right-click the Copse and choose Rename... in its menu."""
    seen = _choose_in_menu(qtbot, "Rename...")
    click(view, 33.0, 20.0, Qt.MouseButton.RightButton)
    assert "Rename..." in seen
    dialog = view.terrain_tools.rename_dialog
    assert isinstance(dialog, RenameTerrainDialog)
    qtbot.waitUntil(dialog.isVisible)
    assert dialog.name.text() == "Copse" and dialog.name.selectedText() == "Copse"
    return dialog


@pytest.mark.qt_log_ignore(*MENU_QUIRKS)
def test_typing_a_name_and_pressing_enter_renames_the_piece_in_one_undo_step(
        view: MapView, session: Session, qtbot: QtBot) -> None:
    put_wood(session)
    steps = session.undo_stack.count()
    dialog = open_rename(view, qtbot)
    QTest.keyClicks(dialog.name, "  Bois de la Croix ")
    QTest.keyClick(dialog.name, Qt.Key.Key_Return)
    assert not dialog.isVisible()
    assert session.game.terrain["ter1"].name == "Bois de la Croix"
    assert view.map_scene.terrain.items["ter1"].label.text() == "Bois de la Croix"
    assert session.undo_stack.count() == steps + 1
    assert session.game.log[-1].text == "Edited Copse: name Copse -> Bois de la Croix"
    session.undo_stack.undo()
    assert session.game.terrain["ter1"].name == "Copse"
    assert view.map_scene.terrain.items["ter1"].label.text() == "Copse"


@pytest.mark.qt_log_ignore(*MENU_QUIRKS)
@pytest.mark.parametrize("typed", ["", "   "])
def test_a_blank_name_is_refused_in_the_dialog_and_nothing_changes(
        view: MapView, session: Session, qtbot: QtBot, typed: str) -> None:
    put_wood(session)
    before, steps = savefile.dumps(session.game), session.undo_stack.count()
    dialog = open_rename(view, qtbot)
    QTest.keyClick(dialog.name, Qt.Key.Key_Delete)          # the selected name goes
    QTest.keyClicks(dialog.name, typed)
    QTest.keyClick(dialog.name, Qt.Key.Key_Return)
    assert dialog.isVisible()
    assert_refusal(dialog.problem, "A terrain piece needs a name to show on the map: type one.")
    banner = dialog.problem
    assert banner.height() >= banner.heightForWidth(banner.width()), "the reason is shown whole"
    assert savefile.dumps(session.game) == before and session.undo_stack.count() == steps

    QTest.keyClicks(dialog.name, "Copse of oaks")           # typing again clears the refusal
    assert dialog.problem.isHidden()
    QTest.keyClick(dialog.name, Qt.Key.Key_Escape)
    assert not dialog.isVisible()
    assert session.game.terrain["ter1"].name == "Copse" and session.undo_stack.count() == steps
