"""Effects on bombardments, buildings and smoke: exact inverses, refusals that change nothing."""

from __future__ import annotations

import copy

import pytest

from battletracker.model import savefile
from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment import BombardmentEvent
from battletracker.model.bombardment import Building
from battletracker.model.bombardment import SmokeArea
from battletracker.model.bombardment_effects import AddBombardment
from battletracker.model.bombardment_effects import AddBuilding
from battletracker.model.bombardment_effects import AddSmoke
from battletracker.model.bombardment_effects import AppendBombardmentEvent
from battletracker.model.bombardment_effects import ChangeCocPoints
from battletracker.model.bombardment_effects import PopBombardmentEvent
from battletracker.model.bombardment_effects import RemoveBombardment
from battletracker.model.bombardment_effects import RemoveBuilding
from battletracker.model.bombardment_effects import RemoveSmoke
from battletracker.model.bombardment_effects import ReplaceBuilding
from battletracker.model.bombardment_effects import SetBombardmentPin
from battletracker.model.bombardment_effects import SetBuildingState
from battletracker.model.bombardment_effects import SetOccupant
from battletracker.model.bombardment_effects import UpdateBombardment
from battletracker.model.effects import Changes
from battletracker.model.effects import Effect
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.game import Side
from battletracker.model.game import Unit
from tests.model.test_bombardment_model import bombardment_game


def game_with_units() -> Game:
    game = bombardment_game()
    for uid, x in (("u1", 20.0), ("u2", 36.0), ("u3", 50.0)):
        game.units[uid] = Unit(uid, f"Section {uid}", "section", 1, x, 20.0, figures=5, figures_max=8)
    return game


EVENT = BombardmentEvent(2, 1, "fire", "Phase of fire 3", 38.0, 20.0, 38.0, 20.0, {"kills": 1})

EFFECTS: list[Effect] = [
    AddBombardment(Bombardment("b9", 1, x=1.0, y=2.0, phases_left=2)),
    AddBombardment(Bombardment("b9", 1, x=1.0, y=2.0, phases_left=2), index=0),
    RemoveBombardment("sos1"),
    UpdateBombardment("b1", (("state", "lingering"), ("linger_phases", 2), ("observer_id", ""))),
    UpdateBombardment("b1", (("x", 38), ("y", 20), ("moves_left", 0), ("revealed", True))),
    UpdateBombardment("b2", (("state", "ranging"), ("landed_x", None), ("landed_y", None))),
    AppendBombardmentEvent("b1", EVENT),
    SetBombardmentPin("b1", "u3"),
    SetBombardmentPin("b1", "u1", False),
    ChangeCocPoints(0, -2),
    ChangeCocPoints(1, 3),
    AddBuilding(Building("bld9", "Church", 50.0, 30.0, 8.0, 12.0, 0.0, "brick_stone", 3, ["u3"])),
    RemoveBuilding("bld1"),
    ReplaceBuilding(Building("bld2", "Barn", 11.0, 10.0, 5.0, 5.0, 15.0, "wood", 1, ["u1"], "on_fire")),
    SetBuildingState("bld2", "on_fire"),
    SetBuildingState("bld1", "collapsed"),
    SetOccupant("bld2", "u3"),
    SetOccupant("bld1", "u2", False),
    AddSmoke(SmokeArea("smoke2", 1.0, 1.0, 2.0, 2.0)),
    RemoveSmoke("smoke1"),
]


@pytest.mark.parametrize("effect", EFFECTS, ids=lambda e: type(e).__name__)
def test_each_effect_applies_and_its_inverse_restores_the_exact_game(effect: Effect) -> None:
    game = game_with_units()
    before = savefile.dumps(game)
    inverse = game.apply(effect)
    assert savefile.dumps(game) != before
    again = game.apply(inverse)
    assert savefile.dumps(game) == before
    assert game == game_with_units()
    game.apply(again)
    redone = game_with_units()
    redone.apply(effect)
    assert game == redone


def test_update_bombardment_changes_only_the_fields_named_and_checks_them_together() -> None:
    game = game_with_units()
    game.apply(UpdateBombardment("b1", (("x", 38), ("moves_left", 0))))
    b = game.bombardments["b1"]
    assert (b.x, b.y, b.moves_left, b.phases_left) == (38.0, 30.0, 0, 3)
    assert isinstance(b.x, float)


def test_pinning_a_unit_twice_or_releasing_one_not_held_changes_nothing() -> None:
    game = game_with_units()
    before = savefile.dumps(game)
    for effect in (SetBombardmentPin("b1", "u1"), SetBombardmentPin("b1", "u3", False), SetOccupant("bld1", "u2"),
                   SetBuildingState("bld1", "unstable")):
        inverse = game.apply(effect)
        assert savefile.dumps(game) == before
        game.apply(inverse)
        assert savefile.dumps(game) == before


def test_removing_and_adding_back_keeps_the_order() -> None:
    game = game_with_units()
    inverse = game.apply(RemoveBombardment("sos1"))
    game.apply(inverse)
    assert list(game.bombardments) == ["b1", "sos1", "b2"]
    inverse = game.apply(RemoveBuilding("bld1"))
    game.apply(inverse)
    assert list(game.buildings) == ["bld1", "bld2"]


def test_stored_records_are_copies_not_the_effects_own_objects() -> None:
    game = game_with_units()
    b = Bombardment("b9", 0, phases_left=1)
    game.apply(AddBombardment(b))
    b.pinned.append("u1")
    assert game.bombardments["b9"].pinned == []


@pytest.mark.parametrize(("effect", "message"), [
    (AddBombardment(Bombardment("b1", 0)), "a bombardment with id 'b1' is already in the game"),
    (AddBombardment(Bombardment("b9", 4)), "no side number 5"),
    (AddBombardment(Bombardment("b9", 0, state="firing")), "needs Phases left on its die"),
    (RemoveBombardment("nope"), "no bombardment with id 'nope'"),
    (UpdateBombardment("b1", (("colour", "red"),)), "a bombardment has no field 'colour'"),
    (UpdateBombardment("b1", (("id", "b7"),)), "cannot be set this way: a bombardment keeps its id"),
    (UpdateBombardment("b1", (("pinned", []),)), "use SetBombardmentPin"),
    (UpdateBombardment("b1", (("history", []),)), "use AppendBombardmentEvent"),
    (UpdateBombardment("b1", (("x", 1.0), ("x", 2.0))), "sets the same field twice"),
    (UpdateBombardment("b1", (("state", "exploded"),)), "state: must be one of ranging"),
    (UpdateBombardment("b1", (("phases_left", 0),)), "needs Phases left on its die"),
    (UpdateBombardment("b1", (("side", 3),)), "no side number 4"),
    (UpdateBombardment("b1", (("x", float("nan")),)), "x: must be a number"),
    (AppendBombardmentEvent("b1", BombardmentEvent(0, 1, "fire", "x")), "turn: must be at least 1, not 0"),
    (AppendBombardmentEvent("b1", BombardmentEvent(1, 1, "dance", "x")), "kind: must be one of placed"),
    (PopBombardmentEvent("b1", EVENT), "newest history line of bombardment 'b1' is not the one to remove"),
    (SetBombardmentPin("b1", "ghost"), "no unit with id 'ghost'"),
    (ChangeCocPoints(1, -2), "German has 1 Chain of Command die; cannot spend 2"),
    (ChangeCocPoints(5, 1), "no side number 6"),
    (AddBuilding(Building("bld1", "Again", 1.0, 1.0)), "a building with id 'bld1' is already in the game"),
    (AddBuilding(Building("bld9", "Hut", 1.0, 1.0, occupants=["ghost"])), "no unit with id 'ghost'"),
    (AddBuilding(Building("bld9", "Hut", 1.0, 1.0, storeys=0)), "storeys: must be at least 1, not 0"),
    (AddBuilding(Building("bld9", "Hut", 1.0, 1.0, material="straw")), "material: must be one of wood"),
    (RemoveBuilding("nope"), "no building with id 'nope'"),
    (ReplaceBuilding(Building("nope", "Hut", 1.0, 1.0)), "no building with id 'nope'"),
    (ReplaceBuilding(Building("bld1", "Hut", 1.0, 1.0, occupants=["ghost"])), "no unit with id 'ghost'"),
    (SetBuildingState("bld1", "haunted"), "state: must be one of intact"),
    (SetOccupant("bld1", "ghost"), "no unit with id 'ghost'"),
    (SetOccupant("nope", "u1"), "no building with id 'nope'"),
    (AddSmoke(SmokeArea("smoke1", 1.0, 1.0, 1.0, 1.0)), "smoke with id 'smoke1' is already on the table"),
    (AddSmoke(SmokeArea("smoke9", 1.0, 1.0, 0.0, 1.0)), "width and depth must be more than 0"),
    (RemoveSmoke("nope"), "no smoke with id 'nope'"),
])
def test_refused_effects_change_nothing_and_say_why(effect: Effect, message: str) -> None:
    game = game_with_units()
    before = copy.deepcopy(game)
    with pytest.raises(GameError, match=message):
        game.apply(effect)
    assert game == before


def test_touches_name_the_bombardment_and_building_layers() -> None:
    assert UpdateBombardment("b1", ()).touches == Changes(bombardments=True)
    assert SetBombardmentPin("b1", "u1").touches == Changes(units=frozenset({"u1"}), bombardments=True)
    assert SetBuildingState("bld1", "unstable").touches == Changes(buildings=True)
    assert AddSmoke(SmokeArea("s", 0.0, 0.0, 1.0, 1.0)).touches == Changes(buildings=True)
    assert SetOccupant("bld1", "u1").touches == Changes(units=frozenset({"u1"}), buildings=True)
    assert ChangeCocPoints(0, -1).touches == Changes(sides=True)
    combined = Changes(bombardments=True) | Changes(buildings=True)
    assert combined.bombardments and combined.buildings


def test_apply_all_rolls_back_bombardment_effects_on_a_refusal() -> None:
    game = game_with_units()
    before = savefile.dumps(game)
    with pytest.raises(GameError):
        game.apply_all([UpdateBombardment("b1", (("phases_left", 1),)), SetBombardmentPin("b1", "u3"),
                        ChangeCocPoints(0, -1), SetBuildingState("bld1", "haunted")])
    assert savefile.dumps(game) == before


def test_a_side_with_no_points_cannot_spend_one() -> None:
    game = Game(sides=[Side("A", "#000000", 10, 0)])
    with pytest.raises(GameError, match="A has 0 Chain of Command dice"):
        game.apply(ChangeCocPoints(0, -1))
