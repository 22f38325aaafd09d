"""New game: the ruleset is chosen here, once, with the table and the two sides."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QDoubleSpinBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.model.game import Game
from battletracker.model.game import Side

RULESETS = {
    "chain_of_command": ("Chain of Command", ("Germany", "United States")),
    "armour_battles": ("Armour Battles", ("Germany", "Soviet Union")),
    "necromunda": ("Necromunda", ("Goliaths", "Escher")),
}
SIDE_COLOURS = ("#3b6fb6", "#b5651d")


class NewGameDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New game")
        self.setMinimumWidth(440)
        self.title = QLineEdit("New battle", self)
        self.ruleset = QComboBox(self)
        for key, (name, _sides) in RULESETS.items():
            self.ruleset.addItem(name, key)
        self.width_box = self._inches(72.0)
        self.height_box = self._inches(48.0)
        self.side_a = QLineEdit(self)
        self.side_b = QLineEdit(self)
        form = QFormLayout()
        form.addRow("Title", self.title)
        form.addRow("Ruleset", self.ruleset)
        form.addRow("Table width", self.width_box)
        form.addRow("Table depth", self.height_box)
        form.addRow("First side", self.side_a)
        form.addRow("Second side", self.side_b)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.ruleset.currentIndexChanged.connect(self._suggest_sides)
        self._suggest_sides()

    def _inches(self, value: float) -> QDoubleSpinBox:
        box = QDoubleSpinBox(self)
        box.setRange(12.0, 240.0)
        box.setDecimals(0)
        box.setSuffix('"')
        box.setValue(value)
        return box

    def _suggest_sides(self) -> None:
        _name, (a, b) = RULESETS[self.ruleset.currentData()]
        self.side_a.setText(a)
        self.side_b.setText(b)

    def game(self) -> Game:
        names = (self.side_a.text().strip() or "Side A", self.side_b.text().strip() or "Side B")
        return Game(
            title=self.title.text().strip() or "New battle",
            ruleset=str(self.ruleset.currentData()),
            table_width=self.width_box.value(),
            table_height=self.height_box.value(),
            sides=[Side(name, colour) for name, colour in zip(names, SIDE_COLOURS, strict=True)],
        )
