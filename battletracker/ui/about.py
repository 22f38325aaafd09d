"""Help > About: what this copy is (version, licence, Qt and Python) and where the README is."""

from __future__ import annotations

import html
import platform

import PySide6
from PySide6.QtCore import Qt
from PySide6.QtCore import qVersion
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QWidget

from battletracker import HOMEPAGE
from battletracker import version
from battletracker.ui.app_log import log_path

LICENCE = "MIT"


def about_text() -> str:
    return (f"<h3>BattleTracker {version()}</h3>"
            "<p>A table-side companion for miniatures wargames: it keeps the state, walks through "
            "the long procedures with exact odds, and draws the table.</p>"
            f"<p>Released under the {LICENCE} licence.<br>"
            f"Qt {qVersion()} (PySide6 {PySide6.__version__}), Python {platform.python_version()}</p>"
            f'<p><a href="{HOMEPAGE}#readme">Read the README</a> for how to play, install and build it.</p>'
            f"<p>Warnings and unexpected errors are logged to {html.escape(str(log_path()))}: send that "
            "file with a note of what you did when reporting a problem.</p>")


def about_box(parent: QWidget) -> QMessageBox:
    """The About box, its link opening in the browser."""
    box = QMessageBox(QMessageBox.Icon.NoIcon, "About BattleTracker", about_text(),
                      QMessageBox.StandardButton.Ok, parent)
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
    box.setIconPixmap(parent.windowIcon().pixmap(64, 64))
    return box
