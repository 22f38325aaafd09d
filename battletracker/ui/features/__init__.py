"""The rules features in the app, as an explicit list (see battletracker.ui.extensions).

Importing this package loads none of them: `all_features` imports them when
the window asks, just after its first paint, so they do not slow the start.
"""

from __future__ import annotations

from battletracker.ui.extensions import Feature

# Every feature's module, in the order their actions appear in the menus; each has its `FEATURE`.
FEATURE_MODULES = tuple(f"battletracker.ui.features.{name}" for name in (
    "anti_tank", "armour_battles", "bombardments", "necromunda", "support_fire", "this_phase", "backdrop", "terrain"))


def all_features() -> tuple[Feature, ...]:
    """Every feature, in the order their actions appear in the menus."""
    import importlib

    return tuple(importlib.import_module(name).FEATURE for name in FEATURE_MODULES)
