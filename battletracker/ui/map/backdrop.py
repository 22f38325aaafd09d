"""The table's picture on the map: under the grid and every item, turned and scaled into table inches.

The picture is a `QGraphicsPixmapItem` placed by the game's `Backdrop` exactly
as `core.calibration.Placement` maps its pixels (position, rotation, scale), so
the inch grid, the tokens and every overlay, all in table inches, stay true to
it. It is decoded once per picture and drawn through a device-coordinate
cache: a repaint blits the cached picture, and only a zoom draws it again.

The grid is drawn by the scene's background, under every item; while a
picture shows, `GridOver` draws the same grid just above the picture instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF
from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QGraphicsItem
from PySide6.QtWidgets import QGraphicsPixmapItem
from PySide6.QtWidgets import QStyleOptionGraphicsItem
from PySide6.QtWidgets import QWidget

from battletracker.core.calibration import Placement
from battletracker.model.backdrop import Backdrop
from battletracker.model.backdrop import picture_bytes
from battletracker.model.game import GameError
from battletracker.ui.map.items import ClipLayer

if TYPE_CHECKING:
    from battletracker.ui.map.scene import MapScene

Z_BACKDROP = -20.0
Z_GRID_OVER = -19.0


class GridOver(QGraphicsItem):
    """The scene's inch grid, drawn over the picture (the background it is usually drawn in lies under it)."""

    def __init__(self, scene: MapScene) -> None:
        super().__init__()
        self._scene = scene
        self._rect = QRectF()
        self.setZValue(Z_GRID_OVER)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_table(self, rect: QRectF) -> None:
        self.prepareGeometryChange()
        self._rect = QRectF(rect)

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        scale = painter.worldTransform().m11() or 1.0
        self._scene._draw_grid(painter, QRectF(option.exposedRect).intersected(self._rect), scale, over_picture=True)


class BackdropLayer:
    """The picture item and the grid over it, kept in step with the game's `Backdrop`."""

    def __init__(self, scene: MapScene) -> None:
        # Within the table's edges: a photo's floor around the table must not cover the edge labels.
        self.clip = ClipLayer(0.0, 0.0)
        self.clip.setZValue(Z_BACKDROP)
        self.item = QGraphicsPixmapItem(self.clip)
        self.item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        self.item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.item.setShapeMode(QGraphicsPixmapItem.ShapeMode.BoundingRectShape)
        self.item.hide()
        self.grid = GridOver(scene)
        self.grid.hide()
        scene.addItem(self.clip)
        scene.addItem(self.grid)
        self._image: str | None = None
        self.damaged = False
        """The game's picture could not be drawn (its file is damaged past its header)."""
        self.previewing = False

    @property
    def shown(self) -> bool:
        """A picture is on the map now, so the grid is drawn over it rather than in the background."""
        return self.item.isVisible()

    def sync(self, backdrop: Backdrop | None, table: QRectF) -> None:
        """Show the game's picture as the game has it (and end any placing preview)."""
        self.previewing = False
        self.grid.set_table(table)
        self.clip.set_table(table.width(), table.height())
        if backdrop is None:
            self._image = None
            self.damaged = False
            self.item.setPixmap(QPixmap())
            self._show(False)
            return
        if backdrop.image != self._image:
            self._image = backdrop.image
            pixmap = QPixmap()
            try:
                ok = pixmap.loadFromData(picture_bytes(backdrop.image))
            except GameError:
                ok = False
            self.damaged = not ok or pixmap.isNull()
            self.item.setPixmap(QPixmap() if self.damaged else pixmap)
        self.place(backdrop.placement)
        self.item.setOpacity(backdrop.opacity)
        self._show(backdrop.visible and not self.damaged)

    def place(self, placement: Placement) -> None:
        """Put the picture where `placement` says: its pixel (u, v) on `placement.to_table((u, v))`."""
        self.item.setPos(placement.x, placement.y)
        self.item.setRotation(placement.rotation)
        self.item.setScale(placement.scale)

    def preview(self, placement: Placement) -> None:
        """Show the picture, whole and solid enough to click on, at `placement` while it is being placed."""
        self.previewing = True
        self.place(placement)
        self.item.setOpacity(max(self.item.opacity(), 0.75))
        self._show(not self.damaged and not self.item.pixmap().isNull())

    def _show(self, on: bool) -> None:
        self.item.setVisible(on)
        self.grid.setVisible(on)
        scene = self.item.scene()
        if scene is not None:
            scene.invalidate(scene.sceneRect(), scene.SceneLayer.BackgroundLayer)


__all__ = ["BackdropLayer", "GridOver", "Z_BACKDROP"]
