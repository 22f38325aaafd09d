"""Save files: exact round trips, refusals that name the problem, atomic writes."""

from __future__ import annotations

import copy
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.savefile import SaveFileError
from battletracker.model.savefile import game_to_dict
from tests.model.sample import sample_game


def doc() -> dict[str, Any]:
    return json.loads(savefile.dumps(sample_game()))


def encode(document: Any) -> bytes:
    return json.dumps(document).encode("utf-8")


# -- round trips ---------------------------------------------------------------------------


def test_dumps_then_loads_is_exact() -> None:
    game = sample_game()
    loaded = savefile.loads(savefile.dumps(game))
    assert loaded == game
    assert game_to_dict(loaded) == game_to_dict(game)
    assert list(loaded.units) == list(game.units)
    assert savefile.dumps(loaded) == savefile.dumps(game)


def test_save_then_load_is_exact(tmp_path: Path) -> None:
    game = sample_game()
    path = tmp_path / "battle.json"
    savefile.save(game, path)
    assert savefile.load(path) == game
    assert [p.name for p in tmp_path.iterdir()] == ["battle.json"]


def test_the_file_is_utf8_json_with_format_and_version(tmp_path: Path) -> None:
    path = tmp_path / "battle.json"
    savefile.save(sample_game(), path)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == "battletracker"
    assert document["version"] == savefile.VERSION
    assert "Schürzen" in path.read_text(encoding="utf-8")


def test_saving_over_an_old_file_replaces_it(tmp_path: Path) -> None:
    path = tmp_path / "battle.json"
    savefile.save(sample_game(), path)
    changed = sample_game()
    changed.title = "Second attempt"
    savefile.save(changed, path)
    assert savefile.load(path).title == "Second attempt"


def test_a_minimal_file_loads_with_defaults() -> None:
    minimal = {
        "format": "battletracker",
        "version": 1,
        "game": {"title": "t", "ruleset": "necromunda", "table_width": 48, "table_height": 48,
                 "sides": [{"name": "Goliath", "colour": "#00AA00"}]},
    }
    game = savefile.loads(encode(minimal))
    assert game == Game("t", "necromunda", 48.0, 48.0, sides=[Side("Goliath", "#00AA00")])


# -- refusals ------------------------------------------------------------------------------


def test_a_truncated_file_is_refused_as_broken_json() -> None:
    raw = savefile.dumps(sample_game())
    for cut in (1, len(raw) // 3, len(raw) // 2, len(raw) - 1):
        with pytest.raises(SaveFileError, match="not a BattleTracker save file: broken JSON at line 1, column"):
            savefile.loads(raw[:cut])


def test_an_empty_file_is_refused() -> None:
    with pytest.raises(SaveFileError, match="broken JSON"):
        savefile.loads(b"")


def test_garbage_bytes_are_refused() -> None:
    with pytest.raises(SaveFileError, match=r"not UTF-8 text \(byte 0\)"):
        savefile.loads(b"\xff\xfe\x00garbage")
    with pytest.raises(SaveFileError, match="broken JSON"):
        savefile.loads(b"PK\x03\x04 this is a zip file")


@pytest.mark.parametrize("document", [[1, 2], "battletracker", {"format": "tracker", "version": 1}, {"version": 1}])
def test_a_foreign_document_is_refused_naming_the_format_field(document: Any) -> None:
    with pytest.raises(SaveFileError, match='the "format" field is missing or wrong'):
        savefile.loads(encode(document))


def test_a_newer_version_is_refused_saying_so() -> None:
    document = doc()
    document["version"] = savefile.VERSION + 1
    with pytest.raises(SaveFileError, match=f"version {savefile.VERSION + 1}, newer than this BattleTracker"):
        savefile.loads(encode(document))


@pytest.mark.parametrize("version", [0, -3])
def test_a_version_never_written_is_refused(version: int) -> None:
    document = doc()
    document["version"] = version
    with pytest.raises(SaveFileError, match=f"version {version} is not one BattleTracker ever wrote"):
        savefile.loads(encode(document))


@pytest.mark.parametrize("version", [None, "1", True, 1.0])
def test_a_missing_or_odd_version_is_refused(version: Any) -> None:
    document = doc()
    document["version"] = version
    with pytest.raises(SaveFileError, match="has no version number"):
        savefile.loads(encode(document))


def _drop(*keys: str | int) -> Callable[[dict[str, Any]], None]:
    def edit(document: dict[str, Any]) -> None:
        target: Any = document
        for k in keys[:-1]:
            target = target[k]
        del target[keys[-1]]
    return edit


def _set(value: Any, *keys: str | int) -> Callable[[dict[str, Any]], None]:
    def edit(document: dict[str, Any]) -> None:
        target: Any = document
        for k in keys[:-1]:
            target = target[k]
        target[keys[-1]] = value
    return edit


def _dup_unit(document: dict[str, Any]) -> None:
    document["game"]["units"].append(copy.deepcopy(document["game"]["units"][0]))


def _dup_marker(document: dict[str, Any]) -> None:
    document["game"]["markers"].append(copy.deepcopy(document["game"]["markers"][1]))


BROKEN: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (_drop("game"), "game: missing or not an object"),
    (_set([], "game"), "game: missing or not an object"),
    (_drop("game", "title"), "game.title: missing"),
    (_drop("game", "sides"), "game.sides: missing"),
    (_set([], "game", "sides"), "game.sides: a game needs at least one side"),
    (_drop("game", "units", 2, "kind"), "game.units[2].kind: missing"),
    (_drop("game", "units", 3, "vehicle", "armour", "rear"), "game.units[3].vehicle.armour.rear: missing"),
    (_drop("game", "sides", 1, "colour"), "game.sides[1].colour: missing"),
    (_drop("game", "log", 0, "text"), "game.log[0].text: missing"),
    (_drop("game", "markers", 0, "x"), "game.markers[0].x: missing"),
    (_set("72", "game", "table_width"), "game.table_width: must be a number"),
    (_set(0, "game", "table_width"), "table size 0\" x 48\" is not a table"),
    (_set(True, "game", "turn"), "game.turn: must be a whole number"),
    (_set(0, "game", "phase"), "game.phase: must be at least 1, not 0"),
    (_set(5, "game", "active_side"), "game.active_side: there is no side number 6"),
    (_set(7, "game", "title"), "game.title: must be text"),
    (_set({"a": 1}, "game", "units"), "game.units: must be a list"),
    (_set("u1", "game", "units", 0), "game.units[0]: missing or not an object"),
    (_set(3, "game", "units", 1, "id"), "game.units[1].id: must be text"),
    (_set("", "game", "units", 1, "id"), "game.units[1].id: must not be empty"),
    (_set("tank", "game", "units", 1, "kind"), "game.units[1].kind: must be one of team, section"),
    (_set(-1, "game", "units", 0, "counters", "shock"), "game.units[0].counters.shock: must be at least 0, not -1"),
    (_set(1.5, "game", "units", 0, "counters", "shock"), "game.units[0].counters.shock: must be a whole number"),
    (_set(11, "game", "units", 0, "figures"), "game.units[0].figures: 11 is more than the unit's 10"),
    (_set("pinned", "game", "units", 0, "conditions"), "game.units[0].conditions: must be a list"),
    (_set(["pinned", "pinned"], "game", "units", 0, "conditions"), "conditions: lists the same name twice"),
    (_set(None, "game", "units", 0, "x"), "game.units[0].x: must be a number"),
    (_set(12, "game", "units", 1, "weapons", 0, "ammo"), "game.units[1].weapons[0].ammo: 12 is more than"),
    (_set(-1, "game", "units", 1, "weapons", 0, "ammo"), "weapons[0].ammo: must be at least 0, not -1"),
    (_set(0, "game", "units", 1, "weapons", 0, "arc"), "weapons[0].arc: must be a half-angle between 0 and 180"),
    (_set("x", "game", "units", 1, "weapons", 0, "ranges", 1), "weapons[0].ranges[1]: must be a number"),
    (_set([1], "game", "units", 1, "weapons", 0, "stats", "belt"), "stats.belt: must be text, a number or"),
    (_set("tank", "game", "units", 3, "vehicle", "category"), "vehicle.category: must be one of afv, apc"),
    (_set("yes", "game", "units", 3, "vehicle", "open_topped"), "vehicle.open_topped: must be true or false"),
    (_set("melted", "game", "units", 4, "weapons", 0, "profiles", 1, "state"), "profiles[1].state: must be one of"),
    (_set("red", "game", "sides", 0, "colour"), "game.sides[0].colour: must be a colour like #3366cc, not 'red'"),
    (_set(-2, "game", "sides", 0, "force_morale"), "game.sides[0].force_morale: must be at least 0, not -2"),
    (_set(-1.0, "game", "markers", 0, "radius"), "game.markers[0].radius: cannot be negative"),
    (_set(0, "game", "log", 1, "turn"), "game.log[1].turn: must be at least 1, not 0"),
    (_set([1, 2], "game", "settings", "storm_of_steel_per_six"), "game.settings.storm_of_steel_per_six: must be"),
    (_dup_unit, "game.units[5]: the id 'u1' is used twice"),
    (_dup_marker, "game.markers[2]: the id 'm2' is used twice"),
    (_set(2, "game", "units", 0, "side"), "game.units[0].side: there is no side number 3"),
    (_set(-1, "game", "units", 0, "side"), "game.units[0].side: must be at least 0, not -1"),
    (_set(2, "game", "markers", 0, "side"), "game.markers[0].side: there is no side number 3"),
]


@pytest.mark.parametrize(("edit", "message"), BROKEN, ids=[m for _, m in BROKEN])
def test_broken_documents_are_refused_naming_the_place(edit: Callable[[dict[str, Any]], None], message: str) -> None:
    document = doc()
    edit(document)
    with pytest.raises(SaveFileError) as caught:
        savefile.loads(encode(document))
    assert message in str(caught.value)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_non_numbers_are_refused(constant: str) -> None:
    raw = savefile.dumps(sample_game()).replace(b'"x":12.0', b'"x":' + constant.encode(), 1)
    with pytest.raises(SaveFileError, match=f"contains {constant}, which is not a number"):
        savefile.loads(raw)


def test_numbers_too_large_for_the_table_are_refused() -> None:
    raw = savefile.dumps(sample_game()).replace(b'"x":12.0', b'"x":1e999', 1)
    with pytest.raises(SaveFileError, match=r"game.units\[0\].x: must be a number"):
        savefile.loads(raw)
    raw = savefile.dumps(sample_game()).replace(b'"x":12.0', b'"x":1' + b"0" * 400, 1)
    with pytest.raises(SaveFileError, match=r"game.units\[0\].x: must be a number"):
        savefile.loads(raw)


def test_a_number_with_thousands_of_digits_is_refused() -> None:
    raw = savefile.dumps(sample_game()).replace(b'"shock":2', b'"shock":' + b"9" * 5000, 1)
    with pytest.raises(SaveFileError, match="not a BattleTracker save file"):
        savefile.loads(raw)


def test_deep_nesting_is_refused() -> None:
    with pytest.raises(SaveFileError, match="nested too deeply"):
        savefile.loads(b"[" * 100_000 + b"]" * 100_000)


def test_text_that_cannot_be_saved_again_is_refused() -> None:
    raw = savefile.dumps(sample_game()).replace("Schürzen".encode(), b"\\ud800", 1)
    with pytest.raises(SaveFileError, match="not valid Unicode"):
        savefile.loads(raw)
    # A proper surrogate pair is a character like any other.
    raw = savefile.dumps(sample_game()).replace("Schürzen".encode(), b"\\ud83d\\ude00", 1)
    assert savefile.loads(raw).title == "Hill 112 — \U0001f600"


def test_a_missing_file_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    with pytest.raises(SaveFileError, match=f"cannot read {path}"):
        savefile.load(path)


def test_a_game_that_could_not_be_loaded_again_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "battle.json"
    savefile.save(sample_game(), path)
    before = path.read_bytes()
    game = sample_game()
    game.settings["broken"] = float("nan")
    with pytest.raises(ValueError):
        savefile.save(game, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["battle.json"]


# -- atomic writes --------------------------------------------------------------------------


def test_a_failed_rename_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "battle.json"
    savefile.save(sample_game(), path)
    before = path.read_bytes()

    def fail(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    changed = sample_game()
    changed.title = "never written"
    with pytest.raises(OSError, match="No space left"):
        savefile.save(changed, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["battle.json"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "battle.json"
    savefile.save(sample_game(), path)
    before = path.read_bytes()

    def fail(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(OSError, match="Input/output error"):
        savefile.save(sample_game(), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["battle.json"]


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs POSIX permissions as a normal user")
def test_a_read_only_folder_refuses_the_save_and_keeps_the_old_file(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    path = folder / "battle.json"
    savefile.save(sample_game(), path)
    before = path.read_bytes()
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        with pytest.raises(PermissionError):
            savefile.save(Game(sides=[Side("A", "#000000")]), path)
        assert path.read_bytes() == before
    finally:
        folder.chmod(stat.S_IRWXU)
    assert [p.name for p in folder.iterdir()] == ["battle.json"]



# -- files that are not save files -----------------------------------------------------------


def test_a_folder_is_refused_saying_so(tmp_path: Path) -> None:
    with pytest.raises(SaveFileError, match="it is a folder, not a file"):
        savefile.load(tmp_path)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_an_endless_device_is_refused_without_reading_it() -> None:
    with pytest.raises(SaveFileError, match="/dev/zero: it is a device or a pipe, not a file"):
        savefile.load("/dev/zero")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    import threading

    fifo = tmp_path / "game.battle"
    os.mkfifo(fifo)
    refusals: list[str] = []

    def load() -> None:
        try:
            savefile.load(fifo)
        except SaveFileError as exc:
            refusals.append(str(exc))

    reader = threading.Thread(target=load, daemon=True)
    reader.start()
    reader.join(timeout=5)
    if reader.is_alive():  # unblock the reader so the test run can end
        with open(fifo, "wb"):
            pass
        pytest.fail("loading a pipe waited for a writer")
    assert refusals and "it is a device or a pipe, not a file" in refusals[0]


def test_a_file_far_larger_than_any_game_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.battle"
    with path.open("wb") as fh:
        fh.truncate(savefile.MAX_FILE_BYTES + 1)  # sparse: no time or disk spent
    with pytest.raises(SaveFileError, match=r"huge.battle is not a BattleTracker save file: it is 16 MB.*never "
                                            r"larger than 16 MB"):
        savefile.load(path)


def test_the_size_cap_is_far_above_the_biggest_game() -> None:
    from tests.benchmarks.savefile_bench import big_game

    assert len(savefile.dumps(big_game())) * 10 < savefile.MAX_FILE_BYTES


def test_unknown_lists_and_objects_are_dropped_while_parsing() -> None:
    """A file padded under unknown keys loads as the game, without holding the padding in memory."""
    import tracemalloc

    document = doc()
    for unit in document["game"]["units"]:
        unit["photos"] = [[i, i] for i in range(20_000)]
    document["game"]["extra"] = {"nested": list(range(1000))}
    raw = encode(document)
    tracemalloc.start()
    try:
        game = savefile.loads(raw)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert game == sample_game()
    assert peak < 5 * len(raw)


def test_free_form_maps_still_refuse_a_list_value() -> None:
    document = doc()
    document["game"]["units"][0]["stats"]["photos"] = [1, 2]
    with pytest.raises(SaveFileError, match=r"units\[0\].stats.photos: must be text, a number or true/false"):
        savefile.loads(encode(document))
