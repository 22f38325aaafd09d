"""coc.gun_he for the H.E. of an infantry anti-tank weapon; a vehicle's gun keeps the guns' rule.

The documents: the Panzerschreck's "H.E. Firing Dice are used when firing
against Infantry targets" and it has "Limited Ammunition of three rounds".
Close Range 4+, the Storm of Steel Bonus and the cover reduced one level are
given to Infantry and Anti-Tank Guns: for an infantry anti-tank weapon they
are settings (settings.toml).
"""

from __future__ import annotations

import re

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import SpendAmmo
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.base import Resolution
from battletracker.rules.chain_of_command.fire import hit_effect_faces
from battletracker.rules.chain_of_command.fire import to_hit_number
from battletracker.rules.tables import find_setting
from tests.rules.oddscheck import assert_odds_match_simulation

SCHRECK: dict[str, object] = {"he_dice": 4, "cover": "hard", "firer_kind": "infantry_at", "target_quality": "regular"}


def fire(base: dict[str, object], dice: list[int], **inputs: object) -> Resolution:
    return resolve("coc.gun_he", {**base, **inputs}, ScriptedDice(dice))  # type: ignore[dict-item]


def face(cover: str, result: str) -> int:
    return hit_effect_faces(cover).index(result) + 1


def test_the_settings_are_documented_defaults_to_check() -> None:
    for key, default in (("infantry_at_he_range", "minus_one_per_band"), ("infantry_at_he_storm_of_steel", False),
                         ("infantry_at_he_reduce_cover", 0)):
        declared = find_setting("chain_of_command", key)
        assert declared.check and declared.default == default and re.search(r"\b00[01]\)", declared.description)


def test_a_panzerschreck_rolls_its_he_dice_on_the_to_hit_table_without_storm_of_steel_or_cover_reduced() -> None:
    close = to_hit_number("close", "regular")
    kill = face("hard", "kill")
    res = fire(SCHRECK, [6, close, close - 1, 1, kill, kill])
    assert [label for label, _ in res.rolls] == ["H.E. Firepower Dice", "Effect dice"]   # the 6 earns no more dice
    assert res.values["to_hit"] == close and res.values["hits"] == 2
    assert res.values["cover"] == "hard" and res.outcome == "kills=2 shock=0"
    assert res.values["storm_of_steel"] is False and res.values["cover_reduced"] == 0


def test_each_band_past_the_first_needs_one_more_by_default() -> None:
    close = to_hit_number("close", "green")
    for band in (0, 1, 2):
        res = fire(SCHRECK, [1, 1, 1, 1], target_quality="green", range_band_index=band)
        assert res.values["to_hit"] == close + band
    effective = fire(SCHRECK, [1, 1, 1, 1], target_quality="green", range_band_index=2,
                     infantry_at_he_range="close_effective")
    assert effective.values["to_hit"] == to_hit_number("effective", "green")


def test_a_band_too_far_for_the_target_is_refused_in_words() -> None:
    with pytest.raises(RulesInputError, match="H.E. hits on 7\\+ before adjustments, and a die scores 2 to 6"):
        fire(SCHRECK, [1], target_quality="elite", range_band_index=2)


def test_the_settings_give_it_storm_of_steel_and_reduce_cover() -> None:
    res = fire(SCHRECK, [6, 1, 1, 1, 1, face("light", "kill")], infantry_at_he_storm_of_steel=True,
               infantry_at_he_reduce_cover=1)
    assert [label for label, _ in res.rolls] == ["H.E. Firepower Dice", "Storm of Steel dice", "Effect dice"]
    assert res.values["cover"] == "light" and res.outcome == "kills=1 shock=0"


def test_a_shot_spends_one_of_its_three_rounds_and_an_empty_weapon_is_refused() -> None:
    kill = face("hard", "kill")
    res = fire(SCHRECK, [6, 1, 1, 1, kill], rounds_left=3, firer_id="pz", weapon_index=0, target_id="t")
    assert list(res.effects) == [ChangeFigures("t", -1), SpendAmmo("pz", 0, 1)]
    assert res.values["rounds_left_after"] == 2 and "One round spent: 2 left" in res.log
    with pytest.raises(RulesInputError, match="no rounds left"):
        fire(SCHRECK, [1], rounds_left=0, firer_id="pz")


def test_a_gun_keeps_the_documents_rule_and_takes_no_quality() -> None:
    res = fire({"he_dice": 3, "cover": "hard", "crew": 4}, [6, 1, 1, 1, 1])
    assert [label for label, _ in res.rolls] == ["H.E. Firepower Dice", "Storm of Steel dice", "Effect dice"]
    assert res.values["to_hit"] == 4 and res.values["cover"] == "light"
    with pytest.raises(RulesInputError, match="target_quality"):
        fire({"he_dice": 3, "cover": "hard", "crew": 4}, [1], target_quality="elite")


def test_a_bad_setting_is_refused_in_words() -> None:
    with pytest.raises(RulesInputError, match="must be at most 2"):
        fire(SCHRECK, [1], infantry_at_he_reduce_cover=3)


def test_a_vehicle_is_no_firer_kind_of_its_own() -> None:
    """A vehicle's gun fires H.E. by the guns' rule, as the games saved so far were played."""
    with pytest.raises(RulesInputError, match="firer_kind"):
        fire({"he_dice": 4, "cover": "hard", "firer_kind": "vehicle"}, [1])


@pytest.mark.parametrize("inputs", [
    SCHRECK,
    {**SCHRECK, "range_band_index": 1, "cover": "light", "teams": 2},
    {**SCHRECK, "infantry_at_he_storm_of_steel": True, "infantry_at_he_reduce_cover": 1, "rounds_left": 2},
    {**SCHRECK, "target_quality": "green", "infantry_at_he_range": "close_effective", "range_band_index": 1,
     "building": "brick_stone"},
])
def test_exact_odds_agree_with_the_simulation(inputs: dict[str, object]) -> None:
    assert_odds_match_simulation("coc.gun_he", inputs)  # type: ignore[arg-type]
    assert odds("coc.gun_he", inputs).total() == 1  # type: ignore[arg-type]


def test_without_its_firer_no_round_is_said_spent() -> None:
    """The procedure alone (no card to spend from) says nothing of rounds; with the firer it spends one."""
    res = fire(SCHRECK, [1, 1, 1, 1], rounds_left=3)
    assert not [line for line in res.log if "round" in line] and not res.effects
