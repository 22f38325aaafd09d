"""The Armour Battles data files: the document's numbers, the settings to
check, the unit presets and reading a unit's combat numbers."""

from __future__ import annotations

import pytest

from battletracker.model.game import Unit
from battletracker.model.game import Weapon
from battletracker.rules import RulesInputError
from battletracker.rules import get
from battletracker.rules import procedures
from battletracker.rules.armour_battles.data import RULESET
from battletracker.rules.armour_battles.data import indirect_fire_rules
from battletracker.rules.armour_battles.ranges import RangeProfile
from battletracker.rules.armour_battles.ranges import parse_ranges
from battletracker.rules.armour_battles.units import combat_profile
from battletracker.rules.armour_battles.units import is_vehicle
from battletracker.rules.presets import unit_presets
from battletracker.rules.tables import ruleset_settings


def test_procedures_are_registered_under_the_ruleset() -> None:
    assert procedures(RULESET) == ["ab.close_support_assault", "ab.close_support_fire", "ab.direct_fire_reaction",
                                   "ab.indirect_mission",
                                   "ab.indirect_placement", "ab.reaction"]


def test_every_setting_a_procedure_reads_is_declared_and_marked_to_check() -> None:
    settings = {s.key: s for s in ruleset_settings(RULESET)}
    assert all(s.check for s in settings.values())
    for name in procedures(RULESET):
        for key in get(name).settings:
            assert key in settings, f"{name} reads undeclared setting {key}"


def test_document_numbers() -> None:
    rules = indirect_fire_rules()
    assert rules.burst_radius == 2.0
    assert rules.long_range_multiplier == 2
    assert rules.target_number == 4
    assert (rules.move_dice("single"), rules.move_dice("double"), rules.move_dice("triple")) == (0, 1, 2)


def test_range_profile() -> None:
    profile = parse_ranges("9/18/36")
    assert profile == RangeProfile(9.0, 18.0, 36.0)
    assert str(profile) == "9/18/36"
    assert profile.rings(2) == {"short": 9.0, "effective": 18.0, "long": 36.0, "indirect_long": 72.0}
    assert [profile.direct_band(d) for d in (0.0, 9.0, 9.01, 18.0, 36.0, 36.01)] == [
        "short", "short", "effective", "effective", "long", None]
    assert parse_ranges('4.5/9"/18') == RangeProfile(4.5, 9.0, 18.0)
    for bad in ("9/18", "a/b/c", "0/18/36", "9/18/inf", "36/18/9"):
        with pytest.raises(RulesInputError, match="ranges:"):
            parse_ranges(bad)


def test_presets_include_the_documents_stuh_42_and_its_targets() -> None:
    presets = {p.key: p for p in unit_presets(RULESET)}
    assert {"stuh_42", "t34_43", "rifle_platoon_su", "smg_platoon_su"} <= set(presets)
    profiles = {key: combat_profile(p.make("u", p.title, 0, 0.0, 0.0)) for key, p in presets.items()}
    stuh = profiles["stuh_42"]
    assert (stuh.fp_dice, stuh.at_dice, str(stuh.ranges), stuh.close_support, stuh.armoured) == (7, 4, "9/18/36",
                                                                                              True, True)
    assert profiles["t34_43"].armoured is True
    assert profiles["rifle_platoon_su"].armoured is False
    assert profiles["smg_platoon_su"].armoured is False
    made = presets["stuh_42"].make("u", "StuH", 0, 0.0, 0.0)
    assert made.kind == "vehicle"
    assert made.counters == {"disruption": 0}


def test_tanks_and_assault_guns_are_vehicles_though_they_carry_no_damage_data() -> None:
    presets = {p.key: p.make("u", p.title, 0, 0.0, 0.0) for p in unit_presets(RULESET)}
    assert presets["stuh_42"].vehicle is None and is_vehicle(presets["stuh_42"])
    assert is_vehicle(presets["t34_43"])
    assert not is_vehicle(presets["rifle_platoon_su"]) and not is_vehicle(presets["smg_platoon_su"])
    truck = Unit("u9", "Truck", "vehicle", 0, 0.0, 0.0, stats={"armoured": False})
    assert is_vehicle(truck)


def test_combat_profile_refuses_a_unit_without_armour_battles_numbers() -> None:
    plain = Unit("u1", "Gruppe", "section", 0, 0.0, 0.0, weapons=[Weapon("Rifles", ranges=[18, 72])])
    with pytest.raises(RulesInputError, match="unit: Gruppe has no weapon with FP or AT Dice"):
        combat_profile(plain)
    two_ranges = Unit("u2", "Gun", "gun", 0, 0.0, 0.0,
                      weapons=[Weapon("Gun", ranges=[18, 72], stats={"fp_dice": 3, "at_dice": 2})])
    with pytest.raises(RulesInputError, match="needs three ranges"):
        combat_profile(two_ranges)
