"""A refusal as the player sees it: the one shared red banner, showing the sentence."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from battletracker.ui.procedure_parts import REFUSAL_STYLE
from battletracker.ui.procedure_parts import RefusalBanner


def assert_refusal(banner: QWidget, words: str) -> None:
    """`banner` is the shared RefusalBanner, in its colours, showing a sentence that holds `words`."""
    assert isinstance(banner, RefusalBanner), f"a {type(banner).__name__}, not the shared RefusalBanner"
    assert banner.styleSheet() == REFUSAL_STYLE
    assert banner.refused() and banner.isVisibleTo(banner.window()), "the refusal is not on show"
    assert words in banner.text(), banner.text()
