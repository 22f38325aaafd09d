"""Ruleset settings: rules the documents name but do not state, as defaults to check.

Each setting shows its documented default and whether it is a default to
check against the rulebook; changing one is an undoable game change, saved
with the game.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from battletracker.model.effects import SetSetting
from battletracker.model.game import GameError, Scalar
from battletracker.rules.tables import Setting, TableError, ruleset_settings
from battletracker.ui.session import Session
from battletracker.ui.text import plain


class SettingsDialog(QDialog):
    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWindowTitle("Ruleset settings")
        self.setMinimumSize(560, 420)
        self.editors: dict[str, tuple[Setting, QWidget]] = {}
        body = QWidget(self)
        form = QFormLayout(body)
        try:
            settings = ruleset_settings(session.game.ruleset)
        except TableError as exc:
            settings = ()
            form.addRow(QLabel(f"The ruleset data could not be read: {exc}", body))
        if not settings:
            form.addRow(QLabel("This ruleset has no settings.", body))
        for s in settings:
            editor = self._editor(s, session.game.settings.get(s.key, s.default), body)
            self.editors[s.key] = (s, editor)
            note = "Default - check your rulebook. " if s.check else ""
            help_text = QLabel(f"<small>{note}{s.description} (default: {s.default})</small>", body)
            help_text.setWordWrap(True)
            column = QVBoxLayout()
            column.addWidget(editor)
            column.addWidget(help_text)
            holder = QWidget(body)
            holder.setLayout(column)
            form.addRow(f"{s.title}:", holder)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        self.error = plain(QLabel(self))
        self.error.setStyleSheet("color: #d93025; font-weight: bold;")
        self.error.hide()
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
        combo = QComboBox(parent)
        combo.addItems(list(s.choices) or [str(s.default)])
        combo.setCurrentText(str(value))
        return combo

    def values(self) -> dict[str, Scalar]:
        out: dict[str, Scalar] = {}
        for key, (_s, editor) in self.editors.items():
            if isinstance(editor, QCheckBox):
                out[key] = editor.isChecked()
            elif isinstance(editor, QSpinBox):
                out[key] = editor.value()
            elif isinstance(editor, QComboBox):
                out[key] = editor.currentText()
        return out

    def apply_and_close(self) -> None:
        game = self.session.game
        effects = []
        for key, value in self.values().items():
            setting = self.editors[key][0]
            wanted = None if value == setting.default else value
            if game.settings.get(key) != wanted:
                effects.append(SetSetting(key, wanted))
        if effects:
            changed = ", ".join(f"{e.key} = {e.value if e.value is not None else 'default'}" for e in effects)
            try:
                self.session.apply("Change ruleset settings", effects, [f"Ruleset settings: {changed}"])
            except GameError as exc:
                self.error.setText(str(exc))
                self.error.show()
                return
        self.accept()
