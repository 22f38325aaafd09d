"""What the Armour Battles dialogs and the card share: reading a unit's combat
numbers without raising, and the settings the game overrides."""

from __future__ import annotations

from collections.abc import Mapping

from battletracker.model.game import Game, Unit
from battletracker.rules import RulesInputError
from battletracker.rules.armour_battles.data import RULESET, indirect_fire_rules
from battletracker.rules.armour_battles.fire import FirePlan
from battletracker.rules.armour_battles.reaction import ARTILLERY_SUPPRESSED, SUPPRESSED
from battletracker.rules.armour_battles.units import CombatProfile, combat_profile
from battletracker.rules.tables import TableError, ruleset_settings

MOVE_TITLES = {"single": "Single move", "double": "Double move", "triple": "Triple move"}


def scalars(inputs: Mapping[str, object]) -> dict[str, str | int | float | bool]:
    """Procedure inputs from a merged mapping (settings overrides are plain values too)."""
    return {k: v for k, v in inputs.items() if isinstance(v, str | int | float | bool)}


def profile_of(unit: Unit) -> CombatProfile | None:
    """The unit's FP/AT Dice and ranges, or None for a unit that has none (a marker-like token)."""
    try:
        return combat_profile(unit)
    except (RulesInputError, TableError):
        return None


def is_armour_battles(game: Game) -> bool:
    return game.ruleset == RULESET


def is_close_support(game: Game, unit: Unit) -> bool:
    profile = profile_of(unit)
    return profile is not None and profile.close_support


def suppression_level(unit: Unit) -> int:
    """0 unsuppressed, 1 suppressed, 2 artillery-suppressed (the harder one to shake off)."""
    if ARTILLERY_SUPPRESSED in unit.conditions:
        return 2
    return 1 if SUPPRESSED in unit.conditions else 0


SUPPRESSION_TITLES = ("None", "Suppressed", "Suppressed (artillery)")


def int_setting(game: Game, key: str) -> int:
    """A whole-number ruleset setting as this game plays it (its override or the default)."""
    value = game.settings.get(key)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    for s in ruleset_settings(RULESET):
        if s.key == key and isinstance(s.default, int) and not isinstance(s.default, bool):
            return s.default
    raise TableError(f"{RULESET}/settings.toml: no whole-number setting {key!r}")


def burst_radius() -> float:
    return indirect_fire_rules().burst_radius


def indirect_multiplier() -> int:
    return indirect_fire_rules().long_range_multiplier


def describe_plan(plan: FirePlan) -> str:
    """The dice a shot rolls, as the player checks them against the rules: 7D halved 4D, -1D moving = 3D at 4+."""
    kind = plan.dice_type.upper()
    parts = [f"{kind} {plan.unit_dice}D"]
    if plan.mode == "indirect":
        parts.append(f"halved {plan.base_dice}D")
    if plan.move_dice:
        parts.append(f"-{plan.move_dice}D moving")
    if plan.extra_dice:
        parts.append(f"{plan.extra_dice:+d}D extra")
    if plan.slide_dice:
        parts.append(f"TN {plan.tn_unslid}+ slides {plan.slide_dice:+d}D")
    if plan.dice_rolled == 0:
        return ", ".join(parts) + " = no dice: no effect"
    return ", ".join(parts) + f" = {plan.dice_rolled}D at {plan.tn}+"
