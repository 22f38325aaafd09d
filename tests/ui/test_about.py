"""Help > About names this copy: version, licence, Qt and Python, and links to the README."""

from __future__ import annotations

import platform
import tomllib
from pathlib import Path

import PySide6
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtCore import qVersion
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

import battletracker
from battletracker.ui.app_log import log_path
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session

ROOT = Path(__file__).resolve().parents[2]


def test_the_version_is_the_one_in_pyproject() -> None:
    with (ROOT / "pyproject.toml").open("rb") as f:
        assert battletracker.version() == tomllib.load(f)["project"]["version"]


def test_help_about_shows_version_licence_qt_python_and_a_readme_link(
        qtbot: QtBot, session: Session, tmp_path: Path) -> None:
    window = MainWindow(session, Recovery(session, tmp_path))
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.show()
    qtbot.waitExposed(window)
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    about = next(a for a in help_menu.actions() if a.text() == "&About BattleTracker")
    seen: list[str] = []
    links: list[bool] = []

    def read_and_close() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        seen.append(box.text())
        label = next(w for w in box.findChildren(QLabel) if w.text() == box.text())
        links.append(label.openExternalLinks()
                     and bool(label.textInteractionFlags() & Qt.TextInteractionFlag.LinksAccessibleByMouse))
        qtbot.mouseClick(box.button(QMessageBox.StandardButton.Ok), Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, read_and_close)
    about.trigger()
    assert seen, "Help > About opened no dialog"
    text = seen[0]
    for part in (f"BattleTracker {battletracker.version()}", "MIT licence", f"Qt {qVersion()}",
                 f"PySide6 {PySide6.__version__}", f"Python {platform.python_version()}",
                 f'href="{battletracker.HOMEPAGE}#readme"', f"logged to {log_path()}"):
        assert part in text
    assert links == [True]
