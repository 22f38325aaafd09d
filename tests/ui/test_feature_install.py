"""After the first paint a thread imports the rules, then the features install in one slice; reached for early, at once.

The thread must touch nothing of Qt: it imports only the Qt-free layers (core,
model, rules), makes no Qt class and runs with the cyclic collector off, so no
Qt object of the window is released on it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from battletracker.ui.cards.card import UnitCard
from battletracker.ui.extensions import Feature
from battletracker.ui.features import MODULES
from battletracker.ui.features import all_features
from battletracker.ui.features.support_fire import FireDialog
from battletracker.ui.main_window import MainWindow
from battletracker.ui.session import Session
from tests.ui.test_app import app_env

# In a fresh process: the rules thread run as the warm-up runs it, the GUI thread only waiting for it.
SCRIPT = """
import gc, importlib, json, sys, threading
from PySide6.QtWidgets import QApplication
app = QApplication([])
from battletracker.ui import warmup

def qt_state():
    return {name: set(vars(module)) for name, module in list(sys.modules.items())
            if name.startswith(("PySide6", "shiboken"))}

collecting = []
import_module = importlib.import_module

def watched_import(name, package=None):
    if threading.current_thread().name == "warm-up rules":
        collecting.append(gc.isenabled())
    return import_module(name, package)

importlib.import_module = watched_import
before = qt_state()
rules_before = "battletracker.rules.chain_of_command.fire" in sys.modules
thread = threading.Thread(target=warmup._import_rules, args=(warmup.RULES_PACKAGES, ["chain_of_command"]),
                          name="warm-up rules")
warmup._start(thread)  # as the warm-up starts it: collections held off until the GUI thread sees it end
thread.join()
after = qt_state()
while warmup._running:
    app.processEvents()
from battletracker.rules.tables import ruleset_settings
print(json.dumps({
    "rules before": rules_before,
    "rules after": "battletracker.rules.chain_of_command.fire" in sys.modules,
    "imports": len(collecting), "collecting while importing": any(collecting), "collecting after": gc.isenabled(),
    "tables read": ruleset_settings.cache_info().currsize,
    "qt made": {name: sorted(names - before.get(name, set()))[:5] or ["(the module)"]
                for name, names in after.items() if names != before.get(name)},
}))
"""


def test_the_rules_thread_imports_no_qt_module_makes_no_qt_class_and_collects_nothing(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=app_env(tmp_path), cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["rules before"] is False and report["rules after"] is True, "the thread imported the rules"
    assert report["imports"] > 50 and report["collecting while importing"] is False
    assert report["collecting after"] is True
    assert report["tables read"] == 1, "the game's ruleset tables read on the thread"
    assert report["qt made"] == {}, "no Qt module imported and no Qt class made on the thread"


def _window(qtbot: QtBot, session: Session) -> MainWindow:
    window = MainWindow(session, features=all_features)
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    return window


def test_the_features_are_installed_in_one_slice_once_the_rules_are_imported(qtbot: QtBot, session: Session) -> None:
    window = _window(qtbot, session)
    window.show()
    qtbot.waitUntil(lambda: window.feature_host.loaded, timeout=20000)
    names = [name for name, _ms in window.warm_up.slices]
    assert names.count("the rules features") == 1
    installed = names.index("the rules features")
    assert set(names[:installed]) == {"Qt's classes"} | {f"import {name}" for name in MODULES}
    assert names.index(f"import {MODULES[0]}") > max(i for i, name in enumerate(names) if name == "Qt's classes"), \
        "Qt's classes all made first, on the GUI thread"
    thread = window.warm_up._rules_thread
    assert thread is not None and not thread.is_alive(), "installed once the rules thread had finished"
    assert "coc.support_fire" in window.feature_host.entries


def test_the_rules_thread_starts_once_qt_classes_are_all_made(
        qtbot: QtBot, session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not beside the repaints just after the first paint: each of their calls into Python would wait for it."""
    from battletracker.ui import warmup

    window = _window(qtbot, session)
    left_to_make: list[int] = []
    import_rules = warmup._import_rules

    def watched(*args: object) -> None:
        left_to_make.append(len(window.warm_up._qt_modules) + len(window.warm_up._qt_classes))
        import_rules(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(warmup, "_import_rules", watched)
    window.show()
    qtbot.waitUntil(lambda: window.feature_host.loaded, timeout=20000)
    assert left_to_make == [0]


def test_the_features_modules_are_imported_one_a_slice_before_the_install(qtbot: QtBot, session: Session) -> None:
    window = _window(qtbot, session)
    window.show()
    qtbot.waitUntil(lambda: window.feature_host.loaded, timeout=20000)
    names = [name for name, _ms in window.warm_up.slices]
    imported = [name.removeprefix("import ") for name in names if name.startswith("import ")]
    assert imported == list(MODULES), "each of the features' modules a slice of its own, in order"
    assert names.index(f"import {MODULES[-1]}") < names.index("the rules features")
    assert {"battletracker.ui.features.anti_tank", "battletracker.ui.features.bombardments"} <= set(MODULES)


def _cards_in_view(window: MainWindow) -> set[str]:
    bar = window.cards.scroll_area.verticalScrollBar()
    height = window.cards.scroll_area.viewport().height()
    return {unit_id for unit_id, card in window.cards._cards.items()
            if not card.isHidden() and card.geometry().top() <= bar.value() + height
            and card.geometry().bottom() >= bar.value()}


def test_the_install_keeps_every_card_and_builds_those_in_view_again_from_the_next_turn(
        qtbot: QtBot, session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    window = _window(qtbot, session)
    session.select("u1")
    before: dict[str, object] = {}
    contents: dict[str, object] = {}
    builds: list[str] = []
    built_by_install: list[int] = []
    build = UnitCard._build

    def counted_build(card: UnitCard) -> None:
        builds.append(card.unit_id)
        build(card)

    install = window.feature_host.load

    def watched_install() -> None:
        monkeypatch.setattr(UnitCard, "_build", counted_build)
        install()
        built_by_install.append(len(builds))
        contents.update((unit_id, card._content) for unit_id, card in window.cards._cards.items())

    window.first_painted.connect(lambda: before.update(window.cards._cards))
    window.warm_up._install = watched_install
    window.resize(900, 600)
    window.show()
    qtbot.waitUntil(lambda: window.feature_host.loaded, timeout=20000)
    assert before and window.cards._cards == before, "the same cards, not made afresh"
    assert all(window.cards._cards[unit_id] is card for unit_id, card in before.items())
    assert window.cards._cards["u1"].selected, "the selection kept"
    in_view = _cards_in_view(window)
    assert in_view and all(contents[unit_id] is not None for unit_id in in_view), \
        "the cards in view show what they showed until built again"
    qtbot.waitUntil(lambda: all(window.cards._cards[unit_id]._content not in (None, contents[unit_id])
                                for unit_id in in_view), timeout=5000)
    assert built_by_install == [0], "the install itself builds no card"
    assert in_view <= set(builds) and len(builds) == len(set(builds)), "each card in view built again, once"


def test_cards_are_built_again_a_slice_a_turn_after_the_install(
        qtbot: QtBot, session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    from battletracker.ui.cards import panel

    monkeypatch.setattr(panel, "REFILL_SLICE_S", 0.0)
    window = _window(qtbot, session)
    rebuilt: list[int] = []
    install = window.feature_host.load

    def install_then_one_turn() -> None:
        install()
        shown = {unit_id: card._content for unit_id, card in window.cards._cards.items()}
        window.cards._realise()  # the next turn's slice, run at once
        rebuilt.append(sum(1 for unit_id in _cards_in_view(window)
                           if window.cards._cards[unit_id]._content is not shown[unit_id]))

    window.warm_up._install = install_then_one_turn
    window.resize(900, 600)
    window.show()
    qtbot.waitUntil(lambda: window.feature_host.loaded, timeout=20000)
    assert rebuilt == [1], "with no time to spare, one card a turn"
    in_view = _cards_in_view(window)
    qtbot.waitUntil(lambda: not window.cards._stale & {window.cards._cards[u] for u in in_view}, timeout=5000)


def test_a_window_without_features_imports_none(qtbot: QtBot, session: Session) -> None:
    window = MainWindow(session)
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.show()
    qtbot.waitUntil(lambda: window.feature_host.loaded, timeout=20000)
    assert not [name for name, _ms in window.warm_up.slices if name.startswith("import battletracker.ui.features")]


def test_a_features_shortcut_pressed_right_after_the_first_paint_opens_its_dialog(
        qtbot: QtBot, session: Session) -> None:
    window = _window(qtbot, session)
    session.select("u1")
    pressed: list[bool] = []

    def press() -> None:
        pressed.append(window.feature_host.loaded)
        qtbot.keyClick(window.map, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)

    window.first_painted.connect(lambda: QTimer.singleShot(0, press))
    window.show()
    qtbot.waitUntil(lambda: bool(pressed), timeout=20000)
    assert pressed == [False], "pressed before the features were installed"
    assert window.feature_host.loaded, "installed at once"
    dialog = window.findChild(FireDialog)
    assert dialog is not None and dialog.isVisible(), "the Fire dialog opened for the selected unit"
    assert dialog.windowTitle() == f"Fire - {session.game.unit('u1').name}"
    dialog.close()


# The offscreen platform, on opening a menu.
@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing the keyboard")
def test_a_menu_opened_before_the_features_are_installed_lists_their_entries(
        qtbot: QtBot, session: Session) -> None:
    window = _window(qtbot, session)
    opened: list[tuple[bool, list[str]]] = []

    def open_game_menu() -> None:
        menu = window.feature_host.menu("game")
        loaded = window.feature_host.loaded
        menu.popup(window.mapToGlobal(window.rect().center()))
        opened.append((loaded, [a.objectName() for a in menu.actions()]))
        menu.close()

    window.first_painted.connect(lambda: QTimer.singleShot(0, open_game_menu))
    window.show()
    qtbot.waitUntil(lambda: bool(opened), timeout=20000)
    loaded, entries = opened[0]
    assert not loaded and "action-arsenal" in entries, "the Anti-tank feature's Game menu entry is there"
    assert window.feature_host.loaded


def test_a_cards_menu_opened_before_the_features_are_installed_lists_their_actions(
        qtbot: QtBot, session: Session) -> None:
    window = _window(qtbot, session)
    built: list[tuple[bool, list[str]]] = []

    def open_card_menu() -> None:
        card = window.cards.card("u1")
        assert card is not None
        loaded = window.feature_host.loaded
        menu = card.build_menu(full=True)
        built.append((loaded, [a.objectName() for a in menu.actions()]))
        menu.deleteLater()

    window.first_painted.connect(lambda: QTimer.singleShot(0, open_card_menu))
    window.show()
    qtbot.waitUntil(lambda: bool(built), timeout=20000)
    loaded, entries = built[0]
    assert not loaded and "action_coc.support_fire" in entries, "the Fire action is in the card's menu"


def test_features_that_fail_to_install_are_said_and_the_window_warms_on(qtbot: QtBot, session: Session) -> None:
    def broken() -> list[Feature]:
        raise RuntimeError("a feature's table could not be read")

    window = MainWindow(session, features=broken)
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.show()
    qtbot.waitUntil(lambda: window.warm_up.done, timeout=30000)
    box = window.findChild(QMessageBox, "features_failed")
    assert box is not None and box.isVisible()
    assert "could not be loaded" in box.text() and "a feature's table could not be read" in box.text()
    assert window.warm_up.error is None, "the rest of the warm-up ran"
    window.feature_host.load()  # a menu opened later: no second try, no second box
    assert len(window.findChildren(QMessageBox, "features_failed")) == 1
    box.button(QMessageBox.StandardButton.Ok).click()
