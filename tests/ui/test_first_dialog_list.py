"""Every procedure dialog says how the first-dialog benchmark opens it, or why it does not; and each declared
opening opens its dialog on the table the benchmarks prepare, with no refusal (a refused one only cut the
benchmarks' runs short)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.ui.main_window import MainWindow
from battletracker.ui.procedure_runner import FirstOpening
from battletracker.ui.procedure_runner import NotOpened
from tests.benchmarks.first_dialog import TABLES
from tests.benchmarks.first_dialog import demo_of
from tests.benchmarks.first_dialog import open_and_close
from tests.benchmarks.first_dialog import openings
from tests.benchmarks.first_dialog import prepare_table
from tests.benchmarks.first_dialog import procedure_dialogs
from tests.benchmarks.memory import open_every_dialog
from tests.ui.windows import shown_window


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


def _window(qtbot: QtBot, tmp_path: Path, table: str) -> MainWindow:
    """The table's demo in a window with its features, as the benchmark's fresh process has it once warm."""
    return shown_window(qtbot, tmp_path, savefile.load(demo_of(table)))


@pytest.mark.parametrize("table", list(TABLES))
def test_every_declared_opening_opens_its_dialog_on_the_prepared_table(
        qtbot: QtBot, qapp: QApplication, tmp_path: Path, table: str) -> None:
    """A dialog the table refuses to open (the Command Dice already rolled this Phase) would otherwise only show
    as a benchmark run that stops short."""
    win = _window(qtbot, tmp_path, table)
    prepare_table(win, table)
    found = openings()[table]
    opened = [open_and_close(qapp, win, opening)[1] for opening in found]
    assert opened == [opening.dialog for opening in found]


def test_the_memory_benchmark_opens_every_dialog_on_one_window(qtbot: QtBot, qapp: QApplication,
                                                               tmp_path: Path) -> None:
    """Both Chain of Command tables' dialogs on one window, prepared once (twice would roll Germany's Command Dice
    twice in a Phase), then the window's other dialogs."""
    win = _window(qtbot, tmp_path, "chain_of_command")
    found = openings()
    opened = open_every_dialog(qapp, win, found)
    assert opened == [opening.dialog for table in ("bombardment", "chain_of_command") for opening in found[table]]
