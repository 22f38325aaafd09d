"""Start to the painted main window, against a bare PySide6 window (budget 1.5x).

Each run is a fresh process, timed by this process from launch until the
child reports its first paint, so interpreter start and imports are included
for both; what the app does after its first paint (loading the rules
features) is not part of the start.

Beside it, the bare window is timed with, before it, what the app's first
paint cannot do without, each stage adding to the one before: the enums of
Qt's `Qt` namespace (any window that passes Qt a flag builds them); the Qt
classes the window's modules import, which PySide6 makes with every enum of
theirs as Python `enum` classes at the import; the model with the demo file
read; the window's modules imported with nothing built. Each stage is a
floor under the start, printed with what it leaves of the goal for the rest.

`--instructions` counts instead, under valgrind's callgrind, the instructions
each program runs until its first paint (there it ends): steady to a tenth of
a percent where times on a shared machine vary by a third.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from tests.benchmarks.common import report_ratio

RUNS = 7
BUDGET_RATIO = 1.5

BARE = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv)
w = QMainWindow()
w.resize(1400, 880)
painted = []
class W(QMainWindow):
    def paintEvent(self, e):
        super().paintEvent(e)
        painted.append(1)
w = W()
w.resize(1400, 880)
w.show()
def check():
    if painted:
        print("painted", flush=True)
        app.quit()
    else:
        QTimer.singleShot(1, check)
QTimer.singleShot(0, check)
app.exec()
"""


# What the app's first paint needs, run before the bare window: each stage adds to the one before it.
QT_NAMESPACE = "from PySide6.QtCore import Qt\n"
MODEL_AND_DEMO = """
import gc
gc.disable()
from battletracker.app import demo_path
from battletracker.model import savefile
savefile.load(demo_path())
"""
WINDOW_MODULES = """
from battletracker.ui.features import all_features
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session
from battletracker.ui.theme import apply_scheme
"""
# Prints, as JSON, the Qt classes the window's modules import: {Qt module: [class names]}.
LIST_QT_CLASSES = WINDOW_MODULES + """
import json
classes = {}
for name, module in list(sys.modules.items()):
    if name.startswith("battletracker"):
        for value in vars(module).values():
            if isinstance(value, type) and getattr(value, "__module__", "").startswith("PySide6.Qt"):
                classes.setdefault(value.__module__, set()).add(value.__name__)
print(json.dumps({qt: sorted(names) for qt, names in sorted(classes.items())}))
"""


def qt_classes_import(env: dict[str, str]) -> tuple[str, int]:
    """The import lines of the Qt classes the window's modules import, and how many classes they name."""
    listed = subprocess.run([sys.executable, "-c", "import sys\n" + LIST_QT_CLASSES], env=env,
                            capture_output=True, text=True, check=True)
    classes: dict[str, list[str]] = json.loads(listed.stdout)
    lines = "".join(f"from {qt} import {', '.join(names)}\n" for qt, names in classes.items())
    return lines, sum(len(names) for names in classes.values())


def stages(env: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """(what is added, the code run before the bare window), each stage with the ones before it."""
    qt_classes, count = qt_classes_import(env)
    return (
        ("the enums of Qt's Qt namespace", QT_NAMESPACE),
        (f"the {count} Qt classes the window's modules import", QT_NAMESPACE + qt_classes),
        # The model first, as the app reads its game before it imports Qt (no PySide6 import hook for it).
        ("the model with the demo file read", MODEL_AND_DEMO + QT_NAMESPACE + qt_classes),
        ("the window's modules imported, nothing built", MODEL_AND_DEMO + QT_NAMESPACE + qt_classes + WINDOW_MODULES),
    )


def _time(cmd: list[str], env: dict[str, str]) -> float:
    """Milliseconds from launching `cmd` until it reports its first paint on stdout."""
    start = time.perf_counter()
    with subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("painted"):
                elapsed = (time.perf_counter() - start) * 1000
                proc.wait(timeout=60)
                return elapsed
        raise RuntimeError(f"{' '.join(cmd)} did not paint: {proc.stderr.read() if proc.stderr else ''}")


# Under callgrind each program ends at its first paint, so that only the start is counted.
BARE_TO_PAINT = BARE.replace("app.quit()", "import os; os._exit(0)")
# The app as `battletracker --demo` starts, ended by the first slot its first paint calls.
APP_TO_PAINT = """
import os
from battletracker import app
app._resume_collecting = lambda collecting: os._exit(0)
app.main(["--demo"])
"""


def _instructions(code: str, env: dict[str, str], folder: str) -> int:
    """Instructions `code` runs under callgrind from launch until it ends."""
    out = os.path.join(folder, "callgrind.out")
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", code],
                   env=env, capture_output=True, check=True)
    with open(out, encoding="utf-8") as counted:
        found = re.search(r"^(?:summary|totals): (\d+)", counted.read(), re.MULTILINE)
    if found is None:
        raise RuntimeError(f"callgrind wrote no total for: {code[:60]}")
    return int(found.group(1))


def count_instructions(env: dict[str, str], folder: str) -> None:
    """Print each program's instructions to its first paint as a ratio to the bare window's."""
    if shutil.which("valgrind") is None:
        print("instructions to the first paint: needs valgrind (apt-get install valgrind)")
        return
    bare = _instructions(BARE_TO_PAINT, env, folder)
    app = _instructions(APP_TO_PAINT, env, folder)
    print(f"{'instructions to the first paint: BattleTracker on the demo':<58} {app / 1e6:7.0f} M"
          f"   bare PySide6 window {bare / 1e6:.0f} M, ratio {app / bare:.2f}x"
          f" (goal <= {BUDGET_RATIO:g}x: {'within' if app <= BUDGET_RATIO * bare else 'OVER'})", flush=True)
    for name, before in stages(env):
        stage = _instructions(before + BARE_TO_PAINT, env, folder)
        print(f"  bare window after {name:<45} {stage / 1e6:5.0f} M, ratio {stage / bare:.2f}x,"
              f" {(BUDGET_RATIO * bare - stage) / 1e6:5.0f} M of the goal left", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.startup")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions to the first paint under callgrind instead of timing")
    counting = parser.parse_args([] if argv is None else argv).instructions
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home, XDG_DATA_HOME=home)
        # As on a player's machine: compiled modules are cached after the first start.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if not env.get("DISPLAY"):
            env["QT_QPA_PLATFORM"] = "offscreen"
        _time([sys.executable, "-m", "battletracker", "--demo", "--quit-after-paint"], env)  # writes the bytecode cache
        if counting:
            count_instructions(env, home)
            return
        bare, app = [], []
        chosen = stages(env)
        stage_times: list[list[float]] = [[] for _ in chosen]
        for _ in range(RUNS):
            bare.append(_time([sys.executable, "-c", BARE], env))
            for times, (_, before) in zip(stage_times, chosen, strict=True):
                times.append(_time([sys.executable, "-c", before + BARE], env))
            app.append(_time([sys.executable, "-m", "battletracker", "--demo", "--quit-after-paint"], env))
    bare_ms, app_ms = statistics.median(bare), statistics.median(app)
    report_ratio("start to painted window: BattleTracker on the demo", app_ms, bare_ms, BUDGET_RATIO,
                 baseline="bare PySide6 window")
    goal_ms = BUDGET_RATIO * bare_ms
    for times, (name, _) in zip(stage_times, chosen, strict=True):
        stage_ms = statistics.median(times)
        print(f"  bare window after {name:<45} {stage_ms:7.2f} ms, ratio {stage_ms / bare_ms:.2f}x,"
              f" {goal_ms - stage_ms:6.2f} ms of the goal left", flush=True)
    check = subprocess.run([sys.executable, "-c", "import battletracker.ui.main_window, sys; "
                            "print('pyqtgraph' in sys.modules, 'numpy' in sys.modules)"],
                           env=env, capture_output=True, text=True)
    print(f"{'pyqtgraph / numpy imported at start':<58} {check.stdout.strip()}")


if __name__ == "__main__":
    main(sys.argv[1:])
