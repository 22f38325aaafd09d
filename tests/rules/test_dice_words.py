"""Messages count dice as a player says them: "1 die", "2 dice", never "1 dice"."""

from __future__ import annotations

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.rules import resolve
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import perform
from battletracker.rules.base import Roller
from battletracker.rules.base import counted
from battletracker.rules.chain_of_command.area_fire import AreaTarget
from battletracker.rules.chain_of_command.area_fire import roll_target
from tests.model.sample import sample_game


def test_counted_dice_agree_with_their_number() -> None:
    assert [counted(n, "dice") for n in (0, 1, 2)] == ["0 dice", "1 die", "2 dice"]
    assert counted(1, "H.E. dice") == "1 H.E. die"


def test_one_die_too_many_is_one_die() -> None:
    with pytest.raises(Refusal, match=r"^1 die was given, but "):
        perform(sample_game(), "unit.shock", {"unit": "u1", "delta": 1}, [6])


def test_anti_tank_fire_logs_one_strike_die_and_one_armour_die() -> None:
    res = resolve("coc.at_fire", {"strike_dice": 1, "armour_dice": 1, "location": "front", "visibility": "open",
                                  "target": "afv"}, ScriptedDice([5, 4, 6, 1, 3, 3, 3, 3]))
    log = " ".join(res.log)
    assert "A.P. Strike: 1 die needing" in log and "Armour: 1 die saving on" in log
    assert "1 dice" not in log


def test_area_fire_logs_one_die_at_an_empty_building() -> None:
    dice = ScriptedDice([6])
    result = roll_target(Roller(dice), dice, AreaTarget("building", "Mill", dice=1, to_hit=4), 4)
    assert result.lines[0] == "Mill: 1 die: 6" and result.lines[-1].startswith("  1 six: ")


def test_fire_logs_one_hit_and_one_six_in_words() -> None:
    res = resolve("coc.sos_fire", {"cover": "open", "firepower_dice": 1, "storm_of_steel_per_six": 1,
                                   "storm_of_steel_chains": False}, ScriptedDice([6, 1, 1]))
    assert any(line.startswith("1 hit, 1 six;") for line in res.log), res.log
    assert not any("(s)" in line or "(es)" in line for line in res.log)


def test_no_message_leaves_a_count_to_the_reader_as_a_plural_in_brackets() -> None:
    """Counts are said in words ("1 hit", "2 hits"), never "hit(s)": a grep over every string in the package."""
    import ast
    from pathlib import Path

    import battletracker

    found = []
    for path in Path(battletracker.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "(s)" in node.value:
                found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert found == []
