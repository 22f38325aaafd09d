"""Start to the painted main window, against a bare PySide6 window (budget 1.5x).

Each run is a fresh process, timed by this process from launch until the
child reports its first paint, so interpreter start and imports are included
for both; what the app does after its first paint (loading the rules
features) is not part of the start.

`--breakdown` also times the bare window with, before it, what the app's
first paint cannot do without: the enums of Qt's `Qt` namespace (any window
that passes Qt a flag builds them), the model with the demo file read, and
then the window's modules imported with nothing built. Each stage is a
floor under the start: how much of the goal is left for the rest.
"""

from __future__ import annotations

import argparse
import os
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
STAGES = (
    ("the enums of Qt's Qt namespace", QT_NAMESPACE),
    ("the model with the demo file read", QT_NAMESPACE + MODEL_AND_DEMO),
    ("the window's modules imported, nothing built", QT_NAMESPACE + MODEL_AND_DEMO + WINDOW_MODULES),
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.startup")
    parser.add_argument("--breakdown", action="store_true",
                        help="also time the bare window after each part of what the app needs before its paint")
    breakdown = parser.parse_args([] if argv is None else argv).breakdown
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home, XDG_DATA_HOME=home)
        # As on a player's machine: compiled modules are cached after the first start.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if not env.get("DISPLAY"):
            env["QT_QPA_PLATFORM"] = "offscreen"
        bare, app = [], []
        chosen = STAGES if breakdown else ()
        stages: list[list[float]] = [[] for _ in chosen]
        _time([sys.executable, "-m", "battletracker", "--demo", "--quit-after-paint"], env)  # writes the bytecode cache
        for _ in range(RUNS):
            bare.append(_time([sys.executable, "-c", BARE], env))
            for times, (_, before) in zip(stages, chosen, strict=True):
                times.append(_time([sys.executable, "-c", before + BARE], env))
            app.append(_time([sys.executable, "-m", "battletracker", "--demo", "--quit-after-paint"], env))
    bare_ms, app_ms = statistics.median(bare), statistics.median(app)
    report_ratio("start to painted window: BattleTracker on the demo", app_ms, bare_ms, BUDGET_RATIO,
                 baseline="bare PySide6 window")
    for times, (name, _) in zip(stages, chosen, strict=True):
        stage_ms = statistics.median(times)
        print(f"  bare window after {name:<45} {stage_ms:7.2f} ms, ratio {stage_ms / bare_ms:.2f}x", flush=True)
    check = subprocess.run([sys.executable, "-c", "import battletracker.ui.main_window, sys; "
                            "print('pyqtgraph' in sys.modules, 'numpy' in sys.modules)"],
                           env=env, capture_output=True, text=True)
    print(f"{'pyqtgraph / numpy imported at start':<58} {check.stdout.strip()}")


if __name__ == "__main__":
    main(sys.argv[1:])
