"""File > Open Demo opens each shipped demo as an untitled copy; View > Colours picks Light, Dark or the system's
palette, remembered for the next start. Played from the menu bar with the keyboard, in a 1366x768 window."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from battletracker.ui.main_window import MainWindow
from battletracker.ui.session import Session
from battletracker.ui.theme import CHOSEN
from tests.ui.test_app import app_env

ALT = Qt.KeyboardModifier.AltModifier
# The offscreen platform cannot raise a menu or give it the keyboard; it only says so.
pytestmark = pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing the keyboard")


@pytest.fixture
def window(qtbot: QtBot, session: Session) -> MainWindow:
    win = MainWindow(session)
    qtbot.addWidget(win, before_close_func=lambda _w: win.session.undo_stack.setClean())
    win.show()
    win.resize(1366, 768)
    win.feature_host.load()
    qtbot.waitExposed(win)
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    return win


@pytest.fixture
def restored_palette(qapp: QApplication) -> Iterator[None]:
    style, palette, scheme = qapp.style().name(), qapp.palette(), qapp.styleHints().colorScheme()
    yield
    qapp.setStyle(style)
    qapp.setPalette(palette)
    qapp.styleHints().setColorScheme(scheme)


def popup(qtbot: QtBot) -> QMenu:
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu)
    return menu


def choose(qtbot: QtBot, window: MainWindow, menu_key: Qt.Key, submenu_key: Qt.Key, entry: str) -> None:
    """Alt+letter for the menu, the submenu's letter, then Down to `entry` and Enter, as a player does."""
    qtbot.keyClick(window, menu_key, ALT)
    top = popup(qtbot)
    qtbot.keyClick(top, submenu_key)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not top)
    sub = popup(qtbot)
    titles = [a.text().replace("&", "") for a in sub.actions()]
    assert entry in titles, titles
    for _ in titles:
        if sub.activeAction() is not None and sub.activeAction().text().replace("&", "") == entry:
            break
        qtbot.keyClick(sub, Qt.Key.Key_Down)
    qtbot.keyClick(sub, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None)


def test_file_open_demo_lists_the_three_demos_and_opens_each_as_an_untitled_copy(qtbot: QtBot,
                                                                                 window: MainWindow) -> None:
    for title, ruleset in (("Necromunda", "necromunda"), ("Armour Battles", "armour_battles"),
                           ("Chain of Command", "chain_of_command")):
        choose(qtbot, window, Qt.Key.Key_F, Qt.Key.Key_D, title)
        assert window.session.game.ruleset == ruleset
        assert window.session.path is None, "a demo opens as a copy: Save asks where"
        assert "comes with BattleTracker" in window.statusBar().currentMessage()
    assert [a.text() for a in window.demo_menu.actions()] == ["Chain of Command", "Armour Battles", "Necromunda"]


def is_dark(app: QApplication) -> bool:
    return app.palette().color(QPalette.ColorRole.Window).lightness() < 128


@pytest.mark.usefixtures("restored_palette")
def test_view_colours_switches_the_palette_and_remembers_it(qtbot: QtBot, window: MainWindow,
                                                           qapp: QApplication) -> None:
    choose(qtbot, window, Qt.Key.Key_V, Qt.Key.Key_C, "Dark")
    assert is_dark(qapp) and QSettings().value(CHOSEN) == "dark"
    assert [a.text().replace("&", "") for a in window.colours_menu.actions() if a.isChecked()] == ["Dark"]
    choose(qtbot, window, Qt.Key.Key_V, Qt.Key.Key_C, "Light")
    assert not is_dark(qapp) and QSettings().value(CHOSEN) == "light"
    choose(qtbot, window, Qt.Key.Key_V, Qt.Key.Key_C, "Dark")
    choose(qtbot, window, Qt.Key.Key_V, Qt.Key.Key_C, "System")
    assert not is_dark(qapp), "the offscreen system is light: no dark colour is kept"
    assert QSettings().value(CHOSEN) == "system"


_PROBE = """
from PySide6.QtCore import QTimer
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication
from battletracker.ui import main_window

built = main_window.MainWindow.__init__

def init(self, *args, **kwargs):
    built(self, *args, **kwargs)
    self.first_painted.connect(lambda: print(
        "window lightness", QApplication.instance().palette().color(QPalette.ColorRole.Window).lightness(),
        flush=True))
    self.first_painted.connect(lambda: QTimer.singleShot(0, QApplication.instance().quit))

main_window.MainWindow.__init__ = init
from battletracker.app import main
raise SystemExit(main(["--demo"]))
"""


@pytest.mark.parametrize(("chosen", "dark"), [("dark", True), ("light", False), ("system", False)])
def test_the_next_start_uses_the_palette_chosen(tmp_path: Path, chosen: str, dark: bool) -> None:
    settings = QSettings(str(tmp_path / "config" / "BattleTracker" / "BattleTracker.conf"), QSettings.Format.IniFormat)
    settings.setValue(CHOSEN, chosen)
    settings.sync()
    done = subprocess.run([sys.executable, "-c", _PROBE], env=app_env(tmp_path), cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lightness = int(next(line for line in done.stdout.splitlines() if line.startswith("window lightness")).split()[-1])
    assert (lightness < 128) is dark, lightness
