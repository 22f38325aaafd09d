"""A bombardment's activation comes from what its side holds: a held 1 first (spent), else a Chain of Command
point the player chooses to spend (spent), else the bombardment ends, contact lost ("If no Command Dice roll of 1
is available, the player must use a single Chain of Command point ... If neither is available, the Bombardment
ends")."""

from __future__ import annotations

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.effects import Effect
from battletracker.model.effects import SetClock
from battletracker.model.game import Game
from battletracker.rules import resolve
from battletracker.rules.chain_of_command.bombardment_phase import phase_inputs
from battletracker.rules.chain_of_command.command_dice import command_dice_inputs
from battletracker.rules.sequence import SequenceRefusal
from tests.rules.chain_of_command.test_bombardment_sequence import BRITISH
from tests.rules.chain_of_command.test_bombardment_sequence import apply
from tests.rules.chain_of_command.test_bombardment_sequence import begun
from tests.rules.chain_of_command.test_bombardment_sequence import table


def firing(coc_points: int = 0) -> Game:
    """A British bombardment that fired its first Phase (Turn 1, Phase 1) and is due again in Phase 3."""
    game = table()
    game.sides[BRITISH].coc_points = coc_points
    begun(game)
    apply(game, resolve("coc.bombardment_phase", phase_inputs(game, "b1", "begun"), ScriptedDice([1] * 6)).effects)
    apply(game, [SetClock(1, 3, BRITISH)])
    return game


def command_dice(game: Game, faces: list[int]) -> None:
    apply(game, resolve("coc.command_dice", command_dice_inputs(game), ScriptedDice(faces)).effects)


def fire_now(game: Game, spend_coc_point: bool = False) -> tuple[str, str, list[Effect]]:
    inputs = phase_inputs(game, "b1", spend_coc_point=spend_coc_point)
    res = resolve("coc.bombardment_phase", inputs, ScriptedDice([1] * 6))
    return str(inputs["activation"]), res.outcome, apply(game, res.effects)


def test_a_held_one_activates_the_bombardment_and_is_spent_and_undo_gives_it_back() -> None:
    game = firing(coc_points=1)
    command_dice(game, [1, 3, 1, 5, 2])
    before = savefile.dumps(game)
    activation, _, inverses = fire_now(game, spend_coc_point=True)
    assert activation == "command_die"
    assert game.sides[BRITISH].held_dice == [1, 2, 3]
    assert game.sides[BRITISH].coc_points == 1
    assert game.bombardments["b1"].phases_fired == 2
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert savefile.dumps(game) == before


def test_without_a_one_a_chain_of_command_point_the_player_spends_activates_it() -> None:
    game = firing(coc_points=1)
    command_dice(game, [2, 3, 4, 4, 2])
    before = savefile.dumps(game)
    activation, _, inverses = fire_now(game, spend_coc_point=True)
    assert activation == "coc_point"
    assert (game.sides[BRITISH].coc_points, game.sides[BRITISH].coc_tally) == (0, 5)
    assert game.sides[BRITISH].held_dice == [2, 2, 3, 4, 4]
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert savefile.dumps(game) == before


def test_with_no_one_and_no_point_spent_the_bombardment_ends_contact_lost() -> None:
    game = firing(coc_points=0)
    command_dice(game, [2, 3, 4, 5, 6])
    activation, outcome, _ = fire_now(game)
    assert (activation, outcome) == ("none", "contact_lost")
    assert game.bombardments["b1"].state == "lingering"


def test_refusals_say_why() -> None:
    game = firing(coc_points=0)
    with pytest.raises(SequenceRefusal, match="Roll British Command Dice for this Phase first"):
        phase_inputs(game, "b1")
    command_dice(game, [2, 3, 4, 4, 6])
    with pytest.raises(SequenceRefusal, match=r"British has no Chain of Command point \(0 dice, 0 points of 6\) to "
                                              r"spend\."):
        phase_inputs(game, "b1", spend_coc_point=True)
    with pytest.raises(SequenceRefusal, match="holds no Command Dice 1 this Phase"):
        resolve("coc.bombardment_phase", phase_inputs(game, "b1", "command_die"), ScriptedDice([1] * 6))


def test_before_a_roll_a_point_can_still_be_spent() -> None:
    game = firing(coc_points=2)
    activation, _, _ = fire_now(game, spend_coc_point=True)
    assert activation == "coc_point"
    assert (game.sides[BRITISH].coc_points, game.sides[BRITISH].coc_tally) == (1, 5)
