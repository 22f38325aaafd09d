"""The quick path of a load takes well-formed records as they are and leaves everything else to the full
check, so what loads and every refusal are the same whichever path reads a record."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from battletracker.model import fields
from battletracker.model import savefile
from battletracker.model.actions import Action
from battletracker.model.actions import ActionError
from tests.model.sample import sample_game

JSON_VALUES = st.one_of(
    st.none(), st.booleans(), st.sampled_from([-1, 0, 1, 2, 6, 7, 180, 181, 361]), st.integers(-3, 400),
    st.sampled_from([0.0, -0.0, 0.5, 180.0, 180.5, 360.0, -1.0, 1e308, float("nan"), float("inf")]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["", "x", "pinned", "infantry", "afv", "ok", "#3366cc", "-", "u1"]),
    st.lists(st.sampled_from(["pinned", "pinned", "a", 1, None]), max_size=3),
    st.dictionaries(st.sampled_from(["shock", "turn", "phase", "front", "name", "x"]),
                    st.one_of(st.integers(-1, 9), st.floats(-1, 9), st.text(max_size=2), st.booleans()),
                    max_size=3),
    st.just(float(10 ** 400 // 10 ** 100)), st.just(10 ** 400),
)


def _units() -> list[dict[str, Any]]:
    return [json.loads(json.dumps(u)) for u in json.loads(savefile.dumps(sample_game()))["game"]["units"]]


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a plain value (keys of objects, indexes of lists), the value itself first."""
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _places(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _places(v, (*path, i))
    return out


def _outcome(read: Callable[[fields._Path, Any], Any], data: Any) -> tuple[str, Any]:
    try:
        return "loaded", read(fields._Path("game.units[0]"), data)
    except fields.FieldError as exc:
        return "refused", str(exc)


def _same_as_full_check(quick: Callable[[fields._Path, Any], Any], full: Callable[[fields._Path, Any], Any],
                        data: Any) -> None:
    assert _outcome(quick, copy.deepcopy(data)) == _outcome(full, copy.deepcopy(data))


@settings(max_examples=1000, deadline=None)
@given(st.data())
def test_a_unit_with_any_one_value_changed_or_removed_loads_or_is_refused_as_the_full_check_says(
        data: st.DataObject) -> None:
    unit = data.draw(st.sampled_from(_units()))
    place = data.draw(st.sampled_from(_places(unit)[1:]))
    parent = unit
    for step in place[:-1]:
        parent = parent[step]
    if data.draw(st.booleans()) and isinstance(parent, dict):
        del parent[place[-1]]
    else:
        parent[place[-1]] = data.draw(JSON_VALUES)
    _same_as_full_check(fields._unit, fields._unit_checked, unit)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["time", "turn", "phase", "text", "kind", "starred", "other"]), JSON_VALUES))
def test_any_log_entry_loads_or_is_refused_as_the_full_check_says(entry: dict[str, Any]) -> None:
    _same_as_full_check(fields._entry, fields._entry_checked, entry)
    _same_as_full_check(fields._entry, fields._entry_checked, {"time": "t", "turn": 1, "phase": 2, "text": "x",
                                                                **entry})


PIECES: list[dict[str, Any]] = [
    {"id": "t1", "name": "Orchard", "kind": "woods", "shape": "area", "points": [[1, 1], [6.5, 1], [6.5, 5]],
     "cover": "light", "blocks_sight": True, "sight_depth": 2.0},
    {"id": "t2", "name": "Hedge", "kind": "hedge", "shape": "linear", "points": [[0.0, 3.0], [12.0, 4.0]]},
]


@settings(max_examples=500, deadline=None)
@given(st.data())
def test_a_terrain_piece_with_any_one_value_changed_or_removed_loads_or_is_refused_as_the_full_check_says(
        data: st.DataObject) -> None:
    piece = copy.deepcopy(data.draw(st.sampled_from(PIECES)))
    place = data.draw(st.sampled_from(_places(piece)[1:]))
    parent = piece
    for step in place[:-1]:
        parent = parent[step]
    if data.draw(st.booleans()) and isinstance(parent, dict):
        del parent[place[-1]]
    else:
        parent[place[-1]] = data.draw(st.one_of(JSON_VALUES, st.sampled_from(["area", "linear", [0, 0], [99, 1]])))
    full, quick = fields._list(fields._terrain), fields._records(fields._q_terrain, fields._terrain)
    assert _outcome(quick, [copy.deepcopy(piece)]) == _outcome(full, [piece])


def _action_outcome(read: Callable[[Any], Action], data: Any) -> tuple[str, Any]:
    try:
        return "loaded", read(data)
    except ActionError as exc:
        return "refused", str(exc)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["name", "choices", "dice", "time", "typed", "rules", "other"]), JSON_VALUES),
       st.dictionaries(st.sampled_from(["unit", "x", "delta"]), JSON_VALUES, max_size=3),
       st.lists(st.one_of(st.integers(-1, 7), st.booleans(), st.text(max_size=2), st.floats()), max_size=3))
def test_any_action_loads_or_is_refused_as_the_full_check_says(action: dict[str, Any], choices: dict[str, Any],
                                                                dice: list[Any]) -> None:
    for data in (action, {"name": "unit.move", **action}, {"name": "unit.move", "choices": choices, "dice": dice,
                                                           "time": "t", **{k: action[k] for k in action
                                                                          if k in ("typed", "rules")}}):
        assert _action_outcome(Action.from_plain, copy.deepcopy(data)) == _action_outcome(Action._checked, data)


def test_the_records_of_a_saved_game_all_take_the_quick_path() -> None:
    """The units and their weapons a save file holds are read without the full check (which would be slow)."""
    doc = json.loads(savefile.dumps(sample_game()))
    for unit in doc["game"]["units"]:
        assert fields._q_unit(unit) == fields._unit_checked(fields._Path("unit"), unit)


def test_the_bytes_saved_are_the_document_game_to_dict_describes() -> None:
    game = sample_game()
    assert savefile.dumps(game) == json.dumps(savefile.game_to_dict(game), ensure_ascii=False, allow_nan=False,
                                              separators=(",", ":")).encode("utf-8")


def _vehicle_unit() -> dict[str, Any]:
    return next(u for u in _units() if u["vehicle"] is not None)


BOUNDARIES: list[tuple[str, Any]] = [
    ("figures", -1), ("figures", 11), ("figures_max", True), ("side", -1), ("level", 1.0), ("x", 10 ** 400),
    ("y", float("nan")), ("facing", float("inf")), ("facing", 725.5), ("id", ""), ("notes", None),
    ("kind", "Section"), ("counters", {"shock": True}), ("counters", {"shock": -1}), ("stats", {"a": float("inf")}),
    ("stats", {"a": None}), ("conditions", ["pinned", "pinned"]), ("conditions", ["pinned", "broken"]),
    ("acted", {"turn": 0, "phase": 1}), ("acted", {"turn": 1}), ("acted", {"turn": 2, "phase": 3}),
    ("weapons.0.arc", 180.5), ("weapons.0.arc", 0), ("weapons.0.arc", 180), ("weapons.0.ammo", 5),
    ("weapons.0.ammo_max", 0), ("weapons.0.ranges", [1, "2"]), ("weapons.0.profiles", [{"name": "p", "state": "x"}]),
    ("weapons.0.profiles", [{"name": "p", "traits": ["b", "a"]}]), ("weapons.0", "Bren"),
    ("vehicle.damage", ["engine_damage", "engine_damage"]), ("vehicle.damage", ["b", "a"]),
    ("vehicle.armour", {"front": 5, "side": 3, "rear": 2}), ("vehicle.category", "tank"),
    ("vehicle.open_topped", 1),
]


def test_each_value_at_a_boundary_loads_or_is_refused_as_the_full_check_says() -> None:
    for place, value in BOUNDARIES:
        unit = _vehicle_unit() if place.startswith("vehicle") else next(u for u in _units() if u["weapons"])
        parent: Any = unit
        *steps, last = place.split(".")
        for step in steps:
            parent = parent[int(step)] if step.isdigit() else parent[step]
        parent[int(last) if last.isdigit() else last] = value
        quick, full = _outcome(fields._unit, copy.deepcopy(unit)), _outcome(fields._unit_checked, unit)
        assert quick == full, place


def test_every_map_of_records_in_a_game_is_written_as_a_list() -> None:
    game = sample_game()
    written = json.loads(savefile.dumps(game))["game"]
    maps = [name for name, value in vars(game).items() if isinstance(value, dict) and name != "settings"]
    assert "units" in maps and all(isinstance(written[name], list) for name in maps)
    assert written["units"] == [savefile.game_to_dict(game)["game"]["units"][i] for i in range(len(game.units))]
