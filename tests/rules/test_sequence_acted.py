"""Who has acted: a Chain of Command unit in this Phase, a Necromunda fighter or Armour Battles unit in this round
(Activated until End Turn makes it Ready again); a Necromunda fighter that has shot is refused another Shoot."""

from __future__ import annotations

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.effects import Effect
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.sequence_effects import SetActed
from battletracker.rules import RulesInputError
from battletracker.rules import resolve
from battletracker.rules.clock import due_effects
from battletracker.rules.necromunda.plans import attack_plan
from battletracker.rules.sequence import acted
from battletracker.rules.sequence import mark_acted
from tests.rules.necromunda.test_plans import autogun
from tests.rules.necromunda.test_plans import fighter
from tests.rules.necromunda.test_plans import game_of


def apply(game: Game, effects: list[Effect]) -> list[Effect]:
    return game.apply_all(effects)


def undo(game: Game, inverses: list[Effect]) -> None:
    for inverse in reversed(inverses):
        game.apply(inverse)


def two_sides(ruleset: str) -> Game:
    game = Game(ruleset=ruleset, sides=[Side("A", "#3366cc"), Side("B", "#cc3333")])
    game.units["u"] = Unit("u", "Tiger", "vehicle", 0, 10.0, 10.0)
    return game


def test_a_chain_of_command_unit_has_acted_in_this_phase_only() -> None:
    game = two_sides("chain_of_command")
    assert not acted(game, "u")
    apply(game, [mark_acted(game, "u")])
    assert acted(game, "u") and game.units["u"].acted == PhaseStamp(1, 1)
    game.phase = 2
    assert not acted(game, "u")
    assert not any(isinstance(e, SetActed) for e in due_effects(game, True, 0))


def test_an_armour_battles_unit_stays_activated_for_the_round_and_is_ready_after_end_turn() -> None:
    game = two_sides("armour_battles")
    apply(game, [mark_acted(game, "u")])
    game.phase = 2
    assert acted(game, "u")
    assert due_effects(game, False, 1) == []
    before = savefile.dumps(game)
    inverses = apply(game, due_effects(game, True, 0))
    assert game.units["u"].acted is None and not acted(game, "u")
    undo(game, inverses)
    assert savefile.dumps(game) == before


def shooters() -> Game:
    return game_of(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("b", "Mira", 1, 10, 20))


def test_a_fighter_that_has_shot_is_activated_and_refused_until_the_round_ends() -> None:
    game = shooters()
    before = savefile.dumps(game)
    plan = attack_plan(game, {"firer": "a", "target": "b"})
    inverses = apply(game, resolve(plan.procedure, plan.inputs, ScriptedDice([4, "1", "2", 6])).effects)
    assert acted(game, "a") and not acted(game, "b")
    with pytest.raises(RulesInputError) as refused:
        attack_plan(game, {"firer": "a", "target": "b"})
    assert str(refused.value) == ("Kal is Activated: it has already shot this round, and is Ready again when the "
                                  "round ends.")
    shot = savefile.dumps(game)
    end = apply(game, due_effects(game, True, 0))
    assert not acted(game, "a")
    assert attack_plan(game, {"firer": "a", "target": "b"}).inputs["round"] == 1
    undo(game, end)
    assert savefile.dumps(game) == shot
    undo(game, inverses)
    assert savefile.dumps(game) == before


def test_a_failed_cool_check_leaves_the_fighter_ready_to_shoot_the_closest_enemy() -> None:
    game = game_of(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("near", "Near", 1, 10, 14),
                   fighter("b", "Mira", 1, 20, 10), toolkit_target_priority=True)
    plan = attack_plan(game, {"firer": "a", "target": "b"})
    res = resolve(plan.procedure, plan.inputs, ScriptedDice([1, 1]))
    assert res.outcome == "cool_failed" and list(res.effects) == []
    assert not acted(game, "a")


def test_the_activation_needs_the_fighter_and_the_round_together() -> None:
    plan = attack_plan(shooters(), {"firer": "a", "target": "b"})
    del plan.inputs["round"]
    with pytest.raises(RulesInputError, match="needs both the fighter and the round"):
        resolve(plan.procedure, plan.inputs, ScriptedDice([4, "1", "2", 6]))
