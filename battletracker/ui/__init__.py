"""The PySide6 user interface: session, main window, map, cards, dialogs."""

from __future__ import annotations

import sys
from types import ModuleType

import shiboken6  # noqa: F401 - installs PySide6's import hook, adjusted below


def _own_modules_known_to_pyside() -> None:
    """Tell PySide6 which of our modules use it, so it does not read their source to find out.

    PySide6's import hook reads the whole source of every module imported after it (for
    `from __feature__ import ...`, which BattleTracker never uses) and looks for the word
    "PySide6" in it: about a hundred files read and split into lines before the first paint.
    Our modules' answer is known from the layers: only `battletracker.ui` and `battletracker.app`
    use PySide6 (a ui module that does not is told it does: with no feature selected anywhere,
    PySide6 treats both answers alike). Other modules are left to PySide6's own check, and if
    PySide6 has no such hook, nothing changes.
    """
    feature = sys.modules.get("shibokensupport.feature")
    scan = getattr(feature, "_mod_uses_pyside", None)
    if feature is None or not callable(scan) or getattr(scan, "battletracker_layers", False):
        return

    def uses_pyside(module: ModuleType) -> bool:
        name = getattr(module, "__name__", "")
        if name == "battletracker" or name.startswith("battletracker."):
            return name.startswith("battletracker.ui.") or name == "battletracker.app"
        return bool(scan(module))

    uses_pyside.battletracker_layers = True  # type: ignore[attr-defined]
    feature._mod_uses_pyside = uses_pyside  # type: ignore[attr-defined]


_own_modules_known_to_pyside()
