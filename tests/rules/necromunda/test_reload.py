"""Out of Ammo per profile, jams for the whole weapon, and the Reload action, on a real game."""

from __future__ import annotations

import copy

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model.effects import SetProfileState
from battletracker.model.game import Scalar
from battletracker.model.game import Weapon
from battletracker.model.game import WeaponProfile
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.necromunda.profiles import reload_inputs
from battletracker.rules.necromunda.profiles import reloadable_profiles
from battletracker.rules.necromunda.profiles import shoot_inputs
from tests.rules.necromunda.helpers import necromunda_game

SHOOT = "necro.shoot"
RELOAD = "necro.reload"


def combi_gun() -> Weapon:
    """A weapon with two Rapid Fire profiles, so each can run out on its own."""
    stats: dict[str, Scalar] = {"short_range": 8, "long_range": 24, "acc_short": 1, "acc_long": 0}
    return Weapon("Combi-gun", kind="basic", ranges=[8, 24], profiles=[
        WeaponProfile("Standard", dict(stats), ["Rapid Fire (1)"]),
        WeaponProfile("Hot-shot", dict(stats), ["Rapid Fire (2)"]),
    ])


def test_out_of_ammo_is_per_profile_and_reload_clears_the_one_chosen() -> None:
    game = necromunda_game()
    game.unit("u1").weapons.append(combi_gun())
    combi = game.unit("u1").weapons[2]
    standard = {**shoot_inputs(combi, 0), "bs": 4, "range": 10, "firer_id": "u1", "weapon": 2}
    assert standard["rapid_fire"] == 1 and standard["weapon_profiles"] == 2
    shot = resolve(SHOOT, standard, ScriptedDice([5, "1+ammo"]))
    assert list(shot.effects) == [SetProfileState("u1", 2, 0, "out_of_ammo")]
    before = copy.deepcopy(game)
    undo = game.apply_all(shot.effects)
    assert [p.state for p in combi.profiles] == ["out_of_ammo", "ok"]
    assert reloadable_profiles(combi) == [0]

    with pytest.raises(RulesInputError, match="^The combi-gun's Standard profile is Out of Ammo and cannot fire "
                                              "until a Reload action.$"):
        resolve(SHOOT, {**standard, **shoot_inputs(combi, 0)}, ScriptedDice([5, "2"]))
    hot_shot = {**standard, **shoot_inputs(combi, 1)}
    assert resolve(SHOOT, hot_shot, ScriptedDice([5, "2", "3"])).outcome == "hits=5 ammo=ok"

    with pytest.raises(RulesInputError, match="^The combi-gun's Hot-shot profile is not Out of Ammo: there is "
                                              "nothing to reload.$"):
        resolve(RELOAD, {**reload_inputs(combi, 1), "fighter_id": "u1", "weapon": 2}, ScriptedDice([]))
    reload = resolve(RELOAD, {**reload_inputs(combi, 0), "fighter_id": "u1", "weapon": 2}, ScriptedDice([]))
    assert reload.outcome == "reloaded" and list(reload.rolls) == []
    assert list(reload.log) == ["Reload: Combi-gun's Standard profile is no longer Out of Ammo"]
    assert list(reload.effects) == [SetProfileState("u1", 2, 0, "ok")]
    undo_reload = game.apply_all(reload.effects)
    assert [p.state for p in combi.profiles] == ["ok", "ok"]

    for inverse in reversed(undo_reload):
        game.apply(inverse)
    assert [p.state for p in combi.profiles] == ["out_of_ammo", "ok"]
    for inverse in reversed(undo):
        game.apply(inverse)
    assert game == before


def test_a_jam_jams_every_profile_and_cannot_be_reloaded() -> None:
    game = necromunda_game()
    game.unit("u1").weapons.append(combi_gun())
    combi = game.unit("u1").weapons[2]
    inputs = {**shoot_inputs(combi, 1), "bs": 4, "range": 10, "firer_id": "u1", "weapon": 2}
    shot = resolve(SHOOT, inputs, ScriptedDice([2, "1+ammo", "1+ammo"]))
    assert shot.outcome == "miss ammo=jammed"
    game.apply_all(shot.effects)
    assert [p.state for p in combi.profiles] == ["jammed", "jammed"]
    assert reloadable_profiles(combi) == []
    for profile in (0, 1):
        with pytest.raises(RulesInputError) as err:
            resolve(RELOAD, {**reload_inputs(combi, profile), "fighter_id": "u1", "weapon": 2}, ScriptedDice([]))
        assert err.value.field == "profile_state"
        assert str(err.value) == ("The combi-gun is jammed and cannot be used again this battle, "
                                  "so it cannot be reloaded.")
        with pytest.raises(RulesInputError, match="jammed and cannot be used again"):
            resolve(SHOOT, {**inputs, **shoot_inputs(combi, profile)}, ScriptedDice([6]))


def test_one_jammed_profile_makes_the_whole_weapon_jammed() -> None:
    game = necromunda_game()
    launcher = game.unit("u3").weapons[0]
    launcher.profiles[1].state = "jammed"
    assert shoot_inputs(launcher, 0)["profile_state"] == "jammed"
    assert reload_inputs(launcher, 0)["profile_state"] == "jammed"


def test_reload_without_an_id_only_computes_and_its_odds_are_certain() -> None:
    r = resolve(RELOAD, {"profile_state": "out_of_ammo", "weapon": 1, "profile": 2}, ScriptedDice([]))
    assert r.outcome == "reloaded" and list(r.effects) == [] and r.values == {"weapon": 1, "profile": 2}
    assert odds(RELOAD, {"profile_state": "out_of_ammo"}).p("reloaded") == 1


@pytest.mark.parametrize("inputs, field, message", [
    ({}, "profile_state", "is required"),
    ({"profile_state": "broken"}, "profile_state", "must be one of ok, out_of_ammo, jammed"),
    ({"profile_state": "out_of_ammo", "profile": -1}, "profile", "at least 0"),
    ({"profile_state": "out_of_ammo", "ammo": 4}, "ammo", "not an input"),
])
def test_reload_refusals(inputs: dict[str, str | int], field: str, message: str) -> None:
    with pytest.raises(RulesInputError) as err:
        odds(RELOAD, inputs)
    assert err.value.field == field and message in str(err.value)
