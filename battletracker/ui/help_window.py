"""The user guide inside the app (F1): the README's "Using it" section, shipped with the resources."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtGui import QFocusEvent
from PySide6.QtGui import QGuiApplication
from PySide6.QtGui import QKeySequence
from PySide6.QtGui import QShortcut
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QTextBrowser
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.rules.tables import resources_dir

GUIDE = ("help", "guide.md")


def guide_text() -> str:
    """The guide as Markdown, or a line saying where it should have been."""
    path = resources_dir().joinpath(*GUIDE)
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return f"The user guide is missing from this installation (it should be at {path})."


class FindBox(QLineEdit):
    """The guide's find box: coming back to it selects the last words, so typing a new search replaces them."""

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        # After the click that gave the focus, which would put the cursor among the old words instead.
        QTimer.singleShot(0, self.selectAll)


class HelpWindow(QDialog):
    """A window beside the game with the guide: read while playing, find a word with Ctrl+F."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("BattleTracker User Guide")
        self.setModal(False)
        self.setWindowFlag(Qt.WindowType.WindowContextHelpButtonHint, False)
        self.find_box = FindBox(self)
        self.find_box.setObjectName("find")
        self.find_box.setPlaceholderText("Find in the guide (Enter for the next match)")
        self.find_box.setClearButtonEnabled(True)
        self.find_box.returnPressed.connect(self.find_next)
        self.browser = QTextBrowser(self)
        self.browser.setObjectName("guide")
        self.browser.setOpenExternalLinks(True)
        self.browser.setMarkdown(guide_text())
        self.browser.document().setDocumentMargin(12)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        # Enter in the find box finds the next match: a dialog would also press its default button, Close.
        buttons.button(QDialogButtonBox.StandardButton.Close).setAutoDefault(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.find_box)
        layout.addWidget(self.browser, 1)
        layout.addWidget(buttons)
        find = QShortcut(QKeySequence(QKeySequence.StandardKey.Find), self)
        find.activated.connect(self.focus_find)
        screen = (parent.screen() if parent is not None else None) or QGuiApplication.primaryScreen()
        room = screen.availableGeometry()
        self.resize(min(820, room.width() - 40), min(680, room.height() - 60))

    def focus_find(self) -> None:
        """Ctrl+F: to the find box with its words selected, even when it has the focus already."""
        self.find_box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.find_box.selectAll()

    def find_next(self) -> None:
        """The next place the typed words appear, from the top again after the last."""
        words = self.find_box.text()
        if words and not self.browser.find(words):
            self.browser.moveCursor(self.browser.textCursor().MoveOperation.Start)
            self.browser.find(words)
