"""Pieces of the short forms around the map: a measure taken at the table, and a form asked before a pick.

Apart from the procedure dialogs' parts (procedure_parts.py): these forms roll no dice and show no odds.
"""

from __future__ import annotations

from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QDoubleSpinBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget


def measure_box(parent: QWidget, value: float, least: float, most: float, suffix: str = '"',
                step: float = 0.5) -> QDoubleSpinBox:
    """A measure taken at the table, in inches unless `suffix` says otherwise, to a tenth.

    One maker, so every distance, size and facing box in the app reads and steps alike.
    """
    box = QDoubleSpinBox(parent)
    box.setRange(least, most)
    box.setDecimals(1)
    box.setSingleStep(step)
    box.setSuffix(suffix)
    box.setValue(value)
    return box


class PickFirstDialog(QDialog):
    """A short form asked before a pick on the map: its rows, what follows, and OK named for that pick.

    `form` takes the rows; `finish` puts what goes below them, then OK and Cancel.
    """

    def __init__(self, parent: QWidget | None, title: str, width: int, ok: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setMinimumWidth(width)
        self.form = QFormLayout()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                        self)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(ok)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.body = QVBoxLayout(self)
        self.body.addLayout(self.form)

    def finish(self, *below: QWidget) -> None:
        """Put `below` under the rows, then the buttons."""
        for widget in below:
            self.body.addWidget(widget)
        self.body.addWidget(self.buttons)
