"""The table display's control strip on the laptop: which screen, which mode, which layers, and calibration.

The display itself takes no input, so everything is set here. Calibrating
shows four crosshairs on the projector and their twins on a small picture of
the projector's screen here: the player drags a twin (or moves the chosen
crosshair with the arrow keys, Shift for single pixels) until each crosshair
sits on its table corner. The corners are kept in QSettings per screen and
table size, never in the game: they belong to this laptop and projector.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF
from PySide6.QtCore import QRectF
from PySide6.QtCore import QSettings
from PySide6.QtCore import QSize
from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtGui import QColor
from PySide6.QtGui import QGuiApplication
from PySide6.QtGui import QKeyEvent
from PySide6.QtGui import QMouseEvent
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPaintEvent
from PySide6.QtGui import QPen
from PySide6.QtGui import QScreen
from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QSpinBox
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.core.calibration import PlacementError
from battletracker.core.geometry import Point
from battletracker.core.homography import four_point
from battletracker.core.homography import table_corners
from battletracker.ui.features.table_display.display import LAYERS
from battletracker.ui.features.table_display.display import MODES
from battletracker.ui.features.table_display.display import DisplayWindow
from battletracker.ui.features.table_display.display import fitted_corners
from battletracker.ui.map.view import MapView
from battletracker.ui.session import Session

SETTINGS_GROUP = "table_display"
LABEL_POINTS = "table_display/label_points"
WINDOWED = QSize(960, 600)
"""The display's size as a window on the laptop's own screen (no second screen, or trying it out)."""
STEP, FINE_STEP = 10.0, 1.0
"""Pixels a crosshair moves per arrow key, and with Shift held."""
CORNER_NAMES = ("top left", "top right", "bottom right", "bottom left")
CORNER_KEYS = (Qt.Key.Key_1, Qt.Key.Key_2, Qt.Key.Key_3, Qt.Key.Key_4)


def corners_key(screen: QScreen, width: float, height: float) -> str:
    return f"{SETTINGS_GROUP}/corners/{screen.name() or 'screen'}/{width:g}x{height:g}"


def load_corners(screen: QScreen, width: float, height: float) -> list[Point] | None:
    """The crosshairs saved for this screen and table size, or None (never calibrated, or unreadable)."""
    text = QSettings().value(corners_key(screen, width, height), "")
    try:
        numbers = [float(n) for n in str(text).split(",")]
    except ValueError:
        return None
    if len(numbers) != 8:
        return None
    corners = [(numbers[i], numbers[i + 1]) for i in range(0, 8, 2)]
    try:
        four_point(table_corners(width, height), corners)
    except PlacementError:
        return None
    return corners


def save_corners(screen: QScreen, width: float, height: float, corners: Sequence[Point]) -> None:
    QSettings().setValue(corners_key(screen, width, height), ",".join(f"{v:.2f}" for p in corners for v in p))


class CalibrationPad(QWidget):
    """A small picture of the projector's screen with the four crosshairs' twins, to drag or move by keys."""

    moved = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("calibration_pad")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMinimumSize(320, 200)
        self.setToolTip("Drag each numbered crosshair until the projector shows it on its table corner. Keys 1 to 4 "
                        "choose one, the arrow keys move it, with Shift a pixel at a time.")
        self.screen_size = QSize(1280, 720)
        self.corners: list[Point] = []
        self.active = 0
        self._dragging = False

    def set_corners(self, corners: Sequence[Point], screen_size: QSize) -> None:
        self.corners = list(corners)
        self.screen_size = screen_size
        self.update()

    def _scale(self) -> tuple[float, float, float]:
        w, h = max(1, self.screen_size.width()), max(1, self.screen_size.height())
        k = min((self.width() - 8) / w, (self.height() - 8) / h)
        return k, (self.width() - w * k) / 2.0, (self.height() - h * k) / 2.0

    def _to_pad(self, p: Point) -> QPointF:
        k, dx, dy = self._scale()
        return QPointF(dx + p[0] * k, dy + p[1] * k)

    def _to_screen(self, at: QPointF) -> Point:
        k, dx, dy = self._scale()
        return ((at.x() - dx) / k, (at.y() - dy) / k)

    def move_active(self, dx: float, dy: float) -> None:
        x, y = self.corners[self.active]
        w, h = self.screen_size.width(), self.screen_size.height()
        self.corners[self.active] = (min(max(x + dx, 0.0), w - 1.0), min(max(y + dy, 0.0), h - 1.0))
        self.update()
        self.moved.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = Qt.Key(event.key())
        step = FINE_STEP if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else STEP
        moves = {Qt.Key.Key_Left: (-step, 0.0), Qt.Key.Key_Right: (step, 0.0), Qt.Key.Key_Up: (0.0, -step),
                 Qt.Key.Key_Down: (0.0, step)}
        if key in moves and self.corners:
            self.move_active(*moves[key])
        elif key in CORNER_KEYS:
            self.active = CORNER_KEYS.index(key)
            self.update()
            self.moved.emit()
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if not self.corners:
            return
        at = event.position()
        distances = [(QPointF(self._to_pad(c)) - at).manhattanLength() for c in self.corners]
        self.active = distances.index(min(distances))
        self._dragging = True
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        self.mouseMoveEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._dragging:
            x, y = self._to_screen(event.position())
            w, h = self.screen_size.width(), self.screen_size.height()
            self.corners[self.active] = (min(max(x, 0.0), w - 1.0), min(max(y, 0.0), h - 1.0))
            self.update()
            self.moved.emit()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._dragging = False

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        k, dx, dy = self._scale()
        painter.fillRect(QRectF(dx, dy, self.screen_size.width() * k, self.screen_size.height() * k),
                         QColor("#101010"))
        if len(self.corners) == 4:
            painter.setPen(QPen(QColor("#4caf50"), 1.5))
            painter.drawPolygon([self._to_pad(c) for c in self.corners])
        for i, corner in enumerate(self.corners):
            at = self._to_pad(corner)
            painter.setPen(QPen(QColor("#ffeb3b") if i == self.active else QColor("#ffffff"), 2.0))
            painter.drawLine(at + QPointF(-8.0, 0.0), at + QPointF(8.0, 0.0))
            painter.drawLine(at + QPointF(0.0, -8.0), at + QPointF(0.0, 8.0))
            painter.drawText(at + QPointF(5.0, -5.0), str(i + 1))
        painter.end()


class DisplayControls(QDialog):
    """The control strip: opens the display on the chosen screen and sets it; closing it closes the display."""

    def __init__(self, session: Session, laptop_map: MapView, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("table_display_controls")
        self.setWindowTitle("Table display")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.session = session
        self.laptop = parent
        points = float(QSettings().value(LABEL_POINTS, 16))  # type: ignore[arg-type]
        self.display = DisplayWindow(session, laptop_map, points)
        self.screens = self._screens()
        self.screen_box = QComboBox(self)
        self.screen_box.setObjectName("display_screen")
        for screen in self.screens:
            size = screen.geometry().size()
            own = " - this laptop's screen, as a window" if screen is self._laptop_screen() else ""
            self.screen_box.addItem(f"{screen.name() or 'Screen'} ({size.width()}x{size.height()}){own}")
        self.mode_box = QComboBox(self)
        self.mode_box.setObjectName("display_mode")
        for mode, words in MODES.items():
            self.mode_box.addItem(words, mode)
        self.layer_boxes: dict[str, QCheckBox] = {}
        layers = QVBoxLayout()
        for layer, words in LAYERS.items():
            box = QCheckBox(words, self)
            box.setObjectName(f"display_layer_{layer}")
            box.setChecked(True)
            box.toggled.connect(self._layers_changed)
            self.layer_boxes[layer] = box
            layers.addWidget(box)
        self.label_points = QSpinBox(self)
        self.label_points.setObjectName("display_label_points")
        self.label_points.setRange(8, 48)
        self.label_points.setSuffix(" pt")
        self.label_points.setValue(round(points))
        self.label_points.setToolTip("How large the names are on the TV: 16 pt reads from about two metres "
                                     "on a 40\" TV.")
        self.calibrate = QPushButton("Calibrate to the table's corners...", self)
        self.calibrate.setObjectName("display_calibrate")
        self.calibrate.setCheckable(True)
        self.pad = CalibrationPad(self)
        self.pad.hide()
        self.pad_note = QLabel(self)
        self.pad_note.setWordWrap(True)
        self.pad_note.hide()
        self.reset = QPushButton("Fit the table again", self)
        self.reset.setObjectName("display_reset_calibration")
        self.reset.hide()
        close = QPushButton("Close the display", self)
        close.setObjectName("display_close")
        form = QFormLayout()
        form.addRow("Screen:", self.screen_box)
        form.addRow("Mode:", self.mode_box)
        form.addRow("Show:", layers)
        form.addRow("Names on the TV:", self.label_points)
        buttons = QHBoxLayout()
        buttons.addWidget(self.calibrate)
        buttons.addWidget(self.reset)
        buttons.addStretch(1)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.pad, 1)
        layout.addWidget(self.pad_note)
        layout.addLayout(buttons)
        self.screen_box.currentIndexChanged.connect(lambda _i: self.place())
        self.mode_box.currentIndexChanged.connect(self._mode_changed)
        self.label_points.valueChanged.connect(self._label_points_changed)
        self.calibrate.toggled.connect(self._calibrating)
        self.pad.moved.connect(self._pad_moved)
        self.reset.clicked.connect(self._fit_again)
        close.clicked.connect(self.close)
        self.finished.connect(lambda _r: self.display.close())
        session.changed.connect(self._table_size_may_change)
        self._table = (session.game.table_width, session.game.table_height)
        self._mode_changed()
        self.place()

    # -- screens -----------------------------------------------------------------------------------------------
    def _laptop_screen(self) -> QScreen:
        return self.laptop.screen() or QGuiApplication.primaryScreen()

    def _screens(self) -> list[QScreen]:
        """Every screen Qt sees, the laptop's own last (the display goes on another by default)."""
        own = self._laptop_screen()
        return [s for s in QGuiApplication.screens() if s is not own] + [own]

    def chosen_screen(self) -> QScreen:
        return self.screens[max(0, self.screen_box.currentIndex())]

    def display_size(self) -> QSize:
        screen = self.chosen_screen()
        return WINDOWED if screen is self._laptop_screen() else screen.geometry().size()

    def place(self) -> None:
        """Full-screen on the chosen screen, or a window on the laptop's own; the laptop keeps the keyboard."""
        screen = self.chosen_screen()
        display = self.display
        display.hide()
        display.setWindowState(Qt.WindowState.WindowNoState)
        display.create()
        handle = display.windowHandle()
        if handle is not None:
            handle.setScreen(screen)
        if screen is self._laptop_screen():
            display.setWindowFlag(Qt.WindowType.FramelessWindowHint, False)
            area = screen.availableGeometry()
            display.setGeometry(area.x() + 40, area.y() + 40, WINDOWED.width(), WINDOWED.height())
            display.show()
        else:
            display.setWindowFlag(Qt.WindowType.FramelessWindowHint, True)
            display.setGeometry(screen.geometry())
            # Not showFullScreen(): it activates the window, which would take the laptop's keyboard.
            display.setWindowState(Qt.WindowState.WindowFullScreen)
            display.show()
        self._load_mapping()
        self.laptop.activateWindow()

    # -- mode, layers and names ------------------------------------------------------------------------------------
    def _mode_changed(self, _index: int = 0) -> None:
        mode = self.mode_box.currentData() or "tv"
        projector = mode == "projector"
        self.calibrate.setEnabled(projector)
        if not projector:
            self.calibrate.setChecked(False)
        self.display.set_mode(mode)

    def _layers_changed(self) -> None:
        self.display.set_layers(layer for layer, box in self.layer_boxes.items() if box.isChecked())

    def _label_points_changed(self, points: int) -> None:
        QSettings().setValue(LABEL_POINTS, points)
        self.display.set_label_points(float(points))

    # -- calibration -------------------------------------------------------------------------------------------------
    def _load_mapping(self) -> None:
        width, height = self._table
        size = self.display_size()
        corners = load_corners(self.chosen_screen(), width, height) or \
            fitted_corners(width, height, (size.width(), size.height()))
        self.pad.set_corners(corners, size)
        self.display.set_mapping(corners)
        if self.calibrate.isChecked():
            self.display.show_calibration(corners, self.pad.active)

    def _table_size_may_change(self) -> None:
        game = self.session.game
        if (game.table_width, game.table_height) != self._table:
            self._table = (game.table_width, game.table_height)
            self._load_mapping()

    def _calibrating(self, on: bool) -> None:
        self.pad.setVisible(on)
        self.pad_note.setVisible(on)
        self.reset.setVisible(on)
        self.calibrate.setText("Done calibrating" if on else "Calibrate to the table's corners...")
        if on:
            self._say_which()
            self.display.show_calibration(self.pad.corners, self.pad.active)
            self.pad.setFocus(Qt.FocusReason.OtherFocusReason)
        else:
            save_corners(self.chosen_screen(), *self._table, self.pad.corners)
            self.display.show_calibration(None)
        self.adjustSize()

    def _say_which(self, refusal: str = "") -> None:
        corner = CORNER_NAMES[self.pad.active]
        self.pad_note.setText(refusal or f"Crosshair {self.pad.active + 1} goes on the table's {corner} corner (as the "
                                         "laptop's map shows the table). Arrow keys move it, Shift+arrows a pixel.")

    def _pad_moved(self) -> None:
        try:
            self.display.set_mapping(self.pad.corners)
        except PlacementError as refused:
            self._say_which(str(refused))
        else:
            self._say_which()
        self.display.show_calibration(self.pad.corners, self.pad.active)

    def _fit_again(self) -> None:
        size = self.display_size()
        self.pad.set_corners(fitted_corners(*self._table, (size.width(), size.height())), size)
        self._pad_moved()
