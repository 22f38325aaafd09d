"""The list of unsaved games left by runs that did not close properly, when there is more than one."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QListWidget
from PySide6.QtWidgets import QListWidgetItem
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.ui.recovery import Orphan


def rows(orphans: list[Orphan]) -> list[tuple[Orphan, str]]:
    """Each orphan with its row's words, the latest saved first; seconds added where two rows would read the same.

    Two crashes of the same game differ by when they were saved, so that is
    what tells them apart; to the minute, unless that leaves them alike.
    """
    ordered = sorted(orphans, key=lambda o: o.saved, reverse=True)
    labels = [o.label() for o in ordered]
    return [(o, o.label(seconds=True) if labels.count(label) > 1 else label)
            for o, label in zip(ordered, labels, strict=True)]


class RecoveryDialog(QDialog):
    """Pick one game to restore, discard the ones not wanted; the rest are offered again at the next start."""

    def __init__(self, orphans: list[Orphan], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Restore unsaved games?")
        self.orphans = list(orphans)
        self.chosen: Orphan | None = None
        self.discarded: list[Orphan] = []
        layout = QVBoxLayout(self)
        text = QLabel("BattleTracker did not close properly last time. These games had changes that were not "
                      "saved. Restore one in this window; the ones you neither restore nor discard are offered "
                      "again at the next start.", self)
        text.setWordWrap(True)
        text.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(text)
        self.list = QListWidget(self)
        for orphan, label in rows(self.orphans):
            item = QListWidgetItem(label, self.list)
            item.setData(Qt.ItemDataRole.UserRole, self.orphans.index(orphan))
        self.list.setCurrentRow(0)
        self.list.itemDoubleClicked.connect(lambda _item: self._restore())
        layout.addWidget(self.list)
        buttons = QDialogButtonBox(self)
        self.restore_button = buttons.addButton("&Restore", QDialogButtonBox.ButtonRole.AcceptRole)
        self.discard_button = buttons.addButton("&Discard", QDialogButtonBox.ButtonRole.DestructiveRole)
        self.later_button = buttons.addButton("&Later", QDialogButtonBox.ButtonRole.RejectRole)
        self.restore_button.setDefault(True)
        self.restore_button.clicked.connect(self._restore)
        self.discard_button.clicked.connect(self._discard)
        self.later_button.clicked.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(640, 320)

    def _current(self) -> Orphan | None:
        item = self.list.currentItem()
        index = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return self.orphans[index] if isinstance(index, int) else None

    def _restore(self) -> None:
        self.chosen = self._current()
        if self.chosen is not None:
            self.accept()

    def _discard(self) -> None:
        orphan = self._current()
        if orphan is None:
            return
        self.discarded.append(orphan)
        self.list.takeItem(self.list.currentRow())
        if self.list.count() == 0:
            self.reject()
