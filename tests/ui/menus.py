"""A button's menu as a player uses it: the button clicked, the popped-up menu read, an entry clicked or Escape."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QMenu
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot


def open_menu(qtbot: QtBot, button: QPushButton, then: Callable[[QMenu], None]) -> None:
    """Click the button as a player does; `then` acts on its menu once it pops up (the menu runs its own loop)."""
    done: list[bool] = []

    def act() -> None:
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            QTimer.singleShot(10, act)
            return
        then(menu)
        done.append(True)

    qtbot.waitUntil(button.isVisible)  # on screen, as the player sees it
    QTimer.singleShot(0, act)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(done))


def entries(qtbot: QtBot, button: QPushButton) -> dict[str, str]:
    """The menu's entries as the player sees them when it opens: object name to text (Escape closes it)."""
    seen: dict[str, str] = {}

    def read(menu: QMenu) -> None:
        seen.update({a.objectName(): a.text() for a in menu.actions() if a.objectName()})
        qtbot.keyClick(menu, Qt.Key.Key_Escape)

    open_menu(qtbot, button, read)
    return seen


def pick(qtbot: QtBot, button: QPushButton, name: str) -> None:
    """Open the button's menu and click the entry `name` with the mouse."""

    def click(menu: QMenu) -> None:
        found = [a for a in menu.actions() if a.objectName() == name]
        assert found, f"{name} is not offered"
        QTest.mouseClick(menu, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         menu.actionGeometry(found[0]).center())

    open_menu(qtbot, button, click)
