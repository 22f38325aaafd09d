"""Player-entered text (unit, side and weapon names, notes, log lines) shown as text, never as markup.

Qt reads a label or tooltip as rich text when it looks like markup, so a unit
named `<img width=30000>` would otherwise draw a 30,000-pixel image. Rich text
built from such strings escapes them; labels meant to hold plain text say so.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel


def esc(text: object) -> str:
    """`text` made safe to put inside rich text: its markup characters shown, not obeyed."""
    return html.escape(str(text), quote=False)


def plain(label: QLabel) -> QLabel:
    """Make `label` show its text literally, whatever it contains; returns it."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def text_tip(text: str) -> str:
    """A tooltip showing `text` exactly as typed, line breaks kept."""
    return f"<p style='white-space:pre-wrap'>{esc(text)}</p>" if text else ""
