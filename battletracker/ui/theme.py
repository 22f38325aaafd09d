"""Light and dark palettes: follow the system unless the player asks for one.

Fusion honours the platform's colour scheme; when a scheme is forced (or the
platform cannot report one, as offscreen), the palette is set explicitly so
every widget, card and plot reads from the same colours.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

SCHEMES = {"light": Qt.ColorScheme.Light, "dark": Qt.ColorScheme.Dark}

CHOICES = {"light": "&Light", "dark": "&Dark", "system": "&System"}
"""View > Colours: the player's choice, remembered under `CHOSEN` and used again at the next start."""
CHOSEN = "view/palette"

REFUSAL_TEXT = "white"
REFUSAL_BACKGROUND = "#b3261e"
"""A refusal's colours, white on a deep red: both are set, so it reads the same on the light and the dark palette."""


def dark_palette() -> QPalette:
    p = QPalette()
    role = QPalette.ColorRole
    colours = {
        role.Window: "#2b2d31", role.WindowText: "#e8e8ea", role.Base: "#1f2023", role.AlternateBase: "#292a2e",
        role.ToolTipBase: "#3a3c42", role.ToolTipText: "#f0f0f0", role.PlaceholderText: "#9a9ca3",
        role.Text: "#e8e8ea", role.Button: "#35373c", role.ButtonText: "#e8e8ea", role.BrightText: "#ff6b6b",
        role.Light: "#4a4c52", role.Midlight: "#3f4146", role.Mid: "#303236", role.Dark: "#1b1c1f",
        role.Shadow: "#0d0d0f", role.Highlight: "#4f86d6", role.HighlightedText: "#ffffff",
        role.Link: "#7fb0ff", role.LinkVisited: "#b79cff",
    }
    for r, c in colours.items():
        p.setColor(r, QColor(c))
    for r in (role.WindowText, role.Text, role.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, r, QColor("#75777d"))
    return p


def apply_scheme(app: QApplication, scheme: str | None, set_style: bool = True) -> None:
    """Fusion everywhere, force light or dark if asked; tick boxes edged to be seen on a dark palette.

    `set_style` False: the application started with Fusion already, which is
    kept as it is in light (no style drawn through Python before the first paint).
    """
    if scheme is None and set_style:
        # Back from a forced scheme (View > Colours > System): the platform's own scheme again.
        app.styleHints().unsetColorScheme()
    dark = scheme == "dark" or (scheme is None and app.styleHints().colorScheme() == Qt.ColorScheme.Dark)
    if dark:
        # Only a dark palette needs the proxy style; its module (and QStyle's few hundred enums) loads then.
        from battletracker.ui.visible_boxes import VisibleBoxes

        app.setStyle(VisibleBoxes("Fusion"))
    elif set_style:
        app.setStyle("Fusion")
    if scheme is None:
        if set_style:
            app.setPalette(QPalette())  # no colour of a forced scheme kept: each comes from the platform again
        return
    app.styleHints().setColorScheme(SCHEMES[scheme])
    if scheme == "dark" and app.palette().color(QPalette.ColorRole.Window).lightness() > 128:
        app.setPalette(dark_palette())
    elif scheme == "light" and app.palette().color(QPalette.ColorRole.Window).lightness() < 128:
        app.setPalette(app.style().standardPalette())


def chosen_scheme() -> str | None:
    """The palette chosen in View > Colours ("light" or "dark"), or None to follow the system."""
    value = QSettings().value(CHOSEN, "system")
    return value if value in SCHEMES else None


def choose_scheme(app: QApplication, choice: str) -> None:
    """Use and remember a View > Colours choice (a key of `CHOICES`)."""
    apply_scheme(app, choice if choice in SCHEMES else None)
    QSettings().setValue(CHOSEN, choice)
