"""Player-entered text (unit, side and weapon names, notes, log lines) shown as text, never as markup.

Qt reads a label or tooltip as rich text when it looks like markup, so a unit
named `<img width=30000>` would otherwise draw a 30,000-pixel image. Rich text
built from such strings escapes them; labels meant to hold plain text say so.
"""

from __future__ import annotations

from PySide6 import QtGui
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel


def esc(text: object) -> str:
    """`text` made safe to put inside rich text: its markup characters shown, not obeyed."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def plain(label: QLabel) -> QLabel:
    """Make `label` show its text literally, whatever it contains; returns it."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def literal(text: str) -> str:
    """`text` as rich text that shows it exactly as typed, line breaks kept.

    For tooltips and message boxes, which guess whether their text is markup:
    this is markup, so the guess is right and the player's characters show.
    """
    return f"<p style='white-space:pre-wrap'>{esc(text)}</p>" if text else ""


def as_typed(text: str) -> str:
    """`text` for a tooltip that quotes a name: `literal(text)` when Qt would take it for markup, else unchanged.

    Qt shows a tooltip as rich text only when `Qt.mightBeRichText` guesses so; a
    tooltip it would show as text anyway stays text, so it reads and wraps as
    before and only a name that looks like markup is escaped.
    """
    return literal(text) if QtGui.Qt.mightBeRichText(text) else text


def menu_name(name: str) -> str:
    """A name for a menu entry or a button: an `&` in it shown, not taken as the entry's shortcut letter."""
    return name.replace("&", "&&")


def ruler_inches(d: float) -> str:
    """A ruler's reading, always to a tenth of an inch so the label does not jump in width as it is dragged."""
    return f'{d:.1f}"'
