"""Reading the table for an indirect fire mission, without Qt: the facts the
dialog shows and the refusals a player reads, in inches to one decimal."""

from __future__ import annotations

import pytest

from battletracker.rules import RulesInputError
from battletracker.rules.armour_battles.mission import NAME
from battletracker.rules.armour_battles.plans import Refusal, indirect_mission
from tests.rules.armour_battles.test_indirect_mission import kursk, observed


def refusal(choices: dict[str, object], game_setup: object = None) -> str:
    game = kursk()
    if callable(game_setup):
        game_setup(game)
    with pytest.raises(RulesInputError) as refused:
        indirect_mission(game, choices)
    assert isinstance(refused.value, Refusal)
    return str(refused.value)


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

    def far_corner(game: object) -> None:
        stuh = kursk_unit(game, "stuh")
        stuh.x, stuh.y = 1.0, 47.0

    assert refusal({"firer": "stuh", "x": 71.0, "y": 0.0, "los": True}, far_corner) == (
        'The aiming point is 84.3" from StuH 42 (close support), beyond its indirect fire long range of 72" '
        '(long range 36" doubled).')


def kursk_unit(game: object, uid: str):  # type: ignore[no-untyped-def]
    return game.units[uid]  # type: ignore[attr-defined]


def test_sight_observer_and_opportunity_fire_are_refused_in_a_players_words() -> None:
    base = {"firer": "stuh", "x": 30.0, "y": 20.0}
    assert refusal(base) == "Without line of sight to the aiming point another unit must act as Forward Observer."
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
        "The aiming point's x must be a number of inches, not 'here'.")
    assert refusal({**base, "x": 80.0, "los": True}) == 'The aiming point (80.0, 20.0) is off the 72" by 48" table.'


def test_the_firer_must_be_an_unsuppressed_close_support_unit() -> None:
    base = {"x": 30.0, "y": 20.0, "los": True}
    assert refusal({**base, "firer": "t34"}) == "T34/43 is not a close-support unit."
    assert refusal({**base, "firer": "gone"}) == "The firing unit is no longer on the table."
    assert refusal({**base, "firer": "stuh"},
                   lambda g: g.units["stuh"].conditions.append("suppressed")) == (
        "StuH 42 (close support) is suppressed and cannot fire.")


def test_cover_dice_and_a_dispersed_unit_are_read_off_the_table() -> None:
    def disperse(game: object) -> None:
        kursk_unit(game, "smgs").counters["disruption"] = 3

    game = kursk()
    disperse(game)
    plan = indirect_mission(game, {"firer": "stuh", "x": 30.0, "y": 20.0, "los": True, "cover": "rifles=2"})
    assert [plan.inputs[f"unit{n}_id"] for n in (1, 2)] == ["rifles", "t34"]  # the dispersed unit is gone
    assert plan.inputs["unit1_cover_dice"] == 2 and plan.inputs["unit2_cover_dice"] == 0
