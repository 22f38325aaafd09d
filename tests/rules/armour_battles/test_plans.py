"""Reading the table for an indirect fire mission, without Qt: the facts the
dialog shows and the refusals a player reads, in inches to one decimal."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from battletracker.model.game import Game
from battletracker.rules import RulesInputError
from battletracker.rules.armour_battles.mission import NAME
from battletracker.rules.armour_battles.plans import PLANS
from battletracker.rules.armour_battles.plans import AbPlan
from battletracker.rules.armour_battles.plans import Refusal
from battletracker.rules.armour_battles.plans import close_assault
from battletracker.rules.armour_battles.plans import direct_fire
from battletracker.rules.armour_battles.plans import indirect_mission
from battletracker.rules.armour_battles.plans import reaction
from tests.rules.armour_battles.helpers import kursk
from tests.rules.armour_battles.helpers import observed


def refusal_of(plan: Callable[[Game, dict[str, object]], AbPlan], choices: dict[str, object],
               setup: Callable[[Game], object] | None = None) -> str:
    """The sentence a plan refuses `choices` with on the document's table (after `setup`)."""
    game = kursk()
    if setup is not None:
        setup(game)
    with pytest.raises(RulesInputError) as refused:
        plan(game, choices)
    assert isinstance(refused.value, Refusal)
    return str(refused.value)


def refusal(choices: dict[str, object], setup: Callable[[Game], object] | None = None) -> str:
    return refusal_of(indirect_mission, choices, setup)


def test_the_plan_states_range_sight_dice_and_who_is_under_the_burst() -> None:
    plan = indirect_mission(kursk(), {"firer": "stuh", "x": 30.0, "y": 20.0, "los": True})
    assert plan.procedure == NAME
    assert plan.facts == (
        'Range 24.0" from StuH 42 (close support): long range (indirect fire reaches 72", nothing within 9").',
        "Line of sight to the aiming point: the fire lands on target, no deviation roll.",
        "FP 7D, halved 4D = 4D at 4+ against infantry and soft targets.",
        "AT 4D, halved 2D = 2D at 4+ against armoured targets.",
        "Indirect fire causes artillery suppressions.",
        'Under the 2" burst at the aiming point: Rifle platoon, SMG platoon, T34/43.',
    )
    assert plan.inputs["units"] == 3  # with line of sight only the burst at the aiming point can be hit
    assert plan.inputs["marker_id"] == "impact1"


def test_an_observed_mission_lists_the_units_a_deviation_could_reach() -> None:
    plan = indirect_mission(kursk(), observed())
    assert "Forward Observer: Rifle platoon. Without line of sight the deviation die is rolled: 2 of its 6 faces " \
           'Hit, otherwise the fire moves 1D" along the arrow.' in plan.facts
    assert "Within reach if it deviates: Rifle platoon." in plan.facts  # "far"; the observer is 10" off
    assert [plan.inputs[f"unit{n}_id"] for n in range(1, 5)] == ["rifles", "smgs", "t34", "far"]
    assert plan.inputs["unit3_armoured"] is True and plan.inputs["unit1_reaction_dice"] == 4


def test_ranges_are_refused_with_the_distance_to_one_decimal() -> None:
    assert refusal({"firer": "stuh", "x": 30.0, "y": 37.7, "los": True}) == (
        'The aiming point is 6.3" from StuH 42 (close support), within its short range of 9": '
        "indirect fire cannot target anything at short range.")

    def far_corner(game: Game) -> None:
        game.units["stuh"].x, game.units["stuh"].y = 1.0, 47.0

    assert refusal({"firer": "stuh", "x": 71.0, "y": 0.0, "los": True}, far_corner) == (
        'The aiming point is 84.3" from StuH 42 (close support), beyond its indirect fire long range of 72" '
        '(long range 36" doubled).')


def test_sight_observer_and_opportunity_fire_are_refused_in_a_players_words() -> None:
    base = {"firer": "stuh", "x": 30.0, "y": 20.0, "los": False}
    assert refusal(base) == ("Without line of sight to the aiming point another unit must act as Forward Observer "
                             "(Rifle platoon can see it on the map).")
    assert refusal({**base, "observer": "stuh"}) == (
        "StuH 42 (close support) cannot observe its own fire: pick another unit.")
    assert refusal({**base, "observer": "rifles"}) == (
        "Rifle platoon is on the other side and cannot observe for StuH 42 (close support).")
    assert refusal({**base, "observer": "observer", "opportunity": True}) == (
        "A close-support unit may only use opportunity fire with a direct line of sight to the target.")
    assert refusal({**base, "los": True, "move": "crawl"}) == "The firer's move is a single, double or triple move."
    assert refusal({**base, "los": True, "cover": "rifles=lots"}) == (
        "Rifle platoon's Cover Dice must be a whole number from 0 to 6.")
    assert refusal({**base, "x": "here", "los": True}) == (
        "The aiming point's x must be a number of inches.")
    assert refusal({**base, "x": 80.0, "los": True}) == ('The aiming point is 8" beyond the east edge, off the 72" by '
                                                       '48" table.')


def test_the_firer_must_be_an_unsuppressed_close_support_unit() -> None:
    base = {"x": 30.0, "y": 20.0, "los": True}
    assert refusal({**base, "firer": "t34"}) == "T34/43 is not a close-support unit."
    assert refusal({**base, "firer": "gone"}) == "That firing unit is no longer on the table (was it removed?)."
    assert refusal({**base, "firer": "stuh"},
                   lambda g: g.units["stuh"].conditions.append("suppressed")) == (
        "StuH 42 (close support) is suppressed and cannot fire.")


def test_cover_dice_and_a_dispersed_unit_are_read_off_the_table() -> None:
    game = kursk()
    game.units["smgs"].counters["disruption"] = 3
    plan = indirect_mission(game, {"firer": "stuh", "x": 30.0, "y": 20.0, "los": True, "cover": "rifles=2"})
    assert [plan.inputs[f"unit{n}_id"] for n in (1, 2)] == ["rifles", "t34"]  # the dispersed unit is gone
    assert plan.inputs["unit1_cover_dice"] == 2 and plan.inputs["unit2_cover_dice"] == 0


def test_direct_fire_reads_range_band_and_the_face_the_shot_strikes() -> None:
    game = kursk()
    game.units["stuh"].y = 32.0  # 12" from the rifles: effective range
    game.units["rifles"].facing = 180.0  # facing the StuH
    plan = direct_fire(game, {"firer": "stuh", "target": "rifles"})
    assert plan.procedure == "ab.close_support_fire"
    assert plan.facts == ('Range 12.0" to Rifle platoon: effective range.', "The shot strikes Rifle platoon's front.",
                          "FP 7D = 7D at 4+ against infantry and soft targets.",
                          "Direct fire causes normal suppressions.")
    assert (plan.inputs["flank_or_rear"], plan.inputs["dice_type"], plan.inputs["range"]) == (False, "fp", 12.04)

    behind = direct_fire(kursk(), {"firer": "stuh", "target": "rifles", "move": "double"})  # 24", from behind
    assert "The shot strikes Rifle platoon's rear: flank or rear." in behind.facts
    assert "FP 7D, -1D moving = 6D at 4+ against infantry and soft targets." in behind.facts  # long +1, rear -1
    assert direct_fire(kursk(), {"firer": "stuh", "target": "t34", "flank_or_rear": False}).inputs["dice_type"] == "at"


def test_direct_fire_refusals_are_sentences() -> None:
    base = {"firer": "stuh", "target": "rifles"}
    assert refusal_of(direct_fire, {**base, "los": False}) == (
        "Direct fire needs a line of sight to the target; without one a close-support unit fires indirectly "
        "with a Forward Observer.")
    assert refusal_of(direct_fire, {**base, "los": False, "opportunity": True}) == (
        "A close-support unit may only use opportunity fire with a direct line of sight to the target.")
    assert refusal_of(direct_fire, {**base, "target": "stuh"}) == (
        "StuH 42 (close support) cannot pick itself as the target.")

    def far_away(game: Game) -> None:
        game.units["rifles"].y = 3.55

    assert refusal_of(direct_fire, base, far_away) == (
        'Rifle platoon is 40.5" from StuH 42 (close support), beyond its long range of 36".')


def test_the_reaction_plan_counts_reaction_and_cover_dice() -> None:
    plan = reaction(kursk(), {"firer": "stuh", "target": "rifles", "incoming": 3, "incoming_sixes": 1, "cover": 1})
    assert plan.procedure == "ab.reaction"
    assert plan.facts == ("Rifle platoon rolls 5D with 1 Cover Die needing 4+ against 3 successes and 1 six.",)
    assert (plan.inputs["suppression"], plan.inputs["reaction_dice"]) == ("normal", 4)
    none = reaction(kursk(), {"firer": "stuh", "target": "t34", "mode": "indirect", "incoming": 0})
    assert none.facts == ("The fire scored no successes: T34/43 makes no Reaction Check.",)
    assert none.inputs["suppression"] == "artillery"


def test_close_assault_fights_as_a_gun_and_never_overruns() -> None:
    plan = close_assault(kursk(), {"firer": "stuh", "target": "t34", "attacker": True})
    assert plan.procedure == "ab.close_support_assault"
    assert plan.facts == ("StuH 42 (close support) against T34/43.", "AT 4D as a gun (+2 TN) = 4D at 5+.")
    assert refusal_of(close_assault, {"firer": "stuh", "target": "rifles", "overrun": True}) == (
        "Close-support units can never make an overrun attack.")
    assert refusal_of(close_assault, {"firer": "t34", "target": "rifles"}) == "T34/43 is not a close-support unit."


@pytest.mark.parametrize("name", sorted(PLANS))
def test_every_plan_names_its_procedure_and_its_inputs_are_taken(name: str) -> None:
    from battletracker.rules import odds

    choices = {"firer": "stuh", "target": "rifles", "x": 30.0, "y": 20.0, "los": True, "incoming": 2}
    plan = PLANS[name](kursk(), choices)
    assert plan.procedure == name
    assert odds(plan.procedure, plan.inputs).total() == 1
