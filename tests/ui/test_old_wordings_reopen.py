"""A game saved before the log said places in inches and fighters by name opens with its undo history."""

from __future__ import annotations

from pathlib import Path

import pytest

from battletracker.model import savefile
from battletracker.model.fields import state_dict
from battletracker.ui.session import Session

FIXTURES = Path(__file__).parents[1] / "fixtures"


@pytest.mark.parametrize("name", ["place_wording_coc_v1.battle", "place_wording_ab_v1.battle",
                                  "place_wording_table_v1.battle", "fighter_names_v1.battle"])
def test_an_old_save_opens_with_every_step_to_undo_and_redo_keeping_its_lines(name: str) -> None:
    saved = savefile.load(FIXTURES / name)
    session = Session(savefile.load(FIXTURES / "command_dice_wording_v1.battle"))
    session.open(FIXTURES / name)
    assert session.undo_stack.count() == len(saved.actions) and session.game == saved
    while session.undo_stack.canUndo():
        session.undo_stack.undo()
    assert state_dict(session.game) == saved.start
    while session.undo_stack.canRedo():
        session.undo_stack.redo()
    assert session.game == saved
    assert [e.text for e in session.game.log] == [e.text for e in saved.log]
