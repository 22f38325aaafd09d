"""What a bombardment row's menu opens: the owner's peek at the hidden die, extra rounds, the area.

The peek asks first, because the whole table can see the screen: only after
"Show my die" does a small window hold the face and its meaning, and it
closes itself after a few seconds. Nothing of the die is ever put in the row,
a tooltip, the log or the map.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLayout
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QSpinBox
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.model.bombardment import AREA_SHAPES
from battletracker.rules.chain_of_command.bombardment import AreaOptions
from battletracker.rules.chain_of_command.bombardment import describe_pattern
from battletracker.ui.features.bombardments.die_face import DieFace
from battletracker.ui.features.bombardments.parts import BombardmentWindow
from battletracker.ui.form_parts import measure_box
from battletracker.ui.procedure_parts import RefusalBanner
from battletracker.ui.session import Session
from battletracker.ui.text import esc

PEEK_SECONDS = 8


class PeekPopup(BombardmentWindow):
    """"Only the owner should look", then the hidden die for a few seconds, in a window of its own."""

    def __init__(self, session: Session, bombardment_id: str, parent: QWidget | None = None) -> None:
        super().__init__(session, bombardment_id, parent, "the hidden die", 380)
        self.warning = QLabel(f"<b>Only {esc(self.owner())}'s player should look.</b><br>The die shows for "
                              f"{PEEK_SECONDS} seconds, then hides again.", self)
        self.warning.setWordWrap(True)
        self.die = DieFace("Your hidden die", self, size=56)
        self.die.cover()
        self.meaning = QLabel(self)
        self.meaning.setWordWrap(True)
        self.show_button = QPushButton("Show my die", self)
        self.show_button.setDefault(True)
        self.hide_button = QPushButton("Cancel", self)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(PEEK_SECONDS * 1000)
        self.timer.timeout.connect(self.close)

        face_row = QHBoxLayout()
        face_row.addWidget(self.die)
        face_row.addWidget(self.meaning, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.show_button)
        buttons.addWidget(self.hide_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.warning)
        layout.addLayout(face_row)
        layout.addLayout(buttons)
        self.show_button.clicked.connect(self.reveal)
        self.hide_button.clicked.connect(self.close)

    @property
    def showing(self) -> bool:
        return self.die.face is not None

    def reveal(self) -> None:
        b = self.session.game.bombardments.get(self.bombardment_id)
        if b is None or b.pattern_die is None:
            self.meaning.setText("No hidden die is placed.")
            return
        self.die.show_face(b.pattern_die)
        self.meaning.setText(describe_pattern(b.pattern_die, b.direction))
        self.show_button.hide()
        self.hide_button.setText("Hide")
        self.timer.start()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.timer.stop()
        self.die.cover()
        self.meaning.clear()
        super().closeEvent(event)


class _SubmitDialog(BombardmentWindow):
    """A small form whose OK applies through `on_submit` and stays open, with the reason, on a refusal."""

    def __init__(self, session: Session, bombardment_id: str, parent: QWidget | None, what: str,
                 width: int) -> None:
        super().__init__(session, bombardment_id, parent, what, width)
        self.on_submit: Callable[[], str | None] = lambda: None
        self.problem = RefusalBanner(self)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.accepted.connect(self.submit)
        self.buttons.rejected.connect(self.reject)

    def lay_out(self, ok: str, *parts: QWidget | QLayout) -> None:
        """The form's `parts`, then the refusal and the buttons, OK reading `ok` (what it does)."""
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(ok)
        layout = QVBoxLayout(self)
        for part in parts:
            if isinstance(part, QWidget):
                layout.addWidget(part)
            else:
                layout.addLayout(part)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)

    def submit(self) -> None:
        error = self.on_submit()
        self.problem.set_refusal(error)
        if error is None:
            self.accept()


class RoundsDialog(_SubmitDialog):
    """How many extra rounds are bought: more Phases of fire, static at the last position."""

    def __init__(self, session: Session, bombardment_id: str, parent: QWidget | None = None) -> None:
        super().__init__(session, bombardment_id, parent, "extra rounds", 400)
        b = self.bombardment
        self.rounds = QSpinBox(self)
        self.rounds.setRange(1, 12)
        phases = f"{b.phases_left} Phase{'' if b.phases_left == 1 else 's'} of fire"
        note = QLabel(f"{phases} left now. Each extra round is one more Phase of fire; "
                      "the extra Phases never move a rolling bombardment.", self)
        note.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Extra rounds", self.rounds)
        self.lay_out("Add the rounds", note, form)


class AreaDialog(_SubmitDialog):
    """One bombardment's area and weapon, as the table has them: shape, size, facing, dice and to-hit."""

    def __init__(self, session: Session, bombardment_id: str, parent: QWidget | None = None) -> None:
        super().__init__(session, bombardment_id, parent, "area", 420)
        b = self.bombardment
        self.shape = QComboBox(self)
        for shape in AREA_SHAPES:
            self.shape.addItem(shape.capitalize(), shape)
        self.shape.setCurrentIndex(max(0, self.shape.findData(b.shape)))
        self.width_box = measure_box(self, b.width, 0.5, 200.0)
        self.depth_box = measure_box(self, b.depth, 0.5, 200.0)
        self.radius = measure_box(self, b.radius, 0.5, 200.0)
        self.facing = measure_box(self, b.facing, 0.0, 359.9, " degrees turned clockwise", step=1.0)
        self.firepower_dice = QSpinBox(self)
        self.firepower_dice.setRange(1, 60)
        self.firepower_dice.setValue(b.firepower_dice)
        self.to_hit = QSpinBox(self)
        self.to_hit.setRange(2, 6)
        self.to_hit.setPrefix("hits on ")
        self.to_hit.setSuffix("+")
        self.to_hit.setValue(b.to_hit)
        form = QFormLayout()
        for label, box in (("Shape", self.shape), ("Width (left-right)", self.width_box),
                           ("Depth (up-down)", self.depth_box), ("Radius", self.radius), ("Facing", self.facing),
                           ("Firepower Dice per unit", self.firepower_dice), ("To hit", self.to_hit)):
            form.addRow(label, box)
        self.lay_out("Change the area", form)
        self.shape.currentIndexChanged.connect(lambda _i: self._follow_shape())
        self._follow_shape()
        self.setWindowModality(Qt.WindowModality.NonModal)

    def _follow_shape(self) -> None:
        circle = self.shape.currentData() == "circle"
        self.radius.setEnabled(circle)
        for box in (self.width_box, self.depth_box, self.facing):
            box.setEnabled(not circle)

    def options(self) -> AreaOptions:
        return AreaOptions(shape=str(self.shape.currentData()), width=self.width_box.value(),
                           depth=self.depth_box.value(), radius=self.radius.value(), facing=self.facing.value(),
                           firepower_dice=self.firepower_dice.value(), to_hit=self.to_hit.value())
