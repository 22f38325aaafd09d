"""Gestures on terrain: drawing a piece, editing it like a unit, and the Line-of-Sight ruler.

The map view hands its mouse and key events here first; whatever this does
not take goes on to the view's own gestures. Nothing here writes to the game
but through `Session.act`, one action per gesture, so each is one undo step:

- Drawing (`start_drawing(kind)`): click the corners of an area or the points
  of a line; Enter or a double-click finishes (one `terrain.add`), Backspace
  takes back the last point, Esc cancels with nothing applied. A shape the
  rules refuse keeps its points on the map, with the refusal in the banner,
  for the player to click on, take a point back or cancel.
- Editing: click a piece to select it, drag it (one `terrain.move` on
  release), drag one of its corners (one `terrain.move` with the new points),
  Delete removes it; right-click for rename, kind, cover and delete.
- The Line-of-Sight ruler (L): drag from a unit to a point; the line is green
  while sight is clear and red from where it is blocked, with the reading.
"""

from __future__ import annotations

from dataclasses import replace
from enum import Enum
from enum import auto
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtCore import QPoint
from PySide6.QtCore import QPointF
from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtGui import QColor
from PySide6.QtGui import QKeyEvent
from PySide6.QtGui import QKeySequence
from PySide6.QtGui import QPainterPath
from PySide6.QtGui import QPen
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QGraphicsPathItem
from PySide6.QtWidgets import QMenu

from battletracker.core.geometry import Point
from battletracker.core.geometry import distance
from battletracker.model.changes import Changes
from battletracker.model.game import GameError
from battletracker.model.game import Unit
from battletracker.model.terrain import TerrainPiece
from battletracker.rules import RulesInputError
from battletracker.rules.base import message_of
from battletracker.ui.map.terrain_items import HANDLE_PX
from battletracker.ui.map.terrain_items import SightRuler
from battletracker.ui.map.terrain_items import look_of
from battletracker.ui.text import menu_name
from battletracker.ui.text import ruler_inches

if TYPE_CHECKING:
    from battletracker.rules.actions import Choices
    from battletracker.rules.terrain import TerrainKind
    from battletracker.rules.terrain import TerrainRules
    from battletracker.ui.map.terrain_rename import RenameTerrainDialog
    from battletracker.ui.map.view import MapView

SIGHT_TIP = ("Line of Sight (L): drag from a unit to a point. The line is green while sight is clear and red from "
             "where it is blocked, with what blocks it and the cover at the end.")


def _terrain_rules(ruleset: str) -> TerrainRules:
    """The ruleset's terrain kinds; the terrain rules load with the first look at a piece, not at the start."""
    from battletracker.rules.terrain import terrain_rules

    return terrain_rules(ruleset)


def _terrain_choice(piece: TerrainPiece) -> str:
    """The piece as terrain.add and terrain.edit take it; the terrain actions load with the first edit."""
    from battletracker.rules.terrain_actions import terrain_choice

    return terrain_choice(piece)


class _Drag(Enum):
    NONE = auto()
    PRESS = auto()      # left button down on a piece, not yet a drag
    PIECE = auto()
    CORNER = auto()
    SIGHT = auto()


class TerrainTools(QObject):
    """Drawing, editing and the Line-of-Sight ruler on one map view."""

    drawing_changed = Signal(bool)
    sight_mode_changed = Signal(bool)
    sight_changed = Signal()
    """The Line-of-Sight ruler was drawn again or taken off (`sight_line`): a second screen follows it."""

    def __init__(self, view: MapView) -> None:
        super().__init__(view)
        self.view = view
        self.session = view.session
        scene = view.map_scene
        self.kind: TerrainKind | None = None
        self.points: list[Point] = []
        self._cursor: Point | None = None
        self._drag = _Drag.NONE
        self._piece: str | None = None
        self._corner = -1
        self._start: Point = (0.0, 0.0)
        self._press = QPoint()
        self._shown: list[Point] = []
        self.sight_mode = False
        self.sight_from: Point | Unit | None = None
        self.sight_text = ""
        self.sight_line: tuple[Point, Point, float | None] | None = None
        """The ruler on show: from, to, and inches from `from` to where sight is blocked (None: clear)."""
        self._ruler_end: Point = (0.0, 0.0)
        self.rename_dialog: RenameTerrainDialog | None = None
        self.sketch = QGraphicsPathItem()
        self.sketch.setZValue(45.0)
        self.sketch.hide()
        scene.addItem(self.sketch)
        self.ruler = SightRuler(scene.palette_, scene.label_font)
        self.ruler.hide()
        scene.addItem(self.ruler)
        self.sight_action = QAction("Line of Sight", self)
        self.sight_action.setCheckable(True)
        self.sight_action.setShortcut(QKeySequence("L"))
        self.sight_action.setToolTip(SIGHT_TIP)
        self.sight_action.toggled.connect(self.set_sight_mode)
        self.session.changed.connect(self._on_changed)
        self.session.selection_changed.connect(self._on_selection_changed)

    # -- state ---------------------------------------------------------------------------------------------
    @property
    def drawing(self) -> bool:
        return self.kind is not None

    @property
    def busy(self) -> bool:
        """Whether a drawing, the ruler's mode or a drag is under way (the view shows a cross)."""
        return self.drawing or self.sight_mode or self._drag is not _Drag.NONE

    @property
    def selected_piece(self) -> str | None:
        return self.view.map_scene.terrain.selected

    def select_piece(self, piece_id: str | None) -> None:
        self.view.map_scene.terrain.select(piece_id)
        if piece_id is not None:
            self.session.select(None)

    def reset(self) -> None:
        """A new game: nothing drawn, selected or measured."""
        self.cancel_drawing()
        self._abort_drag()
        self.set_sight_mode(False)
        self.select_piece(None)

    def _on_changed(self, changes: Changes) -> None:
        if changes.everything or changes.terrain:
            self._abort_drag()
        if self.ruler.isVisible() and (changes.everything or changes.terrain or changes.buildings
                                       or changes.bombardments or changes.units):
            self._update_ruler(self._ruler_end)

    def _on_selection_changed(self, unit_id: object) -> None:
        if unit_id is not None:
            self.view.map_scene.terrain.select(None)

    # -- drawing -------------------------------------------------------------------------------------------
    def kinds(self) -> list[TerrainKind]:
        return list(_terrain_rules(self.session.game.ruleset).kinds.values())

    def start_drawing(self, kind_key: str) -> None:
        """Draw a piece of this kind: the player clicks its points on the map."""
        kind = _terrain_rules(self.session.game.ruleset).kind(kind_key)
        if kind is None:
            return
        self.view.cancel_pick()
        self.view.set_measure_mode(False)
        self.set_sight_mode(False)
        self.select_piece(None)
        self.kind = kind
        self.points = []
        self._cursor = None
        self.view.viewport().setCursor(Qt.CursorShape.CrossCursor)
        self.view.setFocus(Qt.FocusReason.OtherFocusReason)
        self._show_banner()
        self._redraw_sketch()
        self.drawing_changed.emit(True)

    def _show_banner(self, refusal: str = "") -> None:
        """How to draw the piece; after a refusal, the rules' words first and how to go on."""
        kind = self.kind
        if kind is None:
            return
        what = "corners" if kind.shape == "area" else "points"
        how = "Enter finishes, Backspace takes back a point, Esc cancels"
        if refusal:
            self.view.show_banner(f"{refusal} Click more {what}; {how}")
        else:
            self.view.show_banner(f"{kind.title}: click its {what}; {how}")

    def cancel_drawing(self) -> None:
        if self.kind is None:
            return
        self.kind = None
        self.points = []
        self.sketch.hide()
        self.view.hide_banner()
        self.view.viewport().setCursor(Qt.CursorShape.ArrowCursor)
        self.drawing_changed.emit(False)

    def finish_drawing(self) -> None:
        """One `terrain.add` with the points clicked. A shape the rules refuse (too few points, an area in one
        line) is not thrown away: its points stay as the drawing under way, and the banner says what to fix."""
        kind = self.kind
        if kind is None:
            return
        game = self.session.game
        count = sum(1 for p in game.terrain.values() if p.kind == kind.key) + 1
        piece = TerrainPiece(game.new_id("ter", game.terrain), f"{kind.title} {count}", kind.key, kind.shape,
                             list(self.points))
        try:
            self.session.act("terrain.add", {"piece": _terrain_choice(piece)})
        except (GameError, RulesInputError) as exc:
            self._show_banner(message_of(exc))
            self.view.refused.emit(message_of(exc))
            return
        self.cancel_drawing()

    def _add_point(self, at: Point) -> None:
        if self.points and distance(self.points[-1], at) < 0.05:
            return
        self.points.append(at)
        self._show_banner()
        self._redraw_sketch()

    def _redraw_sketch(self) -> None:
        kind = self.kind
        if kind is None:
            return
        pts = [*self.points, *([self._cursor] if self._cursor is not None else [])]
        path = QPainterPath()
        if pts:
            path.moveTo(QPointF(*pts[0]))
            for p in pts[1:]:
                path.lineTo(QPointF(*p))
            if kind.shape == "area" and len(pts) >= 3:
                path.closeSubpath()
        for x, y in self.points:
            path.addEllipse(QPointF(x, y), 0.2, 0.2)
        piece = TerrainPiece("", "", kind.key, kind.shape, [(0.0, 0.0)])
        palette = self.view.map_scene.palette_
        pen = QPen(palette.selection, 2.0, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        self.sketch.setPen(pen)
        brush = QColor(look_of(piece).fill)
        brush.setAlpha(70 if kind.shape == "area" else 0)
        self.sketch.setBrush(brush)
        self.sketch.setPath(path)
        self.sketch.show()

    # -- the Line-of-Sight ruler ---------------------------------------------------------------------------
    def set_sight_mode(self, on: bool) -> None:
        """Left-drag draws the Line-of-Sight ruler instead of selecting and moving."""
        if on == self.sight_mode:
            return
        self.sight_mode = on
        self.sight_action.setChecked(on)
        if on:
            self.cancel_drawing()
            self.view.set_measure_mode(False)
        else:
            self.clear_ruler()
        self.view.viewport().setCursor(Qt.CursorShape.CrossCursor if on else Qt.CursorShape.ArrowCursor)
        self.sight_mode_changed.emit(on)

    def clear_ruler(self) -> None:
        self.ruler.hide()
        self.sight_from = None
        self.sight_text = ""
        if self.sight_line is not None:
            self.sight_line = None
            self.sight_changed.emit()

    def _begin_sight(self, pos: QPoint) -> None:
        token = self.view.token_at(pos)
        unit = self.session.game.units.get(token.unit_id) if token is not None else None
        self.sight_from = unit if unit is not None else self.view.scene_point(pos)
        self._drag = _Drag.SIGHT
        self._ruler_end = self._origin()
        self.ruler.hide()

    def _origin(self) -> Point:
        s = self.sight_from
        return (s.x, s.y) if isinstance(s, Unit) else s if s is not None else (0.0, 0.0)

    def _sight_end(self, pos: QPoint) -> Point:
        token = self.view.token_at(pos)
        source = self.sight_from.id if isinstance(self.sight_from, Unit) else None
        if token is not None and token.unit_id != source:
            return (token.x(), token.y())
        return self.view.scene_point(pos)

    def _update_ruler(self, end: Point) -> None:
        if self.sight_from is None:
            return
        game = self.session.game
        if isinstance(self.sight_from, Unit):
            self.sight_from = game.units.get(self.sight_from.id)
            if self.sight_from is None:
                self.clear_ruler()
                return
        self._ruler_end = end
        origin = self._origin()
        index = self.view.map_scene.target_marks.index(game)
        reading, blocked_at = index.sight_line(self.sight_from, end)
        parts = [ruler_inches(distance(origin, end)), reading.reason]
        if reading.clear:
            cover = index.cover_against(self.sight_from, end)
            if cover.source is not None:
                parts.append(cover.reason.replace(": ", " at the end: ", 1))
        self.sight_text = " | ".join(parts)
        x = self.view.mapFromScene(QPointF(*end)).x()
        self.ruler.set_line(origin, end, blocked_at, self.sight_text, (x, self.view.viewport().width() - x))
        self.ruler.show()
        self.sight_line = (origin, end, blocked_at)
        self.sight_changed.emit()

    # -- events from the view ------------------------------------------------------------------------------
    def press(self, pos: QPoint, button: Qt.MouseButton) -> bool:
        """A left press the tools take: a drawing's point, the ruler's start, or a piece or its corner."""
        if button != Qt.MouseButton.LeftButton:
            return False
        if self.drawing:
            at = self.view.clamp(self.view.scene_point(pos))
            self._add_point(at)
            return True
        if self.sight_mode:
            self._begin_sight(pos)
            return True
        if self.view.on_handle(pos) or self.view.token_at(pos) is not None:
            return False
        at = self.view.scene_point(pos)
        selected = self.selected_piece
        piece = self.session.game.terrain.get(selected) if selected else None
        if piece is not None:
            corner = self._corner_at(piece, pos)
            if corner >= 0:
                self._start_drag(piece, at, pos, corner)
                return True
        tolerance = 4.0 / max(self.view.scale_factor, 1e-6)
        found = self.view.map_scene.terrain.piece_at(self.session.game, at, tolerance)
        if found is None:
            self.view.map_scene.terrain.select(None)
            return False
        self.select_piece(found)
        self._start_drag(self.session.game.terrain[found], at, pos, -1)
        return True

    def _corner_at(self, piece: TerrainPiece, pos: QPoint) -> int:
        for i, (x, y) in enumerate(piece.points):
            at = self.view.mapFromScene(QPointF(x, y))
            if abs(at.x() - pos.x()) <= HANDLE_PX + 2 and abs(at.y() - pos.y()) <= HANDLE_PX + 2:
                return i
        return -1

    def _start_drag(self, piece: TerrainPiece, at: Point, pos: QPoint, corner: int) -> None:
        self._drag = _Drag.PRESS
        self._piece = piece.id
        self._corner = corner
        self._start = at
        self._press = pos
        self._shown = list(piece.points)

    def move(self, pos: QPoint) -> bool:
        """Follow the mouse: a drag under way (taken), or the drawing's line to the pointer (not taken)."""
        if self._drag is _Drag.SIGHT:
            self._update_ruler(self._sight_end(pos))
            return True
        if self._drag is _Drag.PRESS:
            if (pos - self._press).manhattanLength() < QApplication.startDragDistance():
                return True
            self._drag = _Drag.CORNER if self._corner >= 0 else _Drag.PIECE
        if self._drag in (_Drag.PIECE, _Drag.CORNER):
            self._drag_to(pos)
            return True
        if self.drawing:
            self._cursor = self.view.clamp(self.view.scene_point(pos))
            self._redraw_sketch()
        return False

    def _drag_to(self, pos: QPoint) -> None:
        piece = self.session.game.terrain.get(self._piece or "")
        item = self.view.map_scene.terrain.items.get(self._piece or "")
        if piece is None or item is None:
            self._abort_drag()
            return
        at = self.view.scene_point(pos)
        if self._drag is _Drag.CORNER:
            points = list(piece.points)
            points[self._corner] = self.view.clamp(at)
        else:
            dx, dy = at[0] - self._start[0], at[1] - self._start[1]
            points = [(x + dx, y + dy) for x, y in piece.points]
        self._shown = points
        item.sync(piece, points)

    def release(self, pos: QPoint) -> bool:
        """End a drag: one `terrain.move` (a click without a drag only selected the piece)."""
        drag, self._drag = self._drag, _Drag.NONE
        if drag is _Drag.NONE:
            return False
        if drag is _Drag.SIGHT:
            self._update_ruler(self._sight_end(pos))
            return True
        if drag is _Drag.PRESS:
            return True
        self._drag = drag
        self._drag_to(pos)
        self._drag = _Drag.NONE
        piece = self.session.game.terrain.get(self._piece or "")
        if piece is None:
            return True
        if drag is _Drag.CORNER:
            from battletracker.rules.terrain_actions import points_choice

            choices: Choices = {"piece": piece.id, "points": points_choice(self._shown)}
        else:
            dx, dy = self._shown[0][0] - piece.points[0][0], self._shown[0][1] - piece.points[0][1]
            if abs(dx) < 1e-9 and abs(dy) < 1e-9:
                return True
            choices = {"piece": piece.id, "dx": dx, "dy": dy}
        self._act("terrain.move", choices)
        return True

    def _abort_drag(self) -> None:
        """Put a dragged piece back where the model has it."""
        drag, self._drag = self._drag, _Drag.NONE
        if drag in (_Drag.PIECE, _Drag.CORNER, _Drag.PRESS):
            piece = self.session.game.terrain.get(self._piece or "")
            item = self.view.map_scene.terrain.items.get(self._piece or "")
            if piece is not None and item is not None:
                item.sync(piece)

    def double_click(self, pos: QPoint, button: Qt.MouseButton) -> bool:
        """A double-click's point (Qt sends it instead of the second press) ends the drawing."""
        if self.drawing and button == Qt.MouseButton.LeftButton:
            self._add_point(self.view.clamp(self.view.scene_point(pos)))
            self.finish_drawing()
            return True
        return False

    def key(self, event: QKeyEvent) -> bool:
        """Enter, Backspace and Esc while drawing; Esc during a drag or on the ruler; Delete on a piece; L."""
        key = event.key()
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if self.drawing:
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.finish_drawing()
                return True
            if key == Qt.Key.Key_Backspace:
                if self.points:
                    self.points.pop()
                    self._show_banner()
                    self._redraw_sketch()
                return True
            if key == Qt.Key.Key_Escape:
                self.cancel_drawing()
                return True
            return False
        if key == Qt.Key.Key_Escape:
            if self._drag is not _Drag.NONE:
                self._abort_drag()
                return True
            if self.sight_mode:
                if self.ruler.isVisible():
                    self.clear_ruler()
                else:
                    self.set_sight_mode(False)
                return True
            if self.selected_piece is not None and self.view.picking is False:
                self.select_piece(None)
                return True
            return False
        if key == Qt.Key.Key_L and mods == Qt.KeyboardModifier.NoModifier and not event.isAutoRepeat():
            self.set_sight_mode(not self.sight_mode)
            return True
        if key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and self.selected_piece is not None:
            self.remove(self.selected_piece)
            return True
        return False

    # -- editing through the rules -------------------------------------------------------------------------
    def _act(self, name: str, choices: Choices) -> bool:
        try:
            self.session.act(name, choices)
        except (GameError, RulesInputError) as exc:
            self._abort_drag()
            self.view.map_scene.terrain.sync(self.session.game)
            self.view.refused.emit(message_of(exc))
            return False
        return True

    def remove(self, piece_id: str) -> None:
        if self._act("terrain.remove", {"piece": piece_id}):
            self.select_piece(None)

    def edit(self, piece: TerrainPiece) -> None:
        self._act("terrain.edit", {"piece": _terrain_choice(piece)})

    def rename(self, piece_id: str) -> None:
        """Open the piece's Rename dialog (window-modal; it renames when the player presses Enter)."""
        if piece_id not in self.session.game.terrain:
            return
        from battletracker.ui.map.terrain_rename import RenameTerrainDialog

        dialog = RenameTerrainDialog(self.session, piece_id, self.view.window())
        dialog.finished.connect(dialog.deleteLater)
        self.rename_dialog = dialog
        dialog.open()

    def piece_menu(self, piece_id: str) -> QMenu:
        """The right-click menu of a piece: rename, change its kind, its cover, remove it."""
        game = self.session.game
        piece = game.terrain[piece_id]
        rules = _terrain_rules(game.ruleset)
        menu = QMenu(self.view)
        menu.addAction("Rename...", lambda: self.rename(piece_id))
        kinds = menu.addMenu("Kind")
        for kind in rules.kinds.values():
            if kind.shape != piece.shape:
                continue
            action = kinds.addAction(kind.title, partial(self.edit, replace(piece, kind=kind.key)))
            action.setCheckable(True)
            action.setChecked(kind.key == piece.kind)
        cover = menu.addMenu("Cover")
        own = rules.kind(piece.kind)
        as_kind = f"As its kind ({own.cover.replace('_', ' ')})" if own is not None else "As its kind"
        levels: list[tuple[str | None, str]] = [(None, as_kind)]
        levels += [(lv, lv.replace("_", " ").capitalize()) for lv in rules.levels]
        for level, title in levels:
            action = cover.addAction(title, partial(self.edit, replace(piece, cover=level)))
            action.setCheckable(True)
            action.setChecked(piece.cover == level)
        menu.addSeparator()
        menu.addAction(f"Remove {menu_name(piece.name)}", lambda: self.remove(piece_id))
        return menu

    def context_menu(self, pos: QPoint) -> bool:
        """A right-click on a piece (not while drawing): its menu. False if there is no piece there."""
        if self.drawing:
            return False
        tolerance = 4.0 / max(self.view.scale_factor, 1e-6)
        found = self.view.map_scene.terrain.piece_at(self.session.game, self.view.scene_point(pos), tolerance)
        if found is None:
            return False
        self.select_piece(found)
        menu = self.piece_menu(found)
        menu.exec(self.view.viewport().mapToGlobal(pos))
        menu.deleteLater()
        return True

    # -- hovering --------------------------------------------------------------------------------------------
    def piece_under(self, pos: QPoint) -> TerrainPiece | None:
        tolerance = 4.0 / max(self.view.scale_factor, 1e-6)
        found = self.view.map_scene.terrain.piece_at(self.session.game, self.view.scene_point(pos), tolerance)
        return self.session.game.terrain.get(found) if found is not None else None

    def tooltip(self, pos: QPoint) -> str:
        """A piece's name, kind and cover; empty where there is none."""
        piece = self.piece_under(pos)
        if piece is None:
            return ""
        rules = _terrain_rules(self.session.game.ruleset)
        kind = rules.kind(piece.kind)
        if kind is None:
            return piece.name
        level = piece.cover or kind.cover
        blocks = kind.blocks_sight if piece.blocks_sight is None else piece.blocks_sight
        sight = "does not block sight"
        if blocks:
            depth = kind.sight_depth if piece.sight_depth is None else piece.sight_depth
            sight = f'blocks sight deeper than {depth:g}"' if piece.shape == "area" and depth > 0 else "blocks sight"
        return (f"{piece.name} - {kind.title}: {level.replace('_', ' ')} cover, {sight}.\n"
                "Drag to move it, drag a corner of the selected piece to reshape it, right-click to edit.")
