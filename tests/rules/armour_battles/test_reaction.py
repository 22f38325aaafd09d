"""ab.reaction: the target's Reaction Check against incoming fire."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import SetCondition
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.armour_battles.reaction import plan_reaction
from battletracker.rules.armour_battles.reaction import suppresses
from tests.rules.armour_battles.helpers import battle
from tests.rules.armour_battles.helpers import unit_from_preset
from tests.rules.oddscheck import assert_odds_match_simulation

NAME = "ab.reaction"


def check(**extra: str | int | float | bool) -> dict[str, str | int | float | bool]:
    inputs: dict[str, str | int | float | bool] = {"reaction_dice": 4, "incoming": 2, "incoming_sixes": 1}
    inputs.update(extra)
    return inputs


def test_no_successes_means_no_reaction_check() -> None:
    dice = ScriptedDice([])
    res = resolve(NAME, check(incoming=0, incoming_sixes=0, target_id="u1"), dice)
    assert res.outcome == "disruption=0 suppressed=no"
    assert list(res.rolls) == [] and list(res.effects) == []
    assert res.values["checked"] is False
    assert odds(NAME, check(incoming=0, incoming_sixes=0)).p("disruption=0 suppressed=no") == 1


def test_uncancelled_successes_are_disruption_and_unmatched_sixes_suppress() -> None:
    # Two successes (one a 6) against 4D at 4+: one success and no 6.
    res = resolve(NAME, check(), ScriptedDice([4, 3, 2, 1, 5]))
    assert res.outcome == "disruption=1 suppressed=yes"
    assert (res.values["saves"], res.values["reaction_sixes"], res.values["tn"]) == (1, 0, 4)
    assert res.values["forced_back"] == 6 + 5
    assert list(res.rolls) == [("Reaction dice", (4, 3, 2, 1)), ("Forced back (D6 per unmatched 6)", (5,))]


def test_matching_the_sixes_avoids_normal_suppression() -> None:
    res = resolve(NAME, check(), ScriptedDice([6, 1, 1, 1]))
    assert res.outcome == "disruption=1 suppressed=no"
    assert res.values["forced_back"] == 6
    assert list(res.rolls) == [("Reaction dice", (6, 1, 1, 1))]


def test_artillery_suppression_needs_more_sixes_to_avoid() -> None:
    matched = resolve(NAME, check(suppression="artillery"), ScriptedDice([6, 4, 1, 1]))
    assert matched.outcome == "disruption=0 suppressed=yes"
    beaten = resolve(NAME, check(suppression="artillery"), ScriptedDice([6, 6, 1, 1]))
    assert beaten.outcome == "disruption=0 suppressed=no"
    assert suppresses("normal", 1, 1) is False
    assert suppresses("artillery", 1, 1) is True
    assert suppresses("artillery", 0, 0) is False


def test_already_suppressed_units_react_at_5_plus() -> None:
    res = resolve(NAME, check(suppressed=True, incoming_sixes=0), ScriptedDice([4, 4, 5, 1]))
    assert res.values["tn"] == 5
    assert res.outcome == "disruption=1 suppressed=no"


def test_cover_dice_add_to_the_reaction_dice() -> None:
    assert plan_reaction(check(cover_dice=1)).dice_rolled == 5
    # Against indirect fire cover counts by default; the setting can turn it off.
    assert plan_reaction(check(cover_dice=1, suppression="artillery")).dice_rolled == 5
    assert plan_reaction(check(cover_dice=1, suppression="artillery", cover_against_indirect=False)).dice_rolled == 4
    assert plan_reaction(check(cover_dice=2, indirect=True, cover_against_indirect=False)).cover_dice == 0


def test_reaction_target_number_slides() -> None:
    # Suppressed (5+) and three worse: 8+ slides to 6+ with two dice fewer.
    plan = plan_reaction(check(suppressed=True, tn_modifier=3))
    assert (plan.tn_unslid, plan.tn, plan.slide_dice, plan.dice_rolled) == (8, 6, -2, 2)
    # 4+ and three better: 1+ slides to 2+ with one die more.
    plan = plan_reaction(check(tn_modifier=-3))
    assert (plan.tn_unslid, plan.tn, plan.slide_dice, plan.dice_rolled) == (1, 2, 1, 5)


def test_third_disruption_disperses_the_unit() -> None:
    res = resolve(NAME, check(incoming=3, incoming_sixes=0, disruption=1), ScriptedDice([4, 1, 1, 1]))
    assert res.outcome == "disruption=2 suppressed=no"
    assert res.values["disruption_total"] == 3
    assert res.values["dispersed"] is True
    assert res.values["forced_back"] == 0
    assert len(res.rolls) == 1


def test_effects_on_the_target_and_their_undo() -> None:
    target = unit_from_preset("t34_43", "t34", 1, 30.0, 20.0)
    game = battle(target)
    res = resolve(NAME, check(incoming=2, incoming_sixes=2, suppression="artillery", target_id="t34",
                              firer_id="stuh"), ScriptedDice([6, 1, 1, 1, 2, 3]))
    assert res.outcome == "disruption=1 suppressed=yes"
    assert list(res.effects) == [ChangeCounter("t34", "disruption", 1), SetCondition("t34", "suppressed"),
                           SetCondition("t34", "artillery_suppressed")]
    inverses = game.apply_all(res.effects)
    assert game.unit("t34").counters["disruption"] == 1
    assert game.unit("t34").conditions == ["artillery_suppressed", "suppressed"]
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert game.unit("t34").counters["disruption"] == 0
    assert game.unit("t34").conditions == []


def test_dispersal_effect() -> None:
    res = resolve(NAME, check(incoming=1, incoming_sixes=0, disruption=2, target_id="inf"), ScriptedDice([1, 1, 1, 1]))
    assert list(res.effects) == [ChangeCounter("inf", "disruption", 1), SetCondition("inf", "dispersed")]


def test_normal_suppression_sets_only_suppressed() -> None:
    res = resolve(NAME, check(incoming=1, incoming_sixes=1, target_id="inf"), ScriptedDice([5, 5, 5, 5]))
    assert list(res.effects) == [SetCondition("inf", "suppressed")]


def test_refusals_name_the_numbers() -> None:
    with pytest.raises(RulesInputError, match="incoming_sixes: 3 sixes cannot be more than the 2 successes"):
        odds(NAME, check(incoming_sixes=3))
    with pytest.raises(RulesInputError, match="disruption: a unit with 3 Disruption has already dispersed "
                                              r"\(Cohesion 3\)"):
        odds(NAME, check(disruption=3))
    with pytest.raises(RulesInputError, match="suppression: must be one of normal, artillery"):
        odds(NAME, check(suppression="heavy"))


def test_closed_form_odds() -> None:
    # One success that is a 6 against one die at 4+.
    normal = odds(NAME, check(reaction_dice=1, incoming=1, incoming_sixes=1))
    assert normal.p("disruption=0 suppressed=no") == Fraction(1, 6)
    assert normal.p("disruption=0 suppressed=yes") == Fraction(2, 6)
    assert normal.p("disruption=1 suppressed=yes") == Fraction(3, 6)
    artillery = odds(NAME, check(reaction_dice=1, incoming=1, incoming_sixes=1, suppression="artillery"))
    assert artillery.p("disruption=0 suppressed=yes") == Fraction(1, 2)
    assert artillery.p("disruption=1 suppressed=yes") == Fraction(1, 2)


@pytest.mark.parametrize("extra", [
    {},
    {"suppression": "artillery", "incoming": 3, "incoming_sixes": 2},
    {"suppressed": True, "cover_dice": 2},
    {"reaction_dice": 6, "incoming": 4, "incoming_sixes": 0, "disruption": 2},
    {"reaction_dice": 0, "incoming": 2},
    {"tn_modifier": 3, "suppressed": True, "incoming": 3, "incoming_sixes": 3},
])
def test_odds_match_simulation(extra: dict[str, str | int | bool]) -> None:
    assert_odds_match_simulation(NAME, check(**extra))
