"""Every procedure dialog is in the first-dialog benchmark's list, or named there with why it is not opened."""

from __future__ import annotations

from battletracker.ui import dice_dialog  # noqa: F401 - registers DiceDialog as a ProcedureDialog
from battletracker.ui.features import all_features
from battletracker.ui.procedure_runner import ProcedureDialog
from tests.benchmarks.first_dialog import NOT_OPENED, TABLES


def dialogs_a_player_opens() -> set[str]:
    """The ProcedureDialog classes nothing else derives from: the dialogs themselves, not shared bases."""
    all_features()
    found: set[str] = set()
    pending = [ProcedureDialog]
    while pending:
        cls = pending.pop()
        children = cls.__subclasses__()
        if not children and cls is not ProcedureDialog:
            found.add(cls.__name__)
        pending.extend(children)
    return found


def test_every_procedure_dialog_is_benchmarked_or_says_why_not() -> None:
    opened = {opening.dialog for _demo, openings in TABLES.values() for opening in openings}
    assert not opened & set(NOT_OPENED)
    assert dialogs_a_player_opens() == opened | set(NOT_OPENED)
