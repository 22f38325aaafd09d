"""Tests of what a Chain of Command unit does (a shot, a move) start from a unit allowed to do it.

Who may act is tested on its own (tests/rules/chain_of_command/test_activation*.py);
a test of a procedure's dice or effects readies its units here: the clock at
their side's Phase, that side's Command Dice rolled this Phase (holding
nothing), and each unit activated by a Command Dice, as the table would have it.
"""

from __future__ import annotations

from collections.abc import Callable

from battletracker.core.dice import Face
from battletracker.model.game import Activation
from battletracker.model.game import CommandRoll
from battletracker.model.game import Game
from battletracker.model.sequence_effects import SetActivation
from battletracker.model.sequence_effects import SetCommandRoll
from battletracker.rules.base import InputValue


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


def ready_by_actions(game: Game, unit_id: str, act: Callable[[str, dict[str, InputValue], list[Face]], object]) -> None:
    """Bring the unit to act as the table would, through recorded actions: End Phase until a Phase of its side
    in which it has not acted, that side's Command Dice rolled with the unit's face among them, and the unit
    activated with it. `act(name, choices, dice)` takes each step (so a test's undo and replay see them)."""
    from battletracker.rules.chain_of_command.activation import current
    from battletracker.rules.chain_of_command.activation import face_for
    from battletracker.rules.chain_of_command.command_dice import rolled_this_phase

    unit = game.unit(unit_id)
    while game.active_side != unit.side or current(game, unit) is not None and "fire" in current(game, unit).done:
        act("clock.end_phase", {}, [])
    if current(game, unit) is not None:
        return
    face = face_for(unit)
    assert face is not None
    if not rolled_this_phase(game, unit.side) or face not in game.sides[unit.side].held_dice:
        if rolled_this_phase(game, unit.side):
            act("clock.end_phase", {}, [])
            act("clock.end_phase", {}, [])
        count = game.sides[unit.side].command_dice
        act("coc.command_dice", {}, [face, 1, 2, 3, 5, 5, 5, 5, 5, 5, 5, 5][:count])
    act("coc.activate", {"unit": unit_id, "activation": f"dice:{face}"}, [])


def ready_unit(session: object, unit_id: str) -> str:
    """`ready` the unit in the session's game, for a dialog opened on it; returns its id."""
    ready(session.game, unit_id)  # type: ignore[attr-defined]
    return unit_id
