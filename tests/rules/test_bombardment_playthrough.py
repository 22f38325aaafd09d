"""The Chain of Command demo with a bombardment from its first ranging shot to its end, as actions only.

The Qt-free run plans and performs each action and applies its effects; the
same actions through `Session.act` (pytest-qt, skipped without Qt) give the
same game, and the saved game replays to the same state.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from battletracker.core.dice import Die
from battletracker.core.dice import Face
from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules import actions as actions_module
from battletracker.rules.actions import Choices
from battletracker.rules.actions import perform
from battletracker.rules.actions import plan
from battletracker.rules.replay import replay_steps
from battletracker.rules.tables import resources_dir

DEMO = resources_dir() / "demo" / "chain_of_command.json"
TIME = "2026-11-30T20:00:00"
B = {"bombardment": "b1"}


class Threes:
    """Every die a 3: the dice the Phases of fire roll, recorded by the action."""

    def roll(self, die: Die, count: int, label: str) -> tuple[Face, ...]:
        return (3,) * count


Step = tuple[str, Choices, "list[int] | None"]

STEPS: list[Step] = [
    ("coc.new_bombardment", {"side": 0, "kind": "high_explosive", "phases": 3, "x": 24.0, "y": 38.0,
                             "observer_x": 30.0, "observer_y": 12.0}, None),
    ("coc.command_dice", {}, [1, 2, 3, 4, 4]),                         # each activation of the Forward
    ("coc.ranging_shot", B, [1, 2]),                                   # Observer spends a 1: unobserved
    ("clock.end_phase", {}, None),
    ("clock.end_phase", {}, None),
    ("coc.command_dice", {}, [1, 2, 3, 4, 4]),
    ("coc.ranging_shot", {**B, "bearing": 90.0}, [3, 2, 2, 2, 2]),     # 5 + 1: deviates 6" to (30, 38)
    ("clock.end_phase", {}, None),
    ("clock.end_phase", {}, None),
    ("coc.command_dice", {}, [2, 2, 3, 4, 4]),                         # no 1: a Chain of Command point,
    ("coc.fire_for_effect", B, None),                                  # the side's one die broken
    ("coc.hidden_die", {**B, "face": 2}, None),                        # Static
    ("coc.bombardment_phase", {**B, "activation": "begun", "cover.u8": "light"}, None),
    ("clock.end_phase", {}, None),
    ("clock.end_phase", {}, None),
    ("coc.bombardment_phase", {**B, "activation": "coc_point"}, None),
    ("clock.end_phase", {}, None),
    ("clock.end_phase", {}, None),
    ("coc.bombardment_phase", {**B, "activation": "none"}, None),      # contact lost
    ("clock.end_phase", {}, None),
    ("clock.end_phase", {}, None),
]


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(actions_module, "now_stamp", lambda: TIME)


def played_without_qt() -> Game:
    game = savefile.load(DEMO)
    for name, choices, dice in STEPS:
        plan(name, game, choices)
        res = perform(game, name, choices, dice, rng=Threes())
        game.apply_all(res.effects)
    return game


def test_the_demo_bombardment_runs_from_its_first_ranging_shot_to_its_end() -> None:
    game = played_without_qt()
    b = game.bombardments["b1"]
    assert b.phases_fired == 2 and b.state == "cleared"
    assert [a.name for a in game.actions] == [name for name, _c, _d in STEPS]
    first_phase = game.actions[12]
    assert first_phase.name == "coc.bombardment_phase" and first_phase.dice, "units were under the first Phase"
    assert (game.sides[0].coc_points, game.sides[0].coc_tally) == (0, 4), (
        "fire for effect broke the Chain of Command die into six points and spent one; the second Phase of fire "
        "spent another")
    assert any("rolls:" in entry.text for entry in game.log if entry.kind == "bombardment")


def test_the_saved_playthrough_replays_to_the_same_state(tmp_path: Path) -> None:
    game = played_without_qt()
    path = tmp_path / "demo.battle"
    savefile.save(game, path)
    replayed, steps = replay_steps(savefile.load(path))
    assert len(steps) == len(STEPS)
    assert savefile.game_to_dict(replayed) == savefile.game_to_dict(game)


def test_the_same_actions_through_the_session_make_the_same_game(request: pytest.FixtureRequest) -> None:
    pytest.importorskip("pytestqt")
    request.getfixturevalue("qapp")
    from battletracker.ui.session import Session

    expected = played_without_qt()
    session = Session(savefile.load(DEMO))
    for (name, choices, _dice), action in zip(STEPS, expected.actions, strict=True):
        session.act(name, choices, list(action.dice))
    assert savefile.game_to_dict(session.game) == savefile.game_to_dict(expected)
