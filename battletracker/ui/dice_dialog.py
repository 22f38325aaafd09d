"""The Dice dialog: N D6 at a target number, with exact odds before the roll."""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QSpinBox
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.rules.generic import MAX_POOL
from battletracker.ui.procedure_runner import FirstOpening
from battletracker.ui.procedure_runner import ProcedureDialog
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.session import Session


class DiceDialog(ProcedureDialog):
    first_opening = FirstOpening("chain_of_command", 1, "Dice", "dice")

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Roll dice")
        self.setMinimumSize(520, 560)
        self.dice = QSpinBox(self)
        self.dice.setRange(1, MAX_POOL)
        self.dice.setValue(6)
        self.dice.setSuffix(" D6")
        self.target = QSpinBox(self)
        self.target.setRange(1, 6)
        self.target.setValue(4)
        self.target.setSuffix("+")
        form = QFormLayout()
        form.addRow("Dice", self.dice)
        form.addRow("Each die succeeds on", self.target)
        self.runner = ProcedureRunner(session, "dice.pool", "Dice roll", self)
        close = self.close_buttons()
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.runner, 1)
        layout.addWidget(close)
        self.dice.valueChanged.connect(self._update)
        self.target.valueChanged.connect(self._update)
        self.runner.applied.connect(lambda _res: self.runner.result_view.append("<i>Applied to the log.</i>"))
        self._update()

    def _update(self) -> None:
        choices = {"dice": self.dice.value(), "target": self.target.value()}
        self.runner.set_inputs(choices)
        self.runner.set_action("dice.pool", choices)
