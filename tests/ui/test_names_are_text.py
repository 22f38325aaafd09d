"""Names are text, not markup: a unit or side named like an HTML image shows as those characters, small.

Qt takes a label's, tooltip's or message box's text for rich text when it looks
like markup, so a name the player typed must reach them escaped or as plain
text. The sweep at the end renames everything in each shipped demo to markup,
opens the window and every procedure dialog, and reads every label, tooltip and
text view for a name that was obeyed rather than shown.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from functools import partial
from pathlib import Path

import pytest
from PySide6 import QtGui
from PySide6.QtCore import QAbstractItemModel
from PySide6.QtCore import QModelIndex
from PySide6.QtCore import QPointF
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QAbstractItemView
from PySide6.QtWidgets import QAbstractScrollArea
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QMenu
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QTextEdit
from PySide6.QtWidgets import QToolBar
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.model.bombardment import Building
from battletracker.model.effects import add_shock
from battletracker.model.game import Activation
from battletracker.model.game import Game
from battletracker.model.sequence_effects import SetActivation
from battletracker.model.terrain import TerrainPiece
from battletracker.rules.tables import resources_dir
from battletracker.ui.extensions import unit_actions
from battletracker.ui.features.anti_tank import AntiTankDialog
from battletracker.ui.features.bombardments.panel import BombardmentsPanel
from battletracker.ui.features.support_fire import FireDialog
from battletracker.ui.gc_pause import top_level_widgets
from battletracker.ui.main_window import MainWindow
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session
from tests.acting import ready_side
from tests.ui.dice_entry import command_dice_for
from tests.ui.dice_entry import type_dice
from tests.ui.windows import shown_window

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
    win.feature_host.load()  # normally just after the first paint
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
    win.feature_host.run_unit_action("coc.anti_tank_fire", PANZER)
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


# -- every name in every demo, in the window and every procedure dialog -----------------------------------------

MARK = "Zq"
"""Begins the one word of each renamed thing that shows whether its name is escaped or obeyed."""
IMAGE = "<img width=3000 height=3000><b>"
DEMOS = sorted((resources_dir() / "demo").glob("*.json"))


def _marked(tag: str) -> str:
    """A name that draws a 3000-pixel image and a bold word if Qt reads it as markup."""
    return f"{IMAGE}{MARK}{tag}</b>"


def _renamed(path: Path) -> Game:
    """The demo with every side, unit, weapon, profile, terrain piece, building and the title named in markup."""
    game = savefile.load(path)
    game.title = _marked("title")
    for i, side in enumerate(game.sides):
        side.name = _marked(f"side{i}")
    for unit in game.units.values():
        unit.name = _marked(unit.id)
        for w, weapon in enumerate(unit.weapons):
            weapon.name = _marked(f"{unit.id}w{w}")
            for p, profile in enumerate(weapon.profiles):
                profile.name = _marked(f"{unit.id}w{w}p{p}")
    for piece in game.terrain.values():
        piece.name = _marked(piece.id)
    game.buildings["b1"] = Building("b1", _marked("b1"), 8.0, 8.0)
    return game


def _obeyed(text: str, rich: bool) -> bool:
    """Whether a name in `text` is drawn as markup: its image swallowed, only its bold word left."""
    if MARK not in text:
        return False
    if rich:
        document = QTextDocument()
        document.setHtml(text)
        text = document.toPlainText()
    return text.count(MARK) != text.count(IMAGE + MARK)


def _rich(text: str, format_: Qt.TextFormat = Qt.TextFormat.AutoText) -> bool:
    """Whether Qt draws `text` as rich text: tooltips and message boxes guess as AutoText labels do."""
    if format_ == Qt.TextFormat.AutoText:
        return QtGui.Qt.mightBeRichText(text)
    return format_ != Qt.TextFormat.PlainText


def _item_tips(model: QAbstractItemModel, parent: QModelIndex | None = None) -> Iterable[str]:
    """The tooltip of every item of a list, table or tree, its children's too."""
    parent = parent if parent is not None else QModelIndex()
    for row in range(model.rowCount(parent)):
        column = 0
        while (index := model.index(row, column, parent)).isValid():
            tip = model.data(index, Qt.ItemDataRole.ToolTipRole)
            if isinstance(tip, str):
                yield tip
            if column == 0 and model.rowCount(index):
                yield from _item_tips(model, index)
            column += 1


def _scrolled(widget: QWidget) -> bool:
    """Whether `widget` is inside a scroll area, where growing past the screen only scrolls."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            return True
        parent = parent.parentWidget()
    return False


def _misread(windows: Iterable[QWidget]) -> list[str]:
    """Every place in `windows` where a marked name is obeyed as markup, and every widget taller than the screen."""
    screen = QGuiApplication.primaryScreen().availableGeometry()
    found: list[str] = []
    for window in windows:
        for widget in [window, *window.findChildren(QWidget)]:
            where = f"{type(widget).__name__} {widget.objectName()!r} in {type(window).__name__}"
            if isinstance(widget, QLabel) and _obeyed(widget.text(), _rich(widget.text(), widget.textFormat())):
                found.append(f"{where} shows {widget.text()!r}")
            tips = [widget.toolTip()]
            if isinstance(widget, QAbstractItemView | QComboBox) and widget.model() is not None:
                tips.extend(_item_tips(widget.model()))
            if isinstance(widget, QMenu) and widget.toolTipsVisible():
                tips.extend(action.toolTip() for action in widget.actions())
            found.extend(f"{where} has the tooltip {tip!r}" for tip in tips if _obeyed(tip, _rich(tip)))
            if isinstance(widget, QTextEdit) and _obeyed(widget.toPlainText(), rich=False):
                found.append(f"{where} shows {widget.toPlainText()!r}")
            if (widget.isVisible() and (isinstance(widget, QLabel) or not _scrolled(widget))
                    and widget.sizeHint().height() > screen.height()):
                found.append(f"{where} asks to be {widget.sizeHint().height()} pixels high")
    return found


def _demo_window(qtbot: QtBot, tmp_path: Path, path: Path) -> MainWindow:
    """The renamed demo in the window, its cards filled in, a log line and an undo step naming a unit."""
    game = _renamed(path)
    if game.ruleset == "chain_of_command":
        ready_side(game)
        # Leutnant Kraus's Order activated the 1. Gruppe: its card names him.
        game.apply(SetActivation("u1", Activation(game.turn, game.phase, "order", leader="u5")))
    win = shown_window(qtbot, tmp_path, game)
    session = win.session
    first = next(iter(game.units.values()))
    session.apply(f"Shock on {first.name}", [add_shock(first.id, 1)])
    if game.ruleset == "chain_of_command":  # a bombardment named after its side, on the sniper in the copse
        panel = win.findChild(BombardmentsPanel)
        sniper = game.unit("u9")
        assert panel is not None and panel.place_bombardment(0, "high_explosive", 3, (sniper.x, sniper.y),
                                                             (30.0, 20.0))
    for unit_id in game.units:
        assert win.cards.card(unit_id) is not None
    return win


def _opened(qtbot: QtBot, before: set[QWidget]) -> list[QWidget]:
    """The windows shown since `before` was listed."""
    qtbot.wait(0)
    return [w for w in top_level_widgets() if w not in before and w.isVisible()]


def _read_and_close(qtbot: QtBot, win: MainWindow, open_it: Callable[[], object], play: bool = False) -> list[str]:
    """Open a dialog (or a pick on the map), read the window and what opened (played with first), close it."""
    before = set(top_level_widgets())
    open_it()
    opened = _opened(qtbot, before)
    found = _misread([win, *opened])
    for dialog in opened:
        if play:
            found.extend(_play_with(qtbot, dialog))
        dialog.close()
    win.map.cancel_pick()
    return found


def _map_tip(win: MainWindow, at: tuple[float, float]) -> list[str]:
    """The map's tooltip at a table position, if a name in it is obeyed."""
    tip = win.map._tooltip_at(win.map.mapFromScene(QPointF(*at)))
    assert MARK in tip
    return [f"the map's tooltip {tip!r}"] if _obeyed(tip, _rich(tip)) else []


def _inside(piece: TerrainPiece) -> tuple[float, float]:
    """A point on a line (the middle of its first stretch) or inside an area (the mean of its corners)."""
    points = piece.points if piece.shape == "area" else piece.points[:2]
    return (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))


def _play_with(qtbot: QtBot, dialog: QWidget) -> list[str]:
    """Down through each list of the dialog as a player does (weapons, targets, ...), reading it at each step;
    then a Team added to share the hits, and the dice rolled, reading it again (nothing is applied)."""
    found: list[str] = []
    for combo in dialog.findChildren(QComboBox):
        for _ in range(combo.count()):
            if not combo.isVisible() or not combo.isEnabled():
                break
            qtbot.keyClick(combo, Qt.Key.Key_Down)
            found.extend(_misread([dialog]))
    if isinstance(dialog, FireDialog) and dialog.add_team_button.isEnabled():
        qtbot.mouseClick(dialog.add_team_button, Qt.MouseButton.LeftButton)
        found.extend(_misread([dialog]))
    for runner in dialog.findChildren(ProcedureRunner):
        if runner.roll_button.isVisible() and runner.roll_button.isEnabled():
            qtbot.mouseClick(runner.roll_button, Qt.MouseButton.LeftButton)
            found.extend(_misread([dialog]))
    return found


@pytest.mark.parametrize("demo", DEMOS, ids=[p.stem for p in DEMOS])
def test_every_name_in_the_demos_shows_as_text(qtbot: QtBot, tmp_path: Path, demo: Path) -> None:
    """The window, the map's tooltips, each terrain piece's Rename dialog, each unit's Edit dialog and every
    unit action each unit offers (its procedure dialog played with, or its pick on the map)."""
    win = _demo_window(qtbot, tmp_path, demo)
    game = win.session.game
    found = _misread([win])
    for unit in game.units.values():
        found.extend(_map_tip(win, (unit.x, unit.y)))
    for piece in game.terrain.values():
        found.extend(_map_tip(win, _inside(piece)))
        found.extend(_read_and_close(qtbot, win, partial(win.map.terrain_tools.rename, piece.id)))
    for unit in list(game.units.values()):
        found.extend(_read_and_close(qtbot, win, partial(win.cards.edit_unit, unit.id)))
        for action in unit_actions(game, unit):
            run = partial(win.feature_host.run_unit_action, action.key, unit.id)
            found.extend(_read_and_close(qtbot, win, run, play=True))
    if game.ruleset == "chain_of_command":
        found.extend(_bombardment_dialogs(qtbot, win))
    assert not found, "\n".join(dict.fromkeys(found))


def _bombardment_dialogs(qtbot: QtBot, win: MainWindow) -> list[str]:
    """The bombardment ranged in, its hidden die placed, its Phase of fire on the units under it, and the row
    waiting for its side's next Phase, read."""
    panel = win.findChild(BombardmentsPanel)
    assert panel is not None
    (bid,) = win.session.game.bombardments
    command_dice_for(panel.session, bid)
    ranging = panel.open_ranging(bid)
    found = _misread([ranging])
    type_dice(ranging.runner, "5 4")
    assert ranging.runner.apply()
    pattern = panel.open_pattern(bid)
    found.extend(_misread([pattern]))
    pattern.choose(6, "left")
    pattern.place()
    phase = panel.open_phase(bid)
    assert MARK in phase.targets_view.toPlainText()
    found.extend(_misread([phase]))
    phase.close()
    qtbot.mouseClick(win.findChild(QToolBar, "toolbar-main").widgetForAction(win.end_phase_action),
                     Qt.MouseButton.LeftButton)
    waits = panel.rows[bid].findChild(QLabel, "bombardment_waiting")  # for its side's Phase, named
    assert waits is not None and MARK in waits.text() + waits.toolTip()
    found.extend(_misread([win]))
    return found


@pytest.mark.parametrize("name", [_marked("side1"), "Soviet Union " * 30, "Soviet\nUnion"],
                         ids=["markup", "long", "two lines"])
def test_the_toolbar_clock_stays_one_line_whatever_the_side_is_called(qtbot: QtBot, tmp_path: Path,
                                                                     name: str) -> None:
    game = savefile.load(resources_dir() / "demo" / "armour_battles.json")
    game.sides[1].name = name
    session = Session(game)
    win = MainWindow(session, Recovery(session, tmp_path))
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.show()
    qtbot.waitExposed(win)
    toolbar = win.findChild(QToolBar, "toolbar-main")
    assert toolbar is not None
    one_line, toolbar_height = win.clock_label.sizeHint().height(), toolbar.sizeHint().height()
    qtbot.mouseClick(toolbar.widgetForAction(win.end_phase_action), Qt.MouseButton.LeftButton)
    assert game.active_side == 1
    shown = QTextDocument()
    shown.setHtml(win.clock_label.text())
    # Every character of the name, its line break and spaces run into one space.
    assert " ".join(shown.toPlainText().split()).endswith(" ".join(name.split()))
    assert win.clock_label.sizeHint().height() == one_line
    assert toolbar.sizeHint().height() == toolbar_height
