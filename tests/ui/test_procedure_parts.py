"""The pieces shared by the procedure dialogs behave the same wherever they are used."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battletracker.ui.procedure_parts import RefusalBanner


def test_refusal_banner_shows_plain_text_and_clears(qtbot: QtBot) -> None:
    banner = RefusalBanner()
    qtbot.addWidget(banner)
    assert banner.isHidden() and not banner.refused()
    banner.show_refusal("<b>Tiger</b> is out of range.")
    assert banner.refused()
    assert banner.text() == "<b>Tiger</b> is out of range."
    assert banner.textFormat() == Qt.TextFormat.PlainText
    assert banner.wordWrap()
    assert "background: #b3261e" in banner.styleSheet() and "color: white" in banner.styleSheet()
    banner.clear()
    assert banner.isHidden() and banner.text() == ""
