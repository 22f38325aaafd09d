"""Reading the table for a Shoot without Qt: the inputs of necro.attack, the facts in words, refusals."""

from __future__ import annotations

from typing import Any

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.effects import SetCondition
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Weapon
from battletracker.model.game import WeaponProfile
from battletracker.model.sequence_effects import SetActed
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.necromunda.plans import attack_plan
from battletracker.rules.necromunda.plans import combat_of
from battletracker.rules.necromunda.plans import sight_candidates
from tests.rules.necromunda.helpers import assert_sentence

AUTOGUN = {"short_range": 8, "long_range": 24, "acc_short": 1, "acc_long": 0, "strength": 3, "ap": 0, "damage": 1}


def fighter(unit_id: str, name: str, side: int, x: float, y: float, *, weapons: list[Weapon] | None = None,
            conditions: list[str] | None = None, **stats: Any) -> Unit:
    return Unit(unit_id, name, "fighter", side, x, y, stats={"bs": 4, "cool": 7, **stats},
                weapons=weapons or [], conditions=conditions or [])


def autogun() -> Weapon:
    return Weapon("Autogun", "basic", profiles=[WeaponProfile("Autogun", dict(AUTOGUN),
                                                              ["Rapid Fire (2)", "Ammo (4+)"])])


def flamer() -> Weapon:
    return Weapon("Flamer", "special", profiles=[WeaponProfile("Burn", {"strength": 4}, ["Template"])])


def game_of(*units: Unit, **settings: bool) -> Game:
    game = Game(title="Underhive", ruleset="necromunda", table_width=36, table_height=36,
                sides=[Side("Goliaths", "#3b6fb6"), Side("Escher", "#b5651d")], settings=dict(settings))
    for unit in units:
        game.units[unit.id] = unit
    return game


def test_a_plain_shot_reads_range_bs_and_the_target_from_the_table() -> None:
    game = game_of(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("b", "Mira", 1, 10, 20))
    plan = attack_plan(game, {"firer": "a", "target": "b", "weapon": "Autogun"})
    assert plan.procedure == "necro.attack"
    assert plan.inputs["range"] == 10.0 and plan.inputs["bs"] == 4 and plan.inputs["firepower_dice"] == 2
    assert plan.inputs["target_id"] == "b" and plan.inputs["firer_id"] == "a"
    assert plan.facts == ('Range 10.0" \u2014 long range.',)
    assert plan.choices == {"firer": "a", "target": "b", "weapon": "Autogun"}
    assert plan.title == "Kal shoots Autogun at Mira"
    assert odds(plan.procedure, plan.inputs).total() == 1


def test_the_tape_overrides_the_map_and_says_so() -> None:
    game = game_of(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("b", "Mira", 1, 10, 20))
    plan = attack_plan(game, {"firer": "a", "target": "b", "range": 7.5})
    assert plan.facts[0] == 'Range 7.5" \u2014 short range (the map measures 10.0").'
    assert attack_plan(game, {"firer": "a", "target": "b", "range": 30})
    assert "out of range" in attack_plan(game, {"firer": "a", "target": "b", "range": 30}).facts[0]


def test_target_priority_asks_for_the_cool_check_only_for_another_target() -> None:
    game = game_of(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("near", "Near", 1, 10, 15),
                   fighter("far", "Far", 1, 20, 10), toolkit_target_priority=True)
    near = attack_plan(game, {"firer": "a", "target": "near"})
    assert "cool" not in near.inputs and "Near is the closest enemy" in near.facts[0]
    far = attack_plan(game, {"firer": "a", "target": "far"})
    assert far.inputs["cool"] == 7 and far.inputs["toolkit_target_priority"] is True
    assert "must first pass a Cool check (7+ on 2D6)" in far.facts[0]
    unseen = attack_plan(game, {"firer": "a", "target": "far", "not_in_sight": "near"})
    assert "cool" not in unseen.inputs


def test_walking_fire_and_stray_shots_list_the_models_the_rules_reach() -> None:
    game = game_of(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("b", "Mira", 1, 10, 20),
                   fighter("c", "Close", 1, 12, 21), fighter("d", "Distant", 1, 18, 20),
                   fighter("e", "Bystander", 0, 10.5, 15, conditions=["seriously_injured"]),
                   toolkit_walking_fire=True, toolkit_stray_shots=True)
    plan = attack_plan(game, {"firer": "a", "target": "b"})
    assert plan.inputs["walking_candidates"] == "c"
    assert plan.inputs["at_risk"] == "e"
    assert plan.inputs["seriously_injured"] == "e"
    assert any(f.startswith("Walking fire: Hits after the first may go to Close") for f in plan.facts)
    assert any(f.startswith("Stray shots: on a miss, Bystander") for f in plan.facts)
    # a miss with three shots: the first hits Bystander, who is Seriously Injured and so not Suppressed
    r = resolve(plan.procedure, plan.inputs, ScriptedDice([1, "1", "2", 1, 6, 5]))
    assert r.outcome == "miss ammo=ok stray:e" and list(r.effects) == [SetActed("a", PhaseStamp(1, 1))]


def test_an_engaged_target_lists_its_combat() -> None:
    game = game_of(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                   fighter("b", "Mira", 1, 10, 20, conditions=["engaged"]),
                   fighter("c", "Brute", 0, 11, 20, conditions=["engaged"]), toolkit_walking_fire=True)
    plan = attack_plan(game, {"firer": "a", "target": "b"})
    assert combat_of(game, game.units["b"]) == ["b", "c"]
    assert plan.inputs["combat"] == "b,c" and "walking_candidates" not in plan.inputs
    assert "Mira is Engaged: each Hit goes at random to one of Mira, Brute" in plan.facts[1]
    r = resolve(plan.procedure, plan.inputs, ScriptedDice([5, "1", "1", 2, 1]))
    assert r.outcome == "hits=2 ammo=ok combat:b:1,c:1"


def test_a_template_lists_whom_it_hits_and_needs_no_dice() -> None:
    game = game_of(fighter("a", "Kal", 0, 10, 10, weapons=[flamer()]), fighter("b", "Mira", 1, 10, 12),
                   fighter("c", "Brute", 0, 10.5, 14, ledge_1=0.3), fighter("h", "Far", 1, 20, 20))
    plan = attack_plan(game, {"firer": "a", "target": "b"})
    assert plan.inputs["template"] is True and plan.inputs["template_hits"] == "b,c"
    assert plan.title == "Kal fires Flamer (Template) at Mira"
    assert "Brute \u2013 becomes Suppressed and checks for falling" in plan.facts[0]
    r = resolve(plan.procedure, plan.inputs, ScriptedDice([]))
    assert list(r.effects) == [SetActed("a", PhaseStamp(1, 1)), SetCondition("b", "suppressed"),
                         SetCondition("c", "suppressed"), SetCondition("c", "check_falling")]
    with pytest.raises(RulesInputError) as refused:
        attack_plan(game, {"firer": "a", "target": "h"})
    assert "does not reach" in str(refused.value)
    assert_sentence(str(refused.value))


@pytest.mark.parametrize(("choices", "words"), [
    ({"firer": "zz", "target": "b"}, "That fighter is no longer on the table"),
    ({"firer": "a"}, "Choose an enemy fighter"),
    ({"firer": "a", "target": "a"}, "enemy fighter still in the fight"),
    ({"firer": "a", "target": "b", "weapon": "Lasgun"}, "Kal has no weapon profile like that"),
    ({"firer": "a", "target": "b", "range": "far"}, "The range must be a number"),
])
def test_refusals_are_sentences_a_player_reads(choices: dict[str, Any], words: str) -> None:
    game = game_of(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("b", "Mira", 1, 10, 20))
    with pytest.raises(RulesInputError) as refused:
        attack_plan(game, choices)
    assert words in str(refused.value)
    assert_sentence(str(refused.value))


def test_applying_an_attack_and_its_inverses_restores_the_game_exactly() -> None:
    game = game_of(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("near", "Near", 1, 10, 14),
                   fighter("b", "Mira", 1, 20, 10), fighter("c", "Close", 1, 21, 12, ledge_1=0.2),
                   toolkit_target_priority=True, toolkit_walking_fire=True)
    before = savefile.game_to_dict(game)
    plan = attack_plan(game, {"firer": "a", "target": "b"})
    # Cool check passed, a hit with faces 2 and 1+ammo (three Hits), the Ammo check fails: Out of Ammo.
    r = resolve(plan.procedure, {**plan.inputs, "walking_fire": "c,b"}, ScriptedDice([6, 1, 4, "2", "1+ammo", 1]))
    assert r.outcome == "hits=3 ammo=out"
    inverses = game.apply_all(r.effects)
    assert game.units["c"].has("check_falling") and game.units["a"].weapons[0].profiles[0].state == "out_of_ammo"
    for inverse in reversed(inverses):
        inverse.apply(game)
    assert savefile.game_to_dict(game) == before


def test_only_enemies_within_twelve_inches_are_asked_about_line_of_sight() -> None:
    game = game_of(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("near", "Near", 1, 10, 14),
                   fighter("far", "Far", 1, 10, 30), fighter("pal", "Pal", 0, 11, 10))
    assert [(u.id, d) for u, d in sight_candidates(game, game.units["a"])] == [("near", 4.0)]
