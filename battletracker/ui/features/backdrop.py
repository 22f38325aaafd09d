"""The table's picture: View > Table Picture... loads a photo of the table or a scenario map under the map.

The dialog loads (or replaces) the picture, places it by two points, sets its
opacity, hides or shows it and removes it; each is one undo step through
`Session.act` (rules/backdrop_actions.py). Placing: the picture is shown whole
over the table, the player clicks a point they know on it (a table corner),
types where that point is on the table (the nearest corner is offered), then
does the same for a second point. Or, by a measured distance: the player clicks
the two ends of something measured on the table, then types how far apart they
are and where the first one is. Esc at any moment cancels and changes nothing.

A picture file is read here, where Qt can decode it: turned upright by its
camera's orientation tag, shrunk to `LONG_SIDE_PIXELS` on its long side and
kept as PNG when that stays small, else as JPEG, so the game (which keeps the
picture inside its save file) stays a few megabytes at most.
"""

from __future__ import annotations

import math
import os
import stat
from pathlib import Path

from PySide6.QtCore import QBuffer
from PySide6.QtCore import QByteArray
from PySide6.QtCore import QIODevice
from PySide6.QtCore import QPoint
from PySide6.QtCore import QPointF
from PySide6.QtCore import QSize
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtGui import QColor
from PySide6.QtGui import QImage
from PySide6.QtGui import QImageReader
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QFileDialog
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QGraphicsItem
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QSlider
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.core.calibration import Placement
from battletracker.core.calibration import PlacementError
from battletracker.core.calibration import check_measured
from battletracker.core.calibration import fit_to_table
from battletracker.core.calibration import nearest_corner
from battletracker.core.geometry import Point
from battletracker.core.geometry import distance
from battletracker.model.backdrop import LONG_SIDE_PIXELS
from battletracker.model.backdrop import MAX_PICTURE_BYTES
from battletracker.model.backdrop import picture_text
from battletracker.model.effects import Changes
from battletracker.model.game import GameError
from battletracker.rules import RulesInputError
from battletracker.rules.actions import Choices
from battletracker.rules.base import message_of
from battletracker.ui.extensions import Feature
from battletracker.ui.extensions import FeatureHost
from battletracker.ui.map.items import circle_item
from battletracker.ui.procedure_parts import RefusalBanner

MAX_FILE_BYTES = 80 * 1024 * 1024
"""The largest picture file read: a photo from any camera is well under it."""
MAX_SOURCE_PIXELS = 250_000_000
"""The most pixels a picture may have before it is shrunk (decoding more would take gigabytes)."""
KEEP_AS_PNG_BYTES = 1536 * 1024
"""A shrunk picture is kept as PNG (sharp lines of a scenario map) when it is no larger than this; else JPEG."""
PICTURE_FILTER = "Pictures (*.png *.jpg *.jpeg *.webp *.bmp *.gif);;All files (*)"
OVERLAY = "backdrop-points"


class PictureError(ValueError):
    """A file that cannot be the table's picture; the message says why in a player's words."""


def read_picture(path: Path) -> bytes:
    """The picture at `path` as the PNG or JPEG bytes a game keeps: upright, shrunk, re-encoded when large."""
    name = path.name
    try:
        info = os.stat(path)
    except OSError as exc:
        raise PictureError(f"{name} cannot be read: {exc.strerror or exc}.") from None
    if not stat.S_ISREG(info.st_mode):
        raise PictureError(f"{name} is not a picture file.")
    if info.st_size > MAX_FILE_BYTES:
        raise PictureError(f"{name} is {info.st_size / 1024 ** 2:.0f} MB: a table picture can be at most "
                           f"{MAX_FILE_BYTES // 1024 ** 2} MB. Save a smaller copy and load that.")
    reader = QImageReader(str(path))
    reader.setAutoTransform(True)
    if not reader.canRead():
        raise PictureError(f"{name} is not a picture BattleTracker can read: load a PNG or JPEG file.")
    size = reader.size()
    if size.isValid() and size.width() * size.height() > MAX_SOURCE_PIXELS:
        raise PictureError(f"{name} has {size.width()} x {size.height()} pixels, too many to load: save a "
                           f"smaller copy (say {LONG_SIDE_PIXELS} pixels across) and load that.")
    image = reader.read()
    if image.isNull():
        raise PictureError(f"{name} could not be read as a picture ({reader.errorString()}).")
    if max(image.width(), image.height()) > LONG_SIDE_PIXELS:
        image = image.scaled(QSize(LONG_SIDE_PIXELS, LONG_SIDE_PIXELS), Qt.AspectRatioMode.KeepAspectRatio,
                             Qt.TransformationMode.SmoothTransformation)
    data = _encode(image, "PNG")
    if len(data) > KEEP_AS_PNG_BYTES:
        flat = image.convertToFormat(QImage.Format.Format_RGB888) if not image.hasAlphaChannel() else _flatten(image)
        for quality in (85, 70, 55, 40):
            data = _encode(flat, "JPEG", quality)
            if len(data) <= KEEP_AS_PNG_BYTES:
                break
    if len(data) > MAX_PICTURE_BYTES:
        raise PictureError(f"{name} stays too large for a game file even when shrunk.")
    return data


def _flatten(image: QImage) -> QImage:
    """A picture with transparency on white, as JPEG keeps no transparency."""
    flat = QImage(image.size(), QImage.Format.Format_RGB888)
    flat.fill(QColor("white"))
    painter = QPainter(flat)
    painter.drawImage(0, 0, image)
    painter.end()
    return flat


def _encode(image: QImage, fmt: str, quality: int = -1) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, fmt, quality)  # type: ignore[call-overload]  # PySide6 takes the format as text
    buffer.close()
    return bytes(data.data())


def _inches(text: str) -> float | None:
    """A distance typed in inches ("36", "36.5", "36\""), or None."""
    cleaned = text.strip().rstrip('"').rstrip().replace(",", ".")
    try:
        value = float(cleaned)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def grow_to_show(dialog: QDialog) -> None:
    """Make `dialog` taller (never narrower) when a refusal or a longer text needs more lines than it has."""
    layout = dialog.layout()
    if layout is None:
        return
    width = dialog.width()
    need = layout.totalHeightForWidth(width) if layout.hasHeightForWidth() else layout.totalSizeHint().height()
    if need > dialog.height():
        dialog.resize(width, need)


class TablePointDialog(QDialog):
    """Where a point clicked on the picture lies on the table: inches across and down from the top-left corner;
    with `measured`, first how far apart the two points clicked are on the table."""

    def __init__(self, which: str, prefill: Point, table: tuple[float, float], parent: QWidget | None,
                 measured: bool = False) -> None:
        super().__init__(parent)
        self.setWindowTitle("The measured distance" if measured else f"{which} point on the table")
        self.setModal(True)
        self.point: Point | None = None
        self.inches: float | None = None
        self._table = table
        layout = QVBoxLayout(self)
        where = (f"Inches from the table's top-left corner (the table is {table[0]:g}\" x {table[1]:g}\").")
        intro = QLabel(f"How far apart are the two points on the table, and where is the first one? {where}"
                       if measured else f"Where is this point on the table? {where}")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.distance: QLineEdit | None = None
        if measured:
            self.distance = QLineEdit()
            self.distance.setObjectName("backdrop-inches")
            self.distance.setPlaceholderText("inches, such as 24")
            form.addRow("Distance &between them:", self.distance)
        self.across = QLineEdit(f"{prefill[0]:g}")
        self.across.setObjectName("backdrop-across")
        self.down = QLineEdit(f"{prefill[1]:g}")
        self.down.setObjectName("backdrop-down")
        form.addRow("First point &across (x):" if measured else "&Across (x):", self.across)
        form.addRow("First point &down (y):" if measured else "&Down (y):", self.down)
        layout.addLayout(form)
        self.refusal = RefusalBanner(self)
        layout.addWidget(self.refusal)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        first = self.distance if self.distance is not None else self.across
        first.selectAll()
        first.setFocus()

    def _accept(self) -> None:
        if self.distance is not None:
            self.inches = _inches(self.distance.text())
            if self.inches is None:
                self.refusal.show_refusal("Type the distance between the two points in inches, such as 24 or 12.5.")
                grow_to_show(self)
                return
            try:
                check_measured(self.inches)   # refused here, the two clicks on the map are kept for another try
            except PlacementError as exc:
                self.refusal.show_refusal(str(exc))
                grow_to_show(self)
                return
        x, y = _inches(self.across.text()), _inches(self.down.text())
        if x is None or y is None:
            field = "across" if x is None else "down"
            self.refusal.show_refusal(f"Type the distance {field} in inches, such as 36 or 12.5.")
            grow_to_show(self)  # taller by the refusal's lines, so neither it nor the question is cut off
            return
        self.point = (x, y)
        self.accept()


class BackdropDialog(QDialog):
    """Load, place, fade, hide and remove the table's picture; every change one undo step."""

    def __init__(self, host: FeatureHost) -> None:
        super().__init__(host.window())
        self.host = host
        self.session = host.session
        self.setWindowTitle("Table Picture")
        self.setObjectName("dialog-table-picture")
        layout = QVBoxLayout(self)
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.PlainText)  # names the picture's file
        self.summary.setWordWrap(True)
        self.summary.setMinimumWidth(360)
        layout.addWidget(self.summary)
        row = QHBoxLayout()
        self.load_button = QPushButton("&Load Picture...")
        self.load_button.setToolTip("A photo of your table or a scenario map (PNG or JPEG)")
        self.load_button.clicked.connect(self.choose_file)
        self.place_button = QPushButton("&Place by Two Points...")
        self.place_button.setToolTip("Click two points you know on the picture (two table corners, say) "
                                     "and type where they are on the table")
        self.place_button.clicked.connect(lambda: self.start_placing())
        self.measure_button = QPushButton("Place by a &Measured Distance...")
        self.measure_button.setToolTip("Click the two ends of something you measured on the table (a wall, a "
                                       "ruler laid on it), then type that distance and where the first end is")
        self.measure_button.clicked.connect(lambda: self.start_placing(measured=True))
        self.remove_button = QPushButton("&Remove")
        self.remove_button.clicked.connect(lambda: self._act("backdrop.remove", {}))
        for button in (self.load_button, self.remove_button):
            row.addWidget(button)
        layout.addLayout(row)
        placing = QHBoxLayout()
        for button in (self.place_button, self.measure_button):
            placing.addWidget(button)
        layout.addLayout(placing)
        form = QFormLayout()
        opacity_row = QHBoxLayout()
        self.opacity = QSlider(Qt.Orientation.Horizontal)
        self.opacity.setRange(0, 100)
        self.opacity.setSingleStep(5)
        self.opacity.setPageStep(10)
        self.opacity.setTracking(False)
        self.opacity.sliderMoved.connect(self._preview_opacity)
        self.opacity.valueChanged.connect(self._set_opacity)
        self.opacity_label = QLabel("100%")
        self.opacity_label.setMinimumWidth(self.opacity_label.fontMetrics().horizontalAdvance("100%") + 4)
        opacity_row.addWidget(self.opacity, 1)
        opacity_row.addWidget(self.opacity_label)
        opacity_name = QLabel("&Opacity:")
        opacity_name.setBuddy(self.opacity)
        form.addRow(opacity_name, opacity_row)
        self.show_box = QCheckBox("&Show the picture under the map")
        self.show_box.toggled.connect(lambda on: self._act("backdrop.show", {"visible": on}))
        form.addRow(self.show_box)
        layout.addLayout(form)
        self.refusal = RefusalBanner(self)
        layout.addWidget(self.refusal)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout.addWidget(buttons)
        self._points: list[tuple[Point, Point]] = []
        self._fit: Placement | None = None
        self._measuring = False
        self.point_dialog: TablePointDialog | None = None
        self.session.changed.connect(self._on_changed)
        self.refresh()

    # -- following the game -------------------------------------------------------------
    def _on_changed(self, changes: Changes) -> None:
        if changes.backdrop or changes.everything:
            self.refresh()

    def refresh(self) -> None:
        b = self.session.game.backdrop
        has = b is not None
        for widget in (self.place_button, self.measure_button, self.remove_button, self.opacity, self.show_box):
            widget.setEnabled(has)
        self.load_button.setText("&Replace Picture..." if has else "&Load Picture...")
        if b is None:
            self.summary.setText("No picture. Load a photo of your table or a scenario map: it lies under the "
                                 "grid and the units, and you place it by two points you know, such as two "
                                 "table corners.")
            return
        turned = min(b.rotation, 360.0 - b.rotation)
        turn = f", turned {b.rotation:.0f}°" if turned >= 0.5 else ""
        damaged = self.host.map.map_scene.backdrop.damaged
        self.summary.setText(
            f"{b.name or 'Picture'}: {b.width} x {b.height} pixels, covering {b.width * b.scale:.1f}\" x "
            f"{b.height * b.scale:.1f}\"{turn}." + (" Its file is damaged and cannot be drawn." if damaged else ""))
        for widget, value in ((self.opacity, round(b.opacity * 100)), (self.show_box, b.visible)):
            widget.blockSignals(True)
            if isinstance(widget, QSlider):
                widget.setValue(int(value))
            else:
                widget.setChecked(bool(value))
            widget.blockSignals(False)
        self.opacity_label.setText(f"{round(b.opacity * 100)}%")

    def _act(self, name: str, choices: Choices) -> bool:
        self.refusal.clear()
        try:
            self.session.act(name, choices)
        except (RulesInputError, GameError) as exc:
            self.refusal.show_refusal(message_of(exc))
            self.refresh()
            grow_to_show(self)
            return False
        return True

    # -- loading ----------------------------------------------------------------------------
    def choose_file(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Load a table picture", str(Path.home()), PICTURE_FILTER)
        if name:
            self.load_file(Path(name))

    def load_file(self, path: Path) -> bool:
        """Load the picture at `path` (replacing any): one undo step, or a refusal shown and nothing changed."""
        self.refusal.clear()
        try:
            data = read_picture(path)
        except PictureError as exc:
            self.refusal.show_refusal(str(exc))
            grow_to_show(self)
            return False
        if self._act("backdrop.set", {"image": picture_text(data), "name": path.name}):
            self.host.show_status(f"Table picture {path.name} loaded: place it by two points you know.")
            return True
        return False

    # -- opacity -----------------------------------------------------------------------------
    def _preview_opacity(self, value: int) -> None:
        self.opacity_label.setText(f"{value}%")
        self.host.map.map_scene.backdrop.item.setOpacity(value / 100.0)

    def _set_opacity(self, value: int) -> None:
        b = self.session.game.backdrop
        if b is not None and value != round(b.opacity * 100):
            self._act("backdrop.opacity", {"opacity": value / 100.0})

    # -- placing -------------------------------------------------------------------------------
    @property
    def placing(self) -> bool:
        return self._fit is not None

    def start_placing(self, measured: bool = False) -> None:
        """Show the picture whole over the table and ask for the first of two points: one the player knows on
        the table, or (`measured`) one end of a distance they measured on it."""
        b = self.session.game.backdrop
        if b is None:
            return
        self.refusal.clear()
        game = self.session.game
        self._fit = fit_to_table(b.width, b.height, game.table_width, game.table_height)
        self._points = []
        self._measuring = measured
        self.host.map.map_scene.backdrop.preview(self._fit)
        self.hide()  # out of the way until both points are placed
        self.host.map.pick_point(self._picked, "Click one end of what you measured on the picture" if measured
                                 else "Click a point you know on the picture, such as a table corner")

    def _picked(self, where: tuple[float, float] | None) -> None:
        if where is None or self._fit is None:
            self._cancel_placing()
            return
        b = self.session.game.backdrop
        u, v = self._fit.to_picture(where)
        if b is None or not (0.0 <= u <= b.width and 0.0 <= v <= b.height):
            self.host.map.pick_point(self._picked, "That point is off the picture: click a point on the picture")
            return
        game = self.session.game
        size = (game.table_width, game.table_height)
        if self._measuring:
            self._picked_end(b.placement, where, size)
            return
        prefill = nearest_corner(where, *size)
        if self._points and distance(prefill, self._points[0][1]) < 1e-9:
            corners = [(0.0, 0.0), (size[0], 0.0), (0.0, size[1]), size]
            prefill = min((c for c in corners if c != self._points[0][1]), key=lambda c: distance(c, where))
        which = "First" if not self._points else "Second"
        self.host.map.set_overlay(OVERLAY, [*self._marks(), circle_item(where, 0.6, QColor("#e53935"), 120)])
        dialog = TablePointDialog(which, prefill, size, self.host.window())
        self.point_dialog = dialog
        dialog.finished.connect(lambda result: self._typed(dialog, where, result))
        dialog.open()
        self._clear_of(dialog, where)

    def _picked_end(self, placed: Placement, where: Point, size: tuple[float, float]) -> None:
        """An end of the measured distance: after the second, ask the distance and the first end's place."""
        assert self._fit is not None
        self.host.map.set_overlay(OVERLAY, [*self._marks(), circle_item(where, 0.6, QColor("#e53935"), 120)])
        if not self._points:
            self._points.append((self._fit.to_picture(where), where))
            self.host.map.pick_point(self._picked, "Click the other end of what you measured")
            return
        first = placed.to_table(self._points[0][0])     # where the picture puts it now, to the half inch
        prefill = (round(first[0] * 2.0) / 2.0, round(first[1] * 2.0) / 2.0)
        dialog = TablePointDialog("First", prefill, size, self.host.window(), measured=True)
        self.point_dialog = dialog
        dialog.finished.connect(lambda result: self._typed_distance(dialog, where, result))
        dialog.open()
        self._clear_of(dialog, where)

    def _typed_distance(self, dialog: TablePointDialog, where: Point, result: int) -> None:
        self.point_dialog = None
        dialog.deleteLater()
        if (result != QDialog.DialogCode.Accepted or dialog.point is None or dialog.inches is None
                or self._fit is None or not self._points):
            self._cancel_placing()
            return
        p1, p2 = self._points[0][0], self._fit.to_picture(where)
        self._end_placing()
        choices = {"px1": p1[0], "py1": p1[1], "px2": p2[0], "py2": p2[1], "inches": dialog.inches,
                   "x1": dialog.point[0], "y1": dialog.point[1]}
        if self._act("backdrop.measure", choices):
            self.host.show_status("Table picture placed: the grid and the units now lie over it as on the table.")

    def _clear_of(self, dialog: QDialog, where: Point) -> None:
        """Move `dialog` to the half of the map away from the point clicked, so the point stays in sight."""
        view = self.host.map
        clicked = view.mapFromScene(QPointF(*where))
        area = view.viewport().rect()
        x = area.left() + 16 if clicked.x() > area.center().x() else area.right() - dialog.width() - 16
        y = area.top() + 16 if clicked.y() > area.center().y() else area.bottom() - dialog.height() - 16
        dialog.move(view.viewport().mapToGlobal(QPoint(max(area.left(), x), max(area.top(), y))))

    def _marks(self) -> list[QGraphicsItem]:
        assert self._fit is not None
        return [circle_item(self._fit.to_table(pixel), 0.6, QColor("#e53935"), 120) for pixel, _ in self._points]

    def _typed(self, dialog: TablePointDialog, where: Point, result: int) -> None:
        self.point_dialog = None
        dialog.deleteLater()
        if result != QDialog.DialogCode.Accepted or dialog.point is None or self._fit is None:
            self._cancel_placing()
            return
        self._points.append((self._fit.to_picture(where), dialog.point))
        if len(self._points) == 1:
            self.host.map.pick_point(self._picked, "Click a second point you know, far from the first")
            return
        (p1, t1), (p2, t2) = self._points
        self._end_placing()
        choices = {"px1": p1[0], "py1": p1[1], "px2": p2[0], "py2": p2[1],
                   "x1": t1[0], "y1": t1[1], "x2": t2[0], "y2": t2[1]}
        if self._act("backdrop.place", choices):
            self.host.show_status("Table picture placed: the grid and the units now lie over it as on the table.")

    def _cancel_placing(self) -> None:
        self._end_placing()
        self.host.show_status("Placing the table picture cancelled: nothing was changed.")

    def _end_placing(self) -> None:
        self._fit = None
        self._points = []
        self.host.map.clear_overlay(OVERLAY)
        game = self.session.game
        self.host.map.map_scene.backdrop.sync(game.backdrop, self.host.map.map_scene.table_rect())
        self.show()


def install(host: FeatureHost) -> None:
    dialog: list[BackdropDialog] = []

    def open_dialog() -> None:
        if not dialog:
            dialog.append(BackdropDialog(host))
        dialog[0].refresh()
        if dialog[0].isVisible():
            dialog[0].raise_()
            dialog[0].activateWindow()
        else:
            dialog[0].show()

    entry = QAction("Table &Picture...", host.window())
    entry.setObjectName("action-table-picture")
    entry.setStatusTip("Load a photo of your table or a scenario map under the map, and place it by two points")
    entry.triggered.connect(open_dialog)
    view = host.menu("view")
    view.addSeparator()
    view.addAction(entry)

    def warn_damaged(changes: Changes) -> None:
        if (changes.backdrop or changes.everything) and host.map.map_scene.backdrop.damaged:
            host.show_status("The table picture's file is damaged and cannot be drawn: load it again.", 0)

    host.session.changed.connect(warn_damaged)


FEATURE = Feature("table.picture", window_extensions=(install,), menu_order=1)

__all__ = ["FEATURE", "BackdropDialog", "PictureError", "TablePointDialog", "read_picture"]
