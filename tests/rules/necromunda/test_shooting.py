"""necro.shoot: range, the Hit roll, Firepower dice and the weapon's ammo."""

from __future__ import annotations

import copy
from fractions import Fraction
from itertools import product

import pytest

from battletracker.core.dice import D6
from battletracker.core.dice import DiceError
from battletracker.core.dice import DiceExhausted
from battletracker.core.dice import ScriptedDice
from battletracker.core.dice import parse_typed_rolls
from battletracker.model.effects import SetCondition
from battletracker.model.effects import SetProfileState
from battletracker.rules import RulesInputError
from battletracker.rules import get
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.base import InputValue
from battletracker.rules.necromunda.firepower import default_die
from battletracker.rules.necromunda.profiles import shoot_inputs
from battletracker.rules.necromunda.profiles import weapon_preset
from tests.rules.necromunda.helpers import assert_sentence
from tests.rules.necromunda.helpers import necromunda_game
from tests.rules.oddscheck import assert_odds_match_simulation

NAME = "necro.shoot"


def shot(**over: InputValue) -> dict[str, InputValue]:
    """An autogun-style shot: BS 4+, 8"/24" with +1 at short range, at 10" (long range)."""
    base: dict[str, InputValue] = {"bs": 4, "range": 10, "short_range": 8, "long_range": 24,
                                   "acc_short": 1, "acc_long": 0}
    base.update(over)
    return base


# -- range and the Hit roll ------------------------------------------------------------------


def test_a_plain_hit_is_one_hit_and_a_plain_miss_none() -> None:
    hit = resolve(NAME, shot(), ScriptedDice([4]))
    assert hit.outcome == "hits=1"
    assert hit.values["needed"] == 4 and hit.values["hit_roll"] == 4 and hit.values["hits"] == 1
    assert hit.values["ammo_state"] is None and hit.values["ammo_symbols"] == 0
    assert list(hit.rolls) == [("Hit roll", (4,))]
    miss = resolve(NAME, shot(), ScriptedDice([3]))
    assert miss.outcome == "miss" and miss.values["hits"] == 0 and miss.values["stray_hits"] == 1


def test_short_range_accuracy_applies_up_to_and_including_the_short_range() -> None:
    at_short = resolve(NAME, shot(range=8), ScriptedDice([3]))
    assert at_short.values["range_band"] == "short" and at_short.values["accuracy"] == 1
    assert at_short.values["needed"] == 3 and at_short.outcome == "hits=1"
    just_beyond = resolve(NAME, shot(range=8.01), ScriptedDice([3]))
    assert just_beyond.values["range_band"] == "long" and just_beyond.outcome == "miss"


def test_seriously_injured_target_is_minus_one_and_other_modifiers_add() -> None:
    r = resolve(NAME, shot(target_seriously_injured=True), ScriptedDice([4]))
    assert r.values["modifier"] == -1 and r.values["needed"] == 5 and r.outcome == "miss"
    r = resolve(NAME, shot(target_seriously_injured=True, other_modifier=2), ScriptedDice([3]))
    assert r.values["modifier"] == 1 and r.values["needed"] == 3 and r.outcome == "hits=1"


@pytest.mark.parametrize("bs, mods", [(2, {"acc_long": 3}), (2, {"other_modifier": 6}), (3, {"acc_long": 2})])
def test_a_natural_1_misses_even_when_any_roll_would_hit(bs: int, mods: dict[str, int]) -> None:
    r = resolve(NAME, shot(bs=bs, **mods), ScriptedDice([1]))
    assert r.outcome == "miss"
    assert r.values["needed"] == 2
    assert odds(NAME, shot(bs=bs, **mods)).p("miss") == Fraction(1, 6)


@pytest.mark.parametrize("bs, mods", [(6, {"acc_long": -3}), (6, {"target_seriously_injured": True}),
                                      (5, {"other_modifier": -6})])
def test_a_natural_6_hits_even_when_no_roll_could(bs: int, mods: dict[str, InputValue]) -> None:
    r = resolve(NAME, shot(bs=bs, **mods), ScriptedDice([6]))
    assert r.outcome == "hits=1"
    assert r.values["needed"] == 6
    assert resolve(NAME, shot(bs=bs, **mods), ScriptedDice([5])).outcome == "miss"
    assert odds(NAME, shot(bs=bs, **mods)).p("hits=1") == Fraction(1, 6)


def test_out_of_range_misses_without_a_hit_roll() -> None:
    r = resolve(NAME, shot(range=24.5), ScriptedDice([]))
    assert r.outcome == "out_of_range"
    assert list(r.rolls) == [] and r.values["hit_roll"] is None and r.values["needed"] is None
    assert r.values["range_band"] == "out" and r.values["stray_hits"] == 1
    assert odds(NAME, shot(range=24.5)) == odds(NAME, shot(range=99))
    assert odds(NAME, shot(range=30)).p("out_of_range") == 1
    assert resolve(NAME, shot(range=24), ScriptedDice([6])).outcome == "hits=1"


def test_out_of_range_rapid_fire_still_rolls_firepower_dice_and_checks_ammo() -> None:
    r = resolve(NAME, shot(range=30, rapid_fire=2), ScriptedDice(["3", "1+ammo"]))
    assert r.outcome == "out_of_range ammo=out"
    assert list(r.rolls) == [("Firepower dice", ("3", "1+ammo"))]
    assert r.values["hits"] == 0 and r.values["stray_hits"] == 4
    jam = resolve(NAME, shot(range=30, rapid_fire=2, firer_id="u1"), ScriptedDice(["1+ammo", "1+ammo"]))
    assert jam.outcome == "out_of_range ammo=jammed"
    assert list(jam.effects) == [SetProfileState("u1", 0, 0, "jammed")]
    dist = odds(NAME, shot(range=30, rapid_fire=1))
    assert dist.p("out_of_range ammo=ok") == Fraction(5, 6)
    assert dist.p("out_of_range ammo=out") == Fraction(1, 6)


# -- Firepower dice and ammo -------------------------------------------------------------------


def test_rapid_fire_hits_are_the_bullet_holes_across_the_dice() -> None:
    r = resolve(NAME, shot(rapid_fire=3), ScriptedDice([5, "3", "2", "1"]))
    assert r.outcome == "hits=6 ammo=ok"
    assert list(r.rolls) == [("Hit roll", (5,)), ("Firepower dice", ("3", "2", "1"))]
    assert r.values["firepower_faces"] == ["3", "2", "1"] and r.values["bullet_holes"] == 6


def test_firepower_dice_are_rolled_on_a_miss_too() -> None:
    r = resolve(NAME, shot(rapid_fire=2), ScriptedDice([2, "2", "1+ammo"]))
    assert r.outcome == "miss ammo=out"
    assert r.values["hits"] == 0 and r.values["stray_hits"] == 3 and r.values["ammo_symbols"] == 1


def test_fewer_firepower_dice_than_x_may_be_rolled() -> None:
    r = resolve(NAME, shot(rapid_fire=3, firepower_dice=1), ScriptedDice([4, "2"]))
    assert r.outcome == "hits=2 ammo=ok" and r.rolls[1] == ("Firepower dice", ("2",))


@pytest.mark.parametrize("faces, symbols, state", [
    (["2", "3"], 0, "ok"),
    (["2", "1+ammo"], 1, "out"),
    (["1+ammo", "1+ammo"], 2, "jammed"),
])
def test_ammo_without_the_ammo_trait(faces: list[str], symbols: int, state: str) -> None:
    r = resolve(NAME, shot(rapid_fire=2, firer_id="u1", weapon=1, profile=0), ScriptedDice([6, *faces]))
    assert r.values["ammo_symbols_rolled"] == symbols and r.values["ammo_symbols"] == symbols
    assert r.values["ammo_state"] == state and r.outcome.endswith(f" ammo={state}")
    expected = {"ok": [], "out": [SetProfileState("u1", 1, 0, "out_of_ammo")],
                "jammed": [SetProfileState("u1", 1, 0, "jammed")]}[state]
    assert list(r.effects) == expected


@pytest.mark.parametrize("faces, rolled, state", [
    (["2", "3"], 0, "out"),
    (["2", "1+ammo"], 1, "jammed"),
    (["1+ammo", "1+ammo"], 2, "jammed"),
])
def test_ammo_trait_read_literally_adds_one_symbol(faces: list[str], rolled: int, state: str) -> None:
    r = resolve(NAME, shot(rapid_fire=2, ammo=4, ammo_trait_reading="always"), ScriptedDice([6, *faces]))
    assert list(r.rolls) == [("Hit roll", (6,)), ("Firepower dice", tuple(faces))]
    assert r.values["ammo_symbols_rolled"] == rolled and r.values["ammo_symbols"] == rolled + 1
    assert r.values["ammo_state"] == state
    assert any("+ 1 for Ammo (4+)" in line for line in r.log)


@pytest.mark.parametrize("reading, faces, counted, state", [
    ("with_rolled_symbol", ["2", "3"], 0, "ok"),
    ("with_rolled_symbol", ["2", "1+ammo"], 2, "jammed"),
    ("never", ["2", "3"], 0, "ok"),
    ("never", ["2", "1+ammo"], 1, "out"),
    ("never", ["1+ammo", "1+ammo"], 2, "jammed"),
])
def test_other_readings_of_the_ammo_trait(reading: str, faces: list[str], counted: int, state: str) -> None:
    r = resolve(NAME, shot(rapid_fire=2, ammo=5, ammo_trait_reading=reading), ScriptedDice([6, *faces]))
    assert r.values["ammo_symbols"] == counted and r.values["ammo_state"] == state


# -- Ammo (X+) under the default reading: an Ammo check per ammo symbol ----------------------


def test_the_default_reading_is_the_ammo_check() -> None:
    r = resolve(NAME, shot(rapid_fire=1, ammo=4), ScriptedDice([6, "2"]))
    assert r.outcome == "hits=2 ammo=ok" and r.values["ammo_checks"] == []
    assert list(r.rolls) == [("Hit roll", (6,)), ("Firepower dice", ("2",))]


def test_autogun_with_the_ammo_symbol_and_a_passing_check_stays_loaded() -> None:
    r = resolve(NAME, shot(rapid_fire=1, ammo=4, firer_id="u1", weapon=0), ScriptedDice([6, "1+ammo", 4]))
    assert r.outcome == "hits=1 ammo=ok"
    assert list(r.rolls) == [("Hit roll", (6,)), ("Firepower dice", ("1+ammo",)), ("Ammo check (4+)", (4,))]
    assert r.values["ammo_symbols_rolled"] == 1 and r.values["ammo_symbols"] == 0
    assert r.values["ammo_checks"] == [4] and r.values["ammo_checks_failed"] == 0
    assert list(r.effects) == []
    assert "Ammo check (4+): 4, 0 failed: ammo fine" in r.log


def test_autogun_failing_its_ammo_check_goes_out_of_ammo() -> None:
    r = resolve(NAME, shot(rapid_fire=1, ammo=4, firer_id="u1", weapon=0), ScriptedDice([2, "1+ammo", 3]))
    assert r.outcome == "miss ammo=out"
    assert r.values["ammo_checks_failed"] == 1 and r.values["ammo_symbols"] == 1
    assert list(r.effects) == [SetProfileState("u1", 0, 0, "out_of_ammo")]


@pytest.mark.parametrize("checks, state", [((1, 3), "jammed"), ((3, 4), "out"), ((5, 6), "ok")])
def test_rapid_fire_with_two_failed_ammo_checks_jams(checks: tuple[int, int], state: str) -> None:
    r = resolve(NAME, shot(rapid_fire=2, ammo=4, firer_id="u1", weapon=1, weapon_profiles=2),
                ScriptedDice([5, "1+ammo", "1+ammo", *checks]))
    assert r.rolls[-1] == ("Ammo checks (4+)", checks)
    assert r.values["ammo_state"] == state and r.outcome == f"hits=2 ammo={state}"
    expected = {"ok": [], "out": [SetProfileState("u1", 1, 0, "out_of_ammo")],
                "jammed": [SetProfileState("u1", 1, i, "jammed") for i in range(2)]}[state]
    assert list(r.effects[:len(expected)]) == expected


@pytest.mark.parametrize("x, passes", [(2, 2), (4, 4), (6, 6)])
def test_the_check_passes_on_x_or_more(x: int, passes: int) -> None:
    ok = resolve(NAME, shot(rapid_fire=1, ammo=x), ScriptedDice([6, "1+ammo", passes]))
    out = resolve(NAME, shot(rapid_fire=1, ammo=x), ScriptedDice([6, "1+ammo", passes - 1]))
    assert ok.values["ammo_state"] == "ok" and out.values["ammo_state"] == "out"


def test_typed_dice_ask_for_the_ammo_check_by_name() -> None:
    with pytest.raises(DiceExhausted) as need:
        resolve(NAME, shot(rapid_fire=2, ammo=5), ScriptedDice([6, "1+ammo", "2"]))
    assert need.value.label == "Ammo check (5+)" and need.value.count == 1 and need.value.die == D6
    with pytest.raises(DiceExhausted, match="Ammo checks \\(5\\+\\)"):
        resolve(NAME, shot(rapid_fire=2, ammo=5), ScriptedDice([6, "1+ammo", "1+ammo"]))


def test_without_the_trait_the_default_reading_rolls_no_check() -> None:
    r = resolve(NAME, shot(rapid_fire=1), ScriptedDice([6, "1+ammo"]))
    assert r.outcome == "hits=1 ammo=out" and len(r.rolls) == 2


def test_ammo_check_odds_closed_form() -> None:
    dist = odds(NAME, shot(rapid_fire=1, ammo=4))  # 1/2 to hit; symbol 1/6, check fails 1/2
    half = Fraction(1, 2)
    assert dist.p("hits=1 ammo=out") == half * Fraction(1, 6) * half
    assert dist.p("hits=1 ammo=ok") == half * (Fraction(2, 6) + Fraction(1, 6) * half)
    assert dist.probability(lambda o: o.endswith("ammo=jammed")) == 0
    two = odds(NAME, shot(rapid_fire=2, ammo=5))
    assert two.probability(lambda o: o.endswith("ammo=jammed")) == Fraction(1, 36) * Fraction(4, 6) ** 2


def test_jam_puts_every_profile_of_the_weapon_out_of_use() -> None:
    r = resolve(NAME, shot(rapid_fire=1, firer_id="u1", weapon=2, profile=1, weapon_profiles=3),
                ScriptedDice([6, "1+ammo"]))
    assert r.outcome == "hits=1 ammo=out"
    assert list(r.effects) == [SetProfileState("u1", 2, 1, "out_of_ammo")]
    jam = resolve(NAME, shot(rapid_fire=2, firer_id="u1", weapon=2, profile=1, weapon_profiles=3),
                  ScriptedDice([6, "1+ammo", "1+ammo"]))
    assert list(jam.effects) == [SetProfileState("u1", 2, i, "jammed") for i in range(3)]


def test_custom_firepower_die_faces_from_the_setting() -> None:
    inputs = shot(rapid_fire=1, firepower_die_faces="1, 2, 2, 3, 3, 2+ammo")
    r = resolve(NAME, inputs, ScriptedDice([6, "2+ammo"]))
    assert r.outcome == "hits=2 ammo=out"
    with pytest.raises(DiceError, match="not a face of the Firepower"):
        resolve(NAME, inputs, ScriptedDice([6, "1+ammo"]))
    assert odds(NAME, inputs).p("hits=3 ammo=ok") == Fraction(1, 2) * Fraction(2, 6)


def test_typed_firepower_faces_are_case_insensitive_and_a_missing_die_is_named() -> None:
    r = resolve(NAME, shot(rapid_fire=1), ScriptedDice([6, "1+AMMO"]))
    assert r.values["firepower_faces"] == ["1+ammo"]
    with pytest.raises(DiceExhausted, match="Firepower dice"):
        resolve(NAME, shot(rapid_fire=2), ScriptedDice([6, "2"]))


# -- close combat ------------------------------------------------------------------------------


def test_rapid_fire_light_weapon_fires_a_single_shot_in_close_combat() -> None:
    pistol = shot(range=0, rapid_fire=1, ammo=4, light=True, close_combat=True)
    r = resolve(NAME, pistol, ScriptedDice([5]))
    assert r.outcome == "hits=1"
    assert list(r.rolls) == [("Hit roll", (5,))]
    assert r.values["ammo_state"] is None and r.values["firepower_faces"] == []
    assert odds(NAME, pistol) == odds(NAME, shot(range=0))
    with pytest.raises(RulesInputError, match="single shots in close combat") as err:
        resolve(NAME, {**pistol, "firepower_dice": 1}, ScriptedDice([5]))
    assert err.value.field == "firepower_dice"


def test_rapid_fire_without_light_rolls_firepower_dice_in_close_combat() -> None:
    r = resolve(NAME, shot(range=0, rapid_fire=1, close_combat=True), ScriptedDice([5, "2"]))
    assert r.outcome == "hits=2 ammo=ok"
    r = resolve(NAME, shot(range=0, rapid_fire=1, light=True), ScriptedDice([5, "2"]))
    assert r.outcome == "hits=2 ammo=ok"


# -- the target --------------------------------------------------------------------------------


def test_hit_target_becomes_suppressed_and_near_a_ledge_checks_for_falling() -> None:
    r = resolve(NAME, shot(target_id="u2"), ScriptedDice([5]))
    assert list(r.effects) == [SetCondition("u2", "suppressed")] and r.values["suppressed"]
    r = resolve(NAME, shot(target_id="u2", target_near_ledge=True), ScriptedDice([5]))
    assert list(r.effects) == [SetCondition("u2", "suppressed"), SetCondition("u2", "check_falling")]
    assert r.values["check_falling"]
    assert resolve(NAME, shot(target_id="u2", target_near_ledge=True), ScriptedDice([2])).effects == ()


@pytest.mark.parametrize("condition", ["target_engaged", "target_seriously_injured"])
def test_engaged_or_seriously_injured_targets_are_not_suppressed(condition: str) -> None:
    r = resolve(NAME, shot(target_id="u2", target_near_ledge=True, **{condition: True}), ScriptedDice([6]))
    assert r.outcome == "hits=1" and list(r.effects) == [] and not r.values["suppressed"]
    assert not r.values["check_falling"]


def test_hits_on_an_engaged_target_are_flagged_for_random_allocation() -> None:
    r = resolve(NAME, shot(rapid_fire=1, target_engaged=True), ScriptedDice([6, "3"]))
    assert r.values["allocate_at_random"] and r.values["hits"] == 3
    assert not resolve(NAME, shot(target_engaged=True), ScriptedDice([1])).values["allocate_at_random"]


def test_without_ids_nothing_changes() -> None:
    r = resolve(NAME, shot(rapid_fire=2), ScriptedDice([6, "1+ammo", "1+ammo"]))
    assert r.outcome == "hits=2 ammo=jammed" and list(r.effects) == []


# -- refusals ----------------------------------------------------------------------------------


@pytest.mark.parametrize("over, field, message", [
    ({"bs": 1}, "bs", "at least 2, not 1"),
    ({"bs": 7}, "bs", "at most 6, not 7"),
    ({"range": -1}, "range", "at least 0"),
    ({"long_range": 6}, "long_range", "The weapon's long range (6\") must be at least its short range (8\")."),
    ({"rapid_fire": 0, "firepower_dice": 1}, "firepower_dice", "no Rapid Fire trait"),
    ({"rapid_fire": 2, "firepower_dice": 3}, "firepower_dice",
     "A Rapid Fire (2) weapon rolls 1 to 2 Firepower dice, not 3."),
    ({"rapid_fire": 2, "firepower_dice": 0}, "firepower_dice", "rolls 1 to 2"),
    ({"rapid_fire": 7}, "rapid_fire", "at most 6"),
    ({"ammo": 1}, "ammo", "The X of Ammo (X+) must be 2 to 6 (0 for no Ammo trait), not 1."),
    ({"ammo": 7}, "ammo", "at most 6"),
    ({"profile_state": "out_of_ammo"}, "profile_state", "This profile is Out of Ammo and cannot fire until a Reload"),
    ({"profile_state": "jammed"}, "profile_state", "This weapon is jammed and cannot be used again this battle."),
    ({"profile_state": "jammed", "weapon_name": "Autogun"}, "profile_state",
     "The autogun is jammed and cannot be used again this battle."),
    ({"bs": 0}, "bs", "The shooter's BS must be at least 2, not 0."),
    ({"profile": 2, "weapon_profiles": 2}, "profile", "has 2 profiles"),
    ({"firepower_die_faces": "1, 2, 3"}, "firepower_die_faces", "6 faces, not 3"),
    ({"firepower_die_faces": "1, 1, 2, 2, 4, 1+ammo"}, "firepower_die_faces", "'4' is not a Firepower die face"),
    ({"ammo_trait_reading": "sometimes"}, "ammo_trait_reading", "must be one of ammo_check, always"),
    ({"acc_short": "plus one"}, "acc_short", "whole number"),
    ({"shooter": "u1"}, "shooter", "not an input"),
])
def test_refusals_name_the_field(over: dict[str, InputValue], field: str, message: str) -> None:
    with pytest.raises(RulesInputError) as err:
        resolve(NAME, shot(**over), ScriptedDice([6, "1", "1", "1"]))
    assert err.value.field == field
    assert message in str(err.value)
    if field != "ammo_trait_reading":  # its choices are the setting's values, as Ruleset settings lists them
        assert_sentence(str(err.value))
    with pytest.raises(RulesInputError):
        odds(NAME, shot(**over))


def test_a_d6_value_off_the_die_is_refused() -> None:
    with pytest.raises(DiceError, match="7 cannot be rolled on a D6"):
        resolve(NAME, shot(), ScriptedDice([7]))


# -- odds --------------------------------------------------------------------------------------


def test_odds_closed_form_for_rapid_fire_1_with_the_default_die() -> None:
    dist = odds(NAME, shot(rapid_fire=1))  # needs 4+: 1/2 to hit
    half = Fraction(1, 2)
    assert dist.p("hits=1 ammo=ok") == half * Fraction(2, 6)
    assert dist.p("hits=2 ammo=ok") == half * Fraction(2, 6)
    assert dist.p("hits=3 ammo=ok") == half * Fraction(1, 6)
    assert dist.p("hits=1 ammo=out") == half * Fraction(1, 6)
    assert dist.p("miss ammo=ok") == half * Fraction(5, 6)
    assert dist.p("miss ammo=out") == half * Fraction(1, 6)
    assert dist.total() == 1


def test_odds_closed_form_jam_chance_for_two_dice() -> None:
    dist = odds(NAME, shot(rapid_fire=2, bs=2, acc_long=1))  # needs 2+: 5/6 to hit
    jammed = dist.probability(lambda o: o.endswith("ammo=jammed"))
    out = dist.probability(lambda o: o.endswith("ammo=out"))
    assert jammed == Fraction(1, 36)
    assert out == 2 * Fraction(1, 6) * Fraction(5, 6)
    assert dist.p("hits=2 ammo=jammed") == Fraction(5, 6) * Fraction(1, 36)
    assert dist.p("hits=6 ammo=ok") == Fraction(5, 6) * Fraction(1, 36)


def test_ammo_trait_odds_under_the_literal_reading() -> None:
    dist = odds(NAME, shot(rapid_fire=1, ammo=4, ammo_trait_reading="always"))
    assert dist.probability(lambda o: o.endswith("ammo=ok")) == 0
    assert dist.probability(lambda o: o.endswith("ammo=jammed")) == Fraction(1, 6)


GRID = list(product([2, 3, 4, 5, 6], [-2, 0, 1], [0, 1, 2, 3]))


@pytest.mark.parametrize("bs, modifier, rapid_fire", GRID)
def test_odds_sum_to_one_and_match_simulation(bs: int, modifier: int, rapid_fire: int) -> None:
    inputs = shot(bs=bs, other_modifier=modifier, rapid_fire=rapid_fire, ammo=4 if rapid_fire == 2 else 0,
                  target_seriously_injured=modifier > 0)
    assert_odds_match_simulation(NAME, inputs, runs=3000, seed=bs * 100 + modifier * 10 + rapid_fire)


@pytest.mark.parametrize("inputs", [
    shot(range=3, rapid_fire=3, firepower_dice=2, ammo_trait_reading="with_rolled_symbol", ammo=3),
    shot(range=40, rapid_fire=2),
    shot(range=1, rapid_fire=2, light=True, close_combat=True),
    shot(rapid_fire=1, firepower_die_faces="1, 2, 2, 3, 3, 2+ammo", ammo=2, ammo_trait_reading="never"),
    shot(rapid_fire=3, ammo=4, ammo_trait_reading="always"),
    shot(rapid_fire=3, ammo=3),
    shot(range=30, rapid_fire=2, ammo=6),
    shot(rapid_fire=2, ammo=2, firepower_die_faces="1+ammo, 1, 2, 2, 3, 1+ammo"),
])
def test_odds_match_simulation_for_other_cases(inputs: dict[str, InputValue]) -> None:
    assert_odds_match_simulation(NAME, inputs, runs=3000)


def test_odds_outcomes_are_exactly_the_keys_resolve_can_produce() -> None:
    dist = odds(NAME, shot(rapid_fire=1))
    assert set(dist.outcomes) == {f"hits={n} ammo={a}" for n, a in [(1, "ok"), (2, "ok"), (3, "ok"), (1, "out")]} \
        | {"miss ammo=ok", "miss ammo=out"}


def test_procedure_lists_its_settings() -> None:
    assert get(NAME).settings == ("firepower_die_faces", "ammo_trait_reading")
    assert get(NAME).ruleset == "necromunda"



def test_typed_in_dice_resolve_a_rapid_fire_2_attack_and_undo_restores_the_game() -> None:
    game = necromunda_game()
    before = copy.deepcopy(game)
    stubber = weapon_preset("heavy_stubber").make()
    game.unit("u1").weapons.append(stubber)
    with_stubber = copy.deepcopy(game)
    hit = parse_typed_rolls("5", D6, 1)
    firepower = parse_typed_rolls("3, 1+Ammo", default_die().die, 2)
    inputs = {**shoot_inputs(stubber, 0), "bs": 4, "range": 10, "firer_id": "u1", "weapon": 2, "target_id": "u2",
              "ammo_trait_reading": "never"}
    r = resolve(NAME, inputs, ScriptedDice([*hit, *firepower]))
    assert r.outcome == "hits=4 ammo=out"
    assert list(r.effects) == [SetProfileState("u1", 2, 0, "out_of_ammo"), SetCondition("u2", "suppressed")]
    undo = game.apply_all(r.effects)
    assert game.unit("u1").weapons[2].profiles[0].state == "out_of_ammo"
    assert game.unit("u2").has("suppressed")
    for inverse in reversed(undo):
        game.apply(inverse)
    assert game == with_stubber
    game.unit("u1").weapons.pop()
    assert game == before
