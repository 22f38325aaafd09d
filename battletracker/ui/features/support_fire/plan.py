"""From the cards and the table to a support-weapon procedure's inputs.

The Fire dialog asks the player only for what the table cannot tell it
(cover, troop quality, whether the team moved). Everything else is read here
from the game with the same geometry the rules use: which procedure the
firer's weapon calls for, the range and its band, the bearing for the 90
degree arc, the dice after figures are lost, fuel left, the target's figures.
Kept free of widgets so the derivation can be checked on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from battletracker.core.geometry import bearing, distance, range_band
from battletracker.model.bombardment import Building
from battletracker.model.game import Game, Scalar, Unit, Weapon
from battletracker.rules.chain_of_command import fire_table, flamethrowers, guns, machine_guns, snipers
from battletracker.rules.chain_of_command.damage import later_shock_doubled
from battletracker.rules.chain_of_command.fire import QUALITIES

TRIPOD_KINDS = ("mmg", "hmg")
SNIPER_KINDS = ("sniper", "sniper_rifle")
FLAME_KINDS = ("flamethrower",)
GUN_KINDS = ("at_gun", "infantry_gun", "gun")

PROCEDURE_TITLES = {
    "coc.fire": "Fire",
    "coc.tripod_mg": "Tripod MG fire",
    "coc.sniper": "Sniper shot",
    "coc.flamethrower": "Flamethrower",
    "coc.gun_he": "Gun H.E.",
}


def _number(weapon: Weapon, key: str) -> int:
    value = weapon.stats.get(key, 0)
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


@dataclass(frozen=True)
class FireWeapon:
    """One way this unit can fire: the procedure, the weapon (None: the unit's small arms together)."""

    procedure: str
    index: int | None
    title: str
    dice: int = 0
    heavy: bool = False


def fire_weapons(unit: Unit) -> list[FireWeapon]:
    """The unit's ways to fire at infantry, its support weapon first.

    Weapons with Firepower Dice that are not tripod MGs, snipers' rifles or
    flamethrowers are the unit's ordinary fire: their dice add up to the
    unit's Firepower Dice for `coc.fire`. A vehicle fires each weapon on its
    own: its gun's H.E., each machine gun's dice.
    """
    if unit.is_vehicle:
        out: list[FireWeapon] = []
        for vw in fire_table.vehicle_weapons(unit):
            w = unit.weapons[vw.index]
            title = f"{w.name} (H.E.)" if vw.procedure == "coc.gun_he" else f"{w.name} ({vw.dice} Firepower Dice)"
            out.append(FireWeapon(vw.procedure, vw.index, title, vw.dice, vw.heavy))
        return out
    special: list[FireWeapon] = []
    ordinary = 0
    for i, w in enumerate(unit.weapons):
        if w.kind in TRIPOD_KINDS:
            special.append(FireWeapon("coc.tripod_mg", i, f"{w.name} (tripod MG)"))
        elif w.kind in SNIPER_KINDS or (unit.kind == "sniper" and _number(w, "firepower_dice") > 0):
            special.append(FireWeapon("coc.sniper", i, f"{w.name} (sniper)"))
        elif w.kind in FLAME_KINDS:
            special.append(FireWeapon("coc.flamethrower", i, f"{w.name} (flamethrower)"))
        elif (w.kind in GUN_KINDS or unit.kind == "gun") and _number(w, "he") > 0:
            special.append(FireWeapon("coc.gun_he", i, f"{w.name} (H.E.)"))
        elif _number(w, "firepower_dice") > 0:
            ordinary += _number(w, "firepower_dice")
    if ordinary:
        special.append(FireWeapon("coc.fire", None, f"Small arms ({ordinary} Firepower Dice)", ordinary))
    return special


def can_fire(game: Game, unit: Unit) -> bool:
    return bool(fire_weapons(unit))


def targets_for(game: Game, firer: Unit) -> list[Unit]:
    """Units of the other sides, nearest first: what the target list offers."""
    here = (firer.x, firer.y)
    enemies = [u for u in game.units.values() if u.side != firer.side and u.in_play]
    return sorted(enemies, key=lambda u: (distance(here, (u.x, u.y)), u.name))


def default_cover(target: Unit) -> str:
    """Cover the target's card records as a condition, else the Open."""
    for level in ("hard", "light"):
        if any(level in c and "cover" in c for c in target.conditions):
            return level
    return "open"


def default_quality(target: Unit) -> str:
    quality = target.stats.get("quality")
    return quality if isinstance(quality, str) and quality in QUALITIES else "regular"


def sniper_target_kind(target: Unit) -> str:
    if target.is_vehicle:
        return "vehicle"
    if target.kind in ("support_weapon", "gun"):
        return "support"
    return "infantry"


def flamethrower_target_kind(target: Unit) -> str:
    return "transport" if target.is_vehicle else "infantry"


@dataclass(frozen=True)
class Choices:
    """What the player sets in the dialog; the rest comes from the table."""

    cover: str = "open"
    quality: str = "regular"
    range_band: str = ""
    firepower_dice: int | None = None
    moved: bool = False
    suppressing: bool = False
    frontage: float | None = None
    leader_attached: bool = False
    target_kind: str = ""
    target_in_building: bool = False
    # Further Teams sharing the hits, after the target, in the order they take any odd hit.
    extra_targets: tuple[str, ...] = ()


SHARED_HITS = ("coc.fire", "coc.tripod_mg", "coc.gun_he")
"""The procedures whose hits can be divided between several target Teams."""


def extra_target_candidates(game: Game, firer: Unit, target: Unit) -> list[Unit]:
    """Enemy Teams on foot that could share the hits with `target`, nearest to it first.

    The rules divide the hits between Teams of one target (a unit's Teams, or
    Teams close together); the player judges which, so every enemy Team is
    offered, the ones beside the target first. Snipers (fired at on their
    own, Shock ignored) and Teams carried in a vehicle are left out.
    """
    there = (target.x, target.y)
    teams = [u for u in game.units.values()
             if u.side != firer.side and u.id != target.id and u.in_play and not u.is_vehicle and u.kind != "sniper"
             and "embarked_in" not in u.stats]
    return sorted(teams, key=lambda u: (distance(there, (u.x, u.y)), u.name))


def target_teams(game: Game, target: Unit, choices: Choices) -> list[Unit]:
    """The target and the further Teams still on the table, each once."""
    teams = [target]
    for unit_id in choices.extra_targets:
        unit = game.units.get(unit_id)
        if unit is not None and all(unit.id != t.id for t in teams):
            teams.append(unit)
    return teams


@dataclass
class Plan:
    """The inputs for one procedure, what was derived (for the dialog to show), and any refusal."""

    procedure: str
    inputs: dict[str, Scalar] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    refusal: str = ""
    range: float = 0.0
    band: str = ""
    # A sniper target: kills remove it whole and call a Force Morale Test, Shock is ignored.
    sniper_target: bool = False


def derived_band(weapon: Weapon | None, unit: Unit, dist: float) -> str:
    """Close in the weapon's first range band, Effective beyond it; "" past its longest band."""
    bands = list(weapon.ranges) if weapon is not None and weapon.ranges else unit.range_bands()
    if not bands:
        return "close"
    index = range_band(dist, bands)
    if index is None:
        return ""
    return "close" if index == 0 else "effective"


def plan_fire(game: Game, firer: Unit, fw: FireWeapon, target: Unit, choices: Choices) -> Plan:
    """The procedure inputs for `firer` shooting at `target` with `fw`, given the player's choices."""
    here, there = (firer.x, firer.y), (target.x, target.y)
    dist = distance(here, there)
    weapon = firer.weapon(fw.index) if fw.index is not None else None
    band = choices.range_band or derived_band(weapon, firer, dist)
    plan = Plan(fw.procedure, range=dist, band=band)
    plan.notes.append(f'Range {dist:.1f}"')
    if target.kind == "sniper" and fw.procedure != "coc.sniper":
        if not target.has(snipers.SPOTTED):
            plan.refusal = (f"{target.name} is a sniper that has not been spotted: it cannot be targeted "
                            "(mark it Spotted on its card first)")
        plan.sniper_target = True
    if fw.procedure == "coc.sniper":
        _plan_sniper(plan, firer, target, choices)
        return plan
    if fw.procedure == "coc.flamethrower":
        assert weapon is not None
        _plan_flamethrower(plan, game, firer, fw, weapon, target, choices, dist)
        return plan
    if not band and not plan.refusal:
        longest = max(weapon.ranges if weapon is not None and weapon.ranges else firer.range_bands())
        plan.refusal = f'{target.name} is {dist:.1f}" away, beyond the longest range band ({longest:g}")'
    inputs = plan.inputs
    inputs.update(cover=choices.cover, target_id=target.id, target_figures=str(target.figures))
    teams = target_teams(game, target, choices) if fw.procedure in SHARED_HITS else [target]
    if len(teams) > 1:
        del inputs["target_id"]
        inputs.update(teams=len(teams), target_ids=",".join(t.id for t in teams),
                      target_figures=",".join(str(t.figures) for t in teams))
        plan.notes.append(f"Hits shared by {len(teams)} Teams: " + ", ".join(t.name for t in teams)
                          + " (the first listed take any odd hit)")
    if fw.procedure == "coc.gun_he":
        assert weapon is not None
        table = fire_table.gun_he_facts(game, firer, target, _number(weapon, "he"))
        inputs["target_in_building"] = choices.target_in_building
        inputs.update(table.inputs)
        if firer.is_vehicle:
            # A vehicle's gun is not a gun team: the three crew rule is not for it, and its turret turns.
            inputs["crew"] = max(guns.FULL_CREW, firer.figures)
        else:
            inputs.update(crew=max(1, firer.figures), barrel_facing=firer.facing,
                          target_bearing=bearing(here, there), firer_id=firer.id)
            if not guns.gun_can_move(firer.figures):
                plan.notes.append(f"Only {firer.figures} crew: the gun cannot move, but fires inside its arc")
        plan.notes.append(f"{table.inputs['he_dice']} H.E. dice at Close Range (4+), cover reduced one level")
        plan.notes.extend(table.notes)
        return plan
    inputs.update(range_band=band or "effective", target_quality=choices.quality)
    if fw.procedure == "coc.tripod_mg":
        assert weapon is not None
        base = _number(weapon, "firepower_dice") or machine_guns.TRIPOD_MG_DICE
        heavy = weapon.kind == "hmg" or weapon.stats.get("heavy") is True
        dice, lost = machine_guns.tripod_dice(base, firer.figures)
        inputs.update(firepower_dice=base, figures=max(1, firer.figures), heavy=heavy,
                      barrel_facing=firer.facing, target_bearing=bearing(here, there), firer_id=firer.id)
        if choices.suppressing:
            inputs["suppressing"] = True
            if choices.frontage is not None:
                inputs["frontage"] = choices.frontage
            elif len(teams) == 2:
                gap = distance((teams[0].x, teams[0].y), (teams[1].x, teams[1].y))
                inputs["team_gap"] = round(gap, 2)
                plan.notes.append(f'Suppressing two Teams {gap:.1f}" apart (centre to centre on the map)')
        plan.notes.append(f"{dice} Firepower Dice" + (f" ({lost} lost: down to one figure)" if lost else ""))
        if heavy:
            plan.notes.append("Heavy MG: cover reduced one level")
        return plan
    dice = choices.firepower_dice if choices.firepower_dice is not None else fw.dice
    if firer.is_vehicle:
        fired = fire_table.vehicle_fire(firer, dice, he=False)
        plan.notes.extend(fired.notes)
        dice = fired.dice
        if fw.heavy:
            inputs["reduce_cover"] = 1
            plan.notes.append("Heavy MG: cover reduced one level")
    inputs["firepower_dice"] = dice
    plan.notes.append(f"{dice} Firepower Dice")
    return plan


def _plan_sniper(plan: Plan, firer: Unit, target: Unit, choices: Choices) -> None:
    kind = choices.target_kind or sniper_target_kind(target)
    plan.inputs.update(target_kind=kind, leader_attached=choices.leader_attached, suppressing=choices.suppressing,
                       firer_id=firer.id)
    if kind in ("infantry", "support", "bunker"):
        plan.inputs.update(target_id=target.id, target_figures=str(target.figures))
    shots = firer.counters.get(snipers.SHOTS_COUNTER, 0)
    plan.notes.append(f"Hits on {snipers.TO_HIT_BUNKER if kind == 'bunker' else snipers.TO_HIT}+ at any range; "
                      f"{shots} shot(s) fired so far")


def building_of(game: Game, unit: Unit) -> Building | None:
    """The map building the unit is in: listed as an occupant, or standing inside its footprint."""
    for building in game.buildings.values():
        if unit.id in building.occupants or building.contains((unit.x, unit.y)):
            return building
    return None


def occupants_of(game: Game, building: Building) -> list[Unit]:
    """The units in play inside the building: who must evacuate when it catches fire."""
    return [u for u in game.units.values()
            if u.in_play and (u.id in building.occupants or building.contains((u.x, u.y)))]


def _plan_building(plan: Plan, game: Game, target: Unit) -> None:
    """A flamethrower at the wooden building the target is in: two 6s set it on fire and everyone leaves."""
    plan.inputs.update(target_id=target.id, target_figures=str(target.figures))
    building = building_of(game, target)
    if building is None:
        plan.notes.append(f"{target.name} is not inside a building on the map: the fire is resolved, "
                          "set the building alight by hand if it catches")
        return
    if building.material != "wood":
        plan.refusal = (f"{building.name} is built of {building.material.replace('_', ' ')}: "
                        "only a wooden building catches fire")
        return
    plan.inputs["building_id"] = building.id
    inside = ", ".join(u.name for u in occupants_of(game, building))
    plan.notes.append(f"Two or more 6s set {building.name} on fire; then {inside} must evacuate")


def _plan_flamethrower(plan: Plan, game: Game, firer: Unit, fw: FireWeapon, weapon: Weapon, target: Unit,
                       choices: Choices, dist: float) -> None:
    kind = choices.target_kind or flamethrower_target_kind(target)
    fuel = weapon.ammo if weapon.ammo is not None else flamethrowers.FUEL_PHASES
    inputs = plan.inputs
    inputs.update(range=round(dist, 2), moved=choices.moved, fuel=fuel, target_kind=kind,
                  range_band=plan.band or "close", target_quality=choices.quality, firer_id=firer.id,
                  weapon_index=fw.index or 0)
    if kind == "transport" and target.vehicle is not None:
        inputs.update(vehicle_id=target.id, vehicle_current_shock=target.shock,
                      vehicle_immobilised=later_shock_doubled(target.vehicle.category, target.vehicle.damage))
    elif kind == "infantry":
        inputs.update(target_id=target.id, target_figures=str(target.figures))
    elif kind == "wooden_building":
        _plan_building(plan, game, target)
    dice = flamethrowers.DICE_AFTER_MOVING if choices.moved else flamethrowers.DICE
    plan.notes.append(f"{dice} Firepower Dice, cover ignored, Shock doubled; fuel {fuel} of "
                      f"{weapon.ammo_max or flamethrowers.FUEL_PHASES}")
