"""The pieces shared by the procedure dialogs behave the same wherever they are used."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QDialog, QPushButton, QVBoxLayout
from pytestqt.qtbot import QtBot

from battletracker.ui.map.items import circle_item
from battletracker.ui.map.view import MapView
from battletracker.ui.procedure_parts import FactsPanel, OverlayScope, RefusalBanner
from battletracker.ui.session import Session


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


def _dialog_with_close(scope_view: MapView) -> tuple[QDialog, OverlayScope, QPushButton]:
    dialog = QDialog()
    close = QPushButton("Close", dialog)
    close.clicked.connect(dialog.reject)
    QVBoxLayout(dialog).addWidget(close)
    return dialog, OverlayScope(dialog, scope_view, "test.burst"), close


def test_overlay_scope_draws_and_clears_when_the_dialog_closes(qtbot: QtBot, session: Session) -> None:
    view = MapView(session)
    qtbot.addWidget(view)
    dialog, scope, close = _dialog_with_close(view)
    qtbot.addWidget(dialog)
    dialog.show()
    scope.set([circle_item((10.0, 10.0), 3.0, QColor("#e8710a"))])
    assert len(view.map_scene.overlays["test.burst"]) == 1
    qtbot.mouseClick(close, Qt.MouseButton.LeftButton)
    assert "test.burst" not in view.map_scene.overlays


def test_overlay_scope_clears_when_the_dialog_is_destroyed(qtbot: QtBot, session: Session) -> None:
    view = MapView(session)
    qtbot.addWidget(view)
    dialog, scope, _close = _dialog_with_close(view)
    scope.set([circle_item((10.0, 10.0), 3.0, QColor("#e8710a"))])
    dialog.deleteLater()
    qtbot.waitUntil(lambda: "test.burst" not in view.map_scene.overlays)


def test_overlay_scope_without_a_map_does_nothing(qtbot: QtBot) -> None:
    dialog = QDialog()
    qtbot.addWidget(dialog)
    scope = OverlayScope(dialog, None, "test.burst")
    scope.set([circle_item((10.0, 10.0), 3.0, QColor("#e8710a"))])
    scope.clear()
    dialog.reject()
