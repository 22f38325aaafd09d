"""Resident memory with the demo open, then after opening every dialog once (goal: 200 MB).

A fresh process starts as a player starts the app on the Chain of Command
demo; once the window has painted and warmed, it reads its resident memory
(VmRSS in /proc/self/status), opens every procedure dialog the demo offers
(the first-dialog benchmark's list, a bombardment ready to fire included) and
the window's other dialogs (unit, ruleset settings, about, user guide), each
closed again, and reads it once more, with the peak (VmHWM).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any

from tests.benchmarks.common import report
from tests.benchmarks.first_dialog import Opening
from tests.benchmarks.first_dialog import exit_after
from tests.benchmarks.first_dialog import open_and_close
from tests.benchmarks.first_dialog import openings
from tests.benchmarks.first_dialog import openings_json
from tests.benchmarks.first_dialog import prepare_table
from tests.benchmarks.first_dialog import read_openings

GOAL_MB = 200.0

CHILD = r"""
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([sys.argv[0]])
from tests.benchmarks.memory import drive
QTimer.singleShot(0, lambda: drive(app, sys.argv[1]))
from battletracker.app import main
raise SystemExit(main(sys.argv[2:]))
"""


def resident_mb() -> dict[str, float]:
    """This process's resident memory now (VmRSS) and at its peak (VmHWM), in MB."""
    found: dict[str, float] = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0]) / 1024
    return found


def _close_modal_soon(app: Any) -> None:
    """Close the modal dialog about to run its own event loop, once it is showing."""
    from PySide6.QtCore import QTimer

    def close() -> None:
        modal = app.activeModalWidget()
        if modal is None:
            QTimer.singleShot(10, close)
        else:
            modal.reject()
    QTimer.singleShot(10, close)


def open_every_dialog(app: Any, w: Any, tables: dict[str, tuple[Opening, ...]]) -> list[str]:
    """Open, and close again, each procedure dialog of the Chain of Command tables of `tables` (the first-dialog
    benchmark's openings) on window `w`, then the window's other dialogs; the procedure dialogs' class names.

    One window serves both tables, so it is prepared once, as the bombardment table (the Chain of Command
    table with a bombardment ready): preparing it again would roll Germany's Command Dice twice in one Phase.
    Its dialogs come first, while it is still Germany's Phase; the Command Dice dialog, last of the Chain of
    Command table's, ends that Phase to open the next roll.
    """
    prepare_table(w, "bombardment")
    opened = [open_and_close(app, w, opening)[1] for table in ("bombardment", "chain_of_command")
              for opening in tables[table]]
    w.session.select("u1")
    others: list[Callable[[], object]] = [w.edit_unit, w.open_settings, w.about]
    for show in others:
        _close_modal_soon(app)
        show()
        app.processEvents()
    w.show_guide()
    app.processEvents()
    w.guide_window.close()
    app.processEvents()
    return opened


def drive(app: Any, dialogs: str) -> None:
    """In the child: once the window is warm, measure, open every dialog of `dialogs` (the first-dialog
    benchmark's openings, as JSON) on the demo once, measure again, and exit."""
    from PySide6.QtCore import QTimer

    tables = read_openings(dialogs)

    def window() -> Any:
        from battletracker.ui.gc_pause import top_level_widgets
        from battletracker.ui.main_window import MainWindow

        return next((w for w in top_level_widgets() if isinstance(w, MainWindow)), None)

    def measure(w: Any) -> None:
        app.processEvents()
        opened = resident_mb()
        open_every_dialog(app, w, tables)
        after = resident_mb()
        print(json.dumps({"demo": opened["VmRSS"], "after": after["VmRSS"], "peak": after["VmHWM"]}), flush=True)

    def wait() -> None:
        w = window()
        if w is None or not w.painted or not w.warm_up.done:
            QTimer.singleShot(20, wait)
            return
        exit_after(lambda: measure(w))

    QTimer.singleShot(0, wait)


def main() -> None:
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home, XDG_DATA_HOME=home,
                   PYTHONPATH=os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")])))
        if not env.get("DISPLAY"):
            env["QT_QPA_PLATFORM"] = "offscreen"
        done = subprocess.run([sys.executable, "-c", CHILD, openings_json(openings()), "--demo"], env=env,
                              capture_output=True, text=True, timeout=90)
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"the app failed: {done.stderr[-2000:]}")
    mb = lines[0]
    report("resident memory: the demo open and warmed", mb["demo"], GOAL_MB, unit="MB")
    report("resident memory: after opening every dialog once", mb["after"], GOAL_MB, unit="MB")
    report("resident memory: its peak", mb["peak"], GOAL_MB, unit="MB")


if __name__ == "__main__":
    main()
