"""An Armour Battles unit's combat numbers, read from the model's Unit.

Presets (units.toml) and the unit dialog keep them in the unit's `stats`
(armoured, close_support, reaction_direct, reaction_artillery) and on its
first weapon with FP/AT Dice (`ranges` short/effective/long and `stats`
fp_dice, at_dice). The app turns them into procedure inputs with
`fire_inputs` and `reaction_dice`.
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.model.game import Scalar
from battletracker.model.game import Unit
from battletracker.rules.armour_battles.ranges import RangeProfile
from battletracker.rules.armour_battles.ranges import parse_ranges
from battletracker.rules.armour_battles.reaction import ARTILLERY_SUPPRESSED
from battletracker.rules.armour_battles.reaction import DISPERSED
from battletracker.rules.armour_battles.reaction import SUPPRESSED
from battletracker.rules.base import RulesInputError


@dataclass(frozen=True)
class CombatProfile:
    fp_dice: int
    at_dice: int
    ranges: RangeProfile
    armoured: bool
    close_support: bool
    reaction_direct: int
    reaction_artillery: int


def _count(unit: Unit, where: dict[str, Scalar], key: str) -> int:
    value = where.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RulesInputError("unit", f"{unit.name}: {key} must be a whole number of dice, not {value!r}")
    return value


def combat_profile(unit: Unit) -> CombatProfile:
    """FP/AT Dice, range profile, armour and Reaction Dice of `unit`, or a refusal naming what is missing."""
    for weapon in unit.weapons:
        if "fp_dice" in weapon.stats or "at_dice" in weapon.stats:
            if len(weapon.ranges) != 3:
                raise RulesInputError("unit", f"{unit.name}'s {weapon.name} needs three ranges "
                                              f"(short/effective/long), not {weapon.ranges}")
            return CombatProfile(
                fp_dice=_count(unit, weapon.stats, "fp_dice"),
                at_dice=_count(unit, weapon.stats, "at_dice"),
                ranges=parse_ranges("/".join(f"{r:g}" for r in weapon.ranges)),
                armoured=unit.stats.get("armoured") is True,
                close_support=unit.stats.get("close_support") is True,
                reaction_direct=_count(unit, unit.stats, "reaction_direct"),
                reaction_artillery=_count(unit, unit.stats, "reaction_artillery"),
            )
    raise RulesInputError("unit", f"{unit.name} has no weapon with FP or AT Dice")


def is_vehicle(unit: Unit) -> bool:
    """A tank, assault gun or truck: drawn as a rectangle on the map.

    Armour Battles presets keep no vehicle damage data (`unit.vehicle` is
    empty); a vehicle is known by its kind, or by being armoured (it takes AT Dice).
    """
    return unit.vehicle is not None or unit.kind == "vehicle" or unit.stats.get("armoured") is True


def dice_type_for(target: Unit) -> str:
    """AT Dice against armoured units, FP Dice against infantry and soft targets."""
    return "at" if target.stats.get("armoured") is True else "fp"


def is_suppressed(unit: Unit) -> bool:
    return unit.has(SUPPRESSED) or unit.has(ARTILLERY_SUPPRESSED)


def is_dispersed(unit: Unit) -> bool:
    return unit.has(DISPERSED)


def fire_inputs(firer: Unit, target: Unit, mode: str, dist: float) -> dict[str, str | int | float | bool]:
    """The `ab.close_support_fire` inputs the table gives for `firer` shooting at `target` at `dist` inches.

    The caller adds what only the table knows: move, flank_or_rear, los, opportunity.
    """
    profile = combat_profile(firer)
    return {
        "mode": mode,
        "dice_type": dice_type_for(target),
        "fp_dice": profile.fp_dice,
        "at_dice": profile.at_dice,
        "range": dist,
        "ranges": str(profile.ranges),
        "firer_suppressed": is_suppressed(firer),
    }


def reaction_dice(target: Unit, mode: str) -> int:
    """The target's Reaction Dice against direct fire, or against artillery for indirect fire."""
    profile = combat_profile(target)
    return profile.reaction_artillery if mode == "indirect" else profile.reaction_direct
