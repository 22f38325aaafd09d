"""Typing the table's dice into a procedure dialog, as a player does."""

from __future__ import annotations

from battletracker.rules import Resolution
from battletracker.ui.procedure_runner import ProcedureRunner


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
