"""Shared test set-up: never touch the real user folders, and stay headless."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

# Before anything imports Qt: headless unless a display was given, and every
# user folder (config, data, cache, recovery files) inside a throwaway home.
if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    # On the screen BattleTracker is made for: a 13" laptop's 1366x768.
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={Path(__file__).with_name('offscreen_laptop.json')}"
_home = Path(tempfile.mkdtemp(prefix="battletracker-test-home-"))
for _var, _sub in (("HOME", ""), ("XDG_CONFIG_HOME", ".config"), ("XDG_DATA_HOME", ".local/share"),
                   ("XDG_CACHE_HOME", ".cache"), ("XDG_RUNTIME_DIR", "run")):
    _path = _home / _sub
    _path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.environ[_var] = str(_path)
