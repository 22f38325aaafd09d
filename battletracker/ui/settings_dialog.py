"""Ruleset settings: rules the documents name but do not state, as defaults to check.

Each setting shows its documented default and whether it is a default to
check against the rulebook; changing one is an undoable game change, saved
with the game. A setting that is a row of a table (the six faces of the
effect die) is edited as one choice per face. A value saved in the game that
the setting cannot take is named in the dialog, which shows the default in
its place.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QGridLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QSpinBox
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.model.game import GameError
from battletracker.model.game import Scalar
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import message_of
from battletracker.rules.table_actions import SETTINGS
from battletracker.rules.tables import Setting
from battletracker.rules.tables import TableError
from battletracker.rules.tables import ruleset_settings
from battletracker.rules.words import title
from battletracker.ui.fit import FitScrollArea
from battletracker.ui.refusal import RefusalBanner
from battletracker.ui.session import Session


def _said(s: Setting) -> str:
    """A setting's default as the dialog says it: on or off, a number, a choice in words, effect die faces."""
    if isinstance(s.default, bool):
        return "on" if s.default else "off"
    return title(s.default) if isinstance(s.default, str) and not s.length else str(s.default)


class FacesEditor(QWidget):
    """A setting made of several words (one per die face): one choice for each, two to a row."""

    PER_ROW = 2

    def __init__(self, s: Setting, value: str, parent: QWidget) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        self.combos: list[QComboBox] = []
        for i, word in enumerate(value.split()):
            row, column = divmod(i, self.PER_ROW)
            grid.addWidget(QLabel(f"{i + 1}:", self), row, 2 * column)
            combo = QComboBox(self)
            combo.addItems(list(s.choices))
            combo.setCurrentText(word)
            combo.setToolTip(f"Face {i + 1} of the die")
            grid.addWidget(combo, row, 2 * column + 1)
            self.combos.append(combo)

    def value(self) -> str:
        return " ".join(combo.currentText() for combo in self.combos)


class SettingsDialog(QDialog):
    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWindowTitle("Ruleset settings")
        self.setMinimumSize(560, 420)
        self.editors: dict[str, tuple[Setting, QWidget]] = {}
        body = QWidget(self)
        form = QFormLayout(body)
        # Each title above its field: the help text gets the dialog's whole width, never a narrow column.
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows)
        try:
            settings = ruleset_settings(session.game.ruleset)
        except TableError as exc:
            settings = ()
            form.addRow(QLabel(f"The ruleset data could not be read: {message_of(exc)}", body))
        if not settings:
            form.addRow(QLabel("This ruleset has no settings.", body))
        problems: list[str] = []
        for s in settings:
            value = session.game.settings.get(s.key, s.default)
            problem = s.problem(value)
            if problem is not None:
                problems.append(f"{s.title}: the game's value {problem}; the default is shown.")
                value = s.default
            editor = self._editor(s, value, body)
            self.editors[s.key] = (s, editor)
            note = "Default - check your rulebook. " if s.check else ""
            help_text = QLabel(f"<small>{note}{s.description} (default: {_said(s)})</small>", body)
            help_text.setWordWrap(True)
            column = QVBoxLayout()
            column.addWidget(editor)
            column.addWidget(help_text)
            holder = QWidget(body)
            holder.setLayout(column)
            form.addRow(f"{s.title}:", holder)
        scroll = FitScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(body)
        self.error = RefusalBanner(self)
        self.error.set_refusal("\n".join(problems))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.apply_and_close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.error)
        layout.addWidget(buttons)

    def _editor(self, s: Setting, value: Scalar, parent: QWidget) -> QWidget:
        if isinstance(s.default, bool):
            box = QCheckBox(parent)
            box.setChecked(bool(value))
            return box
        if isinstance(s.default, int):
            spin = QSpinBox(parent)
            spin.setRange(s.minimum if s.minimum is not None else -999, s.maximum if s.maximum is not None else 999)
            spin.setValue(int(value))
            return spin
        if s.length:
            return FacesEditor(s, str(value), parent)
        combo = QComboBox(parent)
        for choice in list(s.choices) or [str(s.default)]:
            combo.addItem(title(choice), choice)  # the choice in words; the key is what is kept
        combo.setCurrentIndex(max(0, combo.findData(str(value))))
        return combo

    def values(self) -> dict[str, Scalar]:
        out: dict[str, Scalar] = {}
        for key, (_s, editor) in self.editors.items():
            if isinstance(editor, QCheckBox):
                out[key] = editor.isChecked()
            elif isinstance(editor, QSpinBox):
                out[key] = editor.value()
            elif isinstance(editor, QComboBox):
                out[key] = str(editor.currentData())
            elif isinstance(editor, FacesEditor):
                out[key] = editor.value()
        return out

    def apply_and_close(self) -> None:
        game = self.session.game
        changed: dict[str, Scalar] = {}
        for key, value in self.values().items():
            setting = self.editors[key][0]
            wanted = None if value == setting.default else value
            if game.settings.get(key) != wanted:
                changed[key] = value
        if changed:
            try:
                self.session.act(SETTINGS, changed)
            except (RulesInputError, GameError) as exc:
                self.error.show_refusal(message_of(exc))
                return
        self.accept()
