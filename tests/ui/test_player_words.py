"""What the procedure dialogs show is in a player's words: no outcome keys, no field names, no long floats.

Each dialog is driven as a player would (typed dice, the real buttons), then
every text it shows is read: labels, buttons, table cells, lists, the result
view and the charts' tick labels. Tooltips may hold exact fractions.
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QAbstractButton
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QListWidget
from PySide6.QtWidgets import QTableWidget
from PySide6.QtWidgets import QTextEdit
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.model.bombardment import Building
from battletracker.ui.features.anti_tank import AntiTankDialog
from battletracker.ui.features.armour_battles.indirect import IndirectFireDialog
from battletracker.ui.features.bombardments import BombardmentsPanel
from battletracker.ui.features.bombardments.dialogs import PatternDialog
from battletracker.ui.features.bombardments.dialogs import PhaseDialog
from battletracker.ui.features.bombardments.dialogs import RangingDialog
from battletracker.ui.features.support_fire import FireDialog
from battletracker.ui.main_window import MainWindow
from battletracker.ui.map.view import MapView
from battletracker.ui.odds_plot import OddsPlot
from battletracker.ui.session import Session
from tests.ui.dice_entry import command_dice_for
from tests.ui.dice_entry import type_dice
from tests.ui.test_armour_battles_mission import _click
from tests.ui.test_armour_battles_mission import _table
from tests.ui.test_armour_battles_mission import _type_into
from tests.ui.test_bombardments import panel  # noqa: F401 (fixtures)
from tests.ui.test_bombardments import start  # noqa: F401 (fixtures)
from tests.ui.test_bombardments import type_all  # noqa: F401 (fixtures)
from tests.ui.test_bombardments import view  # noqa: F401 (fixtures)
from tests.ui.test_necromunda import autogun
from tests.ui.test_necromunda import dialog_for as necro_dialog
from tests.ui.test_necromunda import fighter
from tests.ui.test_necromunda import necro_game

RAW = re.compile(r"\b\w+=\d|\bnet\d:|\b[a-z]+_[a-z_]+\b|\d\.\d{4,}")


pytestmark = pytest.mark.usefixtures("germany_ready")


def shown_texts(widget: QWidget) -> list[str]:
    """Every text the widget and its children show (not their tooltips)."""
    texts: list[str] = []
    for child in [widget, *widget.findChildren(QWidget)]:
        if not child.isVisibleTo(widget) and child is not widget:
            continue
        if isinstance(child, QLabel | QAbstractButton):
            texts.append(child.text())
        elif isinstance(child, QTextEdit):
            texts.append(child.toPlainText())
        elif isinstance(child, QComboBox):
            texts.extend(child.itemText(i) for i in range(child.count()))
        elif isinstance(child, QListWidget):
            texts.extend(child.item(i).text() for i in range(child.count()))
        elif isinstance(child, QTableWidget):
            texts.extend(item.text() for row in range(child.rowCount()) for col in range(child.columnCount())
                         if (item := child.item(row, col)) is not None)
        if isinstance(child, OddsPlot):
            texts.extend(label for ticks in child.tick_labels.values() for _x, label in ticks)
    return texts


def raw_words(widget: QWidget) -> list[str]:
    return [text for text in shown_texts(widget) if RAW.search(re.sub(r"<[^>]+>", " ", text))]


def test_the_fire_dialog_of_a_tripod_mg_shows_words_only(qtbot: QtBot, session: Session) -> None:
    del session.game.terrain["t5"]   # 2nd Squad in the open: without the demo's stone wall in front of it
    window = MainWindow(session)
    window.feature_host.load()
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.resize(1366, 768)
    window.show()
    window.feature_host.run_unit_action("coc.support_fire", "u3")
    dialog = window.findChildren(FireDialog)[-1]
    assert dialog.set_target("u8") and dialog.runner is not None
    assert dialog.runner.odds_plot.table.rowCount() > 20
    assert raw_words(dialog) == []
    type_dice(dialog.runner, "6 6 6 6 6 6 6 6 6 6", "3 4 5 6 1 1 1 1 1 1")
    assert dialog.runner.result is not None and dialog.runner.result.outcome == "kills=2 shock=2"
    assert "2 kills, 2 Shock" in dialog.runner.result_view.toPlainText()
    assert raw_words(dialog) == []
    dialog.close()


def test_the_anti_tank_dialog_shows_words_only(qtbot: QtBot, session: Session) -> None:
    dialog = AntiTankDialog(session, "u6")
    qtbot.addWidget(dialog)
    dialog.show()
    assert raw_words(dialog) == []
    type_dice(dialog.runner, "6 1", "1 1 2 3 4 4 5 5 6 6", "1 2 3 4 5 6", "4")
    assert dialog.runner.result is not None and dialog.runner.result.outcome == "net2:immobilised"
    assert "+2: immobilised" in dialog.runner.result_view.toPlainText()
    assert raw_words(dialog) == []


def test_a_bombardments_ranging_shot_and_phase_of_fire_show_words_only(
        qtbot: QtBot, session: Session, panel: BombardmentsPanel, view: MapView) -> None:  # noqa: F811
    bid = start(panel)
    command_dice_for(session, bid)
    panel.rows[bid].buttons["range"].click()
    ranging = panel.dialog
    assert isinstance(ranging, RangingDialog)
    ranging.set_bearing.setChecked(True)
    ranging.bearing.setValue(90.0)
    assert raw_words(ranging) == []
    type_dice(ranging.runner, "3 3", "2 2 2")
    assert ranging.runner.result is not None and ranging.runner.result.outcome == "deviates"
    assert raw_words(ranging) == []
    ranging.runner.apply_button.click()
    for _ in range(2):
        session.end_phase()
    command_dice_for(session, bid)
    panel.rows[bid].buttons["fire_for_effect"].click()
    panel.rows[bid].buttons["pattern"].click()
    pattern = panel.dialog
    assert isinstance(pattern, PatternDialog)
    pattern.choose(5, "right")
    pattern.place()
    panel.rows[bid].buttons["fire"].click()
    phase = panel.dialog
    assert isinstance(phase, PhaseDialog)
    assert raw_words(phase) == []
    type_all(phase.runner, 3)
    assert raw_words(phase) == []


def test_the_necromunda_shoot_dialog_shows_words_only(qtbot: QtBot) -> None:
    session = Session(necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                                 fighter("b", "Mira", 1, 10, 20)))
    dialog = necro_dialog(qtbot, session)
    assert raw_words(dialog) == []
    type_dice(dialog.runner, "4", "2 1+ammo", "3")
    assert dialog.runner.result is not None
    assert raw_words(dialog) == []


def test_the_armour_battles_indirect_fire_dialog_shows_words_only(qtbot: QtBot) -> None:
    session = _table()
    session.game.buildings["barn"] = Building("barn", "Barn", 30.0, 38.0, width=8.0, depth=3.0)  # hides the aim
    dialog = IndirectFireDialog(session, "stuh")
    qtbot.addWidget(dialog)
    dialog.show()
    _type_into(qtbot, dialog.aim_x, "30")
    _type_into(qtbot, dialog.aim_y, "20")
    dialog.set_observer("observer")
    _click(qtbot, dialog.arrow_known)
    _type_into(qtbot, dialog.arrow_bearing, "90")
    dialog.cover["far"].setValue(1)
    assert dialog.plan is not None
    assert raw_words(dialog) == []
    type_dice(dialog.runner, "arrow", "3", "1 1 1 1", "6 6 2 2", "6 1 1 1 1", "4")
    assert raw_words(dialog) == []
    dialog.reject()
