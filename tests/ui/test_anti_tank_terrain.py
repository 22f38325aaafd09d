"""The Anti-tank fire dialog starts its visibility and Line of Sight at the map's terrain, and logs a change."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battletracker.model.bombardment import Building
from battletracker.model.bombardment_effects import AddBuilding
from battletracker.model.terrain import TerrainPiece
from battletracker.rules.terrain_actions import terrain_choice
from battletracker.ui.features.anti_tank import AntiTankDialog
from battletracker.ui.session import Session
from tests.acting import ready_unit
from tests.ui.dice_entry import type_dice

# The Panzer IV ("u6") stands at (54, 8), the Sherman ("u11") at (50, 36).
COPSE = TerrainPiece("test-copse", "Copse", "woods", "area", [(48.0, 34.0), (52.0, 34.0), (52.0, 38.0), (48.0, 38.0)])


pytestmark = pytest.mark.usefixtures("germany_ready")


def dialog_for(qtbot: QtBot, session: Session) -> AntiTankDialog:
    dialog = AntiTankDialog(session, ready_unit(session, "u6"))
    qtbot.addWidget(dialog)
    assert dialog.set_target("u11")
    return dialog


def test_a_wood_obscures_the_view_and_a_change_is_logged(qtbot: QtBot, session: Session) -> None:
    session.act("terrain.add", {"piece": terrain_choice(COPSE)})
    dialog = dialog_for(qtbot, session)
    assert dialog.visibility.box.currentData() == "obscured" and dialog.visibility.reason.isHidden()
    assert "Light cover: in Copse: view obscured" in dialog.facts.facts()
    dialog.visibility.box.setFocus()
    qtbot.keyClick(dialog.visibility.box, Qt.Key.Key_Up)     # from Obscured up to In the open
    qtbot.keyClicks(dialog.visibility.reason, "the wood is thin")
    assert dialog.shot is not None and dialog.shot.inputs["visibility"] == "open"
    type_dice(dialog.runner, "1 1")
    assert dialog.runner.apply()
    assert any(e.text == "In the Open (player: 'the wood is thin'; the map: Light cover: in Copse: view obscured)"
               for e in session.game.log)


def test_a_building_in_the_way_is_refused_until_the_player_ticks_sight(qtbot: QtBot, session: Session) -> None:
    session.apply("Farmhouse", [AddBuilding(Building("b1", "Farmhouse", 52.0, 22.0, width=10.0, depth=4.0))])
    dialog = dialog_for(qtbot, session)
    assert dialog.refusal.text().startswith("No Line of Sight: crosses Farmhouse")
    dialog.sight.box.setFocus()
    qtbot.keyClick(dialog.sight.box, Qt.Key.Key_Space)
    assert dialog.shot is not None and dialog.shot.log == (
        "Line of Sight given (player; the map: No Line of Sight: crosses Farmhouse)",)
