"""After the first paint the features are installed a slice a turn of the event loop; reached for early, at once."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QTimer
from pytestqt.qtbot import QtBot

from battletracker.ui.features import FEATURE_MODULES, all_features
from battletracker.ui.features.support_fire import FireDialog
from battletracker.ui.main_window import MainWindow
from battletracker.ui.session import Session


def _window(qtbot: QtBot, session: Session) -> MainWindow:
    window = MainWindow(session, features=all_features, feature_modules=FEATURE_MODULES)
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    return window


def test_the_features_are_installed_a_slice_a_turn_after_the_first_paint(qtbot: QtBot, session: Session) -> None:
    window = _window(qtbot, session)
    seen: list[int] = []  # how many slices had run, at each turn of the event loop a timer got
    ticks = QTimer(window)
    ticks.setInterval(0)
    ticks.timeout.connect(lambda: seen.append(len(window.warm_up.slices)) if window.painted else None)
    ticks.start()
    window.show()
    qtbot.waitUntil(lambda: window.features_loaded, timeout=20000)
    ticks.stop()
    names = [name for name, _ms in window.warm_up.slices[:window.warm_up.install_slices]]
    imports = [name.removeprefix("import ") for name in names if name.startswith("import ")]
    assert imports == list(FEATURE_MODULES), "each feature's module a slice, in the menus' order"
    assert names.index("Qt's classes") < names.index("fit dialogs to the screen") < names.index(
        f"import {FEATURE_MODULES[0]}") < names.index("the features' unit actions") < names.index(
        "install battletracker.ui.features.bombardments") < names.index("the cards with the card sections")
    assert names[-1] == "the cards with the card sections"
    between = {count for count in seen if 0 < count < window.warm_up.install_slices}
    assert len(between) >= len(FEATURE_MODULES), "the event loop turns between the slices"
    assert "coc.support_fire" in window.unit_action_entries


def test_a_features_shortcut_pressed_right_after_the_first_paint_opens_its_dialog(
        qtbot: QtBot, session: Session) -> None:
    window = _window(qtbot, session)
    session.select("u1")
    pressed: list[bool] = []

    def press() -> None:
        pressed.append(window.features_loaded)
        qtbot.keyClick(window.map, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)

    window.first_painted.connect(lambda: QTimer.singleShot(0, press))
    window.show()
    qtbot.waitUntil(lambda: bool(pressed), timeout=20000)
    assert pressed == [False], "pressed before the features were installed"
    assert window.features_loaded, "installed at once"
    dialog = window.findChild(FireDialog)
    assert dialog is not None and dialog.isVisible(), "the Fire dialog opened for the selected unit"
    assert dialog.windowTitle() == f"Fire - {session.game.unit('u1').name}"
    dialog.close()


# The offscreen platform, on opening a menu.
@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing the keyboard")
def test_a_menu_opened_before_the_features_are_installed_lists_their_entries(
        qtbot: QtBot, session: Session) -> None:
    window = _window(qtbot, session)
    opened: list[tuple[bool, list[str]]] = []

    def open_game_menu() -> None:
        menu = window.menu("game")
        loaded = window.features_loaded
        menu.popup(window.mapToGlobal(window.rect().center()))
        opened.append((loaded, [a.objectName() for a in menu.actions()]))
        menu.close()

    window.first_painted.connect(lambda: QTimer.singleShot(0, open_game_menu))
    window.show()
    qtbot.waitUntil(lambda: bool(opened), timeout=20000)
    loaded, entries = opened[0]
    assert not loaded and "action-arsenal" in entries, "the Anti-tank feature's Game menu entry is there"
    assert window.features_loaded
