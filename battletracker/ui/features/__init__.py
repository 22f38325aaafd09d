"""The rules features in the app, found as the modules of this package (see battletracker.ui.extensions).

Each module (or subpackage) here with a module-level `FEATURE` is a feature: a
new one joins by existing. Importing this package loads none of them:
`all_features` imports them when the window asks, just after its first paint,
so they do not slow the start.
"""

from __future__ import annotations

import importlib
import pkgutil

from battletracker.ui.extensions import Feature

# Every module of this package, in name order: listed without importing any.
FEATURE_MODULES = tuple(sorted(f"{__name__}.{found.name}" for found in pkgutil.iter_modules(__path__)))
# The window-side modules of the features, each importing little beyond those before it: the warm-up
# imports them one a slice before the install (a package's first import brings in all its modules). The
# parts the features share come first.
MODULES = (
    "battletracker.ui.procedure_parts",
    "battletracker.ui.odds_plot",
    "battletracker.ui.procedure_runner",
    "battletracker.ui.activation_parts",
    *FEATURE_MODULES,
)


def all_features() -> tuple[Feature, ...]:
    """Every feature, in the order their actions appear in the menus: by `menu_order`, then by module name."""
    found = (getattr(importlib.import_module(name), "FEATURE", None) for name in FEATURE_MODULES)
    features = [feature for feature in found if isinstance(feature, Feature)]
    return tuple(sorted(features, key=lambda feature: feature.menu_order))
