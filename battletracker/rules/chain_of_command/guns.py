"""Infantry guns and anti-tank guns firing H.E. at infantry (`coc.gun_he`).

They roll their H.E. Firepower Dice, all at Close Range hitting on 4, 5 or 6
with the Storm of Steel Bonus; the hits are divided between the target Teams
and read with the target's cover reduced one level. They fire H.E. at a
building only when targeting a Unit inside it. They fire into a 90 degree arc
(arc_of_fire.py) and never fire Suppressing Fire. A gun needs three crew,
attached Leaders included, to work at full effect: with two or fewer it
cannot move but still fires at anything in its arc (`can_move` in the values,
`gun_can_move` for the card and the map).

`coc.gun_he`
    Inputs: `he_dice`, `cover`, `teams` (default 1), `crew` (attached
    Leaders included), `target_in_building`, `target_is_building`,
    `suppressing` (refused), the Storm of Steel settings; optional
    `target_id`/`target_ids`/`target_figures`, `barrel_facing` and
    `target_bearing`, `firer_id`. Dice: "H.E. Firepower Dice", Storm of Steel
    dice, effect dice per hit. Outcome: `kills=K shock=S`. Values: those of
    `coc.fire` plus `crew`, `can_move`, `target_in_building`, `arc_offset`,
    `facing`. Effects: as `coc.fire`, plus TurnUnit on the gun.
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.rules import register
from battletracker.rules.base import InputReader, Inputs, Procedure, Resolution, Roller, RulesInputError
from battletracker.rules.chain_of_command import storm_of_steel
from battletracker.rules.chain_of_command.arc_of_fire import Aim, read_aim, turn_effects
from battletracker.rules.chain_of_command.fire import (
    MAX_DICE,
    MAX_TEAMS,
    RULESET,
    HitEffect,
    Targets,
    Volley,
    describe_volley,
    kills_shock_key,
    kills_shock_odds,
    read_cover,
    read_id,
    read_storm,
    read_targets,
    reduce_cover,
    roll_volley,
    target_effects,
)

TO_HIT = 4
COVER_REDUCTION = 1
FULL_CREW = 3


@dataclass(frozen=True)
class GunHEInputs:
    volley: Volley
    targets: Targets
    aim: Aim
    firer_id: str | None
    crew: int
    target_in_building: bool


def gun_can_move(crew: int) -> bool:
    """Three crew (attached Leaders count) or more; with fewer the gun stays where it is."""
    return crew >= FULL_CREW


def _parse(inputs: Inputs) -> GunHEInputs:
    r = InputReader(inputs)
    dice = r.int("he_dice", minimum=0, maximum=MAX_DICE)
    cover = read_cover(r)
    teams = r.int("teams", 1, minimum=1, maximum=MAX_TEAMS)
    crew = r.int("crew", minimum=1)
    in_building = r.bool("target_in_building")
    is_building = r.bool("target_is_building")
    if r.bool("suppressing"):
        raise RulesInputError("suppressing", "infantry and anti-tank guns always Fire for Effect, never "
                                             "Suppressing Fire")
    storm = read_storm(r, True)
    targets = read_targets(r, teams)
    aim = read_aim(r, "gun")
    firer_id = read_id(r, "firer_id")
    r.finish()
    if is_building and not in_building:
        raise RulesInputError("target_is_building", "infantry and anti-tank guns fire H.E. at a building only "
                                                    "when targeting a Unit inside it")
    effect = HitEffect.for_cover(reduce_cover(cover, COVER_REDUCTION))
    volley = Volley(dice, TO_HIT, storm, effect, teams, targets.figures)
    return GunHEInputs(volley, targets, aim, firer_id, crew, in_building)


def gun_he_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    roller = Roller(dice)
    v = roll_volley(roller, p.volley, "H.E. Firepower Dice")
    can_move = gun_can_move(p.crew)
    values = {**v.values(), "to_hit": TO_HIT, "cover": p.volley.effect.cover, "crew": p.crew,
              "can_move": can_move, "target_in_building": p.target_in_building, **p.aim.values()}
    log = [f"H.E. at Close Range, cover reduced one level to {p.volley.effect.cover}"]
    if p.aim.offset is not None:
        log.append(f"Target {p.aim.offset:g} degrees off the barrel: the gun turns to face it (not a move)")
    log.extend(describe_volley(v, p.volley))
    if not can_move:
        log.append(f"Only {p.crew} crew: the gun cannot move but still fires inside its arc")
    effects = turn_effects(p.firer_id, p.aim) + target_effects(p.targets, v.team_kills, v.team_shock)
    return Resolution("coc.gun_he", kills_shock_key(v.kills, v.shock), values, roller.rolls, effects, log)


def gun_he_odds(inputs: Inputs) -> Distribution[str]:
    return kills_shock_odds(_parse(inputs).volley)


register(Procedure("coc.gun_he", "Gun firing H.E. at infantry", gun_he_resolve, gun_he_odds,
                   ruleset=RULESET, settings=storm_of_steel.SETTINGS))
