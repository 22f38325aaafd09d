"""After the first paint the window warms what the first procedure dialog needs, and the start collects again."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import QEvent
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
    assert {"the rules registry", "a first odds plot", "a first dialog made off screen",
            "a first dialog drawn off screen"} <= set(names)
    assert names.index("a first dialog made off screen") + 1 == names.index("a first dialog drawn off screen"), \
        "made in one slice and drawn in the next"
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


def test_a_closed_dialogs_plots_are_taken_by_the_next_dialog_and_drawn_again_if_it_shows(qtbot: QtBot) -> None:
    from fractions import Fraction

    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDialogButtonBox
    from PySide6.QtWidgets import QVBoxLayout
    from PySide6.QtWidgets import QWidget

    from battletracker.core.odds import Distribution
    from battletracker.ui import odds_plot
    from battletracker.ui.odds_plot import OddsPlot
    from battletracker.ui.procedure_runner import ProcedureDialog

    holder = QWidget()
    qtbot.addWidget(holder)
    odds_plot._spares.clear()
    odds_plot.make_spare_plot(holder)

    def dialog_with_odds() -> tuple[ProcedureDialog, OddsPlot]:
        dialog = ProcedureDialog()
        qtbot.addWidget(dialog)
        plot = OddsPlot(dialog)
        layout = QVBoxLayout(dialog)
        layout.addWidget(plot)
        layout.addWidget(dialog.close_buttons())
        plot.set_distribution(Distribution({"hit": Fraction(1, 3), "miss": Fraction(2, 3)}))
        return dialog, plot

    first, first_odds = dialog_with_odds()
    chart = first_odds._plot
    assert chart.getViewBox().menu is None, "an odds chart never has a context menu to build"
    first.show()
    close = first.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close)
    qtbot.mouseClick(close, Qt.MouseButton.LeftButton)
    assert not first.isVisible()
    assert chart in odds_plot._spares and chart.parent() is holder, "the closed dialog's plot waits for the next"
    assert chart.getAxis("bottom")._tickLevels is None and not chart.getAxis("left").label.isVisible()

    second, second_odds = dialog_with_odds()
    assert second_odds._plot is chart, "the next dialog's chart takes it rather than building one"
    second.show()
    qtbot.waitExposed(second)
    assert chart.isVisible()

    first.show()
    assert first_odds._plot is not None and first_odds._plot is not chart and first_odds._plot.isVisible(), \
        "a closed dialog shown again draws its chart again"
    odds_plot._spares.clear()
