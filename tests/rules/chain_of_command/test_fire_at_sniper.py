"""Fire at a spotted sniper (`sniper_target`): Shock ignored, one kill removes it, and the odds count exactly that."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model.effects import RemoveUnit
from battletracker.model.sequence_effects import QueueForceMoraleTest
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.chain_of_command.fire import SNIPER_KILLED
from battletracker.rules.chain_of_command.fire import SNIPER_UNHARMED
from battletracker.rules.chain_of_command.fire import hit_effect_faces
from tests.rules.oddscheck import assert_odds_match_simulation

FIRE = {"firepower_dice": 3, "range_band": "close", "target_quality": "regular", "cover": "open",
        "target_id": "sniper", "target_figures": "2", "sniper_target": True}


def face(cover: str, result: str) -> int:
    return hit_effect_faces(cover).index(result) + 1


def test_one_kill_removes_the_sniper_and_calls_a_force_morale_test() -> None:
    kill, shock = face("open", "kill"), face("open", "shock")
    res = resolve("coc.fire", FIRE, ScriptedDice([6, 6, 1, kill, shock]))
    assert res.outcome == "kills=1 shock=0"
    assert list(res.effects) == [QueueForceMoraleTest("sniper", "sniper_killed", "Sniper killed"), RemoveUnit("sniper")]
    assert SNIPER_KILLED in res.log


def test_shock_on_a_sniper_is_ignored() -> None:
    shock = face("open", "shock")
    res = resolve("coc.fire", FIRE, ScriptedDice([6, 1, 1, shock]))
    assert res.outcome == "kills=0 shock=0"
    assert list(res.effects) == []
    assert SNIPER_UNHARMED in res.log


def test_the_odds_count_only_removal_or_nothing() -> None:
    dist = odds("coc.fire", FIRE)
    assert set(dist.outcomes) == {"kills=0 shock=0", "kills=1 shock=0"}
    assert dist.total() == Fraction(1)
    plain = odds("coc.fire", {k: v for k, v in FIRE.items() if k != "sniper_target"})
    no_kill = sum((p for key, p in plain.items() if key.startswith("kills=0 ")), Fraction(0))
    assert dist.p("kills=0 shock=0") == no_kill


@pytest.mark.parametrize(("name", "inputs"), [
    ("coc.fire", FIRE),
    ("coc.tripod_mg", {"firepower_dice": 6, "figures": 3, "range_band": "effective", "target_quality": "regular",
                       "cover": "light", "target_id": "sniper", "sniper_target": True}),
    ("coc.gun_he", {"he_dice": 4, "crew": 3, "cover": "light", "target_id": "sniper", "sniper_target": True}),
    ("coc.flamethrower", {"range": 6.0, "fuel": 3, "target_kind": "infantry", "range_band": "close",
                          "target_quality": "regular", "target_id": "sniper", "sniper_target": True}),
])
def test_odds_match_the_dice_for_every_procedure_firing_at_a_sniper(name: str, inputs: dict[str, object]) -> None:
    assert_odds_match_simulation(name, inputs)  # type: ignore[arg-type]
    assert all(key.split("shock=")[1].split()[0] == "0" for key in odds(name, inputs).outcomes  # type: ignore[arg-type]
               if "shock=" in key)


def test_a_sniper_is_fired_at_on_its_own() -> None:
    shared = {**FIRE, "teams": 2, "target_ids": "sniper,rifles", "target_figures": "2,5"}
    del shared["target_id"]
    with pytest.raises(RulesInputError, match="on its own"):
        odds("coc.fire", shared)
