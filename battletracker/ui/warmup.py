"""Warm, on idle after the first paint, what the first procedure dialog would otherwise load while a player waits.

The odds plot needs numpy and pyqtgraph (a third of a second or more to import),
and its first plot builds pyqtgraph's items; without a warm-up the first
dialog a player opens pays for all of it. The imports of those two libraries
run in a background thread: they touch no widget, and the window stays
responsive because the thread gives the interpreter back every few
milliseconds. What must happen on the GUI thread (the dialog modules, the
rules registry, a first odds plot drawn off screen, plots made ahead for the
next charts, the rulesets' tables with the game's first) runs afterwards in
short slices, one per turn of the event loop, so a click or a key press waits
for at most one slice. Each slice's duration is kept in `slices`.

Qt's classes belong to the GUI thread. PySide6 makes each class (with its
enums) at first use, and that is not safe while another thread makes one too:
pyqtgraph reads every class of QtCore, QtGui and QtWidgets as it is imported,
and the GUI thread making classes meanwhile crashes the interpreter now and
then. So the GUI thread first imports the Qt modules pyqtgraph reads and makes
all their classes, a few a slice, and only then starts the thread; and the
thread is given names only, never a Qt object, so nothing of a window is
released on it.

The rules features are installed on the GUI thread in one slice, once the
Qt-free packages they import (core, model, rules: three quarters of the
install) have been imported in a thread, with the game's ruleset tables read.
That thread starts once the GUI thread has made Qt's classes, which the
features' widgets then find made: the window repaints just after its first
paint (the cards below the fold, the map fitted), and beside a thread each of
those repaints' calls into Python waits for the interpreter, which made them
pauses of 40 to 60 ms. Both threads run with the
cyclic garbage collector off, so no collection on them releases a Qt object
of the window. A feature reached for before then is installed at once on the
GUI thread (the import lock makes it wait for a module the thread is importing).
Before the install, the window-side modules the features are made of (`imports`)
are imported on the GUI thread, one a slice, once the rules thread has finished:
the install then only builds widgets and actions, in one slice as before.
"""

from __future__ import annotations

import gc
import importlib
import pkgutil
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import suppress
from functools import partial
from types import ModuleType

from PySide6.QtCore import QObject
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget

from battletracker.ui.gc_pause import hold
from battletracker.ui.gc_pause import release

# Imported off the GUI thread: libraries that create no Qt object when imported.
LIBRARIES = ("numpy", "pyqtgraph")
# Imported off the GUI thread just after the first paint, every module of each: the Qt-free layers the
# rules features import (tests/test_layers.py keeps Qt out of them).
RULES_PACKAGES = ("battletracker.core", "battletracker.model", "battletracker.rules")
# The Qt modules pyqtgraph imports, imported on the GUI thread first; with True, every class of the
# module is made there too: pyqtgraph reads all of the first three, and subclasses QOpenGLWidget.
# (Not all of QtOpenGL: it has classes of thousands of functions, one 80 ms, that pyqtgraph never reads.)
QT_MODULES = {"PySide6.QtCore": True, "PySide6.QtGui": True, "PySide6.QtWidgets": True, "PySide6.QtSvg": False,
              "PySide6.QtOpenGL": False, "PySide6.QtOpenGLWidgets": True, "PySide6.QtTest": False}
SLICE_S = 0.004  # the classes are made a few a slice, for about this long
# Imported on the GUI thread, one module a slice: what a procedure dialog's first opening needs.
MODULES = (
    "battletracker.ui.odds_plot",
    "battletracker.ui.procedure_parts",
    "battletracker.ui.procedure_runner",
    "battletracker.ui.dice_dialog",
)
POLL_MS = 15
SETTLE_MS = 150


class WarmUp(QObject):
    """Loads the libraries, then runs the GUI-thread slices one per event-loop turn; `done` once all have run."""

    def __init__(self, parent: QWidget, ruleset: Callable[[], str] | None = None,
                 dialog: Callable[[], QWidget] | None = None, install: Callable[[], object] | None = None,
                 imports: tuple[str, ...] = ()) -> None:
        """`ruleset` names the game's ruleset, whose tables are read first; `dialog` makes a procedure
        dialog to draw once off screen (Qt polishes and lays out each kind of widget the first time);
        `install` installs the rules features, once the rules are imported and Qt's classes made, and
        the modules named in `imports` (the features' own, which touch no widget) imported one a slice."""
        super().__init__(parent)
        self._window = parent
        self._ruleset = ruleset
        self._dialog = dialog
        self._install = install
        self._imports = list(imports) if install is not None else []
        self._rules_thread: threading.Thread | None = None
        self.slices: list[tuple[str, float]] = []
        self.done = False
        self.error: BaseException | None = None
        self._started = False
        self._stopped = False
        self._thread: threading.Thread | None = None
        self._thread_errors: list[BaseException] = []
        self._qt_modules = list(QT_MODULES)
        self._qt_classes: list[tuple[ModuleType, str]] = []
        # Its own timer, which goes with it: a window closed while warming leaves nothing queued.
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._step)
        self._steps: list[tuple[str, Callable[[], object]]] = [
            *((f"import {name}", lambda name=name: importlib.import_module(name)) for name in MODULES),
            ("the rules registry", self._load_rules),
            # The plots first, each a slice: the first odds plot then takes one ready made.
            ("a spare plot", self._spare_plot),
            ("a first odds plot", self._first_plot),
            ("a first dialog made off screen", self._first_dialog),
        ]

    def start(self) -> None:
        """Begin on the next turn of the event loop: the order is `_step`'s."""
        if self._started:
            return
        self._started = True
        rulesets = self._rulesets()
        if self._install is not None:
            self._rules_thread = threading.Thread(target=_import_rules, args=(RULES_PACKAGES, rulesets[:1]),
                                                  name="warm-up rules", daemon=True)
        for name in rulesets:
            self._steps.append((f"the {name} tables", partial(_read_tables, name)))
        self._timer.start(0)

    def stop(self) -> None:
        """No more slices: its window was closed (a closed window may wait a while to be deleted)."""
        self._stopped = True
        self._timer.stop()

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

    def _make_qt_classes(self) -> bool:
        """A slice of Qt's classes made (their modules imported first, one a slice); False once all are made."""
        if self._qt_modules:
            module_name = self._qt_modules.pop(0)
            try:
                module = importlib.import_module(module_name)
            except ImportError:
                return True  # not installed: pyqtgraph goes without it too
            if QT_MODULES[module_name]:
                self._qt_classes += [(module, name) for name in reversed(dir(module)) if not name.startswith("_")]
            return True
        start = time.perf_counter()
        while self._qt_classes and time.perf_counter() - start < SLICE_S:
            made_in, name = self._qt_classes.pop()
            getattr(made_in, name)
        return bool(self._qt_classes)

    def _step(self) -> None:
        """One turn's work, in this order: Qt's classes a slice a turn; the rules thread, waited for; the
        features' modules a slice a turn, then their install (and a pause to let the window paint it); the
        libraries' thread, waited for; then the other slices (`_steps`) one a turn."""
        if self._stopped:
            return
        if self._thread is None:
            if self._qt_modules or self._qt_classes:
                start = time.perf_counter()
                more = self._make_qt_classes()
                self.slices.append(("Qt's classes", (time.perf_counter() - start) * 1000))
                if more:
                    self._timer.start(0)
                    return
            if self._rules_thread is not None and self._rules_thread.ident is None:
                _start(self._rules_thread)  # not before: see the module's docstring
                self._timer.start(POLL_MS)
                return
            if self._rules_thread is not None and self._rules_thread.is_alive():
                self._timer.start(POLL_MS)
                return
            if self._install is not None and self._imports:
                name = self._imports.pop(0)
                start = time.perf_counter()
                with suppress(Exception):  # the install imports it again and reports the error
                    importlib.import_module(name)
                self.slices.append((f"import {name}", (time.perf_counter() - start) * 1000))
                self._timer.start(0)
                return
            if self._install is not None:
                start = time.perf_counter()
                self._install()
                self.slices.append(("the rules features", (time.perf_counter() - start) * 1000))
                self._install = None
                # The window lays out and paints what the features added before the libraries' thread
                # starts: beside it, each call into Python of that repaint would wait for the interpreter.
                self._timer.start(SETTLE_MS)
                return
            self._thread = threading.Thread(target=_import_libraries, args=(LIBRARIES, self._thread_errors),
                                            name="warm-up", daemon=True)
            _start(self._thread)
            self._timer.start(POLL_MS)
            return
        if self._thread.is_alive():
            self._timer.start(POLL_MS)
            return
        if self._thread_errors and self.error is None:
            self.error = self._thread_errors[0]
        if not self._steps or self.error is not None:
            self.done = True
            return
        name, step = self._steps.pop(0)
        start = time.perf_counter()
        try:
            step()
        except Exception as exc:  # noqa: BLE001 - warming is an optimisation; the dialog shows the real error
            self.error = exc
        self.slices.append((name, (time.perf_counter() - start) * 1000))
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
        """Make the dialog in this slice and draw it in the next: the two are the warm-up's longest slices."""
        if self._dialog is not None:
            dialog = self._dialog()
            self._steps.insert(0, ("a first dialog drawn off screen", partial(self._draw_dialog, dialog)))

    @staticmethod
    def _draw_dialog(dialog: QWidget) -> None:
        from battletracker.ui.odds_plot import OddsPlot

        dialog.grab()
        for odds_plot in dialog.findChildren(OddsPlot):
            odds_plot.release_plots()  # its plots wait for the first dialog a player opens
        dialog.deleteLater()

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


_running: list[threading.Thread] = []


def _start(thread: threading.Thread) -> None:
    """Start a warm-up thread with collections held off until the GUI thread sees it has finished.

    A collection on the thread would release the window's garbage, Qt objects too, there; so the GUI
    thread both holds collections off and lets them go again (gc_pause.py), polling for the thread's
    end whatever becomes of the window that started it.
    """
    hold()
    _running.append(thread)
    thread.start()
    if len(_running) == 1:
        QTimer.singleShot(POLL_MS, _release_finished)


def _release_finished() -> None:
    """On the GUI thread: the holds of the threads that have finished released, the rest polled again.

    The app keeps what its start built out of collections (app.py freezes it); what the threads imported
    stays for good too, and is kept the same way rather than walked by the next collections.
    """
    for thread in [thread for thread in _running if not thread.is_alive()]:
        _running.remove(thread)
        release()
        if gc.get_freeze_count():
            gc.freeze()
    if _running:
        QTimer.singleShot(POLL_MS, _release_finished)


def _import_libraries(names: tuple[str, ...], errors: list[BaseException]) -> None:
    """In the thread: names in, an error out; it holds no Qt object, so none is ever released on it."""
    try:
        for name in names:
            importlib.import_module(name)
    except BaseException as exc:  # noqa: BLE001 - the dialog that needs it reports it when it imports again
        errors.append(exc)


def _rules_modules(packages: tuple[str, ...]) -> Iterator[str]:
    """Every module of `packages`, each package imported as it is found."""
    for package in packages:
        yield package
        yield from (found.name for found in pkgutil.walk_packages(importlib.import_module(package).__path__,
                                                                  f"{package}."))


def _import_rules(packages: tuple[str, ...], rulesets: list[str]) -> None:
    """In the thread: the Qt-free rules imported and the game's ruleset tables read; names in, nothing out.

    An error is left for the GUI thread, which meets it again installing the features and shows it there.
    """
    try:
        for name in _rules_modules(packages):
            importlib.import_module(name)
        for ruleset in rulesets:
            _read_tables(ruleset)
    except Exception:  # noqa: BLE001, S110 - the install imports and reads again, and reports it
        pass


def _read_tables(ruleset: str) -> None:
    """A ruleset's tables and settings, read from their files once and kept (rules/tables.py caches them)."""
    from battletracker.rules.tables import ruleset_settings

    ruleset_settings(ruleset)
