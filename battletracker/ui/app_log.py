"""The app's log: warnings and unexpected errors, in a file a player can find (About names it) and send.

A desktop app started from a menu has no terminal, so what Python and Qt
print on stderr is lost; the log keeps it. Warnings and errors still go to
stderr as well, where a terminal, a test or an installation check sees them.
An error nothing caught is logged with its traceback and said in a box, and
the window goes on: the game in memory is worth more than the failed step.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QMessageLogContext
from PySide6.QtCore import Qt
from PySide6.QtCore import QtMsgType
from PySide6.QtCore import qInstallMessageHandler
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QMessageBox

from battletracker import version
from battletracker.ui.recovery import data_dir

LOG_NAME = "battletracker.log"
KEEP_BYTES = 1_000_000
"""A log larger than this at start becomes battletracker.log.1 (replacing the one before): two runs' worth kept."""

log = logging.getLogger("battletracker")

_QT_LEVELS = {QtMsgType.QtDebugMsg: logging.DEBUG, QtMsgType.QtInfoMsg: logging.INFO,
              QtMsgType.QtWarningMsg: logging.WARNING, QtMsgType.QtCriticalMsg: logging.ERROR,
              QtMsgType.QtFatalMsg: logging.CRITICAL}
_open_boxes: list[QMessageBox] = []


def log_path() -> Path:
    """Where the log is: the app's data folder, beside the recovery files (the QApplication names it)."""
    return data_dir() / LOG_NAME


def start_logging() -> Path:
    """Log to the file (and warnings to stderr), with Python's warnings, Qt's messages and uncaught errors."""
    path = log_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and path.stat().st_size > KEEP_BYTES:
        path.replace(path.with_name(LOG_NAME + ".1"))
    to_file = logging.FileHandler(path, encoding="utf-8", delay=True)  # the file is made by the first line
    to_file.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    to_stderr = logging.StreamHandler(sys.stderr)
    to_stderr.setLevel(logging.WARNING)
    to_stderr.setFormatter(logging.Formatter("battletracker: %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(to_file)
    root.addHandler(to_stderr)
    root.setLevel(logging.WARNING)
    log.setLevel(logging.INFO)
    logging.captureWarnings(True)
    qInstallMessageHandler(_qt_message)
    sys.excepthook = _uncaught
    return path


def note_start() -> None:
    """A line saying which copy ran: the first thing a reader of a sent log needs."""
    import platform

    from PySide6 import __version__ as pyside_version
    from PySide6.QtCore import qVersion

    log.info("BattleTracker %s started: Qt %s, PySide6 %s, Python %s on %s", version(), qVersion(),
             pyside_version, platform.python_version(), platform.platform())


def _qt_message(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
    logging.getLogger("qt").log(_QT_LEVELS.get(kind, logging.WARNING), message)


def _uncaught(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, error, trace)
        return
    log.critical("an unexpected error", exc_info=(kind, error, trace))
    app = QApplication.instance()
    if isinstance(app, QApplication) and not _open_boxes:  # one box at a time, however often it repeats
        error_box(f"{kind.__name__}: {error}").open()


def error_box(what: str) -> QMessageBox:
    """Say an unexpected error, where its details are, and that the game goes on."""
    box = QMessageBox(QMessageBox.Icon.Critical, "Something went wrong",
                      f"BattleTracker met an error it did not expect, and the step you took may not have "
                      f"finished:\n\n{what}\n\nThe game goes on; saving it under a new name keeps it safe. "
                      f"The details are in the log, {log_path()}: sending that file with a note of what "
                      f"you did helps to fix it.", QMessageBox.StandardButton.Ok, QApplication.activeWindow())
    box.setObjectName("unexpected_error")
    box.setTextFormat(Qt.TextFormat.PlainText)
    _open_boxes.append(box)
    box.finished.connect(lambda _=0: _open_boxes.remove(box))
    return box
