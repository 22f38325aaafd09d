"""The game the table display is given holds none of the rules' secrets, and changes nothing of the game."""

from __future__ import annotations

from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment import Building
from battletracker.model.game import Game
from battletracker.model.game import LogEntry
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.rules.table_display import public_game
from battletracker.rules.table_display import secret_units


def battle() -> Game:
    game = Game(ruleset="chain_of_command", sides=[Side("Blue", "#3b6fb6"), Side("Red", "#b5651d")])
    for unit in (Unit(id="u1", name="1st Section", kind="section", side=0, x=10.0, y=10.0),
                 Unit(id="u2", name="Sniper", kind="sniper", side=1, x=40.0, y=20.0),
                 Unit(id="u3", name="Spotted sniper", kind="sniper", side=1, x=50.0, y=20.0,
                      conditions=["spotted"])):
        game.units[unit.id] = unit
    game.buildings["h1"] = Building("h1", "Farmhouse", 40.0, 20.0, occupants=["u2", "u1"])
    game.bombardments["b1"] = Bombardment("b1", 0, state="firing", x=30.0, y=30.0, pattern_die=5,
                                          direction="left", moves_left=2)
    game.bombardments["b2"] = Bombardment("b2", 1, state="firing", x=60.0, y=30.0, pattern_die=6,
                                          direction="up", moves_left=1, revealed=True)
    return game


def test_an_unspotted_sniper_is_not_in_the_public_game_and_a_spotted_one_is() -> None:
    game = battle()
    shown = public_game(game)
    assert secret_units(game) == {"u2"}
    assert set(shown.units) == {"u1", "u3"}
    assert shown.buildings["h1"].occupants == ["u1"]
    assert set(game.units) == {"u1", "u2", "u3"} and game.buildings["h1"].occupants == ["u2", "u1"]


def test_the_hidden_die_stays_hidden_until_revealed() -> None:
    game = battle()
    shown = public_game(game)
    hidden, revealed = shown.bombardments["b1"], shown.bombardments["b2"]
    assert (hidden.pattern_die, hidden.direction, hidden.moves_left) == (None, None, 0)
    assert (revealed.pattern_die, revealed.direction, revealed.moves_left) == (6, "up", 1)
    assert game.bombardments["b1"].pattern_die == 5 and game.bombardments["b1"].direction == "left"


def test_other_rulesets_have_no_snipers_to_hide() -> None:
    game = battle()
    game.ruleset = "armour_battles"
    assert secret_units(game) == frozenset()
    assert set(public_game(game).units) == {"u1", "u2", "u3"}


def test_log_lines_naming_an_unspotted_sniper_stay_off_the_display() -> None:
    game = battle()
    game.log = [LogEntry("t", 1, 1, "Sniper moved 5.0\" to the farmhouse"),
                LogEntry("t", 1, 1, "1st Section fires at Spotted sniper")]
    assert [e.text for e in public_game(game).log] == ["1st Section fires at Spotted sniper"]
    assert len(game.log) == 2


def test_a_game_with_no_secret_is_shown_as_it_is() -> None:
    game = battle()
    del game.units["u2"]
    game.buildings["h1"].occupants.remove("u2")
    game.bombardments["b1"].revealed = True
    assert public_game(game) is game
