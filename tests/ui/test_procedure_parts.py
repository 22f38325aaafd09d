"""The pieces shared by the procedure dialogs behave the same wherever they are used."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battletracker.ui.procedure_parts import FactsPanel, RefusalBanner


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


def test_facts_panel_lists_escaped_sentences(qtbot: QtBot) -> None:
    panel = FactsPanel()
    qtbot.addWidget(panel)
    panel.set_facts(["Range 24.0\" from <Tiger>", "Shock 2"])
    assert panel.facts() == ("Range 24.0\" from <Tiger>", "Shock 2")
    assert panel.textFormat() == Qt.TextFormat.RichText and panel.wordWrap()
    assert "<li>Range 24.0\" from &lt;Tiger&gt;</li><li>Shock 2</li>" in panel.text()
    panel.set_note("No enemy vehicle within reach.")
    assert panel.facts() == () and panel.text() == "No enemy vehicle within reach."
    panel.set_facts(())
    assert panel.text() == ""
