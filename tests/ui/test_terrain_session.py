"""Terrain actions through Session.act: one undo step each, one `changed` signal carrying the terrain flag."""

from __future__ import annotations

from battletracker.model.effects import Changes
from battletracker.model.terrain import TerrainPiece
from battletracker.rules.terrain_actions import terrain_choice
from battletracker.ui.session import Session

WOOD = TerrainPiece("t9", "Copse", "woods", "area", [(10.0, 10.0), (16.0, 10.0), (13.0, 15.5)])


def test_adding_and_moving_a_piece_are_one_undo_step_each_and_say_the_terrain_changed(session: Session) -> None:
    seen: list[Changes] = []
    session.changed.connect(seen.append)
    session.act("terrain.add", {"piece": terrain_choice(WOOD)})
    session.act("terrain.move", {"piece": "t9", "dx": 2.0, "dy": 0.0})
    assert [c.terrain for c in seen] == [True, True]
    assert session.undo_stack.count() == 2
    assert session.game.terrain["t9"].points[0] == (12.0, 10.0)
    session.undo_stack.undo()
    assert session.game.terrain["t9"].points[0] == (10.0, 10.0)
    session.undo_stack.undo()
    assert "t9" not in session.game.terrain
    assert seen[-1].terrain
    session.undo_stack.redo()
    assert session.game.terrain["t9"] == WOOD
