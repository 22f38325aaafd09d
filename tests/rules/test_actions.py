"""Actions: every simple change as a plan and a procedure, performed without Qt and recorded with its dice."""

from __future__ import annotations

import copy
from collections.abc import Mapping

import pytest

from battletracker import rules
from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.dice import DiceExhausted
from battletracker.core.dice import RandomDice
from battletracker.core.dice import ScriptedDice
from battletracker.core.odds import Distribution
from battletracker.model import savefile
from battletracker.model.actions import Action
from battletracker.model.actions import ActionError
from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment import Building
from battletracker.model.effects import Changes
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.rules import ChoiceNeeded
from battletracker.rules import Inputs
from battletracker.rules import Plan
from battletracker.rules import Procedure
from battletracker.rules import Refusal
from battletracker.rules import Resolution
from battletracker.rules import Roller
from battletracker.rules import RulesInputError
from battletracker.rules import perform
from battletracker.rules import plan
from battletracker.rules import procedures
from battletracker.rules import register
from battletracker.rules import register_plan
from battletracker.rules.actions import actions
from battletracker.rules.chain_of_command import bombardment as bm
from battletracker.rules.replay import check
from battletracker.rules.table_actions import unit_choice
from tests.model.sample import sample_game
from tests.rules.oddscheck import assert_odds_match_simulation


def apply(game: Game, name: str, choices: Mapping[str, object], dice: list[int] | None = None) -> Resolution:
    result = perform(game, name, choices, dice, time="2026-05-01T20:00:00")  # type: ignore[arg-type]
    game.apply_all(result.effects)
    return result


def test_every_simple_action_has_a_plan() -> None:
    assert {"unit.move", "unit.turn", "unit.shock", "unit.counter", "unit.figures", "unit.ammo", "unit.condition",
            "unit.damage", "side.change",
            "unit.add", "unit.edit", "unit.remove", "clock.end_phase", "clock.end_turn"} <= set(actions())


def test_a_plan_reads_the_table_and_echoes_the_choices() -> None:
    game = sample_game()
    p = plan("unit.shock", game, {"unit": "u1", "delta": 1})
    assert isinstance(p, Plan)
    assert p.procedure == "unit.counter"
    assert p.facts == ("Shock on 1 Section: 2 -> 3",)
    assert p.choices == {"unit": "u1", "delta": 1}
    assert p.title == "Shock +1 on 1 Section"


@pytest.mark.parametrize(("name", "choices", "sentence"), [
    ("unit.shock", {"unit": "u99", "delta": 1}, "That unit is no longer on the table (was it removed?)."),
    ("unit.move", {"delta": 1}, "Choose the unit."),
    ("unit.move", {"unit": "u1", "x": "far", "y": 3.0}, "Where to across the table must be a number."),
    ("unit.move", {"unit": "u1", "x": 12.0, "y": 40.0}, "1 Section is already there."),
    ("unit.figures", {"unit": "u1", "delta": 0}, "Add or take off at least one figure."),
    ("unit.ammo", {"unit": "u2", "weapon": 3}, "MG 42 tripod has no weapon number 4."),
    ("clock.end_phase", {"side": 1}, "Ending a Phase or a Turn takes no choices."),
    ("unit.fly", {}, "BattleTracker has no action called 'unit.fly'."),
])
def test_a_plan_refuses_in_a_players_words(name: str, choices: dict[str, object], sentence: str) -> None:
    game = sample_game()
    before = copy.deepcopy(game)
    with pytest.raises(Refusal) as caught:
        perform(game, name, choices)  # type: ignore[arg-type]
    assert str(caught.value) == sentence
    assert game == before


def test_move_turn_shock_figures_ammo_condition_apply_and_log_in_a_players_words() -> None:
    game = sample_game()
    apply(game, "unit.move", {"unit": "u1", "x": 15.0, "y": 44.0})
    apply(game, "unit.turn", {"unit": "u2", "facing": 90.0})
    apply(game, "unit.shock", {"unit": "u1", "delta": -1})
    apply(game, "unit.counter", {"unit": "u2", "counter": "suppression", "delta": 2})
    apply(game, "unit.figures", {"unit": "u1", "delta": -2})
    apply(game, "unit.ammo", {"unit": "u2", "weapon": 0, "rounds": 2})
    apply(game, "unit.ammo", {"unit": "u3", "weapon": 0})
    apply(game, "unit.ammo", {"unit": "u2", "weapon": 0, "refill": True})
    apply(game, "unit.condition", {"unit": "u1", "condition": "pinned", "present": False})
    u1, u2 = game.units["u1"], game.units["u2"]
    assert (u1.x, u1.y, u1.shock, u1.figures, u1.conditions) == (15.0, 44.0, 1, 6, [])
    assert (u2.facing, u2.counters["suppression"], u2.weapons[0].ammo) == (90.0, 3, 10)
    assert game.units["u3"].weapons[0].ammo == 2
    assert [e.text for e in game.log[-9:]] == [
        '1 Section moved 5" to 4" from the south edge, 15" from the west edge',
        "MG 42 tripod turned 90° to face 90°",
        "Shock on 1 Section: 2 -> 1",
        "Suppression on MG 42 tripod: 1 -> 3",
        "Figures of 1 Section: 8 -> 6 of 10",
        "MG 42 (MG 42 tripod): 6 -> 4 rounds",
        "Flammenwerfer (Flamethrower): 3 -> 2 fuel",
        "MG 42 (MG 42 tripod) refilled: 4 -> 10 rounds",
        "1 Section is no longer Pinned",
    ]
    assert [a.name for a in game.actions] == ["unit.move", "unit.turn", "unit.shock", "unit.counter", "unit.figures",
                                              "unit.ammo", "unit.ammo", "unit.ammo", "unit.condition"]


def test_the_model_still_refuses_shock_below_zero_and_an_empty_weapon() -> None:
    game = sample_game()
    before = copy.deepcopy(game)
    with pytest.raises(GameError, match="1 Section has 2 shock; cannot remove 3"):
        game.apply_all(perform(game, "unit.shock", {"unit": "u1", "delta": -3}).effects)
    with pytest.raises(GameError, match="has no fuel left"):
        game.apply_all(perform(game, "unit.ammo", {"unit": "u3", "weapon": 0, "rounds": 4}).effects)
    assert game == before


def test_add_edit_remove_a_unit_round_trip_through_plain_choices() -> None:
    game = sample_game()
    new = copy.deepcopy(game.units["u3"])
    new.id, new.name, new.x = "u9", "2 Flamethrower", 22.0
    apply(game, "unit.add", {"unit": unit_choice(new), "what": "Flamethrower team"})
    assert game.units["u9"] == new
    edited = copy.deepcopy(new)
    edited.name, edited.figures = "Flammen 2", 1
    apply(game, "unit.edit", {"unit": unit_choice(edited)})
    apply(game, "unit.remove", {"unit": "u1"})
    assert game.units["u9"] == edited and "u1" not in game.units
    assert [e.text for e in game.log[-3:]] == [
        "Added 2 Flamethrower (Flamethrower team) for British 2\" east of Flamethrower facing 45°",
        "Edited 2 Flamethrower: name 2 Flamethrower -> Flammen 2; figures 2/2 -> 1/2",
        "Removed 1 Section (Section, British) from the table",
    ]
    with pytest.raises(Refusal, match="Nothing about Flammen 2 was changed."):
        perform(game, "unit.edit", {"unit": unit_choice(edited)})
    with pytest.raises(Refusal, match="Flammen 2 already has the id 'u9'."):
        perform(game, "unit.add", {"unit": unit_choice(edited)})
    with pytest.raises(Refusal, match="That unit cannot be put on the table"):
        perform(game, "unit.add", {"unit": "{\"id\": \"u10\"}"})


def test_end_phase_and_end_turn_move_the_clock_and_log_it() -> None:
    game = sample_game()  # Turn 2, Phase 3, the Germans' Phase
    apply(game, "clock.end_phase", {})
    assert (game.turn, game.phase, game.active_side) == (2, 4, 0)
    apply(game, "clock.end_turn", {})
    assert (game.turn, game.phase, game.active_side) == (3, 1, 0)
    assert [(e.text, e.kind) for e in game.log[-4:]] == [
        ("End of Turn 2 Phase 3", "clock"), ("Turn 2, Phase 4: British", "clock"),
        ("End of Turn 2", "clock"), ("Turn 3, Phase 1: British", "clock"),
    ]


def test_undoing_every_action_restores_the_game_exactly_and_forgets_the_record() -> None:
    game = sample_game()
    before = copy.deepcopy(game)
    undo: list[list[object]] = []
    for name, choices in [("unit.shock", {"unit": "u1", "delta": 1}), ("unit.remove", {"unit": "u2"}),
                          ("clock.end_phase", {}), ("dice.pool", {"dice": 2, "target": 4})]:
        undo.append(game.apply_all(perform(game, name, choices, rng=RandomDice(3)).effects))  # type: ignore[arg-type]
    assert game.start is not None and len(game.actions) == 4
    for inverses in reversed(undo):
        for inverse in reversed(inverses):
            game.apply(inverse)  # type: ignore[arg-type]
    assert game == before
    assert game.start is None and game.actions == []


def test_the_dice_rolled_are_recorded_in_order_whether_typed_or_the_apps() -> None:
    game = sample_game()
    typed = apply(game, "dice.pool", {"dice": 3, "target": 5}, [6, 2, 5])
    assert typed.values == {"successes": 2}
    assert game.actions[-1] == Action("dice.pool", {"dice": 3, "target": 5}, (6, 2, 5), "2026-05-01T20:00:00")
    assert [e.text for e in game.log[-2:]] == ["Dice pool - rolls: 3D6: 6 2 5",
                                               "Rolled 3D6 needing 5+: 6 2 5 -> 2 successes"]
    rolled = perform(game, "dice.pool", {"dice": 4, "target": 5}, rng=RandomDice(7))
    game.apply_all(rolled.effects)
    assert list(game.actions[-1].dice) == list(rolled.rolls[0][1])
    with pytest.raises(DiceExhausted):
        perform(game, "dice.pool", {"dice": 3, "target": 5}, [6])
    with pytest.raises(Refusal, match="4 dice were given, but Dice pool rolled 3."):
        perform(game, "dice.pool", {"dice": 3, "target": 5}, [6, 2, 5, 1])


def _ask_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    if "aim" not in inputs:
        raise ChoiceNeeded("aim", (("left", "To the left"), ("right", "To the right")),
                           "Which way does the burst walk?")
    roll = Roller(dice).one(f"burst walks {inputs['aim']}", D6)
    return Resolution("test.ask", str(roll), log=[f"Walked {inputs['aim']}"])


def test_a_choice_needed_mid_procedure_is_asked_and_the_action_run_again_with_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    procedures()
    monkeypatch.setattr(rules, "_registry", dict(rules._registry))
    register(Procedure("test.ask", "Walk the burst", _ask_resolve, lambda _i: Distribution.uniform("123456"),
                       ruleset="test"))
    game = sample_game()
    with pytest.raises(ChoiceNeeded) as caught:
        perform(game, "test.ask", {}, [4])
    assert (caught.value.field, caught.value.options) == ("aim", (("left", "To the left"), ("right", "To the right")))
    result = perform(game, "test.ask", {"aim": "left"}, [4])
    assert result.outcome == "4" and list(result.log) == ["Walked left"]


def test_a_plan_is_registered_once() -> None:
    with pytest.raises(ValueError, match="'unit.move' has a plan already"):
        register_plan("unit.move", lambda game, choices: Plan("unit.move", {}))


def test_choices_must_be_plain_values() -> None:
    with pytest.raises(RulesInputError, match="The choice 'unit' must be text, a number or yes/no."):
        perform(sample_game(), "unit.shock", {"unit": ["u1"]})  # type: ignore[dict-item]


def test_an_action_goes_to_json_and_back_equal_and_bad_data_is_refused() -> None:
    action = Action("dice.pool", {"dice": 3, "target": 4, "note": "é", "on": True, "x": 1.5}, (1, 5, "hit"), "t")
    assert Action.from_plain(action.to_plain()) == action
    for bad, message in [([], "must be an object"), ({"name": ""}, "needs a name"),
                         ({"name": "a", "choices": {"x": [1]}}, "choice 'x' of a must be text"),
                         ({"name": "a", "dice": [True]}, "dice of a must be a list"),
                         ({"name": "a", "extra": 1}, "no field 'extra'"),
                         ({"name": "a", "choices": {"x": float("nan")}}, "choice 'x' of a")]:
        with pytest.raises(ActionError, match=message):
            Action.from_plain(bad)


def test_the_apps_dice_are_used_when_no_dice_are_given() -> None:
    result = perform(sample_game(), "dice.pool", {"dice": 5, "target": 4}, rng=ScriptedDice([1, 2, 3, 4, 5]))
    assert result.values == {"successes": 2}


def test_the_simple_actions_are_certain_and_their_odds_say_so() -> None:
    game = sample_game()
    for name, choices in [("unit.move", {"unit": "u1", "x": 1.0, "y": 2.0}), ("unit.shock", {"unit": "u1", "delta": 1}),
                          ("unit.figures", {"unit": "u1", "delta": -1}), ("unit.ammo", {"unit": "u2"}),
                          ("unit.condition", {"unit": "u1", "condition": "broken"}), ("unit.remove", {"unit": "u1"}),
                          ("clock.end_turn", {})]:
        p = plan(name, game, choices)  # type: ignore[arg-type]
        assert_odds_match_simulation(p.procedure, p.inputs, runs=50)


def test_side_values_and_vehicle_damage_are_actions_too() -> None:
    game = sample_game()
    apply(game, "side.change", {"side": 1, "value": "force_morale", "delta": -2})
    apply(game, "side.change", {"side": 0, "value": "coc_points", "delta": 1})
    apply(game, "unit.damage", {"unit": "u4", "damage": "immobilised"})
    apply(game, "unit.damage", {"unit": "u4", "damage": "engine_damage", "present": False})
    assert (game.sides[1].force_morale, game.sides[0].coc_points) == (6, 3)
    assert game.units["u4"].vehicle is not None and game.units["u4"].vehicle.damage == ["immobilised"]
    assert [e.text for e in game.log[-4:]] == [
        "Force Morale of German: 8 -> 6", "Chain of Command points of British: 2 -> 3",
        "Panzer IV H: Vehicle Immobilised recorded", "Panzer IV H: Engine Damage repaired",
    ]
    with pytest.raises(Refusal, match="1 Section is not a vehicle."):
        perform(game, "unit.damage", {"unit": "u1", "damage": "immobilised"})
    with pytest.raises(Refusal, match="There is no side number 3."):
        perform(game, "side.change", {"side": 2, "value": "coc_points", "delta": 1})
    with pytest.raises(GameError, match="cannot be negative"):
        game.apply_all(perform(game, "side.change", {"side": 1, "value": "force_morale", "delta": -7}).effects)


def test_recording_an_action_says_it_touches_the_history_and_a_refused_step_records_nothing() -> None:
    game = sample_game()
    result = perform(game, "unit.shock", {"unit": "u1", "delta": -5})
    assert result.effects[0].touches == Changes(history=True)
    with pytest.raises(GameError):
        game.apply_all(result.effects)
    assert game.actions == [] and game.start is None


def test_removing_a_unit_takes_its_pins_and_its_place_in_a_building_along_in_the_app_and_a_replay() -> None:
    game = sample_game()
    game.bombardments["b1"] = Bombardment("b1", 0, state="firing", x=30.0, y=8.0, phases_left=2,
                                        pinned=["u1", "u2"])
    game.buildings["bld1"] = Building("bld1", "Farmhouse", 30.0, 8.0, occupants=["u2"])
    before = copy.deepcopy(game)
    inverses = game.apply_all(perform(game, "unit.remove", {"unit": "u2"}).effects)
    assert "u2" not in game.units
    assert game.bombardments["b1"].pinned == ["u1"] and game.buildings["bld1"].occupants == []
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert game == before
    game.apply_all(perform(game, "unit.remove", {"unit": "u2"}).effects)
    assert check(savefile.loads(savefile.dumps(game))).ok


def test_rallying_the_last_shock_of_a_unit_left_behind_by_a_bombardment_releases_its_pin() -> None:
    """It "remains Pinned until all Shock is rallied from it or the Bombardment ends"."""
    game = sample_game()
    game.apply_all(bm.new_bombardment(game, 1, (60.0, 5.0), (60.0, 10.0)))
    b = next(iter(game.bombardments.values()))
    b.state, b.pattern_die, b.phases_fired, b.pinned = "firing", 1, 1, ["u1"]
    assert "u1" not in bm.units_in_area(game, b)
    result = apply(game, "unit.shock", {"unit": "u1", "delta": -1})
    assert game.unit("u1").has("pinned") and list(result.log) == ["Shock on 1 Section: 2 -> 1"]
    result = apply(game, "unit.shock", {"unit": "u1", "delta": -1})
    assert not game.unit("u1").has("pinned") and b.pinned == []
    assert game.log[-1].text == "1 Section has rallied all its Shock outside the bombardment: no longer Pinned"


def test_a_chain_of_command_unit_with_no_figures_left_is_out_of_play_until_given_one_back() -> None:
    game = sample_game()
    apply(game, "unit.figures", {"unit": "u3", "delta": -2})
    assert not game.unit("u3").in_play
    assert game.log[-1].text == "Flamethrower has no figures left: out of play. Its side takes a Force Morale Test"
    apply(game, "unit.figures", {"unit": "u3", "delta": 1})
    assert game.unit("u3").in_play and game.log[-1].text == "Flamethrower is back in play"
    other = sample_game()
    other.ruleset = "necromunda"
    apply(other, "unit.figures", {"unit": "u3", "delta": -2})
    assert other.unit("u3").in_play, "only Chain of Command takes a unit with no figures out of play"


def test_flamethrower_fuel_is_never_refilled() -> None:
    game = sample_game()
    apply(game, "unit.ammo", {"unit": "u3", "weapon": 0})
    with pytest.raises(Refusal, match="^The Flammenwerfer's fuel cannot be resupplied: a flamethrower carries fuel"):
        plan("unit.ammo", game, {"unit": "u3", "weapon": 0, "refill": True})
    apply(game, "unit.ammo", {"unit": "u2", "weapon": 0, "refill": True})
    assert game.unit("u2").weapons[0].ammo == 10
