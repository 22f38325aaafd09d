"""Work on the window's thread that can take more than a second (opening a long game, exporting a report).

Each piece of work is told how far it has come (rules.replay.Progress); a
progress dialog with Cancel shows once the work has run for SHOW_AFTER_MS,
and the window's events are handled at each report, so the window is
redrawn and answers meanwhile instead of freezing. Short work never shows
the dialog.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QProgressDialog
from PySide6.QtWidgets import QWidget

SHOW_AFTER_MS = 1000


class LongWork:
    """A rules.replay.Progress for `parent`'s window: call it with (done, total); False once Cancel is pressed."""

    def __init__(self, parent: QWidget, title: str, label: str) -> None:
        self._parent = parent
        self._title = title
        self._label = label
        self._dialog: QProgressDialog | None = None

    def __call__(self, done: int, total: int) -> bool:
        if self._dialog is None:
            dialog = QProgressDialog(self._label, "Cancel", 0, max(total, 1), self._parent)
            dialog.setObjectName("long_work")
            dialog.setWindowTitle(self._title)
            dialog.setWindowModality(Qt.WindowModality.WindowModal)  # its value setter then handles events
            dialog.setMinimumDuration(SHOW_AFTER_MS)
            dialog.setAutoReset(False)
            dialog.setAutoClose(False)
            self._dialog = dialog
        self._dialog.setMaximum(max(total, 1))
        self._dialog.setValue(min(done, total))
        return not self._dialog.wasCanceled()

    def close(self) -> None:
        if self._dialog is not None:
            self._dialog.reset()
            self._dialog.close()
            self._dialog.deleteLater()
            self._dialog = None
