"""A refused batch of effects leaves the game exactly as it was, even where an inverse would not apply.

The cases are the ones a player met: a bombardment still listing as Pinned a
unit that is no longer in the game (End Phase), and an unstable building still
listing a removed occupant (End Turn). Releasing them works; putting them back
by the inverse needs the unit. Rollback restores a copy instead, so it cannot
be refused.
"""

from __future__ import annotations

import pytest

from battletracker.model import savefile
from battletracker.model.actions import Action
from battletracker.model.bombardment_effects import ChangeCocPoints
from battletracker.model.effects import AppendLog
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import Effect
from battletracker.model.effects import PopLog
from battletracker.model.effects import RemoveUnit
from battletracker.model.effects import SetClock
from battletracker.model.effects import SpendAmmo
from battletracker.model.effects import StarLogEntry
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.game import LogEntry
from battletracker.model.history import RecordAction
from battletracker.rules.clock import due_effects
from tests.model.test_bombardment_effects import game_with_units

REFUSED = SpendAmmo("u3", 0, 1)  # u3 carries no weapon


def _left_behind(unit_id: str) -> Game:
    """A game in which `unit_id` was taken off the table and a bombardment or building still names it."""
    game = game_with_units()
    game.apply(RemoveUnit(unit_id))
    return game


def _end(game: Game, turn_end: bool) -> list[Effect]:
    clock = SetClock(game.turn + 1, 1, 0) if turn_end else SetClock(game.turn, game.phase + 1, 1)
    return [*due_effects(game, turn_end, clock.active_side), clock,
            AppendLog(LogEntry("2026-11-30T12:00:00", game.turn, game.phase, "End of the Phase", "clock"))]


@pytest.mark.parametrize(("unit_id", "turn_end", "released"), [
    ("u1", False, "b1 pinned"),     # End Phase: the firing bombardment releases the removed unit
    ("u2", True, "bld1 occupant"),  # End Turn: the unstable farmhouse collapses with a removed occupant
])
def test_a_refused_end_of_phase_or_turn_leaves_the_saved_bytes_unchanged(unit_id: str, turn_end: bool,
                                                                          released: str) -> None:
    game = _left_behind(unit_id)
    before = savefile.dumps(game)
    with pytest.raises(GameError, match="has no weapon number 1"):
        game.apply_all([*_end(game, turn_end), REFUSED])
    assert savefile.dumps(game) == before
    assert unit_id in (game.bombardments["b1"].pinned if "b1" in released else game.buildings["bld1"].occupants)


@pytest.mark.parametrize("turn_end", [False, True])
def test_checking_an_end_of_phase_or_turn_leaves_the_game_as_it_was_and_then_it_applies(turn_end: bool) -> None:
    game = _left_behind("u1")
    game.apply(RemoveUnit("u2"))
    before = savefile.dumps(game)
    effects = _end(game, turn_end)
    game.check_all(effects)
    assert savefile.dumps(game) == before
    inverses = game.apply_all(effects)
    assert "u1" not in game.bombardments["b1"].pinned
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert savefile.dumps(game) == before


def test_a_refusal_puts_the_roster_back_in_order_and_the_units_into_the_same_objects() -> None:
    game = game_with_units()
    unit = game.units["u2"]
    before = savefile.dumps(game)
    with pytest.raises(GameError):
        game.apply_all([ChangeFigures("u2", -1), RemoveUnit("u1"), REFUSED])
    assert savefile.dumps(game) == before
    assert list(game.units) == ["u1", "u2", "u3"]
    assert game.units["u2"] is unit


def test_an_effect_that_does_not_say_what_it_touches_is_rolled_back_whole() -> None:
    class Scribble(Effect):
        def apply(self, game: Game) -> Effect:
            game.title = "scribbled"
            game.units["u1"].counters["shock"] = 9
            raise GameError("refused after scribbling")

    game = game_with_units()
    before = savefile.dumps(game)
    with pytest.raises(GameError, match="after scribbling"):
        game.apply_all([Scribble()])
    assert savefile.dumps(game) == before


def test_checking_or_refusing_keeps_every_record_the_same_object() -> None:
    """A panel holding a bombardment, building, marker or side keeps seeing the game's own record."""
    game = game_with_units()
    held = (game.bombardments["b1"], game.buildings["bld1"], game.smoke["smoke1"], game.sides[0], game.units["u1"])
    effects = [*_end(game, True), ChangeFigures("u1", -1), ChangeCocPoints(0, -1)]
    game.check_all(effects)
    with pytest.raises(GameError):
        game.apply_all([*effects, REFUSED])
    now = (game.bombardments["b1"], game.buildings["bld1"], game.smoke["smoke1"], game.sides[0], game.units["u1"])
    assert all(a is b for a, b in zip(held, now, strict=True))


def _log_line(text: str) -> AppendLog:
    return AppendLog(LogEntry("2026-12-02T12:00:00", 1, 1, text, "note"))


def test_a_refused_batch_puts_back_lines_added_and_taken_off_the_end_of_the_log() -> None:
    game = game_with_units()
    for n in range(5):
        game.apply(_log_line(f"line {n}"))
    game.apply(StarLogEntry(1, True))
    before_log, before_actions = list(game.log), list(game.actions)
    newest = game.log[-1]
    batch = [PopLog(newest), PopLog(game.log[-2]), _log_line("new"), RecordAction(Action("dice.pool", {}, (), "t")),
             REFUSED]
    with pytest.raises(GameError):
        game.apply_all(batch)
    assert game.log == before_log and game.actions == before_actions
    # A star changes a line in the middle: the whole log is kept for that batch
    with pytest.raises(GameError):
        game.apply_all([StarLogEntry(1, False), _log_line("after"), REFUSED])
    assert game.log == before_log and game.log[1].starred
