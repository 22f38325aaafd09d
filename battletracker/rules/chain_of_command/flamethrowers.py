"""Infantry flamethrowers (`coc.flamethrower`): 12", fuel for three Phases, Storm of Steel.

12 Firepower Dice, 6 if the team moved (with 1D6; never At the Double), the
Storm of Steel Bonus, no cover for the target and Shock doubled. Against a
wooden building, two or more 6s (Storm of Steel dice included, as they are
Firepower Dice too) set it on fire and every Unit inside must evacuate; the
hits fall on the Teams inside (`teams`, 0 for an empty building) like any
other flamethrower target. Against a transport the hits fall on the
passengers as in the Open with Shock doubled, and every 6, Storm of Steel dice
included, puts one Shock on the vehicle (doubled if it is immobilised).
Flamethrowers against AFVs belong to the anti-tank rules.

Fuel is counted in Phases of fire on the weapon (`Weapon.ammo` with
`ammo_label` "fuel"): the app passes `fuel`, firing with none is refused, and
given `firer_id` the Resolution spends one Phase of it (weapon `weapon_index`).
Given `building_id` (a building on the map, `Game.buildings`) the Resolution
sets its state to "on_fire"; the app lists its occupants, who must evacuate.

`coc.flamethrower`
    Inputs: `range` (inches), `moved`, `at_the_double` (refused), `fuel`
    (Phases of fire left, from the card), `target_kind` (infantry |
    wooden_building | transport), `to_hit` or `range_band`/`target_quality`,
    the Storm of Steel settings, `teams` (default 1; 0 for an empty
    building); optional `target_id`/`target_ids`/`target_figures`,
    `sniper_target` (as for `coc.fire`),
    `firer_id` with `weapon_index` (default 0), `building_id`, and for a
    transport `vehicle_id`, `vehicle_current_shock`, `vehicle_immobilised`.
    Dice: Firepower Dice, Storm of Steel dice, effect dice per hit.
    Outcomes: `kills=K shock=S`, with ` building_on_fire` appended when a
    wooden building catches fire, or ` vehicle_shock=V` (after doubling) for
    a transport, `vehicle_shock=4+` once that Shock alone abandons it (the
    values and effects keep the exact Shock). Values: those of `coc.fire` plus `firepower_dice`,
    `fuel_left`, `building_on_fire`, and for a transport `vehicle_shock`,
    `vehicle_total_shock`, `vehicle_abandoned`. Effects: SpendAmmo (one
    Phase of fuel), kills and Shock on the Teams, SetBuildingState
    "on_fire" on the building, Shock (and "abandoned") on the vehicle.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from battletracker.core.dice import Dice
from battletracker.core.geometry import EPSILON
from battletracker.core.odds import Distribution
from battletracker.model.bombardment_effects import SetBuildingState
from battletracker.model.effects import Effect
from battletracker.model.effects import SpendAmmo
from battletracker.rules import register
from battletracker.rules.base import FIRER
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import counted
from battletracker.rules.base import counts
from battletracker.rules.base import inches
from battletracker.rules.chain_of_command import storm_of_steel
from battletracker.rules.chain_of_command.fire import MAX_TEAMS
from battletracker.rules.chain_of_command.fire import RULESET
from battletracker.rules.chain_of_command.fire import SETTINGS
from battletracker.rules.chain_of_command.fire import FireTables
from battletracker.rules.chain_of_command.fire import HitEffect
from battletracker.rules.chain_of_command.fire import Targets
from battletracker.rules.chain_of_command.fire import Volley
from battletracker.rules.chain_of_command.fire import describe_volley
from battletracker.rules.chain_of_command.fire import keyed_volley_odds
from battletracker.rules.chain_of_command.fire import kills_shock_key
from battletracker.rules.chain_of_command.fire import read_id
from battletracker.rules.chain_of_command.fire import read_sniper_target
from battletracker.rules.chain_of_command.fire import read_storm
from battletracker.rules.chain_of_command.fire import read_targets
from battletracker.rules.chain_of_command.fire import read_to_hit
from battletracker.rules.chain_of_command.fire import roll_effects
from battletracker.rules.chain_of_command.fire import sniper_volley
from battletracker.rules.chain_of_command.fire import target_effects
from battletracker.rules.chain_of_command.vehicle_target import VehicleTarget
from battletracker.rules.chain_of_command.vehicle_target import read_vehicle_target

MAX_RANGE = 12.0
DICE = 12
DICE_AFTER_MOVING = 6
FUEL_PHASES = 3
SETS_FIRE_AT_SIXES = 2
SHOCK_MULTIPLIER = 2
ON_FIRE = "on_fire"
TARGET_KINDS = ("infantry", "wooden_building", "transport")


@dataclass(frozen=True)
class FlameShot:
    """What the dice need: the volley, the target kind (which decides what the 6s do), any Teams to hit."""

    volley: Volley
    target_kind: str
    occupied: bool = True


@dataclass(frozen=True)
class FlamethrowerInputs:
    shot: FlameShot
    range: float
    moved: bool
    fuel: int
    targets: Targets
    firer_id: str | None
    weapon_index: int
    building_id: str | None
    vehicle: VehicleTarget


def _parse(inputs: Inputs) -> FlamethrowerInputs:
    r = InputReader(inputs)
    distance = r.float("range", minimum=0.0)
    moved = r.bool("moved")
    at_the_double = r.bool("at_the_double")
    fuel = r.int("fuel", minimum=0)
    kind = r.choice("target_kind", TARGET_KINDS)
    tables = FireTables.read(r)
    to_hit = read_to_hit(r, tables)
    storm = read_storm(r, True)
    teams = r.int("teams", 1, minimum=0 if kind == "wooden_building" else 1, maximum=MAX_TEAMS)
    targets = read_sniper_target(r, read_targets(r, teams))
    firer_id = read_id(r, "firer_id")
    weapon_index = r.int("weapon_index", 0, minimum=0)
    building_id = read_id(r, "building_id")
    vehicle = read_vehicle_target(r)
    r.finish()
    if distance > MAX_RANGE + EPSILON:
        raise RulesInputError("range", f'a flamethrower reaches at most {MAX_RANGE:g}", '
                                       f'the target is {inches(distance)}" away')
    if at_the_double:
        raise RulesInputError("at_the_double", "infantry flamethrowers never move At the Double "
                                               "(they may move 1D6 and fire)")
    if fuel == 0:
        raise RulesInputError("fuel", f"no fuel left: 0 of {FUEL_PHASES} Phases of fire, and flamethrowers are "
                                      "never resupplied")
    if building_id is not None and kind != "wooden_building":
        raise RulesInputError("building_id", f"only a wooden building target can be set on fire, not {kind}")
    if vehicle.vehicle_id is not None and kind != "transport":
        raise RulesInputError("vehicle_id", f"only a transport target takes Shock from the 6s, not {kind}")
    effect = HitEffect.for_cover("open", SHOCK_MULTIPLIER, tables)
    volley = sniper_volley(Volley(DICE_AFTER_MOVING if moved else DICE, to_hit, storm, effect, teams, targets.figures,
                                  names=targets.names), targets)
    shot = FlameShot(volley, kind, teams > 0)
    return FlamethrowerInputs(shot, distance, moved, fuel, targets, firer_id, weapon_index, building_id, vehicle)


def _key(kind: str, kills: int, shock: int, sixes: int, vehicle: VehicleTarget) -> str:
    return kills_shock_key(kills, shock) + _sixes_words(kind, sixes, vehicle)


def _sixes_words(kind: str, sixes: int, vehicle: VehicleTarget) -> str:
    """What the 6s add to the outcome key: a building on fire, or the Shock on a transport."""
    if kind == "wooden_building" and sixes >= SETS_FIRE_AT_SIXES:
        return " building_on_fire"
    if kind == "transport":
        return vehicle.key(sixes)
    return ""


def flamethrower_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    roller = Roller(dice)
    volley = p.shot.volley
    kind = p.shot.target_kind
    fire = storm_of_steel.roll(roller, "Firepower Dice", volley.dice, volley.to_hit, volley.storm)
    v = roll_effects(roller, fire, volley)
    on_fire = kind == "wooden_building" and v.sixes >= SETS_FIRE_AT_SIXES
    values: dict[str, object] = {
        **v.values(),
        "firepower_dice": volley.dice,
        "to_hit": volley.to_hit,
        "cover": volley.effect.cover,
        "fuel_left": p.fuel - 1,
        "building_on_fire": on_fire,
    }
    log = [f'Flamethrower at {inches(p.range)}"' + (" after moving: 6 Firepower Dice" if p.moved else ""),
           *describe_volley(v, volley)]
    effects: list[Effect] = []
    if p.firer_id is not None:
        effects.append(SpendAmmo(p.firer_id, p.weapon_index, 1))
    log.append(f"Fuel: {p.fuel - 1} of {FUEL_PHASES} Phases of fire left")
    effects.extend(target_effects(p.targets, v.team_kills, v.team_shock))
    if kind == "wooden_building":
        log.append(f"{counted(v.sixes, 'sixes')}: " + ("the building is on fire and every Unit inside must evacuate"
                                            if on_fire else "the building does not catch fire"))
        if on_fire and p.building_id is not None:
            effects.append(SetBuildingState(p.building_id, ON_FIRE))
    if kind == "transport":
        values.update(p.vehicle.values(v.sixes))
        log.extend(p.vehicle.describe(v.sixes))
        effects.extend(p.vehicle.effects(v.sixes))
    return Resolution("coc.flamethrower", _key(kind, v.kills, v.shock, v.sixes, p.vehicle), values,
                      roller.rolls, effects, log)


@lru_cache(maxsize=1024)
def _odds(shot: FlameShot, vehicle: VehicleTarget) -> Distribution[str]:
    cap = {"wooden_building": SETS_FIRE_AT_SIXES, "transport": vehicle.sixes_cap}.get(shot.target_kind, 0)
    if not shot.occupied:  # only the 6s count, up to the cap: as the hits of the same dice needing 6s
        fewer, den = storm_of_steel.kills_below(shot.volley.dice, 6, shot.volley.storm, 1, 1, cap)
        sixes = {**dict(enumerate(fewer)), cap: den - sum(fewer)}
        return Distribution.from_weights(sixes, den).map(lambda x: _key(shot.target_kind, 0, 0, x, vehicle))
    return keyed_volley_odds(shot.volley, cap, lambda sixes: _sixes_words(shot.target_kind, sixes, vehicle))


def flamethrower_odds(inputs: Inputs) -> Distribution[str]:
    p = _parse(inputs)
    return _odds(p.shot, p.vehicle.for_odds())


register(Procedure("coc.flamethrower", "Flamethrower", flamethrower_resolve, flamethrower_odds,
                   ruleset=RULESET, settings=SETTINGS, better=counts("kills", "shock", "building_on_fire"),
                   rolled_by=FIRER,
                   typical={"range": 8, "fuel": 3, "target_kind": "wooden_building", "to_hit": 4},
                   largest={"range": 4, "fuel": 3, "target_kind": "transport", "range_band": "close",
                            "target_quality": "green", "firer_id": "flammen", "vehicle_id": "lorry",
                            "vehicle_current_shock": 1},
                   worst_best=("kills=0 shock=0", "kills=24 shock=0 building_on_fire")))
