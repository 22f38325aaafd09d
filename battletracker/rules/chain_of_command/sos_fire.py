"""`coc.sos_fire`: SOS Fire from the mortars against one unit (or one AFV or APC) in its 6" circle.

Six Firepower Dice against each Team in the area, hitting on 4, 5 or 6 with
the Storm of Steel Bonus: `teams` Teams, either one unit made of them
(`target_id`, a Section of two Teams rolls twelve dice) or one unit each
(`target_ids`, each rolling its own six). Kills are capped at the figures
(`target_figures`) and a unit with none left is out of play, not Pinned. The
hits' effect is effect rolled against the Team's cover: area
terrain keeps its cover (no reduction) and a linear obstacle gives none. Then
every unit inside that is not in a building, entrenchment or fortification is
Pinned for the current and the next Phase. Visibility is not affected. AFVs
and APCs roll 2D6 (3D6 open-topped) instead, every 6 one Shock (doubled once
immobilised). Four 6s at a Team in a brick or stone building make the
building unstable.

The map decides who is inside (`sos_targets`); the app places the SOS Fire
record first (`new_sos`, which carries the pinning until it clears) and runs
the procedure once per target with `sos_inputs`. Outcome keys: `kills=K
shock=S` (with ` unstable` when the building would fall) for a Team,
`vehicle_shock=V` for a vehicle.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import replace
from functools import lru_cache

from battletracker.core import geometry
from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment_effects import AddBombardment
from battletracker.model.bombardment_effects import SetBombardmentPin
from battletracker.model.bombardment_effects import SetBuildingState
from battletracker.model.effects import AppendLog
from battletracker.model.effects import Effect
from battletracker.model.effects import SetCondition
from battletracker.model.game import Game
from battletracker.rules import register
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import InputValue
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import counted
from battletracker.rules.base import counts
from battletracker.rules.chain_of_command import storm_of_steel
from battletracker.rules.chain_of_command.area_fire import AreaTarget
from battletracker.rules.chain_of_command.area_fire import roll_target
from battletracker.rules.chain_of_command.area_fire import target_counts
from battletracker.rules.chain_of_command.area_fire import target_key
from battletracker.rules.chain_of_command.area_fire import total_counts
from battletracker.rules.chain_of_command.area_fire import volley_result
from battletracker.rules.chain_of_command.bombardment import PINNED
from battletracker.rules.chain_of_command.bombardment import carrier_of
from battletracker.rules.chain_of_command.bombardment import event
from battletracker.rules.chain_of_command.bombardment import get_bombardment
from battletracker.rules.chain_of_command.bombardment import is_transport
from battletracker.rules.chain_of_command.bombardment import observer_name
from battletracker.rules.chain_of_command.bombardment import unit_teams
from battletracker.rules.chain_of_command.bombardment import units_in_area
from battletracker.rules.chain_of_command.bombardment_data import RULESET
from battletracker.rules.chain_of_command.bombardment_data import data
from battletracker.rules.chain_of_command.bombardment_phase import bombardment_cover
from battletracker.rules.chain_of_command.buildings import building_of
from battletracker.rules.chain_of_command.damage import later_shock_doubled
from battletracker.rules.chain_of_command.fire import MAX_DICE
from battletracker.rules.chain_of_command.fire import MAX_TEAMS
from battletracker.rules.chain_of_command.fire import SETTINGS
from battletracker.rules.chain_of_command.fire import FireTables
from battletracker.rules.chain_of_command.fire import HitEffect
from battletracker.rules.chain_of_command.fire import Targets
from battletracker.rules.chain_of_command.fire import Volley
from battletracker.rules.chain_of_command.fire import cover_levels
from battletracker.rules.chain_of_command.fire import describe_volley
from battletracker.rules.chain_of_command.fire import keyed_volley_odds
from battletracker.rules.chain_of_command.fire import raise_cover
from battletracker.rules.chain_of_command.fire import read_id
from battletracker.rules.chain_of_command.fire import read_storm
from battletracker.rules.chain_of_command.fire import read_targets
from battletracker.rules.chain_of_command.fire import roll_volley
from battletracker.rules.chain_of_command.vehicle_target import VehicleTarget
from battletracker.rules.chain_of_command.vehicle_target import read_vehicle_target
from battletracker.rules.log_lines import recorded_point
from battletracker.rules.places import place_words
from battletracker.rules.terrain import TableIndex

VEHICLES = ("none", "closed", "open_topped")
BUILDINGS = ("none", "wood", "brick_stone")


@dataclass(frozen=True)
class SosInputs:
    target: AreaTarget
    targets: Targets
    pins: bool
    sos_id: str | None
    units: tuple[AreaTarget, ...] = ()
    teams: int = 1
    dice_per_team: int = 0
    """The infantry units under the fire, each with its own dice (one AreaTarget for a unit of several Teams)."""


def _parse(inputs: Inputs) -> SosInputs:
    d = data()
    r = InputReader(inputs)
    vehicle = r.choice("vehicle", VEHICLES, "none")
    storm = read_storm(r, r.bool("storm_of_steel", d.sos_storm_of_steel))
    tables = FireTables.read(r)
    vehicle_target = read_vehicle_target(r)
    sos_id = read_id(r, "sos_id")
    if vehicle != "none":
        dice = d.open_topped_dice if vehicle == "open_topped" else d.vehicle_dice
        r.finish()
        return SosInputs(AreaTarget("vehicle", "Vehicle", dice=dice, to_hit=6, storm=storm,
                                    unit_id=vehicle_target.vehicle_id, vehicle=vehicle_target), Targets(), False,
                         sos_id)
    if vehicle_target != VehicleTarget():
        raise RulesInputError("vehicle_id", "is for an AFV or APC target (vehicle closed or open_topped)")
    firepower_dice = r.int("firepower_dice", d.sos_firepower_dice, minimum=0, maximum=MAX_DICE)
    to_hit = r.int("to_hit", d.sos_to_hit, minimum=2, maximum=6)
    cover = r.choice("cover", cover_levels())
    reduce_by = r.int("reduce_cover", 0, minimum=0)
    if reduce_by:
        raise RulesInputError("reduce_cover", f"SOS Fire does not reduce the target's cover ({reduce_by} given)")
    if r.bool("linear_obstacle"):
        cover = cover_levels()[0]
    if r.bool("pinned"):
        cover = raise_cover(cover, 1)
    multiplier = r.int("shock_multiplier", 1, minimum=1, maximum=2)
    teams = r.int("teams", 1, minimum=1, maximum=MAX_TEAMS)
    targets = read_targets(r, teams, one_unit=True)
    in_building = r.bool("in_building")
    in_fortification = r.bool("in_fortification")
    material = r.choice("building", BUILDINGS, "none")
    building_id = read_id(r, "building_id")
    intact = r.bool("building_intact", True)
    r.finish()
    if (material != "none" or building_id is not None) and not in_building:
        raise RulesInputError("building", "names the Team's building, but in_building is false")
    if sos_id is not None and not targets.ids:
        raise RulesInputError("sos_id", "Pinning a Team needs its target_id")
    effect = HitEffect.for_cover(cover, multiplier, tables)
    collapse = material == "brick_stone" and intact
    separate = len(targets.ids) > 1
    count = teams if separate else 1
    per_unit = firepower_dice * (1 if separate else teams)
    units = tuple(
        AreaTarget("infantry", f"Team {i + 1}" if separate else "Team",
                   Volley(per_unit, to_hit, storm, effect, 1, targets.figures[i:i + 1]), storm=storm,
                   unit_id=targets.ids[i] if targets.ids else None,
                   figures=targets.figures[i] if targets.figures else None, can_collapse=collapse,
                   building_id=building_id)
        for i in range(count))
    return SosInputs(units[0], targets, not (in_building or in_fortification), sos_id, units, teams, firepower_dice)


def sos_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    t = p.target
    roller = Roller(dice)
    effects: list[Effect] = []
    if t.kind == "vehicle":
        fire = storm_of_steel.roll(roller, "Dice for Shock", t.dice, 6, t.storm)
        log = [f"SOS Fire on a vehicle: {t.dice}D6: {' '.join(map(str, fire.base))}"]
        if fire.extra:
            log.append(f"Storm of Steel dice: {' '.join(map(str, fire.extra))}")
        log.append(counted(fire.sixes, "sixes"))
        log.extend(t.vehicle.describe(fire.sixes))
        effects.extend(t.vehicle.effects(fire.sixes))
        counts = (0, 0, t.vehicle.shock_added(fire.sixes), 0)
        shock_values: dict[str, object] = {"sixes": fire.sixes, "dice_rolled": len(fire.all_dice),
                                           **t.vehicle.values(fire.sixes)}
        return Resolution("coc.sos_fire", target_key("vehicle", counts), shock_values, roller.rolls, effects, log)
    assert t.volley is not None
    log = [f"SOS Fire: {p.dice_per_team} Firepower Dice against each of {p.teams} Teams"] if p.teams > 1 else []
    unstable_sixes = data().unstable_sixes
    if len(p.units) == 1:
        v = roll_volley(roller, t.volley)
        lines = describe_volley(v, t.volley)
        log.extend(["SOS Fire: " + lines[0], *lines[1:]])
        results = [volley_result(t, v, unstable_sixes)]
        values: dict[str, object] = dict(v.values())
    else:
        results = [roll_target(roller, dice, unit, unstable_sixes) for unit in p.units]
        for result in results:
            log.extend(result.lines)
        values = {"sixes": max(r.sixes for r in results),
                  "team_kills": [r.kills for r in results], "team_shock": [r.shock for r in results]}
    for result in results:
        effects.extend(result.effects)
    kills, shock = sum(r.kills for r in results), sum(r.shock for r in results)
    unstable = any(r.unstable for r in results)
    if unstable and t.building_id is not None:
        effects.append(SetBuildingState(t.building_id, "unstable"))
    if unstable:
        log.append(f"{max(r.sixes for r in results)} sixes: the building becomes unstable and collapses at the "
                   "end of the Turn")
    out = {r.target.unit_id for r in results if r.target.figures is not None and r.kills >= r.target.figures}
    pinned = [unit_id for unit_id in p.targets.ids if unit_id not in out]
    if p.pins:
        if pinned or not p.targets.ids:
            log.append("Pinned for this Phase and the next")
        for unit_id in pinned:
            effects.append(SetCondition(unit_id, PINNED))
            if p.sos_id is not None:
                effects.append(SetBombardmentPin(p.sos_id, unit_id))
    else:
        log.append("Not Pinned: in a building, entrenchment or fortification")
    values.update(kills=kills, shock=shock, to_hit=t.volley.to_hit, cover=t.volley.effect.cover, pinned=p.pins,
                  unstable=unstable)
    return Resolution("coc.sos_fire", target_key("infantry", (kills, shock, 0, int(unstable))), values,
                      roller.rolls, effects, log)


@lru_cache(maxsize=1024)
def _odds(target: AreaTarget) -> Distribution[str]:
    """One target's keyed odds; a Team's straight from its volley's weights (`keyed_volley_odds`).

    With chained Storm of Steel dice twelve dice bring 480 hits: counting
    every (kills, Shock) of them before capping the kills at the figures
    makes 115,921 outcomes, where the Team's capped odds have a few thousand.
    """
    unstable_sixes = data().unstable_sixes
    if target.kind == "infantry" and target.volley is not None:
        collapse = target.can_collapse

        def unstable(sixes: int) -> str:
            return " unstable" if collapse and sixes >= unstable_sixes else ""

        return keyed_volley_odds(target.volley, unstable_sixes if collapse else 0, unstable)
    return target_counts(target, unstable_sixes).map(lambda c: target_key(target.kind, c))


@lru_cache(maxsize=1024)
def _units_odds(units: tuple[AreaTarget, ...]) -> Distribution[str]:
    return total_counts(units, data().unstable_sixes).map(lambda c: target_key("infantry", (*c[:3], min(c[3], 1))))


def sos_odds(inputs: Inputs) -> Distribution[str]:
    p = _parse(inputs)
    if len(p.units) > 1:
        return _units_odds(tuple(replace(u, name="", unit_id=None, figures=None) for u in p.units))
    return _odds(p.target.for_odds())


# The bombardment's side rolls; a building turning unstable counts after the kills and Shock.
register(Procedure("coc.sos_fire", "SOS Fire", sos_resolve, sos_odds, ruleset=RULESET,
                   settings=SETTINGS, better=counts("kills", "shock", "vehicle_shock", "unstable"),
                   rolled_by=("side",),
                   typical={"cover": "light"}, largest={"cover": "open", "teams": 2},
                   worst_best=("kills=0 shock=0", "kills=12 shock=0")))


# the SOS Fire on the table ------------------------------------------------------------------------------------


def new_sos(game: Game, side: int, centre: geometry.Point, sos_id: str | None = None) -> list[Effect]:
    """Place SOS Fire's 6" circle; it holds the units it Pins until the end of the next Phase."""
    if not 0 <= side < len(game.sides):
        raise RulesInputError("side", f"there is no side number {side + 1}")
    for key, value, limit in (("x", centre[0], game.table_width), ("y", centre[1], game.table_height)):
        if not -geometry.EPSILON <= value <= limit + geometry.EPSILON:
            raise RulesInputError(key, f"{value:g} is off the table (0 to {limit:g} inches)")
    bid = sos_id or game.new_id("sos", game.bombardments)
    if bid in game.bombardments:
        raise RulesInputError("sos_id", f"{bid!r} is already a bombardment")
    d = data()
    b = Bombardment(id=bid, side=side, kind="sos", state="lingering", x=centre[0], y=centre[1],
                    linger_phases=d.lingering.sos, shape="circle", radius=d.sos_radius,
                    firepower_dice=d.sos_firepower_dice, to_hit=d.sos_to_hit)
    b.history.append(event(game, "placed", f"SOS Fire on {recorded_point(centre)}, {d.sos_radius:g}\" radius",
                           centre))
    text = f"SOS Fire centred {place_words(game, centre)}, {d.sos_radius:g}\" radius"
    return [AddBombardment(b), AppendLog.now(game, f"{observer_name(game, b)}: {text}", "bombardment")]


def sos_targets(game: Game, sos_id: str) -> list[str]:
    """The Teams and AFVs/APCs inside the circle, in roster order (passengers and Transports are left out)."""
    b = _sos(game, sos_id)
    out: list[str] = []
    for unit_id in units_in_area(game, b):
        unit = game.units[unit_id]
        if carrier_of(game, unit) is None and not is_transport(unit):
            out.append(unit_id)
    return out


def _sos(game: Game, sos_id: str) -> Bombardment:
    b = get_bombardment(game, sos_id)
    if b.kind != "sos":
        raise RulesInputError("sos_id", f"{sos_id!r} is a {b.kind.replace('_', ' ')} bombardment, not SOS Fire")
    return b


def sos_inputs(game: Game, sos_id: str, unit_id: str, *, cover: str | None = None, linear_obstacle: bool = False,
               in_fortification: bool = False) -> dict[str, InputValue]:
    """The inputs of `coc.sos_fire` for one unit inside the circle.

    Its cover is the player's `cover`, else `bombardment_cover` (its card's,
    else the table's: area terrain kept, linear obstacles giving none).
    """
    b = _sos(game, sos_id)
    if unit_id not in game.units:
        raise RulesInputError("unit_id", f"no unit with id {unit_id!r}")
    unit = game.units[unit_id]
    if unit_id not in sos_targets(game, sos_id):
        raise RulesInputError("unit_id", f"{unit.name} is not a Team or AFV/APC inside {observer_name(game, b)}")
    inputs: dict[str, InputValue] = {"sos_id": b.id}
    for key in SETTINGS:
        if key in game.settings:
            inputs[key] = game.settings[key]
    if unit.vehicle is not None:
        inputs.update(vehicle="open_topped" if unit.vehicle.open_topped else "closed", vehicle_id=unit.id,
                      vehicle_current_shock=unit.shock,
                      vehicle_immobilised=later_shock_doubled(unit.vehicle.category, unit.vehicle.damage))
        inputs.pop("sos_id")
        return inputs
    if unit_teams(unit) > 1:
        inputs["teams"] = unit_teams(unit)
    inputs.update(cover=cover if cover is not None else bombardment_cover(TableIndex(game), unit).level,
                  linear_obstacle=linear_obstacle, pinned=unit.has(PINNED), target_id=unit.id,
                  target_figures=str(unit.figures), in_fortification=in_fortification,
                  firepower_dice=b.firepower_dice, to_hit=b.to_hit)
    building = building_of(game, unit.id)
    if building is not None:
        inputs.update(in_building=True, building=building.material, building_id=building.id,
                      building_intact=building.state == "intact")
    return inputs
