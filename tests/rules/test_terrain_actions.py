"""terrain.add, .edit, .remove and .move: one undo step each, refused in a player's words, replayed exactly."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.model.terrain import TerrainPiece
from battletracker.rules import perform
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import plan
from battletracker.rules.replay import check
from battletracker.rules.terrain_actions import points_choice
from battletracker.rules.terrain_actions import terrain_choice
from tests.model.sample import sample_game

COPSE = TerrainPiece("t1", "Copse", "woods", "area", [(10.0, 10.0), (16.0, 10.0), (13.0, 15.5)])
WALL = TerrainPiece("t2", "Wall", "wall", "linear", [(20.0, 0.0), (20.0, 12.0)])


def act(game: Game, name: str, **choices: object) -> tuple[str, ...]:
    done = perform(game, name, choices, None)  # type: ignore[arg-type]
    game.apply_all(done.effects)
    return tuple(done.log)


def test_adding_moving_editing_and_removing_pieces_logs_each_in_words() -> None:
    game = sample_game()
    assert act(game, "terrain.add", piece=terrain_choice(COPSE)) == ("Added Copse (Woods) to the table",)
    assert act(game, "terrain.add", piece=terrain_choice(WALL)) == ("Added Wall (Stone wall) to the table",)
    assert act(game, "terrain.move", piece="t1", dx=3.0, dy=4.0) == ('Moved Copse 5.0"',)
    assert game.terrain["t1"].points == [(13.0, 14.0), (19.0, 14.0), (16.0, 19.5)]
    assert act(game, "terrain.move", piece="t2", points=points_choice([(1.0, 1.0), (2.0, 2.0), (3.0, 1.0)])) == \
        ("Reshaped Wall (3 points)",)
    edited = replace(game.terrain["t1"], name="Orchard", cover="hard", blocks_sight=False)
    assert act(game, "terrain.edit", piece=terrain_choice(edited)) == (
        "Edited Copse: name Copse -> Orchard; cover as its kind -> hard; sight as its kind -> does not block sight",)
    assert game.terrain["t1"] == edited
    assert act(game, "terrain.remove", piece="t2") == ("Removed Wall (Stone wall) from the table",)
    assert list(game.terrain) == ["t1"]


def test_each_action_is_one_step_that_undoes_exactly() -> None:
    game = sample_game()
    act(game, "terrain.add", piece=terrain_choice(COPSE))
    before = savefile.dumps(game)
    for name, choices in [("terrain.move", {"piece": "t1", "dx": 1.0}), ("terrain.remove", {"piece": "t1"}),
                          ("terrain.edit", {"piece": terrain_choice(replace(COPSE, name="Wood"))})]:
        done = perform(game, name, choices, None)
        inverses = game.apply_all(done.effects)
        for inverse in reversed(inverses):
            game.apply(inverse)
        assert savefile.dumps(game) == before, name


@pytest.mark.parametrize(("name", "choices", "key", "message"), [
    ("terrain.add", {"piece": terrain_choice(replace(COPSE, kind="lava"))}, "piece",
     "Copse: 'lava' is not a kind of terrain in this ruleset (Woods, Standing crops, Rubble, Rough ground, Hedge, "
     "Stone wall, Bocage)."),
    ("terrain.add", {"piece": terrain_choice(replace(COPSE, shape="linear"))}, "piece",
     "Copse: Woods is drawn as an area."),
    ("terrain.add", {"piece": terrain_choice(replace(COPSE, points=[(0.0, 0.0), (1.0, 1.0)]))}, "piece",
     "That terrain piece cannot be put on the table: Copse: an area needs at least 3 corners, not 2."),
    ("terrain.add", {"piece": terrain_choice(replace(COPSE, points=[(0.0, 0.0), (1.0, 1.0), (0.0, 0.0)]))}, "piece",
     "That terrain piece cannot be put on the table: Copse: an area needs at least 3 corners in different places, "
     "not 2."),
    ("terrain.add", {"piece": terrain_choice(replace(COPSE, id="t2", points=[(0.0, 5.0), (9.0, 5.0), (4.0, 5.02)]))},
     "piece", "Copse: its corners are all in one line; an area needs 3 corners that are not in a line."),
    ("terrain.add", {"piece": terrain_choice(COPSE)}, "piece", "Copse already has the id 't1'."),
    ("terrain.remove", {"piece": "t9"}, "piece", "That terrain piece is no longer on the table (was it removed?)."),
    ("terrain.remove", {}, "piece", "Pick a terrain piece first."),
    ("terrain.move", {"piece": "t1", "dx": 0.0}, "dx", "Copse is already there."),
    ("terrain.move", {"piece": "t1", "dx": "far"}, "dx", "How far to move the piece must be a number of inches."),
    ("terrain.move", {"piece": "t1", "points": "[[0,0]]"}, "points",
     "Copse cannot take that shape: an area needs at least 3 corners, not 1."),
    ("terrain.move", {"piece": "t1", "points": "[[2,2],[4,4],[8,8],[6,6]]"}, "points",
     "Copse cannot take that shape: its corners are all in one line; an area needs 3 corners that are not in a line."),
    ("terrain.edit", {"piece": terrain_choice(COPSE)}, "piece", "Nothing about Copse was changed."),
    ("terrain.edit", {"piece": terrain_choice(replace(COPSE, name=""))}, "name",
     "A terrain piece needs a name to show on the map: type one."),
    ("terrain.edit", {"piece": terrain_choice(replace(COPSE, name=" \t "))}, "name",
     "A terrain piece needs a name to show on the map: type one."),
    ("terrain.add", {"piece": terrain_choice(replace(COPSE, id="t2", name="  "))}, "name",
     "A terrain piece needs a name to show on the map: type one."),
])
def test_bad_choices_are_refused_in_a_players_words(name: str, choices: dict[str, object], key: str,
                                                    message: str) -> None:
    game = sample_game()
    act(game, "terrain.add", piece=terrain_choice(COPSE))
    before = savefile.dumps(game)
    with pytest.raises(Refusal) as caught:
        plan(name, game, choices)  # type: ignore[arg-type]
    assert (caught.value.field, caught.value.message) == (key, message)
    assert savefile.dumps(game) == before


def test_terrain_actions_are_saved_and_replay_to_the_same_state(tmp_path: Path) -> None:
    game = sample_game()
    act(game, "terrain.add", piece=terrain_choice(COPSE))
    act(game, "terrain.add", piece=terrain_choice(WALL))
    act(game, "terrain.move", piece="t1", dx=2.5, dy=-1.0)
    act(game, "terrain.move", piece="t2", points=points_choice([(1.0, 1.0), (2.0, 2.0)]))
    act(game, "terrain.edit", piece=terrain_choice(replace(game.terrain["t1"], sight_depth=2.0)))
    act(game, "terrain.remove", piece="t2")
    path = tmp_path / "battle.json"
    savefile.save(game, path)
    loaded = savefile.load(path)
    assert loaded == game
    assert [a.name for a in loaded.actions] == ["terrain.add", "terrain.add", "terrain.move", "terrain.move",
                                                "terrain.edit", "terrain.remove"]
    assert check(loaded).ok
    doc = savefile.game_to_dict(game)
    doc["history"]["actions"][2]["choices"]["dx"] = 3.0
    report = check(savefile.loads(json.dumps(doc).encode()))
    assert not report.ok and report.index == 2
