"""The ranging shot's dialog says how the die for a deviation's direction maps to the table (a clock face, a
default the document does not give) while it asks for that die."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from battletracker.model import savefile
from battletracker.ui.features.bombardments import BombardmentsPanel
from battletracker.ui.features.bombardments.dialogs import RangingDialog
from battletracker.ui.session import Session
from tests.ui.dice_entry import command_dice_for
from tests.ui.dice_entry import type_dice
from tests.ui.test_bombardments import panel
from tests.ui.test_bombardments import start
from tests.ui.test_bombardments import view
from tests.ui.test_fits_laptop_screen import clipped_labels

__all__ = ["panel", "view"]


def test_the_deviation_die_is_read_like_a_clock_face_and_the_dialog_says_so_as_it_asks(
        session: Session, panel: BombardmentsPanel) -> None:
    bid = start(panel)
    command_dice_for(panel.session, bid)
    dialog = panel.open_ranging(bid)
    assert isinstance(dialog, RangingDialog)
    type_dice(dialog.runner, "3 3", "2 2 2", complete=False)  # 6: deviates 3D6"; then the direction
    assert "Deviation direction (D12)" in dialog.runner.prompt.text()
    note = dialog.findChild(QLabel, "ranging_bearing_note")
    assert note is not None and note.isVisible() and note.wordWrap()
    assert note.text() == ("A deviating shot's direction: one D12, read like a clock face laid on the table: 12 points "
                           "to the top edge, 3 to the right edge, 6 to the bottom edge, 9 to the left, each face 30 "
                           "degrees on from the last. The document does not say how the direction is found; this is "
                           "a default to check (Game > Ruleset settings), or set the bearing yourself.")
    assert clipped_labels(dialog) == []
    before = savefile.dumps(session.game)
    dialog.runner.entry.setText("3")  # 3 o'clock: to the right of the aiming point (24", 38")
    dialog.runner.submit_entry()
    result = dialog.runner.result
    assert result is not None and result.values["bearing"] == 90.0
    assert (result.values["x"], result.values["y"]) == (30.0, 38.0)
    assert savefile.dumps(session.game) == before, "nothing is applied before Apply"
