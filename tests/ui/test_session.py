"""The session: effects become undo steps, refusals change nothing, signals name what changed."""

from __future__ import annotations

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.effects import Changes
from battletracker.model.effects import MoveUnit
from battletracker.model.effects import add_shock
from battletracker.model.game import GameError
from battletracker.rules import resolve
from battletracker.ui.session import Session


def test_apply_is_one_undo_step_with_its_log_line(session: Session) -> None:
    before = savefile.game_to_dict(session.game)
    session.apply("Shock on 1. Gruppe", [add_shock("u1", 2)], ["1. Gruppe takes 2 Shock"])
    assert session.game.unit("u1").shock == 2
    assert session.game.log[-1].text == "1. Gruppe takes 2 Shock"
    assert session.undo_stack.count() == 1
    assert session.modified
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before
    assert not session.modified
    session.undo_stack.redo()
    assert session.game.unit("u1").shock == 2


def test_refused_effects_change_nothing(session: Session) -> None:
    before = savefile.game_to_dict(session.game)
    with pytest.raises(GameError, match="cannot remove 1"):
        session.apply("bad", [MoveUnit("u1", 1.0, 1.0, 0.0), add_shock("u1", -1)])
    assert savefile.game_to_dict(session.game) == before
    assert session.undo_stack.count() == 0


def test_changed_signal_names_the_unit(session: Session) -> None:
    seen: list[Changes] = []
    session.changed.connect(seen.append)
    session.apply("Shock", [add_shock("u2", 1)])
    assert any("u2" in c.units for c in seen)
    assert any(c.log for c in seen)
    assert not any(c.everything for c in seen)


def test_resolution_applies_with_its_rolls_logged(session: Session) -> None:
    res = resolve("dice.pool", {"dice": 3, "target": 4}, ScriptedDice([1, 4, 6]))
    session.apply_resolution(res, "Dice roll")
    texts = [e.text for e in session.game.log[-2:]]
    assert texts[0] == "Dice roll - rolls: 3D6: 1 4 6"
    assert "2 successes" in texts[1]
    session.undo_stack.undo()
    assert all("Dice roll" not in e.text for e in session.game.log)


def test_end_phase_and_turn_advance_the_clock_as_undo_steps(session: Session) -> None:
    session.end_phase()
    g = session.game
    assert (g.turn, g.phase, g.active_side) == (1, 2, 1)
    session.end_turn()
    assert (g.turn, g.phase, g.active_side) == (2, 1, 0)
    assert g.log[-1].kind == "clock"
    session.undo_stack.undo()
    session.undo_stack.undo()
    assert (g.turn, g.phase, g.active_side) == (1, 1, 0)


def test_selection_follows_existing_units(session: Session) -> None:
    got: list[object] = []
    session.selection_changed.connect(got.append)
    session.select("u3")
    session.select("nope")
    assert got == ["u3", None]
