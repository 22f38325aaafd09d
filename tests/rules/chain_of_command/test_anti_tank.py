"""coc.at_fire: the seed's worked examples, every adjustment, hit location, weak spot,
range band, limited rounds and refusal."""

from __future__ import annotations

from typing import Any

import pytest

from battletracker.core.dice import DiceExhausted
from battletracker.core.dice import ScriptedDice
from battletracker.model.effects import SetCondition
from battletracker.model.effects import SetDamage
from battletracker.model.effects import SpendAmmo
from battletracker.model.effects import add_shock
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.model.game import Weapon
from battletracker.rules import RulesInputError
from battletracker.rules import resolve
from battletracker.rules.chain_of_command.anti_tank import optics_damaged_modifier
from battletracker.rules.chain_of_command.anti_tank import parse_at_fire

SHERMAN_FRONT: dict[str, Any] = {"armour_dice": 6, "location": "front", "visibility": "open", "target": "afv"}


def fire(dice: list[int], **inputs: Any) -> Any:
    scripted = ScriptedDice(dice)
    res = resolve("coc.at_fire", inputs, scripted)
    assert scripted.remaining == 0, "every scripted die is used"
    return res


def table_game() -> Game:
    game = Game(sides=[Side("Allies", "#3366cc"), Side("Germans", "#cc3333")])
    game.units = {
        "sherman": Unit("sherman", "Sherman", "vehicle", 0, 30.0, 20.0, 180.0, figures=5, figures_max=5,
                        vehicle=Vehicle("afv", {"front": 6, "side": 4, "rear": 3, "top": 2})),
        "pz": Unit("pz", "Panzerschreck team", "support_weapon", 1, 30.0, 40.0, 0.0, figures=2, figures_max=2,
                   weapons=[Weapon("Panzerschreck", "infantry_at", 45.0, [18.0, 24.0, 36.0], ammo=1, ammo_max=3)]),
    }
    return game


# --- the worked examples ---------------------------------------------------------------------------------------

PANZER_IV_DICE = [6, 1, 1, 1, 2, 3, 4, 4, 5, 5, 6, 6, 1, 2, 3, 4, 5, 6, 4]


@pytest.mark.parametrize("weapon", [{"strike_dice": 9}, {"weapon": "7.5cm KwK 40"}, {"weapon": "Panzer IV H"}])
def test_panzer_iv_h_against_the_sherman_front(weapon: dict[str, Any]) -> None:
    res = fire(PANZER_IV_DICE, **weapon, **SHERMAN_FRONT, target_id="sherman")
    assert res.outcome == "net2:immobilised"
    v = res.values
    assert (v["to_hit_needed"], v["modifier"], v["to_hit_roll"], v["hit"]) == (5, 0, 7, True)
    assert (v["weak_spot_dice"], v["strike_dice_rolled"]) == (1, 10)
    assert (v["penetrating_hits"], v["saves"], v["net_hits"]) == (4, 2, 2)
    assert (v["damage_roll"], v["shock_added"], v["total_shock"], v["abandoned"]) == (4, 2, 2, False)
    assert [label for label, _ in res.rolls] == ["To hit (2D6)", "A.P. Strike Dice", "Armour Dice",
                                                 "Damage (AFV +2 Net Hits)"]
    assert res.rolls[1][1] == (1, 1, 2, 3, 4, 4, 5, 5, 6, 6)
    assert list(res.effects) == [add_shock("sherman", 2), SetDamage("sherman", "immobilised")]
    assert any("weak spot" in line for line in res.log)


def test_pak_40_then_abandons_the_immobilised_sherman() -> None:
    game = table_game()
    first = fire(PANZER_IV_DICE, weapon="Panzer IV H", **SHERMAN_FRONT, target_id="sherman")
    game.apply_all(first.effects)
    sherman = game.unit("sherman")
    assert sherman.shock == 2 and sherman.vehicle is not None and sherman.vehicle.damage == ["immobilised"]

    # One net hit: to hit 3+4, one Penetrating Hit among the Pak 40's dice, no saves, damage 1 (+1 table: Shock).
    second = fire([3, 4, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], weapon="7.5cm Pak 40", **SHERMAN_FRONT,
                  target_id="sherman", target_shock=sherman.shock, target_immobilised=True)
    assert second.outcome == "net1:shock"
    assert second.values["net_hits"] == 1
    assert (second.values["shock_added"], second.values["total_shock"], second.values["abandoned"]) == (2, 4, True)
    assert list(second.effects) == [add_shock("sherman", 2), SetCondition("sherman", "abandoned")]
    assert any("doubled" in line for line in second.values["consequences"])
    assert any("abandon" in line for line in second.values["consequences"])
    inverses = game.apply_all(second.effects)
    assert sherman.shock == 4 and sherman.has("abandoned")
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert sherman.shock == 2 and not sherman.has("abandoned")


# --- to hit ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("visibility", "needed"), [("open", 5), ("obscured", 7), ("badly_obscured", 9)])
def test_to_hit_number_by_visibility(visibility: str, needed: int) -> None:
    just = [needed // 2, needed - needed // 2]
    short = [(needed - 1) // 2, needed - 1 - (needed - 1) // 2]
    base = {"strike_dice": 0, "armour_dice": 0, "location": "front", "visibility": visibility, "target": "afv"}
    hit = fire([*just, 3], **base)
    assert hit.values["to_hit_needed"] == needed and hit.values["hit"]
    miss = fire(short, **base)
    assert miss.outcome == "miss" and not miss.values["hit"]
    assert miss.values["damage_roll"] is None and miss.values["net_hits"] is None


ADJUSTMENTS = [
    ("target_moved_flat_out", True, -1),
    ("firer_moved", True, -1),
    ("turret_rotated", True, -1),
    ("firer_shock", 1, -1),
    ("firer_shock", 3, -3),
    ("target_low_profile", True, -1),
    ("target_small", True, -1),
    ("extra_range_bands", 1, -1),
    ("extra_range_bands", 2, -2),
    ("under_suppressing_fire", True, -1),
    ("two_orders", True, 1),
    ("hit_last_round_stationary", True, 1),
    ("optics_damaged", True, -2),
]


@pytest.mark.parametrize(("key", "value", "modifier"), ADJUSTMENTS)
def test_each_adjustment(key: str, value: Any, modifier: int) -> None:
    base = {"strike_dice": 0, "armour_dice": 0, "location": "side", "visibility": "obscured", "target": "apc"}
    parsed = parse_at_fire({**base, key: value})
    assert parsed.modifier == modifier
    assert [m for _text, m in parsed.applied] == [modifier]
    # Needs 7: a natural 7 - modifier just hits, one less just misses.
    natural = 7 - modifier
    hit = fire([natural // 2, natural - natural // 2, 3], **base, **{key: value})
    assert hit.values["hit"] and hit.values["modifier"] == modifier
    miss = fire([(natural - 1) // 2, natural - 1 - (natural - 1) // 2], **base, **{key: value})
    assert miss.outcome == "miss"


def test_engine_damage_only_stops_moving_and_firing() -> None:
    assert parse_at_fire({**SHERMAN_FRONT, "strike_dice": 9, "firer_engine_damage": True}).modifier == 0


def test_adjustments_add_up() -> None:
    parsed = parse_at_fire({**SHERMAN_FRONT, "strike_dice": 5, "firer_moved": True, "firer_shock": 2,
                            "two_orders": True, "optics_damaged": "true"})
    assert parsed.modifier == -1 - 2 + 1 - 2


def test_a_natural_roll_can_be_out_of_reach() -> None:
    res = fire([6, 6], strike_dice=5, armour_dice=3, location="front", visibility="badly_obscured",
               target="afv", firer_shock=4)
    assert res.outcome == "miss" and res.values["weak_spot_dice"] == 0


def test_optics_damaged_modifiers_for_other_procedures() -> None:
    assert optics_damaged_modifier() == -2
    assert optics_damaged_modifier(he=True) == -1


# --- weak spots and hit locations ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("to_hit", "extra"), [([5, 2], 0), ([6, 1], 1), ([1, 6], 1), ([6, 6], 2)])
def test_weak_spots(to_hit: list[int], extra: int) -> None:
    res = fire([*to_hit, *[1] * (3 + extra), 3], strike_dice=3, armour_dice=0, location="front",
               visibility="open", target="afv")
    assert res.values["weak_spot_dice"] == extra
    assert res.values["strike_dice_rolled"] == 3 + extra


def test_weak_spot_dice_can_penetrate() -> None:
    res = fire([6, 6, 6, 5, 1, 1, 1], strike_dice=1, armour_dice=1, location="front", visibility="open",
               target="afv")
    assert res.values["strike_dice_rolled"] == 3
    assert res.values["penetrating_hits"] == 2 and res.values["saves"] == 0
    assert res.outcome == "net2:shock"


@pytest.mark.parametrize(("location", "hits"), [("front", 2), ("side", 3), ("rear", 4), ("top", 4)])
def test_penetration_by_hit_location(location: str, hits: int) -> None:
    res = fire([3, 3, 1, 2, 3, 4, 5, 6, 1, 1, 1, 1, 1, 1, 6], strike_dice=6, armour_dice=6, location=location,
               visibility="open", target="afv")
    assert res.values["penetrating_hits"] == hits
    assert res.values["saves"] == 0
    assert res.values["net_hits"] == hits


def test_armour_saves_on_five_or_six() -> None:
    res = fire([3, 3, 1, 1, 4, 5, 6, 6], strike_dice=2, armour_dice=4, location="front", visibility="open",
               target="afv")
    assert res.values["saves"] == 3 and res.outcome == "no_effect"
    assert res.values["net_hits"] == -3 and res.values["damage_roll"] is None
    assert list(res.effects) == []


def test_equal_hits_and_saves_go_to_the_damage_table() -> None:
    res = fire([3, 3, 5, 1, 5, 1, 3], strike_dice=2, armour_dice=2, location="front", visibility="open",
               target="afv", target_id="t")
    assert res.outcome == "equal:none" and res.values["net_hits"] == 0
    assert list(res.effects) == []


def test_no_strike_dice_and_no_armour_dice_is_equal() -> None:
    res = fire([3, 3, 1], strike_dice=0, armour_dice=0, location="front", visibility="open", target="afv")
    assert res.outcome == "equal:reverse"
    assert [label for label, _ in res.rolls] == ["To hit (2D6)", "Damage (AFV Equal Hits & Saves)"]


def test_scripted_dice_run_out_naming_the_next_roll() -> None:
    with pytest.raises(DiceExhausted, match="Armour Dice"):
        resolve("coc.at_fire", {**SHERMAN_FRONT, "strike_dice": 9}, ScriptedDice([6, 1, *[5] * 10]))


# --- range bands of portable weapons --------------------------------------------------------------------------

@pytest.mark.parametrize(("range_", "bands"), [(0, 0), (10, 0), (18, 0), (18.5, 1), (24, 1), (30, 2), (36, 2)])
def test_panzerschreck_range_bands(range_: float, bands: int) -> None:
    parsed = parse_at_fire({**SHERMAN_FRONT, "weapon": "Panzerschreck", "range": range_})
    assert parsed.strike_dice == 11
    assert parsed.extra_range_bands == bands
    assert parsed.modifier == -bands


def test_panzerschreck_at_thirty_inches_needs_two_more() -> None:
    miss = fire([3, 3], weapon="Panzerschreck", range=30, **SHERMAN_FRONT)
    assert miss.outcome == "miss" and miss.values["modifier"] == -2
    hit = fire([3, 4, *[1] * 11, *[1] * 6, 2], weapon="Panzerschreck", range=30, **SHERMAN_FRONT)
    assert hit.values["hit"] and hit.values["strike_dice_rolled"] == 11


def test_panzerschreck_refused_beyond_36() -> None:
    message = r'the Panzerschreck cannot fire beyond 36" \(the target is 36.5" away\)'
    with pytest.raises(RulesInputError, match=message) as err:
        parse_at_fire({**SHERMAN_FRONT, "weapon": "Panzerschreck", "range": 36.5})
    assert err.value.field == "range"


def test_portable_weapon_needs_a_range() -> None:
    with pytest.raises(RulesInputError, match=r'range: is required for the Panzerschreck \(range bands 0-18", '
                                              r'18-24", 24-36"\)'):
        parse_at_fire({**SHERMAN_FRONT, "weapon": "Panzerschreck"})


def test_guns_treat_the_whole_table_as_close_range() -> None:
    parsed = parse_at_fire({**SHERMAN_FRONT, "weapon": "7.5cm Pak 40", "range": 70})
    assert parsed.extra_range_bands == 0 and parsed.modifier == 0 and parsed.range == 70
    assert parse_at_fire({**SHERMAN_FRONT, "weapon": "7.5cm KwK 40"}).strike_dice == 9


def test_extra_range_bands_must_agree_with_the_range() -> None:
    assert parse_at_fire({**SHERMAN_FRONT, "weapon": "Panzerschreck", "range": 20,
                          "extra_range_bands": 1}).extra_range_bands == 1
    with pytest.raises(RulesInputError, match=r'extra_range_bands: follows from weapon and range \(1 for the '
                                              r'Panzerschreck at 20"\), not 0'):
        parse_at_fire({**SHERMAN_FRONT, "weapon": "Panzerschreck", "range": 20, "extra_range_bands": 0})


# --- limited ammunition --------------------------------------------------------------------------------------------

def test_a_round_is_spent_even_on_a_miss() -> None:
    res = fire([1, 1], weapon="Panzerschreck", range=10, **SHERMAN_FRONT, firer_id="pz", weapon_index=0,
               rounds_left=3, target_id="sherman")
    assert res.outcome == "miss"
    assert list(res.effects) == [SpendAmmo("pz", 0, 1)]
    assert (res.values["rounds_spent"], res.values["rounds_left_after"]) == (1, 2)


def test_spent_round_comes_first_then_the_damage() -> None:
    res = fire(PANZER_IV_DICE[:2] + [1] * 12 + [1] * 6 + [4], weapon="Panzerschreck", range=10, **SHERMAN_FRONT,
               firer_id="pz", weapon_index=0, rounds_left=1, target_id="sherman")
    assert res.outcome == "equal:none"
    assert list(res.effects) == [SpendAmmo("pz", 0, 1)]


def test_last_round_then_refused() -> None:
    game = table_game()
    res = fire([1, 1], weapon="Panzerschreck", range=10, **SHERMAN_FRONT, firer_id="pz", weapon_index=0,
               rounds_left=game.unit("pz").weapons[0].ammo or 0)
    game.apply_all(res.effects)
    left = game.unit("pz").weapons[0].ammo
    assert left == 0
    with pytest.raises(RulesInputError, match=r"rounds_left: the Panzerschreck has no rounds left "
                                              r"\(Limited Ammunition: 3 rounds\)"):
        resolve("coc.at_fire", {"weapon": "Panzerschreck", "range": 10, **SHERMAN_FRONT, "firer_id": "pz",
                                "weapon_index": 0, "rounds_left": left}, ScriptedDice([6, 6]))


@pytest.mark.parametrize("weapon", ["Bazooka", "PIAT"])
def test_bazooka_and_piat_carry_three_rounds(weapon: str) -> None:
    parsed = parse_at_fire({**SHERMAN_FRONT, "weapon": weapon, "range": 5, "firer_id": "f", "weapon_index": 1})
    assert parsed.ammo.limited and parsed.ammo.spend
    with pytest.raises(RulesInputError, match=f"rounds_left: the {weapon} carries at most 3 rounds, not 4"):
        parse_at_fire({**SHERMAN_FRONT, "weapon": weapon, "range": 5, "rounds_left": 4})


def test_anti_tank_rifles_are_unlimited() -> None:
    res = fire([1, 1], weapon="Boys anti-tank rifle", range=10, **SHERMAN_FRONT, firer_id="boys", weapon_index=0)
    assert list(res.effects) == [] and res.values["rounds_spent"] == 0
    with pytest.raises(RulesInputError, match="rounds_left: the Boys anti-tank rifle has unlimited ammunition"):
        parse_at_fire({**SHERMAN_FRONT, "weapon": "Boys anti-tank rifle", "range": 10, "rounds_left": 2})


def test_rounds_left_makes_a_weapon_given_by_strike_dice_limited() -> None:
    res = fire([1, 1], strike_dice=6, **SHERMAN_FRONT, firer_id="f", weapon_index=2, rounds_left=2)
    assert list(res.effects) == [SpendAmmo("f", 2, 1)]
    with pytest.raises(RulesInputError, match="rounds_left: the weapon has no rounds left$"):
        parse_at_fire({**SHERMAN_FRONT, "strike_dice": 6, "rounds_left": 0})


def test_without_ids_nothing_changes() -> None:
    res = fire(PANZER_IV_DICE, weapon="Panzer IV H", **SHERMAN_FRONT)
    assert list(res.effects) == []
    assert res.values["shock_added"] == 2


# --- refusals ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("inputs", "field", "message"), [
    ({**SHERMAN_FRONT}, "strike_dice", "is required: give strike_dice, or weapon"),
    ({**SHERMAN_FRONT, "strike_dice": 9, "weapon": "Panzerschreck"}, "strike_dice",
     "give either strike_dice or weapon, not both"),
    ({**SHERMAN_FRONT, "weapon": "Flak 88"}, "weapon", "no anti-tank weapon called 'Flak 88' in the arsenal"),
    ({**SHERMAN_FRONT, "weapon": "Teller mine"}, "weapon", "is a grenade or charge: it is thrown with coc.at_grenade"),
    ({**SHERMAN_FRONT, "strike_dice": 9, "range": 12}, "range", "is only used with weapon"),
    ({**SHERMAN_FRONT, "strike_dice": -1}, "strike_dice", "must be at least 0, not -1"),
    ({**SHERMAN_FRONT, "strike_dice": 9, "location": "turret"}, "location", "must be one of front, side, rear, top"),
    ({**SHERMAN_FRONT, "strike_dice": 9, "visibility": "smoke"}, "visibility",
     "must be one of open, obscured, badly_obscured"),
    ({**SHERMAN_FRONT, "strike_dice": 9, "target": "tank"}, "target", "must be one of afv, apc"),
    ({**SHERMAN_FRONT, "strike_dice": 9, "armour_dice": None}, "armour_dice", "is required"),
    ({**SHERMAN_FRONT, "strike_dice": 9, "firer_shock": -1}, "firer_shock", "must be at least 0"),
    ({**SHERMAN_FRONT, "strike_dice": 9, "two_orders": "maybe"}, "two_orders", "must be true or false"),
    ({**SHERMAN_FRONT, "strike_dice": 9, "target_shock": -2}, "target_shock", "must be at least 0"),
    ({**SHERMAN_FRONT, "strike_dice": 9, "weapon_index": 0}, "weapon_index", "needs firer_id"),
    ({**SHERMAN_FRONT, "weapon": "Panzerschreck", "range": 5, "firer_id": "pz"}, "weapon_index",
     "is required to spend one of the Panzerschreck's rounds"),
    ({**SHERMAN_FRONT, "strike_dice": 9, "flank": True}, "flank", "is not an input of this procedure"),
    ({**SHERMAN_FRONT, "strike_dice": 9, "firer_moved": True, "firer_engine_damage": True}, "firer_moved",
     "the firer has Engine Damage: it cannot move and fire its main armament in the same Phase"),
])
def test_refusals_name_the_field(inputs: dict[str, Any], field: str, message: str) -> None:
    with pytest.raises(RulesInputError, match=message) as err:
        resolve("coc.at_fire", inputs, ScriptedDice([6, 6]))
    assert err.value.field == field


def test_weapon_names_ignore_letter_case() -> None:
    assert parse_at_fire({**SHERMAN_FRONT, "weapon": "panzerschreck", "range": 5}).weapon == "Panzerschreck"
