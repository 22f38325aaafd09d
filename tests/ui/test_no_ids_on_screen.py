"""What a player reads never holds the game's own ids (u3, b1, sos1, t2) or a place as a coordinate pair.

Each demo is opened in the window and played a little (in Chain of Command a
bombardment ranged, re-aimed and fired for effect, and SOS Fire called, as
tests/rules/test_place_wording.py plays them); then every label, tooltip, list
item, text view and log line of the window, the map's tooltip over every unit
and piece, and every unit action's dialog (played with: lists stepped through,
dice rolled) are read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QAbstractItemView
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QMenu
from PySide6.QtWidgets import QTextEdit
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules.tables import resources_dir
from battletracker.ui.extensions import unit_actions
from battletracker.ui.main_window import MainWindow
from tests.rules.test_place_wording import COC_STEPS
from tests.ui.test_names_are_text import _inside
from tests.ui.test_names_are_text import _item_tips
from tests.ui.test_names_are_text import _opened
from tests.ui.test_names_are_text import _play_with
from tests.ui.windows import shown_window

DEMOS = sorted((resources_dir() / "demo").glob("*.json"))
PAIR = re.compile(r'\(\s*-?\d+(?:\.\d+)?"?\s*,\s*-?\d+(?:\.\d+)?"?\s*\)')


def _ids(game: Game) -> re.Pattern[str]:
    """The game's own ids as whole words: what a player must never read."""
    ids = {*game.units, *game.bombardments, *game.terrain, *game.markers, *game.buildings, *game.smoke}
    return re.compile(r"(?<![\w'])(" + "|".join(sorted(map(re.escape, ids), key=len, reverse=True)) + r")(?![\w'])")


def _plain(text: str) -> str:
    if "<" in text and ">" in text:
        document = QTextDocument()
        document.setHtml(text)
        return document.toPlainText()
    return text


def _texts(windows: Iterable[QWidget]) -> Iterable[tuple[str, str]]:
    """(where, text) of every label, tooltip, list item tip and text view in `windows`."""
    for window in windows:
        for widget in [window, *window.findChildren(QWidget)]:
            where = f"{type(widget).__name__} {widget.objectName()!r} in {type(window).__name__}"
            if isinstance(widget, QLabel) and widget.isVisible():
                yield where, widget.text()
            if widget.toolTip():
                yield f"{where} (tooltip)", widget.toolTip()
            if isinstance(widget, QAbstractItemView | QComboBox) and widget.model() is not None:
                yield from ((f"{where} (item tooltip)", tip) for tip in _item_tips(widget.model()))
                model = widget.model()
                yield from ((f"{where} (item)", str(model.data(model.index(r, 0))))
                            for r in range(model.rowCount()))
            if isinstance(widget, QMenu):
                yield from ((f"{where} (menu)", a.text()) for a in widget.actions())
            if isinstance(widget, QTextEdit):
                yield where, widget.toPlainText()


def _shown(found: list[str], ids: re.Pattern[str], texts: Iterable[tuple[str, str]]) -> None:
    for where, text in texts:
        plain = _plain(text)
        for pattern, what in ((ids, "an id"), (PAIR, "a coordinate pair")):
            hit = pattern.search(plain)
            if hit is not None:
                found.append(f"{where} shows {what} {hit.group(0)!r}: {plain!r}")


def _played(qtbot: QtBot, tmp_path: Path, demo: Path) -> MainWindow:
    game = savefile.load(demo)
    win = shown_window(qtbot, tmp_path, game)
    session = win.session
    if game.ruleset == "chain_of_command":
        for name, choices, dice in COC_STEPS:
            session.act(name, choices, dice, typed=dice is not None)
    else:
        unit = next(iter(game.units.values()))
        session.act("unit.move", {"unit": unit.id, "x": unit.x + 3.0, "y": unit.y})
    return win


@pytest.mark.parametrize("demo", DEMOS, ids=[p.stem for p in DEMOS])
def test_no_id_or_coordinate_pair_reaches_a_player(qtbot: QtBot, tmp_path: Path, demo: Path) -> None:
    win = _played(qtbot, tmp_path, demo)
    game = win.session.game
    ids = _ids(game)
    found: list[str] = []
    _shown(found, ids, _texts([win]))
    _shown(found, ids, (("the battle log", entry.text) for entry in game.log))
    for at in [*((u.x, u.y) for u in game.units.values()), *(_inside(p) for p in game.terrain.values())]:
        _shown(found, ids, [("the map's tooltip", win.map._tooltip_at(win.map.mapFromScene(QPointF(*at))))])
    for unit in list(game.units.values()):
        for action in unit_actions(game, unit):
            before = set(_opened(qtbot, set()))
            win.feature_host.run_unit_action(action.key, unit.id)
            for dialog in _opened(qtbot, before):
                _shown(found, ids, _texts([dialog]))
                _play_with(qtbot, dialog)
                _shown(found, ids, _texts([dialog]))
                dialog.close()
            win.map.cancel_pick()
    assert not found, "\n".join(dict.fromkeys(found))
