"""What the Chain of Command activation rules say to a player: the die each kind of unit needs, and what an
activated unit may still do (it fires once, and moves only before it fires)."""

from __future__ import annotations

from battletracker.model.game import Activation
from battletracker.model.sequence_effects import SetActivation
from battletracker.rules.chain_of_command.activation import FIRE
from battletracker.rules.chain_of_command.activation import MOVE
from battletracker.rules.chain_of_command.activation import faces_line
from battletracker.rules.chain_of_command.activation import needs_words
from battletracker.rules.chain_of_command.activation import next_steps
from tests.acting import ready
from tests.rules.chain_of_command.test_activation import KRAUS
from tests.rules.chain_of_command.test_activation import MG
from tests.rules.chain_of_command.test_activation import PANZER
from tests.rules.chain_of_command.test_activation import demo


def test_each_kind_says_its_die_and_a_tank_its_commanders() -> None:
    game = demo()
    assert needs_words(game.unit(MG)) == "a Support Team: needs a 1"
    assert needs_words(game.unit(KRAUS)) == "a Senior Leader: needs a 4"
    assert needs_words(game.unit(PANZER)) == "a vehicle under a Junior Leader: needs a 3"
    game.unit(PANZER).stats["rank"] = "senior"
    assert needs_words(game.unit(PANZER)) == "a vehicle under a Senior Leader: needs a 4"
    assert faces_line().startswith("1 a Team or a Forward Observer's bombardment, 2 a Section, 3 a Junior Leader, "
                                   "4 a Senior Leader; a vehicle by its commander's rank, 3 under a Junior Leader")


def test_what_an_activated_unit_may_still_do() -> None:
    game = demo()
    assert next_steps(game, game.unit(MG)) is None
    ready(game, MG)
    steps = next_steps(game, game.unit(MG))
    assert steps is not None and (steps.may_move, steps.may_fire) == (True, True)
    assert steps.words == "it may move, then fire (not move after firing)"
    for done, words, may_move in (([MOVE], "it has moved: it may still fire", True),
                                  ([MOVE, FIRE], "it has fired: nothing more this Phase", False)):
        game.apply(SetActivation(MG, Activation(game.turn, game.phase, "command_die", done=done)))
        steps = next_steps(game, game.unit(MG))
        assert steps is not None and (steps.words, steps.may_move) == (words, may_move)
