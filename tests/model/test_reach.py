"""Nothing in a file or an action puts anything beyond the table's reach, or an area with no inside."""

from __future__ import annotations

import json

import pytest

from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.model.effects import MoveUnit
from battletracker.model.game import REACH
from battletracker.model.game import GameError
from battletracker.model.terrain import TerrainPiece
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import plan
from battletracker.rules.terrain_actions import terrain_choice


def _document() -> dict:
    doc = savefile.game_to_dict(savefile.load(demo_path()))
    doc.pop("history", None)
    return doc


def _far_wood(far: float) -> dict:
    return {"id": "far", "name": "Far wood", "kind": "woods", "shape": "area",
            "points": [[-far, -far], [far, -far], [far, far]]}


@pytest.mark.parametrize("far", [1e308, 1e16, 1e8, REACH + 1])
def test_a_file_with_terrain_beyond_reach_is_refused_naming_the_bound_in_inches(far: float) -> None:
    doc = _document()
    doc["game"]["terrain"] = [_far_wood(far)]
    with pytest.raises(savefile.SaveFileError) as refused:
        savefile.loads(json.dumps(doc).encode())
    assert "Far wood" in str(refused.value) and f'within {REACH:g}"' in str(refused.value)


def test_terrain_within_reach_and_off_the_table_edge_still_loads() -> None:
    doc = _document()
    doc["game"]["terrain"] = [_far_wood(REACH)]
    assert savefile.loads(json.dumps(doc).encode()).terrain["far"].points[1] == (REACH, -REACH)


@pytest.mark.parametrize("where", ["unit", "marker"])
def test_a_file_with_a_unit_or_marker_beyond_reach_is_refused(where: str) -> None:
    doc = _document()
    things = doc["game"]["units"] if where == "unit" else doc["game"]["markers"]
    assert things, f"the demo has a {where}"
    things[0]["x"] = 1e308
    with pytest.raises(savefile.SaveFileError, match="too far from the table"):
        savefile.loads(json.dumps(doc).encode())


def test_a_collinear_area_is_refused_in_a_file_and_in_an_action() -> None:
    doc = _document()
    doc["game"]["terrain"] = [{**_far_wood(10), "points": [[1, 1], [2, 2], [3, 3]]}]
    with pytest.raises(savefile.SaveFileError, match="all in one line"):
        savefile.loads(json.dumps(doc).encode())
    game = savefile.load(demo_path())
    flat = TerrainPiece("t9", "Flat copse", "woods", "area", [(1.0, 1.0), (2.0, 2.0), (3.0, 3.0)])
    with pytest.raises(Refusal, match="all in one line"):
        plan("terrain.add", game, {"piece": terrain_choice(flat)})


def test_moving_terrain_or_a_unit_beyond_reach_is_refused() -> None:
    game = savefile.load(demo_path())
    wood = TerrainPiece("t9", "Copse", "woods", "area", [(10.0, 10.0), (16.0, 10.0), (13.0, 15.5)])
    game.terrain[wood.id] = wood
    with pytest.raises(Refusal) as refused:
        plan("terrain.move", game, {"piece": "t9", "dx": 1e15, "dy": 0.0})
    assert refused.value.field == "dx"
    assert str(refused.value).startswith("Copse cannot move that far: ") and f'{REACH:g}"' in str(refused.value)
    assert plan("terrain.move", game, {"piece": "t9", "dx": 30.0, "dy": 0.0}).title == "Move Copse"
    unit = next(iter(game.units.values()))
    with pytest.raises(GameError, match="too far from the table"):
        MoveUnit(unit.id, 1e15, 0.0, 0.0).apply(game)


@pytest.mark.parametrize(("name", "key"), [("terrain.add", "piece"), ("terrain.edit", "piece"),
                                           ("unit.add", "unit"), ("unit.edit", "unit")])
def test_a_choice_nested_too_deeply_is_refused_in_words(name: str, key: str) -> None:
    game = savefile.load(demo_path())
    deep = "[" * 200_000 + "]" * 200_000
    with pytest.raises(Refusal, match="nested too deeply"):
        plan(name, game, {key: deep})
