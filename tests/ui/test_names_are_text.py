"""Names are text, not markup: a unit or side named like an HTML image shows as those characters, small."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QLabel, QMessageBox
from pytestqt.qtbot import QtBot

from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.model.effects import add_shock
from battletracker.ui.features.anti_tank import AntiTankDialog
from battletracker.ui.features.bombardments.panel import BombardmentsPanel
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session
from tests.acting import ready_side
from tests.ui.dice_entry import command_dice_for, type_dice

NAME = "<img src=x width=30000 height=30000>"
PANZER, SHERMAN = "u6", "u11"
SMALL = 2000  # pixels: far below the 30,000 an obeyed <img> asks for


def _window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    game = savefile.load(demo_path())
    game.unit(SHERMAN).name = NAME
    game.unit(PANZER).weapons[0].name = NAME
    game.sides[0].name = NAME
    session = Session(ready_side(game))
    win = MainWindow(session, Recovery(session, tmp_path))
    win.load_features()  # normally just after the first paint
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.show()
    qtbot.waitExposed(win)
    return win


def _shows_as_text(label: QLabel) -> None:
    assert label.sizeHint().width() < SMALL and label.sizeHint().height() < SMALL, label.text()
    if label.textFormat() == Qt.TextFormat.PlainText:
        assert "<img" in label.text()
    else:
        assert "&lt;img" in label.text() and "<img" not in label.text()


def test_the_card_and_the_side_header_show_the_name_as_text(qtbot: QtBot, tmp_path: Path) -> None:
    win = _window(qtbot, tmp_path)
    card = win.cards.card(SHERMAN)
    assert card is not None
    _shows_as_text(card.name_label)
    assert card.sizeHint().width() < SMALL
    panzer = win.cards.card(PANZER)
    assert panzer is not None
    _shows_as_text(panzer.weapons_label)
    assert panzer.sizeHint().width() < SMALL
    headers = [label for label in win.cards.findChildren(QLabel, "side_name") if NAME in label.text()]
    assert headers
    for label in headers:
        _shows_as_text(label)
        tip = label.parentWidget().toolTip() if label.parentWidget() is not None else ""
        assert "<img" not in tip


def test_the_map_label_and_tooltip_show_the_name_as_text(qtbot: QtBot, tmp_path: Path) -> None:
    win = _window(qtbot, tmp_path)
    token = win.map.map_scene.tokens[SHERMAN]
    assert token.label.text() == NAME
    assert token.label.boundingRect().width() < SMALL
    unit = win.session.game.unit(SHERMAN)
    tip = win.map._tooltip_at(win.map.mapFromScene(QPointF(unit.x, unit.y)))
    assert "&lt;img" in tip and "<img" not in tip


def test_the_log_view_shows_the_name_as_text(qtbot: QtBot, tmp_path: Path) -> None:
    win = _window(qtbot, tmp_path)
    win.session.apply(f"Shock on {NAME}", [add_shock(SHERMAN, 1)])
    model = win.log.model
    last = model.index(model.rowCount() - 1, 0)
    assert NAME in str(model.data(last, Qt.ItemDataRole.DisplayRole))
    tip = str(model.data(last, Qt.ItemDataRole.ToolTipRole))
    assert "&lt;img" in tip and "<img" not in tip
    undo_tip = win.undo_button_action.toolTip()
    assert "&lt;img" in undo_tip and "<img" not in undo_tip


def test_the_remove_question_shows_the_name_as_text(qtbot: QtBot, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    win = _window(qtbot, tmp_path)
    asked: list[str] = []

    def question(_parent: object, _title: str, text: str, *_args: object) -> QMessageBox.StandardButton:
        asked.append(text)
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", question)
    win.cards.remove_unit(SHERMAN)
    assert len(asked) == 1 and "&lt;img" in asked[0] and "<img" not in asked[0]
    assert SHERMAN in win.session.game.units


def test_the_anti_tank_dialog_shows_the_names_as_text(qtbot: QtBot, tmp_path: Path) -> None:
    win = _window(qtbot, tmp_path)
    win.run_unit_action("coc.anti_tank_fire", PANZER)
    (dialog,) = win.findChildren(AntiTankDialog)
    assert dialog.target_picker.current() == SHERMAN
    _shows_as_text(dialog.facts)
    type_dice(dialog.runner, "6 1", "1 1 2 3 4 4 5 5 6 6", "1 2 3 4 5 6", "4")
    qtbot.mouseClick(dialog.runner.apply_button, Qt.MouseButton.LeftButton)
    assert dialog.follow_text.isVisibleTo(dialog)
    assert "<img" not in dialog.follow_text.text()
    assert "<img" not in dialog.runner.result_view.toHtml()
    for label in dialog.findChildren(QLabel):
        assert label.sizeHint().width() < SMALL, label.text()
    dialog.close()


def test_the_bombardment_dock_shows_the_names_as_text(qtbot: QtBot, tmp_path: Path) -> None:
    win = _window(qtbot, tmp_path)
    sherman = win.session.game.unit(SHERMAN)
    panel = win.findChild(BombardmentsPanel)
    assert panel is not None
    assert panel.place_bombardment(0, "high_explosive", 3, (sherman.x, sherman.y), (30.0, 20.0))
    (bid,) = win.session.game.bombardments
    shown = [label for label in panel.findChildren(QLabel) if "img" in label.text()]
    assert shown
    for label in shown:
        _shows_as_text(label)
    command_dice_for(panel.session, bid)
    ranging = panel.open_ranging(bid)
    _shows_as_text(ranging.intro)
    type_dice(ranging.runner, "5 4")
    assert ranging.runner.apply()
    pattern = panel.open_pattern(bid)
    pattern.choose(6, "left")
    pattern.place()
    phase = panel.open_phase(bid)
    _shows_as_text(phase.intro)
    assert "<img" not in phase.targets_view.toHtml()
    for label in phase.findChildren(QLabel):
        assert label.sizeHint().width() < SMALL, label.text()
    phase.close()
