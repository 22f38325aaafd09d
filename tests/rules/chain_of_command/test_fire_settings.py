"""fire.toml's to-hit and hit-effect tables: the published default, and a game's changes used by every procedure."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.rules import RulesInputError
from battletracker.rules import get
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.chain_of_command.fire import TABLE_SETTINGS
from battletracker.rules.chain_of_command.fire import HitEffect
from battletracker.rules.chain_of_command.fire import hit_effect_faces
from battletracker.rules.chain_of_command.fire import to_hit_number
from battletracker.rules.tables import find_setting
from battletracker.rules.tables import ruleset_table
from tests.rules.oddscheck import assert_odds_match_simulation

FIRE = {"firepower_dice": 1, "range_band": "close", "target_quality": "regular", "cover": "open",
        "storm_of_steel_per_six": 0}


def test_the_effect_of_a_hit_is_what_two_published_references_agree_on() -> None:
    assert hit_effect_faces("open") == ("none", "none", "shock", "shock", "kill", "kill")
    assert hit_effect_faces("light") == ("none", "none", "none", "shock", "shock", "kill")
    assert hit_effect_faces("hard") == ("none", "none", "none", "none", "shock", "kill")
    table = ruleset_table("chain_of_command", "fire", "hit_effect")
    assert table.bool("check") is True
    assert "Roll20" in table.str("source") and "quick-reference sheet" in table.str("source")


def test_every_entry_of_the_tables_is_a_setting_to_check_whose_default_is_the_file() -> None:
    for band in ("close", "effective"):
        for quality in ("green", "regular", "elite"):
            s = find_setting("chain_of_command", f"to_hit_{band}_{quality}")
            assert s.check and s.default == to_hit_number(band, quality) and (s.minimum, s.maximum) == (2, 6)
    for cover in ("open", "light", "hard"):
        s = find_setting("chain_of_command", f"hit_effect_{cover}")
        assert s.check and s.default == " ".join(hit_effect_faces(cover)) and s.length == 6


@pytest.mark.parametrize("procedure", ["coc.fire", "coc.tripod_mg", "coc.gun_he", "coc.flamethrower", "coc.sniper",
                                       "coc.sos_fire", "coc.grenade_into_vehicle", "coc.bombardment_phase"])
def test_every_procedure_rolling_against_the_tables_takes_the_games_changes(procedure: str) -> None:
    assert set(TABLE_SETTINGS) <= set(get(procedure).settings)


def test_a_games_to_hit_and_hit_effect_are_the_ones_rolled_against() -> None:
    assert resolve("coc.fire", {**FIRE}, ScriptedDice([3])).values["hits"] == 0      # Regular at Close: 4+
    changed = {**FIRE, "to_hit_close_regular": 3, "hit_effect_open": "kill kill kill kill kill kill"}
    res = resolve("coc.fire", changed, ScriptedDice([3, 1]))  # type: ignore[arg-type]
    assert res.values["to_hit"] == 3 and res.outcome == "kills=1 shock=0"
    assert odds("coc.fire", changed).p("kills=1 shock=0") == Fraction(4, 6)  # type: ignore[arg-type]
    assert odds("coc.fire", FIRE).p("kills=1 shock=0") == Fraction(3, 6) * HitEffect.for_cover("open").kill_chance()  # type: ignore[arg-type]
    sniper = {"target_kind": "infantry", "hit_effect_open": "shock shock shock shock shock shock"}
    assert resolve("coc.sniper", sniper, ScriptedDice([3, 6])).outcome == "shock=2"       # a 6 shocks, doubled
    gun = {"he_dice": 1, "cover": "light", "crew": 3, "storm_of_steel_per_six": 0,
           "hit_effect_open": "none none none none none kill"}
    assert resolve("coc.gun_he", gun, ScriptedDice([4, 5])).outcome == "kills=0 shock=0"   # light reduced to the Open


def test_odds_with_a_games_tables_match_the_simulation() -> None:
    assert_odds_match_simulation("coc.fire", {**FIRE, "firepower_dice": 6, "storm_of_steel_per_six": 1,  # type: ignore[arg-type]
                                              "to_hit_close_regular": 5,
                                              "hit_effect_open": "shock kill none shock kill kill"})


@pytest.mark.parametrize(("key", "value", "words"), [
    ("hit_effect_open", "none none shok shock kill kill", "result 3 must be one of none, shock, kill, not 'shok'"),
    ("hit_effect_hard", "none kill", "must list 6 results separated by spaces"),
    ("to_hit_close_regular", 7, "must be at most 6, not 7"),
])
def test_a_change_the_table_cannot_take_is_refused_naming_it(key: str, value: object, words: str) -> None:
    with pytest.raises(RulesInputError) as err:
        odds("coc.fire", {**FIRE, key: value})  # type: ignore[dict-item]
    assert err.value.field == key and words in str(err.value)
