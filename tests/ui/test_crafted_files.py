"""Crafted files through the real window and the command line: refused or opened whole, never half."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.model.game import REACH
from battletracker.model.terrain import TerrainPiece
from battletracker.rules.terrain_actions import terrain_choice
from battletracker.ui.session import Session
from battletracker.ui.window_files import OPENING_AT_START
from tests.ui.test_app import app_env
from tests.ui.test_files_and_recovery import answer_next_box
from tests.ui.test_files_and_recovery import open_window

WOOD = TerrainPiece("t9", "Copse", "woods", "area", [(10.0, 10.0), (16.0, 10.0), (13.0, 15.5)])


def _saved_game(path: Path) -> Path:
    savefile.save(savefile.load(demo_path()), path)
    return path


def _crafted_record(path: Path) -> Path:
    """A game whose recorded terrain.add holds a piece nested far deeper than any reader goes."""
    session = Session(savefile.load(demo_path()))
    session.act("terrain.add", {"piece": terrain_choice(WOOD)})
    doc = savefile.game_to_dict(session.game)
    doc["history"]["actions"][-1]["choices"]["piece"] = "[" * 100_000 + "]" * 100_000
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_a_crafted_record_opens_whole_as_its_own_game_and_save_never_writes_it_over_another(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _saved_game(tmp_path / "first.battle")
    before = first.read_bytes()
    crafted = _crafted_record(tmp_path / "crafted.battle")
    win = open_window(qtbot, tmp_path / "recovery", first)
    win.show()
    with qtbot.waitActive(win):
        win.activateWindow()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *_a, **_k: (str(crafted), ""))
    win.open_action.trigger()  # File > Open
    assert win.session.path == crafted
    assert "crafted" in win.windowTitle()
    assert "t9" in win.session.game.terrain  # the saved state, shown as saved
    assert not win.session.undo_stack.canUndo()  # its record does not replay: no undo history from it
    win.session.act("unit.shock", {"unit": "u1", "delta": 1})
    qtbot.keyClick(win, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert first.read_bytes() == before
    assert savefile.load(crafted) == win.session.game and "t9" in win.session.game.terrain


def test_a_file_with_terrain_beyond_reach_is_refused_and_the_game_on_screen_stays(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _saved_game(tmp_path / "first.battle")
    doc = savefile.game_to_dict(savefile.load(demo_path()))
    doc["game"]["terrain"] = [{"id": "far", "name": "Far wood", "kind": "woods", "shape": "area",
                               "points": [[-1e308, -1e308], [1e308, -1e308], [1e308, 1e308]]}]
    far = tmp_path / "far.battle"
    far.write_text(json.dumps(doc), encoding="utf-8")
    win = open_window(qtbot, tmp_path / "recovery", first)
    shown = win.session.game
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *_a, **_k: (str(far), ""))
    said = answer_next_box("OK")
    win.open_action.trigger()
    assert said and "far.battle was not opened" in said[0]
    assert "Far wood" in said[0] and f'within {REACH:g}"' in said[0]
    assert win.session.path == first and win.session.game is shown
    assert str(far) not in win.files.recent_files()


def _run(args: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "battletracker", *args], env=app_env(home), cwd=home,
                          capture_output=True, text=True, timeout=60)


def test_the_command_line_says_what_is_wrong_with_a_crafted_record_without_a_traceback(tmp_path: Path) -> None:
    crafted = _crafted_record(tmp_path / "crafted.battle")
    done = _run(["replay", str(crafted)], tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "nested too deeply" in done.stdout
    done = _run([str(crafted), "--quit-after-paint"], tmp_path)
    assert (done.returncode, done.stderr) == (0, "")


_START = """
import os, sys
from PySide6.QtCore import QTimer
from battletracker.ui import main_window

built = main_window.MainWindow.__init__

def init(self, *args, **kwargs):
    built(self, *args, **kwargs)
    if sys.argv[1] == "crash":
        self.first_painted.connect(lambda: os._exit(9))  # killed on its first paint, as a crash would be
    else:
        def report() -> None:
            print("opened", self.session.path, "|", self.statusBar().currentMessage(), flush=True)
            self.close()
        self.first_painted.connect(lambda: QTimer.singleShot(0, report))

main_window.MainWindow.__init__ = init
from battletracker.app import main
raise SystemExit(main([]))
"""


def test_a_start_that_crashed_opening_the_last_game_does_not_open_it_again(tmp_path: Path) -> None:
    game = _saved_game(tmp_path / "last.battle")
    settings = QSettings(str(tmp_path / "config" / "BattleTracker" / "BattleTracker.conf"), QSettings.Format.IniFormat)
    settings.setValue("recent_files", [str(game)])
    settings.sync()

    def start(how: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", _START, how], env=app_env(tmp_path), cwd=tmp_path,
                              capture_output=True, text=True, timeout=60)

    assert start("crash").returncode == 9
    after_crash = start("normal")
    assert after_crash.returncode == 0, after_crash.stderr
    line = next(line for line in after_crash.stdout.splitlines() if line.startswith("opened "))
    assert line.startswith("opened None |")
    assert "last.battle was not opened again: the last start stopped while opening it" in line
    again = start("normal")
    assert next(line for line in again.stdout.splitlines() if line.startswith("opened ")).startswith(
        f"opened {game} |")
    assert OPENING_AT_START not in QSettings(str(tmp_path / "config" / "BattleTracker" / "BattleTracker.conf"),
                                             QSettings.Format.IniFormat).allKeys()


def test_a_game_grown_past_the_limit_saves_and_autosaves_as_files_that_open_and_says_so(
        qtbot: QtBot, tmp_path: Path) -> None:
    from battletracker.model.backdrop import picture_text
    from tests.model.test_save_size import photo

    game_file = _saved_game(tmp_path / "photos.battle")
    win = open_window(qtbot, tmp_path / "recovery", game_file)
    said: list[str] = []
    win.recovery.status.connect(lambda text, _ms: said.append(text))
    for seed in range(13):
        win.session.act("backdrop.set", {"image": picture_text(photo(seed)), "name": f"photo{seed}.png"})
    win.recovery.write_now()
    assert savefile.load(win.recovery.path).backdrop == win.session.game.backdrop  # the autosave opens
    assert len(said) == 1 and said[0].startswith("Autosaved: saved without its undo history")
    win.recovery.write_now()
    assert len(said) == 1, "said once, not at every autosave"
    win.show()
    qtbot.waitExposed(win)
    with qtbot.waitActive(win):
        win.activateWindow()
    qtbot.keyClick(win, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert "without its undo history" in win.statusBar().currentMessage()
    reopened = savefile.load(game_file)
    assert reopened.backdrop == win.session.game.backdrop and reopened.actions == []


def test_a_file_with_a_setting_its_ruleset_cannot_use_is_refused_by_file_open(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _saved_game(tmp_path / "first.battle")
    doc = savefile.game_to_dict(savefile.load(demo_path()))
    doc["game"]["settings"] = {"bombardment_area_shape": 7}
    bad = tmp_path / "bad setting.battle"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    win = open_window(qtbot, tmp_path / "recovery", first)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *_a, **_k: (str(bad), ""))
    said = answer_next_box("OK")
    win.open_action.trigger()
    assert said and "bad setting.battle was not opened" in said[0]
    assert "Medium Mortar bombardment: shape of the area" in said[0] and "not 7" in said[0]
    assert win.session.path == first
