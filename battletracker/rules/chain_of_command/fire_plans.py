"""Support-weapon and small-arms fire at infantry read from the table: which procedure, which inputs, and why.

The procedures (`coc.fire`, `coc.tripod_mg`, `coc.sniper`, `coc.flamethrower`,
`coc.gun_he` for the H.E. of guns, vehicles' guns and infantry anti-tank weapons)
take plain numbers; this module reads them from the game so
that no dialog has to: which procedure the firer's weapon calls for, the
range and its band, the bearing for a tripod MG's or gun's arc, the dice
after figures are lost or Shock on a vehicle, fuel left, the target's
figures, the Teams sharing the hits and the gap between them, the building
and smoke, and whether the target is a spotted sniper.

`plan_fire(game, choices)` takes the player's choices as a plain mapping:
`firer`, `target` (unit ids), `targets` (further Team ids sharing the hits,
comma separated, in the order they take any odd hit), `weapon` (the weapon's
name on the card; `SMALL_ARMS` for the unit's ordinary fire; none: its first
way to fire) and the overrides a dialog offers: `cover`, `target_quality`,
`range_band`, `firepower_dice`, `moved`, `suppressing`, `frontage`,
`leader_attached`, `target_kind`, `target_in_building`. Cover and Line
of Sight come from the table (rules/terrain.py): `cover` overrides the
reading, `cover_reason` says why (both logged; each further Team's cover is
read the same way, `cover.<id>` and `cover_reason.<id>` overriding it), and
`sight` True fires at a
target the table reads out of sight, `sight_reason` saying why. It returns a
`ShotPlan` (the procedure, its inputs and the facts a dialog shows) or
raises `ShotRefusal`, whose text is a sentence for the player.
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.core.geometry import EPSILON
from battletracker.core.geometry import angle_between
from battletracker.core.geometry import aspect
from battletracker.core.geometry import bearing
from battletracker.core.geometry import distance
from battletracker.core.geometry import range_band
from battletracker.model.bombardment import Building
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.model.game import Weapon
from battletracker.rules.base import InputValue
from battletracker.rules.base import counted
from battletracker.rules.chain_of_command import arc_of_fire
from battletracker.rules.chain_of_command import fire_table
from battletracker.rules.chain_of_command import flamethrowers
from battletracker.rules.chain_of_command import guns
from battletracker.rules.chain_of_command import machine_guns
from battletracker.rules.chain_of_command import snipers
from battletracker.rules.chain_of_command.anti_tank_plans import ShotPlan
from battletracker.rules.chain_of_command.anti_tank_plans import ShotRefusal
from battletracker.rules.chain_of_command.anti_tank_plans import check_bombardment
from battletracker.rules.chain_of_command.anti_tank_plans import passengers_of
from battletracker.rules.chain_of_command.damage import later_shock_doubled
from battletracker.rules.chain_of_command.fire import MAX_DICE
from battletracker.rules.chain_of_command.fire import MAX_TEAMS
from battletracker.rules.chain_of_command.fire import QUALITIES
from battletracker.rules.chain_of_command.fire import RANGE_BANDS
from battletracker.rules.chain_of_command.fire import TABLE_SETTINGS
from battletracker.rules.chain_of_command.fire import FireTables
from battletracker.rules.chain_of_command.fire import cover_levels
from battletracker.rules.choices import Choices
from battletracker.rules.choices import chosen_flag
from battletracker.rules.choices import chosen_text
from battletracker.rules.choices import chosen_unit
from battletracker.rules.choices import chosen_whole
from battletracker.rules.choices import chosen_word
from battletracker.rules.terrain import CoverReading
from battletracker.rules.terrain import SightReading
from battletracker.rules.terrain import TableIndex
from battletracker.rules.terrain import cover_override
from battletracker.rules.terrain import sight_override
from battletracker.rules.terrain import sight_within

TRIPOD_KINDS = ("mmg", "hmg")
SNIPER_KINDS = ("sniper", "sniper_rifle")
FLAME_KINDS = ("flamethrower",)
GUN_KINDS = ("at_gun", "infantry_gun", "gun")
INFANTRY_AT_KINDS = ("infantry_at",)
"""Portable anti-tank weapons: those with H.E. dice fire them at infantry ("The H.E. Firing Dice are used when
firing against Infantry targets", 001)."""
SMALL_ARMS = "Small arms"
"""The `weapon` choice for a unit's ordinary fire: the Firepower Dice of its weapons together."""

PROCEDURE_TITLES = {
    "coc.fire": "Fire",
    "coc.tripod_mg": "Tripod MG fire",
    "coc.sniper": "Sniper shot",
    "coc.flamethrower": "Flamethrower",
    "coc.gun_he": "H.E. fire",
}
SHARED_HITS = ("coc.fire", "coc.tripod_mg", "coc.gun_he")
"""The procedures whose hits can be divided between several target Teams."""


def _number(weapon: Weapon, key: str) -> int:
    value = weapon.stats.get(key, 0)
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def _inches(value: float) -> str:
    return f"{value:.1f}\""


@dataclass(frozen=True)
class FireWeapon:
    """One way this unit can fire: the procedure, the weapon (None: the unit's small arms together)."""

    procedure: str
    index: int | None
    title: str
    name: str
    dice: int = 0
    heavy: bool = False
    he_kind: str = ""
    """For `coc.gun_he`: who fires the H.E. (guns.GUN, a vehicle's gun too, or INFANTRY_AT), which rule its hits
    follow."""


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
            he_kind = guns.GUN if vw.procedure == "coc.gun_he" else ""
            out.append(FireWeapon(vw.procedure, vw.index, title, w.name, vw.dice, vw.heavy, he_kind))
        return out
    special: list[FireWeapon] = []
    ordinary = 0
    for i, w in enumerate(unit.weapons):
        if w.kind in TRIPOD_KINDS:
            special.append(FireWeapon("coc.tripod_mg", i, f"{w.name} (tripod MG)", w.name))
        elif w.kind in SNIPER_KINDS or (unit.kind == "sniper" and _number(w, "firepower_dice") > 0):
            special.append(FireWeapon("coc.sniper", i, f"{w.name} (sniper)", w.name))
        elif w.kind in FLAME_KINDS:
            special.append(FireWeapon("coc.flamethrower", i, f"{w.name} (flamethrower)", w.name))
        elif (w.kind in GUN_KINDS or unit.kind == "gun") and _number(w, "he") > 0:
            special.append(FireWeapon("coc.gun_he", i, f"{w.name} (H.E.)", w.name, he_kind=guns.GUN))
        elif w.kind in INFANTRY_AT_KINDS and _number(w, "he") > 0:
            special.append(FireWeapon("coc.gun_he", i, f"{w.name} (H.E.)", w.name, he_kind=guns.INFANTRY_AT))
        elif _number(w, "firepower_dice") > 0:
            ordinary += _number(w, "firepower_dice")
    if ordinary:
        special.append(FireWeapon("coc.fire", None, f"{SMALL_ARMS} ({ordinary} Firepower Dice)", SMALL_ARMS,
                                  ordinary))
    return special


def small_arms_dice(unit: Unit) -> int:
    """The unit's ordinary Firepower Dice (its weapons' together), at least one: what a grenade thrower starts with."""
    ordinary = [fw.dice for fw in fire_weapons(unit) if fw.procedure == "coc.fire"]
    return ordinary[0] if ordinary else 1


def can_fire(game: Game, unit: Unit) -> bool:
    return bool(fire_weapons(unit))


def is_sniper(unit: Unit) -> bool:
    return unit.kind == "sniper" or any(w.kind in SNIPER_KINDS for w in unit.weapons)


def has_flamethrower(unit: Unit) -> bool:
    return any(w.kind in FLAME_KINDS for w in unit.weapons)


def targets_for(game: Game, firer: Unit) -> list[Unit]:
    """Units of the other sides, nearest first, what the target list offers; a sniper not yet spotted comes last.

    It cannot be fired at until spotted, so it is never the target a dialog opens on.
    """
    here = (firer.x, firer.y)
    enemies = [u for u in game.units.values() if u.side != firer.side and u.in_play]
    return sorted(enemies, key=lambda u: (u.kind == "sniper" and not u.has(snipers.SPOTTED),
                                          distance(here, (u.x, u.y)), u.name))


def card_cover(target: Unit) -> str | None:
    """Cover the target's card records as a condition ("hard cover", "in light cover"), None if none."""
    for level in ("hard", "light"):
        if any(level in c and "cover" in c for c in target.conditions):
            return level
    return None


def default_cover(game: Game, firer: Unit, target: Unit) -> CoverReading:
    """The target's cover against the firer: its card's cover condition, else the table's reading.

    The table gives the cover of the area terrain or building the target
    stands in and of a linear obstacle close in front of it
    (rules/terrain.py, the levels and kinds in terrain.toml, each a default
    to check: the seeds name Light and Hard Cover without saying what gives
    which).
    """
    level = card_cover(target)
    if level is not None:
        return CoverReading(level, f"{level.capitalize()} cover: on {target.name}'s card")
    return TableIndex(game).cover_against(firer, target)


SNIPER_SIGHT_RADIUS = 3.0
"""Snipers: "Line of Sight is measured from any point within 3" of the centre of the Sniper base" (000)."""


def line_of_sight(game: Game, firer: Unit, target: Unit, procedure: str) -> SightReading:
    """The table's Line of Sight for this shot.

    From the firer's centre: a Team fires at what it sees, and of a tripod MG
    or a gun "Only the gunner requires Line of Sight to fire at a target"
    (000), the gunner standing at the team's centre on the map. A sniper's
    from any point within 3" of its centre (000), sampled by `sight_within`.
    """
    index = TableIndex(game)
    if procedure == "coc.sniper":
        return sight_within(index, firer, SNIPER_SIGHT_RADIUS, target)
    return index.sight(firer, target)


def _judge_sight(game: Game, firer: Unit, target: Unit, procedure: str, choices: Choices,
                 facts: list[str], log: list[str]) -> SightReading:
    """Refuse a shot the table sees no Line of Sight for, unless the player gives sight (`sight`, logged)."""
    reading = line_of_sight(game, firer, target, procedure)
    if reading.clear:
        if reading.reason != "Line of Sight clear":
            facts.append(reading.reason)
        return reading
    if not chosen_flag(choices, "sight", refusal=ShotRefusal):
        raise ShotRefusal("sight", f"{reading.reason}. If {firer.name} can see {target.name} on the real table, "
                                   "tick Line of Sight to fire anyway.")
    log.append(sight_override(reading, chosen_text(choices, "sight_reason")))
    facts.append(f"{reading.reason} (Line of Sight given by the player)")
    return reading


def judge_cover(game: Game, firer: Unit, target: Unit, choices: Choices, facts: list[str],
                 log: list[str], named: bool = False) -> str:
    """The cover: the player's `cover` if given (logged with `cover_reason` when it differs), else the reading.

    `named`: other Teams share the hits, each with its own cover, so the fact names the target.
    """
    reading = default_cover(game, firer, target)
    cover = chosen_word(choices, "cover", cover_levels(), reading.level, "Cover", refusal=ShotRefusal)
    changed = cover_override(reading, cover, chosen_text(choices, "cover_reason"))
    if changed is not None:
        log.append(changed)
    facts.append(f"{target.name}: {changed or reading.reason}" if named else changed or reading.reason)
    return cover


def _judge_team_cover(game: Game, firer: Unit, team: Unit, choices: Choices, facts: list[str],
                      log: list[str]) -> str:
    """A further Team's own cover, read as the target's is: `cover.<id>` overrides the reading, logged with
    `cover_reason.<id>` under the Team's name."""
    reading = default_cover(game, firer, team)
    cover = chosen_word(choices, f"cover.{team.id}", cover_levels(), reading.level, f"{team.name}'s cover",
                        refusal=ShotRefusal)
    changed = cover_override(reading, cover, chosen_text(choices, f"cover_reason.{team.id}"))
    facts.append(f"{team.name}: {changed or reading.reason}")
    if changed is not None:
        log.append(f"{team.name}: {changed}")
    return cover


def at_a_sniper(target: Unit) -> bool:
    """Whether the target is a sniper, which only a spotted one may be: an unspotted one is refused."""
    if target.kind != "sniper":
        return False
    if not target.has(snipers.SPOTTED):
        raise ShotRefusal("target", f"{target.name} is a sniper that has not been spotted: it cannot be "
                                    "targeted (mark it Spotted on its card first).")
    return True


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


def default_target_kind(procedure: str, target: Unit) -> str:
    """What the sniper or flamethrower fires at when the player does not say: read from the target's card."""
    if procedure == "coc.sniper":
        return sniper_target_kind(target)
    return flamethrower_target_kind(target)


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


def target_teams(game: Game, firer: Unit, target: Unit, extra: str | None) -> list[Unit]:
    """The target and the further Teams named in `extra` (comma separated), each once, in that order."""
    teams = [target]
    if not extra:
        return teams
    offered = {u.id: u for u in extra_target_candidates(game, firer, target)}
    for unit_id in (part.strip() for part in extra.split(",")):
        if not unit_id or any(unit_id == t.id for t in teams):
            continue
        unit = offered.get(unit_id)
        if unit is None:
            other = game.units.get(unit_id)
            who = other.name if other is not None else "That Team"
            raise ShotRefusal("targets", f"{who} cannot share the hits: only an enemy Team on foot, in play and "
                                         "not a sniper, can.")
        teams.append(unit)
    return teams


def building_at(game: Game, unit: Unit) -> Building | None:
    """The map building the unit is in: listed as an occupant, or standing inside its footprint."""
    for building in game.buildings.values():
        if unit.id in building.occupants or building.contains((unit.x, unit.y)):
            return building
    return None


def occupants_of(game: Game, building: Building) -> list[Unit]:
    """The units in play inside the building: who must evacuate when it catches fire."""
    return [u for u in game.units.values()
            if u.in_play and (u.id in building.occupants or building.contains((u.x, u.y)))]


def derived_band(weapon: Weapon | None, unit: Unit, dist: float) -> str:
    """Close in the weapon's first range band, Effective beyond it; "" past its longest band."""
    bands = list(weapon.ranges) if weapon is not None and weapon.ranges else unit.range_bands()
    if not bands:
        return "close"
    index = range_band(dist, bands)
    if index is None:
        return ""
    return "close" if index == 0 else "effective"


# -- reading the choices ------------------------------------------------------------------------------------------

def fire_weapon(firer: Unit, choices: Choices) -> FireWeapon:
    """The way to fire the player picked by the weapon's name; none picked: the unit's first."""
    found = fire_weapons(firer)
    if not found:
        raise ShotRefusal("weapon", f"{firer.name} has no weapon that fires at infantry.")
    name = choices.get("weapon")
    if name is None or name == "":
        return found[0]
    for fw in found:
        if fw.name == name:
            return fw
    raise ShotRefusal("weapon", f"{firer.name} has no weapon called {name} that fires at infantry.")


# -- the plan -------------------------------------------------------------------------------------------------------

def plan_fire(game: Game, choices: Choices) -> ShotPlan:
    """Read the table for `firer` firing its chosen weapon at `target` (and any further Teams)."""
    firer = chosen_unit(game, choices, "firer", "firing unit", in_play=True, refusal=ShotRefusal)
    target = chosen_unit(game, choices, "target", "target", in_play=True, enemy_of=firer, refusal=ShotRefusal)
    check_bombardment(game, firer, target)
    fw = fire_weapon(firer, choices)
    weapon = firer.weapon(fw.index) if fw.index is not None else None
    here, there = (firer.x, firer.y), (target.x, target.y)
    dist = distance(here, there)
    band = (chosen_word(choices, "range_band", RANGE_BANDS, "", "The range band", refusal=ShotRefusal)
            or derived_band(weapon, firer, dist))
    facts: list[str] = [f"Range {_inches(dist)}" + (f" — {band.capitalize()}" if band and fw.procedure not in
                                                      ("coc.sniper", "coc.gun_he") else "")]
    inputs: dict[str, InputValue] = {}
    sniper_target = fw.procedure != "coc.sniper" and at_a_sniper(target)
    if sniper_target:
        inputs["sniper_target"] = True
        facts.append(f"{target.name} is a spotted sniper: it ignores Shock, and one kill removes it "
                     "(its side takes a Force Morale Test)")
    log: list[str] = []
    seen = _judge_sight(game, firer, target, fw.procedure, choices, facts, log)
    if fw.procedure == "coc.sniper":
        _plan_sniper(inputs, facts, firer, target, choices)
        return ShotPlan(fw.procedure, inputs, tuple(facts), tuple(log))
    if fw.procedure == "coc.flamethrower":
        assert weapon is not None
        _plan_flamethrower(inputs, facts, game, firer, fw, weapon, target, choices, dist, band)
        return ShotPlan(fw.procedure, inputs, tuple(facts), tuple(log))
    if not band:
        longest = max(weapon.ranges if weapon is not None and weapon.ranges else firer.range_bands())
        raise ShotRefusal("target", f"{target.name} is {_inches(dist)} away, beyond the longest range band "
                                    f"({longest:g}\").")
    if target.is_vehicle:
        return _plan_at_vehicle(firer, fw, weapon, target, choices, facts, log)
    extra = choices.get("targets")
    teams = (target_teams(game, firer, target, extra if isinstance(extra, str) else None)
             if fw.procedure in SHARED_HITS else [target])
    cover = judge_cover(game, firer, target, choices, facts, log, named=len(teams) > 1)
    inputs.update(cover=cover, target_id=target.id, target_figures=str(target.figures))
    if len(teams) > 1:
        if sniper_target:
            others = ", ".join(t.name for t in teams[1:])
            raise ShotRefusal("targets", f"A spotted sniper is fired at on its own: {others} cannot share the "
                                         "hits.")
        del inputs["target_id"]
        inputs.update(teams=len(teams), target_ids=",".join(t.id for t in teams),
                      target_figures=",".join(str(t.figures) for t in teams),
                      target_names="\n".join(t.name for t in teams))
        facts.append(f"Hits shared by {len(teams)} Teams: " + ", ".join(t.name for t in teams)
                     + " (the first listed take any odd hit)")
        covers = [cover, *(_judge_team_cover(game, firer, team, choices, facts, log) for team in teams[1:])]
        if len(set(covers)) > 1:
            inputs["team_cover"] = ",".join(covers)
    if fw.procedure == "coc.gun_he":
        assert weapon is not None
        _plan_gun_he(inputs, facts, game, firer, fw, weapon, target, choices, seen, dist)
        return ShotPlan(fw.procedure, inputs, tuple(facts), tuple(log))
    quality = chosen_word(choices, "target_quality", QUALITIES, default_quality(target), "Troop quality",
                          refusal=ShotRefusal)
    inputs.update(range_band=band, target_quality=quality)
    if fw.procedure == "coc.tripod_mg":
        assert weapon is not None
        _plan_tripod(inputs, facts, firer, weapon, target, teams, choices)
        return ShotPlan(fw.procedure, inputs, tuple(facts), tuple(log))
    dice = chosen_whole(choices, "firepower_dice", "Firepower Dice", fw.dice, minimum=0, maximum=MAX_DICE,
                        refusal=ShotRefusal)
    if firer.is_vehicle:
        fired = fire_table.vehicle_fire(firer, dice, he=False)
        facts.extend(fired.notes)
        dice = fired.dice
        if fw.heavy:
            inputs["reduce_cover"] = 1
            facts.append("Heavy MG: cover reduced one level")
    inputs["firepower_dice"] = dice
    facts.append(f"{dice} Firepower Dice")
    return ShotPlan(fw.procedure, inputs, tuple(facts), tuple(log))


NO_AP_AT_AFV = "coc.armour_save_only"
NO_AP_AT_APC = "coc.grenade_into_vehicle"
PROCEDURE_TITLES.update({NO_AP_AT_AFV: "Fire at an AFV (no A.P.)", NO_AP_AT_APC: "Fire at an APC (6s penetrate)"})
UNDER_SUPPRESSING_FIRE = "suppressed"
"""The card condition of a unit under Suppressing Fire: its fire at an AFV adds 1 to each of the Armour Dice (001)."""


def _plan_at_vehicle(firer: Unit, fw: FireWeapon, weapon: Weapon | None, target: Unit, choices: Choices,
                     facts: list[str], log: list[str]) -> ShotPlan:
    """Fire with no A.P. Strike Dice at an armoured vehicle: never kills and Shock as at infantry (001, Section 16).

    At an APC "Any 6's rolled cause a Penetrating Hit on the APC. No Storm of
    Steel Bonus applies. The APC rolls its Armour Dice to attempt to save
    these. Any net hits cause one point of Shock on the APC" (the Armour Dice
    of the face the fire strikes). At an AFV "The firing Team has no A.P.
    Strike Dice and consequently automatically achieves zero penetrating hits.
    The target vehicle now rolls its Armour Dice as though being hit on its
    frontal armour, adding +1 to each dice if the weapon firing is under
    Suppressing Fire. If the target vehicle makes no Armour Saves, roll a D6 on
    the relevant Vehicle Damage table using the Equal Hits & Saves results."
    H.E. at a vehicle the documents do not give: the anti-tank dialog fires A.P.
    """
    card = target.vehicle
    assert card is not None
    whose = firer.name if weapon is None or weapon.name == firer.name else f"{firer.name}'s {weapon.name}"
    if fw.procedure not in ("coc.fire", "coc.tripod_mg"):
        raise ShotRefusal("target", f"{target.name} is an armoured vehicle: fire A.P. at it with Anti-tank fire; "
                                    "the documents give no H.E. fire at vehicles.")
    if fw.procedure == "coc.tripod_mg":
        off = angle_between(firer.facing, bearing((firer.x, firer.y), (target.x, target.y)))
        if off > arc_of_fire.HALF_ARC + EPSILON:
            raise ShotRefusal("target", f"{target.name} is {round(off)}° off the barrel of {whose}, outside its arc "
                                        f"of fire ({arc_of_fire.HALF_ARC:g}° either side).")
    shock = later_shock_doubled(card.category, card.damage)
    if card.category == "apc":
        dice = _vehicle_fire_dice(firer, fw, weapon, choices, facts)
        face = aspect((firer.x, firer.y), (target.x, target.y), target.facing)
        armour = card.armour.get(face, 0)
        inputs: dict[str, InputValue] = {
            "firepower_dice": dice, "vehicle": "apc_outside", "armour_dice": armour, "vehicle_id": target.id,
            "vehicle_current_shock": target.shock, "vehicle_immobilised": shock}
        facts.append(f"{target.name} is an APC: every 6 of the {counted(dice, 'Firepower Dice')} is a Penetrating "
                     f"Hit (no Storm of Steel); {face} armour, {counted(armour, 'Armour Dice')} saving on 5 or 6; "
                     "each net hit is one Shock on the APC")
        return ShotPlan(NO_AP_AT_APC, inputs, tuple(facts), tuple(log))
    armour = card.armour.get("front", 0)
    suppressed = (chosen_flag(choices, "under_suppressing_fire", refusal=ShotRefusal)
                  or firer.has(UNDER_SUPPRESSING_FIRE))
    inputs = {"armour_dice": armour, "target": card.category, "target_shock": target.shock,
              "target_immobilised": "immobilised" in card.damage, "target_id": target.id}
    if suppressed:
        inputs["firer_under_suppressing_fire"] = True
    facts.append(f"{target.name} is an AFV and {whose} has no A.P. Strike Dice: no Penetrating Hits. It rolls "
                 f"its frontal {counted(armour, 'Armour Dice')}" + (" at +1 each (the firer is under Suppressing "
                                                                   "Fire)" if suppressed else "")
                 + "; with no save at all, one D6 on the Equal Hits & Saves table")
    return ShotPlan(NO_AP_AT_AFV, inputs, tuple(facts), tuple(log))


def _vehicle_fire_dice(firer: Unit, fw: FireWeapon, weapon: Weapon | None, choices: Choices,
                       facts: list[str]) -> int:
    """The Firepower Dice rolled at an APC: a tripod MG's after a lone gunner, a vehicle's after its Shock."""
    if fw.procedure == "coc.tripod_mg":
        assert weapon is not None
        dice, _lost = machine_guns.tripod_dice(_number(weapon, "firepower_dice") or machine_guns.TRIPOD_MG_DICE,
                                               firer.figures)
        return dice
    dice = chosen_whole(choices, "firepower_dice", "Firepower Dice", fw.dice, minimum=0, maximum=MAX_DICE,
                        refusal=ShotRefusal)
    if firer.is_vehicle:
        fired = fire_table.vehicle_fire(firer, dice, he=False)
        facts.extend(fired.notes)
        dice = fired.dice
    return dice


def _plan_tripod(inputs: dict[str, InputValue], facts: list[str], firer: Unit, weapon: Weapon, target: Unit,
                 teams: list[Unit], choices: Choices) -> None:
    base = _number(weapon, "firepower_dice") or machine_guns.TRIPOD_MG_DICE
    heavy = weapon.kind == "hmg" or weapon.stats.get("heavy") is True
    dice, lost = machine_guns.tripod_dice(base, firer.figures)
    inputs.update(firepower_dice=base, figures=max(1, firer.figures), heavy=heavy, barrel_facing=firer.facing,
                  target_bearing=bearing((firer.x, firer.y), (target.x, target.y)), firer_id=firer.id)
    if chosen_flag(choices, "suppressing", refusal=ShotRefusal):
        inputs["suppressing"] = True
        frontage = choices.get("frontage")
        if isinstance(frontage, int | float) and not isinstance(frontage, bool):
            inputs["frontage"] = round(float(frontage), 2)
            facts.append(f"Suppressing a frontage of {_inches(float(frontage))}")
        elif len(teams) == 2:
            gap = distance((teams[0].x, teams[0].y), (teams[1].x, teams[1].y))
            inputs["team_gap"] = round(gap, 2)
            facts.append(f"Suppressing two Teams {_inches(gap)} apart (centre to centre on the map)")
    facts.append(f"{dice} Firepower Dice" + (f" ({lost} lost: down to one figure)" if lost else ""))
    if heavy:
        facts.append("Heavy MG: cover reduced one level")


def game_fire_tables(game: Game) -> FireTables:
    """The game's changes to the to-hit and hit-effect tables, as the procedures read them from their inputs."""
    return FireTables(tuple((key, value) for key in TABLE_SETTINGS
                            if isinstance(value := game.settings.get(key), int | str) and not isinstance(value, bool)))


def _plan_gun_he(inputs: dict[str, InputValue], facts: list[str], game: Game, firer: Unit, fw: FireWeapon,
                 weapon: Weapon, target: Unit, choices: Choices, seen: SightReading, dist: float) -> None:
    """H.E. at infantry: a gun's (a vehicle's too) by the documents' rule for guns; an infantry weapon's by the
    H.E. settings."""
    table = fire_table.gun_he_facts(game, firer, target, _number(weapon, "he"), seen)
    inputs["target_in_building"] = chosen_flag(choices, "target_in_building", refusal=ShotRefusal)
    inputs.update(table.inputs)
    kind = fw.he_kind or guns.GUN
    quality, band_index = "regular", 0
    whose = firer.name if weapon.name == firer.name else f"{firer.name}'s {weapon.name}"
    if firer.is_vehicle:
        # A vehicle's gun is not a gun team: the three crew rule is not for it, and its turret turns.
        inputs["crew"] = max(guns.FULL_CREW, firer.figures)
    elif kind == guns.GUN:
        inputs.update(crew=max(1, firer.figures), barrel_facing=firer.facing,
                      target_bearing=bearing((firer.x, firer.y), (target.x, target.y)), firer_id=firer.id)
        if not guns.gun_can_move(firer.figures):
            facts.append(f"Only {firer.figures} crew: the gun cannot move, but fires inside its arc")
    else:
        quality = chosen_word(choices, "target_quality", QUALITIES, default_quality(target), "Troop quality",
                              refusal=ShotRefusal)
        band_index = range_band(dist, list(weapon.ranges) if weapon.ranges else firer.range_bands()) or 0
        inputs.update(firer_kind=kind, target_quality=quality, range_band_index=band_index)
    if kind == guns.INFANTRY_AT:
        inputs.update(firer_id=firer.id, weapon_index=fw.index or 0)
        if weapon.ammo is not None:
            if weapon.ammo <= 0:
                carried = f" (Limited Ammunition: {weapon.ammo_max} rounds)" if weapon.ammo_max else ""
                raise ShotRefusal("weapon", f"{whose} has no rounds left{carried}.")
            inputs["rounds_left"] = weapon.ammo
            facts.append(f"Rounds left: {weapon.ammo} on the card (one is spent)")
    rules = guns.he_rules(kind, guns.settings_of(game.settings), quality, band_index, game_fire_tables(game))
    needed = rules.to_hit - int(table.inputs.get("to_hit_modifier", 0))
    if needed > 6:
        raise ShotRefusal("target", f"Out of reach: {whose} would need {needed}+ to hit {target.name} with H.E. "
                                    "here, and a die scores at most 6.")
    facts.append(f"{counted(int(table.inputs['he_dice']), 'H.E. dice')} {rules.words()}, {rules.extras()}")
    facts.extend(table.notes)


def _plan_sniper(inputs: dict[str, InputValue], facts: list[str], firer: Unit, target: Unit,
                 choices: Choices) -> None:
    kind = chosen_word(choices, "target_kind", snipers.TARGET_KINDS, sniper_target_kind(target), "The target",
                       refusal=ShotRefusal)
    inputs.update(target_kind=kind, leader_attached=chosen_flag(choices, "leader_attached", refusal=ShotRefusal),
                  suppressing=chosen_flag(choices, "suppressing", refusal=ShotRefusal), firer_id=firer.id)
    if kind in ("infantry", "support", "bunker"):
        inputs.update(target_id=target.id, target_figures=str(target.figures))
    shots = firer.counters.get(snipers.SHOTS_COUNTER, 0)
    facts.append(f"Hits on {snipers.TO_HIT_BUNKER if kind == 'bunker' else snipers.TO_HIT}+ at any range; "
                 f"{counted(shots, 'shots')} fired so far")


def _plan_building(inputs: dict[str, InputValue], facts: list[str], game: Game, target: Unit) -> None:
    """A flamethrower at the wooden building the target is in: two 6s set it on fire and everyone leaves."""
    inputs.update(target_id=target.id, target_figures=str(target.figures))
    building = building_at(game, target)
    if building is None:
        facts.append(f"{target.name} is not inside a building on the map: the fire is resolved, "
                     "set the building alight by hand if it catches")
        return
    if building.material != "wood":
        raise ShotRefusal("target_kind", f"{building.name} is built of {building.material.replace('_', ' ')}: "
                                         "only a wooden building catches fire.")
    inputs["building_id"] = building.id
    inside = ", ".join(u.name for u in occupants_of(game, building))
    facts.append(f"Two or more 6s set {building.name} on fire; then {inside} must evacuate")


def _plan_flamethrower(inputs: dict[str, InputValue], facts: list[str], game: Game, firer: Unit, fw: FireWeapon,
                       weapon: Weapon, target: Unit, choices: Choices, dist: float, band: str) -> None:
    kind = chosen_word(choices, "target_kind", flamethrowers.TARGET_KINDS, flamethrower_target_kind(target),
                       "The target", refusal=ShotRefusal)
    if "sniper_target" in inputs and kind != "infantry":
        del inputs["sniper_target"]
    fuel = weapon.ammo if weapon.ammo is not None else flamethrowers.FUEL_PHASES
    moved = chosen_flag(choices, "moved", refusal=ShotRefusal)
    quality = chosen_word(choices, "target_quality", QUALITIES, default_quality(target), "Troop quality",
                          refusal=ShotRefusal)
    inputs.update(range=round(dist, 2), moved=moved, fuel=fuel, target_kind=kind, range_band=band or "close",
                  target_quality=quality, firer_id=firer.id, weapon_index=fw.index or 0)
    if kind == "transport" and target.vehicle is not None:
        inputs.update(vehicle_id=target.id, vehicle_current_shock=target.shock,
                      vehicle_immobilised=later_shock_doubled(target.vehicle.category, target.vehicle.damage))
        carried = passengers_of(game, target)
        if 0 < len(carried) <= MAX_TEAMS:  # the passengers' figures cap their kills, as the Effects do
            inputs.update(teams=len(carried), target_ids=",".join(u.id for u in carried),
                          target_figures=",".join(str(u.figures) for u in carried),
                          target_names="\n".join(u.name for u in carried))
            facts.append("Passengers: " + ", ".join(f"{u.name} ({u.figures})" for u in carried))
    elif kind == "infantry":
        inputs.update(target_id=target.id, target_figures=str(target.figures))
    elif kind == "wooden_building":
        _plan_building(inputs, facts, game, target)
    dice = flamethrowers.DICE_AFTER_MOVING if moved else flamethrowers.DICE
    facts.append(f"{dice} Firepower Dice, cover ignored, Shock doubled; fuel {fuel} of "
                 f"{weapon.ammo_max or flamethrowers.FUEL_PHASES}")
