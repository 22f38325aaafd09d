"""Rules features in the app; each module registers its actions, card sections
and window extensions (see battletracker.ui.extensions) when imported."""
from battletracker.ui.features import anti_tank  # noqa: F401
from battletracker.ui.features import bombardments  # noqa: F401
from battletracker.ui.features import armour_battles  # noqa: F401
from battletracker.ui.features import support_fire  # noqa: F401
from battletracker.ui.features import necromunda  # noqa: F401
