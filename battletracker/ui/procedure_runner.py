"""The part every procedure dialog shares: odds first, then dice, then Apply.

Given a procedure name and its inputs it shows the exact odds before any
roll; "Roll for me" uses the app's dice, "Enter table dice" asks for the dice
rolled at the table one step at a time (each entry validated against its die,
nothing applied until the whole procedure has its dice); the result reads as
the log will, and Apply pushes its effects as one undo step. One action, one
roll: once applied, Roll, Enter table dice and Apply stay disabled until the
dialog asks for something else (another action or other choices; with no
action named, other inputs). The result box grows to hold every line of the
result, and a dialog that scrolls brings it and Apply into view after the roll.

Dialogs that hold runners derive from `ProcedureDialog`: Enter in the dice
field submits the dice and never reaches the dialog, the Close button is not a
default button, and closing with typed dice not yet applied asks first.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from math import ceil
from typing import Any
from typing import ClassVar

from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import QEvent
from PySide6.QtCore import QPoint
from PySide6.QtCore import QRect
from PySide6.QtCore import QSizeF
from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QScrollArea
from PySide6.QtWidgets import QTextBrowser
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.core.dice import DiceError
from battletracker.core.dice import DiceExhausted
from battletracker.core.dice import Die
from battletracker.core.dice import Face
from battletracker.core.dice import RandomDice
from battletracker.core.dice import ScriptedDice
from battletracker.core.dice import parse_typed_rolls
from battletracker.model.game import GameError
from battletracker.rules import ChoiceNeeded
from battletracker.rules import Inputs
from battletracker.rules import OddsTooLarge
from battletracker.rules import Resolution
from battletracker.rules import RulesInputError
from battletracker.rules import get
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.actions import with_game_settings
from battletracker.rules.base import InputValue
from battletracker.rules.base import message_of
from battletracker.rules.tables import TableError
from battletracker.ui.fit import screen_room
from battletracker.ui.odds_plot import GroupFn
from battletracker.ui.odds_plot import OddsPlot
from battletracker.ui.refusal import RefusalBanner
from battletracker.ui.session import Session
from battletracker.ui.text import esc


def with_settings(session: Session, procedure: str, inputs: Mapping[str, object]) -> dict[str, object]:
    """The inputs plus the game's overrides of the settings this procedure reads."""
    return with_game_settings(session.game, procedure, inputs)


class _Replay:
    """The faces already rolled, in order, then the app's dice; remembers every face it gave.

    A procedure that stops for a player's choice is run again from the start
    with the answer: this gives it the same dice it rolled before.
    """

    def __init__(self, prefix: list[Face], rng: RandomDice) -> None:
        self._prefix = list(prefix)
        self._rng = rng
        self.faces: list[Face] = []

    def roll(self, die: Die, count: int, label: str) -> tuple[Face, ...]:
        taken = self._prefix[:count]
        del self._prefix[:count]
        values = (*taken, *self._rng.roll(die, count - len(taken), label)) if count > len(taken) else tuple(taken)
        self.faces.extend(values)
        return values


_ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
RESULT_LEAST = 90  # pixels: the empty result box still reads as the place the result will come
RESULT_SCREEN_SHARE = 0.5  # the result box grows with its text up to this share of the screen's height, then scrolls


class DiceEntry(QLineEdit):
    """The dice field: Enter submits its dice (`returnPressed`) and goes no further.

    A QLineEdit passes Enter on to its window, where a dialog would press its
    default button and close with the typed dice unread.
    """

    def keyPressEvent(self, event: QKeyEvent) -> None:
        super().keyPressEvent(event)
        if event.key() in _ENTER_KEYS:
            event.accept()


class ProcedureRunner(QWidget):
    """Odds, dice (digital or typed), result and Apply for one procedure."""

    resolved = Signal(object)  # Resolution
    applied = Signal(object)  # Resolution
    die_asked = Signal(str)
    """The label of the roll the table's dice are asked for now, "" once none is: a dialog can show what the
    die's faces mean (the ranging shot's direction die on the map) while the player rolls it."""

    def __init__(self, session: Session, procedure: str, title: str, parent: QWidget | None = None,
                 group: GroupFn | None = None, label: Callable[[str], str] | None = None,
                 option_words: Callable[[str], str] | None = None, order: Callable[[str], Any] | None = None) -> None:
        """`group` shows outcomes under coarser headings, `order` sorts them (by default the procedure's own)."""
        super().__init__(parent)
        self.session = session
        self.procedure = procedure
        self.title = title
        self._group = group
        self._order = order
        self._label = label
        self._option_words = option_words
        self._inputs: dict[str, object] = {}
        self._answers: dict[str, str] = {}
        self._choice: ChoiceNeeded | None = None
        self._rng = RandomDice()
        self._typed: list[Face] = []
        self._typed_run = False
        self._pending: DiceExhausted | None = None
        self._asked = ""
        self._applied = False
        self._action: tuple[str, dict[str, InputValue]] | None = None
        self._done: object | None = None
        """What the last Apply applied (the action, else the inputs) while the runner is locked; None unlocked."""
        self._done_step = 0
        """The undo stack's index just after that Apply: undoing it unlocks the runner."""
        self.result: Resolution | None = None

        self.problem = RefusalBanner(self)
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
        self.entry = DiceEntry(self)
        self.entry.setPlaceholderText("e.g. 6 1")
        self.choice_box = QComboBox(self)
        self.choice_box.hide()
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
        row.addWidget(self.choice_box, 2)
        row.addWidget(self.entry_ok)
        self.entry_row.hide()
        self.entry_error = RefusalBanner(self)

        self.result_view = QTextBrowser(self)
        self.result_view.setMinimumHeight(RESULT_LEAST)
        self.result_view.setPlaceholderText("The result appears here after the roll.")
        self.result_view.document().documentLayout().documentSizeChanged.connect(self._fit_result)

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
    @property
    def locked(self) -> bool:
        """Applied, not undone, and asked for nothing else since: no second roll of the same action."""
        if self._done is not None and self.session.undo_stack.index() < self._done_step:
            self._done = None
        return self._done is not None

    def _asked_now(self) -> object:
        return self._action if self._action is not None else self._inputs

    def set_inputs(self, inputs: Mapping[str, object]) -> bool:
        """New inputs: recompute the odds, or show why they cannot be used. Returns validity.

        After an Apply the same action (or, with none named, the same inputs) keeps the runner locked: the game
        changed by the result brings new inputs, not a second roll.
        """
        self._inputs = with_settings(self.session, self.procedure, inputs)
        if self.locked:
            if self._done == self._asked_now():
                return True
            self._done = None
        self._clear_result()
        try:
            dist = odds(self.procedure, self._as_inputs())
        except (RulesInputError, TableError) as exc:
            self._show_problem(message_of(exc))
            return False
        except OddsTooLarge as exc:
            self.odds_plot.set_unavailable(exc.sentence)  # the roll is still valid: only its odds are left out
        else:
            registered = get(self.procedure)
            if self._group is None:
                self.odds_plot.set_distribution(dist, registered.label, registered.order)
            else:
                self.odds_plot.set_distribution(dist, self._group, self._order)
        self.problem.clear()
        self.roll_button.setEnabled(True)
        self.typed_button.setEnabled(True)
        return True

    def set_action(self, name: str | None, choices: Mapping[str, InputValue] | None = None) -> None:
        """Apply as the player's action `name` with `choices` (rules/actions.py) rather than as a bare result.

        Apply then plans the action again and resolves it with exactly the dice
        this result rolled (and the choices answered on the way), so the game
        records, and a replay repeats, what the player saw.
        """
        self._action = (name, dict(choices or {})) if name else None
        if self._done is not None and self._action is not None and self._done != self._action:
            self._done = None  # another action: the inputs that come with it unlock the runner

    @property
    def typed_dice(self) -> bool:
        """The result's dice were rolled at the table (typed), not by the app."""
        return self._typed_run

    @property
    def dice_source(self) -> str:
        """Whose dice the result came from, for the log."""
        return "dice rolled at the table" if self._typed_run else "the app's dice"

    def inputs(self) -> Inputs:
        """The inputs the procedure is resolved with: the dialog's, the game's settings, the answers given."""
        return self._as_inputs()

    def _as_inputs(self) -> Inputs:
        inputs = {k: v for k, v in self._inputs.items() if isinstance(v, str | int | float | bool)}
        inputs.update(self._answers)
        return inputs

    def _show_problem(self, message: str) -> None:
        self.problem.show_refusal(message)
        self.roll_button.setEnabled(False)
        self.typed_button.setEnabled(False)

    def _clear_result(self) -> None:
        self.result = None
        self._applied = False
        self._pending = None
        self._choice = None
        self._answers = {}
        self._typed = []
        self._say_asked("")
        self.choice_box.hide()
        self.entry.show()
        self.entry_row.hide()
        self.entry_error.clear()
        self.result_view.clear()
        self.apply_button.setEnabled(False)
        self.odds_plot.mark(None)

    # -- dice ---------------------------------------------------------------------
    def roll_for_me(self) -> None:
        if self.locked:
            return
        self._clear_result()
        self._typed_run = False
        self._rng = RandomDice()
        self._run()

    def has_unapplied_dice(self) -> bool:
        """Dice typed from the table that closing would lose: a prompt part-answered, or a typed result not applied."""
        if not self._typed_run:
            return False
        if self._pending is not None:
            return bool(self._typed) or bool(self.entry.text().strip())
        return self.result is not None and not self._applied

    @property
    def waiting(self) -> bool:
        """A result is on show that is not applied yet: a change to the game must not replace it unread."""
        return self.result is not None and not self._applied

    def discard_result(self) -> None:
        """Drop the result on show unapplied (what it was rolled for is refused now); an applied one stays."""
        if self.waiting:
            self._clear_result()

    def mark_applied(self) -> None:
        """The dialog applied this result itself (the runner's own Apply hidden): its dice are in the game."""
        self._applied = self.result is not None

    def start_typed(self) -> None:
        """Begin asking for the table's dice, one roll at a time, in the rules' order."""
        if self.locked:
            return
        self._clear_result()
        self._typed_run = True
        self._advance_typed()

    def submit_entry(self) -> None:
        if self._choice is not None:
            self.submit_choice()
            return
        if self._pending is None:
            return
        try:
            values = parse_typed_rolls(self.entry.text(), self._pending.die, self._pending.count)
        except DiceError as exc:
            # The dice typed stay as typed, the cursor after them: a die short is added, not all retyped.
            self.entry_error.show_refusal(f"{self._pending.label}: {message_of(exc)}")
            return
        self.entry_error.clear()
        self._typed.extend(values)
        self._advance_typed()

    def _advance_typed(self) -> None:
        try:
            res = resolve(self.procedure, self._as_inputs(), ScriptedDice(self._typed))
        except DiceExhausted as need:
            self._pending = need
            self._say_asked(need.label)
            faces = need.die.describe_faces()
            many = f"{need.count} {need.die.name}" if need.count > 1 else f"one {need.die.name}"
            self.prompt.setText(f"<b>{esc(need.label)}</b>: roll {esc(many)} ({esc(faces)}) and type the result")
            self.entry.clear()
            self.entry_row.show()
            self.entry.setFocus(Qt.FocusReason.OtherFocusReason)
            return
        except ChoiceNeeded as need:
            self._say_asked("")
            self._ask(need)
            return
        except (RulesInputError, TableError) as exc:
            self._say_asked("")
            self._show_problem(message_of(exc))
            return
        self._pending = None
        self._say_asked("")
        self.entry_row.hide()
        self._show_result(res)

    def _say_asked(self, label: str) -> None:
        if label != self._asked:
            self._asked = label
            self.die_asked.emit(label)

    def _run(self) -> None:
        dice = _Replay(self._typed, self._rng)
        try:
            res = resolve(self.procedure, self._as_inputs(), dice)
        except ChoiceNeeded as need:
            self._typed = dice.faces
            self._ask(need)
            return
        except (RulesInputError, TableError) as exc:
            self._show_problem(message_of(exc))
            return
        self.entry_row.hide()
        self._show_result(res)

    # -- choices the rules leave to the player ------------------------------------
    def _ask(self, need: ChoiceNeeded) -> None:
        """Ask the player's choice where the procedure stopped, in the row the dice are typed in."""
        self._pending = None
        self._choice = need
        self.prompt.setText(f"<b>{esc(need.prompt)}</b>")
        self.choice_box.clear()
        for value, words in need.options:
            self.choice_box.addItem(self._option_words(words) if self._option_words else words, value)
        self.entry.hide()
        self.choice_box.show()
        self.entry_row.show()
        self.choice_box.setFocus(Qt.FocusReason.OtherFocusReason)

    def submit_choice(self) -> None:
        """Take the chosen option and run the procedure again with it, on the same dice."""
        need = self._choice
        if need is None:
            return
        self._choice = None
        self._answers[need.field] = str(self.choice_box.currentData())
        self.choice_box.hide()
        self.entry.show()
        if self._typed_run:
            self._advance_typed()
        else:
            self._run()

    def _show_result(self, res: Resolution) -> None:
        self.result = res
        rolls = "".join(
            f"<li>{esc(label)}: <b>{esc(' '.join(str(v) for v in values))}</b></li>" for label, values in res.rolls
        )
        lines = "".join(f"<p>{esc(line)}</p>" for line in res.log)
        title = self._label(res.outcome) if self._label else get(self.procedure).label(res.outcome)
        self.result_view.setHtml(f"<h3>{esc(title)}</h3><ul>{rolls}</ul>{lines}")
        self.odds_plot.mark(res.outcome)
        self.apply_button.setEnabled(True)
        self._bring_result_into_view()
        self.resolved.emit(res)

    def _fit_result(self, size: QSizeF) -> None:
        """The result box as tall as its text: a result read a line at a time, scrolling, hides what it did."""
        view = self.result_view
        margins = view.contentsMargins()
        wanted = ceil(size.height()) + margins.top() + margins.bottom()
        most = int(screen_room(self).height() * RESULT_SCREEN_SHARE)
        view.setMinimumHeight(max(RESULT_LEAST, min(wanted, most)))

    def _scroll_areas(self) -> list[QScrollArea]:
        """The scroll areas the runner sits in, innermost first (a dialog too tall for the screen scrolls)."""
        areas = []
        parent = self.parentWidget()
        while parent is not None:
            if isinstance(parent, QScrollArea):
                areas.append(parent)
            parent = parent.parentWidget()
        return areas

    def _bring_result_into_view(self) -> None:
        """In a dialog that scrolls, show the result and Apply without the player scrolling to find them.

        The result box has just grown: each level of widgets around it takes its new size in its own layout
        pass, one event each, so the passes are taken now, one per level, before the scrolled part is moved.
        """
        areas = self._scroll_areas()
        if not areas:
            return
        self._fit_result(self.result_view.document().size())
        for _grown in range(2):  # grown, the box loses its scroll bar: its lines widen, and it fits them again
            level: QWidget | None = self
            while level is not None:
                QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
                level = level.parentWidget()
        for area in areas:
            for widget in (self.result_view, self.apply_button):  # Apply last: in view should the result be taller
                inner = area.widget()
                assert inner is not None
                box = QRect(widget.mapTo(inner, QPoint(0, 0)), widget.size())
                # Not ensureWidgetVisible: for a text box that shows only where its cursor is, the first line.
                area.ensureVisible(box.center().x(), box.center().y(), (box.width() + 1) // 2, (box.height() + 1) // 2)

    def apply(self) -> bool:
        """Apply the result; a refusal shows in the runner's own banner."""
        try:
            return self.commit()
        except (GameError, RulesInputError) as exc:
            self._show_problem(f"Not applied: {message_of(exc)}")
            return False

    def commit(self) -> bool:
        """Apply the result, letting a refusal out to a dialog that shows every refusal in one banner."""
        if self.result is None or self.locked:
            return False
        applied = self.result
        if self._action is None:
            self.session.apply_resolution(applied, self.title, self.dice_source)
        else:
            name, choices = self._action
            faces = [face for _label, values in applied.rolls for face in values]
            applied = self.session.act(name, {**choices, **self._answers}, faces, typed=self._typed_run)
        self._applied = True
        self._done = self._asked_now()
        self._done_step = self.session.undo_stack.index()
        self.apply_button.setEnabled(False)
        self.roll_button.setEnabled(False)
        self.typed_button.setEnabled(False)
        self.applied.emit(applied)
        return True


@dataclass(frozen=True)
class FirstOpening:
    """How the first-dialog benchmark (tests/benchmarks/first_dialog.py) opens a dialog, as a player does.

    `table` names the benchmark's table (a demo it starts, prepared as the
    benchmark says), where the dialog is opened `place`-th; `how` is "dice",
    "command_dice", "phase", "ranging" or a unit action's key, run on `unit_id`.
    """

    table: str
    place: int
    title: str
    how: str
    unit_id: str = ""


@dataclass(frozen=True)
class NotOpened:
    """Why the first-dialog benchmark does not open a dialog: it opens from inside another procedure dialog
    (whose parts and modules are then loaded), or needs a table state the demos do not reach quickly."""

    why: str


class ProcedureDialog(QDialog):
    """A dialog around ProcedureRunners that never drops the table's dice on a stray key.

    Enter acts on the focused widget only (a dice field submits, a focused button
    clicks) and never presses a default button: a procedure dialog has nothing Enter
    should close it with. Escape, Close and the window's close button ask before
    discarding typed dice that are not applied yet; closing from code does not ask.

    Each dialog a player opens says in `first_opening` how its first opening is
    benchmarked, or why it is not: the benchmark finds them there, so a new
    dialog joins it without a list to edit (tests/ui/test_first_dialog_list.py).
    """

    first_opening: ClassVar[FirstOpening | NotOpened | None] = None

    def close_buttons(self) -> QDialogButtonBox:
        """The dialog's Close button box: never a default button, and asking before dice are lost."""
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        for button in box.buttons():
            if isinstance(button, QPushButton):
                button.setAutoDefault(False)
                button.setDefault(False)
        box.rejected.connect(self.close_asking)
        return box

    def close_asking(self) -> None:
        """Close, unless typed dice are pending and the player chooses to keep them."""
        if self.may_discard_dice():
            self.reject()

    def may_discard_dice(self) -> bool:
        """True when no typed dice would be lost, or the player agrees to lose them."""
        if not any(r.has_unapplied_dice() for r in self.findChildren(ProcedureRunner)):
            return True
        answer = QMessageBox.question(
            self, "Discard the typed dice?",
            "The dice typed from the table are not applied yet. Close and discard them?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def done(self, result: int) -> None:
        """Close; the odds charts' plots go back for the next dialog, as making one costs more than the rest."""
        super().done(result)
        for odds_plot in self.findChildren(OddsPlot):
            odds_plot.release_plots()

    def setVisible(self, visible: bool) -> None:
        super().setVisible(visible)
        if visible:
            # QDialog has just made its first auto-default button the default; Enter presses none here,
            # so no button should look as if it would.
            for button in self.findChildren(QPushButton):
                if button.isDefault() and not button.hasFocus():
                    button.setDefault(False)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in _ENTER_KEYS and event.modifiers() in (Qt.KeyboardModifier.NoModifier,
                                                                   Qt.KeyboardModifier.KeypadModifier):
            event.accept()
            return
        if event.key() == Qt.Key.Key_Escape and event.modifiers() == Qt.KeyboardModifier.NoModifier:
            event.accept()
            self.close_asking()
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        if event.spontaneous() and not self.may_discard_dice():
            event.ignore()
            return
        super().closeEvent(event)
