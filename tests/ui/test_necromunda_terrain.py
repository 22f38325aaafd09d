"""The Shoot dialog starts cover and Line of Sight at the map's terrain, and logs the player's word over it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battletracker.model.terrain import TerrainPiece
from battletracker.rules.terrain_actions import terrain_choice
from battletracker.ui.session import Session
from tests.ui.dice_entry import type_dice
from tests.ui.test_necromunda import autogun
from tests.ui.test_necromunda import dialog_for
from tests.ui.test_necromunda import fighter
from tests.ui.test_necromunda import necro_game

# Kal shoots from (10, 10) at Mira at (10, 20).
RUINS = TerrainPiece("t1", "Ruins", "ruins", "area", [(8.0, 18.0), (12.0, 18.0), (12.0, 22.0), (8.0, 22.0)])
BULKHEAD = TerrainPiece("t3", "Bulkhead wall", "bulkhead", "linear", [(5.0, 15.0), (15.0, 15.0)])


def table() -> Session:
    return Session(necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("b", "Mira", 1, 10, 20)))


def test_ruins_set_the_cover_and_a_change_is_logged(qtbot: QtBot) -> None:
    session = table()
    session.act("terrain.add", {"piece": terrain_choice(RUINS)})
    dialog = dialog_for(qtbot, session)
    assert dialog.cover.box.currentData() == "partial" and dialog.cover.reason.isHidden()
    assert dialog.plan is not None and dialog.plan.inputs["other_modifier"] == -1
    assert "Partial cover: in Ruins: -1 to hit" in dialog.facts.facts()
    dialog.cover.box.setFocus()
    qtbot.keyClicks(dialog.cover.box, "Full")
    qtbot.keyClicks(dialog.cover.reason, "behind the pipes")
    assert dialog.plan is not None and dialog.plan.inputs["other_modifier"] == -2
    type_dice(dialog.runner, "1", "1 1")   # a natural 1 misses
    assert dialog.apply()
    line = "Cover Full (player: 'behind the pipes'; the map: Partial cover: in Ruins)"
    assert any(entry.text == line for entry in session.game.log)


def test_a_bulkhead_hides_the_target_until_the_player_ticks_sight(qtbot: QtBot) -> None:
    session = table()
    session.act("terrain.add", {"piece": terrain_choice(BULKHEAD)})
    dialog = dialog_for(qtbot, session)
    assert dialog.plan is None and "No Line of Sight: Bulkhead wall is in the way" in dialog.blocked.text()
    dialog.sight.box.setFocus()
    qtbot.keyClick(dialog.sight.box, Qt.Key.Key_Space)
    qtbot.keyClicks(dialog.sight.reason, "a gap")
    assert dialog.plan is not None and dialog.plan.log == (
        "Line of Sight given (player: 'a gap'; the map: No Line of Sight: Bulkhead wall is in the way)",)


def test_the_enemies_the_map_hides_start_ticked_out_of_sight(qtbot: QtBot) -> None:
    game = necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("b", "Mira", 1, 20, 10),
                      fighter("c", "Vex", 1, 10, 17), toolkit_target_priority=True)
    game.terrain = {"t3": BULKHEAD}
    dialog = dialog_for(qtbot, Session(game))
    ticks = {dialog.sight_list.item(i).data(Qt.ItemDataRole.UserRole): dialog.sight_list.item(i).checkState()
             for i in range(dialog.sight_list.count())}
    assert ticks == {"c": Qt.CheckState.Checked, "b": Qt.CheckState.Unchecked}
    assert dialog.priority() == ("b",)
    dialog.set_in_sight("c", True)          # the player sees Vex over the wall
    assert dialog.priority() == ("c",) and dialog.choices()["in_sight"] == "c"
