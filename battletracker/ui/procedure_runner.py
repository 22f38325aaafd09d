"""The part every procedure dialog shares: odds first, then dice, then Apply.

Given a procedure name and its inputs it shows the exact odds before any
roll; "Roll for me" uses the app's dice, "Enter table dice" asks for the dice
rolled at the table one step at a time (each entry validated against its die,
nothing applied until the whole procedure has its dice); the result reads as
the log will, and Apply pushes its effects as one undo step.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from battletracker.core.dice import DiceError, DiceExhausted, Face, RandomDice, ScriptedDice, parse_typed_rolls
from battletracker.model.game import GameError
from battletracker.rules import Inputs, Resolution, RulesInputError, get, odds, resolve
from battletracker.rules.tables import TableError
from battletracker.ui.odds_plot import GroupFn, OddsPlot
from battletracker.ui.session import Session


def with_settings(session: Session, procedure: str, inputs: Mapping[str, object]) -> dict[str, object]:
    """The inputs plus the game's overrides of the settings this procedure reads."""
    merged = dict(inputs)
    for key in get(procedure).settings:
        if key in session.game.settings and key not in merged:
            merged[key] = session.game.settings[key]
    return merged


class ProcedureRunner(QWidget):
    """Odds, dice (digital or typed), result and Apply for one procedure."""

    resolved = Signal(object)  # Resolution
    applied = Signal(object)  # Resolution

    def __init__(self, session: Session, procedure: str, title: str, parent: QWidget | None = None,
                 group: GroupFn | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.procedure = procedure
        self.title = title
        self._group = group
        self._inputs: dict[str, object] = {}
        self._typed: list[Face] = []
        self._typed_run = False
        self._pending: DiceExhausted | None = None
        self.result: Resolution | None = None

        self.problem = QLabel(self)
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: white; background: #b3261e; padding: 4px; border-radius: 3px;")
        self.problem.hide()
        self.odds_plot = OddsPlot(self)

        self.roll_button = QPushButton("&Roll for me", self)
        self.roll_button.setToolTip("Roll with the app's dice")
        self.typed_button = QPushButton("&Enter table dice", self)
        self.typed_button.setToolTip("Type the dice rolled at the table, step by step")
        self.apply_button = QPushButton("&Apply", self)
        self.apply_button.setEnabled(False)
        self.apply_button.setToolTip("Apply the result to the game as one undo step")

        self.prompt = QLabel(self)
        self.prompt.setWordWrap(True)
        self.entry = QLineEdit(self)
        self.entry.setPlaceholderText("e.g. 6 1")
        self.entry_ok = QPushButton("OK", self)
        for button in (self.roll_button, self.typed_button, self.apply_button, self.entry_ok):
            # Enter in the dice field must submit those dice, never press a dialog's default button.
            button.setAutoDefault(False)
            button.setDefault(False)
        self.entry_row = QWidget(self)
        row = QHBoxLayout(self.entry_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.prompt, 2)
        row.addWidget(self.entry, 2)
        row.addWidget(self.entry_ok)
        self.entry_row.hide()
        self.entry_error = QLabel(self)
        self.entry_error.setWordWrap(True)
        self.entry_error.setStyleSheet("color: #d93025; font-weight: bold;")
        self.entry_error.hide()

        self.result_view = QTextBrowser(self)
        self.result_view.setMinimumHeight(90)
        self.result_view.setPlaceholderText("The result appears here after the roll.")

        buttons = QHBoxLayout()
        buttons.addWidget(self.roll_button)
        buttons.addWidget(self.typed_button)
        buttons.addStretch(1)
        buttons.addWidget(self.apply_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.problem)
        layout.addWidget(self.odds_plot, 3)
        layout.addLayout(buttons)
        layout.addWidget(self.entry_row)
        layout.addWidget(self.entry_error)
        layout.addWidget(self.result_view, 1)

        self.roll_button.clicked.connect(self.roll_for_me)
        self.typed_button.clicked.connect(self.start_typed)
        self.entry_ok.clicked.connect(self.submit_entry)
        self.entry.returnPressed.connect(self.submit_entry)
        self.apply_button.clicked.connect(self.apply)

    # -- inputs and odds --------------------------------------------------------
    def set_inputs(self, inputs: Mapping[str, object]) -> bool:
        """New inputs: recompute the odds, or show why they cannot be used. Returns validity."""
        self._inputs = with_settings(self.session, self.procedure, inputs)
        self._clear_result()
        try:
            dist = odds(self.procedure, self._as_inputs())
        except (RulesInputError, TableError) as exc:
            self._show_problem(str(exc))
            return False
        self.problem.hide()
        self.odds_plot.set_distribution(dist, self._group)
        self.roll_button.setEnabled(True)
        self.typed_button.setEnabled(True)
        return True

    def _as_inputs(self) -> Inputs:
        return {k: v for k, v in self._inputs.items() if isinstance(v, str | int | float | bool)}

    def _show_problem(self, message: str) -> None:
        self.problem.setText(message)
        self.problem.show()
        self.roll_button.setEnabled(False)
        self.typed_button.setEnabled(False)

    def _clear_result(self) -> None:
        self.result = None
        self._pending = None
        self._typed = []
        self.entry_row.hide()
        self.entry_error.hide()
        self.result_view.clear()
        self.apply_button.setEnabled(False)
        self.odds_plot.mark(None)

    # -- dice ---------------------------------------------------------------------
    def roll_for_me(self) -> None:
        self._clear_result()
        self._typed_run = False
        self._run(RandomDice())

    def start_typed(self) -> None:
        """Begin asking for the table's dice, one roll at a time, in the rules' order."""
        self._clear_result()
        self._typed_run = True
        self._advance_typed()

    def submit_entry(self) -> None:
        if self._pending is None:
            return
        try:
            values = parse_typed_rolls(self.entry.text(), self._pending.die, self._pending.count)
        except DiceError as exc:
            self.entry_error.setText(f"{self._pending.label}: {exc}")
            self.entry_error.show()
            self.entry.selectAll()
            return
        self.entry_error.hide()
        self._typed.extend(values)
        self._advance_typed()

    def _advance_typed(self) -> None:
        try:
            res = resolve(self.procedure, self._as_inputs(), ScriptedDice(self._typed))
        except DiceExhausted as need:
            self._pending = need
            faces = need.die.describe_faces()
            many = f"{need.count} {need.die.name}" if need.count > 1 else f"one {need.die.name}"
            self.prompt.setText(f"<b>{need.label}</b>: roll {many} ({faces}) and type the result")
            self.entry.clear()
            self.entry_row.show()
            self.entry.setFocus(Qt.FocusReason.OtherFocusReason)
            return
        except (RulesInputError, TableError) as exc:
            self._show_problem(str(exc))
            return
        self._pending = None
        self.entry_row.hide()
        self._show_result(res)

    def _run(self, dice: RandomDice) -> None:
        try:
            res = resolve(self.procedure, self._as_inputs(), dice)
        except (RulesInputError, TableError) as exc:
            self._show_problem(str(exc))
            return
        self._show_result(res)

    def _show_result(self, res: Resolution) -> None:
        self.result = res
        rolls = "".join(
            f"<li>{label}: <b>{' '.join(str(v) for v in values)}</b></li>" for label, values in res.rolls
        )
        lines = "".join(f"<p>{line}</p>" for line in res.log)
        heading = self._group(res.outcome) if self._group else res.outcome
        self.result_view.setHtml(f"<h3>{heading}</h3><ul>{rolls}</ul>{lines}")
        self.odds_plot.mark(res.outcome)
        self.apply_button.setEnabled(True)
        self.resolved.emit(res)

    def apply(self) -> bool:
        if self.result is None:
            return False
        try:
            source = "dice rolled at the table" if self._typed_run else "the app's dice"
            self.session.apply_resolution(self.result, self.title, source)
        except GameError as exc:
            self._show_problem(f"Not applied: {exc}")
            return False
        applied = self.result
        self.apply_button.setEnabled(False)
        self.applied.emit(applied)
        return True
