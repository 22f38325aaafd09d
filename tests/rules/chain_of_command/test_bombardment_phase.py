"""coc.bombardment_phase: every rule of a Phase of fire, its refusals, and odds that agree with the dice."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import DiceExhausted
from battletracker.core.dice import ScriptedDice
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.bombardment_effects import AppendBombardmentEvent
from battletracker.model.bombardment_effects import ChangeCocPoints
from battletracker.model.bombardment_effects import SetBombardmentPin
from battletracker.model.bombardment_effects import SetBuildingState
from battletracker.model.bombardment_effects import UpdateBombardment
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import RemoveMarker
from battletracker.model.effects import SetCondition
from battletracker.model.game import OUT_OF_PLAY
from battletracker.rules import RulesInputError
from battletracker.rules import get
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.base import Resolution
from battletracker.rules.chain_of_command.bombardment_phase import target_chances
from battletracker.rules.chain_of_command.fire import TABLE_SETTINGS
from battletracker.rules.chain_of_command.fire import hit_effect_faces
from tests.rules.oddscheck import assert_odds_match_simulation

BASE: dict[str, object] = {"activation": "command_die", "x": 20.0, "y": 20.0, "phases_left": 3, "phases_fired": 1,
                           "pattern_die": 2, "firepower_dice": 6, "to_hit": 4, "storm_of_steel_per_six": 1,
                           "storm_of_steel_chains": False}
IDS: dict[str, object] = {"bombardment_id": "b1", "turn": 2, "phase": 3}


def face(cover: str, result: str) -> int:
    return hit_effect_faces(cover).index(result) + 1


def targets(*specs: dict[str, object]) -> dict[str, object]:
    out: dict[str, object] = {"targets": len(specs)}
    for i, spec in enumerate(specs, start=1):
        out.update({f"target{i}_{k}": v for k, v in spec.items()})
    return out


def phase(dice: list[int], *specs: dict[str, object], **inputs: object) -> Resolution:
    scripted = ScriptedDice(dice)
    res = resolve("coc.bombardment_phase", {**BASE, **targets(*specs), **inputs}, scripted)  # type: ignore[dict-item]
    assert scripted.remaining == 0
    return res


INFANTRY = {"kind": "infantry", "id": "u1", "name": "1 Section", "figures": 8, "cover": "open"}


def test_infantry_in_the_open_is_hit_by_the_mortars_firepower_dice_then_pinned() -> None:
    res = phase([1, 2, 3, 4, 5, 1, face("open", "kill"), face("open", "shock")], INFANTRY)
    assert res.outcome == "kills=1"
    assert res.rolls[0] == ("1 Section: Firepower Dice", (1, 2, 3, 4, 5, 1))
    assert res.rolls[1][0] == "1 Section: Effect dice"
    assert ChangeFigures("u1", -1) in res.effects and ChangeCounter("u1", "shock", 1) in res.effects
    assert SetCondition("u1", "pinned") in res.effects
    assert (res.values["kills"], res.values["shock"], res.values["pinned"]) == (1, 1, ["u1"])


def test_kills_never_remove_more_figures_than_the_unit_has() -> None:
    res = phase([6, 5, 4, 1, 1, 1, 1] + [face("open", "kill")] * 3, {**INFANTRY, "figures": 2})
    assert res.values["kills"] == 2 and res.outcome == "kills=2"
    assert ChangeFigures("u1", -2) in res.effects and SetCondition("u1", OUT_OF_PLAY) in res.effects
    assert SetCondition("u1", "pinned") not in res.effects and res.values["pinned"] == []
    assert any("no figures left: out of play. Its side takes a Force Morale Test" in line for line in res.log)
    capped = odds("coc.bombardment_phase", {**BASE, **targets({**INFANTRY, "figures": 2})})  # type: ignore[dict-item]
    assert capped.outcomes[-1] == "kills=2" and len(capped.outcomes) == 3
    assert_odds_match_simulation("coc.bombardment_phase", {**BASE, **targets({**INFANTRY, "figures": 1},
                                                                            {**PASSENGERS, "figures": 2})})  # type: ignore[dict-item]


def test_the_dialog_is_told_whose_dice_come_next() -> None:
    with pytest.raises(DiceExhausted) as err:
        phase([1] * 6, INFANTRY, {**INFANTRY, "id": "u2", "name": "2 Section"})
    assert err.value.label == "2 Section: Firepower Dice" and err.value.count == 6


def _cover_used(res: Resolution) -> str:
    line = next(line for line in res.log if "effect rolled as" in line)
    return line.rsplit(" ", 1)[-1]


@pytest.mark.parametrize(("cover", "extra", "read_as"), [
    ("hard", {}, "hard"),
    ("hard", {"linear_obstacle": True}, "open"),
    ("open", {"pinned": True}, "light"),
    ("light", {"pinned": True}, "hard"),
    ("hard", {"pinned": True}, "hard"),
    ("light", {"linear_obstacle": True, "pinned": True}, "light"),
])
def test_no_cover_reduction_no_cover_from_linear_obstacles_and_pinned_is_one_level_better(
        cover: str, extra: dict[str, object], read_as: str) -> None:
    res = phase([1] * 6, {**INFANTRY, "cover": cover, **extra})
    assert _cover_used(res) == read_as


@pytest.mark.parametrize(("building", "storeys", "exempt", "pinned"), [
    ("brick_stone", 2, "brick_stone", False),
    ("brick_stone", 3, "brick_stone", False),
    ("brick_stone", 1, "brick_stone", True),
    ("wood", 2, "brick_stone", True),
    ("wood", 2, "any", False),
])
def test_units_in_a_substantial_building_of_two_or_more_storeys_are_not_pinned(
        building: str, storeys: int, exempt: str, pinned: bool) -> None:
    res = phase([1] * 6, {**INFANTRY, "building": building, "storeys": storeys, "building_id": "bld1"},
                bombardment_pin_exempt_material=exempt)
    assert (SetCondition("u1", "pinned") in res.effects) is pinned
    assert bool(res.values["pinned"]) is pinned


def test_the_bombardment_records_whom_it_pins() -> None:
    res = phase([1] * 6, INFANTRY, **IDS)
    assert SetBombardmentPin("b1", "u1") in res.effects


def test_four_sixes_at_a_unit_in_a_brick_building_make_it_unstable_once() -> None:
    unit = {**INFANTRY, "building": "brick_stone", "storeys": 1, "building_id": "bld1", "cover": "hard"}
    other = {**unit, "id": "u2", "name": "2 Section"}
    res = phase([6, 6, 6, 6, 1, 1, 1, 1, 1, 1] + [face("hard", "none")] * 4 + [6, 6, 6, 6, 1, 1, 1, 1, 1, 1]
                + [face("hard", "none")] * 4, unit, other)
    assert res.outcome == "kills=0 unstable=1"
    assert res.effects.count(SetBuildingState("bld1", "unstable")) == 1
    assert res.values["unstable_buildings"] == ["bld1"]
    three = phase([6, 6, 6, 1, 1, 1, 1, 1, 1] + [face("hard", "none")] * 3, unit)
    assert three.outcome == "kills=0 unstable=0" and not any(isinstance(e, SetBuildingState) for e in three.effects)
    wood = phase([6, 6, 6, 6, 1, 1, 1, 1, 1, 1] + [face("hard", "none")] * 4, {**unit, "building": "wood"})
    assert wood.outcome == "kills=0"
    fallen = phase([6, 6, 6, 6, 1, 1, 1, 1, 1, 1] + [face("hard", "none")] * 4, {**unit, "building_intact": False})
    assert fallen.outcome == "kills=0"


def test_an_empty_brick_building_rolls_the_firepower_dice_for_its_sixes() -> None:
    building = {"kind": "building", "id": "bld2", "name": "Church", "building": "brick_stone"}
    res = phase([6, 6, 6, 5, 1, 1, 6, 2, 2], building)
    assert list(res.rolls) == [("Church: Firepower Dice", (6, 6, 6, 5, 1, 1)),
                               ("Church: Storm of Steel dice", (6, 2, 2))]
    assert res.outcome == "kills=0 unstable=1" and SetBuildingState("bld2", "unstable") in res.effects
    assert not any(isinstance(e, SetCondition) for e in res.effects)


PASSENGERS = {"kind": "passengers", "id": "p1", "name": "Passengers", "figures": 6, "vehicle_id": "truck"}


def test_passengers_roll_4d6_hitting_on_5_or_6_in_light_cover_and_6s_shock_the_vehicle() -> None:
    res = phase([6, 5, 4, 1, 3, face("light", "kill"), face("light", "shock")], PASSENGERS)
    assert res.rolls[0] == ("Passengers: Firepower Dice", (6, 5, 4, 1))
    assert res.rolls[1] == ("Passengers: Storm of Steel dice", (3,))
    assert res.outcome == "kills=1" and res.values["vehicle_shock"] == 1
    assert ChangeCounter("truck", "shock", 1) in res.effects and ChangeFigures("p1", -1) in res.effects
    assert not any(isinstance(e, SetCondition) and e.condition == "pinned" for e in res.effects)
    assert "effect rolled as light" in " ".join(res.log)


def test_each_passenger_team_rolls_its_own_4d6() -> None:
    """"Roll 4D6 for hits on each passenger Team": two Teams roll eight dice (sixteen in a Devastating first Phase)."""
    two = {**PASSENGERS, "teams": 2}
    res = phase([1, 2, 3, 4, 1, 2, 3, 4], two)
    assert list(res.rolls) == [("Passengers: Firepower Dice", (1, 2, 3, 4, 1, 2, 3, 4))]
    first = {**BASE, "phases_fired": 0, "state": "ready", "activation": "begun", "devastating": True}
    res = resolve("coc.bombardment_phase", {**first, **targets(two)}, ScriptedDice([1] * 16))  # type: ignore[dict-item]
    assert list(res.rolls) == [("Passengers: Firepower Dice", (1,) * 16)]
    (_, one_team), (_, two_teams) = target_chances({**BASE, **targets(PASSENGERS, two)})  # type: ignore[arg-type]
    # No 6 (which would shock the vehicle): 5 in 6 per die.
    assert dict(one_team)["vehicle_shock"] == 1 - Fraction(5, 6) ** 4
    assert dict(two_teams)["vehicle_shock"] == 1 - Fraction(5, 6) ** 8
    assert_odds_match_simulation("coc.bombardment_phase", {**BASE, **targets(two)})  # type: ignore[dict-item]


def test_storm_of_steel_sixes_shock_the_vehicle_too_and_an_immobilised_one_takes_double() -> None:
    res = phase([6, 1, 1, 1, 6, face("light", "none"), face("light", "none")],
                {**PASSENGERS, "vehicle_immobilised": True, "vehicle_current_shock": 1})
    assert res.outcome == "kills=0" and res.values["vehicle_shock"] == 4
    assert ChangeCounter("truck", "shock", 4) in res.effects
    assert SetCondition("truck", "abandoned") in res.effects


@pytest.mark.parametrize(("open_topped", "dice"), [(False, 2), (True, 3)])
def test_afvs_and_apcs_roll_2d6_or_3d6_open_topped_every_6_one_shock(open_topped: bool, dice: int) -> None:
    tank = {"kind": "vehicle", "id": "t1", "name": "Stuart", "open_topped": open_topped}
    res = phase([6] + [2] * (dice - 1) + [6], tank)
    assert list(res.rolls) == [("Stuart: Dice for Shock", (6,) + (2,) * (dice - 1)),
                               ("Stuart: Storm of Steel dice", (6,))]
    assert res.outcome == "kills=0" and res.values["vehicle_shock"] == 2
    assert ChangeCounter("t1", "shock", 2) in res.effects


def test_a_devastating_bombardment_doubles_its_first_phase_only() -> None:
    first = {**BASE, "phases_fired": 0, "state": "ready", "activation": "begun", "devastating": True}
    res = resolve("coc.bombardment_phase", {**first, **targets(INFANTRY)}, ScriptedDice([1] * 12))  # type: ignore[dict-item]
    assert list(res.rolls) == [("1 Section: Firepower Dice", (1,) * 12)] and res.values["doubled"]
    tank = {"kind": "vehicle", "id": "t1", "name": "Stuart"}
    res = resolve("coc.bombardment_phase", {**first, **targets(tank)}, ScriptedDice([1] * 4))  # type: ignore[dict-item]
    assert list(res.rolls) == [("Stuart: Dice for Shock", (1,) * 4)]
    res = resolve("coc.bombardment_phase", {**first, **targets(tank), "bombardment_devastating_doubles_all": False},
                  ScriptedDice([1] * 2))  # type: ignore[dict-item]
    assert list(res.rolls) == [("Stuart: Dice for Shock", (1, 1))]
    res = resolve("coc.bombardment_phase", {**first, **targets(PASSENGERS), **IDS}, ScriptedDice([1] * 8))  # type: ignore[dict-item]
    assert list(res.rolls) == [("Passengers: Firepower Dice", (1,) * 8)]
    assert ("devastating", False) in res.effects[0].values  # type: ignore[attr-defined]
    later = phase([1] * 6, INFANTRY, devastating=True)
    assert list(later.rolls) == [("1 Section: Firepower Dice", (1,) * 6)] and not later.values["doubled"]


def test_a_rolling_bombardment_moves_before_its_later_phases_and_reveals_on_the_second() -> None:
    res = phase([], pattern_die=6, direction="up", moves_left=3, phases_fired=1, **IDS)
    update = res.effects[0]
    assert isinstance(update, UpdateBombardment)
    assert dict(update.values) == {"state": "firing", "x": 20.0, "y": 8.0, "moves_left": 2, "revealed": True,
                                   "phases_left": 2, "phases_fired": 2, "last_fired": PhaseStamp(2, 3)}
    kinds = [e.event.kind for e in res.effects if isinstance(e, AppendBombardmentEvent)]
    assert kinds == ["move", "reveal", "fire"]
    assert (res.values["x"], res.values["y"], res.values["moved"], res.values["pattern_die"]) == (20.0, 8.0, True, 6)
    first = resolve("coc.bombardment_phase", {**BASE, "phases_fired": 0, "state": "ready", "activation": "begun",
                                              "pattern_die": 6, "direction": "up", "moves_left": 3},
                    ScriptedDice([]))
    assert (first.values["y"], first.values["moved"], first.values["revealed"]) == (20.0, False, False)
    assert "pattern_die" not in first.values
    done = phase([], pattern_die=6, direction="up", moves_left=0, phases_fired=4)
    assert (done.values["y"], done.values["moved"]) == (20.0, False)
    static = phase([], pattern_die=3, phases_fired=1, **IDS)
    assert (static.values["y"], static.values["moved"]) == (20.0, False)
    assert "The hidden die is revealed: 3: Static" in static.log


def test_a_chain_of_command_point_is_spent_to_activate() -> None:
    res = phase([], activation="coc_point", coc_points=2, side=1, **IDS)
    assert ChangeCocPoints(1, -1) in res.effects
    assert ChangeCocPoints(1, -1) not in phase([], **IDS).effects


def test_the_last_phase_of_fire_ends_it_leaving_its_effects_to_the_end_of_the_following_phase() -> None:
    res = phase([1] * 6, INFANTRY, phases_left=1, observer_id="fo1", **IDS)
    update = res.effects[0]
    assert isinstance(update, UpdateBombardment)
    assert dict(update.values)["state"] == "lingering" and dict(update.values)["linger_phases"] == 2
    assert dict(update.values)["observer_id"] == ""
    assert RemoveMarker("fo1") in res.effects and res.values["ended"]
    assert SetCondition("u1", "pinned") in res.effects


def test_without_a_1_or_a_point_contact_is_lost_and_no_dice_are_rolled() -> None:
    res = phase([], INFANTRY, activation="none", observer_id="fo1", **IDS)
    assert res.outcome == "contact_lost" and list(res.rolls) == []
    assert res.effects[0] == UpdateBombardment("b1", (("state", "lingering"), ("linger_phases", 1),
                                                      ("observer_id", "")))
    assert RemoveMarker("fo1") in res.effects
    assert odds("coc.bombardment_phase", {**BASE, **targets(INFANTRY), "activation": "none"}).p("contact_lost") == 1  # type: ignore[dict-item]


def test_a_smoke_barrage_rolls_no_dice() -> None:
    res = phase([], kind="smoke")
    assert res.outcome == "smoke" and list(res.rolls) == []
    assert odds("coc.bombardment_phase", {**BASE, "kind": "smoke"}).p("smoke") == 1  # type: ignore[dict-item]


def test_each_target_has_its_own_chances_for_the_panel() -> None:
    inputs = {**BASE, **targets(INFANTRY, PASSENGERS, {"kind": "vehicle", "name": "Stuart"},
                                {"kind": "building", "name": "Church"}, {**INFANTRY, "id": "u2", "name": "HQ",
                                                                        "building": "brick_stone", "storeys": 1})}
    (infantry, i), (passengers, p), (_, v), (_, b), (_, hq) = target_chances(inputs)  # type: ignore[arg-type]
    assert (infantry, passengers) == ("1 Section", "Passengers")
    assert [key for key, _ in i] == ["kills"] and [key for key, _ in p] == ["kills", "vehicle_shock"]
    assert [key for key, _ in v] == ["vehicle_shock"] and [key for key, _ in b] == ["unstable"]
    assert [key for key, _ in hq] == ["kills", "unstable"]
    # Per die no kill: a miss (1-3), or a hit (4-5) whose effect die does not kill in the Open; a 6 is a hit that
    # does not kill and earns one Storm of Steel die, which misses (1-3) or hits (4-6) without killing too.
    no_kill = Fraction(6 - hit_effect_faces("open").count("kill"), 6)
    storm_die_quiet = Fraction(1, 2) + Fraction(1, 2) * no_kill
    die_quiet = Fraction(1, 2) + Fraction(1, 3) * no_kill + Fraction(1, 6) * no_kill * storm_die_quiet
    assert dict(i)["kills"] == 1 - die_quiet ** 6
    # Per die no kill among passengers: a miss (1-4), or a 5 or 6 whose effect die does not kill in Light Cover
    # (a 6's Storm of Steel die then misses or does not kill either).
    light = Fraction(6 - hit_effect_faces("light").count("kill"), 6)
    extra_quiet = Fraction(4, 6) + Fraction(2, 6) * light
    assert dict(p)["kills"] == 1 - (Fraction(4, 6) + Fraction(1, 6) * light + Fraction(1, 6) * light * extra_quiet) ** 4
    assert dict(v)["vehicle_shock"] == 1 - Fraction(25, 36)
    assert 0 < dict(b)["unstable"] < dict(hq)["unstable"] + 1


def test_the_panel_with_the_most_storm_of_steel_finishes_and_agrees_with_the_full_odds() -> None:
    """The panel once showed each unit's whole (kills, Shock, vehicle Shock) odds: with 3 extra dice per 6 for 3
    rounds a lorry's passengers had 852,485 outcomes and took most of a minute. Its chances are a few numbers,
    and equal the full odds' where those finish (a tank's Shock from 4 dice hitting on 6 alone)."""
    from tests.benchmarks.odds_bench import LARGEST_STORM

    storm = next(inputs for name, _, inputs in LARGEST_STORM if name == "coc.bombardment_phase")
    chances = dict(target_chances(storm))  # type: ignore[arg-type]
    assert set(chances) >= {"Passengers", "Panzer IV", "HQ", "Church"}
    assert 0 < dict(chances["Passengers"])["vehicle_shock"] < 1
    tank = odds("coc.sos_fire", {"vehicle": "closed", "storm_of_steel_per_six": 3, "storm_of_steel_chains": True})
    sos_tank = target_chances({**BASE, **targets({"kind": "vehicle", "name": "Tank"}), "storm_of_steel_per_six": 3,
                               "storm_of_steel_chains": True})  # type: ignore[arg-type]
    assert dict(sos_tank[0][1])["vehicle_shock"] == 1 - tank.p("vehicle_shock=0")


def test_closed_form_spot_checks() -> None:
    vehicle = odds("coc.bombardment_phase", {**BASE, **targets({"kind": "vehicle"})})  # type: ignore[dict-item]
    assert vehicle.outcomes == ["kills=0"], "a vehicle's Shock is in its own odds, not the area's"
    (_, own), = target_chances({**BASE, **targets({"kind": "vehicle"})})  # type: ignore[arg-type]
    assert own == (("vehicle_shock", 1 - Fraction(25, 36)),)
    nobody = odds("coc.bombardment_phase", {**BASE, **targets(INFANTRY, INFANTRY)})  # type: ignore[dict-item]
    assert nobody.p("kills=0") > Fraction(1, 2) ** 12


@pytest.mark.parametrize("specs", [
    (INFANTRY,),
    ({**INFANTRY, "cover": "hard", "pinned": True}, {**INFANTRY, "cover": "light"}),
    (PASSENGERS, {"kind": "vehicle", "open_topped": True}),
    ({**INFANTRY, "building": "brick_stone", "storeys": 2, "building_id": "bld1"},
     {**INFANTRY, "building": "brick_stone", "storeys": 2, "building_id": "bld1"},
     {"kind": "building", "building": "brick_stone", "id": "bld2"}),
])
def test_odds_agree_with_simulation(specs: tuple[dict[str, object], ...]) -> None:
    assert_odds_match_simulation("coc.bombardment_phase", {**BASE, **targets(*specs)})  # type: ignore[dict-item]


def test_devastating_first_phase_odds_agree_with_simulation() -> None:
    first = {**BASE, "phases_fired": 0, "state": "ready", "activation": "begun", "devastating": True}
    assert_odds_match_simulation("coc.bombardment_phase",
                                 {**first, **targets(INFANTRY, {"kind": "vehicle"})})  # type: ignore[dict-item]


def test_vehicle_shock_odds_agree_with_simulation_with_chained_storm_of_steel() -> None:
    assert_odds_match_simulation("coc.bombardment_phase", {
        **BASE, "storm_of_steel_per_six": 2, "storm_of_steel_chains": True,
        **targets({"kind": "vehicle", "open_topped": True, "vehicle_immobilised": True}, PASSENGERS)})  # type: ignore[dict-item]


def test_its_settings_are_declared() -> None:
    assert get("coc.bombardment_phase").settings == (
        "storm_of_steel_per_six", "storm_of_steel_chains", *TABLE_SETTINGS, "bombardment_devastating_doubles_all",
        "bombardment_pin_exempt_material", "command_dice_pips_per_die", "coc_point_breaks_die")


@pytest.mark.parametrize(("inputs", "field", "message"), [
    ({"activation": None}, "activation", "is required \\(one of begun, command_die, coc_point, none, coc_die\\)"),
    ({"activation": "prayer"}, "activation", "must be one of begun"),
    ({"activation": "begun"}, "activation", "'begun' is only for the Phase a bombardment begins in"),
    ({"activation": "coc_point", "coc_points": 0}, "activation", "the side has no Chain of Command point to spend"),
    ({"activation": "coc_point", **IDS}, "coc_points", "is required to spend a Chain of Command point"),
    ({"pattern_die": None}, "pattern_die", "place the hidden Static or Rolling die before the first Phase"),
    ({"pattern_die": 7}, "pattern_die", "must be at most 6, not 7"),
    ({"pattern_die": 5}, "direction", "a Rolling bombardment needs a direction along a table edge"),
    ({"pattern_die": 5, "direction": "north"}, "direction", "not 'north'"),
    ({"direction": "up"}, "direction", "a Static bombardment \\(2\\) does not move"),
    ({"state": "ready"}, "phases_fired", "a bombardment that has fired 1 Phase is firing, not ready"),
    ({"state": "finished"}, "state", "must be one of ready, firing"),
    ({"phases_left": 0}, "phases_left", "must be at least 1, not 0"),
    ({"moves_left": 4}, "moves_left", "must be at most 3, not 4"),
    ({"firepower_dice": 0}, "firepower_dice", "must be at least 1, not 0"),
    ({"to_hit": 1}, "to_hit", "must be at least 2, not 1"),
    ({"bombardment_id": "b1"}, "turn", "is required"),
    ({"kind": "smoke", **targets(INFANTRY)}, "targets", "a smoke barrage rolls no dice against the units in it"),
    ({"kind": "sos"}, "kind", "must be one of high_explosive, smoke"),
    (targets({"kind": "cavalry"}), "target1_kind", "must be one of infantry, passengers, vehicle, building"),
    (targets({"name": "x"}), "target1_kind", "is required"),
    ({"targets": 61}, "targets", "must be at most 60, not 61"),
    (targets({"kind": "infantry", "figures": 3}), "target1_figures", "needs target1_id"),
    (targets({"kind": "infantry", "cover": "bunker"}), "target1_cover", "must be one of open, light, hard"),
    (targets({"kind": "infantry", "storeys": 2}), "target1_building", "is none, but target1_storeys"),
    (targets({"kind": "infantry", "building": "wood"}), "target1_storeys", "needs its storeys \\(1 or more\\), not 0"),
    (targets({"kind": "infantry", "teams": 0}), "target1_teams", "must be at least 1, not 0"),
    (targets({"kind": "vehicle", "cover": "hard"}), "target1_cover", "is not an input of this procedure"),
    (targets({"kind": "passengers", "pinned": True}), "target1_pinned", "is not an input of this procedure"),
    (targets({"kind": "building", "building": "none"}), "target1_building", "must be one of wood, brick_stone"),
    ({**targets(INFANTRY), "target2_kind": "infantry"}, "target2_kind", "is not an input of this procedure"),
    ({"bombardment_pin_exempt_material": "wood"}, "bombardment_pin_exempt_material", "must be one of"),
])
def test_refusals_name_the_field(inputs: dict[str, object], field: str, message: str) -> None:
    merged = {**BASE, **inputs}
    with pytest.raises(RulesInputError, match=message) as err:
        odds("coc.bombardment_phase", {k: v for k, v in merged.items() if v is not None})  # type: ignore[misc]
    assert err.value.field == field
