"""Infantry guns and anti-tank guns firing H.E. at infantry (`coc.gun_he`).

They roll their H.E. Firepower Dice, all at Close Range hitting on 4, 5 or 6
with the Storm of Steel Bonus "before any adjustments for smoke or Suppressing
Fire" (`to_hit_modifier`: -1 through a collapsed building's smoke, -1 with
damaged optics on a vehicle; the score needed never leaves 2 to 6); the hits
are divided between the target Teams and read with the target's cover reduced
one level. Four 6s (Storm of Steel dice included, as for a bombardment) at a
Unit in an intact brick or stone building make that building unstable: it
collapses at the end of the Turn (buildings.py). They fire H.E. at a
building only when targeting a Unit inside it. They fire into a 90 degree arc
(arc_of_fire.py) and never fire Suppressing Fire. A gun needs three crew,
attached Leaders included, to work at full effect: with two or fewer it
cannot move but still fires at anything in its arc (`can_move` in the values,
`gun_can_move` for the card and the map).

`coc.gun_he`
    Inputs: `he_dice`, `cover`, `teams` (default 1), `crew` (attached
    Leaders included), `to_hit_modifier` (default 0), `building` (the
    material of the building the target is in: none, wood or brick_stone;
    default none) with `building_intact` (default true), `target_in_building`
    (default: a building is named), `target_is_building`, `suppressing`
    (refused), the Storm of Steel settings; optional
    `target_id`/`target_ids`/`target_figures`, `team_cover`, `sniper_target` (as for
    `coc.fire`), `building_id` and
    `building_name`, `barrel_facing` and `target_bearing`, `firer_id`. Dice:
    "H.E. Firepower Dice", Storm of Steel dice, effect dice per hit. Outcome:
    `kills=K shock=S`, with ` building_unstable` appended when four 6s make
    the building unstable. Values: those of `coc.fire` plus `crew`,
    `can_move`, `target_in_building`, `building_unstable`, `arc_offset`,
    `facing`. Effects: as `coc.fire`, plus TurnUnit on the gun and
    SetBuildingState "unstable" on `building_id`.
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.model.bombardment import BUILDING_MATERIALS
from battletracker.model.bombardment_effects import SetBuildingState
from battletracker.model.effects import Effect
from battletracker.rules import register
from battletracker.rules.base import (
    InputReader,
    Inputs,
    Procedure,
    Resolution,
    Roller,
    RulesInputError,
    degrees,
)
from battletracker.rules.chain_of_command.arc_of_fire import Aim, read_aim, turn_effects
from battletracker.rules.chain_of_command.bombardment_data import data
from battletracker.rules.chain_of_command.fire import (
    MAX_DICE,
    MAX_TEAMS,
    RULESET,
    SETTINGS,
    FireTables,
    HitEffect,
    Targets,
    Volley,
    cover_words,
    describe_volley,
    kills_shock_key,
    kills_shock_odds,
    read_cover,
    read_id,
    read_sniper_target,
    read_storm,
    read_targets,
    read_team_effects,
    reduce_cover,
    roll_volley,
    sniper_volley,
    target_effects,
    volley_counts,
)

TO_HIT = 4
COVER_REDUCTION = 1
FULL_CREW = 3
NO_BUILDING = "none"
UNSTABLE = "unstable"


@dataclass(frozen=True)
class TargetBuilding:
    """The building the target is in, as far as H.E. can bring it down."""

    material: str = NO_BUILDING
    intact: bool = True
    building_id: str | None = None
    name: str = "The building"

    @property
    def can_become_unstable(self) -> bool:
        """Only an intact brick or stone building turns unstable (an unstable one already will fall)."""
        return self.material == "brick_stone" and self.intact


@dataclass(frozen=True)
class GunHEInputs:
    volley: Volley
    targets: Targets
    aim: Aim
    firer_id: str | None
    crew: int
    target_in_building: bool
    building: TargetBuilding
    to_hit_modifier: int


def gun_can_move(crew: int) -> bool:
    """Three crew (attached Leaders count) or more; with fewer the gun stays where it is."""
    return crew >= FULL_CREW


def _parse(inputs: Inputs) -> GunHEInputs:
    r = InputReader(inputs)
    dice = r.int("he_dice", minimum=0, maximum=MAX_DICE)
    cover = read_cover(r)
    teams = r.int("teams", 1, minimum=1, maximum=MAX_TEAMS)
    crew = r.int("crew", minimum=1)
    modifier = r.int("to_hit_modifier", 0, minimum=-6, maximum=6)
    to_hit = TO_HIT - modifier
    if not 2 <= to_hit <= 6:
        raise RulesInputError("to_hit_modifier", f"H.E. hits on {TO_HIT}+ before adjustments; adjusted by "
                                                 f"{modifier:+d} it would need {to_hit}, and a die scores 2 to 6")
    building = TargetBuilding(r.choice("building", (NO_BUILDING, *BUILDING_MATERIALS), NO_BUILDING),
                              r.bool("building_intact", True), read_id(r, "building_id"),
                              r.str("building_name", "The building"))
    in_building = r.bool("target_in_building", building.material != NO_BUILDING)
    if building.material == NO_BUILDING and building.building_id is not None:
        raise RulesInputError("building", "is required with building_id (wood or brick_stone)")
    if building.material != NO_BUILDING and not in_building:
        raise RulesInputError("target_in_building", "is false, but a building the target is in is given")
    is_building = r.bool("target_is_building")
    if r.bool("suppressing"):
        raise RulesInputError("suppressing", "infantry and anti-tank guns always Fire for Effect, never "
                                             "Suppressing Fire")
    storm = read_storm(r, True)
    tables = FireTables.read(r)
    targets = read_sniper_target(r, read_targets(r, teams))
    team_effects = read_team_effects(r, teams, cover, COVER_REDUCTION, 1, tables)
    aim = read_aim(r, "gun")
    firer_id = read_id(r, "firer_id")
    r.finish()
    if is_building and not in_building:
        raise RulesInputError("target_is_building", "infantry and anti-tank guns fire H.E. at a building only "
                                                    "when targeting a Unit inside it")
    effect = HitEffect.for_cover(reduce_cover(cover, COVER_REDUCTION), 1, tables)
    volley = sniper_volley(Volley(dice, to_hit, storm, effect, teams, targets.figures, team_effects=team_effects,
                                  names=targets.names), targets)
    return GunHEInputs(volley, targets, aim, firer_id, crew, in_building, building, modifier)


def _outcome(kills: int, shock: int, unstable: bool) -> str:
    return kills_shock_key(kills, shock) + (" building_unstable" if unstable else "")


def gun_he_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    roller = Roller(dice)
    v = roll_volley(roller, p.volley, "H.E. Firepower Dice")
    can_move = gun_can_move(p.crew)
    unstable = p.building.can_become_unstable and v.sixes >= data().unstable_sixes
    values = {**v.values(), "to_hit": p.volley.to_hit, "cover": p.volley.effect.cover, "crew": p.crew,
              "can_move": can_move, "target_in_building": p.target_in_building, "building_unstable": unstable,
              **p.aim.values()}
    log = [f"H.E. at Close Range, cover reduced one level to {cover_words(p.volley)}"]
    if p.to_hit_modifier:
        log.append(f"{TO_HIT}+ adjusted by {p.to_hit_modifier:+d}: each die needs {p.volley.to_hit}+")
    if p.aim.offset is not None:
        log.append(f"Target {degrees(p.aim.offset)} degrees off the barrel: the gun turns to face it (not a move)")
    log.extend(describe_volley(v, p.volley))
    if not can_move:
        log.append(f"Only {p.crew} crew: the gun cannot move but still fires inside its arc")
    effects: list[Effect] = [*turn_effects(p.firer_id, p.aim),
                             *target_effects(p.targets, v.team_kills, v.team_shock)]
    if unstable:
        log.append(f"{v.sixes} sixes from H.E.: {p.building.name} is unstable and collapses at the end of the Turn")
        if p.building.building_id is not None:
            effects.append(SetBuildingState(p.building.building_id, UNSTABLE))
    return Resolution("coc.gun_he", _outcome(v.kills, v.shock, unstable), values, roller.rolls, effects, log)


def gun_he_odds(inputs: Inputs) -> Distribution[str]:
    p = _parse(inputs)
    if not p.building.can_become_unstable:
        return kills_shock_odds(p.volley)
    falls = data().unstable_sixes
    return volley_counts(p.volley, falls).map(lambda c: _outcome(c[0], c[1], c[2] >= falls))


register(Procedure("coc.gun_he", "Gun firing H.E. at infantry", gun_he_resolve, gun_he_odds,
                   ruleset=RULESET, settings=SETTINGS))
