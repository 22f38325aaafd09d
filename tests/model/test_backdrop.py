"""The table's picture in the model: checked like every record, saved inside the file, undone exactly."""

from __future__ import annotations

import json

import pytest

from battletracker.model import savefile
from battletracker.model.backdrop import MAX_PICTURE_BYTES
from battletracker.model.backdrop import Backdrop
from battletracker.model.backdrop import check_backdrop
from battletracker.model.backdrop import picture_size
from battletracker.model.backdrop import picture_text
from battletracker.model.backdrop_effects import SetBackdrop
from battletracker.model.game import GameError
from tests.model.pictures import jpeg_header
from tests.model.pictures import png_bytes
from tests.model.sample import sample_game

PICTURE = picture_text(png_bytes(8, 6))
SMALL_PICTURE = picture_text(png_bytes(3, 4))


def backdrop(**changes: object) -> Backdrop:
    values: dict[str, object] = {"image": picture_text(png_bytes(8, 6)), "name": "table.png", "width": 8,
                                 "height": 6, "scale": 9.0, "rotation": 0.0, "x": 0.0, "y": 3.0}
    values.update(changes)
    return Backdrop(**values)  # type: ignore[arg-type]


def test_the_size_is_read_from_png_and_jpeg_headers() -> None:
    assert picture_size(png_bytes(17, 5)) == (17, 5)
    assert picture_size(jpeg_header(2048, 1365)) == (2048, 1365)
    with pytest.raises(GameError, match="not a PNG or JPEG"):
        picture_size(b"GIF89a....")
    with pytest.raises(GameError, match="cut short"):
        picture_size(b"\xff\xd8\xff\xe0\x00\x10JFIF")


def test_a_picture_is_saved_inside_the_file_and_comes_back_the_same(tmp_path: object) -> None:
    game = sample_game()
    game.backdrop = backdrop(opacity=0.35, visible=False, rotation=90.0)
    loaded = savefile.loads(savefile.dumps(game))
    assert loaded.backdrop == game.backdrop
    assert savefile.dumps(loaded) == savefile.dumps(game)


def test_a_game_without_a_picture_is_written_as_before_and_older_files_load() -> None:
    game = sample_game()
    doc = savefile.game_to_dict(game)
    assert "backdrop" not in doc["game"]
    assert savefile.loads(json.dumps(doc).encode()).backdrop is None


@pytest.mark.parametrize(("change", "message"), [
    ({"image": "not base64!"}, r"game\.backdrop: the picture is damaged \(its text is not base64\)"),
    ({"image": picture_text(b"GIF89a" + bytes(20))}, "the picture is not a PNG or JPEG file"),
    ({"width": 9}, "the picture is 8 x 6 pixels, not 9 x 6"),
    ({"scale": 0.0}, "scale of 0 inches per pixel is not one a table picture has"),
    ({"opacity": 1.5}, "opacity must be 0 to 1"),
    ({"rotation": -10.0}, "rotation must be 0 to 360"),
    ({"visible": "yes"}, r"game\.backdrop\.visible: must be true or false"),
])
def test_a_broken_picture_in_a_file_is_refused_naming_it(change: dict[str, object], message: str) -> None:
    doc = savefile.game_to_dict(sample_game())
    plain = {"image": picture_text(png_bytes(8, 6)), "name": "t.png", "width": 8, "height": 6, "scale": 9.0}
    doc["game"]["backdrop"] = {**plain, **change}
    with pytest.raises(savefile.SaveFileError, match=message):
        savefile.loads(json.dumps(doc).encode())


def test_a_picture_too_large_or_too_many_pixels_is_refused() -> None:
    with pytest.raises(GameError, match="larger than 3 MB"):
        check_backdrop(backdrop(image="A" * (MAX_PICTURE_BYTES // 3 * 4 + 8)))
    with pytest.raises(GameError, match="5000 x 6 pixels"):
        check_backdrop(backdrop(image=picture_text(png_bytes(5000, 6)), width=5000))


def test_setting_replacing_and_removing_the_picture_undo_to_the_same_bytes() -> None:
    game = sample_game()
    before = savefile.dumps(game)
    undo = game.apply(SetBackdrop(backdrop()))
    placed = savefile.dumps(game)
    again = game.apply(SetBackdrop(backdrop(opacity=0.9)))
    assert game.backdrop is not None and game.backdrop.opacity == 0.9
    game.apply(again)
    assert savefile.dumps(game) == placed
    remove = game.apply(SetBackdrop(None))
    assert game.backdrop is None
    game.apply(remove)
    assert savefile.dumps(game) == placed
    game.apply(undo)
    assert savefile.dumps(game) == before


def test_a_broken_picture_is_refused_and_changes_nothing() -> None:
    game = sample_game()
    game.backdrop = backdrop()
    before = savefile.dumps(game)
    with pytest.raises(GameError, match="not base64"):
        game.apply(SetBackdrop(backdrop(image="%%%")))
    assert savefile.dumps(game) == before
