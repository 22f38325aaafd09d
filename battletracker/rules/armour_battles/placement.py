"""Where a close-support unit's indirect fire lands, and which units its burst hits.

`ab.indirect_placement` puts the Impact Marker on the aiming point. With line
of sight the fire is on target and nothing is rolled. Without it another unit
must act as Forward Observer and the deviation die is rolled: Hit lands on the
aiming point, an arrow moves the impact 1D6" in the arrow's direction.

The arrow's direction is the bearing the player reads off the table (input
`bearing`, degrees clockwise from the top edge); when it is not given, the app
rolls it on a clock die whose 12 points up the table. Close-support units fire
single missions only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TypeVar

from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.dice import Die
from battletracker.core.geometry import Point
from battletracker.core.geometry import offset
from battletracker.core.geometry import within_burst
from battletracker.core.odds import Distribution
from battletracker.model.effects import Effect
from battletracker.model.effects import PlaceMarker
from battletracker.model.game import Marker
from battletracker.rules import register
from battletracker.rules.armour_battles.data import RULESET
from battletracker.rules.armour_battles.data import indirect_fire_rules
from battletracker.rules.armour_battles.data import read_int_setting
from battletracker.rules.armour_battles.ranges import RangeProfile
from battletracker.rules.armour_battles.ranges import parse_ranges
from battletracker.rules.base import FIRER
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import degrees
from battletracker.rules.base import listed_order
from battletracker.rules.base import listed_rank
from battletracker.rules.base import worded
from battletracker.rules.places import compass

NAME = "ab.indirect_placement"
SETTINGS = ("deviation_hit_faces",)
MISSIONS = ("single", "continuous")
DEVIATION_FACES = 6
CLOCK_DIE = Die("clock die", tuple(range(1, 13)))
IMPACT_MARKER_KIND = "impact"

K = TypeVar("K")


def deviation_die(hit_faces: int) -> Die:
    """The six-sided deviation die: `hit_faces` faces show Hit, the rest an arrow."""
    return Die("deviation die", ("hit",) * hit_faces + ("arrow",) * (DEVIATION_FACES - hit_faces))


def clock_bearing(face: int) -> float:
    """The table bearing of a clock-die face: 12 up the table, 3 to the right."""
    return float(face % 12 * 30)


def impact_marker(marker_id: str, x: float, y: float, aim: Point | None = None) -> Marker:
    """The Impact Marker with the close-support burst radius, as placed for one fire mission."""
    data: dict[str, int | float | str | bool] = {}
    if aim is not None:
        data = {"aim_x": aim[0], "aim_y": aim[1]}
    return Marker(marker_id, IMPACT_MARKER_KIND, x, y, indirect_fire_rules().burst_radius, "Impact", None, data)


def burst_targets(centre: Point, units: Iterable[tuple[K, Point]]) -> list[K]:
    """Keys of the units under a close-support burst at `centre` (a unit exactly on the edge is under it)."""
    return within_burst(centre, indirect_fire_rules().burst_radius, units)


@dataclass(frozen=True)
class PlacementInputs:
    aim_x: float
    aim_y: float
    range: float
    ranges: RangeProfile
    los: bool
    observer: bool
    opportunity: bool
    bearing: float | None
    marker_id: str
    hit_faces: int
    band: str


def parse_placement(inputs: Inputs) -> PlacementInputs:
    """The placement's inputs, or the refusal (range, Forward Observer, single missions only)."""
    r = InputReader(inputs)
    mission = r.choice("mission", MISSIONS, "single")
    aim_x = r.float("aim_x")
    aim_y = r.float("aim_y")
    dist = r.float("range", minimum=0.0)
    ranges = parse_ranges(r.str("ranges"))
    los = r.bool("los")
    observer = r.bool("observer")
    opportunity = r.bool("opportunity")
    bearing = r.optional_float("bearing", minimum=0.0, maximum=360.0)
    marker_id = r.str("marker_id", "")
    hit_faces = read_int_setting(r, "deviation_hit_faces")
    r.finish()
    if mission == "continuous":
        raise RulesInputError("mission", "close-support units fire single missions only: "
                                         "they cannot conduct continuous fire missions")
    if opportunity and not los:
        raise RulesInputError("los", "a close-support unit may only use opportunity fire "
                                     "with a direct line of sight to the target")
    band = ranges.check_indirect(dist, indirect_fire_rules().long_range_multiplier)
    if not los and not observer:
        raise RulesInputError("observer", "without line of sight to the target another unit "
                                          "must act as its Forward Observer")
    return PlacementInputs(aim_x, aim_y, dist, ranges, los, observer, opportunity,
                           None if bearing is None else bearing % 360.0, marker_id, hit_faces, band)


def placement_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = parse_placement(inputs)
    rules = indirect_fire_rules()
    roller = Roller(dice)
    aim = (p.aim_x, p.aim_y)
    face: str | None = None
    bearing: float | None = None
    distance = 0
    if p.los:
        log = ["Line of sight to the target: the fire is on target, no deviation roll."]
    else:
        face = str(roller.one("Deviation die", deviation_die(p.hit_faces)))
        if face == "hit":
            log = ["Deviation die: Hit, the fire lands on the aiming point."]
        else:
            if p.bearing is None:
                clock = int(roller.one("Arrow direction (clock die)", CLOCK_DIE))
                bearing = clock_bearing(clock)
            else:
                bearing = p.bearing
            distance = sum(roller.roll_ints("Deviation distance", D6, rules.deviation_dice))
            log = [f'Deviation die: arrow, the fire deviates {distance}" on bearing {degrees(bearing)}°.']
    x, y = offset(aim, bearing, distance) if bearing is not None else aim
    outcome = "deviated" if face == "arrow" else "on_target"
    effects: list[Effect] = []
    if p.marker_id:
        effects.append(PlaceMarker(impact_marker(p.marker_id, x, y, aim)))
        where = (f'{distance}" {compass(bearing)} of the aiming point' if bearing is not None and distance
                 else "on the aiming point")
        log.append(f'Impact Marker {where} with a {rules.burst_radius:g}" burst radius.')
    values = {
        "distance": distance,
        "bearing": bearing,
        "x": x,
        "y": y,
        "aim_x": p.aim_x,
        "aim_y": p.aim_y,
        "deviation": face,
        "band": p.band,
        "burst_radius": rules.burst_radius,
        "indirect_long_range": p.ranges.indirect_long(rules.long_range_multiplier),
    }
    return Resolution(NAME, outcome, values, roller.rolls, effects, log)


@lru_cache(maxsize=64)
def _odds(los: bool, hit_faces: int) -> Distribution[str]:
    if los:
        return Distribution.certain("on_target")
    hit = Fraction(hit_faces, DEVIATION_FACES)
    return Distribution({"on_target": hit, "deviated": 1 - hit})


def placement_odds(inputs: Inputs) -> Distribution[str]:
    p = parse_placement(inputs)
    return _odds(p.los, p.hit_faces)


LANDING_WORDS = {"on_target": "On target", "deviated": "Deviates"}

register(Procedure(NAME, "Indirect fire: placement", placement_resolve, placement_odds,
                   ruleset=RULESET, settings=SETTINGS, label=worded(LANDING_WORDS),
                   order=listed_order(*LANDING_WORDS),
                   better=listed_rank("deviated", "on_target"), rolled_by=FIRER,
                   typical={"aim_x": 30, "aim_y": 20, "range": 24, "ranges": "9/18/36", "los": False,
                            "observer": True},
                   worst_best=("deviated", "on_target")))
