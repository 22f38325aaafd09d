"""Command Dice as actions (`perform`, as the app's `Session.act` takes them) and End Phase reading them:
the same side on two 6s, the Turn ending by itself on three or more; each undone exactly."""

from __future__ import annotations

import pytest

from battletracker.model import savefile
from battletracker.model.effects import Effect
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import perform
from battletracker.rules.actions import plan
from battletracker.rules.chain_of_command.force_morale import queue_test
from battletracker.rules.replay import check
from battletracker.rules.sequence import SequenceRefusal


def two_sides() -> Game:
    game = Game(sides=[Side("Americans", "#3366cc", 9, 0), Side("Germans", "#cc3333", 8, 0)])
    game.ruleset = "chain_of_command"
    game.turn, game.phase, game.active_side = 2, 3, 0
    game.units["t1"] = Unit("t1", "Rifle Team", "team", 0, 10.0, 10.0, figures=5, figures_max=5)
    return game


def act(game: Game, name: str, choices: dict[str, str | int], dice: list[int] | None = None) -> list[Effect]:
    return game.apply_all(perform(game, name, choices, dice, time="t").effects)


@pytest.mark.parametrize(("faces", "clock"), [
    ([1, 2, 3, 4, 5], (2, 4, 1)),
    ([1, 2, 3, 4, 6], (2, 4, 1)),
    ([1, 2, 3, 6, 6], (2, 4, 0)),
    ([1, 2, 6, 6, 6], (3, 1, 0)),
    ([1, 6, 6, 6, 6], (3, 1, 0)),
    ([6, 6, 6, 6, 6], (3, 1, 0)),
])
def test_end_phase_follows_every_count_of_sixes(faces: list[int], clock: tuple[int, int, int]) -> None:
    game = two_sides()
    before = savefile.dumps(game)
    inverses = act(game, "coc.command_dice", {}, faces)
    assert game.actions[-1].name == "coc.command_dice" and list(game.actions[-1].dice) == faces
    inverses += act(game, "clock.end_phase", {})
    assert (game.turn, game.phase, game.active_side) == clock
    assert game.sides[0].held_dice == []
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert savefile.dumps(game) == before


def test_without_a_roll_end_phase_passes_to_the_other_side() -> None:
    game = two_sides()
    act(game, "clock.end_phase", {})
    assert (game.turn, game.phase, game.active_side) == (2, 4, 1)


def test_spending_a_held_die_is_an_action_that_records_who_acted() -> None:
    game = two_sides()
    act(game, "coc.command_dice", {}, [1, 3, 5, 5, 2])
    before = savefile.dumps(game)
    inverses = act(game, "coc.spend_command_die", {"face": 1, "unit": "t1"})
    assert game.sides[0].held_dice == [2, 3]
    activation = game.units["t1"].activation
    assert activation is not None and (activation.turn, activation.phase, activation.dice) == (2, 3, [1])
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert savefile.dumps(game) == before


def test_the_plans_refuse_what_the_rules_forbid() -> None:
    game = two_sides()
    act(game, "coc.command_dice", {}, [2, 3, 4, 4, 5])
    with pytest.raises(SequenceRefusal, match="already rolled its Command Dice this Phase"):
        plan("coc.command_dice", game, {})
    with pytest.raises(SequenceRefusal, match="holds no Command Dice 1 this Phase"):
        plan("coc.spend_command_die", game, {"face": 1})
    with pytest.raises(Refusal, match="takes no choices"):
        plan("coc.command_dice", game, {"side": 1})
    with pytest.raises(Refusal, match="no longer on the table"):
        plan("coc.spend_command_die", game, {"face": 2, "unit": "gone"})


def test_command_dice_spending_and_a_force_morale_test_from_the_rulebook_save_and_replay() -> None:
    game = two_sides()
    game.apply(queue_test(game, 0, "afv_lost"))
    act(game, "coc.command_dice", {}, [1, 6, 6, 6, 5])
    act(game, "coc.spend_command_die", {"face": 1, "unit": "t1"})
    act(game, "coc.force_morale_test", {"agenda_id": "a1", "rulebook_loss": 2}, [4])
    act(game, "clock.end_phase", {})
    assert (game.turn, game.phase, game.active_side, game.sides[0].force_morale) == (3, 1, 0, 7)
    loaded = savefile.loads(savefile.dumps(game))
    report = check(loaded)
    assert report.ok, report.message
