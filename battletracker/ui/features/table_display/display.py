"""The table display's window: the map for a TV beside the table, or overlays on black for a projector above it.

It follows the game as the laptop's map does, through a `PublicSession` (the
game without the rules' secrets), so every change reaches it in the same
event-loop turn as the laptop's map:

- *TV*: a `MapScene` of its own (tokens drawn sharp at the TV's size, names as
  large as the display settings say), the bombardments' own layer, the
  laptop's procedure overlays copied item by item, the Line-of-Sight ruler,
  and a strip with the Turn, the Phase, whose Phase it is and the last log line;
- *projector*: black, and the overlays as `shapes.Shape`s mapped onto the
  cloth by the calibration's homography (`core/homography.py`), each stroked
  and mapped once when it changes and drawn into a picture a repaint copies.

The window never takes the keyboard or the mouse: it shows without being
activated, refuses focus, and lets every click through to nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF
from PySide6.QtCore import QRectF
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QFont
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPainterPath
from PySide6.QtGui import QPainterPathStroker
from PySide6.QtGui import QPaintEvent
from PySide6.QtGui import QPen
from PySide6.QtGui import QPixmap
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import QGraphicsEllipseItem
from PySide6.QtWidgets import QGraphicsItem
from PySide6.QtWidgets import QGraphicsLineItem
from PySide6.QtWidgets import QGraphicsPolygonItem
from PySide6.QtWidgets import QGraphicsView
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.core.geometry import Point
from battletracker.core.homography import Homography
from battletracker.core.homography import four_point
from battletracker.core.homography import table_corners
from battletracker.model.changes import Changes
from battletracker.ui.features.table_display import shapes
from battletracker.ui.features.table_display.public import PublicSession
from battletracker.ui.map.bombardments import OVERLAY_KEY as BOMBARDMENTS
from battletracker.ui.map.bombardments import BombardmentLayer
from battletracker.ui.map.items import Z_MEASURE
from battletracker.ui.map.items import circle_item
from battletracker.ui.map.items import cosmetic
from battletracker.ui.map.items import line_item
from battletracker.ui.map.items import polygon_item
from battletracker.ui.map.labels import PixmapLabel
from battletracker.ui.map.palette import MapPalette
from battletracker.ui.map.scene import MARGIN
from battletracker.ui.map.scene import MapScene

if TYPE_CHECKING:
    from battletracker.ui.map.view import MapView
    from battletracker.ui.session import Session

MODES = {"tv": "TV beside the table", "projector": "Projector above the table"}
LAYERS = {"selection": "Arcs and rings", "bombardments": "Bombardments and smoke", "sight": "Line of Sight",
          "procedures": "What a dialog draws (bursts, lines of fire)"}
SIGHT_KEY = "display.sight"
CROSSHAIR = 28.0
"""Pixels from a calibration crosshair's centre to the end of each arm."""


def qt_transform(h: Homography) -> QTransform:
    """The homography as Qt's 3x3 matrix (Qt multiplies row vectors, so the matrix goes across)."""
    m = h.matrix
    return QTransform(m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8])


def fitted_corners(width: float, height: float, pixels: tuple[int, int]) -> list[Point]:
    """Where the table's corners are drawn before any calibration: the table as large as fits, centred."""
    scale = min(pixels[0] / width, pixels[1] / height)
    dx, dy = (pixels[0] - width * scale) / 2.0, (pixels[1] - height * scale) / 2.0
    return [(dx + x * scale, dy + y * scale) for x, y in table_corners(width, height)]


class ProjectorCanvas(QWidget):
    """Black, and bright shapes in table inches mapped onto the projector's pixels."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.transform = QTransform()
        self.shapes: list[shapes.Shape] = []
        self.pattern: list[shapes.Shape] = []
        self.crosshairs: list[Point] = []
        self.active_crosshair = 0
        self._baked: list[tuple[QPainterPath, QColor, bool]] = []
        self._picture: QPixmap | None = None

    def set_mapping(self, h: Homography) -> None:
        self.transform = qt_transform(h)
        self._bake()

    def set_shapes(self, drawn: list[shapes.Shape], pattern: list[shapes.Shape] | None = None) -> None:
        """What to draw (and the check pattern under it, or none)."""
        self.shapes = drawn
        self.pattern = pattern or []
        self._bake()

    def set_crosshairs(self, corners: Sequence[Point], active: int = 0) -> None:
        """The four calibration crosshairs in pixels (none: not calibrating), `active` the one the keys move."""
        self.crosshairs = list(corners)
        self.active_crosshair = active
        self.update()

    def _bake(self) -> None:
        """Each shape's fill and stroke, mapped to pixels: a repaint fills these and does nothing else."""
        baked: list[tuple[QPainterPath, QColor, bool]] = []
        for shape in [*self.pattern, *self.shapes]:
            if shape.fill:
                fill = QColor(shape.colour)
                fill.setAlpha(shape.fill)
                # A filled area's edge lies under its antialiased outline: filling it plain costs a fifth.
                baked.append((self.transform.map(shape.path), fill, shape.width <= 0.0))
            if shape.width > 0.0:
                stroker = QPainterPathStroker()
                stroker.setWidth(shape.width)
                stroker.setCapStyle(Qt.PenCapStyle.RoundCap)
                stroker.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
                if shape.dashed:
                    stroker.setDashPattern([3.0, 2.5])
                baked.append((self.transform.map(stroker.createStroke(shape.path)), QColor(shape.colour), True))
        self._baked = baked
        self._picture = None
        self.update()

    def _draw_picture(self) -> QPixmap:
        """The shapes on black, drawn once per change: a repaint copies it, as the laptop's map copies its felt."""
        dpr = self.devicePixelRatioF()
        picture = QPixmap(round(self.width() * dpr), round(self.height() * dpr))
        picture.setDevicePixelRatio(dpr)
        picture.fill(Qt.GlobalColor.black)
        painter = QPainter(picture)
        for path, colour, smooth in self._baked:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, smooth)
            painter.fillPath(path, colour)
        painter.end()
        return picture

    def paintEvent(self, event: QPaintEvent) -> None:
        picture = self._picture
        if picture is None or picture.deviceIndependentSize().toSize() != self.size():
            picture = self._picture = self._draw_picture()
        painter = QPainter(self)
        exposed = event.rect()
        dpr = picture.devicePixelRatio()
        painter.drawPixmap(QRectF(exposed), picture, QRectF(exposed.x() * dpr, exposed.y() * dpr,
                                                            exposed.width() * dpr, exposed.height() * dpr))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for i, (x, y) in enumerate(self.crosshairs):
            colour = QColor("#ffff00") if i == self.active_crosshair else QColor("#ffffff")
            painter.setPen(QPen(colour, 3.0))
            painter.drawLine(QPointF(x - CROSSHAIR, y), QPointF(x + CROSSHAIR, y))
            painter.drawLine(QPointF(x, y - CROSSHAIR), QPointF(x, y + CROSSHAIR))
            painter.drawEllipse(QPointF(x, y), 8.0, 8.0)
            painter.drawText(QPointF(x + 12.0, y - 12.0), str(i + 1))
        painter.end()


class TableView(QGraphicsView):
    """The TV's map: its own scene of the public game, fitted to the screen, taking no input."""

    def __init__(self, public: PublicSession, font: QFont, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setInteractive(False)
        self.setFrameShape(QGraphicsView.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.MinimalViewportUpdate)
        self.palette_ = MapPalette.from_qpalette(self.palette())
        self.map_scene = MapScene(public, self.palette_, font, self)
        self.setScene(self.map_scene)

    def set_overlay(self, key: str, items: list[QGraphicsItem]) -> None:
        self.map_scene.set_overlay(key, items)

    def clear_overlay(self, key: str) -> None:
        self.map_scene.clear_overlay(key)

    def set_label_font(self, font: QFont) -> None:
        self.map_scene.set_palette(self.palette_, font)
        self.fit_table()

    def fit_table(self) -> None:
        rect = self.map_scene.table_rect().adjusted(-MARGIN * 0.8, -MARGIN * 0.8, MARGIN * 0.5, MARGIN * 0.5)
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        self.map_scene.layout_labels(self.transform().m11())

    def resizeEvent(self, event: object) -> None:
        super().resizeEvent(event)  # type: ignore[arg-type]
        self.fit_table()


class DisplayWindow(QWidget):
    """The second screen's window: TV or projector mode, following the session live."""

    def __init__(self, session: Session, laptop_map: MapView, label_points: float = 16.0) -> None:
        super().__init__(None, Qt.WindowType.Window | Qt.WindowType.FramelessWindowHint
                         | Qt.WindowType.WindowDoesNotAcceptFocus)
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setWindowTitle("BattleTracker table display")
        self.setStyleSheet("background: black;")
        self.session = session
        self.laptop_map = laptop_map
        self.public = PublicSession(session, self)
        self.mode = "tv"
        self.layers = set(LAYERS)
        self.mapping: Homography | None = None
        self.pattern_shown = False
        self.tv = TableView(self.public, self._label_font(label_points), self)
        self.strip = QLabel(self)
        self.strip.setObjectName("display_strip")
        self.strip.setTextFormat(Qt.TextFormat.PlainText)
        self.strip.setStyleSheet("background: #202020; color: white; padding: 6px 14px;")
        font = self.strip.font()
        font.setPointSizeF(label_points)
        font.setBold(True)
        self.strip.setFont(font)
        self.projector = ProjectorCanvas(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.tv, 1)
        layout.addWidget(self.strip)
        layout.addWidget(self.projector, 1)
        self.bombardments = BombardmentLayer(self.public, self.tv, self)
        self.public.changed.connect(self._on_changed)
        self.public.selection_changed.connect(self._on_selection_changed)
        laptop_map.map_scene.overlay_changed.connect(self._copy_overlay)
        laptop_map.terrain_tools.sight_changed.connect(self._follow_sight)
        for key in list(laptop_map.map_scene.overlays):
            self._copy_overlay(key)
        self._follow_sight()
        self.set_mode("tv")

    @staticmethod
    def _label_font(points: float) -> QFont:
        font = QFont()
        font.setPointSizeF(points)
        return font

    # -- settings from the control strip -------------------------------------------------------------------
    def set_mode(self, mode: str) -> None:
        self.mode = mode
        tv = mode == "tv"
        self.tv.setVisible(tv)
        self.strip.setVisible(tv)
        self.projector.setVisible(not tv)
        self.refresh()

    def set_layers(self, layers: Iterable[str]) -> None:
        self.layers = set(layers)
        self.refresh()

    def set_label_points(self, points: float) -> None:
        self.tv.set_label_font(self._label_font(points))
        font = self.strip.font()
        font.setPointSizeF(points)
        self.strip.setFont(font)

    def set_mapping(self, corners: Sequence[Point]) -> None:
        """Calibrate: the table's corners land on these four pixels of the window, in corner order."""
        game = self.public.game
        self.mapping = four_point(table_corners(game.table_width, game.table_height), corners)
        self.projector.set_mapping(self.mapping)

    def show_calibration(self, corners: Sequence[Point] | None, active: int = 0) -> None:
        """The crosshairs (and the check pattern) while calibrating; None takes them off."""
        self.pattern_shown = corners is not None
        self.projector.set_crosshairs(corners or [], active)
        self.refresh()

    # -- following the game -------------------------------------------------------------------------------------
    def _on_changed(self, changes: Changes) -> None:
        self.tv.map_scene.apply_changes(changes)
        if changes.everything:
            self.tv.fit_table()
        self.refresh()

    def _on_selection_changed(self, _unit_id: object) -> None:
        self.tv.map_scene.refresh_selection()
        self.refresh()

    def _secret_places(self) -> list[Point]:
        game = self.session.game
        return [(game.units[u].x, game.units[u].y) for u in self.public.secrets if u in game.units]

    def _copy_overlay(self, key: str) -> None:
        """A laptop overlay (other than the bombardments, drawn here from the public game) copied for the TV;
        none of it when it is drawn at a unit the opponent may not know of."""
        if key == BOMBARDMENTS:
            return
        items = self.laptop_map.map_scene.overlays.get(key)
        if not items or shapes.near(shapes.anchors(items), self._secret_places()):
            self.tv.clear_overlay(key)
        else:
            self.tv.set_overlay(key, [c for c in (self._copy_item(i) for i in items) if c is not None])
        self.refresh()

    def _copy_item(self, item: QGraphicsItem) -> QGraphicsItem | None:
        """The same drawing in the TV's scene: circles, polygons and lines with their pens, labels with their chips
        and anchor (the TV's font is larger, so a label beside its point stays beside it)."""
        copy: QGraphicsItem
        if isinstance(item, QGraphicsEllipseItem):
            rect = item.mapRectToScene(item.rect())
            copy = circle_item((rect.center().x(), rect.center().y()), rect.width() / 2.0, item.pen().color(),
                               item.brush().color().alpha(), item.pen().style())
        elif isinstance(item, QGraphicsPolygonItem):
            points = shapes.points_of(item.mapToScene(item.polygon()))
            copy = polygon_item(points, item.pen().color(), item.brush().color().alpha(), item.pen().style())
        elif isinstance(item, QGraphicsLineItem):
            line = item.line()
            a, b = item.mapToScene(line.p1()), item.mapToScene(line.p2())
            copy = line_item((a.x(), a.y()), (b.x(), b.y()), item.pen().color(), item.pen().style())
        elif isinstance(item, PixmapLabel):
            label = PixmapLabel(self.tv.map_scene.label_font, item.anchor, item.shift)
            label.set_chips(list(item.chips))
            label.setPos(item.scenePos())
            copy = label
        else:
            return None
        copy.setZValue(item.zValue())
        return copy

    def _follow_sight(self) -> None:
        tools = self.laptop_map.terrain_tools
        line = tools.sight_line
        hidden = self._secret_places()
        if line is None or shapes.near(line[:2], hidden):
            self.tv.clear_overlay(SIGHT_KEY)
        else:
            self.tv.set_overlay(SIGHT_KEY, self._sight_items(line))
        self.refresh()

    @staticmethod
    def _sight_items(line: tuple[Point, Point, float | None]) -> list[QGraphicsItem]:
        """The ruler for the TV: its segments three pixels wide, seen from across the room."""
        items: list[QGraphicsItem] = []
        for a, b, colour in shapes.sight_segments(line):
            item = line_item(a, b, colour)
            item.setPen(cosmetic(colour, 3.0))
            item.setZValue(Z_MEASURE)
            items.append(item)
        return items

    def refresh(self) -> None:
        """The layers shown or hidden in TV mode, and the projector's shapes drawn again."""
        scene = self.tv.map_scene
        scene.clip.setVisible("selection" in self.layers)
        for key, items in scene.overlays.items():
            layer = "bombardments" if key == BOMBARDMENTS else "sight" if key == SIGHT_KEY else "procedures"
            for item in items:
                item.setVisible(layer in self.layers)
        self._write_strip()
        if self.mode == "projector":
            self.projector.set_shapes(self.projector_shapes(), self._pattern())

    def _pattern(self) -> list[shapes.Shape]:
        return shapes.check_pattern(self.public.game) if self.pattern_shown else []

    def projector_shapes(self) -> list[shapes.Shape]:
        """Everything the projector draws now, from the public game and the layers shown."""
        game = self.public.game
        drawn: list[shapes.Shape] = []
        if "bombardments" in self.layers:
            drawn.extend(shapes.bombardment_shapes(game))
        selected = game.units.get(self.public.selected or "")
        if "selection" in self.layers and selected is not None:
            drawn.extend(shapes.selection_shapes(game, selected))
        hidden = self._secret_places()
        if "procedures" in self.layers:
            for key, items in self.laptop_map.map_scene.overlays.items():
                if key != BOMBARDMENTS:
                    drawn.extend(shapes.copied_shapes(items, hidden))
        line = self.laptop_map.terrain_tools.sight_line
        if "sight" in self.layers and line is not None and not shapes.near(line[:2], hidden):
            drawn.extend(shapes.sight_shapes(line))
        return drawn

    def _write_strip(self) -> None:
        game = self.public.game
        side = game.sides[game.active_side].name if 0 <= game.active_side < len(game.sides) else ""
        parts = [f"Turn {game.turn}", f"Phase {game.phase}"]
        if side:
            parts.append(f"{side}'s Phase")
        if game.log:
            parts.append(game.log[-1].text)
        self.strip.setText("   |   ".join(parts))
