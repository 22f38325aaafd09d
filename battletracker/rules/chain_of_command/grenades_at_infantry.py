"""Grenades thrown at infantry (`coc.grenades_at_infantry`): a Team tosses its grenades at an enemy Team close by.

The documents give the grenade's throw only where it lands inside a vehicle
(grenades_into_vehicles.py), and point to the "Bullseye!" rule of grenades
at infantry without printing it. This follows that throw, the one the
documents show: 2D6 against the `grenade_throw_to_hit` setting (or the
player says where it landed), one extra Firepower Die for a single 6 on the
throw and the `grenade_bullseye_double_six` setting's dice for two. A throw
that lands is the Team's Firepower Dice plus the Bullseye! dice at the
target, to hit at Close range by the target's quality, the effect read by
its cover, as any fire at infantry. Whether those dice earn Storm of Steel
is the `grenade_storm_of_steel` setting (no, by default: the documents'
grenade example rolls none for its two 6s). Every one of these is a default
to check against your rulebook, shown in Ruleset settings.

`coc.grenades_at_infantry`
    Inputs: `firepower_dice`; the throw (`grenade_throw_to_hit`,
    `grenade_bullseye_double_six`, or the player's `throw_hit` with
    `bullseye_dice`); the coc.fire inputs (`to_hit` or `range_band` with
    `target_quality`, `cover`, `storm_of_steel`, `target_id`,
    `target_figures`, ...).
    Dice: "Throw" (2D6, unless told), then "Firepower Dice" and an effect die per hit.
    Outcomes: `kills=0 shock=0 missed` (the throw missed), or `kills=K shock=S`.

The plan reads the table: the Team and its Firepower Dice, the target in
reach (THROW_REACH, the grenade into a vehicle's), the target's cover
against the Team and its quality; a target in a bombardment's area, an
unspotted sniper or a vehicle is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import replace

from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules import register
from battletracker.rules.actions import Choices
from battletracker.rules.actions import register_plan
from battletracker.rules.base import FIRER
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import InputValue
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import counts
from battletracker.rules.base import outcome_words
from battletracker.rules.chain_of_command.anti_tank_plans import THROW_REACH
from battletracker.rules.chain_of_command.anti_tank_plans import ShotPlan
from battletracker.rules.chain_of_command.anti_tank_plans import ShotRefusal
from battletracker.rules.chain_of_command.anti_tank_plans import check_bombardment
from battletracker.rules.chain_of_command.anti_tank_plans import throw_inputs
from battletracker.rules.chain_of_command.fire import MAX_DICE
from battletracker.rules.chain_of_command.fire import QUALITIES
from battletracker.rules.chain_of_command.fire import RULESET
from battletracker.rules.chain_of_command.fire import SETTINGS
from battletracker.rules.chain_of_command.fire import Targets
from battletracker.rules.chain_of_command.fire import Volley
from battletracker.rules.chain_of_command.fire import describe_volley
from battletracker.rules.chain_of_command.fire import kills_shock_key
from battletracker.rules.chain_of_command.fire import kills_shock_odds
from battletracker.rules.chain_of_command.fire import read_fire
from battletracker.rules.chain_of_command.fire import roll_volley
from battletracker.rules.chain_of_command.fire import target_effects
from battletracker.rules.chain_of_command.fire_plans import at_a_sniper
from battletracker.rules.chain_of_command.fire_plans import default_quality
from battletracker.rules.chain_of_command.fire_plans import judge_cover
from battletracker.rules.chain_of_command.fire_plans import small_arms_dice
from battletracker.rules.chain_of_command.grenades_into_vehicles import Throw
from battletracker.rules.chain_of_command.grenades_into_vehicles import read_throw
from battletracker.rules.chain_of_command.shot_actions import shot_plan
from battletracker.rules.choices import Reach
from battletracker.rules.choices import chosen_unit
from battletracker.rules.choices import chosen_whole
from battletracker.rules.choices import chosen_word
from battletracker.rules.places import enemies_within
from battletracker.rules.tables import setting
from battletracker.rules.targets import centre_to_centre

GRENADES_AT_INFANTRY = "coc.grenades_at_infantry"
STORM_SETTING = "grenade_storm_of_steel"
MISSED = "kills=0 shock=0 missed"
"""A throw that missed: no kills and no Shock like any volley's, so the odds chart the kills and Shock together."""


@dataclass(frozen=True)
class Grenades:
    """What the dice need: the throw, then the volley a landed throw makes (before its Bullseye! dice)."""

    throw: Throw
    volley: Volley
    targets: Targets


def _parse(inputs: Inputs) -> Grenades:
    r = InputReader(inputs)
    dice = r.int("firepower_dice", minimum=0, maximum=MAX_DICE)
    throw = read_throw(r)
    volley, targets = read_fire(r, dice)
    r.finish()
    return Grenades(throw, volley, targets)


def grenades_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    g = _parse(inputs)
    roller = Roller(dice)
    values: dict[str, object] = {"throw": None, "throw_hit": g.throw.told_hit, "bullseye_dice": 0}
    if g.throw.told_hit is None:
        a, b = roller.roll_ints("Throw", D6, 2)
        hit = a + b >= g.throw.to_hit
        bullseye = g.throw.bullseye((a, b)) if hit else 0
        values.update(throw=[a, b], throw_hit=hit)
        log = [f"Throw {a} and {b} = {a + b}, needing {g.throw.to_hit}: " + ("landed" if hit else "missed")]
    else:
        hit, bullseye = g.throw.told_hit, g.throw.told_bullseye
        log = ["The player says the throw " + ("landed" if hit else "missed")]
    values["bullseye_dice"] = bullseye
    if not hit:
        return Resolution(GRENADES_AT_INFANTRY, MISSED, values, roller.rolls, [], log)
    volley = replace(g.volley, dice=g.volley.dice + bullseye)
    if bullseye:
        log.append(f"{g.volley.dice} Firepower Dice + {bullseye} for the Bullseye!")
    v = roll_volley(roller, volley)
    values.update(v.values())
    log.extend(describe_volley(v, volley))
    return Resolution(GRENADES_AT_INFANTRY, kills_shock_key(v.kills, v.shock), values, roller.rolls,
                      target_effects(g.targets, v.team_kills, v.team_shock), log)


def grenade_words(outcome: str) -> str:
    """A missed throw says so; a landed one reads as any fire's kills and Shock."""
    return "the throw missed" if outcome == MISSED else outcome_words(outcome)


def grenades_odds(inputs: Inputs) -> Distribution[str]:
    g = _parse(inputs)

    def landed(bullseye: int | None) -> Distribution[str]:
        if bullseye is None:
            return Distribution.certain(MISSED)
        return kills_shock_odds(replace(g.volley, dice=g.volley.dice + bullseye))

    return g.throw.outcomes().bind(landed)


register(Procedure(GRENADES_AT_INFANTRY, "Grenades at infantry", grenades_resolve, grenades_odds, ruleset=RULESET,
                   settings=("grenade_throw_to_hit", "grenade_bullseye_double_six", *SETTINGS),
                   better=counts("kills", "shock"), rolled_by=FIRER,
                   typical={"firepower_dice": 6, "range_band": "close", "target_quality": "regular",
                            "cover": "light", "target_figures": "4"},
                   largest={"firepower_dice": MAX_DICE, "range_band": "close", "target_quality": "green",
                            "cover": "open", "storm_of_steel": True, "grenade_bullseye_double_six": 4,
                            "target_figures": "10"},
                   label=grenade_words, worst_best=(MISSED, "kills=4 shock=0")))


def teams_in_throw(game: Game, team_id: str) -> list[Unit]:
    """The enemy units on foot within throwing reach of the Team, nearest first."""
    return enemies_within(game, game.unit(team_id), THROW_REACH, lambda other: other.vehicle is None)


def can_throw_grenades(game: Game, unit: Unit) -> bool:
    """A Team on foot with an enemy on foot within throwing reach."""
    return unit.vehicle is None and unit.figures > 0 and bool(teams_in_throw(game, unit.id))


def plan_grenades_at_infantry(game: Game, choices: Choices) -> ShotPlan:
    """Read the table for a Team's grenades thrown at an enemy Team within reach.

    Choices: `firer` (the Team), `target`, `firepower_dice` (default the
    Team's), `throw` and `to_hit` (throw_inputs), `cover` (default the
    table's reading), `target_quality` (default the target's).
    """
    team = chosen_unit(game, choices, "firer", "Team throwing the grenades", in_play=True, refusal=ShotRefusal)
    if team.vehicle is not None or team.figures <= 0:
        raise ShotRefusal("firer", f"{team.name} has no figure on foot to throw a grenade.")
    reach = Reach(team, THROW_REACH, f'grenades are thrown at a Team within {THROW_REACH:g}"')
    target = chosen_unit(game, choices, "target", "target", in_play=True, enemy_of=team, within=reach,
                         refusal=ShotRefusal)
    if target.vehicle is not None:
        raise ShotRefusal("target", f"{target.name} is a vehicle: use Grenade into vehicle.")
    check_bombardment(game, team, target)
    inputs: dict[str, InputValue] = {
        "firepower_dice": chosen_whole(choices, "firepower_dice", "The Team's Firepower Dice",
                                       small_arms_dice(team), minimum=0, refusal=ShotRefusal),
        **throw_inputs(game, choices),
        "storm_of_steel": setting(RULESET, STORM_SETTING, game.settings) is True,
        "range_band": "close",
        "target_quality": chosen_word(choices, "target_quality", QUALITIES,
                                      default_quality(target), "The target's quality", refusal=ShotRefusal),
        "target_id": target.id, "target_figures": str(target.figures), "target_names": target.name,
    }
    if at_a_sniper(target):
        inputs["sniper_target"] = True
    facts = [f'{target.name} is {centre_to_centre(team, target):.1f}" away']
    log: list[str] = []
    inputs["cover"] = judge_cover(game, team, target, choices, facts, log)
    facts.append(f"{inputs['firepower_dice']} Firepower Dice at Close range if the throw lands")
    return ShotPlan(GRENADES_AT_INFANTRY, inputs, tuple(facts), tuple(log))


register_plan(GRENADES_AT_INFANTRY, shot_plan(plan_grenades_at_infantry, "{firer} throws grenades at {target}"))
