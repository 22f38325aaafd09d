"""The Phase of fire and SOS dialogs start each unit's cover at the map's reading and log a player's change."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battletracker.model.terrain import TerrainPiece
from battletracker.rules.terrain_actions import terrain_choice
from battletracker.ui.features.bombardments import BombardmentsPanel
from battletracker.ui.session import Session
from tests.ui.test_bombardments import panel  # noqa: F401
from tests.ui.test_bombardments import type_all  # noqa: F401
from tests.ui.test_bombardments import view  # noqa: F401
from tests.ui.test_bombardments_terrain import ready_to_fire

__all__ = ["panel", "view"]

# 1st Squad ("u7") stands at (22, 38).
COPSE = TerrainPiece("test-copse", "Copse", "woods", "area", [(20.0, 36.0), (24.0, 36.0), (24.0, 40.0), (20.0, 40.0)])
HEDGE = TerrainPiece("test-hedge", "Hedge", "hedge", "linear", [(15.0, 37.5), (30.0, 37.5)])


def test_a_wood_sets_the_phase_of_fire_cover_and_a_change_is_logged(
        qtbot: QtBot, session: Session, panel: BombardmentsPanel) -> None:  # noqa: F811
    session.act("terrain.add", {"piece": terrain_choice(COPSE)})
    dialog = panel.open_phase(ready_to_fire(panel))
    row = dialog.cover_rows["u7"]
    assert row.level == "light" and row.cover.toolTip() == "From the map: Light cover: in Copse"
    assert "1st Squad: Light cover: in Copse" in dialog.facts.facts()
    assert row.reason.isHidden()
    row.cover.setFocus()
    qtbot.keyClicks(row.cover, "Hard")
    assert not row.reason.isHidden()
    qtbot.keyClicks(row.reason, "dug in")
    line = "1st Squad: Cover Hard (player: 'dug in'; the map: Light cover: in Copse)"
    assert line in dialog.facts.facts()
    type_all(dialog.runner, 1)
    dialog.runner.apply()
    assert line in [e.text for e in session.game.log[-3:]]


def test_a_hedge_gives_no_cover_in_the_sos_dialog(qtbot: QtBot, session: Session,
                                                  panel: BombardmentsPanel) -> None:  # noqa: F811
    session.act("terrain.add", {"piece": terrain_choice(HEDGE)})
    dialog = panel.create_sos(0, (22.0, 38.0))
    assert dialog is not None
    picker = dialog.target_picker.combo
    picker.setCurrentIndex(picker.findData("u7"))
    assert dialog.cover_row.level == "open"
    assert "1st Squad: In the open (a wall or hedge gives no cover from above)" in dialog.facts.facts()
    dialog.cover_row.cover.setFocus()
    qtbot.keyClicks(dialog.cover_row.cover, "Light")
    qtbot.keyClicks(dialog.cover_row.reason, "long grass")
    assert dialog.runner._inputs["cover"] == "light"
    assert "1st Squad: Cover Light (player: 'long grass'; the map: In the open (a wall or hedge gives no cover " \
           "from above))" in dialog.facts.facts()
    qtbot.mouseClick(dialog.cover_row.linear, Qt.MouseButton.LeftButton)
    assert dialog.runner._inputs["linear_obstacle"] is True
