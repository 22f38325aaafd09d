"""Windows that fit a 13" laptop: dialogs never open taller or wider than the screen.

A procedure dialog lays out its steps, odds and charts at the size it was designed
for; on a 1366x768 screen that is often more than the screen holds. `DialogFitter`
watches the dialogs opened from the main window and, when one would not fit
comfortably, moves its contents into a scroll area that keeps the designed size as
its minimum, so the dialog opens within the screen and scrolls instead of spilling
off it. `screen_room` is the room a window may take on the screen it opens on.

A procedure asks about the table, so the player must see the map while answering it:
the window's modeless dialogs open beside the map, at the screen's edge over the Units
or Battle log dock, never wider than leaves half of the map and its centre uncovered.
Their contents scroll, and their button rows stay below the scroll area, so a result
that comes in after the roll never pushes Apply or Close off the screen; two columns
made with `Columns` go one above the other when the room beside the map is narrower
than both side by side.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QEvent
from PySide6.QtCore import QObject
from PySide6.QtCore import QPoint
from PySide6.QtCore import QRect
from PySide6.QtCore import QSize
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractButton
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QBoxLayout
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QFrame
from PySide6.QtWidgets import QLayout
from PySide6.QtWidgets import QLayoutItem
from PySide6.QtWidgets import QScrollArea
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.ui.gc_pause import top_level_widgets

# Room the window manager takes around a window: title bar and borders.
FRAME = QSize(24, 48)
# A dialog larger than this share of the screen scrolls instead, as it may grow when results come in.
LARGE = 0.6
FITTED = "fitted_to_screen"
SCROLLS = "scrolls_on_screen"
DESIGNED = "designed_size"
# Room taken beside stacked columns: the contents' margins and the dialog's scroll bar.
STACKED_MARGIN = 48
# Room left under a scroll area for the dialog's buttons.
BUTTON_ROW = QSize(0, 56)


def available_geometry(widget: QWidget | None = None) -> QRect:
    """The screen less its panels and task bar, on the screen `widget` is on, in screen coordinates."""
    screen = widget.screen() if widget is not None else None
    if screen is None:
        screen = QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1366, 700)


def available_size(widget: QWidget | None = None) -> QSize:
    """The screen's size less its panels and task bar, on the screen `widget` is on."""
    return available_geometry(widget).size()


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


class Columns(QBoxLayout):
    """A dialog's columns side by side; one above the other when it stands beside the map in less room."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(QBoxLayout.Direction.LeftToRight, parent)

    def stack(self, width: int) -> None:
        """One above the other, `width` wide; a column that scrolls on its own opens showing all it holds,
        as the dialog around it scrolls."""
        self.setDirection(QBoxLayout.Direction.TopToBottom)
        for index in range(self.count()):
            item = self.itemAt(index)
            area = item.widget() if item is not None else None
            inner = area.widget() if isinstance(area, QScrollArea) else None
            if isinstance(area, QScrollArea) and inner is not None:
                bar = area.style().pixelMetric(area.style().PixelMetric.PM_ScrollBarExtent)
                height = inner.heightForWidth(width - bar) if inner.hasHeightForWidth() else -1
                area.setMinimumHeight(max(height, inner.sizeHint().height()) + 2 * area.frameWidth())
        self.invalidate()


def _button_row(item: QLayoutItem | None) -> bool:
    """The dialog's own buttons (Apply, Close): a button box, or a row of widgets holding a button."""
    if item is None:
        return False
    if isinstance(item.widget(), QDialogButtonBox):
        return True
    row = item.layout()
    if not isinstance(row, QBoxLayout) or row.direction() != QBoxLayout.Direction.LeftToRight:
        return False
    parts = (row.itemAt(i) for i in range(row.count()))
    return any(part is not None and isinstance(part.widget(), QAbstractButton) for part in parts)


def scroll_contents(dialog: QDialog, width: int) -> None:
    """Move the dialog's contents into a scroll area; its button rows stay below, always in reach.

    The dialog's own minimum width becomes the contents' minimum, so its columns keep the
    width they were designed for; its minimum height becomes the size it opens at (within
    the screen), and the contents scroll when they grow taller than that. Neither is wider
    than `width`, the room the dialog has.
    """
    layout = dialog.layout()
    if layout is None:
        return
    rows: list[QWidget | QLayout] = []
    while layout.count() > 1 and _button_row(item := layout.itemAt(layout.count() - 1)):
        assert item is not None
        widget, row = item.widget(), item.layout()
        if widget is not None:
            layout.removeWidget(widget)
            rows.insert(0, widget)
        elif row is not None:
            layout.takeAt(layout.count() - 1)
            row.setParent(None)
            rows.insert(0, row)
    designed = dialog.minimumSize()
    contents = QWidget()
    contents.setLayout(layout)
    contents.setMinimumWidth(min(designed.width(), width - 40))
    dialog.setProperty(DESIGNED, designed)
    area = FitScrollArea(dialog)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidgetResizable(True)
    area.setWidget(contents)
    outer = QVBoxLayout(dialog)
    outer.setContentsMargins(0, 0, 0, 0 if not rows else outer.contentsMargins().bottom())
    outer.addWidget(area, 1)
    if rows:
        margins = layout.contentsMargins()
        below = QVBoxLayout()
        below.setContentsMargins(margins.left(), 0, margins.right(), 0)
        for part in rows:
            if isinstance(part, QWidget):
                below.addWidget(part)
            else:
                below.addLayout(part)
        outer.addLayout(below)
    dialog.setMinimumSize(0, 0)


def scroll_if_large(dialog: QDialog, beside: QRect | None = None) -> None:
    """Before a dialog first shows: if it would take much of the screen, or stands beside the map, let it scroll.

    Beside the map it scrolls whatever its size: what comes in after the roll then grows the
    scrolled part, not the dialog, whose buttons stay where they are.
    """
    if dialog.property(SCROLLS) is not None:
        return
    room = screen_room(dialog)
    wanted = dialog.sizeHint().expandedTo(dialog.minimumSize())
    large = beside is not None or wanted.width() > room.width() * LARGE or wanted.height() > room.height() * LARGE
    dialog.setProperty(SCROLLS, large)
    if large:
        width = room.width() if beside is None else min(room.width(), beside.width() - frame_margins(dialog).width())
        scroll_contents(dialog, width)


def frame_margins(dialog: QWidget) -> QSize:
    """What the window manager adds around the dialog: measured once it has a frame, else the usual."""
    frame, inside = dialog.frameGeometry().size(), dialog.geometry().size()
    return frame - inside if dialog.isVisible() and frame != inside else QSize(FRAME)


def room_beside(view: QWidget) -> tuple[QRect, QRect]:
    """The screen's free parts left and right of the middle of `view`'s visible area, as frames may take them.

    A dialog's frame within either leaves more than half of the view uncovered, its centre too.
    """
    screen = available_geometry(view)
    area = QRect(view.mapToGlobal(QPoint(0, 0)), view.size()) & screen
    if area.isEmpty():
        area = screen
    middle = area.left() + area.width() // 2
    gap = max(8, area.width() // 50)
    left = QRect(screen.left(), screen.top(), max(middle - gap - screen.left(), 0), screen.height())
    right_edge = middle + gap
    right = QRect(right_edge, screen.top(), max(screen.right() + 1 - right_edge, 0), screen.height())
    return left, right


def fit_to_screen(dialog: QDialog, beside: QRect | None = None) -> None:
    """As a dialog first shows: open it at the size it wants, within the screen, or within `beside` at its side.

    Beside the map, columns too wide for the room go one above the other, and the dialog
    stands at the screen's edge: over a dock, off the map's centre.
    """
    if dialog.property(FITTED):
        return
    dialog.setProperty(FITTED, True)
    scroll_if_large(dialog, beside)
    room = screen_room(dialog)
    margins = frame_margins(dialog)
    if beside is not None:
        room = room.boundedTo(beside.size() - margins)
        if dialog.sizeHint().width() > room.width():
            for columns in dialog.findChildren(Columns):
                columns.stack(room.width() - STACKED_MARGIN)
            layout = dialog.layout()
            if layout is not None:
                layout.activate()
    designed = dialog.property(DESIGNED)
    wanted = dialog.sizeHint().expandedTo(dialog.minimumSize())
    if isinstance(designed, QSize):
        wanted = wanted.expandedTo(designed)
    if dialog.testAttribute(Qt.WidgetAttribute.WA_Resized):
        wanted = wanted.expandedTo(dialog.size())  # the size its maker chose, kept when it scrolls too
    size = wanted.boundedTo(room)
    dialog.resize(size)
    if beside is not None:
        frame = size + margins
        x = beside.left() if beside.left() <= available_geometry(dialog).left() else beside.right() + 1 - frame.width()
        dialog.move(x, beside.top())


class DialogFitter(QObject):
    """Fits every dialog to the screen just before it first shows, wherever it was opened from.

    Installed on the application while the main window lives: procedure dialogs are opened
    by cards, docks and other dialogs, so no one parent sees them all. The window's modeless
    dialogs, those asking about the table while it stays in reach, open beside `beside`, the map.
    """

    def __init__(self, parent: QObject | None = None, beside: QWidget | None = None) -> None:
        super().__init__(parent)
        self.beside = beside
        self.skipped: tuple[type[QDialog], ...] = ()
        self._fits: dict[type, bool] = {}  # each class of watched object: a dialog this fits

    def install(self) -> None:
        # Qt's own dialogs size themselves; imported here, as a window needs none of them to paint.
        from PySide6.QtWidgets import QFileDialog
        from PySide6.QtWidgets import QInputDialog
        from PySide6.QtWidgets import QMessageBox

        self.skipped = (QMessageBox, QFileDialog, QInputDialog)
        self._fits.clear()
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def room_for(self, dialog: QDialog) -> QRect | None:
        """The room beside the map for one of the window's modeless dialogs; None for any other dialog.

        The side with room for the whole dialog, the Battle log's (right) first; else the wider.
        """
        view = self.beside
        if view is None or not shiboken6.isValid(view) or dialog.isModal() or not view.isVisible() \
                or not StepAside.belongs_to(dialog, view.window()):
            return None
        left, right = room_beside(view)
        wanted = dialog.sizeHint().width() + frame_margins(dialog).width()
        if right.width() >= wanted or right.width() >= left.width():
            return right
        return left

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
                scroll_if_large(watched, self.room_for(watched))
            elif not watched.property(FITTED):
                fit_to_screen(watched, self.room_for(watched))
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
                    and widget is not window and self.belongs_to(widget, window):
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
    def belongs_to(widget: QWidget, window: QWidget) -> bool:
        """`widget` was opened from `window`, directly or through other dialogs."""
        parent = widget.parentWidget()
        while parent is not None:
            if parent.window() is window:
                return True
            parent = parent.window().parentWidget()
        return False
