"""Windows that fit a 13" laptop: dialogs never open taller or wider than the screen.

A procedure dialog lays out its steps, odds and charts at the size it was designed
for; on a 1366x768 screen that is often more than the screen holds. `DialogFitter`
watches the dialogs opened from the main window and, when one would not fit
comfortably, moves its contents into a scroll area that keeps the designed size as
its minimum, so the dialog opens within the screen and scrolls instead of spilling
off it. `screen_room` is the room a window may take on the screen it opens on.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QEvent, QObject, QPoint, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from battletracker.ui.gc_pause import top_level_widgets

# Room the window manager takes around a window: title bar and borders.
FRAME = QSize(24, 48)
# A dialog larger than this share of the screen scrolls instead, as it may grow when results come in.
LARGE = 0.6
FITTED = "fitted_to_screen"
SCROLLS = "scrolls_on_screen"
DESIGNED = "designed_size"
# Room left under a scroll area for the dialog's buttons.
BUTTON_ROW = QSize(0, 56)


def available_size(widget: QWidget | None = None) -> QSize:
    """The screen's size less its panels and task bar, on the screen `widget` is on."""
    screen = widget.screen() if widget is not None else None
    if screen is None:
        screen = QGuiApplication.primaryScreen()
    return screen.availableGeometry().size() if screen is not None else QSize(1366, 700)


def screen_room(widget: QWidget | None = None) -> QSize:
    """The size a window's contents may take on its screen, leaving room for its frame."""
    available = available_size(widget)
    return QSize(max(available.width() - FRAME.width(), 320), max(available.height() - FRAME.height(), 240))


class FitScrollArea(QScrollArea):
    """A scroll area as large as its contents want, up to the screen (QScrollArea stops at 24 lines)."""

    def sizeHint(self) -> QSize:
        inner = self.widget()
        if inner is None:
            return super().sizeHint()
        bar = self.style().pixelMetric(self.style().PixelMetric.PM_ScrollBarExtent)
        hint = inner.sizeHint().expandedTo(inner.minimumSize())
        frame = 2 * self.frameWidth()
        wanted = QSize(hint.width() + frame + bar, hint.height() + frame)
        return wanted.boundedTo(screen_room(self) - BUTTON_ROW)


def scroll_contents(dialog: QDialog) -> None:
    """Move the dialog's contents into a scroll area; its button row stays below, always in reach.

    The dialog's own minimum width becomes the contents' minimum, so its columns keep the
    width they were designed for; its minimum height becomes the size it opens at (within
    the screen), and the contents scroll when they grow taller than that.
    """
    layout = dialog.layout()
    if layout is None:
        return
    item = layout.itemAt(layout.count() - 1) if layout.count() else None
    last = item.widget() if item is not None else None
    buttons = last if isinstance(last, QDialogButtonBox) else None
    if buttons is not None:
        layout.removeWidget(buttons)
    designed = dialog.minimumSize()
    contents = QWidget()
    contents.setLayout(layout)
    contents.setMinimumWidth(min(designed.width(), screen_room(dialog).width() - 40))
    dialog.setProperty(DESIGNED, designed)
    area = FitScrollArea(dialog)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidgetResizable(True)
    area.setWidget(contents)
    outer = QVBoxLayout(dialog)
    outer.setContentsMargins(0, 0, 0, 0 if buttons is None else outer.contentsMargins().bottom())
    outer.addWidget(area, 1)
    if buttons is not None:
        margins = layout.contentsMargins()
        row = QVBoxLayout()
        row.setContentsMargins(margins.left(), 0, margins.right(), 0)
        row.addWidget(buttons)
        outer.addLayout(row)
    dialog.setMinimumSize(0, 0)


def scroll_if_large(dialog: QDialog) -> None:
    """Before a dialog first shows: if it would take much of the screen, let it scroll."""
    if dialog.property(SCROLLS) is not None:
        return
    room = screen_room(dialog)
    wanted = dialog.sizeHint().expandedTo(dialog.minimumSize())
    large = wanted.width() > room.width() * LARGE or wanted.height() > room.height() * LARGE
    dialog.setProperty(SCROLLS, large)
    if large:
        scroll_contents(dialog)


def fit_to_screen(dialog: QDialog) -> None:
    """As a dialog first shows: open it at the size it wants, within the screen."""
    if dialog.property(FITTED):
        return
    dialog.setProperty(FITTED, True)
    scroll_if_large(dialog)
    designed = dialog.property(DESIGNED)
    wanted = dialog.sizeHint().expandedTo(dialog.minimumSize())
    if isinstance(designed, QSize):
        wanted = wanted.expandedTo(designed)
    if dialog.testAttribute(Qt.WidgetAttribute.WA_Resized):
        wanted = wanted.expandedTo(dialog.size())  # the size its maker chose, kept when it scrolls too
    dialog.resize(wanted.boundedTo(screen_room(dialog)))


class DialogFitter(QObject):
    """Fits every dialog to the screen just before it first shows, wherever it was opened from.

    Installed on the application while the main window lives: procedure dialogs are opened
    by cards, docks and other dialogs, so no one parent sees them all.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.skipped: tuple[type[QDialog], ...] = ()
        self._fits: dict[type, bool] = {}  # each class of watched object: a dialog this fits

    def install(self) -> None:
        # Qt's own dialogs size themselves; imported here, as a window needs none of them to paint.
        from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

        self.skipped = (QMessageBox, QFileDialog, QInputDialog)
        self._fits.clear()
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Every event of the application passes here, thousands as a dialog opens: the cheap test
        # first, the watched object's class looked up (cheaper than isinstance; asking an event its
        # type builds a Python enum member).
        cls = type(watched)
        fits = self._fits.get(cls)
        if fits is None:
            fits = self._fits[cls] = issubclass(cls, QDialog) and not issubclass(cls, self.skipped)
        if not fits:
            return False
        assert isinstance(watched, QDialog)
        kind = event.type()
        if kind in (QEvent.Type.Polish, QEvent.Type.Show) and watched.isWindow():
            if kind == QEvent.Type.Polish:
                # Polished as it is about to show, before its children are: they move into the scroll area unseen.
                scroll_if_large(watched)
            else:
                fit_to_screen(watched)
        return False


class StepAside:
    """Dialogs over a window that make way while the player picks on its map, and come back after.

    `step_aside` hides the window's visible modeless dialogs (a procedure asking for a point
    or unit must not cover the map it asks about); `come_back` shows them again where they
    were, unless they were closed meanwhile.
    """

    def __init__(self) -> None:
        self._hidden: list[tuple[QDialog, QPoint]] = []

    def step_aside(self, window: QWidget) -> None:
        for widget in top_level_widgets():
            if isinstance(widget, QDialog) and widget.isVisible() and not widget.isModal() \
                    and widget is not window and self._belongs_to(widget, window):
                widget.finished.connect(lambda _result, w=widget: self._forget(w))
                self._hidden.append((widget, widget.pos()))
                widget.hide()

    def come_back(self) -> None:
        hidden, self._hidden = self._hidden, []
        for widget, where in hidden:
            if shiboken6.isValid(widget):
                widget.move(where)
                widget.show()
        if hidden and shiboken6.isValid(hidden[-1][0]):
            hidden[-1][0].activateWindow()

    def _forget(self, widget: QDialog) -> None:
        self._hidden = [(w, where) for w, where in self._hidden if w is not widget]

    @staticmethod
    def _belongs_to(widget: QWidget, window: QWidget) -> bool:
        parent = widget.parentWidget()
        while parent is not None:
            if parent.window() is window:
                return True
            parent = parent.window().parentWidget()
        return False
