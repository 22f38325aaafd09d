"""The Arbitrator's toolkit options: rules a game turns on in its settings.

They are ruleset settings (settings.toml), off by default. Procedures that
depend on one take it as an optional input; the app passes the game's value.
The pure functions for target priority and walking fire do not read settings:
the app asks `enabled` before offering them.
"""

from __future__ import annotations

from collections.abc import Mapping

from battletracker.model.game import Scalar
from battletracker.rules.base import InputReader
from battletracker.rules.tables import setting

RULESET = "necromunda"
STRAY_SHOTS = "toolkit_stray_shots"
TARGET_PRIORITY = "toolkit_target_priority"
WALKING_FIRE = "toolkit_walking_fire"
TOOLKIT = (STRAY_SHOTS, TARGET_PRIORITY, WALKING_FIRE)


def enabled(option: str, overrides: Mapping[str, Scalar] | None = None) -> bool:
    """Whether a toolkit option is on, given the game's settings (`Game.settings`)."""
    if option not in TOOLKIT:
        raise ValueError(f"{option!r} is not an Arbitrator's toolkit option ({', '.join(TOOLKIT)})")
    return bool(setting(RULESET, option, overrides))


def read_toolkit(r: InputReader, option: str) -> bool:
    """A toolkit option given as a procedure input, else the ruleset default."""
    return r.bool(option, enabled(option))
