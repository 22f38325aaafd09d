"""The Bombardments dock on a 1366x768 laptop, played with clicks and keys in the main window.

Its rows wrap their words to the dock's default width (no sideways scroll bar
hiding "More" or the row's last words), and a finished SOS Fire is cut to its
name and one line, as every finished bombardment is.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtCore import QSize
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QDockWidget
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QScrollArea
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.ui.features.bombardments import BombardmentsPanel
from battletracker.ui.features.bombardments.dialogs import RangingDialog
from battletracker.ui.features.bombardments.dialogs import SosDialog
from battletracker.ui.main_window import MainWindow
from battletracker.ui.session import Session
from tests.ui.dice_entry import type_dice

SCREEN = QSize(1366, 768)


def laptop_window(qtbot: QtBot, session: Session) -> tuple[MainWindow, BombardmentsPanel]:
    window = MainWindow(session)
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.show()
    window.showNormal()
    window.resize(SCREEN)
    window.feature_host.load()
    qtbot.waitExposed(window)
    dock = window.findChild(QDockWidget, "dock-bombardments")
    assert dock is not None
    dock.raise_()
    panel = dock.widget()
    assert isinstance(panel, BombardmentsPanel)
    qtbot.waitUntil(panel.isVisible)
    return window, panel


def click_table(window: MainWindow, at: tuple[float, float]) -> None:
    assert window.map.picking
    QTest.mouseClick(window.map.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     window.map.mapFromScene(QPointF(*at)))


def accept_with_enter(qtbot: QtBot, panel: BombardmentsPanel) -> None:
    dialog = panel.dialog
    assert isinstance(dialog, QDialog)
    qtbot.waitExposed(dialog)
    qtbot.keyClick(dialog, Qt.Key.Key_Return)


def call_sos(qtbot: QtBot, window: MainWindow, panel: BombardmentsPanel, centre: tuple[float, float]) -> None:
    """SOS fire... clicked, the side taken with Enter, the centre clicked; its dialog closed with Escape."""
    qtbot.mouseClick(panel.sos_button, Qt.MouseButton.LeftButton)
    accept_with_enter(qtbot, panel)
    click_table(window, centre)
    sos = panel.dialog
    assert isinstance(sos, SosDialog)
    qtbot.keyClick(sos, Qt.Key.Key_Escape)
    QApplication.processEvents()  # the new row shows once the event loop runs, as on screen


def scroll_of(panel: BombardmentsPanel) -> QScrollArea:
    scroll = panel.findChild(QScrollArea)
    assert scroll is not None
    return scroll


def cut_off(panel: BombardmentsPanel) -> list[str]:
    """What of the rows does not show whole inside the dock: a part past the visible width, a one-line label
    narrower than its words, a wrapped label shorter than its wrapped words."""
    viewport = scroll_of(panel).viewport()
    out = []
    for row in panel.rows.values():
        for child in [row, *row.findChildren(QWidget)]:
            if not child.isVisibleTo(panel):
                continue
            right = child.mapTo(viewport, child.rect().topRight()).x()
            if right >= viewport.width():
                out.append(f"{type(child).__name__} {getattr(child, 'text', lambda: '')()!r} ends at {right}")
            if isinstance(child, QLabel) and child.text():
                if not child.wordWrap() and child.sizeHint().width() > child.width():
                    out.append(f"{child.text()!r}: {child.width()} < {child.sizeHint().width()}")
                if child.wordWrap() and child.heightForWidth(child.width()) > child.height():
                    out.append(f"{child.text()!r} wrapped is taller than its {child.height()}")
    return out


def test_rows_wrap_to_the_docks_default_width_with_no_sideways_scroll_bar(qtbot: QtBot, session: Session) -> None:
    window, panel = laptop_window(qtbot, session)
    call_sos(qtbot, window, panel, (22.0, 38.0))
    qtbot.mouseClick(panel.new_button, Qt.MouseButton.LeftButton)
    accept_with_enter(qtbot, panel)
    click_table(window, (24.0, 38.0))
    click_table(window, (30.0, 20.0))
    (bid,) = [b for b, found in session.game.bombardments.items() if found.kind != "sos"]
    session.act("coc.command_dice", {}, dice=[1, 2, 3, 4, 4])
    qtbot.mouseClick(panel.rows[bid].buttons["range"], Qt.MouseButton.LeftButton)
    ranging = panel.dialog
    assert isinstance(ranging, RangingDialog)
    ranging.set_bearing.setChecked(True)
    type_dice(ranging.runner, "3 3", "2 2 2")   # deviates: fire for effect or re-aim, in a later Phase
    qtbot.mouseClick(ranging.runner.apply_button, Qt.MouseButton.LeftButton)
    QApplication.processEvents()

    note = panel.rows[bid].findChild(QLabel, "bombardment_waiting")
    assert note is not None and "fire for effect or re-aim in a later Phase" in note.text()
    assert panel.rows[bid].menu_button.isVisibleTo(panel)
    scroll = scroll_of(panel)
    assert not scroll.horizontalScrollBar().isVisible()
    assert scroll.widget().width() <= scroll.viewport().width()
    assert cut_off(panel) == []


def test_a_finished_sos_fire_says_it_is_over_in_one_line(qtbot: QtBot, session: Session) -> None:
    window, panel = laptop_window(qtbot, session)
    call_sos(qtbot, window, panel, (22.0, 38.0))
    (sos_id,) = session.game.bombardments
    lingering = panel.rows[sos_id]
    assert not lingering.dice_row.isVisibleTo(panel), "SOS Fire has no Phases left nor hidden die to show"
    assert lingering.buttons["sos"].isVisibleTo(panel)

    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    for _ in range(2):
        qtbot.keyClick(window.map, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)   # End Phase
    QApplication.processEvents()
    assert session.game.bombardments[sos_id].state == "cleared"
    row = panel.rows[sos_id]
    shown = [label.text() for label in row.findChildren(QLabel) if label.isVisibleTo(panel) and label.text()]
    assert shown == [row.title.text(), "Over: its effects have cleared"] and "SOS Fire" in row.title.text()
    assert not row.dice_row.isVisibleTo(panel) and not row.buttons and not row.menu_button.isVisibleTo(panel)
    assert cut_off(panel) == []
