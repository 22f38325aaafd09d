"""The bombardment's steps that roll no dice, the inputs built from the table, and what Phase and Turn ends do."""

from __future__ import annotations

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment import Building
from battletracker.model.effects import Effect
from battletracker.model.effects import SetClock
from battletracker.model.effects import SetCondition
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.rules import RulesInputError
from battletracker.rules import resolve
from battletracker.rules.chain_of_command import bombardment as bm
from battletracker.rules.chain_of_command.bombardment_phase import phase_inputs
from battletracker.rules.chain_of_command.phase_end import end_phase_effects
from battletracker.rules.chain_of_command.phase_end import end_turn_effects
from battletracker.rules.chain_of_command.smoke_barrage import close_combat_terms
from battletracker.rules.chain_of_command.smoke_barrage import smoke_close_combats


def table() -> Game:
    game = Game(sides=[Side("British", "#3366cc", 9, 2), Side("German", "#cc3333", 8, 1)])
    for unit in (
        Unit("a", "1 Gruppe", "section", 1, 20.0, 20.0, figures=8, figures_max=10),
        Unit("b", "2 Gruppe", "section", 1, 60.0, 40.0, figures=8, figures_max=10),
        Unit("brit", "1 Section", "section", 0, 5.0, 40.0, figures=10, figures_max=10),
    ):
        game.units[unit.id] = unit
    return game


def apply(game: Game, effects: list[Effect]) -> list[Effect]:
    return game.apply_all(effects)


def next_own_phase(game: Game) -> None:
    """End Phase twice: past the other side's Phase to the active side's next one."""
    apply(game, [SetClock(game.turn, game.phase + 2, game.active_side)])


def firing(game: Game, **fields: object) -> Bombardment:
    """A bombardment that has begun (through its effects, so the marker and history are real)."""
    apply(game, bm.new_bombardment(game, 0, (5.0, 5.0), (20.0, 20.0), phases=int(fields.pop("phases", 4))))
    b = game.bombardments["b1"]
    for key, value in {"state": "ready", **fields}.items():
        setattr(b, key, value)
    return b


# placing, ranging, fire for effect, re-aiming ---------------------------------------------------------------


def test_a_new_bombardment_takes_its_area_and_weapon_from_the_settings() -> None:
    game = table()
    game.settings = {"bombardment_area_width": 24, "bombardment_firepower_dice": 8}
    apply(game, bm.new_bombardment(game, 0, (5.0, 5.0), (20.0, 20.0)))
    b = game.bombardments["b1"]
    assert (b.shape, b.width, b.depth, b.firepower_dice, b.to_hit, b.phases_left) == (
        "rectangle", 24.0, 12.0, 8, 4, 4)
    assert game.log[-1].kind == "bombardment" and "4 Phases of fire" in game.log[-1].text
    circle = bm.AreaOptions(shape="circle", radius=7.5)
    apply(game, bm.new_bombardment(game, 1, (60.0, 5.0), (40.0, 20.0), kind="smoke", phases=2, area=circle))
    smoke = game.bombardments["b2"]
    assert (smoke.kind, smoke.shape, smoke.radius, smoke.observer_id, smoke.side) == ("smoke", "circle", 7.5, "fo2", 1)


@pytest.mark.parametrize(("call", "field", "message"), [
    (lambda g: bm.new_bombardment(g, 2, (5, 5), (20, 20)), "side", "there is no side number 3"),
    (lambda g: bm.new_bombardment(g, 0, (5, 5), (20, 20), kind="gas"), "kind", "high_explosive or smoke"),
    (lambda g: bm.new_bombardment(g, 0, (5, 5), (20, 20), phases=7), "phases", "shows 1-6 Phases of fire, not 7"),
    (lambda g: bm.new_bombardment(g, 0, (5, 5), (80, 20)), "aim_x", "80 is off the table \\(0 to 72 inches\\)"),
    (lambda g: bm.new_bombardment(g, 0, (5, -2), (20, 20)), "observer_y", "-2 is off the table"),
    (lambda g: bm.new_bombardment(g, 0, (5, 5), (20, 20), area=bm.AreaOptions(shape="star")), "shape",
     "must be rectangle or circle"),
    (lambda g: bm.new_bombardment(g, 0, (5, 5), (20, 20), area=bm.AreaOptions(width=0)), "width",
     "must be more than 0 inches, not 0"),
    (lambda g: bm.new_bombardment(g, 0, (5, 5), (20, 20), area=bm.AreaOptions(to_hit=7)), "to_hit",
     "must be 2 to 6, not 7"),
    (lambda g: bm.new_bombardment(g, 0, (5, 5), (20, 20), area=bm.AreaOptions(firepower_dice=0)), "firepower_dice",
     "must be 1 to 60, not 0"),
    (lambda g: bm.ranging_inputs(g, "b9"), "bombardment_id", "that bombardment is not in the game"),
])
def test_refusals_when_placing(call: object, field: str, message: str) -> None:
    game = table()
    with pytest.raises(RulesInputError, match=message) as err:
        call(game)  # type: ignore[operator]
    assert err.value.field == field


def test_ranging_inputs_carry_the_bombardment_the_table_and_the_settings() -> None:
    game = table()
    game.settings = {"ranging_bearing_die_sides": 8, "bombardment_phases": 3}
    apply(game, bm.new_bombardment(game, 0, (5.0, 5.0), (20.0, 20.0)))
    inputs = bm.ranging_inputs(game, "b1", bearing=45.0)
    assert inputs == {"aim_x": 20.0, "aim_y": 20.0, "unobserved_attempts": 0, "bombardment_id": "b1", "turn": 1,
                      "phase": 1, "side": 0, "active_side": 0, "table_width": 72.0, "table_height": 48.0,
                      "bearing": 45.0, "ranging_bearing_die_sides": 8}
    apply(game, resolve("coc.ranging_shot", inputs, ScriptedDice([4, 4])).effects)
    with pytest.raises(RulesInputError, match="is ready; only a bombardment that is ranging takes a ranging shot"):
        bm.ranging_inputs(game, "b1")


def test_re_aiming_after_a_deviation_starts_ranging_again_without_the_plus_ones() -> None:
    game = table()
    apply(game, bm.new_bombardment(game, 0, (5.0, 5.0), (20.0, 20.0)))
    b = game.bombardments["b1"]
    apply(game, resolve("coc.ranging_shot", bm.ranging_inputs(game, "b1"), ScriptedDice([1, 1])).effects)
    next_own_phase(game)
    apply(game, resolve("coc.ranging_shot", bm.ranging_inputs(game, "b1", 180.0),
                        ScriptedDice([3, 3, 2, 2])).effects)
    assert (b.state, b.landed_x, b.landed_y, b.unobserved_attempts) == ("landed", 20.0, 24.0, 1)
    assert bm.next_action(b).key == "fire_for_effect_or_re_aim"
    next_own_phase(game)
    with pytest.raises(RulesInputError, match="80 is off the table"):
        bm.re_aim(game, "b1", (80.0, 10.0))
    apply(game, bm.re_aim(game, "b1", (30.0, 10.0)))
    assert (b.state, b.centre, b.landed_x, b.unobserved_attempts) == ("ranging", (30.0, 10.0), None, 0)
    assert b.history[-1].kind == "re_aim" and (b.history[-1].from_x, b.history[-1].x) == (20.0, 30.0)
    for call in (lambda: bm.fire_for_effect(game, "b1"), lambda: bm.re_aim(game, "b1", (1.0, 1.0))):
        with pytest.raises(RulesInputError, match="follows a ranging shot that deviated"):
            call()


def test_fire_for_effect_clears_a_stale_devastating_flag() -> None:
    game = table()
    b = firing(game, state="landed", landed_x=25.0, landed_y=20.0, devastating=True)
    apply(game, bm.fire_for_effect(game, "b1"))
    assert (b.state, b.centre, b.devastating) == ("ready", (25.0, 20.0), False)


# the hidden die --------------------------------------------------------------------------------------------


def test_the_hidden_die_static_or_rolling_and_its_refusals() -> None:
    game = table()
    b = firing(game)
    apply(game, bm.place_pattern_die(game, "b1", 2))
    assert (b.pattern_die, b.direction, b.moves_left) == (2, None, 0)
    assert bm.describe_pattern(b.pattern_die, b.direction) == "2: Static" and bm.future_centres(b) == []
    apply(game, bm.place_pattern_die(game, "b1", 6, "down"))
    assert (b.pattern_die, b.direction, b.moves_left) == (6, "down", 3)
    assert bm.describe_pattern(b.pattern_die, b.direction) == "6: Rolling 12\" per move, down"
    assert bm.future_centres(b) == [(20.0, 32.0), (20.0, 44.0), (20.0, 56.0)]
    assert bm.next_centre(b) == (20.0, 20.0), "the first Phase fires where it is"
    with pytest.raises(RulesInputError, match="a D6 shows 1-6, not 0") as err:
        bm.place_pattern_die(game, "b1", 0)
    assert err.value.field == "pattern_die"
    with pytest.raises(RulesInputError, match="needs a direction along a table edge"):
        bm.place_pattern_die(game, "b1", 4)
    with pytest.raises(RulesInputError, match="a Static bombardment \\(1\\) does not move"):
        bm.place_pattern_die(game, "b1", 1, "up")
    b.phases_fired, b.state = 1, "firing"
    with pytest.raises(RulesInputError, match="its die was placed when the bombardment began"):
        bm.place_pattern_die(game, "b1", 3)


def test_rolling_moves_stop_when_the_phases_run_out() -> None:
    game = table()
    b = firing(game, phases=2, pattern_die=4, direction="left", moves_left=3)
    assert bm.future_centres(b) == [(14.0, 20.0)]
    b.phases_fired, b.state, b.phases_left = 1, "firing", 1
    assert bm.future_centres(b) == [(14.0, 20.0)] and bm.next_centre(b) == (14.0, 20.0)


def test_extra_rounds_are_static_at_the_last_position() -> None:
    game = table()
    b = firing(game, phases=2, pattern_die=5, direction="right", moves_left=3)
    apply(game, bm.add_rounds(game, "b1", 2))
    assert (b.phases_left, b.extra_rounds, b.moves_left) == (4, 2, 1)
    assert bm.future_centres(b) == [(29.0, 20.0)]
    with pytest.raises(RulesInputError, match="at least one round, not 0"):
        bm.add_rounds(game, "b1", 0)
    b.state = "lingering"
    b.linger_phases = 1
    with pytest.raises(RulesInputError, match="is lingering; rounds are added to a bombardment that is firing"):
        bm.add_rounds(game, "b1", 1)


def test_the_area_and_weapon_can_be_edited_per_bombardment() -> None:
    game = table()
    b = firing(game)
    apply(game, bm.edit_area(game, "b1", bm.AreaOptions(width=24.0, firepower_dice=8)))
    assert (b.width, b.depth, b.firepower_dice, b.facing) == (24.0, 12.0, 8, 0.0)
    assert b.history[-1].kind == "edited"
    assert bm.edit_area(game, "b1", bm.AreaOptions(width=24.0)) == []
    with pytest.raises(RulesInputError, match="must be 2 to 6, not 1"):
        bm.edit_area(game, "b1", bm.AreaOptions(to_hit=1))


@pytest.mark.parametrize(("fields", "key"), [
    ({"state": "ranging"}, "range"),
    ({"state": "landed", "landed_x": 1.0, "landed_y": 1.0}, "fire_for_effect_or_re_aim"),
    ({"state": "ready"}, "place_pattern_die"),
    ({"state": "ready", "pattern_die": 1}, "fire"),
    ({"state": "firing", "pattern_die": 1}, "activate"),
    ({"state": "lingering", "linger_phases": 1}, "wait"),
    ({"state": "cleared"}, "none"),
])
def test_the_panel_is_told_the_next_step(fields: dict[str, object], key: str) -> None:
    b = Bombardment("b", 0, phases_left=2, **fields)  # type: ignore[arg-type]
    assert bm.next_action(b).key == key
    assert bm.next_action(Bombardment("b", 0, unobserved_attempts=2)).text == "Range (+2)"


# inputs from the table -------------------------------------------------------------------------------------


def test_phase_inputs_find_every_kind_of_target_in_the_area() -> None:
    game = table()
    game.units.update({
        "truck": Unit("truck", "Opel Blitz", "vehicle", 1, 22.0, 22.0, stats={"transport": True}),
        "p1": Unit("p1", "Passengers", "section", 1, 22.0, 22.0, figures=6, figures_max=8,
                   stats={"embarked_in": "truck", "teams": 2}),
        "apc": Unit("apc", "Hanomag", "vehicle", 1, 24.0, 18.0, counters={"shock": 2},
                    vehicle=Vehicle("apc", open_topped=True, damage=["immobilised"])),
        "p2": Unit("p2", "Safe inside", "section", 1, 24.0, 18.0, stats={"embarked_in": "apc"}),
        "dead": Unit("dead", "Gone", "team", 1, 21.0, 21.0, figures=0, figures_max=2),
        "house_team": Unit("house_team", "In the house", "team", 1, 15.0, 17.0, figures=2, figures_max=2,
                           conditions=["pinned"], stats={"cover": "light"}),
        "far": Unit("far", "Outside", "team", 1, 40.0, 40.0),
    })
    game.buildings = {
        "house": Building("house", "House", 15.0, 17.0, 4.0, 4.0, 0.0, "brick_stone", 2, ["house_team"]),
        "church": Building("church", "Church", 25.0, 24.0, 6.0, 6.0, 0.0, "brick_stone", 1),
        "barn": Building("barn", "Barn", 14.0, 24.0, 4.0, 4.0, 0.0, "wood", 1),
        "ruin": Building("ruin", "Ruin", 26.0, 16.0, 4.0, 4.0, 0.0, "brick_stone", 1, [], "collapsed"),
    }
    firing(game, pattern_die=1, state="firing", phases_fired=1)
    inputs = phase_inputs(game, "b1", "command_die", covers={"a": "hard"}, linear_obstacles=["a"])
    found = {inputs[f"target{i}_id"]: inputs[f"target{i}_kind"] for i in range(1, int(inputs["targets"]) + 1)}
    assert found == {"a": "infantry", "p1": "passengers", "apc": "vehicle", "house_team": "infantry",
                     "church": "building"}
    index = {inputs[f"target{i}_id"]: i for i in range(1, int(inputs["targets"]) + 1)}
    a, p1, apc, house = (f"target{index[k]}_" for k in ("a", "p1", "apc", "house_team"))
    assert (inputs[a + "cover"], inputs[a + "linear_obstacle"], inputs[a + "pinned"]) == ("hard", True, False)
    assert (inputs[p1 + "vehicle_id"], inputs[p1 + "teams"], inputs[p1 + "figures"]) == ("truck", 2, 6)
    # an immobilised APC's later Shock is not doubled (only the AFV table says so)
    assert (inputs[apc + "open_topped"], inputs[apc + "vehicle_current_shock"],
            inputs[apc + "vehicle_immobilised"]) == (True, 2, False)
    assert (inputs[house + "cover"], inputs[house + "pinned"], inputs[house + "building"],
            inputs[house + "storeys"], inputs[house + "building_id"]) == ("light", True, "brick_stone", 2, "house")
    res = resolve("coc.bombardment_phase", inputs, ScriptedDice([1] * 100))
    assert [v["id"] for v in res.values["targets"]] == list(found)
    assert res.values["pinned"] == ["a"]
    fewer = phase_inputs(game, "b1", "command_die", exclude=["a", "church"])
    assert {fewer[f"target{i}_id"] for i in range(1, int(fewer["targets"]) + 1)} == {"p1", "apc", "house_team"}


def test_phase_inputs_refusals_and_what_they_leave_out() -> None:
    game = table()
    apply(game, bm.new_bombardment(game, 0, (5.0, 5.0), (20.0, 20.0)))
    with pytest.raises(RulesInputError, match="is ranging; only a bombardment that has begun has Phases of fire"):
        phase_inputs(game, "b1", "command_die")
    b = game.bombardments["b1"]
    b.state, b.pattern_die = "firing", 1
    assert "targets" not in phase_inputs(game, "b1", "none")
    b.kind = "smoke"
    assert "targets" not in phase_inputs(game, "b1", "command_die")


def test_restrictions_under_a_bombardment() -> None:
    game = table()
    game.units["truck"] = Unit("truck", "Opel Blitz", "vehicle", 1, 22.0, 22.0, stats={"transport": True})
    game.units["p1"] = Unit("p1", "Passengers", "section", 1, 22.0, 22.0, stats={"embarked_in": "truck"})
    apply(game, bm.new_bombardment(game, 0, (5.0, 5.0), (20.0, 20.0)))
    assert bm.fire_refusal(game, "brit", "a") is None, "ranging has no effect on the table yet"
    b = game.bombardments["b1"]
    b.state = "firing"
    assert bm.fire_refusal(game, "brit", "a") == (
        "1 Gruppe is under British mortars, first barrage: units in a bombardment area cannot be fired at")
    assert bm.fire_refusal(game, "a", "brit") == (
        "1 Gruppe is under British mortars, first barrage: units in a bombardment area cannot fire")
    assert bm.fire_refusal(game, "b", "brit") is None
    assert "cannot move, but may Reposition" in (bm.move_refusal(game, "a") or "")
    assert bm.move_refusal(game, "b") is None
    assert "passengers cannot disembark voluntarily" in (bm.disembark_refusal(game, "p1") or "")
    assert bm.disembark_refusal(game, "a") is None
    b.kind = "smoke"
    assert bm.fire_refusal(game, "brit", "a") is None


# Phase and Turn ends ------------------------------------------------------------------------------------------


def test_a_bombardment_that_runs_out_lingers_to_the_end_of_the_following_phase() -> None:
    game = table()
    b = firing(game, phases=1, pattern_die=1)
    apply(game, resolve("coc.bombardment_phase", phase_inputs(game, "b1", "begun"), ScriptedDice([1] * 6)).effects)
    assert (b.state, b.linger_phases, b.pinned) == ("lingering", 2, ["a"])
    assert "fo1" not in game.markers
    apply(game, end_phase_effects(game))
    assert (b.state, b.linger_phases) == ("lingering", 1) and game.units["a"].has("pinned")
    assert bm.fire_refusal(game, "brit", "a") is not None, "effects stay through the following Phase"
    apply(game, end_phase_effects(game))
    assert (b.state, b.pinned) == ("cleared", []) and not game.units["a"].has("pinned")
    assert "its effects end and its smoke clears" in game.log[-2].text
    assert end_phase_effects(game) == []


def test_a_turn_end_takes_a_phase_and_can_end_the_bombardment() -> None:
    game = table()
    b = firing(game, phases=1, pattern_die=1)
    apply(game, end_turn_effects(game))
    assert (b.state, b.phases_left, b.linger_phases, b.observer_id) == ("lingering", 0, 1, "")
    assert "fo1" not in game.markers and b.history[-1].kind == "ended"
    apply(game, end_phase_effects(game))
    assert b.state == "cleared"


def test_a_turn_end_does_not_interrupt_ranging() -> None:
    game = table()
    apply(game, bm.new_bombardment(game, 0, (5.0, 5.0), (20.0, 20.0)))
    b = game.bombardments["b1"]
    b.unobserved_attempts = 1
    before = savefile.dumps(game)
    due = end_turn_effects(game)
    assert due == []
    assert savefile.dumps(game) == before


def test_pins_held_by_two_bombardments_stay_until_both_clear() -> None:
    game = table()
    b = firing(game, pattern_die=1, state="lingering", linger_phases=1, pinned=["a"])
    game.units["a"].conditions = ["pinned"]
    game.bombardments["b2"] = Bombardment("b2", 0, kind="sos", state="lingering", x=20.0, y=20.0, linger_phases=2,
                                          shape="circle", pinned=["a"])
    apply(game, end_phase_effects(game))
    assert b.state == "cleared" and game.units["a"].has("pinned")
    apply(game, end_phase_effects(game))
    assert not game.units["a"].has("pinned")


def test_a_unit_left_outside_stays_pinned_until_its_shock_is_rallied() -> None:
    game = table()
    b = firing(game, pattern_die=1, state="firing", phases_fired=1, pinned=["a", "b"])
    game.units["a"].conditions = ["pinned"]
    game.units["b"].conditions = ["pinned"]
    game.units["b"].counters["shock"] = 2
    apply(game, end_phase_effects(game))
    assert b.pinned == ["a", "b"], "1 Gruppe is still inside the area"
    game.units["a"].x = 50.0
    apply(game, end_phase_effects(game))
    assert b.pinned == ["b"] and not game.units["a"].has("pinned") and game.units["b"].has("pinned")
    game.units["b"].counters["shock"] = 0
    apply(game, end_phase_effects(game))
    assert b.pinned == [] and not game.units["b"].has("pinned")


def test_a_unit_left_behind_is_released_when_the_bombardment_ends_not_a_phase_later() -> None:
    """"remains Pinned until all Shock is rallied from it or the Bombardment ends, whichever occurs first"."""
    game = table()
    b = firing(game, phases=1, pattern_die=1, state="firing", phases_fired=1, pinned=["a", "b"])
    for unit_id in ("a", "b"):
        game.units[unit_id].conditions = ["pinned"]
        game.units[unit_id].counters["shock"] = 2
    game.units["b"].x, game.units["b"].y = 20.0, 20.0          # still under the area
    game.units["a"].x = 50.0                                   # left behind, with Shock
    before = savefile.dumps(game)
    inputs = phase_inputs(game, "b1", "command_die")
    assert inputs["left_behind"] == "a"
    res = resolve("coc.bombardment_phase", inputs, ScriptedDice([1] * 6))
    assert res.values["ended"]
    undo = apply(game, res.effects)
    assert b.state == "lingering" and not game.units["a"].has("pinned") and b.pinned == ["b"]
    assert game.units["b"].has("pinned"), "a unit under the bombardment stays Pinned while its effects last"
    assert any("left behind" in line for line in res.log)
    for inverse in reversed(undo):
        inverse.apply(game)
    assert savefile.dumps(game) == before


def test_a_turn_end_that_ends_the_bombardment_releases_the_units_it_left_behind() -> None:
    game = table()
    b = firing(game, phases=1, pattern_die=1, state="firing", phases_fired=1, pinned=["a"])
    game.units["a"].conditions = ["pinned"]
    game.units["a"].counters["shock"] = 1
    game.units["a"].x = 50.0
    apply(game, end_turn_effects(game))
    assert b.state == "lingering" and b.pinned == [] and not game.units["a"].has("pinned")


def test_rallying_the_last_shock_of_a_unit_left_behind_releases_it_at_once() -> None:
    game = table()
    b = firing(game, pattern_die=1, state="firing", phases_fired=1, pinned=["a"])
    game.units["a"].conditions = ["pinned"]
    game.units["a"].counters["shock"] = 1
    assert bm.rally_release(game, "a", 0) == ([], []), "still under the area"
    game.units["a"].x = 50.0
    assert bm.rally_release(game, "a", 1) == ([], []), "Shock left"
    effects, lines = bm.rally_release(game, "a", 0)
    assert lines == ["1 Gruppe has rallied all its Shock outside the bombardment: no longer Pinned"]
    apply(game, effects)
    assert b.pinned == [] and not game.units["a"].has("pinned")


def test_reminders_for_the_coming_phase() -> None:
    game = table()
    firing(game, pattern_die=1, state="firing", phases_fired=1)
    game.bombardments["b2"] = Bombardment("b2", 0, state="landed", landed_x=1.0, landed_y=1.0)
    game.bombardments["b3"] = Bombardment("b3", 1, state="ranging")
    count = len(game.log)
    apply(game, end_phase_effects(game, next_side=0))
    lines = [e.text for e in game.log[count:]]
    assert any("must be activated with a Command Dice 1 or a Chain of Command point" in line for line in lines)
    assert "Next Phase: British mortars, second barrage fires for effect on the landing point, or re-aims" in lines
    assert not any("b3" in line for line in lines)
    assert any("was not activated this Phase" in line for line in lines)


def test_smoke_barrage_close_combats_within_two_inches() -> None:
    game = table()
    game.units["brit"].x, game.units["brit"].y = 21.5, 20.0
    game.units["b"].x, game.units["b"].y = 22.0, 20.5
    firing(game, pattern_die=1, state="firing", kind="smoke")
    assert smoke_close_combats(game) == [("a", "brit"), ("b", "brit")]
    count = len(game.log)
    apply(game, end_phase_effects(game, next_side=1))
    assert sum("fight a Close Combat: no dice for enemy movement" in e.text for e in game.log[count:]) == 2
    terms = close_combat_terms(game, "brit", "a")
    assert terms is not None and (terms.enemy_movement_dice, terms.losing_result_levels_worse) == (0, 1)
    assert terms.barrage.id == "b1"
    game.units["far"] = Unit("far", "Far", "team", 0, 70.0, 45.0)
    game.units["far2"] = Unit("far2", "Far 2", "team", 1, 70.0, 46.0)
    assert close_combat_terms(game, "far", "far2") is None
    game.bombardments["b1"].kind = "high_explosive"
    assert smoke_close_combats(game) == [] and close_combat_terms(game, "brit", "a") is None


def test_end_effects_undo_exactly() -> None:
    game = table()
    firing(game, phases=1, pattern_die=1, state="firing", phases_fired=1, pinned=["a"])
    game.units["a"].conditions = ["pinned"]
    game.buildings["bld"] = Building("bld", "House", 50.0, 30.0, state="unstable", occupants=["b"])
    before = savefile.dumps(game)
    inverses = apply(game, end_turn_effects(game, next_side=1))
    inverses += apply(game, end_phase_effects(game))
    assert SetCondition("a", "pinned", True) in inverses
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert savefile.dumps(game) == before
