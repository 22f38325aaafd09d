"""The rules features in the app, as an explicit list (see battletracker.ui.extensions).

Importing this package loads none of them: `all_features` imports them when
the window asks, just after its first paint, so they do not slow the start.
"""

from __future__ import annotations

from battletracker.ui.extensions import Feature


def all_features() -> tuple[Feature, ...]:
    """Every feature, in the order their actions appear in the menus."""
    from battletracker.ui.features import (
        anti_tank,
        armour_battles,
        backdrop,
        bombardments,
        necromunda,
        support_fire,
        terrain,
        this_phase,
    )

    return (anti_tank.FEATURE, armour_battles.FEATURE, bombardments.FEATURE, necromunda.FEATURE,
            support_fire.FEATURE, this_phase.FEATURE, backdrop.FEATURE, terrain.FEATURE)
