"""After the first paint the window warms what the first procedure dialog needs, and the start collects again."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pytestqt.qtbot import QtBot

from battletracker.ui.features import all_features
from battletracker.ui.main_window import MainWindow
from battletracker.ui.session import Session
from tests.ui.test_app import app_env


def test_the_window_warms_the_odds_plot_on_idle_after_its_first_paint(qtbot: QtBot, session: Session) -> None:
    window = MainWindow(session, features=all_features)
    qtbot.addWidget(window)
    assert not window.warm_up.done and not window.warm_up.slices, "nothing is warmed before the first paint"
    window.show()
    qtbot.waitUntil(lambda: window.warm_up.done, timeout=30000)
    assert window.warm_up.error is None
    assert {"numpy", "pyqtgraph", "battletracker.ui.procedure_runner"} <= set(sys.modules)
    names = [name for name, _ms in window.warm_up.slices]
    assert names[-1] == "a first odds plot" and "the rules registry" in names
    assert window.warm_up.longest_slice()[1] == max(ms for _name, ms in window.warm_up.slices)


def test_the_start_collects_again_from_its_first_paint(tmp_path: Path) -> None:
    script = ("import gc, sys\n"
              "from battletracker.app import main\n"
              "code = main(['--demo', '--quit-after-paint'])\n"
              "print('collecting', gc.isenabled(), gc.get_freeze_count() > 0)\n"
              "sys.exit(code)")
    done = subprocess.run([sys.executable, "-c", script], env=app_env(tmp_path), cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "collecting True True" in done.stdout, "what the start built is frozen at the first paint"
