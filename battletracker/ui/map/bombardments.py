"""The bombardments drawn on the map, as one overlay that follows the session.

Aiming points; each ranging shot of the current aim as an arrow from the
aiming point to where it landed, with its distance; every area that has
effects (rolling ones, once the hidden die is revealed, with their later
positions as dotted ghosts from `future_centres`: before that the map would
give the die away); SOS Fire's circle; smoke; buildings (intact ones in a
light outline with their storeys and occupants, unstable, collapsed and
burning ones dashed in their state's colour); and a ring round each unit inside an active area. The map
already badges Pinned units from their conditions.

While a ranging shot's dialog asks for the die that turns a deviation
(`show_bearing_die`), each face of that die is a short numbered ray round the
aiming point, at the bearing the rules read it as: the player sees which way
a 3 sends the shot before rolling.

A new bombardment's aiming point is drawn as soon as it is clicked
(`show_new_aim`), while the player clicks where the Forward Observer stands:
it is not in the game until both are placed, in one undo step.

`items` keys every drawn item ("area:b1", "ghost:b1:1", "shot:b1:2", ...) so
the window's other parts and the tests can find them.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QObject
from PySide6.QtCore import Qt
from PySide6.QtCore import SignalInstance
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem

from battletracker.core import geometry
from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment import Building
from battletracker.model.effects import Changes
from battletracker.model.game import Game
from battletracker.rules.chain_of_command.bombardment import future_centres
from battletracker.rules.chain_of_command.bombardment import observer_name
from battletracker.rules.chain_of_command.bombardment import units_in_area
from battletracker.rules.chain_of_command.bombardment_data import RULESET
from battletracker.ui.map.items import circle_item
from battletracker.ui.map.items import line_item
from battletracker.ui.map.items import polygon_item
from battletracker.ui.map.items import text_item
from battletracker.ui.map.scene import MapScene

OVERLAY_KEY = "bombardments"
HE_COLOUR = QColor("#e53935")
SMOKE_COLOUR = QColor("#9e9e9e")
SOS_COLOUR = QColor("#fb8c00")
AIM_COLOUR = QColor("#1e88e5")
INSIDE_COLOUR = QColor("#ffeb3b")
INTACT_COLOUR = QColor("#efebe9")
BUILDING_COLOURS = {"unstable": QColor("#ff9800"), "collapsed": QColor("#6d4c41"), "on_fire": QColor("#d84315")}
ARROW_HEAD = 0.8  # inches
ARROW_SPREAD = 25.0  # degrees either side of the shaft
INSIDE_RING = 1.6  # inches round a unit's centre
FACE_RAY = (0.8, 4.5)  # inches from the aiming point: each face's ray starts clear of the aim's disc
FACE_LABEL = 5.7  # inches from the aiming point to a face's number: twelve pills clear of each other


class LayerSource(Protocol):
    """What the layer reads of a session: the game, and `changed` (with the Changes) to draw again.

    The laptop's `Session` is one; the table display's `PublicSession`, the game without its secrets, is another.
    """

    @property
    def game(self) -> Game: ...

    @property
    def changed(self) -> SignalInstance: ...


class OverlayView(Protocol):
    """Where the layer draws: an overlay set or cleared by key, in a scene whose palette and font it labels in.

    The laptop's `MapView` is one; the table display's TV map is another.
    """

    @property
    def map_scene(self) -> MapScene: ...

    def set_overlay(self, key: str, items: list[QGraphicsItem]) -> None: ...

    def clear_overlay(self, key: str) -> None: ...


class BombardmentLayer(QObject):
    """Keeps the map's "bombardments" overlay in step with the game."""

    def __init__(self, session: LayerSource, view: OverlayView, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.view = view
        self.items: dict[str, QGraphicsItem] = {}
        self.new_aim: Bombardment | None = None  # the aiming point clicked for a bombardment not yet placed
        self.bearing_die: tuple[geometry.Point, tuple[tuple[int, float], ...]] | None = None
        """The aiming point and (face, bearing) of the direction die a ranging shot asks for now."""
        session.changed.connect(self._on_changed)
        self.refresh()

    def show_new_aim(self, side: int, kind: str, at: geometry.Point) -> None:
        """Draw a new bombardment's aiming point, named as the side's next call of that kind, until `forget_new_aim`."""
        self.new_aim = Bombardment(id="", side=side, kind=kind, x=at[0], y=at[1])
        self.refresh()

    def forget_new_aim(self) -> None:
        """The Forward Observer was placed (the game draws the aim now) or the placing cancelled."""
        if self.new_aim is not None:
            self.new_aim = None
            self.refresh()

    def show_bearing_die(self, aim: geometry.Point, faces: tuple[tuple[int, float], ...]) -> None:
        """Draw each face of the direction die as a numbered ray from `aim` at its bearing (`forget_bearing_die`)."""
        self.bearing_die = (aim, faces)
        self.refresh()

    def forget_bearing_die(self) -> None:
        """The die was entered, or the ranging dialog closed."""
        if self.bearing_die is not None:
            self.bearing_die = None
            self.refresh()

    def _on_changed(self, changes: Changes) -> None:
        if changes.everything or changes.bombardments or changes.buildings or changes.markers:
            self.refresh()
        elif changes.units and any(b.active for b in self.session.game.bombardments.values()):
            self.refresh()  # a unit moved into or out of an area

    def refresh(self) -> None:
        self.items = {}
        game = self.session.game
        if game.ruleset == RULESET:
            for b in game.bombardments.values():
                if b.state != "cleared":
                    self._bombardment(b)
            for smoke in game.smoke.values():
                self.items[f"smoke:{smoke.id}"] = polygon_item(smoke.outline(), SMOKE_COLOUR, 110)
            for building in game.buildings.values():
                self._building(building)
            if self.new_aim is not None:
                self._aim("new", self.new_aim)
            if self.bearing_die is not None:
                self._bearing_die(*self.bearing_die)
        if self.items:
            self.view.set_overlay(OVERLAY_KEY, list(self.items.values()))
        else:
            self.view.clear_overlay(OVERLAY_KEY)

    def _building(self, building: Building) -> None:
        """Intact buildings in a light outline with their storeys; damaged ones dashed in their state's colour."""
        storeys = f"{building.storeys} storey{'s' if building.storeys != 1 else ''}"
        colour = BUILDING_COLOURS.get(building.state)
        if colour is None:
            self.items[f"building:{building.id}"] = polygon_item(building.outline(), INTACT_COLOUR, 80)
            text = f"{building.name}, {storeys}"
        else:
            self.items[f"building:{building.id}"] = polygon_item(building.outline(), colour, 70,
                                                                 Qt.PenStyle.DashLine)
            text = f"{building.name}: {building.state.replace('_', ' ')}"
        inside = [self.session.game.units[u].name for u in building.occupants if u in self.session.game.units]
        if inside:
            text += " (" + ", ".join(inside) + ")"
        top = min(y for _x, y in building.outline())
        self._label(f"building_label:{building.id}", (building.x, top - 0.9), text)

    def _label(self, key: str, at: geometry.Point, text: str) -> None:
        scene = self.view.map_scene
        palette = scene.palette_
        self.items[key] = text_item(at, text, scene.label_font, palette.label_text, palette.label_back)

    def _area(self, key: str, b: Bombardment, centre: geometry.Point, colour: QColor, fill_alpha: int,
              style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> None:
        if b.shape == "circle":
            self.items[key] = circle_item(centre, b.radius, colour, fill_alpha, style)
        else:
            self.items[key] = polygon_item(b.outline(centre), colour, fill_alpha, style)

    def _bombardment(self, b: Bombardment) -> None:
        game = self.session.game
        colour = {"high_explosive": HE_COLOUR, "smoke": SMOKE_COLOUR, "sos": SOS_COLOUR}[b.kind]
        if b.state in ("ranging", "landed"):
            self._aim(b.id, b)
        if b.state in ("ranging", "landed", "ready"):
            self._shots(b)
        if b.active:
            fill = 40 if b.state == "lingering" else 70
            style = Qt.PenStyle.DashLine if b.state == "lingering" else Qt.PenStyle.SolidLine
            self._area(f"area:{b.id}", b, b.centre, colour, fill, style)
            for i, centre in enumerate(future_centres(b) if b.revealed else [], start=1):
                self._area(f"ghost:{b.id}:{i}", b, centre, colour, 0, Qt.PenStyle.DotLine)
                self._label(f"ghost_label:{b.id}:{i}", centre, f"{i} {'move' if i == 1 else 'moves'} on")
            for unit_id in units_in_area(game, b):
                unit = game.units[unit_id]
                self.items[f"inside:{b.id}:{unit_id}"] = circle_item((unit.x, unit.y), INSIDE_RING, INSIDE_COLOUR,
                                                                     0, Qt.PenStyle.DashLine)

    def _aim(self, key: str, b: Bombardment) -> None:
        """The aiming point, labelled short so it hides little of the table: with the bombardment's name only
        when another one is aiming too."""
        game = self.session.game
        self.items[f"aim:{key}"] = circle_item(b.centre, 0.5, AIM_COLOUR, 120)
        aiming = sum(o.state in ("ranging", "landed") for o in game.bombardments.values()) + (self.new_aim is not None)
        text = f"Aiming point: {observer_name(game, b)}" if aiming > 1 else "Aiming point"
        self._label(f"aim_label:{key}", (b.centre[0], b.centre[1] - 1.2), text)

    def _bearing_die(self, aim: geometry.Point, faces: tuple[tuple[int, float], ...]) -> None:
        """One ray and number per face, in the map's measuring colours (readable on the felt, light or dark)."""
        palette = self.view.map_scene.palette_
        for face, bearing in faces:
            self.items[f"face_ray:{face}"] = line_item(geometry.offset(aim, bearing, FACE_RAY[0]),
                                                      geometry.offset(aim, bearing, FACE_RAY[1]), palette.measure)
            self.items[f"face_label:{face}"] = text_item(geometry.offset(aim, bearing, FACE_LABEL), str(face),
                                                         self.view.map_scene.label_font, palette.measure_text,
                                                         palette.measure_back)

    def _shots(self, b: Bombardment) -> None:
        """The ranging shots since the bombardment was last aimed: arrow and distance for each deviation."""
        since = 0
        for i, e in enumerate(b.history):
            if e.kind in ("placed", "re_aim"):
                since = i
        for i, e in enumerate(b.history[since:], start=since):
            if e.kind != "ranging":
                continue
            start, end = (e.from_x, e.from_y), (e.x, e.y)
            self.items[f"shot:{b.id}:{i}"] = circle_item(end, 0.35, HE_COLOUR, 160)
            length = geometry.distance(start, end)
            if length <= geometry.EPSILON:
                continue
            self.items[f"shot_line:{b.id}:{i}"] = line_item(start, end, HE_COLOUR, Qt.PenStyle.DashLine)
            back = geometry.bearing(end, start)
            for side, turn in (("l", -ARROW_SPREAD), ("r", ARROW_SPREAD)):
                self.items[f"shot_head{side}:{b.id}:{i}"] = line_item(
                    end, geometry.offset(end, back + turn, ARROW_HEAD), HE_COLOUR)
            middle = ((start[0] + end[0]) / 2.0, (start[1] + end[1]) / 2.0)
            self._label(f"shot_label:{b.id}:{i}", middle, f'{length:.1f}"')
