"""Listing the top-level windows never wraps one a collection has just deleted.

A dialog run with `exec()` is Python's to delete. Left in a reference cycle (a test's
timer callback that calls itself and keeps the dialog did exactly that), it is deleted
by the next collection, and a collection started while PySide6 wraps the list of
`QApplication.topLevelWidgets()` leaves the list naming freed memory: the whole test
suite crashed that way now and then. Each case runs in a fresh process, so a crash is a
failed test, not a lost run; a collection is made due at every allocation.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest

from battletracker.ui.gc_pause import collection_paused
from tests.ui.test_app import app_env

SCRIPT = """
import gc, sys
from PySide6.QtWidgets import QApplication, QDialog
from battletracker.ui.gc_pause import top_level_widgets

app = QApplication([])
listing = top_level_widgets if sys.argv[1] == "paused" else QApplication.topLevelWidgets
kept = []
for _ in range(100):
    for _ in range(3):
        dialog = QDialog()  # no parent: Python owns it, as it owns a dialog once exec() has run
        cycle = [dialog]
        cycle.append(cycle)
        del dialog, cycle
    gc.set_threshold(1, 1, 1)
    widgets = listing()
    gc.set_threshold(700, 10, 10)
    kept.append(len([widget.windowTitle() for widget in widgets]))
print(max(kept))
"""


def run(listing: str, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", SCRIPT, listing], env=app_env(home), cwd=home,
                          capture_output=True, text=True, timeout=120)


def test_top_level_widgets_lists_windows_in_garbage_without_crashing(tmp_path: Path) -> None:
    done = run("paused", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().isdigit()  # it ran to the end


def test_the_plain_listing_crashes_there_with_this_pyside6(tmp_path: Path) -> None:
    """Why the listing is paused: with the PySide6 the project pins, the plain call crashes."""
    done = run("plain", tmp_path)
    assert done.returncode != 0


WARM_UP = """
import gc, json, threading
from PySide6.QtWidgets import QApplication
app = QApplication([])
from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.ui import warmup
from battletracker.ui.features import all_features
from battletracker.ui.main_window import MainWindow
from battletracker.ui.session import Session

on_threads = []
def note(phase, info):
    if phase == "start" and threading.current_thread() is not threading.main_thread():
        on_threads.append(threading.current_thread().name)
gc.callbacks.append(note)
window = MainWindow(Session(savefile.load(demo_path())), features=all_features)
window.show()
while not window.warm_up.done or warmup._running:
    app.processEvents()
print(json.dumps({"on threads": on_threads, "enabled": gc.isenabled(), "error": repr(window.warm_up.error)}))
window.session.undo_stack.setClean()
"""


def test_no_collection_runs_on_a_warm_up_thread_and_the_collector_comes_back(tmp_path: Path) -> None:
    """In a fresh process, so that the threads import numpy, pyqtgraph and the rules: thousands of objects."""
    done = subprocess.run([sys.executable, "-c", WARM_UP], env=app_env(tmp_path), cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"on threads": [], "enabled": True, "error": "None"}


@pytest.mark.parametrize("enabled", [True, False])
def test_pauses_nest_and_restore_the_collector(enabled: bool) -> None:
    before = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        with collection_paused():
            assert not gc.isenabled()
            with collection_paused():
                assert not gc.isenabled()
            assert not gc.isenabled()
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if before else gc.disable)()


def test_windows_are_listed_only_through_the_pause() -> None:
    root = Path(__file__).resolve().parents[2]
    allowed = {root / "battletracker" / "ui" / "gc_pause.py", Path(__file__).resolve()}
    files = [path for folder in ("battletracker", "tests") for path in (root / folder).rglob("*.py")]
    plain = [str(path.relative_to(root)) for path in files
             if path not in allowed and "topLevelWidgets()" in path.read_text(encoding="utf-8")]
    assert plain == []
