"""ab.indirect_placement: where a close-support unit's indirect fire lands."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import DiceExhausted
from battletracker.core.dice import ScriptedDice
from battletracker.model.effects import PlaceMarker
from battletracker.model.effects import RemoveMarker
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.armour_battles.placement import burst_targets
from battletracker.rules.armour_battles.placement import clock_bearing
from battletracker.rules.armour_battles.placement import deviation_die
from tests.rules.armour_battles.helpers import STUH_RANGES
from tests.rules.armour_battles.helpers import battle
from tests.rules.oddscheck import assert_odds_match_simulation

NAME = "ab.indirect_placement"


def aim(**extra: str | int | float | bool) -> dict[str, str | int | float | bool]:
    inputs: dict[str, str | int | float | bool] = {
        "aim_x": 30.0, "aim_y": 20.0, "range": 24.0, "ranges": STUH_RANGES, "los": False, "observer": True,
    }
    inputs.update(extra)
    return inputs


def test_line_of_sight_is_on_target_without_a_deviation_roll() -> None:
    dice = ScriptedDice([])
    res = resolve(NAME, aim(los=True, observer=False), dice)
    assert res.outcome == "on_target"
    assert list(res.rolls) == []
    assert dice.used == 0
    assert (res.values["x"], res.values["y"]) == (30.0, 20.0)
    assert res.values["distance"] == 0
    assert res.values["bearing"] is None
    assert odds(NAME, aim(los=True)).p("on_target") == 1


def test_hit_lands_on_the_aiming_point() -> None:
    res = resolve(NAME, aim(), ScriptedDice(["hit"]))
    assert res.outcome == "on_target"
    assert list(res.rolls) == [("Deviation die", ("hit",))]
    assert (res.values["x"], res.values["y"], res.values["distance"]) == (30.0, 20.0, 0)


@pytest.mark.parametrize(("bearing", "dx", "dy"), [(0.0, 0.0, -4.0), (90.0, 4.0, 0.0), (180.0, 0.0, 4.0),
                                                   (270.0, -4.0, 0.0)])
def test_deviation_with_a_given_bearing_moves_the_rolled_distance(bearing: float, dx: float, dy: float) -> None:
    res = resolve(NAME, aim(bearing=bearing), ScriptedDice(["arrow", 4]))
    assert res.outcome == "deviated"
    assert list(res.rolls) == [("Deviation die", ("arrow",)), ("Deviation distance", (4,))]
    assert res.values["distance"] == 4
    assert res.values["bearing"] == bearing
    assert res.values["x"] == pytest.approx(30.0 + dx)
    assert res.values["y"] == pytest.approx(20.0 + dy)


def test_deviation_at_an_angle_keeps_the_distance() -> None:
    res = resolve(NAME, aim(bearing=45.0), ScriptedDice(["arrow", 6]))
    moved = ((res.values["x"] - 30.0) ** 2 + (res.values["y"] - 20.0) ** 2) ** 0.5
    assert moved == pytest.approx(6.0)
    assert res.values["x"] > 30.0 and res.values["y"] < 20.0


def test_without_a_bearing_the_clock_die_gives_the_arrow_direction() -> None:
    res = resolve(NAME, aim(), ScriptedDice(["arrow", 3, 5]))
    assert [label for label, _ in res.rolls] == ["Deviation die", "Arrow direction (clock die)", "Deviation distance"]
    assert res.values["bearing"] == 90.0
    assert res.values["x"] == pytest.approx(35.0)
    assert res.values["y"] == pytest.approx(20.0)
    assert [clock_bearing(f) for f in (12, 3, 6, 9, 1)] == [0.0, 90.0, 180.0, 270.0, 30.0]


def test_a_player_types_the_deviation_die() -> None:
    res = resolve(NAME, aim(bearing=180.0), ScriptedDice(["Arrow", "2"]))
    assert res.values["y"] == pytest.approx(22.0)
    with pytest.raises(DiceExhausted) as info:
        resolve(NAME, aim(), ScriptedDice([]))
    assert info.value.label == "Deviation die"


def test_impact_marker_effect_places_the_two_inch_burst() -> None:
    res = resolve(NAME, aim(bearing=90.0, marker_id="impact1"), ScriptedDice(["arrow", 3]))
    (effect,) = res.effects
    assert isinstance(effect, PlaceMarker)
    marker = effect.marker
    assert (marker.id, marker.kind, marker.radius) == ("impact1", "impact", 2.0)
    assert (marker.x, marker.y) == (pytest.approx(33.0), pytest.approx(20.0))
    game = battle()
    inverse = game.apply(effect)
    assert game.markers["impact1"].radius == 2.0
    game.apply(RemoveMarker("impact1"))
    assert "impact1" not in game.markers
    game.apply(PlaceMarker(marker))
    game.apply(inverse)
    assert game.markers == {}


def test_without_marker_id_there_are_no_effects() -> None:
    assert resolve(NAME, aim(), ScriptedDice(["hit"])).effects == ()


def test_indirect_range_doubles_long_range_to_72_inches() -> None:
    res = resolve(NAME, aim(range=72.0, los=True), ScriptedDice([]))
    assert res.values["indirect_long_range"] == 72.0
    assert res.values["band"] == "long"
    assert resolve(NAME, aim(range=9.01, los=True), ScriptedDice([])).values["band"] == "effective"
    with pytest.raises(RulesInputError, match=r'range: 72.01" is beyond the indirect fire long range of 72" '
                                              r'\(long range 36" x2\)'):
        resolve(NAME, aim(range=72.01, los=True), ScriptedDice([]))


@pytest.mark.parametrize("dist", [6.0, 9.0, 0.0])
def test_nothing_inside_the_short_range_may_be_targeted(dist: float) -> None:
    with pytest.raises(RulesInputError, match=rf'range: {dist:g}" is within the short range of 9" \(9/18/36\)') as info:
        odds(NAME, aim(range=dist, los=True))
    assert info.value.field == "range"


def test_no_line_of_sight_needs_a_forward_observer() -> None:
    with pytest.raises(RulesInputError, match="observer: without line of sight to the target another unit "
                                              "must act as its Forward Observer"):
        resolve(NAME, aim(observer=False), ScriptedDice(["hit"]))
    assert resolve(NAME, aim(los=True, observer=False), ScriptedDice([])).outcome == "on_target"


def test_opportunity_fire_needs_direct_line_of_sight() -> None:
    with pytest.raises(RulesInputError, match="los: a close-support unit may only use opportunity fire "
                                              "with a direct line of sight"):
        odds(NAME, aim(opportunity=True))
    assert odds(NAME, aim(opportunity=True, los=True)).p("on_target") == 1


def test_single_missions_only() -> None:
    with pytest.raises(RulesInputError, match="mission: close-support units fire single missions only: "
                                              "they cannot conduct continuous fire missions"):
        odds(NAME, aim(mission="continuous"))
    assert odds(NAME, aim(mission="single")).total() == 1


@pytest.mark.parametrize(("key", "value", "message"), [
    ("ranges", "9/18", "ranges: must be short/effective/long"),
    ("ranges", "18/9/36", "ranges: must increase"),
    ("aim_x", "left", "aim_x: must be a number"),
    ("bearing", 400.0, "bearing: must be at most 360"),
    ("colour", "red", "colour: is not an input"),
])
def test_bad_inputs_name_the_field(key: str, value: str | float, message: str) -> None:
    with pytest.raises(RulesInputError, match=message):
        odds(NAME, aim(**{key: value}))


def test_odds_use_the_deviation_die_faces_setting() -> None:
    assert odds(NAME, aim()).p("on_target") == Fraction(2, 6)
    assert odds(NAME, aim(deviation_hit_faces=1)).p("deviated") == Fraction(5, 6)
    assert deviation_die(2).faces == ("hit", "hit", "arrow", "arrow", "arrow", "arrow")
    with pytest.raises(RulesInputError, match="deviation_hit_faces: must be at most 5"):
        odds(NAME, aim(deviation_hit_faces=6))


@pytest.mark.parametrize("extra", [{}, {"los": True}, {"deviation_hit_faces": 1}, {"deviation_hit_faces": 4},
                                   {"bearing": 10.0}])
def test_odds_match_simulation(extra: dict[str, float | bool | int]) -> None:
    assert_odds_match_simulation(NAME, aim(**extra))


def test_burst_edge_exactly_two_inches_is_inside() -> None:
    units = [("on", (10.0, 10.0)), ("edge", (12.0, 10.0)), ("diagonal", (10.0 + 2 ** 0.5, 10.0 + 2 ** 0.5)),
             ("outside", (12.01, 10.0)), ("far", (10.0, 15.0))]
    assert burst_targets((10.0, 10.0), units) == ["on", "edge", "diagonal"]
