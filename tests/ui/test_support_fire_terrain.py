"""The Fire dialog starts its cover and Line of Sight at the map's terrain, and logs the player's override."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battletracker.model.bombardment import Building
from battletracker.model.bombardment_effects import AddBuilding
from battletracker.model.game import Game
from battletracker.model.terrain import TerrainPiece
from battletracker.rules.terrain_actions import terrain_choice
from battletracker.ui.features.support_fire import FireDialog
from battletracker.ui.session import Session
from tests.acting import ready_unit
from tests.ui.dice_entry import type_dice

MG, SQUAD = "u3", "u8"   # the sMG42 at (45, 11) and 2nd Squad at (38, 39)
COPSE = TerrainPiece("test-copse", "Copse", "woods", "area", [(36.0, 37.0), (40.0, 37.0), (40.0, 41.0), (36.0, 41.0)])


pytestmark = pytest.mark.usefixtures("germany_ready")


@pytest.fixture
def demo_game(demo_game: Game) -> Game:
    """2nd Squad in the open: without the demo's stone wall in front of it, the Copse is its only cover."""
    del demo_game.terrain["t5"]
    return demo_game


def dialog_for(qtbot: QtBot, session: Session) -> FireDialog:
    dialog = FireDialog(session, ready_unit(session, MG))
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.set_target(SQUAD)
    return dialog


def test_a_wood_drawn_on_the_map_sets_the_cover_and_its_fact(qtbot: QtBot, session: Session) -> None:
    dialog = dialog_for(qtbot, session)
    assert dialog.cover.value() == "open" and "In the open" in dialog.facts.facts()
    assert dialog.cover.reason.isHidden() and dialog.sight.reason.isHidden()
    session.act("terrain.add", {"piece": terrain_choice(COPSE)})
    assert dialog.cover.value() == "light"
    assert dialog.plan is not None and dialog.plan.inputs["cover"] == "light"
    assert "Light cover: in Copse" in dialog.facts.facts()
    session.undo_stack.undo()
    assert dialog.cover.value() == "open"


def test_a_different_cover_is_logged_with_the_players_reason(qtbot: QtBot, session: Session) -> None:
    session.act("terrain.add", {"piece": terrain_choice(COPSE)})
    dialog = dialog_for(qtbot, session)
    dialog.cover.box.setFocus()
    qtbot.keyClicks(dialog.cover.box, "Hard")
    qtbot.keyClicks(dialog.cover.reason, "behind the wall the map lacks")
    line = "Cover Hard (player: 'behind the wall the map lacks'; the map: Light cover: in Copse)"
    assert dialog.plan is not None and dialog.plan.inputs["cover"] == "hard" and line in dialog.facts.facts()
    runner = dialog.runner
    assert runner is not None
    type_dice(runner, "1 1 1 1 1 1 1 1 1 1")
    assert runner.apply()
    assert session.game.log[-1].text == line
    assert session.game.actions[-1].choices["cover_reason"] == "behind the wall the map lacks"


def test_no_line_of_sight_is_refused_until_the_player_ticks_it(qtbot: QtBot, session: Session) -> None:
    session.apply("Farmhouse", [AddBuilding(Building("b1", "Farmhouse", 41.5, 25.0, width=8.0, depth=4.0))])
    dialog = dialog_for(qtbot, session)
    assert dialog.plan is None and dialog.refusal.text().startswith("No Line of Sight: crosses Farmhouse")
    qtbot.mouseClick(dialog.sight.box, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(dialog.sight.reason, "over the roof")
    assert dialog.plan is not None and dialog.plan.log == (
        "Line of Sight given (player: 'over the roof'; the map: No Line of Sight: crosses Farmhouse)",)
