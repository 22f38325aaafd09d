"""What the table adds to fire at infantry: buildings, smoke and a firing vehicle's state.

The Fire dialog asks the player for what the table cannot know; these read
the rest from the game, Qt-free, so the derivation is tested on its own and
every dialog reads the table the same way:

- the building the target is recorded in (its occupants, as the bombardment
  reads them): four 6s of H.E. at a Unit in an intact brick or stone building
  make it unstable (`coc.gun_he`'s `building` inputs);
- smoke on the line of fire (a collapsed building's smoke, -1 to hit each);
  gun H.E. hits on 4+ "before any adjustments for smoke";
- an armoured vehicle firing machine guns or H.E. rolls one Firepower Die
  fewer per point of Shock, and with Optics Damaged fires H.E. at -1 to hit.

Each function returns the inputs it derives and a note for each fact, in the
player's words.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field

from battletracker.model.game import Game
from battletracker.model.game import Scalar
from battletracker.model.game import Unit
from battletracker.rules.chain_of_command.anti_tank import optics_damaged_modifier
from battletracker.rules.chain_of_command.buildings import COLLAPSE_SOURCE
from battletracker.rules.chain_of_command.buildings import building_of
from battletracker.rules.chain_of_command.vehicle_shock import firepower_after_shock
from battletracker.rules.terrain import SightReading
from battletracker.rules.terrain import TableIndex

OPTICS_DAMAGED = "optics_damaged"
VEHICLE_GUN_KINDS = ("tank_gun", "at_gun", "infantry_gun", "gun")
"""Vehicle weapons that fire H.E. at infantry, as a gun does (`coc.gun_he`)."""


@dataclass
class TableFacts:
    """Inputs read from the table for one shot, and a note per fact for the dialog."""

    inputs: dict[str, Scalar] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _material(material: str) -> str:
    return material.replace("_", " or ")


def target_building(game: Game, target: Unit) -> TableFacts:
    """The building the target is in, for H.E.: brick or stone standing intact can be made unstable."""
    facts = TableFacts()
    building = building_of(game, target.id)
    if building is None:
        return facts
    facts.inputs.update(target_in_building=True, building=building.material,
                        building_intact=building.state == "intact", building_id=building.id,
                        building_name=building.name)
    if building.material == "brick_stone" and building.state == "intact":
        facts.notes.append(f"{target.name} is in {building.name} (brick or stone): four 6s make it unstable")
    else:
        state = "" if building.state == "intact" else f", {building.state.replace('_', ' ')}"
        facts.notes.append(f"{target.name} is in {building.name} ({_material(building.material)}{state})")
    return facts


def smoke_on_the_line(game: Game, firer: Unit, target: Unit, reading: SightReading | None = None) -> TableFacts:
    """`to_hit_modifier` for the smoke the line of fire crosses, each area named.

    The smoke is the table's Line-of-Sight reading's (`reading`, else read
    from firer to target): smoke fired through without blocking sight.
    """
    facts = TableFacts()
    seen = reading if reading is not None else TableIndex(game).sight(firer, target)
    total = 0
    for smoke_id in seen.smoke:
        smoke = game.smoke.get(smoke_id)
        if smoke is None or not smoke.to_hit:
            continue
        total += smoke.to_hit
        source = game.buildings.get(smoke.source.removeprefix(COLLAPSE_SOURCE)) \
            if smoke.source.startswith(COLLAPSE_SOURCE) else None
        what = f"the smoke of the collapsed {source.name}" if source is not None else "smoke"
        facts.notes.append(f"Firing through {what}: {smoke.to_hit:+d} to hit")
    if total:
        facts.inputs["to_hit_modifier"] = total
    return facts


@dataclass(frozen=True)
class VehicleFire:
    """A vehicle's Firepower Dice after its Shock, and its to-hit adjustment for H.E."""

    dice: int
    to_hit_modifier: int
    notes: tuple[str, ...]


def vehicle_fire(vehicle: Unit, dice: int, he: bool) -> VehicleFire:
    """An armoured vehicle firing machine guns (`he` False) or H.E.: Shock costs dice, damaged optics cost H.E. a 1."""
    notes: list[str] = []
    after = firepower_after_shock(dice, vehicle.shock)
    if vehicle.shock:
        notes.append(f"{vehicle.shock} Shock on {vehicle.name}: {dice} Firepower Dice become {after} "
                     "(one fewer per point of Shock)")
    modifier = 0
    if he and vehicle.vehicle is not None and OPTICS_DAMAGED in vehicle.vehicle.damage:
        modifier = optics_damaged_modifier(he=True)
        notes.append(f"Optics damaged: {modifier:+d} to hit with H.E.")
    return VehicleFire(after, modifier, tuple(notes))


def gun_he_facts(game: Game, firer: Unit, target: Unit, he_dice: int,
                 reading: SightReading | None = None) -> TableFacts:
    """`he_dice`, `to_hit_modifier` and the building inputs of `coc.gun_he` from the table."""
    facts = TableFacts()
    modifier = 0
    if firer.is_vehicle:
        fired = vehicle_fire(firer, he_dice, he=True)
        he_dice, modifier = fired.dice, fired.to_hit_modifier
        facts.notes.extend(fired.notes)
    facts.inputs["he_dice"] = he_dice
    smoke = smoke_on_the_line(game, firer, target, reading)
    modifier += int(smoke.inputs.get("to_hit_modifier", 0))
    facts.notes.extend(smoke.notes)
    if modifier:
        facts.inputs["to_hit_modifier"] = modifier
    building = target_building(game, target)
    facts.inputs.update(building.inputs)
    facts.notes.extend(building.notes)
    return facts


@dataclass(frozen=True)
class VehicleWeapon:
    """One weapon position of a vehicle that fires at infantry: its gun's H.E. or a machine gun's dice."""

    index: int
    procedure: str
    dice: int
    heavy: bool = False


def _number(stats: dict[str, Scalar], key: str) -> int:
    value = stats.get(key, 0)
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def vehicle_weapons(vehicle: Unit) -> list[VehicleWeapon]:
    """A vehicle's weapons that fire at infantry, each on its own: guns fire H.E., machine guns their dice.

    A Heavy Machine Gun (kind hmg, or stats heavy) reduces the target's cover
    one level, as the documents say of Heavy Machine Guns.
    """
    out: list[VehicleWeapon] = []
    for i, w in enumerate(vehicle.weapons):
        if w.kind in VEHICLE_GUN_KINDS and _number(w.stats, "he") > 0:
            out.append(VehicleWeapon(i, "coc.gun_he", _number(w.stats, "he")))
        elif _number(w.stats, "firepower_dice") > 0:
            out.append(VehicleWeapon(i, "coc.fire", _number(w.stats, "firepower_dice"),
                                     w.kind == "hmg" or w.stats.get("heavy") is True))
    return out
