"""The replay timeline shows each step's state exactly, however the player moves through it."""

from __future__ import annotations

import copy

import pytest

from battletracker.model import savefile
from battletracker.model.effects import add_shock
from battletracker.model.game import Game
from battletracker.rules import perform
from battletracker.rules.replay import ReplayError
from battletracker.rules.replay import start_of
from battletracker.rules.timeline import Timeline
from tests.rules.test_replay import played


def headless_states(game: Game) -> list[dict[str, object]]:
    """Each step's state, replayed from the start by applying the actions' effects in order."""
    from battletracker.rules.replay import replay_steps

    _end, steps = replay_steps(game)
    current = start_of(game)
    states = [savefile.game_to_dict(current)]
    for step in steps:
        current.apply_all(step.effects)
        states.append(savefile.game_to_dict(current))
    return states


def long_game(actions: int) -> Game:
    game = played()
    for i in range(actions):
        name, choices = (("unit.shock", {"unit": "u1", "delta": 1}) if i % 3 else
                         ("unit.move", {"unit": "u2", "x": 10.0 + i % 40, "y": 12.0}))
        game.apply_all(perform(game, name, choices).effects)
    return game


def test_every_step_forward_back_and_by_jumps_is_the_replayed_state() -> None:
    game = long_game(30)
    states = headless_states(game)
    timeline = Timeline(game, every=4)
    assert timeline.length == len(game.actions) == len(states) - 1
    for k in range(len(states)):
        timeline.go(k)
        assert savefile.game_to_dict(timeline.game) == states[k], k
    for k in reversed(range(len(states))):
        timeline.go(k)
        assert savefile.game_to_dict(timeline.game) == states[k], k
    for k in (33, 2, 20, 0, 36, 5, 17):
        changes = timeline.go(k)
        assert timeline.step == k
        assert savefile.game_to_dict(timeline.game) == states[k], k
        assert changes.everything or changes.log
    assert timeline.title(1) == "Shock +1 on 1 Section"
    assert savefile.game_to_dict(game) == states[-1]


def test_the_game_replayed_is_never_changed() -> None:
    game = long_game(10)
    before = copy.deepcopy(game)
    timeline = Timeline(game, every=3)
    for k in (16, 0, 8, 3):
        timeline.go(k)
    assert game == before


def test_inverses_to_end_take_the_last_state_back_to_a_step() -> None:
    game = long_game(8)
    states = headless_states(game)
    timeline = Timeline(game, every=5)
    timeline.go(6)
    branch = copy.deepcopy(game)
    branch.apply_all(timeline.inverses_to_end(6))
    assert savefile.game_to_dict(branch) == states[6]
    assert timeline.step == 6


def test_the_timeline_stops_before_an_action_that_does_not_replay() -> None:
    game = played()
    from battletracker.model.actions import UNTRACKED
    from battletracker.model.actions import Action
    from battletracker.model.history import RecordAction

    game.apply_all([RecordAction(Action(UNTRACKED, {"title": "Shock"}, (), "t")), add_shock("u1", 1)])
    timeline = Timeline(game)
    changes = timeline.go(len(game.actions))
    assert timeline.length == timeline.step == len(game.actions) - 1
    assert timeline.stopped is not None and "does not record its choices" in str(timeline.stopped)
    assert changes.everything
    assert savefile.game_to_dict(timeline.game) == headless_states(played())[-1]


def test_a_game_without_a_start_has_no_timeline() -> None:
    with pytest.raises(ReplayError, match="no recorded start"):
        Timeline(Game())


def test_a_jump_to_just_before_a_snapshot_walks_back_from_it(monkeypatch: pytest.MonkeyPatch) -> None:
    game = long_game(30)
    states = headless_states(game)
    timeline = Timeline(game, every=8)
    timeline.go(timeline.length)
    timeline.go(0)
    applied: list[int] = []
    original = Game.apply_all

    def counting(self: Game, effects: list[object]) -> list[object]:
        applied.append(len(effects))
        return original(self, effects)  # type: ignore[arg-type]

    monkeypatch.setattr(Game, "apply_all", counting)
    timeline.go(15)
    assert len(applied) == 1  # the snapshot at step 16, then one step back
    assert savefile.game_to_dict(timeline.game) == states[15]


def test_what_a_jump_says_changed_covers_every_unit_that_differs() -> None:
    import random

    game = long_game(60)
    states = headless_states(game)
    timeline = Timeline(game, every=5)
    rng = random.Random(7)
    for k in [rng.randint(0, timeline.length) for _ in range(40)]:
        before = copy.deepcopy(timeline.game)
        changes = timeline.go(k)
        after = timeline.game
        assert savefile.game_to_dict(after) == states[k], k
        differ = {u for u, unit in after.units.items() if before.units.get(u) != unit}
        assert changes.everything or differ <= changes.units, k
        assert changes.everything or changes.log or before.log == after.log, k
