"""A saved game keeps its start and its actions; replaying them gives the saved state, or says where not."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from battletracker.app import main
from battletracker.core.dice import RandomDice
from battletracker.model import savefile
from battletracker.model.actions import UNTRACKED
from battletracker.model.actions import Action
from battletracker.model.backdrop import picture_text
from battletracker.model.effects import Effect
from battletracker.model.effects import add_shock
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.history import RecordAction
from battletracker.rules import RulesInputError
from battletracker.rules import perform
from battletracker.rules.replay import check
from tests.model.pictures import png_bytes
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


def test_a_start_written_afresh_holds_its_units_as_they_started() -> None:
    """A file with a list under an unknown key has its start written out from the game it makes: the units that
    moved, took Shock or fired since (read by the fields they changed) are as they started, not as they are."""
    game = played()
    doc = json.loads(savefile.dumps(game))
    doc["history"]["start"]["padding"] = [1, 2]
    loaded = savefile.loads(json.dumps(doc).encode())
    assert loaded.start == game.start
    assert loaded.start is not None and loaded.start["units"][1] != savefile.game_to_dict(game)["game"]["units"][1]
    assert check(loaded).ok


@pytest.mark.parametrize(("unit", "edit", "refusal"), [
    (0, lambda u: u.update(figures=11), r"history\.start\.units\[0\]\.figures: 11 is more than the unit's 10"),
    (2, lambda u: u.update(x="far"), r"history\.start\.units\[2\]\.x: must be a number"),
    (0, lambda u: u["counters"].update(shock=-1), r"history\.start\.units\[0\]\.counters\.shock: must be at least 0"),
    (1, lambda u: u["weapons"][0].update(ammo=-1), r"history\.start\.units\[1\]\.weapons\[0\]\.ammo: must be at least"),
    (2, lambda u: u["weapons"][0].update(ranges="far"), r"history\.start\.units\[2\]\.weapons\[0\]\.ranges: must be a"),
])
def test_a_start_unit_changed_beside_parts_as_in_the_game_is_refused_naming_the_place(
        unit: int, edit: Callable[[dict[str, Any]], None], refusal: str) -> None:
    """A start's unit whose weapons and maps equal the game's unit's is still checked in all it changes."""
    doc = json.loads(savefile.dumps(played()))
    start = doc["history"]["start"]["units"][unit]
    assert start["id"] == doc["game"]["units"][unit]["id"]
    edit(start)
    with pytest.raises(savefile.SaveFileError, match=refusal):
        savefile.loads(json.dumps(doc).encode())


ACTIONS = st.one_of(
    st.tuples(st.just("unit.shock"), st.fixed_dictionaries({"unit": st.sampled_from(["u1", "u2", "u4"]),
                                                            "delta": st.integers(-2, 3)})),
    st.tuples(st.just("unit.move"), st.fixed_dictionaries({"unit": st.sampled_from(["u1", "u3"]),
                                                           "x": st.floats(0, 72), "y": st.floats(0, 48)})),
    st.tuples(st.just("unit.turn"), st.fixed_dictionaries({"unit": st.just("u2"), "facing": st.floats(0, 359)})),
    st.tuples(st.just("unit.ammo"), st.fixed_dictionaries({"unit": st.sampled_from(["u2", "u3"]),
                                                           "refill": st.booleans()})),
    st.tuples(st.just("unit.condition"), st.fixed_dictionaries({"unit": st.just("u1"), "condition": st.just("pinned"),
                                                                "present": st.booleans()})),
    st.tuples(st.just("unit.remove"), st.fixed_dictionaries({"unit": st.sampled_from(["u4", "u5"])})),
    st.tuples(st.just("clock.end_phase"), st.just({})),
    st.tuples(st.just("dice.pool"), st.fixed_dictionaries({"dice": st.integers(1, 4), "target": st.integers(2, 6)})),
    st.tuples(st.just("backdrop.set"), st.fixed_dictionaries({
        "image": st.sampled_from([picture_text(png_bytes(40, 30)), picture_text(png_bytes(9, 12))]),
        "name": st.just("table.png")})),
    st.tuples(st.just("backdrop.place"), st.fixed_dictionaries({
        "px1": st.just(0.0), "py1": st.just(0.0), "px2": st.floats(0, 40), "py2": st.floats(0, 30),
        "x1": st.floats(-5, 72), "y1": st.floats(-5, 48), "x2": st.just(72.0), "y2": st.just(48.0)})),
    st.tuples(st.just("backdrop.opacity"), st.fixed_dictionaries({"opacity": st.floats(0, 1)})),
    st.tuples(st.just("backdrop.show"), st.fixed_dictionaries({"visible": st.booleans()})),
    st.tuples(st.just("backdrop.remove"), st.just({})),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(ACTIONS, max_size=8), st.integers(0, 1000))
def test_any_sequence_of_actions_saves_replays_and_undoes_exactly(sequence: list[tuple[str, dict[str, object]]],
                                                                  seed: int) -> None:
    game = sample_game()
    before = copy.deepcopy(game)
    dice = RandomDice(seed)
    undo: list[list[Effect]] = []
    for name, choices in sequence:
        try:
            undo.append(game.apply_all(perform(game, name, choices, rng=dice).effects))  # type: ignore[arg-type]
        except (RulesInputError, GameError):
            continue
    loaded = savefile.loads(savefile.dumps(game))
    assert loaded == game
    assert check(loaded).ok
    for inverses in reversed(undo):
        for inverse in reversed(inverses):
            game.apply(inverse)
    assert game == before


def test_replay_runs_from_the_command_line_without_qt(tmp_path: Path) -> None:
    path = tmp_path / "battle.json"
    savefile.save(played(), path)
    probe = ("import runpy, sys; sys.argv = ['battletracker', 'replay', sys.argv[1]]\n"
             "try:\n    runpy.run_module('battletracker', run_name='__main__')\n"
             "except SystemExit as exc:\n"
             "    assert not any(m.startswith('PySide6') for m in sys.modules), 'Qt was imported'\n"
             "    raise\n")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", probe, str(path)], cwd=root, capture_output=True, text=True,
                          timeout=120, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)}, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "All 6 actions replay to the saved state.\n", "")


def test_a_starred_log_line_does_not_stop_the_replay() -> None:
    from battletracker.model.effects import StarLogEntry

    game = played()
    game.apply(StarLogEntry(len(game.log) - 1, True))
    game.apply(StarLogEntry(0, True))
    assert check(game).ok
