"""A spot on the table is said by what is there, or by distance and direction from a unit, terrain or the edges."""

from __future__ import annotations

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules.log_lines import reads_as
from battletracker.rules.places import compass
from battletracker.rules.places import place_words
from battletracker.rules.tables import resources_dir


def demo() -> Game:
    return savefile.load(resources_dir() / "demo" / "chain_of_command.json")


def test_a_spot_is_said_by_its_terrain_the_nearest_unit_or_the_edges() -> None:
    game = demo()
    assert place_words(game, (20.0, 10.0)) == "in the Wheat field"
    assert place_words(game, (26.0, 42.0)) == '4.1" west of Lt. Hayes'
    assert place_words(game, (22.0, 38.2)) == "at 1st Squad"
    assert place_words(game, (30.0, 43.0), besides="u10") == '8.9" south-west of 2nd Squad'
    assert place_words(game, (70.0, 47.0)) == '1" from the south edge, 2" from the east edge'


def test_terrain_is_said_when_no_unit_is_near() -> None:
    game = demo()
    for unit in game.units.values():
        unit.x, unit.y = 70.0, 2.0
    assert place_words(game, (20.0, 40.0)) == '2.8" from the Hedge'


def test_bearings_read_as_the_nearest_compass_point() -> None:
    assert [compass(b) for b in (0, 22, 23, 90, 180, 225, 315, 359, 360)] == [
        "north", "north", "north-east", "east", "south", "south-west", "north-west", "north", "north"]


def test_a_saved_place_in_coordinates_reads_as_the_same_line_in_words_only() -> None:
    assert reads_as("Germany bombardment b1: Re-aimed at (26.0, 36.5): ranging begins again",
                    "Germany's mortars, first barrage: Re-aimed 4.3\" east of 1st Squad: ranging begins again")
    assert reads_as('Deviates 6" on a bearing of 90 degrees: lands at (30.2", 38")',
                    'Deviates 6" east of the aiming point (a bearing of 90 degrees)')
    assert reads_as('Rolling: moves 6" right to (34.8, 33.7)', 'Rolling: moves 6" right')
    assert not reads_as("Germany bombardment b1: Re-aimed at (26.0, 36.5): ranging begins again",
                        "Germany's mortars, first barrage: Re-aimed 4.3\" east of 1st Squad")
    assert not reads_as('Deviates 6" on a bearing of 90 degrees: lands at (30.2", 38")',
                        'Deviates 5" east of the aiming point (a bearing of 90 degrees)')
