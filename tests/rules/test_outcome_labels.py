"""Every registered procedure names its outcomes in a player's words, in reading order.

Outcome keys stay the rules' own ("kills=0 shock=2", "net2:immobilised"); what
the odds view, the result and the log show is the procedure's `label`.
"""

from __future__ import annotations

import re

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.rules import get
from battletracker.rules import procedures
from battletracker.rules import resolve
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import counted
from battletracker.rules.base import message_of
from battletracker.rules.base import outcome_words
from battletracker.rules.chain_of_command import command_dice
from tests.benchmarks.odds_bench import TYPICAL
from tests.rules.chain_of_command.test_bombardment_phase import BASE
from tests.rules.chain_of_command.test_bombardment_phase import INFANTRY
from tests.rules.chain_of_command.test_bombardment_phase import targets
from tests.rules.necromunda.test_attack import autogun

INPUTS: dict[str, dict[str, object]] = {
    **TYPICAL,
    "coc.bombardment_phase": {**BASE, **targets(INFANTRY, {**INFANTRY, "id": "u2", "cover": "hard"})},
    "necro.attack": autogun(cool=7, toolkit_target_priority=True),
}
# Procedures whose odds need a game (or have none): the keys their resolve gives.
KEYS: dict[str, tuple[str, ...]] = {
    "coc.command_dice": (command_dice.OTHER_SIDE, command_dice.SAME_SIDE, command_dice.TURN_ENDS,
                         command_dice.TURN_ENDS_BONUS),
    "coc.force_morale_test": ("no loss of Force Morale", "Force Morale falls by 2"),
    "coc.spend_command_die": ("spent",),
}
RAW = re.compile(r"\w[=_:+]\w|\bnet\d\b")
PLURAL = re.compile(r"\b1 (kills|successes|sixes|hits|Hits|units|buildings)\b"
                    r"|\b(?:[02-9]|\d\d+) (kill|success|six|hit|Hit|unit)\b")


def outcome_keys(name: str) -> tuple[str, ...]:
    if name in KEYS:
        return KEYS[name]
    if name in INPUTS:
        return tuple(get(name).odds(INPUTS[name]).outcomes)  # type: ignore[arg-type]
    return tuple(get(name).odds({}).outcomes) if name.startswith(("unit.", "side.", "clock.", "terrain.")) else ()


@pytest.mark.parametrize("name", procedures())
def test_every_outcome_of_every_procedure_reads_in_words(name: str) -> None:
    keys = outcome_keys(name)
    assert keys, f"no typical inputs or keys for {name}"
    proc = get(name)
    for key in sorted(keys, key=proc.order):
        words = proc.label(key)
        assert words and not RAW.search(words), f"{name}: {key!r} reads {words!r}"
        assert not PLURAL.search(words), f"{name}: {key!r} reads {words!r}"
        if " " in key and "=" not in key:
            assert words != ", ".join(key.split()), f"{name}: {key!r} reads {words!r}, a comma between each word"


def test_the_generic_label_counts_with_plurals_and_says_no_effect() -> None:
    assert outcome_words("kills=2 shock=1") == "2 kills, 1 Shock"
    assert outcome_words("kills=1 shock=0") == "1 kill"
    assert outcome_words("kills=0 shock=0") == "no effect"
    assert outcome_words("successes=0") == "no successes"
    assert outcome_words("kills=0 shock=2 building_on_fire") == "2 Shock, the building catches fire"
    assert outcome_words("kills=0 shock=0 vehicle_shock=4+") == "4 or more Shock on the vehicle"
    assert outcome_words("kills=1 shock=6 vehicle_shock=4+") == "1 kill, 6 Shock, 4 or more Shock on the vehicle"
    assert [counted(n, "sixes") for n in (1, 2)] == ["1 six", "2 sixes"]


def test_labels_that_read_badly_as_keys_are_the_procedures_own() -> None:
    assert get("coc.at_fire").label("net2:immobilised") == "+2: immobilised"
    assert get("coc.at_fire").label("equal:reverse") == "Equal: reverse"
    assert get("coc.ranging_shot").label("on_target") == "On target"
    assert get("coc.sniper").label("kill+leader_hit") == "Kill, and the leader is hit"
    assert get("dice.pool").label("1 successes") == "1 success"
    assert get("ab.indirect_mission").label("on_target suppressed=1 disrupted=0") == "On target: 1 unit suppressed"


def test_outcomes_come_in_reading_order() -> None:
    at = get("coc.at_fire")
    ordered = sorted(at.odds(TYPICAL["coc.at_fire"]).outcomes, key=at.order)  # type: ignore[arg-type]
    assert ordered[0] == "miss" and ordered[-1].startswith("net3")
    mg = get("coc.tripod_mg")
    ordered = sorted(mg.odds(TYPICAL["coc.tripod_mg"]).outcomes, key=mg.order)  # type: ignore[arg-type]
    assert ordered.index("kills=0 shock=10") < ordered.index("kills=1 shock=0")
    ranging = get("coc.ranging_shot")
    assert sorted(["devastating", "on_target", "unobserved", "deviates"], key=ranging.order) == [
        "unobserved", "deviates", "on_target", "devastating"]


def test_log_lines_count_in_words() -> None:
    pool = resolve("dice.pool", {"dice": 3, "target": 4}, ScriptedDice([6, 1, 1]))
    assert pool.log[-1].endswith("-> 1 success")
    fire = resolve("ab.close_support_fire", TYPICAL["ab.close_support_fire"],  # type: ignore[arg-type]
                   ScriptedDice([6] + [1] * 20))
    assert "1 success, 1 six" in " ".join(fire.log)


def test_a_refusal_reads_without_its_field_name_and_with_rounded_measures() -> None:
    with pytest.raises(RulesInputError) as caught:
        resolve("coc.tripod_mg", {**TYPICAL["coc.tripod_mg"], "barrel_facing": 0.0,  # type: ignore[dict-item]
                                  "target_bearing": 78.2859}, ScriptedDice([]))
    assert caught.value.field == "target_bearing"
    assert message_of(caught.value).startswith("The target is 78 degrees off the barrel")
    with pytest.raises(RulesInputError) as caught:
        resolve("dice.pool", {"dice": 0, "target": 4}, ScriptedDice([]))
    assert message_of(caught.value) == "Dice must be at least 1, not 0"
