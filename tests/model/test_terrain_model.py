"""Terrain pieces: saved and loaded exactly, refused when no table could hold them, undone exactly."""

from __future__ import annotations

import json

import pytest

from battletracker.model import savefile
from battletracker.model.game import GameError
from battletracker.model.terrain import TerrainPiece
from battletracker.model.terrain_effects import AddTerrain
from battletracker.model.terrain_effects import RemoveTerrain
from battletracker.model.terrain_effects import ReplaceTerrain
from battletracker.model.terrain_effects import SetTerrainPoints
from tests.model.sample import sample_game

COPSE = TerrainPiece("t1", "Copse", "woods", "area", [(10.0, 10.0), (16.0, 10.0), (13.0, 15.5)])
HEDGE = TerrainPiece("t2", "Hedge", "hedge", "linear", [(20.0, 0.0), (20.0, 12.0)], cover="hard",
                     blocks_sight=True, sight_depth=1.5)


def test_terrain_is_saved_and_loaded_exactly() -> None:
    game = sample_game()
    game.apply(AddTerrain(COPSE))
    game.apply(AddTerrain(HEDGE))
    doc = savefile.game_to_dict(game)
    assert doc["game"]["terrain"][1] == {"id": "t2", "name": "Hedge", "kind": "hedge", "shape": "linear",
                                         "points": [[20.0, 0.0], [20.0, 12.0]], "cover": "hard",
                                         "blocks_sight": True, "sight_depth": 1.5}
    loaded = savefile.loads(savefile.dumps(game))
    assert loaded == game
    assert list(loaded.terrain) == ["t1", "t2"]
    assert loaded.terrain["t1"].points == [(10.0, 10.0), (16.0, 10.0), (13.0, 15.5)]


def test_a_file_written_before_terrain_loads_with_none() -> None:
    doc = savefile.game_to_dict(sample_game())
    del doc["game"]["terrain"]
    loaded = savefile.loads(json.dumps(doc).encode())
    assert loaded.terrain == {}
    assert loaded == sample_game()


@pytest.mark.parametrize(("change", "message"), [
    ({"points": [[0, 0], [1, 1]]}, "an area needs at least 3 corners, not 2"),
    ({"points": [[0, 0], [0, 0], [0, 0]]}, "an area needs at least 3 corners in different places, not 1"),
    ({"points": [[0, 0], [1, "x"], [2, 2]]}, "game.terrain[0].points[1][1]: must be a number"),
    ({"points": [[0, 0, 0], [1, 1], [2, 2]]}, "must be a point"),
    ({"shape": "hill"}, "must be one of area, linear"),
    ({"kind": ""}, "needs a kind of terrain"),
    ({"sight_depth": -1}, "sight goes 0 inches or more into a piece, not -1"),
])
def test_a_damaged_piece_in_a_file_is_refused_naming_it(change: dict[str, object], message: str) -> None:
    game = sample_game()
    game.apply(AddTerrain(COPSE))
    doc = savefile.game_to_dict(game)
    doc["game"]["terrain"][0].update(change)
    with pytest.raises(savefile.SaveFileError, match="game.terrain") as caught:
        savefile.loads(json.dumps(doc).encode())
    assert message in str(caught.value)


def test_a_piece_id_used_twice_is_refused() -> None:
    game = sample_game()
    game.apply(AddTerrain(COPSE))
    doc = savefile.game_to_dict(game)
    doc["game"]["terrain"].append(doc["game"]["terrain"][0])
    with pytest.raises(savefile.SaveFileError, match="the id 't1' is used twice"):
        savefile.loads(json.dumps(doc).encode())


def test_each_effect_is_undone_to_the_same_saved_bytes_and_keeps_the_order() -> None:
    game = sample_game()
    game.apply(AddTerrain(COPSE))
    game.apply(AddTerrain(HEDGE))
    before = savefile.dumps(game)
    for effect in (RemoveTerrain("t1"), ReplaceTerrain(TerrainPiece("t1", "Big copse", "woods", "area", COPSE.points)),
                   SetTerrainPoints("t2", ((21.0, 0.5), (21.0, 12.5), (25.0, 14.0))),
                   AddTerrain(TerrainPiece("t3", "Rubble", "rubble", "area", COPSE.points), 0)):
        inverse = game.apply(effect)
        assert savefile.dumps(game) != before
        game.apply(inverse)
        assert savefile.dumps(game) == before, effect


def test_refused_effects_change_nothing_and_say_why() -> None:
    game = sample_game()
    game.apply(AddTerrain(COPSE))
    before = savefile.dumps(game)
    for effect, message in [(AddTerrain(COPSE), "a terrain piece with id 't1' is already on the table"),
                            (RemoveTerrain("t9"), "no terrain piece with id 't9'"),
                            (SetTerrainPoints("t1", ((0.0, 0.0), (1.0, 1.0))), "an area needs at least 3 corners"),
                            (SetTerrainPoints("t1", ((0.0, 0.0), (1.0, float("nan")), (2.0, 2.0))),
                             "must be a number")]:
        with pytest.raises(GameError, match=message.replace("(", r"\(")):
            game.apply(effect)
        assert savefile.dumps(game) == before


def test_the_stored_piece_is_a_copy_not_the_effects_own() -> None:
    game = sample_game()
    piece = TerrainPiece("t1", "Copse", "woods", "area", [(10.0, 10.0), (16.0, 10.0), (13.0, 15.5)])
    game.apply(AddTerrain(piece))
    piece.points.append((0.0, 0.0))
    assert len(game.terrain["t1"].points) == 3
