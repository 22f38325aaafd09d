"""Grenades into vehicles (`coc.grenade_into_vehicle`).

Into an open-topped vehicle or transport (`vehicle = open_topped`): the throw
(2D6, needing the `grenade_throw_to_hit` setting; or the player says whether
it hit and how many "Bullseye!" dice it earned), then the team's Firepower
Dice plus one for the confined space plus the "Bullseye!" dice (one for a
single 6 on the throw, the `grenade_bullseye_double_six` setting for two).
The hits fall on the passenger Teams (`passenger_teams`, read at `cover`,
the Open unless the table says otherwise), every 6 puts one Shock on the
vehicle, and the vehicle rolls no Armour Dice. No Storm of Steel: the
documents' example rolls none for its two 6s.

Against an APC from outside (`vehicle = apc_outside`): no throw and no extra
dice; every 6 of the Firepower Dice is a penetrating hit (no Storm of Steel),
the APC saves each on a 5 or 6 with its Armour Dice, and each net hit is one
Shock. Shock on the vehicle is doubled once it is immobilised
(vehicle_target.py).

`coc.grenade_into_vehicle`
    Inputs: `firepower_dice`, `vehicle` (open_topped | apc_outside),
    `armour_dice` (used against an APC from outside); the settings
    `grenade_throw_to_hit` and `grenade_bullseye_double_six`; optional
    `throw_hit` (the player says whether the throw landed) with
    `bullseye_dice`; `passenger_teams` (default 0) with `to_hit` or
    `range_band`/`target_quality`, `cover` (default open) and
    `target_id`/`target_ids`/`target_figures`; `vehicle_id`,
    `vehicle_current_shock`, `vehicle_immobilised`.
    Dice: "Throw" (2D6, unless told), "Firepower Dice", effect dice per hit
    on passengers; against an APC, "Firepower Dice" then "Armour Dice".
    Outcomes: `missed`; `kills=K shock=S vehicle_shock=V` (open-topped);
    `vehicle_shock=V` (APC from outside). Values: `throw`, `throw_hit`,
    `bullseye_dice`, `dice_rolled`, `hits`, `sixes`, `kills`, `shock` and the
    Team split; `penetrating_hits`, `saves`, `net_hits` against an APC;
    `vehicle_shock`, `vehicle_total_shock`, `vehicle_abandoned`. Effects:
    kills and Shock on the passengers, Shock (and "abandoned") on the vehicle.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Hashable
from dataclasses import dataclass
from dataclasses import replace
from functools import lru_cache
from typing import TypeVar

from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.core.odds import successes
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
from battletracker.rules.chain_of_command.fire import MAX_DICE
from battletracker.rules.chain_of_command.fire import MAX_TEAMS
from battletracker.rules.chain_of_command.fire import RULESET
from battletracker.rules.chain_of_command.fire import TABLE_SETTINGS
from battletracker.rules.chain_of_command.fire import FireTables
from battletracker.rules.chain_of_command.fire import HitEffect
from battletracker.rules.chain_of_command.fire import Targets
from battletracker.rules.chain_of_command.fire import Volley
from battletracker.rules.chain_of_command.fire import describe_volley
from battletracker.rules.chain_of_command.fire import kills_shock_key
from battletracker.rules.chain_of_command.fire import read_cover
from battletracker.rules.chain_of_command.fire import read_targets
from battletracker.rules.chain_of_command.fire import read_to_hit
from battletracker.rules.chain_of_command.fire import roll_volley
from battletracker.rules.chain_of_command.fire import target_effects
from battletracker.rules.chain_of_command.fire import volley_counts
from battletracker.rules.chain_of_command.vehicle_target import VehicleTarget
from battletracker.rules.chain_of_command.vehicle_target import read_vehicle_target
from battletracker.rules.tables import setting

VEHICLES = ("open_topped", "apc_outside")
CONFINED_SPACE_DICE = 1
SINGLE_SIX_BULLSEYE = 1
ARMOUR_SAVE = 5
PENETRATES_ON = 6
SETTINGS = ("grenade_throw_to_hit", "grenade_bullseye_double_six", *TABLE_SETTINGS)
UNCAPPED = 1_000_000

Landed = TypeVar("Landed", bound=Hashable)


def throw_odds(to_hit: int, landed: Callable[[tuple[int, int]], Landed]) -> Distribution[Landed | None]:
    """The odds of a grenade's 2D6 throw needing `to_hit`: what `landed` makes of the two dice when their total
    reaches it (the Bullseye! dice its 6s earn), None when the throw misses."""
    two = Distribution.uniform([(a, b) for a in range(1, 7) for b in range(1, 7)])
    return two.map(lambda dice: landed(dice) if sum(dice) >= to_hit else None)


@dataclass(frozen=True)
class Throw:
    """How the throw is settled: rolled against `to_hit`, or told (`told_hit`, `told_bullseye`)."""

    to_hit: int
    double_six_dice: int
    told_hit: bool | None = None
    told_bullseye: int = 0

    def bullseye(self, dice: tuple[int, int]) -> int:
        """Extra Firepower Dice for the 6s on a throw."""
        sixes = sum(1 for d in dice if d == 6)
        return {0: 0, 1: SINGLE_SIX_BULLSEYE}.get(sixes, self.double_six_dice)

    def outcomes(self) -> Distribution[int | None]:
        """Bullseye dice when the throw lands inside, None when it misses."""
        if self.told_hit is not None:
            return Distribution.certain(self.told_bullseye if self.told_hit else None)
        return throw_odds(self.to_hit, self.bullseye)


@dataclass(frozen=True)
class Grenade:
    """What the dice need."""

    firepower_dice: int
    vehicle: str
    armour_dice: int
    throw: Throw
    passengers: Volley | None
    vehicle_target: VehicleTarget


@dataclass(frozen=True)
class GrenadeInputs:
    grenade: Grenade
    targets: Targets


def read_throw(r: InputReader, vehicle: str = "open_topped") -> Throw:
    """The throw's inputs: the settings' score and Bullseye! dice, or the player's word on where it landed."""
    to_hit_default = setting(RULESET, "grenade_throw_to_hit")
    double_default = setting(RULESET, "grenade_bullseye_double_six")
    assert isinstance(to_hit_default, int) and isinstance(double_default, int)
    to_hit = r.int("grenade_throw_to_hit", to_hit_default, minimum=2, maximum=12)
    double_six = r.int("grenade_bullseye_double_six", double_default, minimum=0, maximum=4)
    told = "throw_hit" in r
    hit = r.bool("throw_hit")
    bullseye = r.optional_int("bullseye_dice", minimum=0, maximum=max(SINGLE_SIX_BULLSEYE, double_six))
    if vehicle == "apc_outside":
        for key, given in (("throw_hit", told), ("bullseye_dice", bullseye is not None)):
            if given:
                raise RulesInputError(key, "a grenade against an APC from outside has no throw into the vehicle")
    if bullseye is not None and not (told and hit):
        raise RulesInputError("bullseye_dice", "is for a throw the player says hit (throw_hit = true)")
    return Throw(to_hit, double_six, hit if told else None, bullseye or 0)


def _parse(inputs: Inputs) -> GrenadeInputs:
    r = InputReader(inputs)
    dice = r.int("firepower_dice", minimum=0, maximum=MAX_DICE)
    vehicle = r.choice("vehicle", VEHICLES)
    armour = r.int("armour_dice", 0, minimum=0, maximum=MAX_DICE)
    throw = read_throw(r, vehicle)
    tables = FireTables.read(r)
    teams = r.int("passenger_teams", 0, minimum=0, maximum=MAX_TEAMS)
    if teams and vehicle == "apc_outside":
        raise RulesInputError("passenger_teams", "a grenade against an APC from outside does not reach the "
                                                 f"passengers ({counted(teams, 'teams')} given)")
    passengers: Volley | None = None
    if teams:
        effect = HitEffect.for_cover(read_cover(r, default="open"), 1, tables)
        passengers = Volley(dice, read_to_hit(r, tables), None, effect, teams)
    else:
        for key in ("to_hit", "range_band", "target_quality", "cover"):
            if key in r:
                raise RulesInputError(key, "is for hits on passengers, and passenger_teams is 0")
            r.optional_str(key)
    targets = read_targets(r, teams) if teams else _no_targets(r)
    if passengers is not None:
        passengers = replace(passengers, figures=targets.figures)
    vehicle_target = read_vehicle_target(r)
    r.finish()
    return GrenadeInputs(Grenade(dice, vehicle, armour, throw, passengers, vehicle_target), targets)


def _no_targets(r: InputReader) -> Targets:
    for key in ("target_id", "target_ids", "target_figures", "target_names"):
        if key in r:
            raise RulesInputError(key, "names passenger Teams, and passenger_teams is 0")
        r.optional_str(key)
    return Targets()


def _open_topped_key(kills: int, shock: int, sixes: int, vehicle: VehicleTarget) -> str:
    return f"{kills_shock_key(kills, shock)} vehicle_shock={vehicle.shock_added(sixes)}"


def _apc_key(net_hits: int, vehicle: VehicleTarget) -> str:
    return f"vehicle_shock={vehicle.shock_added(net_hits)}"


def grenade_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    g = p.grenade
    roller = Roller(dice)
    if g.vehicle == "apc_outside":
        return _resolve_apc(g, roller)
    log: list[str] = []
    values: dict[str, object] = {"throw": None, "throw_hit": g.throw.told_hit, "bullseye_dice": 0}
    if g.throw.told_hit is None:
        a, b = roller.roll_ints("Throw", D6, 2)
        hit = a + b >= g.throw.to_hit
        bullseye = g.throw.bullseye((a, b)) if hit else 0
        values.update(throw=[a, b], throw_hit=hit, bullseye_dice=bullseye)
        log.append(f"Throw {a} and {b} = {a + b}, needing {g.throw.to_hit}: " + ("in" if hit else "missed"))
    else:
        hit, bullseye = g.throw.told_hit, g.throw.told_bullseye
        values["bullseye_dice"] = bullseye
        log.append("The player says the throw " + ("landed inside" if hit else "missed"))
    if not hit:
        return Resolution("coc.grenade_into_vehicle", "missed", values, roller.rolls, [], log)
    count = g.firepower_dice + CONFINED_SPACE_DICE + bullseye
    log.append(f"{g.firepower_dice} Firepower Dice + {CONFINED_SPACE_DICE} for the confined space"
               + (f" + {bullseye} Bullseye!" if bullseye else "") + f" = {count}; no Armour Dice")
    effects = []
    if g.passengers is not None:
        volley = replace(g.passengers, dice=count)
        v = roll_volley(roller, volley)
        values.update(v.values())
        log.extend(describe_volley(v, volley))
        kills, shock, sixes = v.kills, v.shock, v.sixes
        effects.extend(target_effects(p.targets, v.team_kills, v.team_shock))
    else:
        rolled = roller.roll_ints("Firepower Dice", D6, count)
        kills = shock = 0
        sixes = sum(1 for d in rolled if d == PENETRATES_ON)
        values.update(hits=0, kills=0, shock=0, sixes=sixes, dice_rolled=count)
        log.append(f"Firepower Dice {' '.join(map(str, rolled))}: {counted(sixes, 'sixes')}")
    values.update(g.vehicle_target.values(sixes))
    log.extend(g.vehicle_target.describe(sixes))
    effects.extend(g.vehicle_target.effects(sixes))
    return Resolution("coc.grenade_into_vehicle", _open_topped_key(kills, shock, sixes, g.vehicle_target),
                      values, roller.rolls, effects, log)


def _resolve_apc(g: Grenade, roller: Roller) -> Resolution:
    rolled = roller.roll_ints("Firepower Dice", D6, g.firepower_dice)
    penetrating = sum(1 for d in rolled if d == PENETRATES_ON)
    armour = roller.roll_ints("Armour Dice", D6, g.armour_dice)
    saves = sum(1 for d in armour if d >= ARMOUR_SAVE)
    net = max(0, penetrating - saves)
    values: dict[str, object] = {"dice_rolled": g.firepower_dice, "sixes": penetrating,
                                 "penetrating_hits": penetrating, "saves": saves, "net_hits": net,
                                 **g.vehicle_target.values(net)}
    log = [f"Firepower Dice {' '.join(map(str, rolled)) or 'none'}: {counted(penetrating, 'penetrating hits')} "
           "(every 6; no Storm of Steel)",
           f"Armour Dice {' '.join(map(str, armour)) or 'none'}: {counted(saves, 'saves')}; {counted(net, 'net hits')}",
           *g.vehicle_target.describe(net)]
    return Resolution("coc.grenade_into_vehicle", _apc_key(net, g.vehicle_target), values, roller.rolls,
                      g.vehicle_target.effects(net), log)


@lru_cache(maxsize=1024)
def _odds(g: Grenade) -> Distribution[str]:
    vehicle = g.vehicle_target
    if g.vehicle == "apc_outside":
        net = successes(g.firepower_dice, PENETRATES_ON).convolve(successes(g.armour_dice, ARMOUR_SAVE),
                                                                  lambda x, s: max(0, x - s))
        return net.map(lambda n: _apc_key(n, vehicle))

    def after_throw(bullseye: int | None) -> Distribution[str]:
        if bullseye is None:
            return Distribution.certain("missed")
        count = g.firepower_dice + CONFINED_SPACE_DICE + bullseye
        if g.passengers is None:
            return successes(count, PENETRATES_ON).map(lambda x: _open_topped_key(0, 0, x, vehicle))
        volley = replace(g.passengers, dice=count)
        return volley_counts(volley, UNCAPPED).map(lambda c: _open_topped_key(c[0], c[1], c[2], vehicle))

    return g.throw.outcomes().bind(after_throw)


def grenade_odds(inputs: Inputs) -> Distribution[str]:
    g = _parse(inputs).grenade
    return _odds(Grenade(g.firepower_dice, g.vehicle, g.armour_dice, g.throw, g.passengers,
                         g.vehicle_target.for_odds()))


register(Procedure("coc.grenade_into_vehicle", "Grenade into a vehicle", grenade_resolve, grenade_odds,
                   ruleset=RULESET, settings=SETTINGS, better=counts("kills", "shock", "vehicle_shock"),
                   rolled_by=FIRER,
                   typical={"firepower_dice": 3, "vehicle": "open_topped", "passenger_teams": 2, "to_hit": 4},
                   largest={"firepower_dice": 3, "vehicle": "open_topped", "passenger_teams": 3, "to_hit": 4},
                   worst_best=("kills=0 shock=0 vehicle_shock=0", "kills=6 shock=0 vehicle_shock=6")))
