"""The warm-up's thread never makes a Qt class: Qt's classes are made on the GUI thread.

PySide6 makes each of its classes (with its enums) at first use, and doing so is
not safe while another thread does the same: making every class of QtCore, QtGui
and QtWidgets on the GUI thread while a thread imports pyqtgraph (which reads
them all) crashes the interpreter now and then. So the GUI thread makes them all,
a slice a turn, before the thread starts.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pytestqt.qtbot import QtBot

from battletracker.ui.features import all_features
from battletracker.ui.main_window import MainWindow
from battletracker.ui.session import Session
from tests.ui.test_app import app_env

# In a fresh process, as the app starts: the Qt classes and modules made while the warm-up's thread
# runs (the GUI thread meanwhile only waits for it, and repaints).
SCRIPT = """
import json, sys, threading
from PySide6.QtWidgets import QApplication
app = QApplication([])
from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.ui.features import all_features
from battletracker.ui.main_window import MainWindow
from battletracker.ui.session import Session

def made():
    return {name: set(vars(module)) for name, module in list(sys.modules.items()) if name.startswith("PySide6.")}

seen = {}
run = threading.Thread.run

def watched_run(thread):
    if thread.name != "warm-up":
        return run(thread)
    before = made()
    seen["pyqtgraph already imported"] = "pyqtgraph" in sys.modules
    try:
        run(thread)
    finally:
        after = made()
        seen["made meanwhile"] = {name: sorted(names - before.get(name, set()))[:5] or ["(the module)"]
                                  for name, names in after.items() if names != before.get(name)}

threading.Thread.run = watched_run
window = MainWindow(Session(savefile.load(demo_path())), features=all_features)
window.show()
while not window.warm_up.done:
    app.processEvents()
print(json.dumps({"seen": seen, "error": repr(window.warm_up.error),
                  "pyqtgraph": "pyqtgraph" in sys.modules}))
"""


def test_no_qt_class_is_made_while_the_warm_up_thread_imports_pyqtgraph(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=app_env(tmp_path), cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["error"] == "None" and report["pyqtgraph"]
    assert report["seen"]["pyqtgraph already imported"] is False, "the thread imported it"
    assert report["seen"]["made meanwhile"] == {}, "made while the thread ran, on either thread"


def test_a_closed_window_warms_nothing_more(qtbot: QtBot, session: Session) -> None:
    """A window closed while warming (a test's window, closed but not yet deleted) runs no more slices."""
    window = MainWindow(session, features=all_features)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: bool(window.warm_up.slices), timeout=20000)
    session.undo_stack.setClean()
    window.close()
    ran = len(window.warm_up.slices)
    qtbot.wait(500)
    assert len(window.warm_up.slices) == ran
    assert not window.warm_up.done
