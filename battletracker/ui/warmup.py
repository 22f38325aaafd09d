"""Install the rules features, then warm what the first procedure dialog needs, after the first paint.

Everything here runs while a player may already be using the window, so the
GUI thread only ever does short slices, one per turn of the event loop: a
click or a key press waits for at most one slice (each slice's duration is
kept in `slices`). What takes long and touches no widget runs in a background
thread, one stage at a time, while the GUI thread only polls it:

1. the rulesets (pure Python, no Qt), in a thread;
2. the rules features, installed in slices the window gives (`install`):
   its modules one a slice, then its menus and actions, its window
   extensions one a slice, its card sections;
3. numpy and pyqtgraph, which the odds plot needs (a third of a second or
   more to import), in a thread;
4. the GUI-thread warming: the dialog modules, the rules registry, a first
   odds plot drawn off screen, plots made ahead for the next charts, the
   rulesets' tables with the game's first.

A player who reaches for a feature before it is installed (its shortcut, its
menu) gets it at once: `finish_install` waits for the rulesets' thread and
runs what is left of stage 2 on the spot.
"""

from __future__ import annotations

import importlib
import sys
import threading
import time
from collections.abc import Callable
from functools import partial

import shiboken6
from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QWidget

# Imported off the GUI thread: libraries that create no Qt object when imported.
LIBRARIES = ("numpy", "pyqtgraph")
# Imported on the GUI thread, one module a slice: what a procedure dialog's first opening needs.
MODULES = (
    "battletracker.ui.odds_plot",
    "battletracker.ui.procedure_parts",
    "battletracker.ui.procedure_runner",
    "battletracker.ui.dice_dialog",
)
# Their classes are made, each with its enums, at first use: a few milliseconds each, in C,
# holding the interpreter; made ahead in slices, neither a feature nor pyqtgraph (which reads
# them all) waits for them, nor does the GUI thread wait for a thread that makes them.
QT_MODULES = ("PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets")
SLICE_S = 0.004  # a slice that works through a list stops after about this long
POLL_MS = 5
# While a thread imports: how often, in seconds, the interpreter may pass from one thread to the other.
SWITCH_INTERVAL = 0.001

Step = tuple[str, Callable[[], object]]
"""A slice: its name (kept in `WarmUp.slices`) and what it does."""


class WarmUp(QObject):
    """Installs the features and warms the first dialog in slices after the first paint; `done` once all have run."""

    def __init__(self, parent: QWidget, ruleset: Callable[[], str] | None = None,
                 dialog: Callable[[], QWidget] | None = None,
                 install: Callable[[], list[Step]] | None = None, busy: Callable[[], bool] | None = None) -> None:
        """`ruleset` names the game's ruleset, whose tables are read first; `dialog` makes a procedure
        dialog to draw once off screen (Qt polishes and lays out each kind of widget the first time);
        `install` gives the features' installation as slices (a slice may return more slices to run next);
        while `busy` says the window is still at work it queued meanwhile (cards being filled in, a few a
        turn), the libraries' thread waits: both at once, each would wait for the other's turn."""
        super().__init__(parent)
        self._window = parent
        self._ruleset = ruleset
        self._dialog = dialog
        self._make_install = install
        self._busy = busy
        self._install: list[Step] | None = None
        self._qt_classes: list[tuple[object, str]] = []
        self.installed = install is None
        self.slices: list[tuple[str, float]] = []
        self.install_slices = 0  # the first slices, which installed the features
        self.done = False
        self.error: BaseException | None = None
        self._started = False
        self._libraries_started = False
        self._thread: threading.Thread | None = None
        self._switch_interval = sys.getswitchinterval()
        # Its own timer, which goes with it: a window closed while warming leaves nothing queued.
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._step)
        self._steps: list[Step] = [
            *((f"import {name}", lambda name=name: importlib.import_module(name)) for name in MODULES),
            ("the rules registry", self._load_rules),
            # The plots first, each a slice: the first odds plot then takes one ready made.
            ("a spare plot", self._spare_plot),
            ("a first odds plot", self._first_plot),
            ("a first dialog made", self._first_dialog),
        ]

    def start(self) -> None:
        """Begin: the rulesets in a thread, then the features' slices, the libraries, the warming slices."""
        if self._started:
            return
        self._started = True
        for name in self._rulesets():
            self._steps.append((f"the {name} tables", partial(_read_tables, name)))
        if not self.installed:
            self._in_thread(self._load_rulesets)
        self._timer.start(POLL_MS)

    def finish_install(self) -> None:
        """Install what is left of the features now: a player has reached for one (its shortcut, its menu)."""
        if self.installed:
            return
        if self._thread is not None:
            self._thread.join()
            self._thread_finished()
        else:
            self._load_rulesets()
        queue = self._install_queue()
        while queue:
            self._run(queue.pop(0), queue)
        self._installed()

    def _rulesets(self) -> list[str]:
        """Every ruleset with tables, the game's first."""
        from battletracker.rules.tables import resources_dir

        folder = resources_dir() / "rulesets"
        names = sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []
        first = self._ruleset() if self._ruleset is not None else None
        return sorted(names, key=lambda name: name != first)

    def longest_slice(self) -> tuple[str, float]:
        """The slice that kept the event loop longest, with its milliseconds."""
        return max(self.slices, key=lambda entry: entry[1], default=("none", 0.0))

    def _in_thread(self, work: Callable[[], None]) -> None:
        # The interpreter changes threads more often while a thread imports: the GUI thread,
        # which waits for its turn at every call into Python, then waits less each time.
        self._switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(min(self._switch_interval, SWITCH_INTERVAL))
        self._thread = threading.Thread(target=work, name="warm-up", daemon=True)
        self._thread.start()

    def _thread_finished(self) -> bool:
        if self._thread is None:
            return True
        if self._thread.is_alive():
            return False
        self._thread = None
        sys.setswitchinterval(self._switch_interval)
        return True

    def _load_rulesets(self) -> None:
        try:
            self._load_rules()
        except BaseException as exc:  # noqa: BLE001 - the feature that needs it reports it when it imports again
            self.error = exc

    def _import_libraries(self) -> None:
        try:
            for name in LIBRARIES:
                importlib.import_module(name)
        except BaseException as exc:  # noqa: BLE001 - the dialog that needs it reports it when it imports again
            self.error = exc

    def _install_queue(self) -> list[Step]:
        if self._install is None:
            self._qt_classes = [(module, name) for module in map(importlib.import_module, QT_MODULES)
                                for name in reversed(dir(module)) if not name.startswith("_")]
            install = self._make_install() if self._make_install is not None else []
            self._install = [("Qt's classes", self._make_qt_classes), *install]
        return self._install

    def _make_qt_classes(self) -> list[Step]:
        """As many of Qt's classes as a slice has time for; again next slice until all are made."""
        start = time.perf_counter()
        while self._qt_classes and time.perf_counter() - start < SLICE_S:
            module, name = self._qt_classes.pop()
            getattr(module, name)
        return [("Qt's classes", self._make_qt_classes)] if self._qt_classes else []

    def _installed(self) -> None:
        self.installed = True
        self.install_slices = len(self.slices)

    def _run(self, step: Step, queue: list[Step] | None = None) -> None:
        """One slice, timed; in the features' `queue`, the slices it returns run next."""
        name, work = step
        start = time.perf_counter()
        try:
            more = work()
        finally:
            self.slices.append((name, (time.perf_counter() - start) * 1000))
        if queue is not None and isinstance(more, list):
            queue[:0] = more

    def _step(self) -> None:
        """Wait for a thread; otherwise one slice per turn of the event loop."""
        if not self._thread_finished():
            self._timer.start(POLL_MS)
            return
        if self.installed and not self._libraries_started:
            if self._busy is not None and self._busy():
                self._timer.start(POLL_MS)
                return
            self._libraries_started = True
            self._in_thread(self._import_libraries)
            self._timer.start(POLL_MS)
            return
        if not self.installed:
            queue = self._install_queue()
            if queue:
                try:
                    self._run(queue.pop(0), queue)
                finally:
                    self._timer.start(0)
                return
            self._installed()
            self._timer.start(POLL_MS)
            return
        if not self._steps or self.error is not None:
            self.done = True
            return
        try:
            self._run(self._steps.pop(0))
        except Exception as exc:  # noqa: BLE001 - warming is an optimisation; the dialog shows the real error
            self.error = exc
        self._timer.start(0)

    @staticmethod
    def _load_rules() -> None:
        from battletracker.rules import procedures

        procedures()

    def _spare_plot(self) -> None:
        """A plot made ahead for the next chart a dialog shows (odds_plot.py); again next slice until enough wait."""
        from battletracker.ui.odds_plot import make_spare_plot

        if make_spare_plot(self._window):
            self._steps.insert(0, ("a spare plot", self._spare_plot))

    def _first_dialog(self) -> None:
        """Made in this slice; laid out, then drawn a part a slice, then drawn whole (each kind of widget's
        first drawing is the slow one: fonts, style, the plot's items)."""
        if self._dialog is not None:
            dialog = self._dialog()
            self._steps.insert(0, ("a first dialog laid out", partial(self._lay_out, dialog)))

    def _lay_out(self, dialog: QWidget) -> None:
        """Styled and laid out as showing it would, without showing it; its parts to draw next."""
        dialog.ensurePolished()
        layout = dialog.layout()
        if layout is not None:
            layout.activate()
        parts = [child for child in dialog.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
                 if not child.isHidden()]
        self._steps[:0] = [*(("a part of a first dialog drawn", partial(_draw_part, part)) for part in parts),
                           ("a first dialog drawn off screen", partial(_draw_off_screen, dialog))]

    def _first_plot(self) -> None:
        """The odds plot as a dialog draws it, off screen: its table, bars and axis labels."""
        from fractions import Fraction

        from battletracker.core.odds import Distribution
        from battletracker.ui.odds_plot import OddsPlot

        plot = OddsPlot(self._window)
        plot.hide()
        plot.set_distribution(Distribution({"hit": Fraction(1, 3), "miss": Fraction(2, 3)}))
        plot.release_plots()
        plot.deleteLater()


def _draw_part(part: QWidget) -> None:
    if shiboken6.isValid(part):  # gone with its window, closed meanwhile
        part.grab()


def _draw_off_screen(dialog: QWidget) -> None:
    from battletracker.ui.odds_plot import OddsPlot

    if not shiboken6.isValid(dialog):
        return
    dialog.grab()
    for odds_plot in dialog.findChildren(OddsPlot):
        odds_plot.release_plots()  # its plots wait for the first dialog a player opens
    dialog.deleteLater()


def _read_tables(ruleset: str) -> None:
    """A ruleset's tables and settings, read from their files once and kept (rules/tables.py caches them)."""
    from battletracker.rules.tables import ruleset_settings

    ruleset_settings(ruleset)
