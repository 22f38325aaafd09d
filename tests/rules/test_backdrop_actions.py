"""The table picture's actions: each one step with a log line, refused in words, undone and replayed exactly."""

from __future__ import annotations

import copy

import pytest

from battletracker.model import savefile
from battletracker.model.backdrop import picture_text
from battletracker.model.effects import Effect
from battletracker.model.game import Game
from battletracker.rules import perform
from battletracker.rules.actions import Refusal
from battletracker.rules.base import message_of
from battletracker.rules.replay import check
from tests.model.pictures import png_bytes
from tests.model.sample import sample_game

PICTURE = picture_text(png_bytes(150, 100))
CORNERS = {"px1": 0.0, "py1": 0.0, "px2": 150.0, "py2": 100.0, "x1": 72.0, "y1": 48.0, "x2": 0.0, "y2": 0.0}
# A wall on the picture from pixel (30, 20) to (130, 20), measured 24" long on the table, its left end at (6", 10").
WALL = {"px1": 30.0, "py1": 20.0, "px2": 130.0, "py2": 20.0, "inches": 24.0, "x1": 6.0, "y1": 10.0}


def act(game: Game, name: str, choices: dict[str, object]) -> list[Effect]:
    return game.apply_all(perform(game, name, choices, time="2026-06-01T20:00:00").effects)  # type: ignore[arg-type]


def test_a_picture_loads_fitted_to_the_table_and_is_placed_by_two_corners() -> None:
    game = sample_game()
    act(game, "backdrop.set", {"image": PICTURE, "name": "table.png"})
    b = game.backdrop
    assert b is not None and (b.width, b.height, b.name, b.visible) == (150, 100, "table.png", True)
    assert (b.scale, b.x, b.y) == pytest.approx((0.48, 0.0, 0.0))
    assert game.log[-1].text == "Table picture loaded: table.png (150 x 100 pixels), fitted to the table"
    act(game, "backdrop.place", CORNERS)
    b = game.backdrop
    assert b.placement.to_table((0.0, 0.0)) == pytest.approx((72.0, 48.0))
    assert b.placement.to_table((150.0, 100.0)) == pytest.approx((0.0, 0.0), abs=1e-9)
    assert b.rotation == pytest.approx(180.0)
    assert game.log[-1].text == ('Table picture placed by two points: (72", 48") and (0", 0"); it covers '
                                 '72.0" x 48.0", turned 180°')


def test_each_step_undoes_exactly_and_the_whole_game_replays() -> None:
    game = sample_game()
    before = copy.deepcopy(game)
    steps = [("backdrop.set", {"image": PICTURE, "name": "table.png"}), ("backdrop.place", CORNERS),
             ("backdrop.measure", WALL),
             ("backdrop.opacity", {"opacity": 0.25}), ("backdrop.show", {"visible": False}),
             ("backdrop.set", {"image": picture_text(png_bytes(30, 20)), "name": "map.png"}),
             ("backdrop.remove", {})]
    undo = []
    for name, choices in steps:
        bytes_before = savefile.dumps(game)
        inverses = act(game, name, choices)
        undo.append((bytes_before, inverses))
    assert game.backdrop is None
    loaded = savefile.loads(savefile.dumps(game))
    assert check(loaded).ok
    for bytes_before, inverses in reversed(undo):
        for inverse in reversed(inverses):
            game.apply(inverse)
        assert savefile.dumps(game) == bytes_before
    assert game == before


def test_replacing_keeps_the_opacity_and_shows_the_new_picture() -> None:
    game = sample_game()
    act(game, "backdrop.set", {"image": PICTURE, "name": "a.png"})
    act(game, "backdrop.opacity", {"opacity": 0.8})
    act(game, "backdrop.show", {"visible": False})
    act(game, "backdrop.set", {"image": picture_text(png_bytes(30, 20)), "name": "b.png"})
    assert game.backdrop is not None and (game.backdrop.opacity, game.backdrop.visible) == (0.8, True)
    assert game.log[-1].text.startswith("Table picture replaced by b.png")


def test_two_points_and_the_distance_measured_between_them_place_the_picture_keeping_its_turn() -> None:
    game = sample_game()
    act(game, "backdrop.set", {"image": PICTURE, "name": "table.png"})
    act(game, "backdrop.measure", WALL)
    b = game.backdrop
    assert b is not None and b.scale == pytest.approx(0.24) and b.rotation == 0.0
    assert b.placement.to_table((30.0, 20.0)) == pytest.approx((6.0, 10.0))
    assert b.placement.to_table((130.0, 20.0)) == pytest.approx((30.0, 10.0))
    assert game.log[-1].text == ('Table picture placed by two points 24" apart, the first at (6", 10"); it covers '
                                 '36.0" x 24.0"')
    act(game, "backdrop.place", CORNERS)                    # turned half round, then measured again:
    act(game, "backdrop.measure", {**WALL, "inches": 12.0})  # the turn is kept, the first point lands
    b = game.backdrop
    assert b.rotation == pytest.approx(180.0) and b.scale == pytest.approx(0.12)
    assert b.placement.to_table((30.0, 20.0)) == pytest.approx((6.0, 10.0))
    assert b.placement.to_table((130.0, 20.0)) == pytest.approx((-6.0, 10.0))


@pytest.mark.parametrize(("choices", "words"), [
    ({**WALL, "inches": 0.0}, 'The two points must be at least 0.5" apart on the table'),
    ({**WALL, "inches": "a foot"}, "The distance between the two points must be a number."),
    ({**WALL, "px2": 31.0}, "The two points on the picture are the same point"),
    ({**WALL, "py2": 500.0}, "Both points must be on the picture."),
    ({**WALL, "y1": -5000.0}, "A place on the table is within 1000\" of its corner."),
    ({**WALL, "inches": 1e300}, "Those points cannot place the picture"),
])
def test_a_measured_placement_that_cannot_be_is_refused_with_a_sentence(choices: dict[str, object],
                                                                        words: str) -> None:
    game = sample_game()
    act(game, "backdrop.set", {"image": PICTURE, "name": "table.png"})
    before = savefile.dumps(game)
    with pytest.raises(Refusal) as caught:
        perform(game, "backdrop.measure", choices)  # type: ignore[arg-type]
    assert message_of(caught.value).startswith(words)
    assert savefile.dumps(game) == before


@pytest.mark.parametrize(("name", "choices", "words"), [
    ("backdrop.place", CORNERS, "There is no table picture: load one first."),
    ("backdrop.measure", WALL, "There is no table picture: load one first."),
    ("backdrop.set", {"image": picture_text(b"plain text, not a picture")},
     "That picture cannot be used: the picture is not a PNG or JPEG file."),
    ("backdrop.set", {"image": "%%%"}, "That picture cannot be used: the picture is damaged"),
    ("backdrop.set", {}, "Choose a picture file to load."),
])
def test_refusals_without_a_picture_say_why_and_change_nothing(name: str, choices: dict[str, object],
                                                               words: str) -> None:
    game = sample_game()
    before = savefile.dumps(game)
    with pytest.raises(Refusal) as caught:
        perform(game, name, choices)  # type: ignore[arg-type]
    assert message_of(caught.value).startswith(words)
    assert savefile.dumps(game) == before


@pytest.mark.parametrize(("choices", "words"), [
    ({**CORNERS, "px2": 1.0, "py2": 0.0}, "The two points on the picture are the same point"),
    ({**CORNERS, "x2": 72.0, "y2": 48.0}, "The two points are at the same place on the table"),
    ({**CORNERS, "px2": 900.0}, "Both points must be on the picture."),
    ({**CORNERS, "x1": "left"}, "A point's place on the table must be a number."),
    ({**CORNERS, "x2": 5000.0}, "A place on the table is within 1000\" of its corner."),
])
def test_a_degenerate_placement_is_refused_with_a_sentence(choices: dict[str, object], words: str) -> None:
    game = sample_game()
    act(game, "backdrop.set", {"image": PICTURE, "name": "table.png"})
    before = savefile.dumps(game)
    with pytest.raises(Refusal) as caught:
        perform(game, "backdrop.place", choices)  # type: ignore[arg-type]
    assert message_of(caught.value).startswith(words)
    assert savefile.dumps(game) == before


def test_opacity_and_showing_refuse_what_changes_nothing() -> None:
    game = sample_game()
    act(game, "backdrop.set", {"image": PICTURE, "name": "table.png"})
    for name, choices, words in [("backdrop.opacity", {"opacity": 0.6}, "The picture is at 60% already."),
                                 ("backdrop.opacity", {"opacity": 1.2},
                                  "The picture's opacity goes from 0% (unseen) to 100% (solid)."),
                                 ("backdrop.show", {"visible": True}, "The table picture is shown already."),
                                 ("backdrop.remove", {"all": True}, "Removing the table picture takes no choices.")]:
        with pytest.raises(Refusal) as caught:
            perform(game, name, choices)  # type: ignore[arg-type]
        assert message_of(caught.value) == words
