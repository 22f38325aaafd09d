"""Buildings on the map for the bombardment rules: placing one, and units going in and out.

H.E. brings brick and stone buildings down and a building of two or more
storeys keeps its occupants from being Pinned, so the rules need to know
where the buildings are and who is inside. A building is placed from two
opposite corners or from its centre and size; a unit goes into the building
clicked on the map (Actions menu, card menu, map right-click) and comes out
the same way. Each is one undo step through the rules layer's Effects.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QButtonGroup
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QRadioButton
from PySide6.QtWidgets import QSpinBox
from PySide6.QtWidgets import QWidget

from battletracker.core import geometry
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.chain_of_command.bombardment_data import RULESET
from battletracker.rules.chain_of_command.buildings import building_of
from battletracker.ui.extensions import FeatureHost
from battletracker.ui.extensions import UnitAction
from battletracker.ui.form_parts import PickFirstDialog
from battletracker.ui.form_parts import measure_box
from battletracker.ui.session import Session

MATERIAL_CHOICES = (("brick_stone", "Brick or stone"), ("wood", "Wood"))
OPEN_STATES = ("intact", "unstable")


def corners_to_footprint(a: geometry.Point, b: geometry.Point) -> tuple[geometry.Point, float, float]:
    """Two opposite corners clicked on the map: the centre, width (left-right) and depth (up-down), square on."""
    centre = ((a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0)
    return centre, abs(b[0] - a[0]), abs(b[1] - a[1])


def building_at(game: Game, point: geometry.Point) -> str | None:
    """The building whose footprint holds this point (the last placed when they overlap)."""
    found = None
    for building in game.buildings.values():
        if building.contains(point):
            found = building.id
    return found


class BuildingDialog(PickFirstDialog):
    """A building's name, material and storeys, and how to place it: two corners, or a centre and a size."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent, "Add building", 440, "Place on the map")
        number = session.game.new_id("bld", session.game.buildings)[3:]
        self.name = QLineEdit(f"Building {number}", self)
        self.material = QComboBox(self)
        for key, text in MATERIAL_CHOICES:
            self.material.addItem(text, key)
        self.material.setToolTip("Four 6s from H.E. make a brick or stone building unstable; it collapses at "
                                 "the end of the Turn")
        self.storeys = QSpinBox(self)
        self.storeys.setRange(1, 20)
        self.storeys.setToolTip("Infantry in a brick or stone building of two or more storeys are not Pinned")
        self.by_corners = QRadioButton("Click two opposite corners on the map", self)
        self.by_centre = QRadioButton("Click its centre on the map, with this size:", self)
        group = QButtonGroup(self)
        group.addButton(self.by_corners)
        group.addButton(self.by_centre)
        self.by_corners.setChecked(True)
        self.width_box = measure_box(self, 6.0, 0.5, 200.0)
        self.depth_box = measure_box(self, 4.0, 0.5, 200.0)
        self.facing = measure_box(self, 0.0, 0.0, 359.9, " degrees turned clockwise", step=1.0)
        size = QFormLayout()
        size.addRow("Width (left-right)", self.width_box)
        size.addRow("Depth (up-down)", self.depth_box)
        size.addRow("Facing", self.facing)
        size_holder = QWidget(self)
        size_holder.setLayout(size)
        size_holder.setEnabled(False)
        self.by_centre.toggled.connect(size_holder.setEnabled)

        self.form.addRow("Name", self.name)
        self.form.addRow("Material", self.material)
        self.form.addRow("Storeys", self.storeys)
        self.finish(QLabel("<b>Placing it</b>", self), self.by_corners, self.by_centre, size_holder)


def _panel(host: FeatureHost) -> object | None:
    from battletracker.ui.features.bombardments.panel import BombardmentsPanel

    return host.window().findChild(BombardmentsPanel)


def _run_on_panel(name: str) -> Callable[[FeatureHost, str], None]:
    def run(host: FeatureHost, unit_id: str) -> None:
        panel = _panel(host)
        if panel is not None:
            getattr(panel, name)(unit_id)
    return run


def _may_enter(game: Game, unit: Unit) -> bool:
    return unit.vehicle is None and any(b.state in OPEN_STATES and unit.id not in b.occupants
                                        for b in game.buildings.values())


ENTER_BUILDING = UnitAction(
    key="coc.enter_building",
    title="Into a building...",
    applies=_may_enter,
    run=_run_on_panel("start_enter_building"),
    rulesets=(RULESET,),
    tip="Click the building on the map; the unit is inside it for the bombardment rules",
)

LEAVE_BUILDING = UnitAction(
    key="coc.leave_building",
    title="Out of the building",
    applies=lambda game, unit: building_of(game, unit.id) is not None,
    run=_run_on_panel("leave_building"),
    rulesets=(RULESET,),
    tip="The unit is no longer inside its building",
)
