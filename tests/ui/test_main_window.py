"""The main window on the demo battle: cards, map and log follow the session; files round-trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtCore import QObject
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.effects import add_shock
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session
from tests.ui.test_cards import button


@pytest.fixture
def window(qtbot: QtBot, session: Session, tmp_path: Path) -> MainWindow:
    win = MainWindow(session, Recovery(session, tmp_path))
    # Closing must not stop at "Save the changes?".
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.show()
    qtbot.waitExposed(win)
    return win


def test_opens_on_the_demo_battle(window: MainWindow) -> None:
    game = window.session.game
    assert game.title.startswith("Demo")
    assert len(game.units) >= 10
    assert "Turn <b>1</b>" in window.clock_label.text()
    assert window.windowTitle().startswith(game.title)
    assert window.log_dock.isVisible() and window.cards_dock.isVisible()


def test_the_first_paint_is_said_once_the_map_cards_and_log_are_painted_too(
        qtbot: QtBot, session: Session, tmp_path: Path) -> None:
    """The window's own paint comes first in its frame: `first_painted` waits for the rest of it."""
    win = MainWindow(session, Recovery(session, tmp_path))
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    painted: list[str] = []
    at_first_paint: list[list[str]] = []

    class Watch(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                painted.append(watched.objectName())
            return False

    watch = Watch(win)
    parts = {"map": win.map.viewport(), "cards": win.cards.container, "log": win.log.view.viewport()}
    for name, part in parts.items():
        part.setObjectName(name)
        part.installEventFilter(watch)
    win.first_painted.connect(lambda: at_first_paint.append(list(painted)))
    win.show()
    qtbot.waitUntil(lambda: bool(at_first_paint), timeout=10000)
    assert set(parts) <= set(at_first_paint[0]), at_first_paint


def test_features_load_just_after_the_first_paint(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: window.feature_host.loaded, timeout=20000)
    assert "coc.anti_tank_fire" in window.feature_host.entries
    window.session.select("u6")
    assert window.feature_host.entries["coc.anti_tank_fire"].isEnabled()
    card = window.cards.card("u3")
    assert card is not None


def test_cards_get_the_feature_sections_once_the_features_load(qtbot: QtBot, window: MainWindow) -> None:
    """Cards filled in for the first paint do not wait for the features; they are rebuilt with them."""
    qtbot.waitUntil(lambda: window.feature_host.loaded, timeout=20000)
    sniper = window.cards.card("u9")
    assert sniper is not None
    qtbot.waitUntil(lambda: sniper.findChild(QWidget, "section_coc.sniper") is not None, timeout=20000)


def test_end_phase_updates_the_clock_and_log(window: MainWindow) -> None:
    window.end_phase_action.trigger()
    assert "Phase <b>2</b>" in window.clock_label.text()
    assert window.log.model.rowCount() == len(window.session.game.log)
    window.undo_action.trigger()
    assert "Phase <b>1</b>" in window.clock_label.text()
    assert window.log.model.rowCount() == len(window.session.game.log)


def test_modified_marker_follows_the_undo_stack(window: MainWindow) -> None:
    assert not window.isWindowModified()
    window.session.apply("Shock", [add_shock("u1", 1)])
    assert window.isWindowModified()
    window.undo_action.trigger()
    assert not window.isWindowModified()


def test_save_then_open_gives_the_same_game(window: MainWindow, tmp_path: Path) -> None:
    window.session.apply("Shock", [add_shock("u7", 2)])
    target = tmp_path / "saved.battle"
    assert window.files.save_to(target)
    assert not window.isWindowModified()
    saved = savefile.game_to_dict(window.session.game)
    window.session.apply("More shock", [add_shock("u7", 1)])
    window.session.undo_stack.setClean()
    assert window.files.open_path(target)
    assert savefile.game_to_dict(window.session.game) == saved
    assert window.files.recent_files()[0] == str(target)


def test_corrupt_file_shows_an_error_and_keeps_the_game(window: MainWindow, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda _parent, _title, text: shown.append(text))
    window.session.apply("Shock", [add_shock("u2", 1)])
    before = savefile.game_to_dict(window.session.game)
    broken = tmp_path / "broken.battle"
    doc = savefile.game_to_dict(window.session.game)
    doc["game"]["title"] = 5
    broken.write_text(json.dumps(doc), encoding="utf-8")
    assert not window.files.open_path(broken)
    assert shown and "broken.battle" in shown[0] and "game.title" in shown[0]
    assert savefile.game_to_dict(window.session.game) == before
    assert window.session.undo_stack.count() == 1


def test_saved_and_reopened_the_undo_history_comes_back_and_undo_works(qtbot: QtBot, window: MainWindow,
                                                                     tmp_path: Path) -> None:
    card = window.cards.card("u7")
    assert card is not None
    qtbot.mouseClick(button(card, "plus_shock"), Qt.MouseButton.LeftButton)
    window.end_phase_action.trigger()
    target = tmp_path / "saved.battle"
    assert window.files.save_to(target)
    saved = savefile.game_to_dict(window.session.game)
    assert [a["name"] for a in saved["history"]["actions"]] == ["unit.counter", "clock.end_phase"]
    assert window.files.open_path(target)
    assert savefile.game_to_dict(window.session.game) == saved
    assert window.undo_action.isEnabled() and not window.isWindowModified()
    window.undo_action.trigger()
    assert "Phase <b>1</b>" in window.clock_label.text()
    window.undo_action.trigger()
    assert window.session.game.unit("u7").shock == 0 and window.isWindowModified()
    assert window.files.save_to(target), "the file on disk is the one opened: no warning"
    assert savefile.load(target).unit("u7").shock == 0


def test_the_history_tab_lists_the_undo_steps_when_first_clicked(qtbot: QtBot, window: MainWindow) -> None:
    """The undo history is made when its tab first shows; clicked, it lists every step from the game start."""
    from PySide6.QtWidgets import QTabBar
    from PySide6.QtWidgets import QUndoView

    window.end_phase_action.trigger()
    assert window.history is None, "behind the log tab, the history view waits to be shown"
    bar = next(b for b in window.findChildren(QTabBar) if "History" in [b.tabText(i) for i in range(b.count())])
    index = next(i for i in range(bar.count()) if bar.tabText(i) == "History")
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    qtbot.waitUntil(lambda: window.history_dock.isVisible() and window.history is not None)
    view = window.history_dock.widget()
    assert isinstance(view, QUndoView) and view is window.history and view.isVisible()
    model = view.model()
    assert model.rowCount() == window.session.undo_stack.count() + 1 == 2
    assert model.index(0, 0).data() == "Game start"
    window.end_phase_action.trigger()
    assert model.rowCount() == 3, "the shown history follows the steps"
