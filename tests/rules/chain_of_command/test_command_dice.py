"""Command Dice: what is held, the Chain of Command tally, what the 6s mean, spending a held die; undone exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.effects import Effect
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.chain_of_command.command_dice import OTHER_SIDE
from battletracker.rules.chain_of_command.command_dice import SAME_SIDE
from battletracker.rules.chain_of_command.command_dice import TURN_ENDS
from battletracker.rules.chain_of_command.command_dice import TURN_ENDS_BONUS
from battletracker.rules.chain_of_command.command_dice import command_dice_inputs
from battletracker.rules.chain_of_command.command_dice import next_phase
from battletracker.rules.chain_of_command.command_dice import spend_inputs
from battletracker.rules.clock import due_effects
from battletracker.rules.sequence import SequenceRefusal
from tests.rules.oddscheck import assert_odds_match_simulation


def two_sides(active: int = 0) -> Game:
    game = Game(sides=[Side("Americans", "#3366cc", 9, 1), Side("Germans", "#cc3333", 8, 0)])
    game.turn, game.phase, game.active_side = 2, 3, active
    game.units["t1"] = Unit("t1", "Rifle Team", "team", active, 10.0, 10.0, figures=5, figures_max=5)
    return game


def apply(game: Game, effects: list[Effect]) -> list[Effect]:
    return game.apply_all(effects)


def undo(game: Game, inverses: list[Effect]) -> None:
    for inverse in reversed(inverses):
        game.apply(inverse)


def roll(game: Game, faces: list[int]) -> tuple[str, list[Effect]]:
    res = resolve("coc.command_dice", command_dice_inputs(game), ScriptedDice(faces))
    return res.outcome, apply(game, res.effects)


@pytest.mark.parametrize(("faces", "outcome", "follows", "coc_dice"), [
    ([1, 2, 3, 4, 5], OTHER_SIDE, (1, False), 1),
    ([1, 2, 3, 4, 6], OTHER_SIDE, (1, False), 1),
    ([1, 2, 3, 6, 6], SAME_SIDE, (0, False), 1),
    ([1, 2, 6, 6, 6], TURN_ENDS, (0, True), 1),
    ([1, 6, 6, 6, 6], TURN_ENDS_BONUS, (0, True), 2),
    ([6, 6, 6, 6, 6], TURN_ENDS_BONUS, (0, True), 2),
])
def test_every_count_of_sixes_decides_what_follows_the_phase(faces: list[int], outcome: str,
                                                             follows: tuple[int, bool], coc_dice: int) -> None:
    game = two_sides()
    before = savefile.dumps(game)
    assert next_phase(game) == (1, False)
    got, inverses = roll(game, faces)
    assert got == outcome
    assert next_phase(game) == follows
    assert game.sides[0].coc_points == coc_dice
    assert game.sides[0].held_dice == sorted(f for f in faces if f <= 4)
    roll_kept = game.sides[0].command_roll
    assert roll_kept is not None and roll_kept.faces == faces
    undo(game, inverses)
    assert savefile.dumps(game) == before


def test_the_log_says_what_each_die_activates_and_what_the_sixes_mean() -> None:
    res = resolve("coc.command_dice", command_dice_inputs(two_sides()), ScriptedDice([6, 6, 6, 6, 2]))
    assert list(res.log) == ["Americans holds: 2 (a Section)",
                       "4 sixes: the Turn ends after this Phase, with a Chain of Command die and a random event",
                       "Roll for a random event"]
    res = resolve("coc.command_dice", command_dice_inputs(two_sides()), ScriptedDice([5, 1, 3, 4, 6]))
    assert list(res.log) == ["Americans holds: 1 (a Team or a Forward Observer's bombardment), 3 (a Junior Leader), "
                       "4 (a Senior Leader)", "1 five: the Chain of Command tally goes to 1 of 6 pips",
                       "1 six: the other side's Phase next"]


@pytest.mark.parametrize(("tally", "faces", "after", "gained"), [
    (0, [5, 1, 1, 2, 3], 1, 0),
    (3, [5, 5, 1, 1, 1], 5, 0),
    (4, [5, 5, 1, 2, 3], 0, 1),
    (5, [5, 5, 5, 5, 5], 4, 1),
    (2, [1, 2, 3, 4, 4], 2, 0),
])
def test_fives_add_pips_to_the_tally_and_six_pips_make_a_chain_of_command_die(tally: int, faces: list[int],
                                                                              after: int, gained: int) -> None:
    game = two_sides()
    game.sides[0].coc_tally = tally
    before = savefile.dumps(game)
    _, inverses = roll(game, faces)
    assert (game.sides[0].coc_tally, game.sides[0].coc_points) == (after, 1 + gained)
    undo(game, inverses)
    assert savefile.dumps(game) == before


def test_the_pips_per_die_and_the_sixes_are_settings() -> None:
    game = two_sides()
    game.settings.update(command_dice_pips_per_die=2, command_dice_sixes_next_phase=1)
    outcome, _ = roll(game, [5, 5, 6, 1, 1])
    assert outcome == SAME_SIDE
    assert (game.sides[0].coc_tally, game.sides[0].coc_points) == (0, 2)
    game.settings.update(command_dice_sixes_turn_end=1, command_dice_sixes_next_phase=2)
    with pytest.raises(SequenceRefusal, match="as many 6s or more to end the Turn"):
        odds("coc.command_dice", command_dice_inputs(game))


@pytest.mark.parametrize("dice", [1, 3, 5, 8])
def test_the_odds_of_what_follows_are_exact_and_match_a_simulation(dice: int) -> None:
    game = two_sides()
    game.sides[0].command_dice = dice
    assert_odds_match_simulation("coc.command_dice", command_dice_inputs(game))


def test_the_odds_of_the_same_side_going_again_with_five_dice() -> None:
    dist = odds("coc.command_dice", command_dice_inputs(two_sides()))
    assert dist.p(SAME_SIDE) == Fraction(10 * 5**3, 6**5)
    assert dist.p(TURN_ENDS) == Fraction(10 * 5**2, 6**5)
    assert dist.p(TURN_ENDS_BONUS) == Fraction(5 * 5 + 1, 6**5)


def test_a_side_rolls_its_command_dice_once_a_phase() -> None:
    game = two_sides()
    roll(game, [1, 2, 3, 4, 5])
    with pytest.raises(SequenceRefusal, match="already rolled its Command Dice this Phase"):
        resolve("coc.command_dice", command_dice_inputs(game), ScriptedDice([1] * 5))
    game.phase += 1
    roll(game, [1, 1, 1, 1, 1])
    assert game.sides[0].held_dice == [1, 1, 1, 1, 1]


def test_spending_a_held_die_activates_and_records_who_acted() -> None:
    game = two_sides()
    roll(game, [1, 1, 3, 5, 2])
    before = savefile.dumps(game)
    res = resolve("coc.spend_command_die", spend_inputs(game, 1, "t1"), ScriptedDice([]))
    assert list(res.log) == ["Americans spends a Command Dice 1 to activate a Team or a Forward Observer's "
                       "bombardment: Rifle Team"]
    inverses = apply(game, res.effects)
    assert game.sides[0].held_dice == [1, 2, 3]
    assert game.units["t1"].acted == PhaseStamp(2, 3)
    undo(game, inverses)
    assert savefile.dumps(game) == before


def test_a_die_the_side_does_not_hold_is_refused_with_a_sentence() -> None:
    game = two_sides()
    roll(game, [2, 3, 5, 6, 2])
    with pytest.raises(SequenceRefusal) as refused:
        resolve("coc.spend_command_die", spend_inputs(game, 4), ScriptedDice([]))
    assert str(refused.value) == ("Americans holds no Command Dice 4 this Phase (it holds 2, 2, 3), so it cannot "
                                  "activate a Senior Leader with one.")
    game.sides[0].held_dice = []
    with pytest.raises(SequenceRefusal, match=r"\(it holds no Command Dice\)"):
        odds("coc.spend_command_die", spend_inputs(game, 1))


def test_dice_not_spent_are_lost_at_the_end_of_the_phase() -> None:
    game = two_sides()
    roll(game, [1, 3, 5, 5, 4])
    before = savefile.dumps(game)
    inverses = apply(game, due_effects(game, False, 1))
    assert game.sides[0].held_dice == []
    undo(game, inverses)
    assert savefile.dumps(game) == before


def test_without_a_roll_this_phase_or_in_another_ruleset_the_other_side_follows() -> None:
    game = two_sides(active=1)
    assert next_phase(game) == (0, False)
    roll(game, [6, 6, 6, 1, 1])
    assert next_phase(game) == (1, True)
    game.phase += 1
    assert next_phase(game) == (0, False)
    game.phase -= 1
    game.ruleset = "armour_battles"
    assert next_phase(game) == (0, False)


def test_a_side_rolls_its_command_dice_in_its_own_phase() -> None:
    game = two_sides(active=1)
    with pytest.raises(SequenceRefusal, match="Americans rolls its Command Dice only in its own side's Phase"):
        resolve("coc.command_dice", command_dice_inputs(game, side=0), ScriptedDice([1] * 5))
