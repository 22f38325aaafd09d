"""Reverse 1D6 immediately: a vehicle backs straight away from the unit that fired on it.

`coc.reverse` rolls the D6 and, given where the vehicle and the firer stand,
works out where it ends: the rolled inches along the line from the firer
through the vehicle, facing unchanged (it reverses, it does not turn). The
player still steers round obstacles and moves intervening infantry 4".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.geometry import EPSILON
from battletracker.core.geometry import Point
from battletracker.core.geometry import bearing
from battletracker.core.geometry import distance
from battletracker.core.geometry import offset
from battletracker.core.odds import Distribution
from battletracker.model.effects import Effect
from battletracker.model.effects import MoveUnit
from battletracker.rules import register
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import all_alike
from battletracker.rules.base import table_point
from battletracker.rules.places import compass

POSITION_INPUTS = ("target_x", "target_y", "firer_x", "firer_y")


def reverse_bearing(vehicle: Point, firer: Point) -> float:
    """The bearing "directly away from the firer": from the firer through the vehicle."""
    if distance(vehicle, firer) < EPSILON:
        raise ValueError("the firer stands on the vehicle: there is no direction away from it")
    return bearing(firer, vehicle)


def reverse_point(vehicle: Point, firer: Point, inches: float) -> Point:
    """Where the vehicle ends after reversing `inches` directly away from the firer."""
    return offset(vehicle, reverse_bearing(vehicle, firer), inches)


@dataclass(frozen=True)
class ReverseInputs:
    vehicle: Point | None
    firer: Point | None
    facing: float | None
    target_id: str | None


def _parse(inputs: Inputs) -> ReverseInputs:
    r = InputReader(inputs)
    given = {key: r.optional_float(key) for key in POSITION_INPUTS}
    facing = r.optional_float("target_facing")
    target_id = r.optional_str("target_id")
    r.finish()
    present = [key for key, v in given.items() if v is not None]
    if present and len(present) < len(POSITION_INPUTS):
        missing = next(key for key in POSITION_INPUTS if given[key] is None)
        raise RulesInputError(missing, f"is required with {', '.join(present)}: give all of "
                                       f"{', '.join(POSITION_INPUTS)}")
    vehicle = firer = None
    if present:
        vehicle = (given["target_x"] or 0.0, given["target_y"] or 0.0)
        firer = (given["firer_x"] or 0.0, given["firer_y"] or 0.0)
        if distance(vehicle, firer) < EPSILON:
            raise RulesInputError("firer_x", f"the firer stands on the vehicle {table_point(*vehicle)}: "
                                             "there is no direction away from it")
    if target_id is not None:
        if vehicle is None:
            raise RulesInputError("target_x", f"is required to move {target_id!r}: give "
                                              f"{', '.join(POSITION_INPUTS)} and target_facing")
        if facing is None:
            raise RulesInputError("target_facing", f"is required to move {target_id!r} (it keeps its facing)")
    return ReverseInputs(vehicle, firer, facing, target_id)


def reverse_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    roller = Roller(dice)
    inches = roller.roll_ints("Reverse (1D6 inches)", D6)[0]
    values: dict[str, Any] = {"distance": inches, "x": None, "y": None, "bearing": None, "facing": p.facing}
    log = [f"Reverse {inches}\" directly away from the firer."]
    effects: list[Effect] = []
    if p.vehicle is not None and p.firer is not None:
        heading = reverse_bearing(p.vehicle, p.firer)
        x, y = reverse_point(p.vehicle, p.firer, inches)
        values |= {"x": x, "y": y, "bearing": heading}
        log.append(f"From where it stands to {inches}\" {compass(heading)} of it, bearing {heading:.0f} "
                   "degrees; steer round obstacles and move intervening infantry 4\".")
        if p.target_id is not None and p.facing is not None:
            effects.append(MoveUnit(p.target_id, x, y, p.facing))
    return Resolution("coc.reverse", str(inches), values, roller.rolls, effects, log)


def reverse_odds(inputs: Inputs) -> Distribution[str]:
    _parse(inputs)
    return Distribution.uniform(str(n) for n in range(1, 7))


def reverse_label(outcome: str) -> str:
    """"3" reads 'Reverse 3"'."""
    return f'Reverse {outcome}"'


# How far the vehicle reverses is neither good nor bad for its side in itself (away from the firer, but
# maybe out of cover or into the open): the dice luck leaves the roll out.
register(Procedure("coc.reverse", "Reverse 1D6", reverse_resolve, reverse_odds, ruleset="chain_of_command",
                   label=reverse_label, better=all_alike, rolled_by=("target_id",),
                   typical={}))
