"""necro.stray_shots: the models along the line of fire, closest to the attacker first."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import DiceExhausted
from battletracker.core.dice import ScriptedDice
from battletracker.core.odds import Distribution
from battletracker.model.effects import SetCondition
from battletracker.rules import RulesInputError
from battletracker.rules import get
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.base import InputValue
from battletracker.rules.necromunda.stray_shots import _odds
from battletracker.rules.necromunda.stray_shots import mixed_weights
from battletracker.rules.necromunda.stray_shots import stray_shot_candidates
from tests.rules.necromunda.helpers import assert_sentence
from tests.rules.oddscheck import assert_odds_match_simulation

NAME = "necro.stray_shots"


def stray(**over: InputValue) -> dict[str, InputValue]:
    base: dict[str, InputValue] = {"toolkit_stray_shots": True, "at_risk": "u3,u4,u5", "hits": 1}
    base.update(over)
    return base


def test_the_first_model_is_hit_on_1_to_3() -> None:
    r = resolve(NAME, stray(), ScriptedDice([3]))
    assert r.outcome == "hit=u3"
    assert list(r.rolls) == [("Stray shot 1: u3", (3,))]
    assert list(r.effects) == [SetCondition("u3", "suppressed")]


def test_a_4_to_6_moves_the_shot_on_in_order() -> None:
    r = resolve(NAME, stray(), ScriptedDice([4, 6, 1]))
    assert r.outcome == "hit=u5"
    assert [label for label, _ in r.rolls] == ["Stray shot 1: u3", "Stray shot 1: u4", "Stray shot 1: u5"]
    assert r.values["per_hit"] == ["u5"]


def test_a_shot_past_every_model_hits_no_one() -> None:
    r = resolve(NAME, stray(), ScriptedDice([4, 5, 6]))
    assert r.outcome == "none" and list(r.effects) == [] and r.values["missed_everyone"] == 1


def test_every_hit_starts_again_from_the_closest_model() -> None:
    r = resolve(NAME, stray(hits=3), ScriptedDice([5, 2, 1, 6, 6, 6]))
    assert r.values["per_hit"] == ["u4", "u3", None]
    assert r.outcome == "hit=u3,u4"
    assert r.values["counts"] == {"u3": 1, "u4": 1}
    assert [label for label, _ in r.rolls] == ["Stray shot 1: u3", "Stray shot 1: u4", "Stray shot 2: u3",
                                               "Stray shot 3: u3", "Stray shot 3: u4", "Stray shot 3: u5"]


def test_a_model_hit_twice_is_listed_once_and_suppressed_once() -> None:
    r = resolve(NAME, stray(hits=2), ScriptedDice([1, 2]))
    assert r.outcome == "hit=u3" and r.values["counts"] == {"u3": 2}
    assert list(r.effects) == [SetCondition("u3", "suppressed")]


def test_engaged_seriously_injured_and_ledge_flags_on_models_hit() -> None:
    inputs = stray(hits=3, engaged="u3", seriously_injured="u4", near_ledge="u5,u4")
    r = resolve(NAME, inputs, ScriptedDice([1, 4, 1, 4, 4, 1]))
    assert r.values["per_hit"] == ["u3", "u4", "u5"]
    assert list(r.effects) == [SetCondition("u5", "suppressed"), SetCondition("u5", "check_falling")]


def test_no_models_at_risk_means_no_dice_and_no_one_hit() -> None:
    r = resolve(NAME, stray(at_risk="", hits=2), ScriptedDice([]))
    assert r.outcome == "none" and list(r.rolls) == []
    assert odds(NAME, stray(at_risk="")).p("none") == 1


def test_running_out_of_dice_names_the_next_model() -> None:
    with pytest.raises(DiceExhausted, match="Stray shot 1: u4"):
        resolve(NAME, stray(), ScriptedDice([5]))


def test_odds_closed_form() -> None:
    dist = odds(NAME, stray())
    assert dist.p("hit=u3") == Fraction(1, 2)
    assert dist.p("hit=u4") == Fraction(1, 4)
    assert dist.p("hit=u5") == Fraction(1, 8)
    assert dist.p("none") == Fraction(1, 8)
    two = odds(NAME, stray(at_risk="a,b", hits=2))
    # Each Hit: a 1/2, b 1/4, no one 1/4.
    assert two.p("hit=a") == Fraction(3, 4) ** 2 - Fraction(1, 4) ** 2
    assert two.p("hit=a,b") == 2 * Fraction(1, 2) * Fraction(1, 4)
    assert two.p("hit=b") == Fraction(1, 2) ** 2 - Fraction(1, 4) ** 2
    assert two.p("none") == Fraction(1, 16)


@pytest.mark.parametrize("models, groups", [
    (1, (((1, 1),),)),
    (3, (((2, 5), (4, 1)), ((1, 7),), ((3, 2), (3, 1), (6, 4)))),
    (8, (((6, 11), (9, 3), (18, 1)), ((7, 2), (8, 5)))),
])
def test_shots_of_several_counts_mix_each_count_as_its_weight_says(
        models: int, groups: tuple[tuple[tuple[int, int], ...], ...]) -> None:
    rows, scale = mixed_weights(models, groups)
    for group, row in zip(groups, rows, strict=True):
        total = sum(w for _, w in group)
        plain = Distribution.mix((Fraction(w, total), _odds(models, n)) for n, w in group)
        assert Distribution.from_weights(dict(enumerate(row)), total * scale) == plain


@pytest.mark.parametrize("at_risk, hits", [("u1", 1), ("u1,u2,u3", 1), ("u1,u2", 3), ("a,b,c,d,e", 4)])
def test_odds_match_simulation(at_risk: str, hits: int) -> None:
    assert_odds_match_simulation(NAME, stray(at_risk=at_risk, hits=hits))


@pytest.mark.parametrize("over, field, message", [
    ({"toolkit_stray_shots": False}, "toolkit_stray_shots", "off in this game"),
    ({"hits": 0}, "hits", "at least 1"),
    ({"at_risk": "u3,u3"}, "at_risk", "'u3' is listed twice"),
    ({"at_risk": "u3,,u4"}, "at_risk", "Entry 2 of the list of models at risk of a stray shot ('u3,,u4') is empty."),
    ({"at_risk": "u3:1"}, "at_risk", "':'"),
    ({"at_risk": ",".join(f"u{i}" for i in range(9))}, "at_risk", "at most 8 models, not 9"),
    ({"engaged": "u9"}, "engaged", "'u9' in the list of Engaged models is not one of the models listed"),
    ({"near_ledge": "u9"}, "near_ledge", "not one of"),
])
def test_refusals(over: dict[str, InputValue], field: str, message: str) -> None:
    with pytest.raises(RulesInputError) as err:
        resolve(NAME, stray(**over), ScriptedDice([1] * 20))
    assert err.value.field == field and message in str(err.value)
    assert_sentence(str(err.value))


def test_the_toolkit_option_is_off_by_default() -> None:
    inputs = stray()
    del inputs["toolkit_stray_shots"]
    with pytest.raises(RulesInputError, match="toolkit"):
        odds(NAME, inputs)
    assert get(NAME).settings == ("toolkit_stray_shots",)


def test_candidates_along_the_line_closest_to_the_attacker_first() -> None:
    attacker = ("a", (0.0, 0.0))
    target = ("t", (10.0, 0.0))
    models = [attacker, target, ("far", (8.0, 1.0)), ("near", (2.0, -0.5)), ("wide", (5.0, 1.5)),
              ("edge", (5.0, 1.0)), ("behind", (-3.0, 0.0)), ("beyond", (12.0, 0.0))]
    assert stray_shot_candidates(attacker, target, models) == ["near", "edge", "far"]
