"""Typing the table's dice into a procedure dialog, as a player does."""

from __future__ import annotations

from battletracker.rules import Resolution
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.session import Session


def type_dice(runner: ProcedureRunner, *entries: str, complete: bool = True) -> Resolution | None:
    """Answer the runner's dice prompts in order; each entry must be accepted.

    With `complete` the entries must be all the procedure asks for.
    """
    runner.start_typed()
    for text in entries:
        assert runner._pending is not None, f"no roll asked for {text!r}"
        runner.entry.setText(text)
        runner.submit_entry()
        assert runner.entry_error.isHidden(), runner.entry_error.text()
    if complete:
        assert runner.result is not None, runner.prompt.text()
    return runner.result


def command_dice_for(session: Session, bombardment_id: str, faces: tuple[int, ...] = (1, 2, 3, 4, 4)) -> None:
    """The bombardment's side rolls its Command Dice (scripted), if it is its Phase and it has not rolled yet:
    each activation of the Forward Observer spends a held 1 or a Chain of Command point after that roll."""
    from battletracker.rules.chain_of_command.command_dice import rolled_this_phase

    game = session.game
    side = game.bombardments[bombardment_id].side
    if game.active_side == side and not rolled_this_phase(game, side):
        session.act("coc.command_dice", {}, dice=list(faces))
