"""Weapon traits, the shoot inputs a profile supplies, and the example presets."""

from __future__ import annotations

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model.game import Weapon
from battletracker.model.game import WeaponProfile
from battletracker.rules import resolve
from battletracker.rules.necromunda.profiles import Traits
from battletracker.rules.necromunda.profiles import parse_traits
from battletracker.rules.necromunda.profiles import shoot_inputs
from battletracker.rules.necromunda.profiles import weapon_preset
from battletracker.rules.necromunda.profiles import weapon_presets
from battletracker.rules.presets import unit_presets
from battletracker.rules.tables import TableError


def test_traits_the_shooting_rules_act_on() -> None:
    assert parse_traits(["Rapid Fire (2)", "Ammo (4+)", "Light", "Sidearm"]) == Traits(
        rapid_fire=2, ammo=4, light=True, other=("Sidearm",))
    assert parse_traits(['Blast (3")', "Knockback"]).blast == 3.0
    assert parse_traits(["blast (5)"]).blast == 5.0
    assert parse_traits(["Template", "Blaze"]) == Traits(template=True, other=("Blaze",))
    assert parse_traits([]) == Traits()


@pytest.mark.parametrize("trait, message", [("Rapid Fire", "Rapid Fire (X)"), ("Rapid Fire (0)", "from 1"),
                                            ("Ammo (7+)", "Ammo (X+) with X from 2 to 6"), ("Ammo 4+", "Ammo (X+)"),
                                            ("Blast (big)", "Blast (3\")")])
def test_malformed_traits_are_named(trait: str, message: str) -> None:
    with pytest.raises(ValueError, match=trait.replace("(", r"\(").replace(")", r"\)").replace("+", r"\+")) as err:
        parse_traits([trait])
    assert message in str(err.value)


def test_shoot_inputs_from_the_autogun_preset_fire_as_the_issue_describes() -> None:
    autogun = weapon_preset("autogun").make()
    inputs = shoot_inputs(autogun, 0)
    assert inputs == {"short_range": 8.0, "long_range": 24.0, "acc_short": 1, "acc_long": 0, "rapid_fire": 1,
                      "ammo": 4, "light": False, "profile": 0, "weapon_profiles": 1, "profile_state": "ok",
                      "weapon_name": "Autogun"}
    r = resolve("necro.shoot", {**inputs, "bs": 4, "range": 6, "ammo_trait_reading": "never"},
                ScriptedDice([3, "2"]))
    assert r.outcome == "hits=2 ammo=ok"


def test_template_profiles_make_no_hit_roll() -> None:
    flamer = weapon_preset("flamer").make()
    with pytest.raises(ValueError, match="Template weapon makes no Hit roll"):
        shoot_inputs(flamer, 0)


def test_missing_stats_and_profiles_are_named() -> None:
    weapon = Weapon("Odd gun", profiles=[WeaponProfile("Odd", {"short_range": 4}, [])])
    with pytest.raises(ValueError, match="Odd gun \\(Odd\\): the weapon's long range must be a number, not None"):
        shoot_inputs(weapon, 0)
    with pytest.raises(ValueError, match="no profile number 1"):
        shoot_inputs(weapon, 1)


def test_every_weapon_preset_loads_with_its_profiles() -> None:
    presets = weapon_presets()
    keys = [p.key for p in presets]
    assert {"autogun", "stub_gun", "grenade_launcher", "flamer", "heavy_stubber"} <= set(keys)
    launcher = weapon_preset("grenade_launcher").make()
    assert [p.name for p in launcher.profiles] == ["Frag grenade", "Krak grenade"]
    assert parse_traits(launcher.profiles[0].traits).blast == 3.0
    assert parse_traits(weapon_preset("heavy_stubber").make().profiles[0].traits).rapid_fire == 2
    with pytest.raises(TableError, match="no weapon 'lascannon'"):
        weapon_preset("lascannon")


def test_fighter_presets_are_unit_presets_whose_weapons_match_the_weapon_list() -> None:
    fighters = unit_presets("necromunda")
    assert fighters
    by_name = {p.make().name: p.make() for p in weapon_presets()}
    for preset in fighters:
        unit = preset.make("u1", preset.title, 0, 1.0, 1.0)
        assert unit.kind == "fighter"
        assert {"bs", "cool"} <= set(unit.stats)
        for weapon in unit.weapons:
            assert weapon == by_name[weapon.name], (preset.key, weapon.name)

