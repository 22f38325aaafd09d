"""PyInstaller runtime hook: point BattleTracker at the bundled resources folder."""

import os
import sys
from pathlib import Path

os.environ.setdefault("BATTLETRACKER_RESOURCES", str(Path(getattr(sys, "_MEIPASS", ".")) / "resources"))
