"""After the first paint the window warms what the first procedure dialog needs, and the start collects again."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent
from pytestqt.qtbot import QtBot

from battletracker.ui.dice_dialog import DiceDialog
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
    assert {"the rules registry", "a first odds plot", "a first dialog drawn off screen"} <= set(names)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert not window.findChildren(DiceDialog), "the dialog drawn off screen is gone"
    tables = [name for name in names if name.endswith(" tables")]
    assert tables[0] == "the chain_of_command tables" and len(tables) == 3, "the game's ruleset first"
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


def test_a_chart_takes_a_plot_made_ahead_and_another_is_made_on_idle(qtbot: QtBot, session: Session) -> None:
    from fractions import Fraction

    from battletracker.core.odds import Distribution
    from battletracker.ui import odds_plot
    from battletracker.ui.odds_plot import OddsPlot

    window = MainWindow(session, features=all_features)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.warm_up.done, timeout=30000)
    waiting = list(odds_plot._spares)
    assert len(waiting) == odds_plot.SPARE_PLOTS
    plot = OddsPlot()
    qtbot.addWidget(plot)
    plot.set_distribution(Distribution({"hit": Fraction(1, 3), "miss": Fraction(2, 3)}))
    assert plot._plot is waiting[-1] and plot._plot.parent() is plot
    plot.show()
    assert plot._plot.isVisible()
    qtbot.waitUntil(lambda: len(odds_plot._spares) == odds_plot.SPARE_PLOTS)
    assert plot._plot not in odds_plot._spares
