"""Anti-tank fire at AFVs and APCs (Section 16.1).

Three procedures end in the same comparison: Penetrating Hits against Armour
Saves, then, when the hits equal or beat the saves, one D6 on the vehicle's
damage table (damage.py).

- `coc.at_fire`: one A.P. round. 2D6 to hit (adjusted, against 5/7/9); a 6
  finds a weak spot (+1 A.P. Strike Die, +2 for a double 6); Strike Dice by
  hit location; Armour Dice saving on 5-6; the damage D6.
- `coc.at_grenade`: a figure runs at the vehicle with a grenade or charge.
  Movement dice must reach it; then Strike Dice on the top armour with the
  Storm of Steel Bonus; Armour Dice; the damage D6.
- `coc.armour_save_only`: fire from a team with no A.P. Strike Dice. The
  vehicle rolls its frontal Armour Dice and only a roll with no saves at all
  goes to the Equal Hits & Saves table.

Outcome keys: `miss`, `failed_to_reach`, `no_effect`, or `<band>:<result>`
(see damage.py). The numbers come from `at_fire.toml`, the weapons from
`arsenal.toml`, the grenade movement dice and Storm of Steel from settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.dice import count_at_least
from battletracker.core.odds import Distribution
from battletracker.core.odds import successes
from battletracker.model.effects import Effect
from battletracker.model.effects import SpendAmmo
from battletracker.model.game import ARMOUR_FACES
from battletracker.model.game import VEHICLE_CATEGORIES
from battletracker.rules import register
from battletracker.rules.base import FIRER
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import counted
from battletracker.rules.base import worse_for_roller
from battletracker.rules.chain_of_command import storm_of_steel
from battletracker.rules.chain_of_command.arsenal import MAX_STRIKE_DICE
from battletracker.rules.chain_of_command.arsenal import ATWeapon
from battletracker.rules.chain_of_command.arsenal import Grenade
from battletracker.rules.chain_of_command.arsenal import arsenal
from battletracker.rules.chain_of_command.damage import BAND_TITLES
from battletracker.rules.chain_of_command.damage import BANDS
from battletracker.rules.chain_of_command.damage import DamageOutcome
from battletracker.rules.chain_of_command.damage import apply_damage
from battletracker.rules.chain_of_command.damage import band_for
from battletracker.rules.chain_of_command.damage import band_odds
from battletracker.rules.chain_of_command.damage import firer_rank
from battletracker.rules.chain_of_command.damage import outcome_label
from battletracker.rules.chain_of_command.damage import outcome_rank
from battletracker.rules.chain_of_command.storm_of_steel import StormOfSteel
from battletracker.rules.chain_of_command.vehicle_shock import abandoned
from battletracker.rules.tables import Table
from battletracker.rules.tables import TableError
from battletracker.rules.tables import ruleset_file
from battletracker.rules.tables import ruleset_settings

RULESET = "chain_of_command"
VISIBILITIES = ("open", "obscured", "badly_obscured")
VISIBILITY_TEXT = {"open": "in the Open", "obscured": "view obscured", "badly_obscured": "view badly obscured"}
ADJUSTMENT_INPUTS = (
    "target_moved_flat_out",
    "firer_moved",
    "turret_rotated",
    "firer_shock",
    "target_low_profile",
    "target_small",
    "extra_range_bands",
    "under_suppressing_fire",
    "two_orders",
    "hit_last_round_stationary",
    "optics_damaged",
)
MAX_ARMOUR_DICE = 30
MAX_COUNT = 20
GRENADE_MOVEMENT_SETTING = "grenade_movement_dice"
MISS = "miss"
NO_EFFECT = "no_effect"
FAILED_TO_REACH = "failed_to_reach"


# --- the rules' numbers ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Adjustment:
    """One line of the AT Fire Adjustments table; `each` counts it once per point of its input."""

    key: str
    text: str
    modifier: int
    each: bool


@dataclass(frozen=True)
class ATRules:
    to_hit: Mapping[str, int]
    adjustments: tuple[Adjustment, ...]
    optics_he_modifier: int
    weak_spot_dice: tuple[int, int, int]
    penetration: Mapping[str, int]
    save_target: int
    suppressed_bonus: int
    grenade_location: str

    def adjustment(self, key: str) -> Adjustment:
        for a in self.adjustments:
            if a.key == key:
                return a
        raise KeyError(key)


def _adjustment(key: str, t: Table) -> Adjustment:
    return Adjustment(key, t.str("text"), t.int("modifier", -6, 6), t.bool("each"))


@lru_cache(maxsize=1)
def at_rules() -> ATRules:
    """The numbers of `at_fire.toml`; every adjustment input must have its line in the table."""
    whole = ruleset_file(RULESET, "at_fire")
    to_hit = whole.table("to_hit")
    adjustments_table = whole.table("adjustments")
    listed = [key for key, _t in adjustments_table.tables()]
    if sorted(listed) != sorted(ADJUSTMENT_INPUTS):
        missing = sorted(set(ADJUSTMENT_INPUTS) - set(listed)) or sorted(set(listed) - set(ADJUSTMENT_INPUTS))
        raise TableError(f"{adjustments_table.where}: the adjustments must be exactly {', '.join(ADJUSTMENT_INPUTS)} "
                         f"(check {', '.join(missing)})")
    adjustments = tuple(_adjustment(key, t) for key, t in adjustments_table.tables())
    weak = whole.table("weak_spot")
    penetration = whole.table("penetration")
    save = whole.table("armour_save")
    return ATRules(
        to_hit={v: to_hit.int(v, 2, 13) for v in VISIBILITIES},
        adjustments=adjustments,
        optics_he_modifier=adjustments_table.table("optics_damaged").int("he_modifier", -6, 0),
        weak_spot_dice=(0, weak.int("single_six", 0, 6), weak.int("double_six", 0, 6)),
        penetration={face: penetration.int(face, 1, 7) for face in ARMOUR_FACES},
        save_target=save.int("target", 1, 7),
        suppressed_bonus=save.int("suppressed_bonus", 0, 5),
        grenade_location=whole.table("grenade").str("location", ARMOUR_FACES),
    )


def optics_damaged_modifier(he: bool = False) -> int:
    """To-hit modifier for a vehicle with damaged optics: firing A.P. with the main gun, or H.E."""
    rules = at_rules()
    return rules.optics_he_modifier if he else rules.adjustment("optics_damaged").modifier


# --- inputs shared by the three procedures ----------------------------------------------------------------------


@dataclass(frozen=True)
class TargetState:
    """The vehicle as the app's card has it: what kind, how much Shock, immobilised, and its id."""

    vehicle: str
    shock: int = 0
    immobilised: bool = False
    target_id: str | None = None


@dataclass(frozen=True)
class Ammo:
    """What the firer spends: one round (or grenade) of `weapon_index` on `firer_id` when `spend`."""

    firer_id: str | None
    weapon_index: int | None
    rounds_left: int | None
    limited: bool

    @property
    def spend(self) -> bool:
        return self.limited and self.firer_id is not None and self.weapon_index is not None

    def effects(self) -> list[Effect]:
        if not self.spend:
            return []
        assert self.firer_id is not None and self.weapon_index is not None
        return [SpendAmmo(self.firer_id, self.weapon_index, 1)]

    def values(self) -> dict[str, Any]:
        left = None if self.rounds_left is None else self.rounds_left - 1
        return {"rounds_spent": 1 if self.limited else 0, "rounds_left_after": left}


def _read_target(r: InputReader) -> TargetState:
    return TargetState(
        vehicle=r.choice("target", VEHICLE_CATEGORIES),
        shock=r.int("target_shock", 0, minimum=0, maximum=MAX_COUNT),
        immobilised=r.bool("target_immobilised"),
        target_id=r.optional_str("target_id"),
    )


def _read_ammo(r: InputReader, what: str, capacity: int | None, known: bool, noun: str) -> Ammo:
    """The firer's ammunition for `what`.

    `known`: the arsenal says whether it is limited (`capacity` rounds) or not.
    Otherwise it is limited exactly when the app gives `rounds_left` from the card.
    """
    rounds_left = r.optional_int("rounds_left", minimum=0)
    firer_id = r.optional_str("firer_id")
    weapon_index = r.optional_int("weapon_index", minimum=0)
    if known and capacity is None and rounds_left is not None:
        raise RulesInputError("rounds_left", f"{what} has unlimited ammunition")
    if capacity is not None and rounds_left is not None and rounds_left > capacity:
        raise RulesInputError("rounds_left", f"{what} carries at most {capacity} {noun}, not {rounds_left}")
    limited = capacity is not None or rounds_left is not None
    if rounds_left == 0:
        carried = f" (Limited Ammunition: {capacity} {noun})" if capacity is not None else ""
        raise RulesInputError("rounds_left", f"{what} has no {noun} left{carried}")
    if weapon_index is not None and firer_id is None:
        raise RulesInputError("weapon_index", "needs firer_id, the unit that carries the weapon")
    if limited and firer_id is not None and weapon_index is None:
        raise RulesInputError("weapon_index", f"is required to spend one of {what}'s {noun}")
    return Ammo(firer_id, weapon_index, rounds_left, limited)


def _armour_dice(r: InputReader) -> int:
    return r.int("armour_dice", minimum=0, maximum=MAX_ARMOUR_DICE)


# --- the shared end: saves against hits, then the damage table -------------------------------------------------


def _untouched(target: TargetState) -> dict[str, Any]:
    """Values for a roll that never reached the vehicle."""
    return {
        "penetrating_hits": 0,
        "saves": 0,
        "net_hits": None,
        "damage_roll": None,
        "band": None,
        "result": None,
        "shock_added": 0,
        "total_shock": target.shock,
        "abandoned": abandoned(target.shock),
        "consequences": (),
        "force_morale_tests": (),
    }


def _saves_and_damage(roller: Roller, target: TargetState, hits: int, armour_dice: int, save_target: int,
                      log: list[str]) -> tuple[str, dict[str, Any], DamageOutcome | None]:
    """Roll the Armour Dice, compare with the Penetrating Hits and roll on the damage table if they fail."""
    armour = roller.roll_ints("Armour Dice", D6, armour_dice)
    saves = count_at_least(armour, save_target)
    if armour_dice:
        log.append(f"Armour: {counted(armour_dice, 'dice')} saving on {save_target}+: {' '.join(map(str, armour))} "
                   f"-> {saves} save{'s' if saves != 1 else ''}.")
    else:
        log.append("Armour: no Armour Dice, no saves.")
    net = hits - saves
    values = _untouched(target) | {"penetrating_hits": hits, "saves": saves, "net_hits": net}
    band = band_for(net)
    if band is None:
        log.append(f"{saves} saves against {hits} Penetrating Hits: no effect.")
        return NO_EFFECT, values, None
    roll = roller.roll_ints(f"Damage ({target.vehicle.upper()} {BAND_TITLES[band]})", D6)[0]
    damage = apply_damage(target.vehicle, band, roll, target.shock, target.immobilised)
    net_text = "equal hits and saves" if band == "equal" else f"{net} net hit{'s' if net != 1 else ''}"
    log.append(f"{net_text.capitalize()}: {target.vehicle.upper()} table, {BAND_TITLES[band]}, rolled {roll}: "
               f"{damage.meaning.title}.")
    log.extend(damage.lines())
    values |= {
        "damage_roll": roll,
        "band": band,
        "result": damage.row.result,
        "shock_added": damage.shock.added,
        "total_shock": damage.shock.total,
        "abandoned": damage.shock.abandoned,
        "consequences": damage.lines(),
        "force_morale_tests": damage.force_morale_tests,
    }
    return damage.outcome, values, damage


def _effects(ammo: Ammo | None, target: TargetState, damage: DamageOutcome | None) -> list[Effect]:
    effects = ammo.effects() if ammo is not None else []
    if damage is not None and target.target_id is not None:
        effects.extend(damage.effects(target.target_id))
    return effects


def _after_penetration(hits: Distribution[int], armour_dice: int, save_target: int,
                       vehicle: str) -> Distribution[str]:
    """Exact outcome odds once the Penetrating Hits are known to follow `hits`."""
    saves = successes(armour_dice, save_target)
    bands = hits.convolve(saves, lambda h, s: band_for(h - s) or NO_EFFECT)
    return bands.bind(lambda b: Distribution.certain(NO_EFFECT) if b == NO_EFFECT else band_odds(vehicle, b))


@lru_cache(maxsize=4096)
def _after_hit(strike_dice: int, pen_target: int, armour_dice: int, save_target: int,
               vehicle: str) -> Distribution[str]:
    return _after_penetration(successes(strike_dice, pen_target), armour_dice, save_target, vehicle)


def _setting_int(r: InputReader, key: str) -> int:
    """An integer ruleset setting given as an input, within the bounds settings.toml declares."""
    for s in ruleset_settings(RULESET):
        if s.key == key:
            assert isinstance(s.default, int)
            return r.int(key, s.default, minimum=s.minimum, maximum=s.maximum)
    raise TableError(f"{RULESET}/settings.toml: no setting {key!r}")


# --- coc.at_fire --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ATFireInputs:
    """One anti-tank round, parsed: everything the to-hit number, the odds and the roll need.

    The dialog can show `to_hit_needed`, `modifier` and `applied` before any dice.
    """

    strike_dice: int
    weapon: str | None
    range: float | None
    extra_range_bands: int
    armour_dice: int
    location: str
    visibility: str
    adjustments: tuple[tuple[str, int], ...]
    target: TargetState
    ammo: Ammo
    to_hit_needed: int
    modifier: int
    penetration_target: int
    save_target: int
    weak_spot_dice: tuple[int, int, int]

    @property
    def applied(self) -> tuple[tuple[str, int], ...]:
        """The adjustments in force, as (table text, total modifier)."""
        rules = at_rules()
        out: list[tuple[str, int]] = []
        for key, count in self.adjustments:
            if count:
                a = rules.adjustment(key)
                out.append((a.text, a.modifier * count))
        return tuple(out)


def _read_at_weapon(r: InputReader) -> tuple[int, ATWeapon | None, float | None, int | None]:
    """Strike dice, the arsenal weapon (if named), the range, and the extra range bands the range gives."""
    name = r.optional_str("weapon")
    strike = r.optional_int("strike_dice", minimum=0, maximum=MAX_STRIKE_DICE)
    distance = r.optional_float("range", minimum=0)
    if name is not None and strike is not None:
        raise RulesInputError("strike_dice", "give either strike_dice or weapon, not both")
    if name is None:
        if strike is None:
            raise RulesInputError("strike_dice", "is required: give strike_dice, or weapon (a name in the arsenal) "
                                                 "and range")
        if distance is not None:
            raise RulesInputError("range", "is only used with weapon; without one give extra_range_bands")
        return strike, None, None, None
    weapon = arsenal().weapon(name)
    if weapon is None:
        if arsenal().grenade(name) is not None:
            raise RulesInputError("weapon", f"{name!r} is a grenade or charge: it is thrown with coc.at_grenade")
        known = ", ".join(arsenal().weapons)
        raise RulesInputError("weapon", f"no anti-tank weapon called {name!r} in the arsenal (known: {known})")
    if weapon.close_range_only:
        return weapon.strike_dice(0), weapon, distance, 0
    if distance is None:
        raise RulesInputError("range", f"is required for the {weapon.name} (range bands {weapon.describe_bands()})")
    band = weapon.band(distance)
    if band is None:
        raise RulesInputError("range", f"the {weapon.name} cannot fire beyond {weapon.bands[-1]:g}\" "
                                       f"(the target is {distance:g}\" away)")
    return weapon.strike_dice(band), weapon, distance, band


def parse_at_fire(inputs: Inputs) -> ATFireInputs:
    """Parse and check `coc.at_fire` inputs; the dialog calls it to show the to-hit number before rolling."""
    rules = at_rules()
    r = InputReader(inputs)
    strike, weapon, distance, derived_bands = _read_at_weapon(r)
    given_bands = r.optional_int("extra_range_bands", minimum=0, maximum=MAX_COUNT)
    if derived_bands is not None and given_bands is not None and given_bands != derived_bands:
        assert weapon is not None
        raise RulesInputError("extra_range_bands", f"follows from weapon and range ({derived_bands} for the "
                                                   f"{weapon.name} at {distance or 0:g}\"), not {given_bands}")
    extra_bands = derived_bands if derived_bands is not None else (given_bands or 0)
    counts: list[tuple[str, int]] = []
    for a in rules.adjustments:
        if a.key == "extra_range_bands":
            counts.append((a.key, extra_bands))
        elif a.each:
            counts.append((a.key, r.int(a.key, 0, minimum=0, maximum=MAX_COUNT)))
        else:
            counts.append((a.key, int(r.bool(a.key))))
    if r.bool("firer_engine_damage") and dict(counts)["firer_moved"]:
        raise RulesInputError("firer_moved", "the firer has Engine Damage: it cannot move and fire its main "
                                             "armament in the same Phase")
    location = r.choice("location", ARMOUR_FACES)
    visibility = r.choice("visibility", VISIBILITIES)
    what = f"the {weapon.name}" if weapon is not None else "the weapon"
    parsed = ATFireInputs(
        strike_dice=strike,
        weapon=weapon.name if weapon is not None else None,
        range=distance,
        extra_range_bands=extra_bands,
        armour_dice=_armour_dice(r),
        location=location,
        visibility=visibility,
        adjustments=tuple(counts),
        target=_read_target(r),
        ammo=_read_ammo(r, what, weapon.rounds if weapon is not None else None, weapon is not None, "rounds"),
        to_hit_needed=rules.to_hit[visibility],
        modifier=sum(rules.adjustment(key).modifier * count for key, count in counts),
        penetration_target=rules.penetration[location],
        save_target=rules.save_target,
        weak_spot_dice=rules.weak_spot_dice,
    )
    r.finish()
    return parsed


def at_fire_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = parse_at_fire(inputs)
    roller = Roller(dice)
    log: list[str] = []
    what = p.weapon or f"{p.strike_dice} A.P. Strike Dice"
    adjusted = ", ".join(f"{text} {m:+d}" for text, m in p.applied) or "no adjustments"
    log.append(f"{what} fires A.P. at the {p.target.vehicle.upper()}'s {p.location} armour, "
               f"{VISIBILITY_TEXT[p.visibility]}: {p.to_hit_needed}+ to hit on 2D6, modifier {p.modifier:+d} "
               f"({adjusted}).")
    if p.ammo.limited and p.ammo.rounds_left is not None:
        log.append(f"One round spent: {p.ammo.rounds_left - 1} left.")
    first, second = roller.roll_ints("To hit (2D6)", D6, 2)
    natural = first + second
    hit = natural + p.modifier >= p.to_hit_needed
    sixes = (first == 6) + (second == 6)
    values: dict[str, Any] = {
        "to_hit_needed": p.to_hit_needed,
        "modifier": p.modifier,
        "to_hit_roll": natural,
        "hit": hit,
        "weak_spot_dice": 0,
        "strike_dice_rolled": 0,
        "extra_range_bands": p.extra_range_bands,
    } | p.ammo.values()
    if not hit:
        log.append(f"To hit: {first} and {second} = {natural}, {natural + p.modifier} adjusted, "
                   f"needing {p.to_hit_needed}: a miss.")
        values |= _untouched(p.target)
        return Resolution("coc.at_fire", MISS, values, roller.rolls, p.ammo.effects(), log)
    weak = p.weak_spot_dice[sixes]
    weak_text = ("", f" A weak spot: +{weak} A.P. Strike Die.",
                 f" A major weak spot: +{weak} A.P. Strike Dice.")[sixes]
    log.append(f"To hit: {first} and {second} = {natural}, {natural + p.modifier} adjusted, "
               f"needing {p.to_hit_needed}: a hit.{weak_text}")
    count = p.strike_dice + weak
    strike = roller.roll_ints("A.P. Strike Dice", D6, count)
    hits = count_at_least(strike, p.penetration_target)
    log.append(f"A.P. Strike: {counted(count, 'dice')} needing {p.penetration_target}+ on the {p.location}: "
               f"{' '.join(map(str, strike)) or '(none)'} -> {hits} Penetrating Hit{'s' if hits != 1 else ''}.")
    values |= {"weak_spot_dice": weak, "strike_dice_rolled": count}
    outcome, more, damage = _saves_and_damage(roller, p.target, hits, p.armour_dice, p.save_target, log)
    values |= more
    return Resolution("coc.at_fire", outcome, values, roller.rolls, _effects(p.ammo, p.target, damage), log)


@lru_cache(maxsize=4096)
def _at_fire_odds(needed: int, modifier: int, strike_dice: int, weak_spot_dice: tuple[int, int, int],
                  pen_target: int, armour_dice: int, save_target: int, vehicle: str) -> Distribution[str]:
    weights: dict[int, int] = {}
    for first in range(1, 7):
        for second in range(1, 7):
            key = (first == 6) + (second == 6) if first + second + modifier >= needed else -1
            weights[key] = weights.get(key, 0) + 1
    to_hit = Distribution({k: Fraction(n, 36) for k, n in weights.items()})
    return to_hit.bind(lambda sixes: Distribution.certain(MISS) if sixes < 0 else _after_hit(
        strike_dice + weak_spot_dice[sixes], pen_target, armour_dice, save_target, vehicle))


def at_fire_odds(inputs: Inputs) -> Distribution[str]:
    p = parse_at_fire(inputs)
    return _at_fire_odds(p.to_hit_needed, p.modifier, p.strike_dice, p.weak_spot_dice, p.penetration_target,
                         p.armour_dice, p.save_target, p.target.vehicle)


# --- coc.at_grenade -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ATGrenadeInputs:
    strike_dice: int
    weapon: str | None
    distance: float
    movement_dice: int
    armour_dice: int
    storm: StormOfSteel
    target: TargetState
    ammo: Ammo
    penetration_target: int
    save_target: int


def _read_grenade(r: InputReader) -> tuple[int, Grenade | None]:
    name = r.optional_str("weapon")
    strike = r.optional_int("strike_dice", minimum=0, maximum=MAX_STRIKE_DICE)
    if name is not None and strike is not None:
        raise RulesInputError("strike_dice", "give either strike_dice or weapon, not both")
    if name is None:
        if strike is None:
            raise RulesInputError("strike_dice", "is required: give strike_dice, or weapon (a grenade or charge "
                                                 "in the arsenal)")
        return strike, None
    grenade = arsenal().grenade(name)
    if grenade is None:
        known = ", ".join(arsenal().grenades)
        raise RulesInputError("weapon", f"no anti-tank grenade or charge called {name!r} (known: {known})")
    return grenade.ap, grenade


def parse_at_grenade(inputs: Inputs) -> ATGrenadeInputs:
    """Parse and check `coc.at_grenade` inputs."""
    rules = at_rules()
    r = InputReader(inputs)
    strike, grenade = _read_grenade(r)
    what = f"the {grenade.name}" if grenade is not None else "the figure"
    parsed = ATGrenadeInputs(
        strike_dice=strike,
        weapon=grenade.name if grenade is not None else None,
        distance=r.float("distance", minimum=0),
        movement_dice=_setting_int(r, GRENADE_MOVEMENT_SETTING),
        armour_dice=_armour_dice(r),
        storm=StormOfSteel.read(r),
        target=_read_target(r),
        ammo=_read_ammo(r, what, None, False, "grenades or charges"),
        penetration_target=rules.penetration[rules.grenade_location],
        save_target=rules.save_target,
    )
    r.finish()
    return parsed


def at_grenade_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = parse_at_grenade(inputs)
    roller = Roller(dice)
    log: list[str] = []
    what = p.weapon or f"a charge of {p.strike_dice} A.P. Strike Dice"
    log.append(f"A figure runs {p.distance:g}\" at the {p.target.vehicle.upper()} with {what}: "
               f"{p.movement_dice}D6 movement.")
    move = roller.roll_ints("Movement", D6, p.movement_dice)
    total = sum(move)
    reached = total >= p.distance
    values: dict[str, Any] = {
        "movement_dice": p.movement_dice,
        "movement_roll": total,
        "distance": p.distance,
        "reached": reached,
        "strike_dice_rolled": 0,
        "storm_of_steel_dice": 0,
    } | p.ammo.values()
    if not reached:
        log.append(f"Movement: {' '.join(map(str, move))} = {total}\", short of {p.distance:g}\": the attack "
                   f"fails, the grenade or charge is lost and the figure returns to its unit.")
        values |= _untouched(p.target)
        return Resolution("coc.at_grenade", FAILED_TO_REACH, values, roller.rolls, p.ammo.effects(), log)
    log.append(f"Movement: {' '.join(map(str, move))} = {total}\": the figure reaches the vehicle.")
    strike = storm_of_steel.roll(roller, "A.P. Strike Dice", p.strike_dice, p.penetration_target, p.storm)
    log.append(f"A.P. Strike on the top armour: {' '.join(map(str, strike.base)) or '(none)'}"
               + (f", Storm of Steel {' '.join(map(str, strike.extra))}" if strike.extra else "")
               + f" needing {p.penetration_target}+ -> {strike.hits} Penetrating Hit{'s' if strike.hits != 1 else ''}.")
    values |= {"strike_dice_rolled": len(strike.all_dice), "storm_of_steel_dice": len(strike.extra)}
    outcome, more, damage = _saves_and_damage(roller, p.target, strike.hits, p.armour_dice, p.save_target, log)
    values |= more
    return Resolution("coc.at_grenade", outcome, values, roller.rolls, _effects(p.ammo, p.target, damage), log)


def _penetrating_hits(strike_dice: int, pen_target: int, storm: StormOfSteel,
                      armour_dice: int) -> Distribution[int]:
    """Penetrating Hits of the Strike Dice and their Storm of Steel dice, capped where the band stops changing.

    Past the last band's hits plus every Armour Die saving, more hits read the
    same band (`band_for`), so they are counted together: chained Storm of
    Steel dice can bring hundreds of hits, which would otherwise each be
    convolved with the saves. The sixes do nothing here, so only the hits
    are counted (`hits_and_sixes_weights` without sixes).
    """
    weights, den = storm_of_steel.hits_and_sixes_weights(strike_dice, pen_target, storm, False)
    cap = len(BANDS) - 1 + armour_dice
    hits: dict[int, int] = {}
    for (h, _), n in weights.items():
        hits[min(h, cap)] = hits.get(min(h, cap), 0) + n
    return Distribution.from_weights(hits, den)


@lru_cache(maxsize=4096)
def _at_grenade_odds(movement_dice: int, distance: float, strike_dice: int, storm: StormOfSteel, pen_target: int,
                     armour_dice: int, save_target: int, vehicle: str) -> Distribution[str]:
    reach = Distribution.dice_sum(movement_dice).at_least(distance)
    after = _after_penetration(_penetrating_hits(strike_dice, pen_target, storm, armour_dice),
                               armour_dice, save_target, vehicle)
    return Distribution.mix([(1 - reach, Distribution.certain(FAILED_TO_REACH)), (reach, after)])


def at_grenade_odds(inputs: Inputs) -> Distribution[str]:
    p = parse_at_grenade(inputs)
    return _at_grenade_odds(p.movement_dice, p.distance, p.strike_dice, p.storm, p.penetration_target,
                            p.armour_dice, p.save_target, p.target.vehicle)


# --- coc.armour_save_only -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ArmourSaveOnlyInputs:
    armour_dice: int
    firer_under_suppressing_fire: bool
    target: TargetState
    save_target: int


def parse_armour_save_only(inputs: Inputs) -> ArmourSaveOnlyInputs:
    """Parse and check `coc.armour_save_only` inputs (the target's frontal Armour Dice)."""
    rules = at_rules()
    r = InputReader(inputs)
    suppressed = r.bool("firer_under_suppressing_fire")
    parsed = ArmourSaveOnlyInputs(
        armour_dice=_armour_dice(r),
        firer_under_suppressing_fire=suppressed,
        target=_read_target(r),
        save_target=rules.save_target - (rules.suppressed_bonus if suppressed else 0),
    )
    r.finish()
    return parsed


def armour_save_only_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = parse_armour_save_only(inputs)
    roller = Roller(dice)
    bonus = " (+1 to each die: the firer is under Suppressing Fire)" if p.firer_under_suppressing_fire else ""
    log = [f"No A.P. Strike Dice: zero Penetrating Hits. The {p.target.vehicle.upper()} rolls its frontal "
           f"Armour Dice{bonus}."]
    outcome, values, damage = _saves_and_damage(roller, p.target, 0, p.armour_dice, p.save_target, log)
    values["save_target"] = p.save_target
    effects = _effects(None, p.target, damage)
    return Resolution("coc.armour_save_only", outcome, values, roller.rolls, effects, log)


def armour_save_only_odds(inputs: Inputs) -> Distribution[str]:
    p = parse_armour_save_only(inputs)
    return _after_hit(0, 6, p.armour_dice, p.save_target, p.target.vehicle)


register(Procedure("coc.at_fire", "Anti-tank fire", at_fire_resolve, at_fire_odds, ruleset=RULESET,
                   label=outcome_label, order=outcome_rank, better=firer_rank, rolled_by=FIRER,
                   typical={"strike_dice": 9, "armour_dice": 6, "location": "front", "visibility": "open",
                            "target": "afv"},
                   largest={"strike_dice": 11, "armour_dice": 6, "location": "front", "visibility": "open",
                            "target": "afv"},
                   worst_best=("miss", "net3:explodes")))
register(Procedure("coc.at_grenade", "Anti-tank grenade or charge", at_grenade_resolve, at_grenade_odds,
                   ruleset=RULESET, settings=(*storm_of_steel.SETTINGS, GRENADE_MOVEMENT_SETTING),
                   label=outcome_label, order=outcome_rank, better=firer_rank, rolled_by=FIRER,
                   typical={"weapon": "Teller mine", "armour_dice": 2, "target": "afv", "distance": 4},
                   largest={"weapon": "Teller mine", "armour_dice": 6, "target": "afv", "distance": 4},
                   worst_best=("failed_to_reach", "net3:explodes")))
# Only the target's Armour Dice are rolled: its luck, and what is worst for a firer is best for it.
register(Procedure("coc.armour_save_only", "Armour save against fire with no A.P.", armour_save_only_resolve,
                   armour_save_only_odds, ruleset=RULESET, label=outcome_label, order=outcome_rank,
                   better=worse_for_roller(firer_rank), rolled_by=("target_id", "target"),
                   typical={"armour_dice": 6, "target": "afv"}, largest={"armour_dice": 6, "target": "afv"},
                   worst_best=("equal:reverse", "no_effect")))
