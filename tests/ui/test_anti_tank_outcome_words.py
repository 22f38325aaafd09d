"""The anti-tank dialog's outcome list says what "equal", "+1", "+2" and "+3" mean (seed 001: Armour Saves cancel
Penetrating Hits one for one; what is left is net hits, read on the damage table), opened as a player opens it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from battletracker.ui.features.anti_tank import AntiTankDialog
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session
from tests.acting import ready_side
from tests.ui.test_fits_laptop_screen import clipped_labels

PANZER = "u6"


def test_the_outcome_list_says_what_each_group_of_net_hits_means(qtbot: QtBot, session: Session,
                                                                  tmp_path: Path) -> None:
    ready_side(session.game, 0)
    window = MainWindow(session, Recovery(session, tmp_path))
    window.feature_host.load()
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    session.select(PANZER)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window.map, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: window.findChild(AntiTankDialog) is not None)
    dialog = window.findChild(AntiTankDialog)
    assert dialog is not None and dialog.isVisible()
    table = dialog.runner.odds_plot.table
    shown = [table.item(row, 0).text() for row in range(table.rowCount())]
    assert shown == ["miss", "no effect: more Armour Saves than Penetrating Hits",
                     "equal: as many Armour Saves as Penetrating Hits",
                     "+1: one Penetrating Hit more than the Armour Saves",
                     "+2: two Penetrating Hits more than the Armour Saves",
                     "+3: three or more Penetrating Hits more than the Armour Saves"]
    note = dialog.findChild(QLabel, "at_bands_note")
    assert note is not None and note.isVisible() and note.wordWrap()
    assert note.text() == ("Equal, +1, +2 and +3 then roll one D6 on the target's damage table, on that row "
                           "(the result and what it does show after the roll).")
    widest = max(table.fontMetrics().horizontalAdvance(text) for text in shown)
    assert table.columnWidth(0) > widest, "each meaning is read whole, not cut off"
    assert clipped_labels(dialog) == []
    dialog.close()
