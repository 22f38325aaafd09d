"""The map view: the table seen from above, and every gesture on it.

The view never writes to the game. A drag, a turn with the handle or a burst
of Shift+wheel notches is shown on the token while it happens and becomes one
`MoveUnit` through `session.apply` when it ends, so each gesture is one undo
step. Dialogs borrow the map through `pick_point` / `pick_unit` (click to
choose, Esc to cancel) and draw their own items with `set_overlay`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from enum import Enum
from enum import auto
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent
from PySide6.QtCore import QPoint
from PySide6.QtCore import QPointF
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtGui import QColor
from PySide6.QtGui import QFocusEvent
from PySide6.QtGui import QHelpEvent
from PySide6.QtGui import QKeyEvent
from PySide6.QtGui import QKeySequence
from PySide6.QtGui import QMouseEvent
from PySide6.QtGui import QPainter
from PySide6.QtGui import QResizeEvent
from PySide6.QtGui import QShowEvent
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QGraphicsItem
from PySide6.QtWidgets import QGraphicsView
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QToolTip
from PySide6.QtWidgets import QWidget

from battletracker.core.geometry import Point
from battletracker.core.geometry import angle_between
from battletracker.core.geometry import bearing
from battletracker.core.geometry import direction
from battletracker.core.geometry import distance
from battletracker.core.geometry import offset
from battletracker.model.changes import Changes
from battletracker.model.game import GameError
from battletracker.model.game import Unit
from battletracker.rules import ChoiceNeeded
from battletracker.rules import RulesInputError
from battletracker.rules.base import message_of
from battletracker.rules.places import compass
from battletracker.rules.places import place_words
from battletracker.rules.targets import sighting
from battletracker.ui.fit import StepAside
from battletracker.ui.map.items import MeasureItem
from battletracker.ui.map.items import RotationHandle
from battletracker.ui.map.items import UnitToken
from battletracker.ui.map.palette import MapPalette
from battletracker.ui.map.scene import MARGIN
from battletracker.ui.map.scene import MapScene
from battletracker.ui.map.terrain_tools import TerrainTools
from battletracker.ui.session import Session
from battletracker.ui.text import esc
from battletracker.ui.text import ruler_inches

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMenu

    from battletracker.rules.actions import Choices

# Degrees per wheel notch when turning with Shift+wheel, and how long a pause ends the gesture.
WHEEL_STEP = 5.0
WHEEL_COMMIT_MS = 600
SNAP_DEGREES = 15.0
LABEL_SETTLE_MS = 80
ZOOM_STEP = 1.25          # one press of Ctrl+= or Ctrl+-
MIN_SCALE = 3.0           # pixels per inch
MAX_SCALE = 240.0
HANDLE_GAP_PX = 18.0      # from the front of the token to the rotation handle

MEASURE_TIP = ("Measure (M): drag on the table to read the distance in inches.\n"
               "Right-drag measures at any time; starting or ending on a unit measures from its centre.")
MAP_TIP = ("Drag a unit to move it; drag the round handle or Shift+wheel over it to turn it.\n"
           "Wheel zooms, middle-drag or Space+drag pans, right-drag measures.")


class _Gesture(Enum):
    NONE = auto()
    PRESS = auto()      # left button down on a token, not yet a drag
    DRAG = auto()
    ROTATE = auto()
    MEASURE = auto()
    PAN = auto()


class MapView(QGraphicsView):
    """The top-down table: tokens, the selection's arc and rings, markers and the ruler."""

    unit_activated = Signal(str)                 # double-click on a token
    context_requested = Signal(object, QPoint)   # right-click without a drag: unit id or None, global position
    measure_mode_changed = Signal(bool)
    refused = Signal(str)                        # a gesture the game refused (the token goes back)

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # The viewport Qt would make, made here: PySide6 spends milliseconds the first
        # time it hands Python a widget Qt made, which the first paint need not wait for.
        self.setViewport(QWidget())
        self.session = session
        self.choice_menu: QMenu | None = None  # the menu of a choice the rules need for a gesture, while open
        self._palette = MapPalette.from_qpalette(self.palette())
        self.map_scene = MapScene(session, self._palette, self.font(), self)
        self.setScene(self.map_scene)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.MinimalViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QGraphicsView.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setMinimumSize(240, 160)
        self.setStatusTip(MAP_TIP.replace("\n", " "))

        self.handle = RotationHandle(self._palette)
        self.handle.hide()
        self.map_scene.addItem(self.handle)
        self.measure_item = MeasureItem(self._palette, self.map_scene.label_font)
        self.measure_item.hide()
        self.map_scene.addItem(self.measure_item)
        self.readout = MeasureItem(self._palette, self.map_scene.label_font, label_at_middle=True)
        self.readout.hide()
        self.map_scene.addItem(self.readout)

        self._fit_mode = True
        self._measure_mode = False
        self._gesture = _Gesture.NONE
        self._press_pos = QPoint()
        self._last_pos = QPoint()
        self._press_button = Qt.MouseButton.NoButton
        self._token: UnitToken | None = None
        self._start: Point = (0.0, 0.0)
        self._origin: Point = (0.0, 0.0)
        self._measure_from: Point = (0.0, 0.0)
        self._measure_from_unit: str | None = None
        self.measured_distance: float | None = None
        self._space = False
        self._wheel_token: UnitToken | None = None
        self._wheel_degrees = 0.0
        self._wheel_timer = QTimer(self)
        self._wheel_timer.setSingleShot(True)
        self._wheel_timer.setInterval(WHEEL_COMMIT_MS)
        self._wheel_timer.timeout.connect(self.commit_wheel_rotation)
        self._pick: tuple[str, Callable[[object], None], str] | None = None
        self._aside = StepAside()
        # Names and badges are placed again for the new zoom once the wheel rests,
        # not on every notch (with hundreds of units a placement costs a frame or two).
        self._label_timer = QTimer(self)
        self._label_timer.setSingleShot(True)
        self._label_timer.setInterval(LABEL_SETTLE_MS)
        self._label_timer.timeout.connect(lambda: self.map_scene.layout_labels(self.scale_factor))
        self.banner = QLabel(self)
        self.banner.setTextFormat(Qt.TextFormat.PlainText)  # prompts name units and buildings
        self.banner.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.banner.hide()
        self._style_banner()

        self.fit_action = QAction("Fit Table", self)
        self.fit_action.setShortcut(QKeySequence("Ctrl+0"))
        self.fit_action.setToolTip("Fit the whole table in the map (Ctrl+0)")
        self.fit_action.triggered.connect(self.fit_table)
        self.zoom_in_action = QAction("Zoom &In", self)
        self.zoom_in_action.setShortcuts([QKeySequence("Ctrl+="), QKeySequence("Ctrl++")])
        self.zoom_in_action.setToolTip("Zoom in on the middle of the map (Ctrl+=)")
        self.zoom_in_action.triggered.connect(lambda: self.zoom_by(ZOOM_STEP))
        self.zoom_out_action = QAction("Zoom &Out", self)
        self.zoom_out_action.setShortcut(QKeySequence("Ctrl+-"))
        self.zoom_out_action.setToolTip("Zoom out (Ctrl+-)")
        self.zoom_out_action.triggered.connect(lambda: self.zoom_by(1.0 / ZOOM_STEP))
        self.measure_action = QAction("Measure", self)
        self.measure_action.setCheckable(True)
        self.measure_action.setShortcut(QKeySequence("M"))
        self.measure_action.setToolTip(MEASURE_TIP)
        self.measure_action.toggled.connect(self.set_measure_mode)
        # The actions are for a window's menus and toolbar (their shortcuts work once they are
        # added there); the view itself answers M, Ctrl+0 and Ctrl+=/- in keyPressEvent, which a window
        # shortcut takes over without an ambiguous-shortcut clash.

        session.changed.connect(self._on_changed)
        session.game_replaced.connect(self._on_game_replaced)
        session.selection_changed.connect(self._on_selection_changed)
        self.terrain_tools = TerrainTools(self)
        self.measure_mode_changed.connect(self._measure_ends_sight)
        self._place_handle()

    # -- public API ----------------------------------------------------------------------
    @property
    def scale_factor(self) -> float:
        """Pixels per inch at the current zoom."""
        return self.transform().m11()

    def token(self, unit_id: str) -> UnitToken | None:
        return self.map_scene.tokens.get(unit_id)

    def fit_table(self) -> None:
        """Show the whole table with its edge labels."""
        self._fit_mode = True
        rect = self.map_scene.table_rect().adjusted(-MARGIN * 0.8, -MARGIN * 0.8, MARGIN * 0.5, MARGIN * 0.5)
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        self._label_timer.start()
        self._place_handle()

    def zoom_by(self, factor: float, anchor: QPoint | None = None) -> None:
        """Zoom keeping the table point under `anchor` (viewport pixels) where it is."""
        target = max(min(self.scale_factor * factor, MAX_SCALE), self._min_scale())
        factor = target / self.scale_factor
        if abs(factor - 1.0) < 1e-6:
            return
        self._fit_mode = False
        if anchor is None:
            anchor = self.viewport().rect().center()
        before = self.mapToScene(anchor)
        self.scale(factor, factor)
        self._scroll_by_scene(before - self.mapToScene(anchor))
        self._label_timer.start()
        self._place_handle()

    @property
    def measure_mode(self) -> bool:
        return self._measure_mode

    def set_measure_mode(self, on: bool) -> None:
        """Left-drag measures instead of selecting and moving (right-drag always measures)."""
        if on == self._measure_mode:
            return
        self._measure_mode = on
        self.measure_action.setChecked(on)
        self.viewport().setCursor(Qt.CursorShape.CrossCursor if on else Qt.CursorShape.ArrowCursor)
        if not on:
            self.clear_measure()
        self.measure_mode_changed.emit(on)

    def clear_measure(self) -> None:
        self.measure_item.hide()
        self.measured_distance = None

    def set_overlay(self, key: str, items: list[QGraphicsItem]) -> None:
        """Show a procedure's own items (scene items in inches) under `key`, replacing earlier ones."""
        self.map_scene.set_overlay(key, items)

    def clear_overlay(self, key: str) -> None:
        self.map_scene.clear_overlay(key)

    def pick_point(self, callback: Callable[[tuple[float, float] | None], None],
                   prompt: str = "Click a point on the table") -> None:
        """Ask the player for a point on the table; `callback((x, y))`, or `callback(None)` on Esc."""
        self._start_pick("point", callback, prompt)  # type: ignore[arg-type]

    def pick_unit(self, callback: Callable[[str | None], None], prompt: str = "Click a unit") -> None:
        """Ask the player for a unit; `callback(unit_id)`, or `callback(None)` on Esc."""
        self._start_pick("unit", callback, prompt)  # type: ignore[arg-type]

    @property
    def picking(self) -> bool:
        return self._pick is not None

    def cancel_pick(self) -> None:
        self._finish_pick(None)

    def _measure_ends_sight(self, on: bool) -> None:
        if on:
            self.terrain_tools.set_sight_mode(False)
            self.terrain_tools.cancel_drawing()

    # for the terrain tools (terrain_tools.py), which take mouse and key events first
    def token_at(self, pos: QPoint) -> UnitToken | None:
        return self._token_at(pos)

    def scene_point(self, pos: QPoint) -> Point:
        return self._scene_point(pos)

    def clamp(self, p: Point) -> Point:
        return self._clamp(p)

    def on_handle(self, pos: QPoint) -> bool:
        return self._on_handle(pos)

    def show_banner(self, text: str) -> None:
        """A prompt at the bottom of the map until `hide_banner`."""
        self.banner.setText(text)
        self._place_banner()
        self.banner.show()
        self.banner.raise_()

    def hide_banner(self) -> None:
        self.banner.hide()

    # -- following the session ------------------------------------------------------------------
    def _on_changed(self, changes: Changes) -> None:
        if self._gesture in (_Gesture.DRAG, _Gesture.ROTATE, _Gesture.PRESS) and self._token is not None \
                and changes.unit(self._token.unit_id):
            self._abort_gesture()
        if self._wheel_token is not None and changes.unit(self._wheel_token.unit_id):
            self._wheel_timer.stop()
            self._wheel_token = None
            self._wheel_degrees = 0.0
        self.map_scene.apply_changes(changes)
        if changes.everything and self._fit_mode:
            self.fit_table()
        self._place_handle()

    def _on_game_replaced(self) -> None:
        self._abort_gesture()
        self.terrain_tools.reset()
        self.cancel_pick()
        self.clear_measure()
        self._wheel_timer.stop()
        self._wheel_token = None
        for key in list(self.map_scene.overlays):
            self.clear_overlay(key)
        self._fit_mode = True

    def _on_selection_changed(self, unit_id: object) -> None:
        self.map_scene.refresh_selection()
        self._place_handle()
        token = self.token(unit_id) if isinstance(unit_id, str) else None
        if token is not None and self._gesture is _Gesture.NONE:
            self.ensureVisible(token, 40, 40)

    def _place_handle(self) -> None:
        selected = self.session.selected
        token = self.token(selected) if selected is not None else None
        if token is None or token.destroyed:
            self.handle.hide()
            return
        gap = (HANDLE_GAP_PX + RotationHandle.RADIUS) / max(self.scale_factor, 1e-6)
        at = offset((token.x(), token.y()), token.shown_facing, token.reach() + gap)
        self.handle.setPos(*at)
        back = direction(token.shown_facing + 180.0)
        self.handle.set_stem(QPointF(back[0] * HANDLE_GAP_PX, back[1] * HANDLE_GAP_PX))
        self.handle.show()

    # -- painting -----------------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._palette = MapPalette.from_qpalette(self.palette())
            self.map_scene.set_palette(self._palette, self.font())
            self.handle.set_palette(self._palette)
            for item in (self.measure_item, self.readout, self.terrain_tools.ruler):
                item.set_palette(self._palette, self.map_scene.label_font)
            self._style_banner()
            self.viewport().update()
        super().changeEvent(event)

    def _style_banner(self) -> None:
        p = self._palette
        self.banner.setFont(self.map_scene.label_font)
        self.banner.setStyleSheet(
            f"QLabel {{ color: {p.banner_text.name()}; background: {p.banner_back.name(QColor.NameFormat.HexArgb)};"
            " border-radius: 11px; padding: 4px 14px; }")

    def _place_banner(self) -> None:
        """The pick prompt, centred at the bottom of the map (a widget, so scrolling cannot smear it); one line
        when it fits the map, else wrapped to its width (a drawing's refusal says what to fix at length)."""
        vp = self.viewport().geometry()
        room = max(vp.width() - 24, 160)
        self.banner.setWordWrap(False)
        self.banner.adjustSize()
        if self.banner.width() > room:
            self.banner.setWordWrap(True)
            self.banner.resize(room, self.banner.heightForWidth(room))
        self.banner.move(vp.x() + (vp.width() - self.banner.width()) // 2,
                         vp.y() + vp.height() - self.banner.height() - 12)

    # -- geometry helpers --------------------------------------------------------------------------
    def _min_scale(self) -> float:
        table = self.map_scene.table_rect()
        if table.isEmpty():
            return MIN_SCALE
        fit = min(self.viewport().width() / table.width(), self.viewport().height() / table.height())
        return max(MIN_SCALE, min(fit * 0.6, 10.0))

    def _scroll_by_scene(self, delta: QPointF) -> None:
        s = self.scale_factor
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + round(delta.x() * s))
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + round(delta.y() * s))

    def _scene_point(self, pos: QPoint) -> Point:
        p = self.mapToScene(pos)
        return (p.x(), p.y())

    def _token_at(self, pos: QPoint) -> UnitToken | None:
        """The token drawn under a viewport point: its body or its name label."""
        x, y = self._scene_point(pos)
        for item in self.items(pos):
            if isinstance(item, UnitToken):
                if item.contains_point(x, y):
                    return item
            elif isinstance(parent := item.parentItem(), UnitToken) and (
                    item is not parent.body or parent.contains_point(x, y)):
                return parent
        return None

    def _on_handle(self, pos: QPoint) -> bool:
        return self.handle.isVisible() and self.handle in self.items(pos)

    def _clamp(self, p: Point) -> Point:
        table = self.map_scene.table_rect()
        return (min(max(p[0], 0.0), table.width()), min(max(p[1], 0.0), table.height()))

    def _unit(self, token: UnitToken) -> Unit | None:
        return self.session.game.units.get(token.unit_id)

    # -- mouse ----------------------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        button = event.button()
        self._press_pos = self._last_pos = pos
        self._press_button = button
        if self._pick is not None:
            self._pick_click(pos, button)
            event.accept()
            return
        self.commit_wheel_rotation()
        if self._gesture is not _Gesture.NONE:
            event.accept()
            return
        if not self._space and not self._measure_mode and self.terrain_tools.press(pos, button):
            event.accept()
            return
        if button == Qt.MouseButton.MiddleButton or (button == Qt.MouseButton.LeftButton and self._space):
            self._gesture = _Gesture.PAN
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
        elif button == Qt.MouseButton.RightButton or (button == Qt.MouseButton.LeftButton and self._measure_mode):
            self._begin_measure(pos)
        elif button == Qt.MouseButton.LeftButton:
            if self._on_handle(pos):
                token = self.token(self.session.selected or "")
                if token is not None:
                    self._token = token
                    self._gesture = _Gesture.ROTATE
            else:
                token = self._token_at(pos)
                if token is not None:
                    self._token = token
                    self._origin = (token.x(), token.y())
                    self._start = self._scene_point(pos)
                    self._gesture = _Gesture.PRESS
                self.session.select(token.unit_id if token is not None else None)
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        if self._gesture is _Gesture.NONE and self.terrain_tools.move(pos):
            self._last_pos = pos
            event.accept()
            return
        g = self._gesture
        if g is _Gesture.PAN:
            delta = pos - self._last_pos
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())
            self._fit_mode = False
        elif g is _Gesture.MEASURE:
            self._update_measure(pos, final=False)
        elif g is _Gesture.PRESS:
            if (pos - self._press_pos).manhattanLength() >= QApplication.startDragDistance():
                self._gesture = _Gesture.DRAG
                self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
                self._drag_to(pos)
        elif g is _Gesture.DRAG:
            self._drag_to(pos)
        elif g is _Gesture.ROTATE:
            self._rotate_to(pos, event.modifiers())
        else:
            self._hover(pos)
        self._last_pos = pos
        event.accept()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        if event.button() != self._press_button:
            event.accept()
            return
        if self._gesture is _Gesture.NONE and self.terrain_tools.release(pos):
            self._press_button = Qt.MouseButton.NoButton
            self._hover(pos)
            event.accept()
            return
        g = self._gesture
        self._gesture = _Gesture.NONE
        if g is _Gesture.DRAG:
            self._commit_drag(pos)
        elif g is _Gesture.ROTATE:
            self._commit_rotation()
        elif g is _Gesture.MEASURE:
            moved = (pos - self._press_pos).manhattanLength() >= QApplication.startDragDistance()
            if moved:
                self._update_measure(pos, final=True)
            else:
                self.clear_measure()
                if event.button() == Qt.MouseButton.RightButton:
                    token = self._token_at(pos)
                    if token is None and self.terrain_tools.context_menu(pos):
                        event.accept()
                        return
                    self.context_requested.emit(token.unit_id if token else None,
                                                self.viewport().mapToGlobal(pos))
        self._token = None
        self._press_button = Qt.MouseButton.NoButton
        self._hover(pos)
        event.accept()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if self._pick is None and self.terrain_tools.double_click(event.position().toPoint(), event.button()):
            event.accept()
            return
        if self._pick is None and event.button() == Qt.MouseButton.LeftButton and not self._measure_mode:
            token = self._token_at(event.position().toPoint())
            if token is not None:
                self.unit_activated.emit(token.unit_id)
                event.accept()
                return
        self.mousePressEvent(event)

    def _hover(self, pos: QPoint) -> None:
        if self._pick is not None or self._measure_mode or self.terrain_tools.busy:
            cursor = Qt.CursorShape.CrossCursor
        elif self._space:
            cursor = Qt.CursorShape.OpenHandCursor
        elif self._on_handle(pos):
            cursor = Qt.CursorShape.SizeAllCursor
        elif self._token_at(pos) is not None or self.terrain_tools.piece_under(pos) is not None:
            cursor = Qt.CursorShape.OpenHandCursor
        else:
            cursor = Qt.CursorShape.ArrowCursor
        if self.viewport().cursor().shape() != cursor:
            self.viewport().setCursor(cursor)

    # -- moving ------------------------------------------------------------------------------------------
    def _drag_to(self, pos: QPoint) -> None:
        token = self._token
        if token is None:
            return
        p = self._scene_point(pos)
        at = self._clamp((self._origin[0] + p[0] - self._start[0], self._origin[1] + p[1] - self._start[1]))
        token.setPos(*at)
        moved = distance(self._origin, at)
        self.readout.set_line(self._origin, at, ruler_inches(moved))
        self.readout.show()
        self._preview(token, at, token.shown_facing)

    def _commit_drag(self, pos: QPoint) -> None:
        token = self._token
        if token is None:
            self.readout.hide()
            return
        self._drag_to(pos)
        self.readout.hide()  # after the drag's last step, which draws it: the move line ends with the drag
        unit = self._unit(token)
        if unit is None:
            return
        at = (token.x(), token.y())
        moved = distance((unit.x, unit.y), at)
        if moved < 1e-9:
            return
        self._act(token, "unit.move", {"unit": unit.id, "x": at[0], "y": at[1]})

    # -- turning -------------------------------------------------------------------------------------------
    def _rotate_to(self, pos: QPoint, modifiers: Qt.KeyboardModifier) -> None:
        token = self._token
        if token is None:
            return
        centre = (token.x(), token.y())
        p = self._scene_point(pos)
        if distance(centre, p) < 1e-6:
            return
        facing = bearing(centre, p)
        snap = SNAP_DEGREES if modifiers & Qt.KeyboardModifier.ControlModifier else 1.0
        facing = (round(facing / snap) * snap) % 360.0
        token.set_preview_facing(facing)
        self.readout.set_line(centre, offset(centre, facing, token.reach() + 2.0), f"{facing:.0f}°")
        self.readout.show()
        self._preview(token, centre, facing)

    def _commit_rotation(self) -> None:
        self.readout.hide()
        token = self._token
        if token is None or token.preview_facing is None:
            return
        self._commit_facing(token, token.preview_facing)

    def _commit_facing(self, token: UnitToken, facing: float) -> None:
        unit = self._unit(token)
        if unit is None:
            return
        turned = angle_between(unit.facing, facing)
        if turned < 1e-9:
            token.set_preview_facing(None)
            self.map_scene.refresh_selection()
            self._place_handle()
            return
        self._act(token, "unit.turn", {"unit": unit.id, "facing": facing})

    def wheelEvent(self, event: QWheelEvent) -> None:
        delta = event.angleDelta().y() or event.angleDelta().x()
        if not delta:
            event.accept()
            return
        pos = event.position().toPoint()
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier and self._pick is None:
            token = self._token_at(pos) or self.token(self.session.selected or "")
            if token is not None and self._gesture is _Gesture.NONE:
                self._wheel_turn(token, delta)
            event.accept()
            return
        self.zoom_by(math.pow(1.2, delta / 120.0), pos)
        event.accept()

    def _wheel_turn(self, token: UnitToken, delta: int) -> None:
        if self._wheel_token is not token:
            self.commit_wheel_rotation()
            self._wheel_token = token
            self._wheel_degrees = 0.0
        self._wheel_degrees += WHEEL_STEP * delta / 120.0
        token.set_preview_facing(round(token.facing + self._wheel_degrees))
        self._preview(token, (token.x(), token.y()), token.shown_facing)
        self._wheel_timer.start()

    def _preview(self, token: UnitToken, at: Point, facing: float) -> None:
        """Follow a gesture in progress: the handle, and the arc and targets if it is the selection."""
        if token.unit_id == self.session.selected:
            self.map_scene.preview_selection(at[0], at[1], facing)
        self._place_handle()

    def commit_wheel_rotation(self) -> None:
        """End a Shift+wheel turn: one undo step for all its notches."""
        self._wheel_timer.stop()
        token, self._wheel_token = self._wheel_token, None
        self._wheel_degrees = 0.0
        if token is not None and token.preview_facing is not None and token.scene() is self.map_scene:
            self._commit_facing(token, token.preview_facing)

    def _act(self, token: UnitToken, name: str, choices: Choices) -> None:
        try:
            self.session.act(name, choices)
        except ChoiceNeeded as need:
            self._ask(token, name, choices, need)
        except (GameError, RulesInputError) as exc:
            self._put_back(token)
            self.refused.emit(message_of(exc))

    def _put_back(self, token: UnitToken) -> None:
        unit = self._unit(token)
        if unit is not None:
            token.sync(unit, token.colour, token.vehicle)
        self.map_scene.refresh_selection()
        self._place_handle()

    def _ask(self, token: UnitToken, name: str, choices: Choices, need: ChoiceNeeded) -> None:
        """A choice the rules need for this gesture (how the unit is activated): a menu at the token.

        Picking an option takes the action again with it; closing the menu puts the token back.
        """
        from PySide6.QtWidgets import QMenu

        menu = QMenu(self)
        menu.setObjectName("choice_needed")
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.addSection(need.prompt)
        for value, words in need.options:
            entry = menu.addAction(words[:1].upper() + words[1:])
            entry.setObjectName(f"choice_{value}")
            entry.triggered.connect(lambda _=False, v=value: self._act(token, name, {**choices, need.field: v}))
        menu.aboutToHide.connect(lambda: QTimer.singleShot(0, lambda: self._put_back(token)))
        self.choice_menu = menu
        at = self.mapFromScene(token.scenePos())
        menu.popup(self.viewport().mapToGlobal(at))

    def _abort_gesture(self) -> None:
        """Put a token back where the model has it (Esc, or the unit changed under the gesture)."""
        token = self._token
        if token is not None and self._gesture in (_Gesture.DRAG, _Gesture.ROTATE, _Gesture.PRESS):
            unit = self._unit(token)
            if unit is not None:
                token.sync(unit, token.colour, token.vehicle)
        self._gesture = _Gesture.NONE
        self._token = None
        self.readout.hide()
        self.map_scene.refresh_selection()
        self._place_handle()

    # -- measuring ---------------------------------------------------------------------------------------------
    def _begin_measure(self, pos: QPoint) -> None:
        self._gesture = _Gesture.MEASURE
        token = self._token_at(pos)
        self._measure_from_unit = token.unit_id if token is not None else None
        self._measure_from = (token.x(), token.y()) if token is not None else self._scene_point(pos)
        self.measure_item.hide()

    def _update_measure(self, pos: QPoint, final: bool) -> None:
        end = self._scene_point(pos)
        token = self._token_at(pos)
        if token is not None and token.unit_id != self._measure_from_unit:
            end = (token.x(), token.y())
        d = distance(self._measure_from, end)
        self.measured_distance = d
        self.measure_item.set_line(self._measure_from, end, ruler_inches(d))
        self.measure_item.show()

    # -- picking -------------------------------------------------------------------------------------------------
    def _start_pick(self, kind: str, callback: Callable[[object], None], prompt: str) -> None:
        self.cancel_pick()
        self._abort_gesture()
        self.terrain_tools.cancel_drawing()
        self._pick = (kind, callback, prompt)
        self._aside.step_aside(self.window())
        self.viewport().setCursor(Qt.CursorShape.CrossCursor)
        self.setFocus(Qt.FocusReason.OtherFocusReason)
        self.banner.setText(f"{prompt}  -  Esc cancels")
        self._place_banner()
        self.banner.show()
        self.banner.raise_()

    def _finish_pick(self, value: object) -> None:
        if self._pick is None:
            return
        _, callback, _ = self._pick
        self._pick = None
        self.viewport().setCursor(Qt.CursorShape.CrossCursor if self._measure_mode else Qt.CursorShape.ArrowCursor)
        self.banner.hide()
        try:
            callback(value)
        finally:
            if self._pick is None:
                self._aside.come_back()

    def _pick_click(self, pos: QPoint, button: Qt.MouseButton) -> None:
        assert self._pick is not None
        if button == Qt.MouseButton.RightButton:
            self.cancel_pick()
            return
        if button != Qt.MouseButton.LeftButton:
            return
        if self._pick[0] == "unit":
            token = self._token_at(pos)
            if token is not None:
                self._finish_pick(token.unit_id)
            return
        p = self._scene_point(pos)
        if self.map_scene.table_rect().contains(QPointF(*p)):
            self._finish_pick(p)

    # -- keys ------------------------------------------------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self._pick is None and self.terrain_tools.key(event):
            event.accept()
            return
        key = event.key()
        if key == Qt.Key.Key_Escape:
            if self._pick is not None:
                self.cancel_pick()
            elif self._gesture is not _Gesture.NONE or self._wheel_token is not None:
                self._cancel_wheel()
                self._abort_gesture()
            elif self.measure_item.isVisible():
                self.clear_measure()
            elif self._measure_mode:
                self.set_measure_mode(False)
            event.accept()
            return
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if key == Qt.Key.Key_M and mods == Qt.KeyboardModifier.NoModifier and not event.isAutoRepeat():
            self.set_measure_mode(not self._measure_mode)
            event.accept()
            return
        if key == Qt.Key.Key_0 and mods == Qt.KeyboardModifier.ControlModifier:
            self.fit_table()
            event.accept()
            return
        if key in (Qt.Key.Key_Equal, Qt.Key.Key_Plus, Qt.Key.Key_Minus) \
                and mods & ~Qt.KeyboardModifier.ShiftModifier == Qt.KeyboardModifier.ControlModifier:
            self.zoom_by(1.0 / ZOOM_STEP if key == Qt.Key.Key_Minus else ZOOM_STEP)
            event.accept()
            return
        if key == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.isAutoRepeat():
            super().keyReleaseEvent(event)
            return
        if event.key() == Qt.Key.Key_Space:
            self._space = False
            self._hover(self.viewport().mapFromGlobal(self.cursor().pos()))
            event.accept()
            return
        if event.key() == Qt.Key.Key_Shift:
            self.commit_wheel_rotation()
        super().keyReleaseEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        self._space = False
        self.commit_wheel_rotation()
        super().focusOutEvent(event)

    def _cancel_wheel(self) -> None:
        self._wheel_timer.stop()
        token, self._wheel_token = self._wheel_token, None
        self._wheel_degrees = 0.0
        if token is not None:
            token.set_preview_facing(None)
        self.map_scene.refresh_selection()
        self._place_handle()

    # -- resizing and tooltips ----------------------------------------------------------------------------------------
    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place_banner()
        if self._fit_mode:
            self.fit_table()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._fit_mode:
            self.fit_table()

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            text = self._tooltip_at(event.pos())
            if text:
                QToolTip.showText(event.globalPos(), text, self.viewport())
            else:
                QToolTip.hideText()
            return True
        return super().viewportEvent(event)

    def _tooltip_at(self, pos: QPoint) -> str:
        if self._on_handle(pos):
            return self.handle.toolTip()
        token = self._token_at(pos)
        if token is None:
            return esc(self.terrain_tools.tooltip(pos)).replace("\n", "<br>")
        unit = self._unit(token)
        if unit is None:
            return ""
        game = self.session.game
        side = game.sides[unit.side].name if 0 <= unit.side < len(game.sides) else f"side {unit.side + 1}"
        lines = [f"<b>{esc(unit.name)}</b> - {esc(unit.kind.replace('_', ' '))}, {esc(side)}",
                 f"{esc(place_words(game, (unit.x, unit.y), besides=unit.id))}, facing {compass(unit.facing)} "
                 f"({unit.facing:.0f}°)"]
        if unit.figures_max > 1:
            lines.append(f"{unit.figures}/{unit.figures_max} figures")
        if unit.shock:
            lines.append(f"Shock {unit.shock}")
        conditions = [*unit.conditions, *(unit.vehicle.damage if unit.vehicle else [])]
        if conditions:
            lines.append(esc(", ".join(c.replace("_", " ") for c in conditions)))
        selected = game.units.get(self.session.selected or "")
        if selected is not None and selected.id != unit.id:
            seen = sighting(selected, unit)
            where = f"band {seen.band + 1} (to {seen.reach:g}\")" if seen.band is not None else \
                ("beyond range" if seen.bands else "")
            detail = ", ".join(x for x in (where, "in arc" if seen.in_arc else "outside arc") if x)
            lines.append(esc(f"{ruler_inches(seen.distance)} from {selected.name}: {detail}"))
            reading = self.map_scene.target_marks.reading(unit.id)
            if reading is not None:
                lines.append(esc(reading.sentence()))
        return "<br>".join(lines)


__all__ = ["MapView"]
