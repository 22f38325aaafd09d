"""necro.attack: a whole Shoot as one procedure, with the seed's toolkit rules (document 003), scripted dice."""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import pytest

from battletracker.core.dice import DiceExhausted
from battletracker.core.dice import ScriptedDice
from battletracker.core.odds import Distribution
from battletracker.core.odds import success_chance
from battletracker.model.effects import SetCondition
from battletracker.model.effects import SetProfileState
from battletracker.rules import ChoiceNeeded
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.base import InputValue
from battletracker.rules.necromunda import allocation
from battletracker.rules.necromunda import attack
from battletracker.rules.necromunda import cool
from battletracker.rules.necromunda import shooting
from battletracker.rules.necromunda import stray_shots
from battletracker.rules.necromunda.attack import _odds
from battletracker.rules.necromunda.attack import display_order
from battletracker.rules.necromunda.attack import label
from battletracker.rules.necromunda.attack import result_label
from battletracker.rules.necromunda.firepower import holes_and_ammo_state
from tests.rules.necromunda.helpers import assert_sentence
from tests.rules.oddscheck import assert_odds_match_simulation

NAME = "necro.attack"


def autogun(**over: InputValue) -> dict[str, InputValue]:
    """Kal (BS 4+) fires a Rapid Fire (2), Ammo (4+) autogun at Mira, 10" away (long range, accuracy 0)."""
    base: dict[str, InputValue] = {
        "bs": 4, "range": 10.0, "short_range": 8.0, "long_range": 24.0, "acc_short": 1, "acc_long": 0,
        "rapid_fire": 2, "ammo": 4, "firer_id": "a", "weapon": 0, "target_id": "b", "weapon_name": "Autogun"}
    base.update(over)
    return base


def test_a_passed_cool_check_comes_first_then_the_shot_in_one_resolution() -> None:
    # Target priority: another target than the closest enemy needs a Cool check (7+ on 2D6) first.
    r = resolve(NAME, autogun(cool=7, toolkit_target_priority=True), ScriptedDice([4, 3, 6, "1", "1"]))
    assert [label for label, _ in r.rolls] == ["Cool check", "Hit roll", "Firepower dice"]
    assert r.outcome == "hits=2 ammo=ok"
    assert list(r.effects) == [SetCondition("b", "suppressed")]
    assert r.log[0].startswith("Cool check: 4 + 3 = 7 against Cool 7+: passed")


def test_a_failed_cool_check_ends_the_attack_with_no_shot() -> None:
    r = resolve(NAME, autogun(cool=7, toolkit_target_priority=True), ScriptedDice([3, 2]))
    assert r.outcome == "cool_failed"
    assert list(r.rolls) == [("Cool check", (3, 2))] and list(r.effects) == []
    assert "closest enemy must be the target" in r.log[-1]
    assert label(r.outcome) == "Cool check failed"


def test_a_miss_sends_every_shot_along_the_line_of_fire_closest_first() -> None:
    # "If the attack would have caused more than one Hit, follow this sequence for every Hit": faces 1 and 2
    # are three shots; the first hits c on a 2, the second passes c (5) and hits d (3), the third passes both.
    inputs = autogun(at_risk="c,d", toolkit_stray_shots=True, near_ledge="d")
    r = resolve(NAME, inputs, ScriptedDice([2, "1", "2", 2, 5, 3, 6, 4]))
    assert r.outcome == "miss ammo=ok stray:c,d"
    assert list(r.effects) == [SetCondition("c", "suppressed"), SetCondition("d", "suppressed"),
                         SetCondition("d", "check_falling")]
    assert [label for label, _ in r.rolls][2:] == ["Stray shot 1: c", "Stray shot 2: c", "Stray shot 2: d",
                                                    "Stray shot 3: c", "Stray shot 3: d"]
    assert label(r.outcome, {"c": "Bystander", "d": "Aside"}) == "Miss; stray shots hit Bystander, Aside"


def test_hits_on_an_engaged_target_go_at_random_to_the_combat_and_suppress_no_one() -> None:
    inputs = autogun(target_engaged=True, combat="b,c")
    r = resolve(NAME, inputs, ScriptedDice([5, "1", "1", 2, 1]))
    assert r.outcome == "hits=2 ammo=ok combat:b:1,c:1"
    assert list(r.effects) == []
    assert r.rolls[-1] == ("Allocate 2 Hits (D2 each)", (2, 1))
    assert label(r.outcome, {"b": "Mira", "c": "Brute"}) == "2 Hits; 1 to Mira, 1 to Brute"


def test_walking_fire_asks_who_takes_each_later_hit_and_is_run_again_with_the_answers() -> None:
    inputs = autogun(walking_candidates="c", toolkit_walking_fire=True)
    dice = [5, "1", "2"]  # three Hits
    with pytest.raises(ChoiceNeeded) as asked:
        resolve(NAME, inputs, ScriptedDice(dice))
    assert asked.value.field == "walking_fire"
    assert asked.value.options == (("b", "b"), ("c", "c"))
    assert "Hit 2 of 3" in asked.value.prompt
    with pytest.raises(ChoiceNeeded) as again:
        resolve(NAME, {**inputs, "walking_fire": "c"}, ScriptedDice(dice))
    assert again.value.options == (("c,b", "b"), ("c,c", "c")) and "Hit 3 of 3" in again.value.prompt
    r = resolve(NAME, {**inputs, "walking_fire": "c,b"}, ScriptedDice(dice))
    assert r.outcome == "hits=3 ammo=ok"
    assert r.values["walking_fire"] == ["b", "c", "b"]
    assert list(r.effects) == [SetCondition("b", "suppressed"), SetCondition("c", "suppressed")]


def test_walking_fire_reaches_only_the_models_listed() -> None:
    inputs = autogun(walking_candidates="c", toolkit_walking_fire=True, walking_fire="x")
    with pytest.raises(RulesInputError) as refused:
        resolve(NAME, inputs, ScriptedDice([5, "1", "1"]))
    assert "walking fire reaches only enemies within 3" in str(refused.value)


def test_a_template_hits_every_model_under_it_with_no_dice() -> None:
    inputs: dict[str, InputValue] = {"template": True, "template_hits": "b,c,f", "engaged": "b",
                                     "seriously_injured": "f", "near_ledge": "c"}
    r = resolve(NAME, inputs, ScriptedDice([]))
    assert r.outcome == "template" and list(r.rolls) == []
    assert list(r.effects) == [SetCondition("c", "suppressed"), SetCondition("c", "check_falling")]
    assert odds(NAME, inputs).p("template") == 1


def test_the_dice_are_asked_in_the_rules_order() -> None:
    with pytest.raises(DiceExhausted) as need:
        resolve(NAME, autogun(cool=8, toolkit_target_priority=True), ScriptedDice([]))
    assert need.value.label == "Cool check"
    with pytest.raises(DiceExhausted) as need:
        resolve(NAME, autogun(at_risk="c", toolkit_stray_shots=True), ScriptedDice([1, "1", "1"]))
    assert need.value.label == "Stray shot 1: c"


def test_ammo_is_spent_as_the_shot_spends_it() -> None:
    r = resolve(NAME, autogun(), ScriptedDice([4, "2", "1+ammo", 3]))
    assert r.outcome == "hits=3 ammo=out"
    assert SetProfileState("a", 0, 0, "out_of_ammo") in r.effects


@pytest.mark.parametrize("inputs", [
    autogun(),
    autogun(cool=8, toolkit_target_priority=True),
    autogun(at_risk="c,d", toolkit_stray_shots=True),
    autogun(range=30.0, at_risk="c", toolkit_stray_shots=True),
    autogun(target_engaged=True, combat="b,c,d"),
    autogun(rapid_fire=0, ammo=0, cool=6, toolkit_target_priority=True, at_risk="c", toolkit_stray_shots=True),
    {"template": True, "template_hits": "b", "cool": 9, "toolkit_target_priority": True},
])
def test_odds_are_exact_and_agree_with_a_simulation(inputs: dict[str, InputValue]) -> None:
    assert_odds_match_simulation(NAME, inputs)


def test_the_odds_are_the_cool_check_times_the_shot() -> None:
    passed = Fraction(21, 36)  # 2D6 of 7 or more
    with_check = odds(NAME, autogun(cool=7, toolkit_target_priority=True))
    plain = odds(NAME, autogun())
    assert with_check.p("cool_failed") == 1 - passed
    assert all(with_check.p(k) == passed * p for k, p in plain.items())


def test_walking_fire_choices_do_not_change_the_odds() -> None:
    inputs = autogun(walking_candidates="c", toolkit_walking_fire=True)
    assert odds(NAME, inputs) == odds(NAME, autogun()) == odds(NAME, {**inputs, "walking_fire": "c,c"})


def test_outcomes_read_from_no_attack_to_the_most_hits() -> None:
    keys = odds(NAME, autogun(cool=7, toolkit_target_priority=True)).outcomes
    assert [result_label(k) for k in keys][:4] == ["Cool check failed", "Miss", "Miss", "Miss"]
    assert result_label(keys[-1]) == "6 Hits"


def test_every_outcome_has_a_label_in_words() -> None:
    names = {"b": "Mira", "c": "Brute", "d": "Aside"}
    for inputs in (autogun(cool=7, toolkit_target_priority=True, at_risk="c,d", toolkit_stray_shots=True),
                   autogun(target_engaged=True, combat="b,c")):
        for key in odds(NAME, inputs).outcomes:
            words = label(key, names)
            assert "=" not in words and "_" not in words and "combat" not in words and "stray:" not in words, words


def _odds_one_result_at_a_time(inputs: dict[str, InputValue]) -> Distribution[str]:
    """The attack's odds built outcome by outcome: the Cool check, then each (hit or miss, holes, ammo state)
    of the shot followed by its own stray shots or allocation, mixed as fractions."""
    k = attack._odds_key(attack._parse(inputs))
    if k.template:
        body: Distribution[str] = Distribution.certain("template")
    else:
        p_hit = Fraction(0) if k.needed is None else success_chance(k.needed)
        miss = "out_of_range" if k.needed is None else "miss"
        fire: Distribution[Any] = (
            holes_and_ammo_state(k.die, k.dice, k.ammo, k.reading) if k.dice else Distribution.certain((1, None)))

        def after(pair: tuple[bool, tuple[int, str | None]]) -> Distribution[str]:
            hit, (holes, state) = pair
            shots = holes if state is not None else 1
            key = shooting.outcome_key(f"hits={shots}" if hit else miss, state)
            if hit and k.combat and shots:
                return allocation._keyed(allocation.AllocationInputs(k.combat, shots)).map(
                    lambda drawn: f"{key} combat:{drawn}")
            if not hit and k.at_risk and shots:
                return stray_shots._keyed(k.at_risk, min(shots, stray_shots.MAX_HITS)).map(
                    lambda struck: f"{key} stray:{struck.removeprefix('hit=')}")
            return Distribution.certain(key)

        hit_or_miss = Distribution({True: p_hit, False: 1 - p_hit})
        body = hit_or_miss.convolve(fire, lambda h, f: (h, f)).bind(after)
    if k.cool:
        passed = cool.cool_odds({"cool": k.cool}).p("passed")
        body = Distribution.mix(((passed, body), (1 - passed, Distribution.certain("cool_failed"))))
    return body


@pytest.mark.parametrize("inputs", [
    autogun(),
    autogun(cool=7, toolkit_target_priority=True, at_risk="c,d", toolkit_stray_shots=True),
    autogun(rapid_fire=6, cool=7, toolkit_target_priority=True, at_risk="c,d,e,f,g,h,i,j",
            toolkit_stray_shots=True),
    autogun(rapid_fire=3, ammo=6, at_risk="c,d,e", toolkit_stray_shots=True, target_engaged=True, combat="b,c,d"),
    autogun(range=30.0, at_risk="c,d", toolkit_stray_shots=True),
    autogun(rapid_fire=0, ammo=0, cool=6, toolkit_target_priority=True, at_risk="c", toolkit_stray_shots=True),
    {"template": True, "template_hits": "b", "cool": 9, "toolkit_target_priority": True},
])
def test_odds_equal_the_mixture_of_every_result_and_read_in_display_order(inputs: dict[str, InputValue]) -> None:
    dist = odds(NAME, inputs)
    assert dist == _odds_one_result_at_a_time(inputs)
    assert dist.outcomes == sorted(dist.outcomes, key=display_order)


def test_cold_odds_are_fast() -> None:
    inputs = autogun(cool=7, toolkit_target_priority=True, at_risk="c,d", toolkit_stray_shots=True)
    odds(NAME, inputs)
    _odds.cache_clear()
    start = time.perf_counter()
    odds(NAME, inputs)
    assert time.perf_counter() - start < 0.05


@pytest.mark.parametrize(("inputs", "words"), [
    (autogun(cool=7), "arget priority is"),
    (autogun(at_risk="c"), "tray shots are"),
    (autogun(walking_candidates="c"), "alking fire is"),
    (autogun(combat="b,c"), "Engaged target"),
    ({"template": True}, "must touch"),
    ({"template": True, "template_hits": "b", "bs": 4}, "Template attack makes no Hit roll"),
    (autogun(target_engaged=True, combat="b,c", walking_candidates="c", toolkit_walking_fire=True),
     "allocated at random"),
])
def test_refusals_are_sentences(inputs: dict[str, InputValue], words: str) -> None:
    with pytest.raises(RulesInputError) as refused:
        odds(NAME, inputs)
    assert words in str(refused.value)
    assert_sentence(str(refused.value))
