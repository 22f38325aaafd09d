"""The Chain of Command demo played through the app's `Session.act` equals the same play without Qt."""

from __future__ import annotations

from pathlib import Path

import pytest

from battletracker.model import savefile
from battletracker.rules.replay import replay_steps
from battletracker.ui.session import Session
from tests.rules.test_demo_playthrough import PLAY
from tests.rules.test_demo_playthrough import TIME
from tests.rules.test_demo_playthrough import demo
from tests.rules.test_demo_playthrough import played


def test_the_session_plays_the_demo_to_the_same_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("battletracker.rules.actions.now_stamp", lambda: TIME)
    session = Session(demo())
    for name, choices, dice in PLAY:
        session.act(name, choices, dice, typed=False)
    assert session.undo_stack.count() == len(PLAY)
    assert savefile.game_to_dict(session.game) == savefile.game_to_dict(played())
    path = tmp_path / "demo.battle"
    savefile.save(session.game, path)
    replayed, _steps = replay_steps(savefile.load(path))
    assert savefile.game_to_dict(replayed) == savefile.game_to_dict(session.game)
    while session.undo_stack.canUndo():
        session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == savefile.game_to_dict(demo())
