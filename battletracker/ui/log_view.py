"""The battle log: every roll and effect, time-stamped, newest last."""

from __future__ import annotations

from PySide6.QtCore import QAbstractListModel
from PySide6.QtCore import QModelIndex
from PySide6.QtCore import QPersistentModelIndex
from PySide6.QtCore import QSize
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtGui import QFont
from PySide6.QtGui import QFontDatabase
from PySide6.QtGui import QGuiApplication
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractItemView
from PySide6.QtWidgets import QListView
from PySide6.QtWidgets import QStyledItemDelegate
from PySide6.QtWidgets import QStyleOptionViewItem
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.model.changes import Changes
from battletracker.model.game import LogEntry
from battletracker.ui.session import Session
from battletracker.ui.text import literal

Index = QModelIndex | QPersistentModelIndex

_ROLES = frozenset({Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.FontRole})
"""The roles a log line answers."""


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
        # The view asks each row for several roles as it lays the rows out: the others are answered first.
        if role not in _ROLES or not index.isValid() or index.row() >= self._rows:
            return None
        entry = self._session.game.log[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            clock = entry.time[11:16] if len(entry.time) >= 16 else entry.time
            star = "\u2605 " if entry.starred else ""
            return f"{star}{clock}  T{entry.turn}.{entry.phase}  {entry.text}"
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
        elif now:
            self.dataChanged.emit(self.index(0), self.index(now - 1))

    def entry(self, row: int) -> LogEntry:
        return self._session.game.log[row]

    def line(self, row: int) -> str:
        """A log line as text to paste elsewhere: its time, Turn and Phase, and what it says."""
        entry = self._session.game.log[row]
        star = "* " if entry.starred else ""
        return f"{star}{entry.time}\tTurn {entry.turn}, Phase {entry.phase}\t{entry.text}"


class _KeptSizes(QStyledItemDelegate):
    """Each line's size, worked out once for its text at a width: the list lays every line out again after a
    change, and wrapping the text is most of that work. A replay shows the same lines over and over."""

    WIDTHS = 4  # the widths kept (the list is one scroll bar narrower while it has one)

    def __init__(self, model: LogModel, parent: QWidget) -> None:
        super().__init__(parent)
        self._model = model
        self._sizes: dict[tuple[int, str], dict[LogEntry, QSize]] = {}

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        if not index.isValid() or index.row() >= self._model.rowCount():
            return super().sizeHint(option, index)
        at = (option.rect.width(), option.font.key())
        sizes = self._sizes.get(at)
        if sizes is None:
            if len(self._sizes) >= self.WIDTHS:
                del self._sizes[next(iter(self._sizes))]
            sizes = self._sizes[at] = {}
        entry = self._model.entry(index.row())
        size = sizes.get(entry)
        if size is None:
            size = sizes[entry] = super().sizeHint(option, index)
        return size


class LogPanel(QWidget):
    """The log dock: lines can be selected (several at once), copied as text and starred for the report."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.model = LogModel(session)
        self.view = QListView(self)
        self.view.setModel(self.model)
        self.view.setItemDelegate(_KeptSizes(self.model, self.view))
        self.view.setWordWrap(True)
        self.view.setResizeMode(QListView.ResizeMode.Adjust)
        self.view.setLayoutMode(QListView.LayoutMode.Batched)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setAlternatingRowColors(True)
        self.view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.GeneralFont))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        # The newest line stays in view while the log is laid out batch by batch or shrinks (a replay stepped
        # back), until the player scrolls up to read an older one; a new line (the player's own step) brings
        # the newest back into view.
        self._follow_end = True
        bar = self.view.verticalScrollBar()
        bar.valueChanged.connect(self._on_scrolled)
        bar.rangeChanged.connect(self._keep_end)
        self.model.rowsInserted.connect(self.scroll_to_end)
        self.model.modelReset.connect(self.scroll_to_end)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.star_action = QAction("Star for the report", self.view)
        self.star_action.setShortcut(QKeySequence("S"))
        self.star_action.setStatusTip("Mark the selected lines as moments the battle report pictures")
        self.star_action.triggered.connect(self.toggle_star)
        self.copy_action = QAction("Copy", self.view)
        self.copy_action.setShortcut(QKeySequence.StandardKey.Copy)
        self.copy_action.triggered.connect(self.copy_selection)
        for action in (self.star_action, self.copy_action):
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
            self.view.addAction(action)

    def scroll_to_end(self) -> None:
        """Show the newest line, and keep it shown as the rest of the log is laid out."""
        self._follow_end = True
        self.view.scrollToBottom()

    def _on_scrolled(self, value: int) -> None:
        self._follow_end = value >= self.view.verticalScrollBar().maximum()

    def _keep_end(self, _low: int, high: int) -> None:
        if self._follow_end:
            self.view.verticalScrollBar().setValue(high)

    def selected_rows(self) -> list[int]:
        return sorted(i.row() for i in self.view.selectionModel().selectedIndexes())

    def toggle_star(self) -> None:
        """Star the selected lines; when every one of them is starred already, take their stars off."""
        rows = self.selected_rows()
        if rows:
            log = self.session.game.log
            self.session.star_log(rows, not all(log[i].starred for i in rows))

    def copy_selection(self) -> None:
        """The selected lines, oldest first, to the clipboard as text."""
        rows = self.selected_rows()
        if rows:
            QGuiApplication.clipboard().setText("\n".join(self.model.line(i) for i in rows) + "\n")
