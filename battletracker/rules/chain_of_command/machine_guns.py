"""Tripod or carriage mounted Medium and Heavy Machine Guns (`coc.tripod_mg`).

They roll 10 Firepower Dice unless a theatre Handbook says otherwise (the
weapon's `firepower_dice` overrides it), two fewer once the team is down to
one figure; a Heavy MG reduces the target's cover one level. They fire into
a 90 degree arc (see arc_of_fire.py). Suppressing Fire needs its target area
checked: one continuous frontage of at most 9", or two Teams within 4" of
each other. The documents state only that area rule for Suppressing Fire, so
the fire itself is resolved like any other and reported as suppressing.

`coc.tripod_mg`
    Inputs: the `coc.fire` inputs, with `firepower_dice` optional (default
    10); `figures` (the team's figures, required); `heavy` (bool);
    `suppressing` (bool) with `frontage` (inches) or `team_gap` (inches, and
    `teams` = 2); optional `barrel_facing` and `target_bearing` (degrees, both
    or neither) and `firer_id`.
    Dice, outcome keys and values as `coc.fire`, plus `firepower_dice` (after
    the one-figure loss), `dice_lost`, `heavy`, `suppressing`, `frontage`,
    `team_gap`, `arc_offset`, `facing`. Effects: as `coc.fire`, plus
    TurnUnit on the firer when it turns onto the target.
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.core.dice import Dice
from battletracker.core.geometry import EPSILON
from battletracker.core.geometry import Point
from battletracker.core.geometry import distance
from battletracker.core.odds import Distribution
from battletracker.rules import register
from battletracker.rules.base import FIRER
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import counts
from battletracker.rules.base import degrees
from battletracker.rules.base import inches
from battletracker.rules.chain_of_command.arc_of_fire import Aim
from battletracker.rules.chain_of_command.arc_of_fire import read_aim
from battletracker.rules.chain_of_command.arc_of_fire import turn_effects
from battletracker.rules.chain_of_command.fire import MAX_DICE
from battletracker.rules.chain_of_command.fire import RULESET
from battletracker.rules.chain_of_command.fire import SETTINGS
from battletracker.rules.chain_of_command.fire import Targets
from battletracker.rules.chain_of_command.fire import Volley
from battletracker.rules.chain_of_command.fire import describe_volley
from battletracker.rules.chain_of_command.fire import kills_shock_key
from battletracker.rules.chain_of_command.fire import kills_shock_odds
from battletracker.rules.chain_of_command.fire import read_fire
from battletracker.rules.chain_of_command.fire import read_id
from battletracker.rules.chain_of_command.fire import roll_volley
from battletracker.rules.chain_of_command.fire import target_effects

TRIPOD_MG_DICE = 10
ONE_FIGURE_DICE_LOST = 2
SUPPRESSING_FRONTAGE = 9.0
SUPPRESSING_TEAM_GAP = 4.0


@dataclass(frozen=True)
class TripodMGInputs:
    volley: Volley
    targets: Targets
    aim: Aim
    firer_id: str | None
    dice_lost: int
    heavy: bool
    suppressing: bool
    frontage: float | None
    team_gap: float | None


def tripod_dice(firepower_dice: int, figures: int) -> tuple[int, int]:
    """(dice rolled, dice lost): a team reduced to one figure loses two Firepower Dice."""
    lost = min(firepower_dice, ONE_FIGURE_DICE_LOST) if figures == 1 else 0
    return firepower_dice - lost, lost


def frontage_between(one_end: Point, other_end: Point) -> float:
    """The Suppressing Fire frontage picked as its two ends on the table, in inches to the hundredth: the
    `frontage` choice as recorded (saved games replay that number), which `check_suppressing_area` then judges."""
    return round(distance(one_end, other_end), 2)


def check_suppressing_area(suppressing: bool, frontage: float | None, team_gap: float | None, teams: int) -> None:
    """Suppressing Fire at one continuous frontage up to 9", or at two Teams within 4" of each other."""
    if not suppressing:
        for key, value in (("frontage", frontage), ("team_gap", team_gap)):
            if value is not None:
                raise RulesInputError(key, "is the target area of Suppressing Fire; set suppressing to use it")
        return
    if frontage is None and team_gap is None:
        raise RulesInputError("frontage", "Suppressing Fire needs its target area: a frontage in inches, "
                                          "or the team_gap between two Teams")
    if frontage is not None and team_gap is not None:
        raise RulesInputError("frontage", "give a frontage or a team_gap, not both")
    if frontage is not None and frontage > SUPPRESSING_FRONTAGE + EPSILON:
        raise RulesInputError("frontage", f"Suppressing Fire covers one continuous frontage of at most "
                                          f'{SUPPRESSING_FRONTAGE:g}", not {inches(frontage)}"')
    if team_gap is not None:
        if team_gap > SUPPRESSING_TEAM_GAP + EPSILON:
            raise RulesInputError("team_gap", f"Suppressing Fire at two Teams needs them within "
                                              f'{SUPPRESSING_TEAM_GAP:g}" of each other, not {inches(team_gap)}"')
        if teams != 2:
            raise RulesInputError("teams", f"Suppressing Fire at two Teams within {SUPPRESSING_TEAM_GAP:g}\" "
                                           f"shares its hits between 2 teams, not {teams}")


def _parse(inputs: Inputs) -> TripodMGInputs:
    r = InputReader(inputs)
    base = r.int("firepower_dice", TRIPOD_MG_DICE, minimum=0, maximum=MAX_DICE)
    figures = r.int("figures", minimum=1)
    heavy = r.bool("heavy")
    dice, lost = tripod_dice(base, figures)
    volley, targets = read_fire(r, dice, extra_cover_reduction=1 if heavy else 0)
    suppressing = r.bool("suppressing")
    frontage = r.optional_float("frontage", minimum=0.0)
    team_gap = r.optional_float("team_gap", minimum=0.0)
    check_suppressing_area(suppressing, frontage, team_gap, volley.teams)
    aim = read_aim(r, "tripod MG")
    firer_id = read_id(r, "firer_id")
    r.finish()
    return TripodMGInputs(volley, targets, aim, firer_id, lost, heavy, suppressing, frontage, team_gap)


def tripod_mg_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    roller = Roller(dice)
    v = roll_volley(roller, p.volley)
    values = {
        **v.values(),
        "firepower_dice": p.volley.dice,
        "dice_lost": p.dice_lost,
        "to_hit": p.volley.to_hit,
        "cover": p.volley.effect.cover,
        "heavy": p.heavy,
        "suppressing": p.suppressing,
        "frontage": p.frontage,
        "team_gap": p.team_gap,
        **p.aim.values(),
    }
    log: list[str] = []
    if p.dice_lost:
        log.append(f"Team down to one figure: {p.dice_lost} Firepower Dice fewer")
    if p.heavy:
        log.append("Heavy MG: the target's cover is reduced one level")
    if p.aim.offset is not None:
        log.append(f"Target {degrees(p.aim.offset)} degrees off the barrel: the gun turns to face it (not a move)")
    if p.suppressing:
        area = f'a {p.frontage:g}" frontage' if p.frontage is not None else f'two Teams {p.team_gap:g}" apart'
        log.append(f"Suppressing Fire at {area}")
    log.extend(describe_volley(v, p.volley))
    effects = turn_effects(p.firer_id, p.aim) + target_effects(p.targets, v.team_kills, v.team_shock)
    return Resolution("coc.tripod_mg", kills_shock_key(v.kills, v.shock), values, roller.rolls, effects, log)


def tripod_mg_odds(inputs: Inputs) -> Distribution[str]:
    return kills_shock_odds(_parse(inputs).volley)


register(Procedure("coc.tripod_mg", "Tripod MG fire", tripod_mg_resolve, tripod_mg_odds,
                   ruleset=RULESET, settings=SETTINGS, better=counts("kills", "shock"), rolled_by=FIRER,
                   typical={"figures": 5, "range_band": "effective", "target_quality": "regular", "cover": "light"},
                   largest={"figures": 5, "range_band": "close", "target_quality": "green", "cover": "open"},
                   worst_best=("kills=0 shock=0", "kills=10 shock=0")))
