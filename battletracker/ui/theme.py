"""Light and dark palettes: follow the system unless the player asks for one."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

SCHEMES = {"light": Qt.ColorScheme.Light, "dark": Qt.ColorScheme.Dark}


def apply_scheme(app: QApplication, scheme: str | None) -> None:
    """Fusion everywhere (it honours the colour scheme); force light or dark when asked."""
    app.setStyle("Fusion")
    if scheme is not None:
        app.styleHints().setColorScheme(SCHEMES[scheme])
