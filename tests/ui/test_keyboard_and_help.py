"""Keyboard: units selected and cycled from the map and the Units list, zoom keys, F1 for the guide,
and Ctrl+Z in the filter box against the toolbar's Undo."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QToolBar
from PySide6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.rules.tables import resources_dir
from battletracker.ui.help_window import HelpWindow
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session
from tests.help_guide import ROOT
from tests.help_guide import readme_guide

NO = Qt.KeyboardModifier.NoModifier
CTRL = Qt.KeyboardModifier.ControlModifier


def window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    session = Session(savefile.load(demo_path()))
    win = MainWindow(session, Recovery(session, tmp_path / "recovery"))
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.resize(1366, 768)
    win.show()
    qtbot.waitExposed(win)
    with qtbot.waitActive(win):
        win.activateWindow()
    return win


def menu_entries(win: MainWindow, menu_title: str) -> dict[str, str]:
    """The entries of a menu bar menu and their shortcuts, as the player reads them."""
    menu = next(a.menu() for a in win.menuBar().actions() if a.text().replace("&", "") == menu_title)
    return {a.text().replace("&", ""): a.shortcut().toString() for a in menu.actions() if a.text()}


def test_brackets_on_the_map_cycle_the_units_in_card_order(qtbot: QtBot, tmp_path: Path) -> None:
    win = window(qtbot, tmp_path)
    order = win.cards.unit_order()
    assert len(order) > 3
    win.map.setFocus()
    qtbot.keyClick(win.map, Qt.Key.Key_BracketRight, NO)
    assert win.session.selected == order[0]
    qtbot.keyClick(win.map, Qt.Key.Key_BracketRight, NO)
    assert win.session.selected == order[1]
    qtbot.keyClick(win.map, Qt.Key.Key_BracketLeft, NO)
    qtbot.keyClick(win.map, Qt.Key.Key_BracketLeft, NO)
    assert win.session.selected == order[-1]                   # round from the first to the last
    assert win.session.undo_stack.count() == 0                 # selecting is not a game change
    entries = menu_entries(win, "Edit")
    assert entries["Select Next Unit"] == "]" and entries["Select Previous Unit"] == "["


def test_arrow_keys_in_the_units_list_move_the_selection(qtbot: QtBot, tmp_path: Path) -> None:
    win = window(qtbot, tmp_path)
    order = win.cards.unit_order()
    card = win.cards.card(order[1])
    assert card is not None
    qtbot.mouseClick(card, Qt.MouseButton.LeftButton)
    assert win.session.selected == order[1]
    focus = QApplication.focusWidget()
    assert focus is win.cards.scroll_area
    qtbot.keyClick(focus, Qt.Key.Key_Down, NO)
    assert win.session.selected == order[2]
    qtbot.keyClick(focus, Qt.Key.Key_Up, NO)
    qtbot.keyClick(focus, Qt.Key.Key_Up, NO)
    assert win.session.selected == order[0]


def test_the_filter_limits_what_the_keys_cycle_through(qtbot: QtBot, tmp_path: Path) -> None:
    win = window(qtbot, tmp_path)
    name = win.session.game.unit(win.cards.unit_order()[2]).name
    qtbot.keyClicks(win.cards.filter, name)
    assert [win.session.game.unit(u).name for u in win.cards.unit_order()] == [name]


def test_zoom_keys_zoom_the_map_and_are_in_the_view_menu(qtbot: QtBot, tmp_path: Path) -> None:
    win = window(qtbot, tmp_path)
    win.map.setFocus()
    fitted = win.map.scale_factor
    qtbot.keyClick(win.map, Qt.Key.Key_Equal, CTRL)
    assert win.map.scale_factor > fitted * 1.2
    qtbot.keyClick(win.map, Qt.Key.Key_Minus, CTRL)
    qtbot.keyClick(win.map, Qt.Key.Key_Minus, CTRL)
    assert win.map.scale_factor < fitted
    qtbot.keyClick(win.map, Qt.Key.Key_0, CTRL)
    assert abs(win.map.scale_factor - fitted) < 1e-6
    entries = menu_entries(win, "View")
    assert entries["Zoom In"] == "Ctrl+=" and entries["Zoom Out"] == "Ctrl+-" and entries["Fit Table"] == "Ctrl+0"


def test_f1_opens_the_user_guide_beside_the_game(qtbot: QtBot, tmp_path: Path) -> None:
    win = window(qtbot, tmp_path)
    qtbot.keyClick(win, Qt.Key.Key_F1, NO)
    guide = win.findChild(HelpWindow)
    assert guide is not None and guide.isVisible() and not guide.isModal()
    text = guide.browser.toPlainText()
    assert "Using it" in text and "Measure" in text and "**" not in text     # rendered, not raw Markdown
    assert guide.width() <= 1366 and guide.height() <= 768
    qtbot.keyClicks(guide.find_box, "Space+drag")
    qtbot.keyClick(guide.find_box, Qt.Key.Key_Return)
    assert guide.browser.textCursor().selectedText() == "Space+drag"
    assert menu_entries(win, "Help")["User Guide"] == QKeySequence("F1").toString()


def test_enter_in_the_guides_find_box_finds_the_next_match_and_a_new_search_replaces_the_old(
        qtbot: QtBot, tmp_path: Path) -> None:
    win = window(qtbot, tmp_path)
    qtbot.keyClick(win, Qt.Key.Key_F1, NO)
    guide = win.findChild(HelpWindow)
    assert guide is not None
    qtbot.waitExposed(guide)
    guide.activateWindow()
    qtbot.waitUntil(guide.isActiveWindow)                  # its Ctrl+F works in its own window
    qtbot.keyClick(guide, Qt.Key.Key_F, CTRL)
    assert guide.find_box.hasFocus()
    qtbot.keyClicks(guide.find_box, "Force Morale")
    found = []
    for _ in range(3):
        qtbot.keyClick(guide.find_box, Qt.Key.Key_Return)
        assert guide.isVisible(), "Enter finds, it does not close the guide"
        cursor = guide.browser.textCursor()
        assert cursor.selectedText() == "Force Morale"
        found.append(cursor.position())
    assert found == sorted(set(found)), "each Enter goes on to the next match"

    qtbot.keyClick(guide.find_box, Qt.Key.Key_Enter)         # the keypad's Enter too
    assert guide.isVisible()
    guide.browser.setFocus()
    qtbot.keyClick(guide.browser, Qt.Key.Key_F, CTRL)
    qtbot.keyClicks(guide.find_box, "smoke")
    assert guide.find_box.text() == "smoke"
    qtbot.keyClick(guide.find_box, Qt.Key.Key_Return)
    assert guide.browser.textCursor().selectedText().lower() == "smoke"

    qtbot.mouseClick(guide.browser.viewport(), Qt.MouseButton.LeftButton)      # read on, then click back in
    qtbot.mouseClick(guide.find_box, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: guide.find_box.selectedText() == "smoke")
    qtbot.keyClicks(guide.find_box, "Pinned")
    assert guide.find_box.text() == "Pinned"
    qtbot.keyClick(guide.find_box, Qt.Key.Key_Escape)         # Esc still closes it
    assert not guide.isVisible()


def test_the_shipped_guide_is_the_readme_section() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shipped = (resources_dir() / "help" / "guide.md").read_text(encoding="utf-8")
    assert shipped == readme_guide(readme), "the guide differs from README.md: run `python -m tests.help_guide`"


def toolbar_button(win: MainWindow, text: str) -> QToolButton:
    toolbar = win.findChild(QToolBar, "toolbar-main")
    action = next(a for a in toolbar.actions() if a.text() == text)
    button = toolbar.widgetForAction(action)
    assert isinstance(button, QToolButton)
    return button


def test_ctrl_z_in_the_filter_undoes_the_typing_and_the_toolbar_undo_the_game(qtbot: QtBot, tmp_path: Path) -> None:
    win = window(qtbot, tmp_path)
    session = win.session
    start = session.snapshot()
    win.end_phase_action.trigger()
    win.end_phase_action.trigger()
    after_two = session.snapshot()
    box = win.cards.filter
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(box, "Rif")
    qtbot.keyClick(box, Qt.Key.Key_Z, CTRL)                       # takes back the typing, not the game
    assert box.text() == ""
    assert session.game == after_two
    qtbot.keyClick(box, Qt.Key.Key_Z, CTRL)                       # nothing typed left: the game's Undo
    assert session.undo_stack.count() == 2 and session.undo_stack.index() == 1
    qtbot.keyClicks(box, "Rif")
    qtbot.mouseClick(toolbar_button(win, "Undo"), Qt.MouseButton.LeftButton)
    assert session.game == start and box.text() == "Rif"
