"""A bombardment is named as a player calls it: the side's possessive, the support's kind in the ruleset's words
and which of the side's calls it is; the map, the docks, the log and the report all say the same name."""

from __future__ import annotations

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules.actions import Choices
from battletracker.rules.actions import perform
from battletracker.rules.chain_of_command.bombardment import observer_name
from battletracker.rules.log_lines import reads_as
from battletracker.rules.tables import resources_dir
from battletracker.rules.words import ordinal
from battletracker.rules.words import possessive


def demo() -> Game:
    return savefile.load(resources_dir() / "demo" / "chain_of_command.json")


def call(game: Game, name: str, choices: Choices) -> str:
    """Make the call and return the log line it wrote."""
    game.apply_all(perform(game, name, choices).effects)
    return game.log[-1].text


def mortars(side: int, kind: str = "high_explosive") -> Choices:
    return {"side": side, "kind": kind, "phases": 3, "x": 30.0, "y": 30.0, "observer_x": 30.0, "observer_y": 10.0}


def test_each_side_counts_its_own_calls_of_each_kind() -> None:
    game = demo()
    first = call(game, "coc.new_bombardment", mortars(0))
    call(game, "coc.new_bombardment", mortars(1))
    second = call(game, "coc.new_bombardment", mortars(0))
    smoke = call(game, "coc.new_bombardment", mortars(0, "smoke"))
    sos = call(game, "coc.new_sos", {"side": 1, "x": 22.0, "y": 38.0})
    sos_again = call(game, "coc.new_sos", {"side": 1, "x": 40.0, "y": 30.0})
    assert first.startswith("Germany's mortars, first barrage: Forward Observer placed")
    assert second.startswith("Germany's mortars, second barrage: ")
    assert smoke.startswith("Germany's mortars, first smoke barrage: ")
    assert sos.startswith("United States' SOS Fire: SOS Fire centred at 1st Squad")
    assert sos_again.startswith("United States' second SOS Fire: ")
    assert [observer_name(game, b) for b in game.bombardments.values()] == [
        "Germany's mortars, first barrage", "United States' mortars, first barrage",
        "Germany's mortars, second barrage", "Germany's mortars, first smoke barrage",
        "United States' SOS Fire", "United States' second SOS Fire"]


def test_a_name_stays_when_the_bombardment_is_over_and_later_ones_are_called() -> None:
    game = demo()
    call(game, "coc.new_bombardment", mortars(0))
    b1 = next(iter(game.bombardments.values()))
    b1.state = "cleared"
    call(game, "coc.new_bombardment", mortars(0))
    assert observer_name(game, b1) == "Germany's mortars, first barrage"
    assert observer_name(game, list(game.bombardments.values())[1]) == "Germany's mortars, second barrage"


def test_possessives_and_ordinals_read_as_said() -> None:
    assert [possessive(n) for n in ("Germany", "United States", "British", "French", "Japanese")] == [
        "Germany's", "United States'", "British", "French", "Japanese"]
    assert [ordinal(n) for n in (1, 2, 3, 10, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "first", "second", "third", "tenth", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"]


def test_a_saved_line_naming_a_bombardment_by_its_id_reads_as_its_name_and_nothing_else() -> None:
    assert reads_as("Germany bombardment b1: Static or Rolling die placed, hidden from the opponent",
                    "Germany's mortars, first barrage: Static or Rolling die placed, hidden from the opponent")
    assert reads_as("Next Phase: Germany bombardment b2 ranges again with +1",
                    "Next Phase: Germany's mortars, second barrage ranges again with +1")
    assert reads_as("United States SOS Fire sos1: SOS Fire on (22.0, 38.0), 6\" radius",
                    "United States' SOS Fire: SOS Fire centred at 1st Squad, 6\" radius")
    assert not reads_as("Germany bombardment b1: Static or Rolling die placed, hidden from the opponent",
                        "United States' mortars, first barrage: Static or Rolling die placed, hidden from the opponent")
    assert not reads_as("Next Phase: Germany bombardment b2 ranges again with +1",
                        "Next Phase: Germany's mortars, second barrage ranges again")
