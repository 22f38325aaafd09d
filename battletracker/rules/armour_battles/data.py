"""Armour Battles ruleset data: the close-support numbers the document states
(close_support.toml) and the core-rule settings it refers to without stating
(settings.toml).

Settings reach a procedure as optional inputs named after the setting, so the
app can pass a game's overrides; without one the documented default applies.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from battletracker.rules.base import InputReader
from battletracker.rules.tables import Setting
from battletracker.rules.tables import TableError
from battletracker.rules.tables import ruleset_settings
from battletracker.rules.tables import ruleset_table

RULESET = "armour_battles"


@dataclass(frozen=True)
class IndirectFireRules:
    """The close-support update's indirect-fire numbers."""

    burst_radius: float
    long_range_multiplier: int
    target_number: int
    dice_divisor: int
    double_move_dice: int
    triple_move_dice: int
    deviation_dice: int

    def move_dice(self, move: str) -> int:
        """Dice deducted from the halved dice for the firer's move this activation."""
        return {"single": 0, "double": self.double_move_dice, "triple": self.triple_move_dice}[move]


@lru_cache(maxsize=1)
def indirect_fire_rules() -> IndirectFireRules:
    t = ruleset_table(RULESET, "close_support", "indirect_fire")
    return IndirectFireRules(
        burst_radius=t.float("burst_radius", minimum=0.0),
        long_range_multiplier=t.int("long_range_multiplier", minimum=1),
        target_number=t.int("target_number", minimum=1, maximum=6),
        dice_divisor=t.int("dice_divisor", minimum=1),
        double_move_dice=t.int("double_move_dice", minimum=0),
        triple_move_dice=t.int("triple_move_dice", minimum=0),
        deviation_dice=t.int("deviation_dice", minimum=1),
    )


def close_support_assault_tn() -> int:
    """The TN penalty a close-support unit fights with in a Close Assault (it counts as a gun)."""
    return ruleset_table(RULESET, "close_support", "close_assault").int("close_support_tn", minimum=0)


def _setting(key: str) -> Setting:
    for s in ruleset_settings(RULESET):
        if s.key == key:
            return s
    raise TableError(f"{RULESET}/settings.toml: no setting {key!r}")


def read_int_setting(r: InputReader, key: str) -> int:
    """A whole-number setting from the inputs (the game's override) or its default, within its bounds."""
    s = _setting(key)
    if not isinstance(s.default, int) or isinstance(s.default, bool):
        raise TableError(f"{RULESET}/settings.toml: table {key!r}: default must be a whole number")
    return r.int(key, s.default, minimum=s.minimum, maximum=s.maximum)


def read_bool_setting(r: InputReader, key: str) -> bool:
    s = _setting(key)
    if not isinstance(s.default, bool):
        raise TableError(f"{RULESET}/settings.toml: table {key!r}: default must be true or false")
    return r.bool(key, s.default)
