"""The first opening of each procedure dialog, once the window is painted and idle (goal: 100 ms).

Each table (the three demos, and the Chain of Command demo with a bombardment
ready to fire) is a fresh process started as a player starts the app. Once
the window has painted and its warm-up has finished, each dialog is opened as
a player opens it (its menu or unit action), timed until it has been shown and
painted, closed, and opened again: the second opening is the baseline measured
side by side. Printed too: how long adding the features takes on the GUI thread
after the first paint, and the window's longest pause from the first paint until
it is warm, the features' install included (a timer ticking every millisecond on
the GUI thread): warming must never freeze a window a player may already be using.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

from tests.benchmarks.common import report
from tests.benchmarks.common import report_ratio

if TYPE_CHECKING:
    # Not in the child process before the app starts: it would load the dialogs' base ahead of the start.
    from battletracker.ui.procedure_runner import FirstOpening
    from battletracker.ui.procedure_runner import NotOpened

GOAL_MS = 100.0
PAUSE_GOAL_MS = 50.0


@dataclass(frozen=True)
class Opening:
    """One dialog, opened the way a player opens it: `how` is "dice", "command_dice", "phase" or a unit action key."""

    title: str
    dialog: str          # the ProcedureDialog subclass that must appear
    how: str
    unit_id: str = ""


# The tables, each a fresh process, in the order they are started: each one's demo file. Each dialog names its
# table and its place in that table's order in its `first_opening` (ui/procedure_runner.py).
TABLES: dict[str, str] = {"chain_of_command": "chain_of_command", "bombardment": "chain_of_command",
                          "necromunda": "necromunda", "armour_battles": "armour_battles"}


def demo_of(table: str) -> Path:
    """The demo file a table starts from."""
    from battletracker.rules.tables import resources_dir

    return resources_dir() / "demo" / f"{TABLES[table]}.json"


def procedure_dialogs() -> dict[str, FirstOpening | NotOpened | None]:
    """Every procedure dialog a player opens, by class name, with what its class itself says in `first_opening`.

    The dialogs are the ProcedureDialog classes nothing else derives from (not the shared bases); every
    module of battletracker.ui is imported first, so none is missed for not having been imported yet.
    """
    import battletracker.ui
    from battletracker.ui.procedure_runner import ProcedureDialog

    for found in pkgutil.walk_packages(battletracker.ui.__path__, "battletracker.ui."):
        importlib.import_module(found.name)
    dialogs: dict[str, FirstOpening | NotOpened | None] = {}
    pending: list[type[ProcedureDialog]] = [ProcedureDialog]
    while pending:
        cls = pending.pop()
        children = cls.__subclasses__()
        if not children and cls is not ProcedureDialog:
            dialogs[cls.__name__] = vars(cls).get("first_opening")
        pending.extend(children)
    return dialogs


def openings() -> dict[str, tuple[Opening, ...]]:
    """Each table's dialogs, in the order they are opened there."""
    from battletracker.ui.procedure_runner import FirstOpening

    declared = sorted((first.table, first.place, Opening(first.title, name, first.how, first.unit_id))
                      for name, first in procedure_dialogs().items() if isinstance(first, FirstOpening))
    return {table: tuple(opening for on, _place, opening in declared if on == table) for table in TABLES}


def openings_json(tables: dict[str, tuple[Opening, ...]]) -> str:
    """The openings as a child process is given them: it opens the dialogs without importing any beforehand."""
    return json.dumps({table: [asdict(opening) for opening in found] for table, found in tables.items()})


def read_openings(text: str) -> dict[str, tuple[Opening, ...]]:
    return {table: tuple(Opening(**row) for row in rows) for table, rows in json.loads(text).items()}


CHILD = r"""
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([sys.argv[0]])
from tests.benchmarks.first_dialog import drive, read_openings
QTimer.singleShot(0, lambda: drive(app, sys.argv[1], read_openings(sys.argv[2])[sys.argv[1]]))
from battletracker.app import main
raise SystemExit(main(sys.argv[3:]))
"""


def drive(app: Any, table: str, dialogs: tuple[Opening, ...]) -> None:
    """In the child: wait for the painted, warmed window, then open each of `dialogs` twice and print the times."""
    from PySide6.QtCore import QTimer

    ticks: list[float] = []
    state: dict[str, Any] = {}

    def window() -> Any:
        from battletracker.ui.gc_pause import top_level_widgets
        from battletracker.ui.main_window import MainWindow

        return next((w for w in top_level_widgets() if isinstance(w, MainWindow)), None)

    def tick() -> None:
        w = window()
        if w is None:
            return
        if "painted" not in state:
            # The first tick is the first paint itself: what runs just after it counts.
            state["painted"] = True
            w.first_painted.connect(lambda: ticks.append(time.perf_counter()))
        if not w.painted:
            return
        ticks.append(time.perf_counter())
        if w.warm_up.done:
            state["timer"].stop()
            gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
            name, ms = w.warm_up.longest_slice()
            print(json.dumps({"pause_ms": max(gaps, default=0.0) * 1000, "slice": name, "slice_ms": ms,
                              "features_ms": dict(w.warm_up.slices).get("the rules features", 0.0)}),
                  flush=True)
            # The table is prepared before the pause, so the map has repainted it when the first dialog opens.
            prepare_table(w, table)
            QTimer.singleShot(200, lambda: exit_after(lambda: measure(w)))

    def measure(w: Any) -> None:
        for opening in dialogs:
            first, kind = open_and_close(app, w, opening)
            second, _ = open_and_close(app, w, opening)
            print(json.dumps({"title": opening.title, "dialog": kind, "first_ms": first, "second_ms": second}),
                  flush=True)

    timer = QTimer()
    timer.setInterval(1)
    timer.timeout.connect(tick)
    timer.start()
    state["timer"] = timer


def exit_after(work: Callable[[], None]) -> None:
    """In the child: run `work`, then leave at once, without the "save changes?" question the prepared table's
    actions would ask. A failure exits 1 with its traceback, so the parent reports it rather than printing a
    shorter list of dialogs as if that were all."""
    code = 0
    try:
        work()
    except BaseException:
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def prepare_table(w: Any, table: str) -> None:
    """Germany's Command Dice rolled (the dialogs open on units they may activate); the bombardment table: a
    German H.E. bombardment ranged in with a held 1, its hidden die placed, ready to fire with the other 1."""
    session = w.session
    if session.game.ruleset == "chain_of_command":
        session.act("coc.command_dice", {}, [1, 1, 2, 3, 4])
    if table != "bombardment":
        return
    session.act("coc.new_bombardment", {"side": 0, "kind": "high_explosive", "phases": 3, "x": 24.0, "y": 38.0,
                                        "observer_x": 30.0, "observer_y": 20.0})
    bid = next(iter(session.game.bombardments))
    session.act("coc.ranging_shot", {"bombardment": bid}, [4, 4], typed=True)
    session.act("coc.hidden_die", {"bombardment": bid, "face": 2})


def _opener(app: Any, w: Any, opening: Opening) -> Callable[[], object]:
    """What the player presses to open `opening`, once the table is where a player opens it from."""
    if opening.how == "dice":
        return w.open_dice
    if opening.how == "command_dice":
        from battletracker.ui.features.this_phase import ThisPhasePanel

        panel = w.findChild(ThisPhasePanel)
        if "roll" not in panel.buttons:
            # The prepared table has rolled this Phase's dice: the next roll comes after End Phase, as at the table.
            w.end_phase_action.trigger()
            app.processEvents()
        if "roll" not in panel.buttons:
            raise RuntimeError(f"{opening.title}: This Phase offers no roll after End Phase")
        return panel.buttons["roll"].click
    if opening.how in ("phase", "ranging"):
        from battletracker.ui.features.bombardments.panel import BombardmentsPanel

        panel = w.findChild(BombardmentsPanel)
        bid = next(iter(w.session.game.bombardments))
        return lambda: (panel.open_phase if opening.how == "phase" else panel.open_ranging)(bid)
    return lambda: w.feature_host.run_unit_action(opening.how, opening.unit_id)


def open_and_close(app: Any, w: Any, opening: Opening) -> tuple[float, str]:
    """Milliseconds from the player's request until the dialog has been shown and painted; then close it."""
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtCore import QEvent

    from battletracker.ui.gc_pause import top_level_widgets
    from battletracker.ui.procedure_runner import ProcedureDialog

    before = {id(d) for d in top_level_widgets() if isinstance(d, ProcedureDialog)}
    open_it = _opener(app, w, opening)
    start = time.perf_counter()
    open_it()
    app.processEvents()
    elapsed = (time.perf_counter() - start) * 1000
    opened = [d for d in top_level_widgets()
              if isinstance(d, ProcedureDialog) and d.isVisible() and id(d) not in before]
    if len(opened) != 1:
        raise RuntimeError(f"{opening.title}: expected one new procedure dialog, found {opened}")
    kind = type(opened[0]).__name__
    opened[0].reject()
    opened[0].close()
    opened[0].deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    app.processEvents()
    return elapsed, kind


def run_table(table: str, dialogs: str, env: dict[str, str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Start the app on `table` in a fresh process, to open `dialogs` (`openings_json`); its warm-up pause and
    each opening's times."""
    cmd = [sys.executable, "-c", CHILD, table, dialogs, str(demo_of(table))]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"{table}: the app failed: {done.stderr[-2000:]}")
    return lines[0], lines[1:]


def main() -> None:
    worst_pause: tuple[float, str, float] = (0.0, "", 0.0)
    features_ms = 0.0
    dialogs = openings_json(openings())
    for table in TABLES:
        # A home of its own for each start: no recent files, no autosave offered back.
        with tempfile.TemporaryDirectory() as home:
            env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home, XDG_DATA_HOME=home,
                       PYTHONPATH=os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")])))
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            if not env.get("DISPLAY"):
                env["QT_QPA_PLATFORM"] = "offscreen"
            warm, opened = run_table(table, dialogs, env)
            if warm["pause_ms"] >= worst_pause[0]:
                worst_pause = (warm["pause_ms"], warm["slice"], warm["slice_ms"])
            features_ms = max(features_ms, warm["features_ms"])
            for row in opened:
                name = f"first {row['title']} dialog"
                report(f"{name}: absolute", row["first_ms"], GOAL_MS)
                report_ratio(f"{name}: to its second opening", row["first_ms"], row["second_ms"], 1.5,
                             baseline="second")
    pause, slice_name, slice_ms = worst_pause
    report("installing the rules features after the first paint", features_ms)
    report("the window's longest pause from the first paint until warm", pause, PAUSE_GOAL_MS)
    print(f"{'warm-up: its longest GUI-thread slice':<58} {slice_ms:9.2f} ms   ({slice_name})", flush=True)


if __name__ == "__main__":
    main()
