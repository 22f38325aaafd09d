"""The panel's reminder of the Close Combats a Smoke Barrage forces on enemies within 2" of each other."""

from __future__ import annotations

from battletracker.model import savefile
from battletracker.model.effects import MoveUnit
from battletracker.ui.features.bombardments import BombardmentsPanel
from battletracker.ui.session import Session
from tests.ui.dice_entry import command_dice_for
from tests.ui.dice_entry import type_dice
from tests.ui.test_bombardments import OBSERVER
from tests.ui.test_bombardments import panel
from tests.ui.test_bombardments import view

__all__ = ["panel", "view"]


def test_smoke_close_combat_reminder_follows_the_units(session: Session, panel: BombardmentsPanel) -> None:
    assert panel.place_bombardment(0, "smoke", 3, (22.0, 38.0), OBSERVER)
    (bid,) = session.game.bombardments
    command_dice_for(panel.session, bid)
    ranging = panel.open_ranging(bid)
    type_dice(ranging.runner, "4 4")
    ranging.runner.apply()
    assert session.game.bombardments[bid].active
    assert not panel.smoke_note.isVisible(), "nobody is within 2\" of an enemy yet"

    before = savefile.game_to_dict(session.game)
    session.apply("1. Gruppe moves", [MoveUnit("u1", 23.5, 39.0, 180.0)])
    assert panel.smoke_note.isVisible()
    text = panel.smoke_note.text()
    assert "1. Gruppe" in text and "1st Squad" in text
    assert "no dice for enemy movement" in text and "1 level worse" in text
    assert "Lt. Hayes" not in text

    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before
    assert not panel.smoke_note.isVisible()


def test_no_reminder_for_high_explosive(session: Session, panel: BombardmentsPanel) -> None:
    assert panel.place_bombardment(0, "high_explosive", 3, (22.0, 38.0), OBSERVER)
    (bid,) = session.game.bombardments
    command_dice_for(panel.session, bid)
    ranging = panel.open_ranging(bid)
    type_dice(ranging.runner, "4 4")
    ranging.runner.apply()
    session.apply("1. Gruppe moves", [MoveUnit("u1", 23.5, 39.0, 180.0)])
    assert not panel.smoke_note.isVisible()
