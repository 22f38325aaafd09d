"""Copies of a table as it changes (the battle report's pictures) stay as the table was when each was taken,
while sharing with the copy before them what nothing changed since."""

from __future__ import annotations

from dataclasses import replace

from battletracker.model.effects import AddUnit
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import Effect
from battletracker.model.effects import MoveUnit
from battletracker.model.effects import PlaceMarker
from battletracker.model.effects import RemoveUnit
from battletracker.model.effects import SetClock
from battletracker.model.game import Game
from battletracker.model.game import TableCopies
from battletracker.model.game import table_copy
from tests.model.sample import sample_game

STEPS: list[list[Effect]] = [
    [ChangeCounter("u1", "shock", 1)],
    [MoveUnit("u2", 31.0, 9.0, 90.0), SetClock(2, 4, 0)],
    [RemoveUnit("u3")],
    [PlaceMarker(replace(sample_game().markers["m2"], x=35.0))],
    [AddUnit(replace(sample_game().units["u3"], id="u9", name="Second flamethrower"), 0)],
    [ChangeCounter("u9", "shock", 2), ChangeCounter("u1", "shock", 1)],
]


def played() -> tuple[Game, list[Game], list[Game]]:
    """The sample game through STEPS, with TableCopies' copy and a whole table_copy after each step."""
    game = sample_game()
    copies = TableCopies(table_copy(game))
    shared: list[Game] = []
    whole: list[Game] = []
    for effects in STEPS:
        game.apply_all(effects)
        copies.wrote([e.writes for e in effects])
        shared.append(copies.copy(game))
        whole.append(table_copy(game))
    return game, shared, whole


def test_each_copy_is_the_table_as_it_was_when_it_was_taken_however_it_changed_afterwards() -> None:
    game, shared, whole = played()
    assert shared == whole
    assert [list(c.units) for c in shared][-1] == list(game.units), "the roster keeps its order"
    assert shared[0].units["u1"].shock == 3 and shared[-1].units["u1"].shock == 4, "2 Shock, then 1 and 1 more"
    assert "u3" in shared[1].units and "u3" not in shared[2].units


def test_a_copy_shares_with_the_one_before_it_only_what_nothing_wrote_in_between() -> None:
    _game, shared, _whole = played()
    first, moved = shared[0], shared[1]
    assert moved.units["u1"] is first.units["u1"], "nothing wrote 1 Section between the two"
    assert moved.units["u2"] is not first.units["u2"]
    assert moved.markers is first.markers and shared[3].markers is not moved.markers
    assert shared[-1].units["u1"] is not shared[-2].units["u1"]


def test_a_copy_has_no_history_and_the_log_as_it_stood() -> None:
    game = sample_game()
    copies = TableCopies(table_copy(game))
    copy = copies.copy(game)
    assert copy.actions == [] and copy.start is None
    assert copy.log == game.log and copy.log is not game.log
