"""Rules features in the app; each module registers its actions, card sections
and window extensions (see battletracker.ui.extensions) when imported."""

from battletracker.ui.features import (  # noqa: F401
    anti_tank,
    armour_battles,
    bombardments,
    necromunda,
    support_fire,
    this_phase,
)
