"""The Bombardments dock: every Forward Observer and SOS Fire with its state and the next step as a button.

Above the rows, a reminder lists the enemies within 2" of each other in a
Smoke Barrage, who must fight a Close Combat on the smoke's terms. It also
places the buildings the bombardment rules need and puts units
into and out of them (buildings.py defines the unit actions).

Each row shows the Phases left on the Forward Observer's die, the hidden
Static/Rolling die (covered until the second Phase of fire reveals it) and
the one thing the rules want next (`next_action`), or why it waits
(`waiting`: another side's Phase, or already done this Phase). Rows are
rebuilt from the game on every change, End Phase included, so undo and redo
show through at once. A finished bombardment or SOS Fire keeps its row, cut to
its name and one line saying it is over (nothing left to roll or place).

The rows wrap their words to the dock's width: at its default width on a
laptop nothing hides behind a sideways scroll bar.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractButton
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QFrame
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QMenu
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QScrollArea
from PySide6.QtWidgets import QToolButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.core import geometry
from battletracker.model.bombardment import Bombardment
from battletracker.model.effects import Changes
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.rules import RulesInputError
from battletracker.rules.actions import Choices
from battletracker.rules.actions import plan
from battletracker.rules.base import counted
from battletracker.rules.base import message_of
from battletracker.rules.chain_of_command.bombardment import AreaOptions
from battletracker.rules.chain_of_command.bombardment import describe_pattern
from battletracker.rules.chain_of_command.bombardment import next_action
from battletracker.rules.chain_of_command.bombardment import observer_name
from battletracker.rules.chain_of_command.bombardment import units_in_area
from battletracker.rules.chain_of_command.bombardment import waiting
from battletracker.rules.chain_of_command.bombardment_data import RULESET
from battletracker.rules.chain_of_command.coc_points import observer_activation
from battletracker.rules.chain_of_command.smoke_barrage import close_combat_terms
from battletracker.rules.chain_of_command.smoke_barrage import smoke_close_combats
from battletracker.rules.places import place_words
from battletracker.ui.features.bombardments.buildings import BuildingDialog
from battletracker.ui.features.bombardments.buildings import building_at
from battletracker.ui.features.bombardments.buildings import corners_to_footprint
from battletracker.ui.features.bombardments.dialogs import NewBombardmentDialog
from battletracker.ui.features.bombardments.dialogs import PatternDialog
from battletracker.ui.features.bombardments.dialogs import PhaseDialog
from battletracker.ui.features.bombardments.dialogs import RangingDialog
from battletracker.ui.features.bombardments.dialogs import SosDialog
from battletracker.ui.features.bombardments.dialogs import SosSideDialog
from battletracker.ui.features.bombardments.die_face import DieFace
from battletracker.ui.features.bombardments.parts import framed_note
from battletracker.ui.features.bombardments.row_menu import AreaDialog
from battletracker.ui.features.bombardments.row_menu import PeekPopup
from battletracker.ui.features.bombardments.row_menu import RoundsDialog
from battletracker.ui.map.bombardments import BombardmentLayer
from battletracker.ui.procedure_parts import RefusalBanner
from battletracker.ui.session import Session
from battletracker.ui.text import as_typed
from battletracker.ui.text import esc

PointCallback = Callable[[tuple[float, float] | None], None]


class PointPicker(Protocol):
    """What the panel needs from the map: `pick_point` and, for its dialogs, `pick_unit` (MapView has both)."""

    def pick_point(self, callback: PointCallback, prompt: str = ...) -> None: ...

    def pick_unit(self, callback: Callable[[str | None], None], prompt: str = ...) -> None: ...


STATE_TEXT = {
    "ranging": "Ranging",
    "landed": "Ranging shot landed",
    "ready": "On target: begins this activation",
    "firing": "Firing",
    "lingering": "Over: effects linger",
    "cleared": "Over: its effects have cleared",
}


def _spends(game: Game, b: Bombardment) -> str:
    """What the Forward Observer's next activation spends ("Activated with a Command Dice 1"), or why it waits."""
    try:
        return observer_activation(game, b.side, None, "act").fact
    except RulesInputError as exc:
        return message_of(exc)


class BombardmentRow(QFrame):
    """One bombardment: name, state, Phases left, the hidden die, and its next step's buttons."""

    def __init__(self, panel: BombardmentsPanel, b: Bombardment) -> None:
        super().__init__(panel)
        self.bombardment_id = b.id
        self.setFrameShape(QFrame.Shape.StyledPanel)
        game = panel.session.game
        self.title = QLabel(f"<b>{esc(observer_name(game, b))}</b>", self)
        self.title.setWordWrap(True)
        self.menu_button = QToolButton(self)
        self.menu_button.setText("More")
        self.menu_button.setObjectName("bombardment_menu")
        self.menu_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu = QMenu(self.menu_button)
        self.menu_button.setMenu(self.menu)
        self.menu_actions: dict[str, QAction] = {}
        if b.pattern_die is not None and not b.revealed and b.state != "cleared":
            self.menu_actions["peek"] = self.menu.addAction("Show my die...", lambda: panel.open_peek(b.id))
        if b.kind != "sos" and b.state in ("ready", "firing"):
            self.menu_actions["rounds"] = self.menu.addAction("Buy extra rounds...",
                                                              lambda: panel.open_add_rounds(b.id))
        if b.state != "cleared":
            self.menu_actions["area"] = self.menu.addAction("Edit the area...", lambda: panel.open_edit_area(b.id))
        self.menu_button.setVisible(bool(self.menu_actions))
        self.state = QLabel(self)
        self.state.setWordWrap(True)
        self.phases = DieFace("Phases left", self)
        self.pattern = DieFace("Hidden die", self)
        self.buttons: dict[str, QPushButton] = {}

        # SOS Fire has neither die, and a cleared bombardment's are spent: the row is hidden whole for them.
        self.dice_row = QWidget(self)
        dice = QHBoxLayout(self.dice_row)
        dice.setContentsMargins(0, 0, 0, 0)
        dice.addWidget(QLabel("Phases left", self.dice_row))
        dice.addWidget(self.phases)
        dice.addSpacing(12)
        dice.addWidget(QLabel("Static/Rolling", self.dice_row))
        dice.addWidget(self.pattern)
        dice.addStretch(1)
        self.action_row = QHBoxLayout()
        heading = QHBoxLayout()
        heading.addWidget(self.title, 1)
        heading.addWidget(self.menu_button)
        layout = QVBoxLayout(self)
        layout.addLayout(heading)
        layout.addWidget(self.state)
        layout.addWidget(self.dice_row)
        layout.addLayout(self.action_row)

        self._show(panel, b)

    def _show(self, panel: BombardmentsPanel, b: Bombardment) -> None:
        game = panel.session.game
        inside = units_in_area(game, b) if b.active else []
        if b.state == "cleared":
            self.state.setText(STATE_TEXT["cleared"])
            self.dice_row.hide()
            return
        if b.kind == "sos":
            lines = [f"SOS Fire centred {esc(place_words(game, b.centre))}, {b.radius:g}\" radius"]
        elif b.state == "landed" and b.landed_x is not None and b.landed_y is not None:
            lines = [f"Ranging shot landed {esc(place_words(game, (b.landed_x, b.landed_y)))}",
                     f"Aimed {esc(place_words(game, b.centre))}"]
        else:
            centred = "Aimed" if b.state in ("ranging", "ready") else "Centred"
            lines = [STATE_TEXT.get(b.state, b.state), f"{centred} {esc(place_words(game, b.centre))}"]
        if b.kind != "sos":
            if b.devastating:
                lines.append("Devastating: the first Phase of fire rolls double dice")
            if b.phases_fired:
                lines.append(f"{counted(b.phases_fired, 'Phases of fire')} so far")
        if b.state == "lingering":
            lines.append(f"Clears after {b.linger_phases} more {'Phase end' if b.linger_phases == 1 else 'Phase ends'}")
        if inside:
            lines.append("In the area: " + esc(", ".join(game.units[u].name for u in inside)))
        if b.pinned:
            lines.append("Pinned: " + esc(", ".join(game.units[u].name for u in b.pinned if u in game.units)))
        self.state.setText("<br>".join(lines))

        if b.kind == "sos":
            self.dice_row.hide()
        elif b.observer_on_table:
            self.phases.show_face(b.phases_left)
        else:
            self.phases.clear()
        if b.pattern_die is None:
            self.pattern.clear()
        elif b.revealed:
            self.pattern.show_face(b.pattern_die)
            self.pattern.setToolTip(f"Revealed: {describe_pattern(b.pattern_die, b.direction)}")
        else:
            self.pattern.cover()

        if b.kind == "sos":
            if b.state == "lingering":
                self._button("sos", "Roll for the units inside...", lambda: panel.open_sos(b.id))
            return
        action = next_action(b)
        wait = waiting(game, b)
        if wait is not None:
            note = QLabel(f"<i>{esc(wait.short)}</i>", self)
            note.setWordWrap(True)
            note.setObjectName("bombardment_waiting")
            note.setToolTip(as_typed(wait.sentence))
            self.action_row.addWidget(note, 1)
            return
        if action.key == "range":
            self._button("range", action.text + "...", lambda: panel.open_ranging(b.id))
        elif action.key == "fire_for_effect_or_re_aim":
            self._button("fire_for_effect", "Fire for effect", lambda: panel.fire_for_effect(b.id))
            self._button("re_aim", "Re-aim...", lambda: panel.start_re_aim(b.id))
            spends = _spends(game, b)
            for key in ("fire_for_effect", "re_aim"):
                self.buttons[key].setToolTip(as_typed(spends))
        elif action.key == "place_pattern_die":
            self._button("pattern", "Place the hidden die...", lambda: panel.open_pattern(b.id))
        elif action.key in ("fire", "activate"):
            self._button("fire", "Fire this Phase...", lambda: panel.open_phase(b.id))
            self.buttons["fire"].setToolTip(action.text)
        else:
            note = QLabel(f"<i>{action.text}</i>", self)
            note.setWordWrap(True)
            self.action_row.addWidget(note, 1)
            return
        self.action_row.addStretch(1)  # the buttons keep their own width, on the left

    def _button(self, key: str, text: str, slot: Callable[[], object]) -> None:
        button = QPushButton(text, self)
        button.setObjectName(f"bombardment_{key}")
        button.clicked.connect(slot)
        self.action_row.addWidget(button)
        self.buttons[key] = button


class BombardmentsPanel(QWidget):
    """The dock's contents: New bombardment, SOS Fire, and one row per bombardment."""

    def __init__(self, session: Session, picker: PointPicker, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.picker = picker
        self.rows: dict[str, BombardmentRow] = {}
        self.dialog: QDialog | None = None
        self.layer: BombardmentLayer | None = None  # the map layer, kept alive with the panel

        self.new_button = QPushButton("New bombardment...", self)
        self.new_button.setToolTip("Place a Forward Observer: side, rounds, Phases, then the aiming point")
        self.sos_button = QPushButton("SOS fire...", self)
        self.sos_button.setToolTip("Pick the centre of the 6\" circle; every Team inside is fired at")
        self.building_button = QPushButton("Add building...", self)
        self.building_button.setToolTip("A building the bombardment rules need: material, storeys, and where it is")
        self.problem = RefusalBanner(self)
        self.smoke_note = framed_note(self, "bombardment_smoke_close_combat")
        self.empty = QLabel("No bombardments yet.", self)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)

        top = QHBoxLayout()
        top.addWidget(self.new_button)
        top.addWidget(self.sos_button)
        top.addWidget(self.building_button)
        top.addStretch(1)
        self.list_widget = QWidget(self)
        self.list_layout = QVBoxLayout(self.list_widget)
        self.list_layout.setContentsMargins(0, 0, 0, 0)
        self.list_layout.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        # Rows wrap to the dock's width instead: a sideways scroll bar hid "More" and the row's last words.
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(self.list_widget)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.problem)
        layout.addWidget(self.smoke_note)
        layout.addWidget(self.empty)
        layout.addWidget(scroll, 1)

        self.new_button.clicked.connect(self.open_new)
        self.sos_button.clicked.connect(self.open_sos_side)
        self.building_button.clicked.connect(self.open_add_building)
        session.changed.connect(self._on_changed)
        self.rebuild()

    # -- following the game -----------------------------------------------------------------
    def _on_changed(self, changes: Changes) -> None:
        if (changes.everything or changes.bombardments or changes.sides or changes.roster or changes.units
                or changes.buildings or changes.clock):
            self.rebuild()

    def rebuild(self) -> None:
        for row in self.rows.values():
            self.list_layout.removeWidget(row)
            row.hide()
            row.setParent(None)
            row.deleteLater()
        self.rows = {}
        game = self.session.game
        enabled = game.ruleset == RULESET and bool(game.sides) and not self.session.replaying
        self.new_button.setEnabled(enabled)
        self.sos_button.setEnabled(enabled)
        self.building_button.setEnabled(game.ruleset == RULESET and not self.session.replaying)
        for b in game.bombardments.values():
            row = BombardmentRow(self, b)
            if self.session.replaying:  # the replay shows each bombardment as it was at that step
                for button in row.findChildren(QAbstractButton):
                    button.setEnabled(False)
                    button.setToolTip("Read-only while you replay the game")
            self.list_layout.insertWidget(self.list_layout.count() - 1, row)
            self.rows[b.id] = row
        self.empty.setVisible(not self.rows)
        self._show_smoke_close_combats()

    def _show_smoke_close_combats(self) -> None:
        """Enemies within 2\" of each other where a Smoke Barrage covers one of them must fight a Close Combat."""
        game = self.session.game
        pairs = smoke_close_combats(game) if game.ruleset == RULESET else []
        lines = []
        for a, b in pairs:
            terms = close_combat_terms(game, a, b)
            if terms is None:
                continue
            worse = terms.losing_result_levels_worse
            lines.append(f"<li><b>{esc(game.units[a].name)}</b> and <b>{esc(game.units[b].name)}</b>: "
                         f"{counted(terms.enemy_movement_dice, 'dice') if terms.enemy_movement_dice else 'no dice'} "
                         "for enemy movement; a losing result counts "
                         f"{worse} level{'s' if worse != 1 else ''} worse</li>")
        self.smoke_note.setText("<b>Close Combat in the smoke</b> (within 2\" of an enemy):"
                                f"<ul style='margin: 0'>{''.join(lines)}</ul>" if lines else "")
        self.smoke_note.setVisible(bool(lines))

    def show_problem(self, text: str | None) -> None:
        self.problem.set_refusal(text)

    def _attempt(self, name: str, choices: Choices) -> str | None:
        """Take the player's action `name` (one undo step, recorded); the refusal's sentence, or None."""
        try:
            self.session.act(name, choices)
        except (RulesInputError, GameError) as exc:
            return message_of(exc)
        return None

    def _apply(self, name: str, choices: Choices) -> bool:
        """`_attempt`, with a refusal shown in the panel."""
        error = self._attempt(name, choices)
        self.show_problem(error)
        return error is None

    def _open(self, dialog: QDialog) -> QDialog:
        if self.dialog is not None:
            self.dialog.close()
        self.dialog = dialog
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.destroyed.connect(lambda _o=None, d=dialog: self._forget(d))
        dialog.show()
        return dialog

    def _forget(self, dialog: QDialog) -> None:
        if self.dialog is dialog:
            self.dialog = None

    # -- new bombardment ----------------------------------------------------------------------
    def open_new(self) -> None:
        dialog = NewBombardmentDialog(self.session, self)
        dialog.accepted.connect(lambda: self.start_new(int(dialog.side.currentData()), str(dialog.kind.currentData()),
                                                       dialog.phases.value()))
        self._open(dialog)

    def start_new(self, side: int, kind: str, phases: int) -> None:
        """Ask the map for the aiming point, drawn at once, then for the Forward Observer's place."""
        def aimed(aim: tuple[float, float] | None) -> None:
            if aim is None:
                return
            if self.layer is not None:
                self.layer.show_new_aim(side, kind, aim)

            def placed(at: tuple[float, float] | None) -> None:
                if self.layer is not None:
                    self.layer.forget_new_aim()
                if at is not None:
                    self.place_bombardment(side, kind, phases, aim, at)
            self.picker.pick_point(placed, "Click where the Forward Observer stands")
        self.picker.pick_point(aimed, "Click the bombardment's aiming point")

    def place_bombardment(self, side: int, kind: str, phases: int, aim: geometry.Point,
                          observer: geometry.Point) -> bool:
        return self._apply("coc.new_bombardment", {"side": side, "kind": kind, "phases": phases, "x": aim[0],
                                                   "y": aim[1], "observer_x": observer[0],
                                                   "observer_y": observer[1]})

    # -- the next steps -----------------------------------------------------------------------
    def open_ranging(self, bombardment_id: str) -> RangingDialog:
        return self._open(RangingDialog(self.session, bombardment_id, self, self.layer))  # type: ignore[return-value]

    def fire_for_effect(self, bombardment_id: str) -> bool:
        return self._apply("coc.fire_for_effect", {"bombardment": bombardment_id})

    def start_re_aim(self, bombardment_id: str) -> None:
        def picked(at: tuple[float, float] | None) -> None:
            if at is not None:
                self.re_aim(bombardment_id, at)
        self.picker.pick_point(picked, "Click the new aiming point")

    def re_aim(self, bombardment_id: str, aim: geometry.Point) -> bool:
        return self._apply("coc.re_aim", {"bombardment": bombardment_id, "x": aim[0], "y": aim[1]})

    def open_pattern(self, bombardment_id: str) -> PatternDialog:
        return self._open(PatternDialog(self.session, bombardment_id, self))  # type: ignore[return-value]

    def open_phase(self, bombardment_id: str) -> PhaseDialog:
        return self._open(PhaseDialog(self.session, bombardment_id, self))  # type: ignore[return-value]

    # -- SOS Fire -------------------------------------------------------------------------------
    def open_sos_side(self) -> SosSideDialog:
        """Ask which side calls SOS Fire, then for the centre on the map."""
        dialog = SosSideDialog(self.session, self)
        dialog.accepted.connect(lambda: self.start_sos(int(dialog.side.currentData())))
        return self._open(dialog)  # type: ignore[return-value]

    def start_sos(self, side: int) -> None:
        def picked(at: tuple[float, float] | None) -> None:
            if at is not None:
                self.create_sos(side, at)
        self.picker.pick_point(picked, "Click the centre of the SOS Fire")

    def create_sos(self, side: int, centre: geometry.Point) -> SosDialog | None:
        """Place the SOS circle (one undo step), then open the dialog that rolls for each unit inside."""
        before = set(self.session.game.bombardments)
        if not self._apply("coc.new_sos", {"side": side, "x": centre[0], "y": centre[1]}):
            return None
        added = [b for b in self.session.game.bombardments if b not in before]
        return self.open_sos(added[0]) if added else None

    def open_sos(self, sos_id: str) -> SosDialog:
        return self._open(SosDialog(self.session, sos_id, self.picker, self))  # type: ignore[return-value]

    # -- buildings ------------------------------------------------------------------------------
    def open_add_building(self) -> BuildingDialog:
        dialog = BuildingDialog(self.session, self)
        dialog.accepted.connect(lambda: self.start_add_building(dialog))
        return self._open(dialog)  # type: ignore[return-value]

    def start_add_building(self, dialog: BuildingDialog) -> None:
        """Ask the map for two corners, or for the centre of a building of the dialog's size."""
        name, material = dialog.name.text().strip() or "Building", str(dialog.material.currentData())
        storeys = dialog.storeys.value()
        if dialog.by_centre.isChecked():
            width, depth, facing = dialog.width_box.value(), dialog.depth_box.value(), dialog.facing.value()

            def centred(at: tuple[float, float] | None) -> None:
                if at is not None:
                    self.place_building(name, at, width, depth, facing, material, storeys)
            self.picker.pick_point(centred, f"Click the centre of {name}")
            return

        def first(a: tuple[float, float] | None) -> None:
            if a is None:
                return

            def second(b: tuple[float, float] | None) -> None:
                if b is not None:
                    centre, width, depth = corners_to_footprint(a, b)
                    self.place_building(name, centre, width, depth, 0.0, material, storeys)
            self.picker.pick_point(second, f"Click the opposite corner of {name}")
        self.picker.pick_point(first, f"Click one corner of {name}")

    def place_building(self, name: str, centre: geometry.Point, width: float, depth: float, facing: float,
                       material: str, storeys: int) -> bool:
        return self._apply("coc.add_building", {"name": name, "x": centre[0], "y": centre[1], "width": width,
                                                "depth": depth, "facing": facing, "material": material,
                                                "storeys": storeys})

    def start_enter_building(self, unit_id: str) -> None:
        name = self.session.game.units[unit_id].name

        def picked(at: tuple[float, float] | None) -> None:
            if at is None:
                return
            building_id = building_at(self.session.game, at)
            if building_id is None:
                self.show_problem(f"No building {place_words(self.session.game, at)}: click inside its outline.")
                return
            self.enter_building(unit_id, building_id)
        self.picker.pick_point(picked, f"Click the building {name} goes into")

    def enter_building(self, unit_id: str, building_id: str) -> bool:
        return self._apply("coc.enter_building", {"unit": unit_id, "building": building_id})

    def leave_building(self, unit_id: str) -> bool:
        return self._apply("coc.leave_building", {"unit": unit_id})

    # -- the row's menu -------------------------------------------------------------------------
    def open_peek(self, bombardment_id: str) -> PeekPopup:
        """The owner's look at the hidden die, in its own window and only after they confirm."""
        return self._open(PeekPopup(self.session, bombardment_id, self))  # type: ignore[return-value]

    def open_add_rounds(self, bombardment_id: str) -> RoundsDialog:
        dialog = RoundsDialog(self.session, bombardment_id, self)
        dialog.on_submit = lambda: self.add_rounds_error(bombardment_id, dialog.rounds.value())
        return self._open(dialog)  # type: ignore[return-value]

    def add_rounds_error(self, bombardment_id: str, rounds: int) -> str | None:
        return self._attempt("coc.extra_rounds", {"bombardment": bombardment_id, "rounds": rounds})

    def open_edit_area(self, bombardment_id: str) -> AreaDialog:
        dialog = AreaDialog(self.session, bombardment_id, self)
        dialog.on_submit = lambda: self.edit_area_error(bombardment_id, dialog.options())
        return self._open(dialog)  # type: ignore[return-value]

    def edit_area_error(self, bombardment_id: str, area: AreaOptions) -> str | None:
        """Change the area as one undo step; nothing changed is no step at all."""
        choices: dict[str, str | int | float | bool] = {"bombardment": bombardment_id}
        choices.update({k: v for k, v in asdict(area).items() if v is not None})
        try:
            if not plan("coc.edit_area", self.session.game, choices).effects:
                return None
        except RulesInputError as exc:
            return message_of(exc)
        return self._attempt("coc.edit_area", choices)
