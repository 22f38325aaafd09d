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

from tests.ui.test_app import app_env

# In a fresh process, as the app starts: which classes of the Qt modules pyqtgraph reads are
# still to be made when the warm-up's thread starts.
SCRIPT = """
import json, sys, threading
from PySide6.QtWidgets import QApplication
app = QApplication([])
from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.ui.features import all_features
from battletracker.ui.main_window import MainWindow
from battletracker.ui.session import Session

seen = {}
start = threading.Thread.start

def watched_start(thread):
    if thread.name == "warm-up" and not seen:
        for name in ("PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets", "PySide6.QtSvg",
                     "PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets", "PySide6.QtTest"):
            module = sys.modules.get(name)
            seen[name] = ["(not imported)"] if module is None else [
                n for n in dir(module) if not n.startswith("_") and n not in vars(module)]
        seen["pyqtgraph already imported"] = "pyqtgraph" in sys.modules
    start(thread)

threading.Thread.start = watched_start
window = MainWindow(Session(savefile.load(demo_path())), features=all_features)
window.show()
while not window.warm_up.done:
    app.processEvents()
print(json.dumps({"seen": seen, "error": repr(window.warm_up.error)}))
"""


def test_every_qt_class_pyqtgraph_reads_is_made_on_the_gui_thread_before_the_thread_starts(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=app_env(tmp_path), cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    seen = report["seen"]
    assert seen, "the warm-up's thread started"
    assert seen.pop("pyqtgraph already imported") is False
    assert {name: unmade[:5] for name, unmade in seen.items() if unmade} == {}, "left for the thread to make"
    assert report["error"] == "None"
