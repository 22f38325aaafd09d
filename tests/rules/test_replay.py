"""A saved game keeps its start and its actions; replaying them gives the saved state, or says where not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from battletracker.app import main
from battletracker.model import savefile
from battletracker.model.actions import UNTRACKED, Action
from battletracker.model.effects import add_shock
from battletracker.model.game import Game
from battletracker.model.history import RecordAction
from battletracker.rules import perform
from battletracker.rules.replay import check
from tests.model.sample import sample_game

PLAY = [
    ("unit.shock", {"unit": "u1", "delta": 1}, None),
    ("unit.move", {"unit": "u2", "x": 28.0, "y": 12.0}, None),
    ("dice.pool", {"dice": 4, "target": 4}, [6, 3, 4, 1]),
    ("unit.ammo", {"unit": "u2", "weapon": 0, "rounds": 2}, None),
    ("clock.end_phase", {}, None),
    ("unit.remove", {"unit": "u5"}, None),
]


def played() -> Game:
    game = sample_game()
    for name, choices, dice in PLAY:
        game.apply_all(perform(game, name, choices, dice).effects)  # type: ignore[arg-type]
    return game


def test_a_game_played_through_actions_saves_and_replays_to_the_same_state(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    game = played()
    path = tmp_path / "battle.json"
    savefile.save(game, path)
    loaded = savefile.load(path)
    assert loaded == game
    assert [a.name for a in loaded.actions] == [name for name, _c, _d in PLAY]
    assert loaded.actions[2].dice == (6, 3, 4, 1)
    assert check(loaded).ok
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out == "All 6 actions replay to the saved state.\n"


def test_a_tampered_action_is_reported_as_the_first_that_differs(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    doc = savefile.game_to_dict(played())
    doc["history"]["actions"][3]["choices"]["rounds"] = 3
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    assert capsys.readouterr().out == (
        "Action 4 (unit.ammo: unit=u2, weapon=0, rounds=3) differs: the replay logs "
        "'MG 42 (MG 42 tripod): 6 -> 3 rounds', the saved game says 'MG 42 (MG 42 tripod): 6 -> 4 rounds'.\n")


def test_tampered_dice_and_a_tampered_state_are_reported() -> None:
    doc = savefile.game_to_dict(played())
    doc["history"]["actions"][2]["dice"] = [6, 6, 4, 1]
    report = check(savefile.loads(json.dumps(doc).encode()))
    assert not report.ok and report.index == 2
    assert report.message.startswith("Action 3 (dice.pool: dice=4, target=4; dice 6 6 4 1) differs")
    doc = savefile.game_to_dict(played())
    doc["game"]["units"][0]["counters"]["shock"] = 5
    report = check(savefile.loads(json.dumps(doc).encode()))
    assert not report.ok and report.index is None
    assert report.message == ("All 6 actions replay, but the state differs at game.units[0].counters.shock "
                              "(replayed 3, saved 5).")


def test_a_step_made_without_an_action_stops_the_replay_there() -> None:
    game = played()
    game.apply_all([RecordAction(Action(UNTRACKED, {"title": "Fire"}, (), "t")), add_shock("u1", 1)])
    report = check(game)
    assert not report.ok and report.index == 6
    assert report.message == ("Action 7 (Fire) was made by a dialog that does not record "
                              "its choices yet, so the replay stops before it.")


def test_a_game_without_actions_has_nothing_to_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "plain.json"
    savefile.save(sample_game(), path)
    assert "history" not in json.loads(path.read_text(encoding="utf-8"))
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out == "The game has no recorded actions: nothing to replay.\n"
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "Cannot replay" in capsys.readouterr().err


def test_a_version_1_file_loads_with_no_history() -> None:
    doc = savefile.game_to_dict(sample_game())
    doc["version"] = 1
    game = savefile.loads(json.dumps(doc).encode())
    assert game.start is None and game.actions == []
    assert game == sample_game()


def test_a_broken_history_is_refused_naming_the_place() -> None:
    doc = savefile.game_to_dict(played())
    doc["history"]["actions"][1] = {"name": "unit.move", "dice": "six"}
    with pytest.raises(savefile.SaveFileError, match=r"history\.actions\[1\].*dice of unit\.move must be a list"):
        savefile.loads(json.dumps(doc).encode())
    doc = savefile.game_to_dict(played())
    del doc["history"]["start"]["sides"]
    with pytest.raises(savefile.SaveFileError, match=r"history\.start"):
        savefile.loads(json.dumps(doc).encode())
