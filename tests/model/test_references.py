"""Removing a unit clears every reference to it in the same step; undoing puts every one back."""

from __future__ import annotations

from battletracker.model import savefile
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import RemoveUnit
from battletracker.model.game import Game
from battletracker.model.references import references_to
from battletracker.model.references import remove_unit
from battletracker.model.references import with_references_cleared
from tests.model.test_exact_undo import full_game


def _game() -> Game:
    game = full_game()
    game.bombardments["b1"].pinned = ["u1", "u2"]
    game.bombardments["sos1"].pinned = ["ghost", "u2"]
    game.buildings["bld1"].occupants = ["u2"]
    game.units["u1"].stats = {"quality": "regular", "embarked_in": "u2", "teams": 2}
    game.units["u3"].stats = {"embarked_in": "u2"}
    game.units["u2"].stats = {"embarked_in": "u4"}
    game.markers["m1"].data = {"phase": "ranging", "target_id": "u2", "note": "u2"}
    return game


def test_removing_a_unit_clears_its_pins_occupancy_passengers_and_marker_data() -> None:
    game = _game()
    game.apply_all(remove_unit(game, "u2"))
    assert "u2" not in game.units
    assert game.bombardments["b1"].pinned == ["u1"]
    assert game.bombardments["sos1"].pinned == ["ghost"]
    assert game.buildings["bld1"].occupants == []
    assert game.units["u1"].stats == {"quality": "regular", "teams": 2}
    assert game.units["u3"].stats == {}
    assert game.markers["m1"].data == {"phase": "ranging", "note": "u2"}


def test_undoing_the_removal_gives_back_the_same_file() -> None:
    game = _game()
    before = savefile.dumps(game)
    inverses = game.apply_all(remove_unit(game, "u2"))
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert savefile.dumps(game) == before


def test_a_unit_nothing_refers_to_leaves_alone() -> None:
    game = _game()
    assert references_to(game, "u5") == []
    assert remove_unit(game, "u5") == [RemoveUnit("u5")]


def test_a_procedure_removing_a_unit_has_the_references_cleared_just_before() -> None:
    game = _game()
    effects = with_references_cleared(game, [ChangeCounter("u1", "shock", 1), RemoveUnit("u2")])
    assert effects[0] == ChangeCounter("u1", "shock", 1)
    assert effects[1:] == remove_unit(game, "u2")
