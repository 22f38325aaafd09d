"""Tests of what a Chain of Command unit does (a shot, a move) start from a unit allowed to do it.

Who may act is tested on its own (tests/rules/chain_of_command/test_activation*.py);
a test of a procedure's dice or effects readies its units here: the clock at
their side's Phase, that side's Command Dice rolled this Phase (holding
nothing), and each unit activated by a Command Dice, as the table would have it.
"""

from __future__ import annotations

from battletracker.model.game import Activation, CommandRoll, Game
from battletracker.model.sequence_effects import SetActivation, SetCommandRoll


def ready(game: Game, *unit_ids: str) -> Game:
    """The game with `unit_ids` (all of one side) activated in that side's Phase, ready to move and fire once."""
    sides = {game.unit(u).side for u in unit_ids}
    assert len(sides) == 1, "units of one side act in its Phase"
    side = sides.pop()
    if game.active_side != side:
        game.active_side = side
    roll = game.sides[side].command_roll
    if roll is None or (roll.turn, roll.phase) != (game.turn, game.phase):
        game.apply(SetCommandRoll(side, CommandRoll(game.turn, game.phase, [])))
    for unit_id in unit_ids:
        act = game.unit(unit_id).activation
        if act is None or (act.turn, act.phase) != (game.turn, game.phase):
            game.apply(SetActivation(unit_id, Activation(game.turn, game.phase, "command_die")))
    return game


def ready_side(game: Game, side: int = 0) -> Game:
    """`ready` for every unit of `side` in play."""
    return ready(game, *(u.id for u in game.units.values() if u.side == side and u.in_play))
