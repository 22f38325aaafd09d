"""Map colours for light and dark palettes.

The table is a muted felt in either palette, so side colours read the same
in both; grid lines, labels and overlays pick a contrast that stays readable
on that felt. Everything else (margins, edge labels, label pills) follows the
widget's QPalette, so the map sits in the window like the rest of the app.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor
from PySide6.QtGui import QPalette


def _rgba(name: str, alpha: int = 255) -> QColor:
    c = QColor(name)
    c.setAlpha(alpha)
    return c


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def contrasting(fill: QColor) -> QColor:
    """Black or white, whichever reads better on `fill` (for facing marks and badge text)."""
    r, g, b = fill.redF(), fill.greenF(), fill.blueF()
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return QColor("#111111") if luminance > 0.55 else QColor("#ffffff")


@dataclass(frozen=True)
class BadgeStyle:
    text: str
    fill: QColor


# Conditions a player looks for at a glance; anything else gets its first letters on grey.
_CONDITION_BADGES: dict[str, tuple[str, str]] = {
    "pinned": ("PIN", "#c0392b"),
    "broken": ("BRK", "#8e1b1b"),
    "routed": ("RTD", "#8e1b1b"),
    "suppressed": ("SUP", "#d35400"),
    "out_of_ammo": ("AMMO", "#7f6a00"),
    "jammed": ("JAM", "#7f6a00"),
    "abandoned": ("ABN", "#6c3483"),
    "immobilised": ("IMM", "#6c3483"),
    "seriously_injured": ("SI", "#c0392b"),
    "out_of_action": ("OOA", "#4d4d4d"),
    "wreck": ("WRECK", "#2b2b2b"),
    "destroyed": ("KO", "#2b2b2b"),
    "knocked_out": ("KO", "#2b2b2b"),
    "brewed_up": ("BREW", "#2b2b2b"),
    "out_of_play": ("OUT", "#4d4d4d"),
}

DESTROYED = frozenset({"wreck", "destroyed", "knocked_out", "brewed_up", "out_of_action", "out_of_play"})


def _condition_key(condition: str) -> str:
    return condition.strip().lower().replace(" ", "_").replace("-", "_")


def badge_for(condition: str) -> BadgeStyle:
    key = _condition_key(condition)
    if key in _CONDITION_BADGES:
        text, colour = _CONDITION_BADGES[key]
        return BadgeStyle(text, QColor(colour))
    words = [w for w in key.split("_") if w]
    text = "".join(w[0] for w in words).upper() if len(words) > 1 else key[:4].upper()
    return BadgeStyle(text or "?", QColor("#5d6d7e"))


def is_destroyed(condition: str) -> bool:
    return _condition_key(condition) in DESTROYED


@dataclass(frozen=True)
class MapPalette:
    dark: bool
    margin: QColor          # around the table
    felt: QColor
    table_edge: QColor
    grid_inch: QColor
    grid_six: QColor
    grid_twelve: QColor
    edge_text: QColor
    label_text: QColor
    label_back: QColor
    selection: QColor
    selection_gap: QColor   # between the selection halo and the token, so any side colour stands out
    target: QColor          # units inside the selected unit's arc and range
    arc_fill: QColor
    arc_edge: QColor
    ring: QColor
    ring_text: QColor
    measure: QColor
    measure_text: QColor
    measure_back: QColor
    marker: QColor
    marker_fill: QColor
    shock_fill: QColor
    banner_text: QColor
    banner_back: QColor

    @classmethod
    def from_qpalette(cls, palette: QPalette) -> MapPalette:
        dark = is_dark(palette)
        window = palette.color(QPalette.ColorRole.Window)
        text = palette.color(QPalette.ColorRole.WindowText)
        highlight = palette.color(QPalette.ColorRole.Highlight)
        base = palette.color(QPalette.ColorRole.Base)
        margin = window.darker(108) if not dark else window.darker(125)
        label_back = _rgba(base.name(), 215)
        label_text = palette.color(QPalette.ColorRole.Text)
        if dark:
            return cls(
                dark=True, margin=margin, felt=QColor("#34463a"), table_edge=QColor("#9fb3a0"),
                grid_inch=_rgba("#ffffff", 22), grid_six=_rgba("#ffffff", 55), grid_twelve=_rgba("#ffffff", 95),
                edge_text=text, label_text=label_text, label_back=label_back,
                selection=QColor(highlight).lighter(135), selection_gap=QColor("#101010"), target=QColor("#ff9100"),
                arc_fill=_rgba("#ffd54a", 46), arc_edge=_rgba("#ffd54a", 190),
                ring=_rgba("#e8f0ff", 150), ring_text=QColor("#e8f0ff"),
                measure=QColor("#ff8a65"), measure_text=QColor("#ffffff"), measure_back=_rgba("#202020", 225),
                marker=QColor("#f0f0f0"), marker_fill=_rgba("#f0f0f0", 40), shock_fill=QColor("#d32f2f"),
                banner_text=QColor("#ffffff"), banner_back=_rgba("#1e3a5f", 235),
            )
        return cls(
            dark=False, margin=margin, felt=QColor("#8fa882"), table_edge=QColor("#4f6147"),
            grid_inch=_rgba("#1d2a18", 28), grid_six=_rgba("#1d2a18", 70), grid_twelve=_rgba("#1d2a18", 120),
            edge_text=text, label_text=label_text, label_back=label_back,
            selection=QColor(highlight), selection_gap=QColor("#ffffff"), target=QColor("#e65100"),
            arc_fill=_rgba("#fff3a0", 70), arc_edge=_rgba("#5c4a00", 200),
            ring=_rgba("#1d2a18", 150), ring_text=QColor("#1d2a18"),
            measure=QColor("#c62828"), measure_text=QColor("#ffffff"), measure_back=_rgba("#202020", 215),
            marker=QColor("#263238"), marker_fill=_rgba("#ffffff", 70), shock_fill=QColor("#c62828"),
            banner_text=QColor("#ffffff"), banner_back=_rgba("#1e3a5f", 235),
        )
