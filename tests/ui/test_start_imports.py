"""What the start loads before the window first paints: only what that paint shows.

The demo is started as app.py starts it, in a fresh interpreter, and the modules
loaded at the moment of the first paint are listed. Whatever only an edit, a
dialog, a save or a dark palette needs loads later, when it is first used.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.ui.test_app import app_env

_PROBE = """
import json, sys
from battletracker.ui import main_window

built = main_window.MainWindow.__init__

def init(self, *args, **kwargs):
    built(self, *args, **kwargs)
    self.first_painted.connect(lambda: print("loaded " + json.dumps(sorted(sys.modules)), flush=True))
    self.first_painted.connect(lambda: print("built " + json.dumps(sorted(
        name for module in ("QtCore", "QtGui", "QtWidgets") for name in vars(sys.modules["PySide6." + module]))),
        flush=True))

main_window.MainWindow.__init__ = init
from battletracker.app import main
raise SystemExit(main(["--demo", "--quit-after-paint"]))
"""

LATER = {
    "battletracker.rules.actions": "the action planner, with the first action taken",
    "battletracker.rules.terrain_actions": "the terrain actions, with the first terrain edit",
    "battletracker.model.terrain_effects": "the terrain effects, with the first terrain edit",
    "battletracker.model.sequence_effects": "the sequence effects, when a unit acts",
    "battletracker.model.bombardment_effects": "the bombardment effects, with the first bombardment",
    "battletracker.model.effects": "the effects, with the first change to the game",
    "battletracker.rules.terrain": "the terrain rules, with the first look at a piece or a selection's targets",
    "battletracker.core.odds": "exact odds, with the first procedure",
    "fractions": "exact odds, with the first procedure",
    "battletracker.ui.procedure_parts": "the procedure dialogs' parts, with the first dialog",
    "battletracker.ui.visible_boxes": "the dark palette's style, on a dark palette only",
    "importlib.resources": "the package's data is found on disk beside the code",
    "datetime": "time stamps, with the first log line or recovery file",
    "battletracker.rules.log_lines": "the log's wording of rolls, with the first roll",
    "battletracker.ui.replay_panel": "the Replay dock and banner, when the dock first shows or a replay starts",
    "numpy": "the odds plot, warmed after the first paint",
    "pyqtgraph": "the odds plot, warmed after the first paint",
}


QT_LATER = {
    "QSaveFile": "Qt's file writing, with the first save",
    "QFileDevice": "Qt's file writing, with the first save",
}
"""Qt classes PySide6 builds (with their enums) only when first used, and the first paint does not use."""


def _at_first_paint(home: Path) -> tuple[set[str], set[str]]:
    """The modules loaded and the Qt classes built when the window first paints."""
    done = subprocess.run([sys.executable, "-c", _PROBE], env=app_env(home), cwd=home, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    loaded = next(line for line in lines if line.startswith("loaded ")).removeprefix("loaded ")
    built = next(line for line in lines if line.startswith("built ")).removeprefix("built ")
    return set(json.loads(loaded)), set(json.loads(built))


def test_the_first_paint_loads_nothing_that_only_an_edit_a_dialog_or_a_dark_palette_needs(tmp_path: Path) -> None:
    loaded, built = _at_first_paint(tmp_path)
    assert "battletracker.ui.map.view" in loaded and "battletracker.ui.cards.card" in loaded, "the probe saw the paint"
    early = {name: why for name, why in LATER.items() if name in loaded}
    assert not early, f"loaded before the first paint: {early}"
    assert "QMainWindow" in built, "the probe saw Qt's classes"
    early = {name: why for name, why in QT_LATER.items() if name in built}
    assert not early, f"built before the first paint: {early}"
