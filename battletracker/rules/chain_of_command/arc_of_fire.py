"""The 90 degree Arc of Fire of tripod machine guns and guns: 45 degrees either side of the barrel.

Such a weapon may target anything in that arc and turns to face it without
counting as moving. The app passes the barrel's facing and the bearing to the
target (both in degrees, from `core.geometry`, so the map and the rules agree);
the procedure refuses a target outside the arc and, given the firer's id,
turns the weapon onto the target.
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.core.geometry import EPSILON
from battletracker.core.geometry import angle_between
from battletracker.model.effects import Effect
from battletracker.model.effects import TurnUnit
from battletracker.rules.base import InputReader
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import degrees

HALF_ARC = 45.0


@dataclass(frozen=True)
class Aim:
    """The barrel's facing and the bearing to the target, when the app knows them."""

    barrel_facing: float | None = None
    target_bearing: float | None = None

    @property
    def offset(self) -> float | None:
        """Degrees between the barrel and the target."""
        if self.barrel_facing is None or self.target_bearing is None:
            return None
        return angle_between(self.barrel_facing, self.target_bearing)

    def values(self) -> dict[str, object]:
        offset = self.offset
        return {"arc_offset": offset, "facing": self.target_bearing if offset is not None else None}


def read_aim(r: InputReader, weapon: str) -> Aim:
    """`barrel_facing` and `target_bearing` (both or neither); a target outside the arc is refused."""
    facing = r.optional_float("barrel_facing")
    bearing = r.optional_float("target_bearing")
    if facing is None and bearing is not None:
        raise RulesInputError("barrel_facing", "is required with target_bearing to check the Arc of Fire")
    if bearing is None and facing is not None:
        raise RulesInputError("target_bearing", "is required with barrel_facing to check the Arc of Fire")
    aim = Aim(facing, bearing)
    offset = aim.offset
    if offset is not None and offset > HALF_ARC + EPSILON:
        raise RulesInputError("target_bearing", f"the target is {degrees(offset)} degrees off the barrel; a {weapon} "
                                                f"fires only {HALF_ARC:g} degrees either side of its barrel")
    return aim


def turn_effects(firer_id: str | None, aim: Aim) -> list[Effect]:
    """The weapon turning to face its target (not a move), when the firer and both angles are known."""
    offset = aim.offset
    if firer_id is None or offset is None or aim.target_bearing is None or offset <= EPSILON:
        return []
    return [TurnUnit(firer_id, aim.target_bearing)]
