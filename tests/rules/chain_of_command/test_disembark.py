"""Passengers cannot disembark in the bombardment: "No passengers can voluntarily disembark in any Phase of
movement in the Bombardment." (seed 000). A passenger is a unit whose `embarked_in` names its vehicle; an edit
that clears or changes it is refused while the vehicle is in an active high-explosive bombardment's area, naming
the bombardment. SOS Fire does not stop it: "Units can fire into, through or out of the area without penalty."
"""

from __future__ import annotations

import copy

import pytest

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.actions import Choices
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import perform
from battletracker.rules.edit_checks import check_edit
from battletracker.rules.edit_checks import edit_refusal
from battletracker.rules.tables import resources_dir

DEMO = resources_dir() / "demo" / "chain_of_command.json"
B = {"bombardment": "b1"}


def _act(game: Game, name: str, choices: Choices, dice: list[int] | None = None) -> None:
    game.apply_all(perform(game, name, choices, dice or []).effects)


def _table() -> Game:
    """The demo with a US lorry at (40, 30) carrying 1st Squad."""
    game = savefile.load(DEMO)
    game.units["lorry"] = Unit("lorry", "GMC lorry", "vehicle", 1, 40.0, 30.0, stats={"transport": True})
    game.units["u7"].stats["embarked_in"] = "lorry"
    return game


def _bombarded(game: Game, aim: tuple[float, float] = (40.0, 30.0)) -> None:
    """A German bombardment on target at `aim`."""
    _act(game, "coc.new_bombardment", {"side": 0, "kind": "high_explosive", "phases": 3, "x": aim[0], "y": aim[1],
                                       "observer_x": 30.0, "observer_y": 12.0})
    _act(game, "coc.command_dice", {}, [1, 2, 3, 4, 4])
    _act(game, "coc.ranging_shot", B, [4, 4])
    assert game.bombardments["b1"].active


def _disembarked(game: Game, unit_id: str = "u7") -> tuple[Unit, Unit]:
    old = game.units[unit_id]
    new = copy.deepcopy(old)
    del new.stats["embarked_in"]
    new.x, new.y = 41.0, 31.0
    return old, new


def test_a_passenger_cannot_disembark_from_a_vehicle_under_the_bombardment() -> None:
    game = _table()
    _bombarded(game)
    old, new = _disembarked(game)
    with pytest.raises(Refusal, match="1st Squad is under Germany's mortars, first barrage: passengers cannot "
                                      "disembark voluntarily"):
        check_edit(game, old, new)
    moved_to_other = copy.deepcopy(old)
    moved_to_other.stats["embarked_in"] = "u11"
    assert edit_refusal(game, old, moved_to_other) is not None


def test_other_edits_of_the_passenger_and_vehicles_outside_the_area_are_allowed() -> None:
    game = _table()
    _bombarded(game, (10.0, 45.0))
    old, new = _disembarked(game)
    assert edit_refusal(game, old, new) is None
    game = _table()
    _bombarded(game)
    renamed = copy.deepcopy(game.units["u7"])
    renamed.name = "1st Squad (dismounting next Phase)"
    assert edit_refusal(game, game.units["u7"], renamed) is None


def test_sos_fire_does_not_stop_passengers_disembarking() -> None:
    game = _table()
    _act(game, "coc.new_sos", {"side": 0, "x": 40.0, "y": 30.0})
    old, new = _disembarked(game)
    assert edit_refusal(game, old, new) is None


def test_only_chain_of_command_games_are_checked() -> None:
    game = _table()
    _bombarded(game)
    game.ruleset = "armour_battles"
    old, new = _disembarked(game)
    assert edit_refusal(game, old, new) is None
