"""Every game the app saves it opens: pictures written once, the start's terrain not twice, and a game
that would outgrow the limit saved without its history (or refused, naming the size) and never cut."""

from __future__ import annotations

import json
import math
import random
import struct
import zlib

import pytest

from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.model.backdrop import picture_text
from battletracker.model.game import Game
from battletracker.model.terrain import TerrainPiece
from battletracker.rules.actions import perform


def photo(seed: int, side: int = 600) -> bytes:
    """A real PNG of noise, about a megabyte as a table photo is: it does not compress."""
    rows = random.Random(seed).randbytes(side * side * 3)
    raw = b"".join(b"\x00" + rows[y * side * 3:(y + 1) * side * 3] for y in range(side))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 1))
            + chunk(b"IEND", b""))


def act(game: Game, name: str, choices: dict) -> None:
    game.apply_all(perform(game, name, choices).effects)


def with_pictures(pictures: list[bytes]) -> Game:
    game = savefile.load(demo_path())
    for i, data in enumerate(pictures):
        act(game, "backdrop.set", {"image": picture_text(data), "name": f"photo{i}.png"})
    return game


def test_a_picture_loaded_eleven_times_is_written_once_and_reopens_with_its_history() -> None:
    picture = photo(1)
    game = with_pictures([picture] * 11)
    saving = savefile.to_save(game)
    assert not saving.without_history and saving.note() is None
    assert len(saving.data) < 1.5 * len(picture_text(picture))
    opened = savefile.loads(saving.data)
    assert opened == game
    assert [a.choices["image"] for a in opened.actions] == [picture_text(picture)] * 11


def test_thirteen_photos_save_without_history_as_a_file_that_opens_and_say_so() -> None:
    game = with_pictures([photo(seed) for seed in range(13)])
    assert len(savefile.dumps(game)) > savefile.MAX_FILE_BYTES  # with every photo in its record
    saving = savefile.to_save(game)
    assert saving.without_history and len(saving.data) <= savefile.MAX_FILE_BYTES
    note = saving.note()
    assert note is not None and "without its undo history" in note and "16 MB" in note
    opened = savefile.loads(saving.data)
    assert opened.start is None and opened.actions == []
    assert opened.backdrop == game.backdrop and opened.units == game.units


def test_a_game_near_the_limit_says_how_full_it_is() -> None:
    note = savefile.Saving(b"x" * (savefile.NEAR_FULL_BYTES + 1)).note()
    assert note is not None and "12.0 MB of the 16 MB a saved game may hold" in note


def test_a_game_too_large_even_without_history_is_refused_with_its_size_and_nothing_written(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = with_pictures([photo(1)])
    monkeypatch.setattr(savefile, "MAX_FILE_BYTES", 500_000)
    with pytest.raises(savefile.SaveFileError, match=r"larger than the 0 MB .*nothing was written"):
        savefile.to_save(game)


def test_the_start_keeps_terrain_the_game_still_holds_by_reference() -> None:
    game = savefile.load(demo_path())
    game.start, game.actions = None, []
    rng = random.Random(5)
    for i in range(150):
        x, y = rng.uniform(0, 60), rng.uniform(0, 40)
        points = [(x + 5 + 4 * math.cos(k / 480 * math.tau), y + 5 + 4 * math.sin(k / 480 * math.tau))
                  for k in range(480)]
        game.terrain[f"w{i}"] = TerrainPiece(f"w{i}", f"Wood {i}", "woods", "area", points)
    game.start = savefile.game_to_dict(game)["game"]  # the recording starts from here
    unit = next(iter(game.units))
    act(game, "unit.move", {"unit": unit, "x": 30.0, "y": 20.0})
    act(game, "terrain.move", {"piece": "w3", "dx": 1.0, "dy": 0.0})
    data = savefile.dumps(game)
    alone = savefile.dumps(game, history=False)
    assert len(data) < 1.05 * len(alone) + 30_000  # w3 moved: its start is written; the others by reference
    opened = savefile.loads(data)
    assert opened == game and opened.start == game.start
    start = json.loads(data)["history"]["start"]["terrain"]
    written = {item.get("same_as_game", item.get("id")): item for item in start}
    started = {item["id"]: item for item in game.start["terrain"]}
    assert written["w0"] == {"same_as_game": "w0"} and written["w3"] == started["w3"]


@pytest.mark.parametrize(("where", "message"), [
    (lambda doc: doc["game"]["backdrop"].__setitem__("image", "picture:" + "0" * 64),
     "game.backdrop.image: names a picture the file does not hold"),
    (lambda doc: doc["history"]["start"]["terrain"].append({"same_as_game": "nowhere"}),
     "names a terrain piece the game does not hold"),
    (lambda doc: doc.__setitem__("pictures", {"a": 3}), "pictures: must map"),
])
def test_a_crafted_reference_is_refused_naming_it(where, message: str) -> None:
    game = with_pictures([photo(2, side=40)])
    doc = json.loads(savefile.dumps(game))
    doc["history"]["start"].setdefault("terrain", [])
    where(doc)
    with pytest.raises(savefile.SaveFileError, match=message):
        savefile.loads(json.dumps(doc).encode())
