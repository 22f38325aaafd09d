"""Every procedure dialog says how the first-dialog benchmark opens it, or why it does not."""

from __future__ import annotations

from battletracker.ui.procedure_runner import FirstOpening, NotOpened
from tests.benchmarks.first_dialog import TABLES, openings, procedure_dialogs


def test_every_procedure_dialog_declares_its_benchmark_opening_or_why_not() -> None:
    """Its own class says it: a dialog derived from another does not pass for benchmarked by inheriting."""
    declared = procedure_dialogs()
    undeclared = [name for name, first in declared.items() if not isinstance(first, FirstOpening | NotOpened)]
    assert undeclared == []


def test_each_table_opens_its_dialogs_at_distinct_places_and_every_opening_is_on_a_table() -> None:
    declared = [first for first in procedure_dialogs().values() if isinstance(first, FirstOpening)]
    assert {first.table for first in declared} <= set(TABLES)
    places = [(first.table, first.place) for first in declared]
    assert len(places) == len(set(places))
    assert sum(len(found) for found in openings().values()) == len(declared)

