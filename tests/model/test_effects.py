"""Effects: each one's inverse restores the game exactly; refusals change nothing."""

from __future__ import annotations

import copy
import dataclasses
import math

import pytest

from battletracker.model import savefile
from battletracker.model.effects import AddUnit
from battletracker.model.effects import AppendLog
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import Changes
from battletracker.model.effects import ChangeSide
from battletracker.model.effects import Effect
from battletracker.model.effects import MoveUnit
from battletracker.model.effects import PlaceMarker
from battletracker.model.effects import PopLog
from battletracker.model.effects import RemoveMarker
from battletracker.model.effects import RemoveUnit
from battletracker.model.effects import ReplaceUnit
from battletracker.model.effects import SetClock
from battletracker.model.effects import SetCondition
from battletracker.model.effects import SetDamage
from battletracker.model.effects import SetMarkerData
from battletracker.model.effects import SetProfileState
from battletracker.model.effects import SetSetting
from battletracker.model.effects import SpendAmmo
from battletracker.model.effects import TurnUnit
from battletracker.model.effects import add_shock
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.game import LogEntry
from battletracker.model.game import Marker
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.model.game import Weapon
from battletracker.model.savefile import game_to_dict
from tests.model.sample import sample_game

NEW_UNIT = Unit("u9", "2 Section", "section", 0, 3.0, 44.0, 90.0, figures=9, figures_max=10)


def _edited_u4() -> Unit:
    unit = copy.deepcopy(sample_game().units["u4"])
    unit.name = "Panzer IV H (Kurt)"
    unit.vehicle = Vehicle("afv", {"front": 5, "side": 3, "rear": 2, "top": 1}, True, [])
    return unit


ACCEPTED: list[tuple[str, Effect]] = [
    ("shock up", add_shock("u1", 3)),
    ("shock down to zero", add_shock("u1", -2)),
    ("a counter the unit did not have", ChangeCounter("u1", "suppression", 2)),
    ("a zero change to a new counter", ChangeCounter("u3", "disruption", 0)),
    ("existing zero counter", ChangeCounter("u2", "shock", 4)),
    ("figures lost", ChangeFigures("u1", -3)),
    ("figures back to full", ChangeFigures("u1", 2)),
    ("ammo spent", SpendAmmo("u2", 0, 2)),
    ("ammo given back", SpendAmmo("u2", 0, -4)),
    ("last fuel", SpendAmmo("u3", 0, 3)),
    ("condition added", SetCondition("u1", "broken")),
    ("condition removed", SetCondition("u1", "pinned", False)),
    ("condition already there", SetCondition("u1", "pinned", True)),
    ("condition not there removed", SetCondition("u2", "pinned", False)),
    ("damage added", SetDamage("u4", "immobilised")),
    ("damage repaired", SetDamage("u4", "engine_damage", False)),
    ("profile out of ammo", SetProfileState("u5", 0, 0, "out_of_ammo")),
    ("profile fixed", SetProfileState("u5", 0, 1, "ok")),
    ("move and turn", MoveUnit("u1", 20.0, 30.5, 45.0)),
    ("move and turn past north", MoveUnit("u1", 20.0, 30.5, -90.0)),
    ("move by a hair's breadth below north", MoveUnit("u2", 1.0, 1.0, -1e-20)),
    ("new unit last", AddUnit(NEW_UNIT)),
    ("new unit first", AddUnit(NEW_UNIT, 0)),
    ("new unit in the middle", AddUnit(NEW_UNIT, 2)),
    ("unit removed", RemoveUnit("u3")),
    ("first unit removed", RemoveUnit("u1")),
    ("unit edited", ReplaceUnit(_edited_u4())),
    ("marker placed", PlaceMarker(Marker("m3", "burst", 41.0, 21.0, 2.0, "Burst"))),
    ("marker moved", PlaceMarker(Marker("m1", "aiming_point", 44.0, 20.0, 2.0, "Ranging", 0, {"phase": "on"}))),
    ("last marker removed", RemoveMarker("m2")),
    ("first marker removed", RemoveMarker("m1")),
    ("marker placed in the middle", PlaceMarker(Marker("m3", "smoke", 1.0, 2.0), 1)),
    ("marker data set", SetMarkerData("m1", "phase", "adjusting")),
    ("marker data added", SetMarkerData("m2", "burning", True)),
    ("marker data removed", SetMarkerData("m1", "phase", None)),
    ("turned", TurnUnit("u2", 135.0)),
    ("turned past north", TurnUnit("u2", 370.0)),
    ("log appended", AppendLog(LogEntry("2026-05-01T11:00:00", 2, 3, "Pinned!", "effect"))),
    ("log popped", PopLog(LogEntry("2026-05-01T10:05:00", 2, 3, "Rolled 3D6 needing 4+: 6 4 1 -> 2 successes",
                                   "roll"))),
    ("clock", SetClock(3, 1, 0)),
    ("side", ChangeSide(0, Side("British", "#3366cc", 7, 3))),
    ("setting changed", SetSetting("storm_of_steel_per_six", 3)),
    ("setting added", SetSetting("storm_of_steel_chains", True)),
    ("setting removed", SetSetting("storm_of_steel_per_six", None)),
    ("setting not there removed", SetSetting("nothing", None)),
]


@pytest.mark.parametrize(("what", "effect"), ACCEPTED, ids=[w for w, _ in ACCEPTED])
def test_apply_then_inverse_restores_the_game_exactly(what: str, effect: Effect) -> None:
    game = sample_game()
    before = game_to_dict(game)
    inverse = game.apply(effect)
    after = game_to_dict(game)
    inverse_of_inverse = game.apply(inverse)
    assert game_to_dict(game) == before, what
    # Redo gives the same state again, and its inverse undoes again.
    again = game.apply(inverse_of_inverse)
    assert game_to_dict(game) == after, what
    game.apply(again)
    assert game_to_dict(game) == before, what


@pytest.mark.parametrize(("what", "effect"), ACCEPTED, ids=[w for w, _ in ACCEPTED])
def test_whatever_an_effect_makes_saves_and_loads_back_exactly(what: str, effect: Effect) -> None:
    game = sample_game()
    game.apply(effect)
    assert game_to_dict(savefile.loads(savefile.dumps(game))) == game_to_dict(game), what


REFUSED: list[tuple[Effect, str]] = [
    (add_shock("nobody", 1), "no unit with id 'nobody'"),
    (add_shock("u1", -3), "1 Section has 2 shock; cannot remove 3"),
    (ChangeCounter("u2", "suppression", -2), "MG 42 tripod has 1 suppression; cannot remove 2"),
    (ChangeFigures("u1", -9), "1 Section has 8 figures; cannot lose 9"),
    (ChangeFigures("u1", 3), "1 Section cannot have more than 10 figures"),
    (SpendAmmo("u1", 0), "1 Section's Bren has unlimited ammunition"),
    (SpendAmmo("u1", 1), "1 Section has no weapon number 2"),
    (SpendAmmo("u1", -1), "1 Section has no weapon number 0"),
    (SpendAmmo("u2", 0, 7), "MG 42 tripod's MG 42 has no rounds left"),
    (SpendAmmo("u3", 0, 4), "Flamethrower's Flammenwerfer has no fuel left"),
    (SpendAmmo("u2", 0, -5), "MG 42 tripod's MG 42 holds at most 10 rounds"),
    (SetCondition("u1", ""), "a condition needs a name"),
    (SetDamage("u1", "immobilised"), "1 Section is not a vehicle"),
    (SetProfileState("u5", 0, 2, "ok"), "Autogun has no profile number 3"),
    (SetProfileState("u5", 0, 0, "melted"), "'melted' is not a profile state"),
    (MoveUnit("u1", math.nan, 3.0, 0.0), "nan is not a position on the table"),
    (MoveUnit("u1", 3.0, math.inf, 0.0), "inf is not a position on the table"),
    (MoveUnit("u1", 3.0, 3.0, -math.inf), "-inf is not a position on the table"),
    (AddUnit(dataclasses.replace(NEW_UNIT, id="u1")), "a unit with id 'u1' is already in the game"),
    (AddUnit(dataclasses.replace(NEW_UNIT, side=2)), "no side number 3"),
    (AddUnit(dataclasses.replace(NEW_UNIT, x=math.nan)), "nan is not a position on the table"),
    (AddUnit(dataclasses.replace(NEW_UNIT, counters={"shock": -1})), "shock: must be at least 0, not -1"),
    (AddUnit(dataclasses.replace(NEW_UNIT, kind="tank")), "kind: must be one of team, section"),
    (AddUnit(dataclasses.replace(NEW_UNIT, figures=11)), "figures: 11 is more than the unit's 10"),
    (AddUnit(dataclasses.replace(NEW_UNIT, id="")), "id: must not be empty"),
    (AddUnit(dataclasses.replace(NEW_UNIT, weapons=[Weapon("Bren", ammo=-1)])), "ammo: must be at least 0, not -1"),
    (AddUnit(dataclasses.replace(NEW_UNIT, weapons=[Weapon("Bren", ammo=5, ammo_max=3)])),
     "ammo: 5 is more than the maximum of 3"),
    (AddUnit(dataclasses.replace(NEW_UNIT, stats={"pace": math.nan})), "pace: must be text, a number or true/false"),
    (RemoveUnit("u7"), "no unit with id 'u7'"),
    (ReplaceUnit(dataclasses.replace(NEW_UNIT, id="u7")), "no unit with id 'u7'"),
    (ReplaceUnit(dataclasses.replace(sample_game().units["u1"], side=5)), "no side number 6"),
    (ReplaceUnit(dataclasses.replace(sample_game().units["u1"], counters={"shock": -2})),
     "shock: must be at least 0, not -2"),
    (PlaceMarker(Marker("m3", "burst", 1.0, 1.0, -2.0)), "a marker radius cannot be negative"),
    (PlaceMarker(Marker("m3", "burst", math.nan, 1.0)), "nan is not a position on the table"),
    (PlaceMarker(Marker("m3", "burst", 1.0, 1.0, side=2)), "no side number 3"),
    (PlaceMarker(Marker("m3", "burst", 1.0, 1.0, data={"d": math.inf})), "d: must be text, a number or true/false"),
    (RemoveMarker("m9"), "no marker with id 'm9'"),
    (SetMarkerData("m9", "phase", 1), "no marker with id 'm9'"),
    (SetMarkerData("m1", "", 1), "marker data needs a name"),
    (SetMarkerData("m1", "phase", math.nan), "phase: must be text, a number or true/false"),
    (TurnUnit("u2", math.nan), "nan is not a position on the table"),
    (TurnUnit("u8", 0.0), "no unit with id 'u8'"),
    (AppendLog(LogEntry("t", 1, 1, "")), "a log entry needs text"),
    (AppendLog(LogEntry("t", 0, 1, "x")), "turn: must be at least 1, not 0"),
    (PopLog(LogEntry("t", 1, 1, "not the newest")), "the newest log entry is not the one to remove"),
    (SetClock(0, 1, 0), "turns and phases count from 1"),
    (SetClock(1, 0, 0), "turns and phases count from 1"),
    (SetClock(1, 1, 2), "no side number 3"),
    (ChangeSide(2, Side("Italians", "#00ff00")), "no side number 3"),
    (ChangeSide(0, Side("British", "#3366cc", -1)), "cannot be negative"),
    (ChangeSide(0, Side("British", "#3366cc", 9, -1)), "cannot be negative"),
    (ChangeSide(0, Side("British", "blue")), "colour: must be a colour like #3366cc, not 'blue'"),
    (SetSetting("", 1), "a setting needs a name"),
    (SetSetting("x", math.nan), "must be text, a number or true/false"),
]


@pytest.mark.parametrize(("effect", "message"), REFUSED, ids=[m for _, m in REFUSED])
def test_refused_effects_change_nothing_and_say_why(effect: Effect, message: str) -> None:
    game = sample_game()
    before = game_to_dict(game)
    with pytest.raises(GameError) as caught:
        game.apply(effect)
    assert message in str(caught.value)
    assert game_to_dict(game) == before


def test_popping_an_empty_log_is_refused() -> None:
    game = Game(sides=[Side("A", "#000000")])
    with pytest.raises(GameError, match="newest log entry"):
        game.apply(PopLog(LogEntry("t", 1, 1, "x")))


def test_undoing_a_change_that_created_a_counter_removes_it() -> None:
    game = sample_game()
    inverse = game.apply(ChangeCounter("u1", "suppression", 2))
    assert inverse == ChangeCounter("u1", "suppression", -2, remove_at_zero=True)
    assert game.units["u1"].counters == {"shock": 2, "suppression": 2}
    redo = game.apply(inverse)
    assert game.units["u1"].counters == {"shock": 2}
    assert redo == ChangeCounter("u1", "suppression", 2)
    # A counter that was there at zero stays there at zero.
    inverse = game.apply(ChangeCounter("u2", "shock", 1))
    game.apply(inverse)
    assert game.units["u2"].counters == {"shock": 0, "suppression": 1}


def test_removed_markers_come_back_in_their_place() -> None:
    game = sample_game()
    inverse = game.apply(RemoveMarker("m1"))
    assert inverse == PlaceMarker(sample_game().markers["m1"], 0)
    game.apply(inverse)
    assert list(game.markers) == ["m1", "m2"]


def test_added_units_are_copies_the_caller_cannot_change_afterwards() -> None:
    game = sample_game()
    unit = copy.deepcopy(NEW_UNIT)
    game.apply(AddUnit(unit))
    unit.counters["shock"] = 99
    assert game.units["u9"].shock == 0


def test_add_unit_keeps_roster_order() -> None:
    game = sample_game()
    game.apply(AddUnit(NEW_UNIT, 1))
    assert list(game.units) == ["u1", "u9", "u2", "u3", "u4", "u5"]
    inverse = game.apply(RemoveUnit("u3"))
    assert inverse == AddUnit(sample_game().units["u3"], 3)


def test_move_keeps_facing_in_range() -> None:
    game = sample_game()
    for facing in (-90.0, 360.0, 725.0, -1e-20, 359.999):
        game.apply(MoveUnit("u1", 1.0, 1.0, facing))
        assert 0.0 <= game.units["u1"].facing < 360.0


def test_condition_lists_stay_sorted_and_unique() -> None:
    game = sample_game()
    game.apply(SetCondition("u1", "broken"))
    game.apply(SetCondition("u1", "broken"))
    game.apply(SetCondition("u1", "out_of_ammo"))
    assert game.units["u1"].conditions == ["broken", "out_of_ammo", "pinned"]


def test_apply_all_is_all_or_nothing() -> None:
    game = sample_game()
    before = game_to_dict(game)
    effects: list[Effect] = [add_shock("u1", 1), SpendAmmo("u2", 0, 1), MoveUnit("u1", 5.0, 5.0, 90.0),
                             SpendAmmo("u2", 0, 100)]
    with pytest.raises(GameError, match="no rounds left"):
        game.apply_all(effects)
    assert game_to_dict(game) == before


def test_apply_all_undoes_earlier_effects_whatever_the_later_one_raises() -> None:
    class Broken(Effect):
        def apply(self, game: Game) -> Effect:
            raise TypeError("a programming error")

    game = sample_game()
    before = game_to_dict(game)
    with pytest.raises(TypeError):
        game.apply_all([add_shock("u1", 1), Broken()])
    assert game_to_dict(game) == before


def test_apply_all_returns_inverses_in_application_order() -> None:
    game = sample_game()
    before = game_to_dict(game)
    inverses = game.apply_all([add_shock("u1", 1), add_shock("u1", 2), SetCondition("u1", "broken")])
    assert inverses == [add_shock("u1", -1), add_shock("u1", -2), SetCondition("u1", "broken", False)]
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert game_to_dict(game) == before


def test_touches_name_what_changed() -> None:
    assert add_shock("u1", 1).touches == Changes(units=frozenset({"u1"}))
    assert AddUnit(NEW_UNIT).touches.roster
    assert RemoveUnit("u1").touches.unit("u1")
    assert PlaceMarker(Marker("m", "smoke", 0, 0)).touches.markers
    assert AppendLog(LogEntry("t", 1, 1, "x")).touches.log
    assert SetClock(1, 1, 0).touches.clock
    assert ChangeSide(0, Side("A", "#000000")).touches.unit("anything")
    assert SetSetting("k", 1).touches.settings
    merged = add_shock("u1", 1).touches | add_shock("u2", 1).touches | SetClock(1, 1, 0).touches
    assert merged == Changes(units=frozenset({"u1", "u2"}), clock=True)
    assert not merged.unit("u3")


def test_append_log_now_stamps_turn_and_phase() -> None:
    game = sample_game()
    effect = AppendLog.now(game, "Hello", "note")
    assert (effect.entry.turn, effect.entry.phase, effect.entry.text) == (2, 3, "Hello")
    game.apply(effect)
    assert game.log[-1] == effect.entry


def test_new_id_is_one_past_the_highest() -> None:
    game = sample_game()
    assert game.new_id("u") == "u6"
    assert game.new_id("m") == "m3"
    assert game.new_id("z") == "z1"


def test_lookups_name_what_is_missing() -> None:
    game = sample_game()
    with pytest.raises(GameError, match="no marker with id 'x'"):
        game.marker("x")
    with pytest.raises(GameError, match="no side number 0"):
        game.side(-1)
    assert [u.id for u in game.units_of(1)] == ["u2", "u4"]
    assert game.units["u2"].main_arc() == 45.0
    assert game.units["u1"].main_arc() is None
    assert game.units["u2"].range_bands() == [18.0, 36.0, 72.0]
