"""The rules features in the app, as an explicit list (see battletracker.ui.extensions).

Importing this package loads none of them: `all_features` imports them when
the window asks, just after its first paint, so they do not slow the start.
"""

from __future__ import annotations

from battletracker.ui.extensions import Feature

# The window-side modules of the features, each importing little beyond those before it: the warm-up
# imports them one a slice before the install (a package's first import brings in all its modules).
MODULES = (
    "battletracker.ui.procedure_parts",
    "battletracker.ui.odds_plot",
    "battletracker.ui.procedure_runner",
    "battletracker.ui.activation_parts",
    "battletracker.ui.features.activation",
    "battletracker.ui.features.anti_tank",
    "battletracker.ui.features.armour_battles",
    "battletracker.ui.features.backdrop",
    "battletracker.ui.features.bombardments",
    "battletracker.ui.features.necromunda",
    "battletracker.ui.features.support_fire",
    "battletracker.ui.features.this_phase",
    "battletracker.ui.features.terrain",
    "battletracker.ui.features.table_display",
)


def all_features() -> tuple[Feature, ...]:
    """Every feature, in the order their actions appear in the menus."""
    from battletracker.ui.features import (
        activation,
        anti_tank,
        armour_battles,
        backdrop,
        bombardments,
        necromunda,
        support_fire,
        table_display,
        terrain,
        this_phase,
    )

    return (activation.FEATURE, anti_tank.FEATURE, armour_battles.FEATURE, bombardments.FEATURE, necromunda.FEATURE,
            support_fire.FEATURE, this_phase.FEATURE, backdrop.FEATURE, terrain.FEATURE, table_display.FEATURE)
