"""The whole indirect fire mission as one procedure: the document's example
with scripted dice in the document's order, the deviation moving the burst
onto other units, exact odds, and undo restoring the game exactly."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from battletracker.core.dice import DiceExhausted
from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.armour_battles import mission
from battletracker.rules.armour_battles.plans import indirect_mission
from tests.rules.armour_battles.helpers import battle
from tests.rules.armour_battles.helpers import kursk
from tests.rules.armour_battles.helpers import observed
from tests.rules.armour_battles.helpers import unit_from_preset
from tests.rules.oddscheck import assert_odds_match_simulation


def test_the_documents_mission_rolls_fp_4d_at_the_infantry_and_at_2d_at_the_tank_in_one_resolution() -> None:
    game = kursk()
    before = savefile.game_to_dict(game)
    plan = indirect_mission(game, {"firer": "stuh", "x": 30.0, "y": 20.0, "los": True})
    dice = ScriptedDice([6, 4, 3, 2, 6, 1, 1, 1,   # rifles: 2 hits, one 6; Reaction 1 save, one 6
                         5, 5, 1, 1, 1, 1, 1, 1,   # smgs: 2 hits; no saves
                         4, 2, 5, 1, 1, 1, 1])     # t34: AT 2D, 1 hit; saved
    res = resolve(plan.procedure, plan.inputs, dice)
    assert dice.remaining == 0
    assert [label for label, _ in res.rolls] == [
        "Rifle platoon: FP dice", "Rifle platoon: Reaction dice", "SMG platoon: FP dice",
        "SMG platoon: Reaction dice", "T34/43: AT dice", "T34/43: Reaction dice"]
    assert res.values["under"] == ("rifles", "smgs", "t34")  # "far" is 2.01" away
    assert [(t["dice_type"], t["dice_rolled"]) for t in res.values["targets"]] == [("fp", 4), ("fp", 4), ("at", 2)]
    assert res.outcome == "on_target suppressed=1 disrupted=2"
    assert mission.label(res.outcome) == "On target: 1 unit suppressed, 2 take Disruption"

    undo = game.apply_all(res.effects)
    assert game.units["rifles"].counters["disruption"] == 1
    assert {"suppressed", "artillery_suppressed"} <= set(game.units["rifles"].conditions)
    assert game.units["smgs"].counters["disruption"] == 2 and game.units["smgs"].conditions == []
    assert game.units["t34"].counters.get("disruption", 0) == 0 and game.units["t34"].conditions == []
    assert game.markers == {}  # placed and removed within the one step
    game.apply_all(list(reversed(undo)))
    assert savefile.game_to_dict(game) == before


def test_without_line_of_sight_the_arrow_moves_the_burst_onto_other_units() -> None:
    game = kursk()
    plan = indirect_mission(game, observed(bearing=90.0))
    dice = ScriptedDice(["arrow", 3,               # deviates 3" on the arrow read off the table
                         1, 1, 1, 1,               # smgs: no hits, no Reaction Check
                         6, 6, 2, 2, 1, 1, 1, 1,   # far: 2 hits, two 6s; Reaction 0 saves
                         4, 5])                    # far forced back 6" + 2D" for the unmatched 6s
    res = resolve(plan.procedure, plan.inputs, dice)
    assert dice.remaining == 0
    assert (res.values["x"], res.values["y"]) == pytest.approx((33.0, 20.0))
    assert res.values["under"] == ("smgs", "far")
    assert res.outcome == "deviated suppressed=1 disrupted=1"
    assert res.values["targets"][1]["forced_back"] == 15
    game.apply_all(res.effects)
    assert game.units["far"].counters["disruption"] == 2 and game.units["rifles"].counters["disruption"] == 0


def test_a_hit_on_the_deviation_die_lands_on_the_aiming_point_and_a_clock_die_gives_the_arrow() -> None:
    plan = indirect_mission(kursk(), observed())
    hit = resolve(plan.procedure, plan.inputs, ScriptedDice(["hit", *[1] * 12]))
    assert hit.values["under"] == ("rifles", "smgs", "t34") and hit.outcome.startswith("on_target")
    clock = resolve(plan.procedure, plan.inputs, ScriptedDice(["arrow", 6, 6]))  # 6 o'clock: down the table
    assert (clock.values["x"], clock.values["y"]) == pytest.approx((30.0, 26.0))
    assert clock.values["under"] == () and clock.outcome == "deviated suppressed=0 disrupted=0"
    assert mission.label(clock.outcome) == "Deviates: no effect"


def test_moving_costs_the_halved_dice_and_a_triple_move_leaves_no_at_dice() -> None:
    game = kursk()
    double = indirect_mission(game, {"firer": "stuh", "x": 30.0, "y": 20.0, "los": True, "move": "double"})
    assert "FP 7D, halved 4D, -1D moving = 3D at 4+ against infantry and soft targets." in double.facts
    assert "AT 4D, halved 2D, -1D moving = 1D at 4+ against armoured targets." in double.facts
    triple = indirect_mission(game, {"firer": "stuh", "x": 30.0, "y": 20.0, "los": True, "move": "triple"})
    assert "AT 4D, halved 2D, -2D moving = no dice: no effect against armoured targets." in triple.facts
    res = resolve(triple.procedure, triple.inputs, ScriptedDice([1, 1, 1, 1]))  # the two infantry units' 2D
    assert [(t["id"], t["dice_rolled"]) for t in res.values["targets"]] == [("rifles", 2), ("smgs", 2), ("t34", 0)]


def test_typed_dice_are_asked_for_by_the_unit_they_are_for() -> None:
    plan = indirect_mission(kursk(), {"firer": "stuh", "x": 30.0, "y": 20.0, "los": True})
    with pytest.raises(DiceExhausted) as need:
        resolve(plan.procedure, plan.inputs, ScriptedDice([6, 4, 3, 2, 6, 1, 1, 1]))
    assert need.value.label == "SMG platoon: FP dice" and need.value.count == 4


@pytest.mark.parametrize("choices", [
    {"firer": "stuh", "x": 30.0, "y": 20.0, "los": True},
    observed(),
    observed(bearing=90.0, move="double"),
])
def test_the_odds_are_exact_and_agree_with_a_simulation(choices: dict[str, object]) -> None:
    plan = indirect_mission(kursk(), choices)
    dist = odds(plan.procedure, plan.inputs)
    assert dist.total() == Fraction(1)
    assert_odds_match_simulation(plan.procedure, plan.inputs, runs=3000)


def test_on_target_with_line_of_sight_the_odds_are_the_three_units_rolls() -> None:
    plan = indirect_mission(kursk(), {"firer": "stuh", "x": 30.0, "y": 20.0, "los": True})
    dist = odds(plan.procedure, plan.inputs)
    assert all(o.startswith("on_target") for o in dist.outcomes)
    observed_dist = odds(plan.procedure, indirect_mission(kursk(), observed()).inputs)
    assert observed_dist.probability(lambda o: o.startswith("on_target")) == Fraction(2, 6)


def test_cold_odds_for_ten_units_around_the_aiming_point_take_milliseconds() -> None:
    """Not a timing test of the machine: a guard that the odds stay interactive (cache cleared first)."""
    units = [unit_from_preset("stuh_42", "stuh", 0, 30.0, 44.0),
             unit_from_preset("rifle_platoon_su", "observer", 0, 30.0, 30.0)]
    spots = [(28.0, 20.0), (30.5, 19.0), (32.0, 21.5), (29.0, 23.0), (27.0, 17.0),
             (33.5, 18.0), (31.0, 15.5), (25.5, 21.0), (34.0, 23.5), (30.0, 25.0)]
    for n, (x, y) in enumerate(spots):
        units.append(unit_from_preset("t34_43" if n % 3 == 0 else "rifle_platoon_su", f"u{n}", 1, x, y))
    plan = indirect_mission(battle(*units), observed())
    assert plan.inputs["units"] == 10
    best = 1.0
    for _ in range(3):
        mission.clear_caches()
        start = time.perf_counter()
        dist = odds(plan.procedure, plan.inputs)
        best = min(best, time.perf_counter() - start)
    assert dist.total() == Fraction(1)
    assert best < 0.05


def test_odds_with_cover_a_suppressed_unit_and_one_a_point_from_dispersal_agree_with_a_simulation() -> None:
    game = kursk()
    game.units["smgs"].counters["disruption"] = 2
    game.units["smgs"].conditions.append("suppressed")  # 5+ to react
    plan = indirect_mission(game, {**observed(), "cover": "rifles=2,t34=1", "move": "double"})
    assert plan.inputs["unit2_disruption"] == 2 and plan.inputs["unit2_suppressed"] is True
    assert_odds_match_simulation(plan.procedure, plan.inputs, runs=3000, seed=7)
    res = resolve(plan.procedure, plan.inputs, ScriptedDice(["hit", 1, 1, 1,  6, 6, 1,  1, 1, 1, 1, 1]))
    smgs = res.values["targets"][1]
    assert (smgs["disruption"], smgs["dispersed"]) == (2, True)  # two hits, no saves: Cohesion 3 reached


def test_units_that_only_take_disruption_are_called_units() -> None:
    assert mission.label("on_target suppressed=0 disrupted=1") == "On target: 1 unit takes Disruption"
    assert mission.label("deviates suppressed=0 disrupted=2") == "Deviates: 2 units take Disruption"
    assert mission.label("on_target suppressed=1 disrupted=2") == "On target: 1 unit suppressed, 2 take Disruption"
