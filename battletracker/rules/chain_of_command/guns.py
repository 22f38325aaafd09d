"""Infantry guns, anti-tank guns, vehicles' guns and infantry anti-tank weapons firing H.E. at infantry (`coc.gun_he`).

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

The documents give those rules to Infantry Guns and Anti-Tank Guns
(`firer_kind` gun); a vehicle's gun fires its H.E. by them too (its dice
less one for each point of Shock, -1 with damaged optics: "An Armoured
Vehicle firing machine guns or H.E. reduces the number of Firepower Dice by
one for each point of Shock", "-1 to hit when firing H.E. shells"), as the
games saved so far were played. Of an infantry anti-tank weapon
(`firer_kind` infantry_at) they say that "The H.E. Firing Dice are used when
firing against Infantry targets" and that it has "Limited Ammunition of
three rounds" (one spent per shot, as for its A.P.). What they leave out is
settings (`HE_SETTINGS`, each a default to check): how range bands count,
whether the Storm of Steel Bonus applies and how many levels of cover are
reduced. Such H.E. hits on the to-hit table's score for the band and the
target's quality, as small arms do.

`coc.gun_he`
    Inputs: `he_dice`, `cover`, `teams` (default 1), `crew` (attached
    Leaders included; a gun's only), `to_hit_modifier` (default 0), `building` (the
    material of the building the target is in: none, wood or brick_stone;
    default none) with `building_intact` (default true), `target_in_building`
    (default: a building is named), `target_is_building`, `suppressing`
    (refused), the Storm of Steel settings; `firer_kind` (gun or
    infantry_at; default gun) with, for infantry_at, `target_quality`,
    `range_band_index` (0: the weapon's first range band; default 0), the
    settings `HE_SETTINGS`, the fire tables, and `rounds_left` with
    `weapon_index` (a round is spent); optional
    `target_id`/`target_ids`/`target_figures`, `team_cover`, `sniper_target` (as for
    `coc.fire`), `building_id` and
    `building_name`, `barrel_facing` and `target_bearing`, `firer_id`. Dice:
    "H.E. Firepower Dice", Storm of Steel dice, effect dice per hit. Outcome:
    `kills=K shock=S`, with ` building_unstable` appended when four 6s make
    the building unstable. Values: those of `coc.fire` plus `crew`,
    `can_move`, `target_in_building`, `building_unstable`, `arc_offset`,
    `facing`, `firer_kind`, `storm_of_steel`, `cover_reduced`,
    `rounds_left_after`. Effects: as `coc.fire`, plus TurnUnit on the gun,
    SpendAmmo on an infantry anti-tank weapon and SetBuildingState
    "unstable" on `building_id`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.model.bombardment import BUILDING_MATERIALS
from battletracker.model.bombardment_effects import SetBuildingState
from battletracker.model.effects import Effect
from battletracker.model.effects import SpendAmmo
from battletracker.model.game import Scalar
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
from battletracker.rules.base import degrees
from battletracker.rules.chain_of_command.arc_of_fire import Aim
from battletracker.rules.chain_of_command.arc_of_fire import read_aim
from battletracker.rules.chain_of_command.arc_of_fire import turn_effects
from battletracker.rules.chain_of_command.bombardment_data import data
from battletracker.rules.chain_of_command.fire import DEFAULT_TABLES
from battletracker.rules.chain_of_command.fire import MAX_DICE
from battletracker.rules.chain_of_command.fire import MAX_TEAMS
from battletracker.rules.chain_of_command.fire import QUALITIES
from battletracker.rules.chain_of_command.fire import RULESET
from battletracker.rules.chain_of_command.fire import SETTINGS
from battletracker.rules.chain_of_command.fire import FireTables
from battletracker.rules.chain_of_command.fire import HitEffect
from battletracker.rules.chain_of_command.fire import Targets
from battletracker.rules.chain_of_command.fire import Volley
from battletracker.rules.chain_of_command.fire import cover_words
from battletracker.rules.chain_of_command.fire import describe_volley
from battletracker.rules.chain_of_command.fire import kills_shock_key
from battletracker.rules.chain_of_command.fire import kills_shock_odds
from battletracker.rules.chain_of_command.fire import read_cover
from battletracker.rules.chain_of_command.fire import read_id
from battletracker.rules.chain_of_command.fire import read_sniper_target
from battletracker.rules.chain_of_command.fire import read_storm
from battletracker.rules.chain_of_command.fire import read_targets
from battletracker.rules.chain_of_command.fire import read_team_effects
from battletracker.rules.chain_of_command.fire import reduce_cover
from battletracker.rules.chain_of_command.fire import roll_volley
from battletracker.rules.chain_of_command.fire import sniper_volley
from battletracker.rules.chain_of_command.fire import target_effects
from battletracker.rules.chain_of_command.fire import to_hit_number
from battletracker.rules.chain_of_command.fire import volley_counts
from battletracker.rules.tables import find_setting
from battletracker.rules.tables import setting

TO_HIT = 4
COVER_REDUCTION = 1
FULL_CREW = 3
NO_BUILDING = "none"
UNSTABLE = "unstable"

GUN = "gun"
INFANTRY_AT = "infantry_at"
FIRER_KINDS = (GUN, INFANTRY_AT)
"""Who fires the H.E.: a gun (an Infantry or Anti-Tank Gun, or a vehicle's: the documents' rule for guns), or an
infantry anti-tank weapon."""
MINUS_ONE_PER_BAND = "minus_one_per_band"
HE_SETTINGS = ("infantry_at_he_range", "infantry_at_he_storm_of_steel", "infantry_at_he_reduce_cover")
"""The settings for what the documents leave out of an infantry anti-tank weapon's H.E."""


@dataclass(frozen=True)
class HERules:
    """How one firer's H.E. hits: the score needed before adjustments, Storm of Steel, cover levels reduced."""

    to_hit: int
    storm: bool
    cover_reduction: int
    band: str = "close"
    bands_out: int = 0

    def words(self) -> str:
        """"at Close Range (4+)", "at Close Range, 2 bands out (6+)": the hit rule in the player's words."""
        out = f" {counted(self.bands_out, 'bands')} out" if self.bands_out else ""
        return f"at {self.band.capitalize()} Range{',' + out if out else ''} ({self.to_hit}+)"

    def extras(self) -> str:
        """What else the rule gives: the Storm of Steel Bonus, cover reduced."""
        parts = ["Storm of Steel" if self.storm else "no Storm of Steel"]
        if self.cover_reduction:
            parts.append("cover reduced one level" if self.cover_reduction == 1
                         else f"cover reduced {counted(self.cover_reduction, 'levels')}")
        return ", ".join(parts)


def settings_of(overrides: Mapping[str, Scalar] | None) -> dict[str, Scalar]:
    """`HE_SETTINGS` with a game's changes (None: the documented defaults)."""
    return {key: setting(RULESET, key, overrides) for key in HE_SETTINGS}


def he_rules(kind: str, values: Mapping[str, Scalar], quality: str = "regular", band_index: int = 0,
             tables: FireTables = DEFAULT_TABLES) -> HERules:
    """The H.E. rule for this firer: a gun's from the documents, an infantry weapon's from `values`.

    Guns: "All fire is at Close Range, hitting on 4, 5 or 6 with the Storm of
    Steel Bonus", cover reduced one level. An infantry weapon fires its H.E.
    dice as Firepower Dice on the to-hit table for the band and the target's
    quality, as the settings say.
    """
    if kind == GUN:
        return HERules(TO_HIT, True, COVER_REDUCTION)
    storm = values["infantry_at_he_storm_of_steel"] is True
    reduction = int(values["infantry_at_he_reduce_cover"])
    bands_out = 0
    if values["infantry_at_he_range"] == MINUS_ONE_PER_BAND:
        band, bands_out = "close", band_index
    else:
        band = "close" if band_index == 0 else "effective"
    return HERules(to_hit_number(band, quality, tables) + bands_out, storm, reduction, band, bands_out)


def _read_settings(r: InputReader) -> dict[str, Scalar]:
    """`HE_SETTINGS` as given in the inputs (else the defaults), each checked as Ruleset settings checks it."""
    out: dict[str, Scalar] = {}
    for key in HE_SETTINGS:
        declared = find_setting(RULESET, key)
        default = declared.default
        value: Scalar
        if isinstance(default, bool):
            value = r.bool(key, default)
        elif isinstance(default, int):
            value = r.int(key, default)
        else:
            value = r.str(key, str(default))
        problem = declared.problem(value)
        if problem is not None:
            raise RulesInputError(key, problem)
        out[key] = value
    return out


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
    kind: str
    rules: HERules
    rounds_left: int | None
    weapon_index: int


def gun_can_move(crew: int) -> bool:
    """Three crew (attached Leaders count) or more; with fewer the gun stays where it is."""
    return crew >= FULL_CREW


def _parse(inputs: Inputs) -> GunHEInputs:
    r = InputReader(inputs)
    dice = r.int("he_dice", minimum=0, maximum=MAX_DICE)
    cover = read_cover(r)
    teams = r.int("teams", 1, minimum=1, maximum=MAX_TEAMS)
    kind = r.choice("firer_kind", FIRER_KINDS, GUN)
    crew = r.int("crew", minimum=1) if kind == GUN else FULL_CREW
    quality = r.choice("target_quality", QUALITIES, "regular") if kind != GUN else "regular"
    band_index = r.int("range_band_index", 0, minimum=0, maximum=12) if kind != GUN else 0
    rounds_left = r.optional_int("rounds_left", minimum=0) if kind == INFANTRY_AT else None
    weapon_index = r.int("weapon_index", 0, minimum=0) if kind == INFANTRY_AT else 0
    if rounds_left == 0:
        raise RulesInputError("rounds_left", "the weapon has no rounds left")
    modifier = r.int("to_hit_modifier", 0, minimum=-6, maximum=6)
    values = _read_settings(r)
    tables = FireTables.read(r)
    rules = he_rules(kind, values, quality, band_index, tables)
    to_hit = rules.to_hit - modifier
    if not 2 <= to_hit <= 6:
        adjusted = f"; adjusted by {modifier:+d} it would need {to_hit}" if modifier else ""
        raise RulesInputError("to_hit_modifier", f"H.E. hits on {rules.to_hit}+ before adjustments{adjusted}, "
                                                 "and a die scores 2 to 6")
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
    storm = read_storm(r, rules.storm)
    targets = read_sniper_target(r, read_targets(r, teams))
    team_effects = read_team_effects(r, teams, cover, rules.cover_reduction, 1, tables)
    aim = read_aim(r, "gun")
    firer_id = read_id(r, "firer_id")
    r.finish()
    if is_building and not in_building:
        raise RulesInputError("target_is_building", "infantry and anti-tank guns fire H.E. at a building only "
                                                    "when targeting a Unit inside it")
    effect = HitEffect.for_cover(reduce_cover(cover, rules.cover_reduction), 1, tables)
    volley = sniper_volley(Volley(dice, to_hit, storm, effect, teams, targets.figures, team_effects=team_effects,
                                  names=targets.names), targets)
    return GunHEInputs(volley, targets, aim, firer_id, crew, in_building, building, modifier, kind, rules,
                       rounds_left, weapon_index)


def _outcome(kills: int, shock: int, unstable: bool) -> str:
    return kills_shock_key(kills, shock) + (" building_unstable" if unstable else "")


def gun_he_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    roller = Roller(dice)
    v = roll_volley(roller, p.volley, "H.E. Firepower Dice")
    can_move = gun_can_move(p.crew)
    unstable = p.building.can_become_unstable and v.sixes >= data().unstable_sixes
    left = None if p.rounds_left is None else p.rounds_left - 1
    values = {**v.values(), "to_hit": p.volley.to_hit, "cover": p.volley.effect.cover, "crew": p.crew,
              "can_move": can_move, "target_in_building": p.target_in_building, "building_unstable": unstable,
              "firer_kind": p.kind, "storm_of_steel": p.rules.storm, "cover_reduced": p.rules.cover_reduction,
              "rounds_left_after": left, **p.aim.values()}
    log = [f"H.E. at Close Range, cover reduced one level to {cover_words(p.volley)}" if p.kind == GUN
           else f"H.E. {p.rules.words()}, {p.rules.extras()}: the target's cover read as {cover_words(p.volley)}"]
    if p.to_hit_modifier:
        log.append(f"{p.rules.to_hit}+ adjusted by {p.to_hit_modifier:+d}: each die needs {p.volley.to_hit}+")
    if p.aim.offset is not None:
        log.append(f"Target {degrees(p.aim.offset)} degrees off the barrel: the gun turns to face it (not a move)")
    log.extend(describe_volley(v, p.volley))
    if not can_move:
        log.append(f"Only {p.crew} crew: the gun cannot move but still fires inside its arc")
    effects: list[Effect] = [*turn_effects(p.firer_id, p.aim),
                             *target_effects(p.targets, v.team_kills, v.team_shock)]
    if left is not None and p.firer_id is not None:  # without the firer there is no card to spend it from
        log.append(f"One round spent: {left} left")
        effects.append(SpendAmmo(p.firer_id, p.weapon_index, 1))
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


register(Procedure("coc.gun_he", "H.E. at infantry", gun_he_resolve, gun_he_odds,
                   ruleset=RULESET, settings=(*SETTINGS, *HE_SETTINGS),
                   better=counts("kills", "shock"), rolled_by=FIRER,
                   typical={"he_dice": 4, "cover": "hard", "crew": 4, "teams": 2},
                   largest={"he_dice": 5, "cover": "open", "crew": 4, "teams": 2},
                   worst_best=("kills=0 shock=0", "kills=8 shock=0")))
