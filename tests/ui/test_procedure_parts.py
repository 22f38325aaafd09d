"""The pieces shared by the procedure dialogs behave the same wherever they are used."""

from __future__ import annotations

import pytest
import shiboken6
from PySide6.QtCore import QPointF
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QVBoxLayout
from pytestqt.qtbot import QtBot

from battletracker.ui.map.items import circle_item
from battletracker.ui.map.view import MapView
from battletracker.ui.procedure_parts import FactsPanel
from battletracker.ui.procedure_parts import OverlayScope
from battletracker.ui.procedure_parts import RefusalBanner
from battletracker.ui.procedure_parts import TargetPicker
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


# The offscreen platform cannot raise a window; bringing the picker's window back up is all that warns.
@pytest.mark.qt_log_ignore("This plugin does not support raise")
def test_target_picker_chooses_from_the_list_or_the_map(qtbot: QtBot, session: Session) -> None:
    view = MapView(session)
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    qtbot.waitExposed(view)
    picker = TargetPicker(view, "Click the target", "Click the target on the map")
    qtbot.addWidget(picker)
    picker.show()
    units = list(session.game.units.values())
    listed, unlisted = units[0], units[1]
    picker.set_units([(listed.id, listed.name)])
    assert picker.current() == listed.id
    with qtbot.waitSignal(picker.chosen) as chosen:
        assert picker.select(listed.id)
    assert chosen.args == [listed.id]
    assert not picker.select(unlisted.id)
    qtbot.mouseClick(picker.pick_button, Qt.MouseButton.LeftButton)
    assert view.picking
    with qtbot.waitSignal(picker.outside) as outside:
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         view.mapFromScene(QPointF(unlisted.x, unlisted.y)))
    assert outside.args == [unlisted.id]


def test_target_picker_without_a_map_cannot_pick(qtbot: QtBot) -> None:
    picker = TargetPicker(None, "Click the target", "Click the target on the map")
    qtbot.addWidget(picker)
    assert not picker.pick_button.isEnabled() and picker.current() is None


def test_target_picker_offers_none_first_when_the_choice_may_be_left_out(qtbot: QtBot, session: Session) -> None:
    picker = TargetPicker(None, "Click the observer", "Click the observer on the map", none="Nobody",
                          empty="No unit can observe")
    qtbot.addWidget(picker)
    unit = next(iter(session.game.units.values()))
    picker.set_units([(unit.id, unit.name)])
    assert picker.units() == [unit.id] and picker.current() is None and picker.combo.currentText() == "Nobody"
    with qtbot.waitSignal(picker.chosen) as chosen:
        assert picker.select(unit.id)
    assert chosen.args == [unit.id] and picker.current_label() == unit.name
    with qtbot.waitSignal(picker.chosen) as chosen:
        picker.choose_none()
    assert chosen.args == [""] and picker.current() is None and picker.current_label() == ""


def test_target_picker_says_why_its_list_is_empty(qtbot: QtBot) -> None:
    picker = TargetPicker(None, "Click the target", "Click the target on the map", empty="No enemy in reach")
    qtbot.addWidget(picker)
    picker.set_units([])
    assert picker.current() is None and picker.combo.placeholderText() == "No enemy in reach"


def test_a_pick_ending_after_the_picker_is_gone_does_nothing(qtbot: QtBot, session: Session) -> None:
    view = MapView(session)
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    qtbot.waitExposed(view)
    dialog = QDialog()
    picker = TargetPicker(view, "Click the target", "Click the target on the map", dialog)
    unit = next(iter(session.game.units.values()))
    picker.set_units([(unit.id, unit.name)])
    qtbot.mouseClick(picker.pick_button, Qt.MouseButton.LeftButton)
    assert view.picking
    dialog.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(picker))
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     view.mapFromScene(QPointF(unit.x, unit.y)))
    assert not view.picking
