"""Which enemies a unit's card reaches, and in which band: the question the map asks the rules."""

from __future__ import annotations

from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Weapon
from battletracker.rules.targets import centre_to_centre
from battletracker.rules.targets import sighting
from battletracker.rules.targets import targets_of


def table(firer_weapons: list[Weapon]) -> Game:
    """A firer at (36, 10) facing down the table, and enemies placed round it, with one friend."""
    game = Game(title="Targets", sides=[Side("Germany", "#3b6fb6"), Side("United States", "#b5651d")])
    units = [
        Unit("f", "Firer", "support_weapon", 0, 36.0, 10.0, 180.0, weapons=firer_weapons),
        Unit("near", "Near", "section", 1, 36.0, 18.0, 0.0),     # 8" straight ahead
        Unit("far", "Far", "section", 1, 36.0, 30.0, 0.0),       # 20" straight ahead
        Unit("edge", "Edge", "section", 1, 46.0, 20.0, 0.0),     # exactly 45 degrees off, 14.1"
        Unit("side", "Side", "section", 1, 56.0, 12.0, 0.0),     # well outside a 45 degree arc
        Unit("gone", "Gone", "section", 1, 36.0, 47.0, 0.0),     # 37" ahead
        Unit("friend", "Friend", "section", 0, 36.0, 12.0, 0.0),
    ]
    game.units = {u.id: u for u in units}
    return game


def test_enemies_in_the_arc_and_range_are_targets_with_their_band() -> None:
    game = table([Weapon("Tripod MG42", kind="mg", arc=45.0, ranges=[24.0, 12.0])])
    assert targets_of(game, game.units["f"]) == {"near": 0, "edge": 1, "far": 1}


def test_a_card_without_bands_reaches_its_whole_arc_and_one_without_an_arc_all_round() -> None:
    arc_only = table([Weapon("Gun", kind="gun", arc=45.0)])
    assert targets_of(arc_only, arc_only.units["f"]) == {"near": None, "edge": None, "far": None, "gone": None}
    bands_only = table([Weapon("Rifles", ranges=[18.0, 36.0])])
    assert targets_of(bands_only, bands_only.units["f"]) == {"near": 0, "edge": 0, "far": 1, "side": 1}


def test_a_card_with_neither_arc_nor_bands_shows_no_targets() -> None:
    game = table([Weapon("Pistols")])
    assert targets_of(game, game.units["f"]) == {}


def test_a_sighting_says_distance_band_and_arc() -> None:
    game = table([Weapon("Tripod MG42", kind="mg", arc=45.0, ranges=[24.0])])
    firer = game.units["f"]
    far = sighting(firer, game.units["far"])
    assert (far.distance, far.band, far.reach, far.in_arc, far.in_range) == (20.0, 0, 24.0, True, True)
    gone = sighting(firer, game.units["gone"])
    assert (gone.band, gone.reach, gone.in_range, gone.in_reach) == (None, None, False, False)
    side = sighting(firer, game.units["side"])
    assert side.in_range and not side.in_arc and not side.in_reach


def test_units_are_apart_centre_to_centre_whichever_is_asked_first() -> None:
    game = table([])
    firer, edge = game.units["f"], game.units["edge"]
    assert centre_to_centre(firer, edge) == centre_to_centre(edge, firer) == sighting(firer, edge).distance
    assert round(centre_to_centre(firer, edge), 2) == 14.14
    assert centre_to_centre(firer, game.units["far"]) == 20.0
