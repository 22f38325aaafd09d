"""coc.sos_fire and the SOS Fire circle: six dice at 4+, Pinned for this Phase and the next, vehicles' 6s."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.core.odds import Distribution
from battletracker.model import savefile
from battletracker.model.bombardment import Building
from battletracker.model.bombardment_effects import SetBombardmentPin
from battletracker.model.bombardment_effects import SetBuildingState
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import Effect
from battletracker.model.effects import SetCondition
from battletracker.model.game import OUT_OF_PLAY
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.rules import RulesInputError
from battletracker.rules import get
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.base import Resolution
from battletracker.rules.chain_of_command import bombardment as bm
from battletracker.rules.chain_of_command import sos_fire
from battletracker.rules.chain_of_command.area_fire import target_counts
from battletracker.rules.chain_of_command.area_fire import target_key
from battletracker.rules.chain_of_command.bombardment_data import data
from battletracker.rules.chain_of_command.fire import TABLE_SETTINGS
from battletracker.rules.chain_of_command.fire import hit_effect_faces
from battletracker.rules.chain_of_command.phase_end import end_phase_effects
from battletracker.rules.chain_of_command.sos_fire import new_sos
from battletracker.rules.chain_of_command.sos_fire import sos_inputs
from battletracker.rules.chain_of_command.sos_fire import sos_targets
from tests.rules.oddscheck import assert_odds_match_simulation

STORM: dict[str, object] = {"storm_of_steel_per_six": 1, "storm_of_steel_chains": False}
TEAM: dict[str, object] = {"cover": "open", **STORM}


def face(cover: str, result: str) -> int:
    return hit_effect_faces(cover).index(result) + 1


def sos(dice: list[int], **inputs: object) -> Resolution:
    scripted = ScriptedDice(dice)
    res = resolve("coc.sos_fire", {**TEAM, **inputs}, scripted)  # type: ignore[dict-item]
    assert scripted.remaining == 0
    return res


def test_six_firepower_dice_hitting_on_4_5_6_with_the_storm_of_steel_bonus() -> None:
    res = sos([6, 4, 3, 2, 1, 1, 5, face("open", "kill"), face("open", "shock"), face("open", "kill")],
              target_id="u1", target_figures="5")
    assert res.rolls[0] == ("Firepower Dice", (6, 4, 3, 2, 1, 1))
    assert res.rolls[1] == ("Storm of Steel dice", (5,))
    assert res.outcome == "kills=2 shock=1" and res.values["hits"] == 3
    assert ChangeFigures("u1", -2) in res.effects and ChangeCounter("u1", "shock", 1) in res.effects
    assert SetCondition("u1", "pinned") in res.effects and res.values["pinned"]
    assert "Pinned for this Phase and the next" in res.log


@pytest.mark.parametrize(("inputs", "read_as"), [
    ({"cover": "hard"}, "hard"),
    ({"cover": "hard", "linear_obstacle": True}, "open"),
    ({"cover": "light", "pinned": True}, "hard"),
])
def test_no_cover_reduction_and_no_cover_from_linear_obstacles(inputs: dict[str, object], read_as: str) -> None:
    assert sos([1] * 6, **inputs).values["cover"] == read_as


@pytest.mark.parametrize("where", [{"in_building": True}, {"in_fortification": True}])
def test_units_in_buildings_entrenchments_or_fortifications_are_not_pinned(where: dict[str, object]) -> None:
    res = sos([1] * 6, target_id="u1", **where)
    assert not any(isinstance(e, SetCondition) for e in res.effects) and not res.values["pinned"]
    assert "Not Pinned: in a building, entrenchment or fortification" in res.log


def test_the_sos_record_holds_the_units_it_pins() -> None:
    res = sos([1] * 6, target_id="u1", sos_id="sos1")
    assert SetBombardmentPin("sos1", "u1") in res.effects


def test_six_firepower_dice_against_each_team() -> None:
    """"Roll six Firepower Dice against each Team": a unit of two Teams takes twelve dice."""
    shock = face("open", "shock")
    res = sos([4, 4, 4, 1, 1, 1, 5, 1, 1, 1, 1, 1] + [shock] * 4, teams=2, target_id="u1", target_figures="8")
    assert res.rolls[0] == ("Firepower Dice", (4, 4, 4, 1, 1, 1, 5, 1, 1, 1, 1, 1))
    assert res.outcome == "kills=0 shock=4" and ChangeCounter("u1", "shock", 4) in res.effects
    assert "SOS Fire: 6 Firepower Dice against each of 2 Teams" in res.log
    # Two Teams that are units of their own: each rolls its own six dice and takes its own hits.
    res = sos([4, 4, 4, 1, 1, 1] + [shock] * 3 + [5, 1, 1, 1, 1, 1] + [shock], teams=2, target_ids="u1,u2")
    assert [label for label, _ in res.rolls] == ["Team 1: Firepower Dice", "Team 1: Effect dice",
                                                 "Team 2: Firepower Dice", "Team 2: Effect dice"]
    assert ChangeCounter("u1", "shock", 3) in res.effects and ChangeCounter("u2", "shock", 1) in res.effects
    assert SetCondition("u2", "pinned") in res.effects
    one, two = (odds("coc.sos_fire", {**TEAM, "teams": n}) for n in (1, 2))  # type: ignore[arg-type]
    assert two.p("kills=0 shock=0") == one.p("kills=0 shock=0") ** 2


def test_a_leader_killed_by_sos_fire_is_out_of_play_with_no_shock_and_no_pin() -> None:
    kill, shock = face("open", "kill"), face("open", "shock")
    res = sos([4, 4, 1, 1, 1, 1, shock, kill], target_id="ldr", target_figures="1", sos_id="sos1")
    assert res.outcome == "kills=1 shock=0"
    assert list(res.effects) == [ChangeFigures("ldr", -1), SetCondition("ldr", OUT_OF_PLAY)]
    assert "The target has no figures left: out of play. Its side takes a Force Morale Test" in res.log
    dist = odds("coc.sos_fire", {**TEAM, "target_id": "ldr", "target_figures": "1"})  # type: ignore[arg-type]
    assert set(dist.outcomes) <= {"kills=0 shock=0", "kills=0 shock=1", "kills=0 shock=2", "kills=0 shock=3",
                                  "kills=0 shock=4", "kills=0 shock=5", "kills=0 shock=6", "kills=0 shock=7",
                                  "kills=0 shock=8", "kills=0 shock=9", "kills=0 shock=10", "kills=0 shock=11",
                                  "kills=0 shock=12", "kills=1 shock=0"}


def test_four_sixes_at_a_team_in_a_brick_building_make_it_unstable() -> None:
    res = sos([6, 6, 6, 6, 1, 1, 1, 1, 1, 1] + [face("hard", "none")] * 4, cover="hard", in_building=True,
              building="brick_stone", building_id="bld1")
    assert res.outcome == "kills=0 shock=0 unstable"
    assert SetBuildingState("bld1", "unstable") in res.effects
    assert sos([6, 6, 6, 6, 1, 1, 1, 1, 1, 1] + [face("hard", "none")] * 4, cover="hard", in_building=True,
               building="wood").outcome == "kills=0 shock=0"


@pytest.mark.parametrize(("vehicle", "dice"), [("closed", 2), ("open_topped", 3)])
def test_afvs_and_apcs_roll_2d6_or_3d6_open_topped_every_6_one_shock(vehicle: str, dice: int) -> None:
    res = resolve("coc.sos_fire", {"vehicle": vehicle, "vehicle_id": "t1", **STORM},
                  ScriptedDice([6] + [1] * (dice - 1) + [6]))
    assert list(res.rolls) == [("Dice for Shock", (6,) + (1,) * (dice - 1)), ("Storm of Steel dice", (6,))]
    assert res.outcome == "vehicle_shock=2" and list(res.effects) == [ChangeCounter("t1", "shock", 2)]
    assert not any(isinstance(e, SetCondition) for e in res.effects)


def test_an_immobilised_vehicle_takes_double_and_is_abandoned_at_four() -> None:
    res = resolve("coc.sos_fire", {"vehicle": "closed", "vehicle_id": "t1", "vehicle_immobilised": True,
                                   "vehicle_current_shock": 2, **STORM}, ScriptedDice([6, 1, 2]))
    assert res.outcome == "vehicle_shock=2" and res.values["vehicle_abandoned"]
    assert SetCondition("t1", "abandoned") in res.effects


def test_closed_form_spot_checks() -> None:
    team = odds("coc.sos_fire", TEAM)  # type: ignore[arg-type]
    if "none" not in hit_effect_faces("open"):
        assert team.p("kills=0 shock=0") == Fraction(1, 2) ** 6
    closed = odds("coc.sos_fire", {"vehicle": "closed", **STORM})  # type: ignore[dict-item]
    assert closed.p("vehicle_shock=0") == Fraction(25, 36)
    open_topped = odds("coc.sos_fire", {"vehicle": "open_topped", **STORM})  # type: ignore[dict-item]
    assert open_topped.p("vehicle_shock=0") == Fraction(125, 216)


@pytest.mark.parametrize("inputs", [
    TEAM,
    {"cover": "hard", "pinned": False, "teams": 3},
    {"cover": "open", "teams": 2, "target_id": "u1", "target_figures": "3"},
    {"cover": "light", "teams": 2, "target_ids": "u1,u2", "target_figures": "1,2", "in_building": True,
     "building": "brick_stone", "building_id": "b1"},
    {"cover": "light", "in_building": True, "building": "brick_stone", "shock_multiplier": 2},
    {"cover": "open", "teams": 2, "target_id": "s1", "target_figures": "10", "in_building": True,
     "building": "brick_stone", "storm_of_steel_per_six": 3, "storm_of_steel_chains": True},
    {"vehicle": "closed"},
    {"vehicle": "open_topped", "vehicle_immobilised": True, "storm_of_steel_per_six": 2,
     "storm_of_steel_chains": True},
])
def test_odds_agree_with_simulation(inputs: dict[str, object]) -> None:
    assert_odds_match_simulation("coc.sos_fire", inputs)  # type: ignore[arg-type]


def test_its_settings_are_declared() -> None:
    assert get("coc.sos_fire").settings == ("storm_of_steel_per_six", "storm_of_steel_chains", *TABLE_SETTINGS)


@pytest.mark.parametrize(("inputs", "field", "message"), [
    ({}, "cover", "is required"),
    ({**TEAM, "reduce_cover": 1}, "reduce_cover", "SOS Fire does not reduce the target's cover \\(1 given\\)"),
    ({**TEAM, "building": "brick_stone"}, "building", "names the Team's building, but in_building is false"),
    ({**TEAM, "sos_id": "sos1"}, "sos_id", "Pinning a Team needs its target_id"),
    ({**TEAM, "vehicle_id": "t1"}, "vehicle_id", "is for an AFV or APC target"),
    ({**TEAM, "vehicle": "truck"}, "vehicle", "must be one of none, closed, open_topped"),
    ({"vehicle": "closed", "cover": "open"}, "cover", "is not an input of this procedure"),
    ({**TEAM, "range_band": "close"}, "range_band", "is not an input of this procedure"),
    ({**TEAM, "firepower_dice": -1}, "firepower_dice", "must be at least 0, not -1"),
    ({**TEAM, "teams": 3, "target_ids": "u1,u2"}, "target_ids", "names 2 units but the hits are shared by 3"),
])
def test_refusals_name_the_field(inputs: dict[str, object], field: str, message: str) -> None:
    with pytest.raises(RulesInputError, match=message) as err:
        odds("coc.sos_fire", inputs)  # type: ignore[arg-type]
    assert err.value.field == field


# the SOS circle on the table -------------------------------------------------------------------------------------


def table() -> Game:
    game = Game(sides=[Side("British", "#3366cc", 9, 2), Side("German", "#cc3333", 8, 1)])
    game.settings = dict(STORM)
    for unit in (
        Unit("edge", "On the edge", "team", 1, 36.0, 20.0, figures=2, figures_max=2),
        Unit("in", "Inside", "section", 1, 31.0, 21.0, figures=8, figures_max=10, stats={"cover": "light"}),
        Unit("house", "In the house", "team", 1, 28.0, 18.0, figures=3, figures_max=3),
        Unit("out", "Outside", "team", 1, 36.5, 20.0),
        Unit("tank", "Panzer IV", "vehicle", 1, 30.0, 24.0, vehicle=Vehicle("afv")),
        Unit("truck", "Opel Blitz", "vehicle", 1, 32.0, 17.0, stats={"transport": True}),
        Unit("rider", "Riding", "section", 1, 32.0, 17.0, stats={"embarked_in": "truck"}),
    ):
        game.units[unit.id] = unit
    game.buildings["bld"] = Building("bld", "House", 28.0, 18.0, 4.0, 4.0, 0.0, "brick_stone", 1, ["house"])
    return game


def test_the_circle_decides_who_is_inside_and_builds_each_teams_inputs() -> None:
    game = table()
    game.apply_all(new_sos(game, 0, (30.0, 20.0)))
    b = game.bombardments["sos1"]
    assert (b.kind, b.state, b.linger_phases, b.shape, b.radius) == ("sos", "lingering", 2, "circle", 6.0)
    assert sos_targets(game, "sos1") == ["edge", "in", "house", "tank"]
    assert sos_inputs(game, "sos1", "in") == {
        "sos_id": "sos1", **STORM, "cover": "light", "linear_obstacle": False, "pinned": False, "target_id": "in",
        "target_figures": "8", "in_fortification": False, "firepower_dice": 6, "to_hit": 4}
    two_teams = sos_inputs(game, "sos1", "edge")
    assert "teams" not in two_teams
    game.units["in"].stats["teams"] = 2
    inputs = sos_inputs(game, "sos1", "in")
    assert inputs["teams"] == 2
    res = resolve("coc.sos_fire", inputs, ScriptedDice([1] * 12))
    assert list(res.rolls) == [("Firepower Dice", (1,) * 12)]
    house = sos_inputs(game, "sos1", "house", cover="hard")
    assert (house["in_building"], house["building"], house["building_id"], house["cover"]) == (
        True, "brick_stone", "bld", "hard")
    assert sos_inputs(game, "sos1", "tank") == {**STORM, "vehicle": "closed", "vehicle_id": "tank",
                                                "vehicle_current_shock": 0, "vehicle_immobilised": False}
    assert bm.fire_refusal(game, "in", "edge") is None, "visibility is not affected"


@pytest.mark.parametrize(("call", "field", "message"), [
    (lambda g: sos_inputs(g, "sos1", "out"), "unit_id", "Outside is not a Team or AFV/APC inside"),
    (lambda g: sos_inputs(g, "sos1", "rider"), "unit_id", "Riding is not a Team or AFV/APC inside"),
    (lambda g: sos_inputs(g, "sos1", "ghost"), "unit_id", "no unit with id 'ghost'"),
    (lambda g: sos_targets(g, "nope"), "bombardment_id", "that bombardment is not in the game"),
    (lambda g: new_sos(g, 0, (80.0, 20.0)), "x", "80 is off the table"),
    (lambda g: new_sos(g, 5, (10.0, 20.0)), "side", "there is no side number 6"),
    (lambda g: new_sos(g, 0, (10.0, 20.0), "sos1"), "sos_id", "'sos1' is already a bombardment"),
])
def test_circle_refusals(call: object, field: str, message: str) -> None:
    game = table()
    game.apply_all(new_sos(game, 0, (30.0, 20.0)))
    with pytest.raises(RulesInputError, match=message) as err:
        call(game)  # type: ignore[operator]
    assert err.value.field == field


def test_an_sos_input_builder_refuses_a_bombardment_that_is_not_sos() -> None:
    game = table()
    game.apply_all(bm.new_bombardment(game, 0, (5.0, 5.0), (30.0, 20.0)))
    with pytest.raises(RulesInputError, match="'b1' is a high explosive bombardment, not SOS Fire"):
        sos_targets(game, "b1")


def test_pinned_for_the_current_and_the_next_phase_then_released_and_all_undone() -> None:
    game = table()
    before = savefile.dumps(game)
    undo: list[list[Effect]] = [game.apply_all(new_sos(game, 0, (30.0, 20.0)))]
    for unit_id, dice in (("edge", [1] * 6), ("in", [1] * 6), ("house", [1] * 6), ("tank", [1, 1])):
        res = resolve("coc.sos_fire", sos_inputs(game, "sos1", unit_id), ScriptedDice(dice))
        undo.append(game.apply_all(res.effects))
    b = game.bombardments["sos1"]
    assert b.pinned == ["edge", "in"]
    assert [u for u in game.units if game.units[u].has("pinned")] == ["edge", "in"]
    undo.append(game.apply_all(end_phase_effects(game)))
    assert b.state == "lingering" and game.units["in"].has("pinned")
    undo.append(game.apply_all(end_phase_effects(game)))
    assert b.state == "cleared" and not game.units["in"].has("pinned") and not game.units["edge"].has("pinned")
    for inverses in reversed(undo):
        for inverse in reversed(inverses):
            game.apply(inverse)
    assert savefile.dumps(game) == before


def _counted_then_keyed(inputs: dict[str, object]) -> Distribution[str]:
    """The odds as counted before a Team's keys came straight from its volley: every (kills, Shock, sixes)
    of the target through `area_fire.target_counts`, then keyed."""
    target = sos_fire._parse(inputs).target.for_odds()  # type: ignore[arg-type]
    return target_counts(target, data().unstable_sixes).map(lambda c: target_key(target.kind, c))


@pytest.mark.parametrize("inputs", [
    TEAM,
    {"cover": "light", "teams": 2, "target_id": "s1", "target_figures": "10", "storm_of_steel_per_six": 3,
     "storm_of_steel_chains": True, "firepower_dice": 2},
    {"cover": "hard", "target_id": "s1", "target_figures": "4", "shock_multiplier": 2, "storm_of_steel_per_six": 2,
     "storm_of_steel_chains": True},
    {"cover": "open", "target_id": "s1", "target_figures": "3", "in_building": True, "building": "brick_stone",
     "storm_of_steel_per_six": 2, "storm_of_steel_chains": True, "firepower_dice": 3},
    {"cover": "light", "in_building": True, "building": "brick_stone", "building_intact": False, **STORM},
    {"cover": "open", "target_id": "s1", "target_figures": "2", "storm_of_steel": False},
])
def test_a_teams_odds_equal_every_count_capped_then_keyed(inputs: dict[str, object]) -> None:
    assert odds("coc.sos_fire", inputs) == _counted_then_keyed(inputs)  # type: ignore[arg-type]


def test_a_teams_odds_at_the_most_storm_of_steel_do_not_count_every_kills_and_shock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Section of two Teams under chained Storm of Steel dice (3 a six) can take 480 hits: its odds are keyed
    from the volley's weights, not from the 115,921 (kills, Shock) counts they would be capped from."""
    inputs = {"cover": "open", "teams": 2, "target_id": "s1", "target_figures": "10",
              "storm_of_steel_per_six": 3, "storm_of_steel_chains": True}
    counted = _counted_then_keyed(inputs)

    def refused(*_: object) -> None:
        raise AssertionError("counted every (kills, Shock) of the Team")

    monkeypatch.setattr(sos_fire, "target_counts", refused)
    dist = odds("coc.sos_fire", inputs)  # type: ignore[arg-type]
    assert dist == counted and dist.total() == 1
    assert len(dist.outcomes) == 4766 and "kills=10 shock=0" in dist.outcomes
