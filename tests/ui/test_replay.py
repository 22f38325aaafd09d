"""Replaying a game: the window shows each step read-only, and Continue from here branches as one undo step."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.game import Game, GameError
from battletracker.rules.replay import replay_steps, start_of
from battletracker.ui.session import ReadOnlyError, Session

PLAY = [
    ("unit.shock", {"unit": "u1", "delta": 2}, None),
    ("dice.pool", {"dice": 2, "target": 4}, [5, 2]),
    ("unit.move", {"unit": "u7", "x": 30.0, "y": 20.0}, None),
    ("clock.end_phase", {}, None),
    ("unit.shock", {"unit": "u7", "delta": 1}, None),
    ("clock.end_phase", {}, None),
]


def play(session: Session) -> None:
    for name, choices, dice in PLAY:
        session.act(name, choices, dice)


def headless_states(game: Game) -> list[dict[str, object]]:
    _end, steps = replay_steps(game)
    current = start_of(game)
    states = [savefile.game_to_dict(current)]
    for step in steps:
        current.apply_all(step.effects)
        states.append(savefile.game_to_dict(current))
    return states


def test_the_session_shows_each_step_read_only_and_back_to_the_game_restores_it(session: Session) -> None:
    play(session)
    live = savefile.game_to_dict(session.game)
    states = headless_states(session.game)
    session.start_replay()
    assert session.replaying and session.replay_position() == "step 0 of 6"
    for k in [*range(7), *reversed(range(7))]:
        session.show_step(k)
        assert savefile.game_to_dict(session.game) == states[k], k
    session.show_step(3)
    with pytest.raises(ReadOnlyError, match=r"read-only while you replay it \(step 3 of 6\)"):
        session.act("unit.shock", {"unit": "u1", "delta": 1})
    with pytest.raises(ReadOnlyError):
        session.apply("Shock", [])
    assert savefile.game_to_dict(session.live_game) == live
    session.stop_replay()
    assert not session.replaying and savefile.game_to_dict(session.game) == live


def test_continue_from_here_is_one_undo_step_that_gives_back_the_full_game(session: Session) -> None:
    play(session)
    live = savefile.game_to_dict(session.game)
    states = headless_states(session.game)
    session.start_replay()
    session.show_step(2)
    session.continue_from_here()
    assert not session.replaying
    assert savefile.game_to_dict(session.game) == states[2]
    assert len(session.game.actions) == 2
    assert session.undo_stack.text(session.undo_stack.index() - 1) == (
        "Continue from step 2 of 6 (4 later actions dropped)")
    session.act("unit.shock", {"unit": "u5", "delta": 1})
    session.undo_stack.undo()
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == live
    session.undo_stack.redo()
    assert savefile.game_to_dict(session.game) == states[2]


def test_a_game_without_actions_has_nothing_to_replay(session: Session) -> None:
    with pytest.raises(GameError, match="nothing to replay yet"):
        session.start_replay()
    assert not session.replaying
