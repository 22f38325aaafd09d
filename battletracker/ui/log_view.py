"""The battle log: every roll and effect, time-stamped, newest last."""

from __future__ import annotations

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QListView, QVBoxLayout, QWidget

from battletracker.model.effects import Changes
from battletracker.ui.session import Session
from battletracker.ui.text import literal

Index = QModelIndex | QPersistentModelIndex


class LogModel(QAbstractListModel):
    """Rows follow the game's log; it only ever grows or shrinks at its end."""

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self._session = session
        self._rows = len(session.game.log)
        session.changed.connect(self._on_changed)
        session.game_replaced.connect(self._reset)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._rows

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or index.row() >= self._rows:
            return None
        entry = self._session.game.log[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            clock = entry.time[11:16] if len(entry.time) >= 16 else entry.time
            return f"{clock}  T{entry.turn}.{entry.phase}  {entry.text}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return literal(f"{entry.time} - Turn {entry.turn}, Phase {entry.phase}\n{entry.text}")
        if role == Qt.ItemDataRole.FontRole and entry.kind == "clock":
            font = QFont()
            font.setBold(True)
            return font
        return None

    def _reset(self) -> None:
        self.beginResetModel()
        self._rows = len(self._session.game.log)
        self.endResetModel()

    def _on_changed(self, changes: Changes) -> None:
        if changes.everything:
            self._reset()
            return
        if not changes.log:
            return
        now = len(self._session.game.log)
        if now > self._rows:
            self.beginInsertRows(QModelIndex(), self._rows, now - 1)
            self._rows = now
            self.endInsertRows()
        elif now < self._rows:
            self.beginRemoveRows(QModelIndex(), now, self._rows - 1)
            self._rows = now
            self.endRemoveRows()


class LogPanel(QWidget):
    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = LogModel(session)
        self.view = QListView(self)
        self.view.setModel(self.model)
        self.view.setWordWrap(True)
        self.view.setResizeMode(QListView.ResizeMode.Adjust)
        self.view.setLayoutMode(QListView.LayoutMode.Batched)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setAlternatingRowColors(True)
        self.view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.GeneralFont))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        self.model.rowsInserted.connect(lambda *_: self.view.scrollToBottom())
        self.model.modelReset.connect(self.view.scrollToBottom)
