"""`coc.ranging_shot`: the Forward Observer's ranging shot for a Medium Mortar bombardment.

2D6, +1 for each earlier unobserved shot of this bombardment, read on the
ranging table (bombardment.toml): unobserved (try again next Phase with the
+1), deviates 4D6", 3D6" or 2D6", on target, or a Devastating Bombardment.
The document does not say which way a deviating shot goes: unless the player
sets `bearing`, a die (settings.toml: a D12 read as a clock face) gives it.
The landing point is where fire for effect would fall. Ranging shots do not
use up Phases of fire. A smoke barrage (`smoke`) rolls no Firepower Dice, so
the Devastating row reads as on target for it.

A Forward Observer ranges in its own side's Phase (`side`, `active_side`) and
repeats an unobserved shot only "on subsequent Phases": a second shot in the
Phase of the last one (`last_ranging_turn`, `last_ranging_phase`) is refused,
so the +1 is only ever taken in a later Phase.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from battletracker.core import geometry
from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.dice import numeric_die
from battletracker.core.odds import Distribution
from battletracker.model.bombardment import BombardmentEvent
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.bombardment_effects import AppendBombardmentEvent
from battletracker.model.bombardment_effects import UpdateBombardment
from battletracker.model.effects import Effect
from battletracker.model.game import Scalar
from battletracker.rules import register
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import degrees
from battletracker.rules.base import listed_order
from battletracker.rules.base import worded
from battletracker.rules.chain_of_command.bombardment_data import RULESET
from battletracker.rules.chain_of_command.bombardment_data import data
from battletracker.rules.chain_of_command.fire import read_id
from battletracker.rules.log_lines import recorded_point
from battletracker.rules.places import compass
from battletracker.rules.sequence import check_once_a_phase
from battletracker.rules.sequence import check_own_phase
from battletracker.rules.sequence import read_last
from battletracker.rules.tables import setting

SETTINGS = ("ranging_bearing_die_sides", "ranging_above_table")
ABOVE_TABLE = ("devastating", "on_target")
MAX_ATTEMPTS = 20


@dataclass(frozen=True)
class RangingInputs:
    aim: geometry.Point
    unobserved_attempts: int
    bearing: float | None
    bearing_die_sides: int
    above_table: str
    bombardment_id: str | None
    turn: int
    phase: int
    table: tuple[float, float] | None
    smoke: bool


def _setting_int(key: str) -> int:
    value = setting(RULESET, key)
    assert isinstance(value, int)
    return value


def _setting_str(key: str) -> str:
    value = setting(RULESET, key)
    assert isinstance(value, str)
    return value


def read_table(r: InputReader) -> tuple[float, float] | None:
    """`table_width` and `table_height` together, or neither (then points are not checked)."""
    width = r.optional_float("table_width", minimum=1.0)
    height = r.optional_float("table_height", minimum=1.0)
    if (width is None) != (height is None):
        raise RulesInputError("table_width" if width is None else "table_height",
                              "give table_width and table_height together")
    return None if width is None or height is None else (width, height)


def check_on_table(point: geometry.Point, table: tuple[float, float] | None, x_key: str, y_key: str) -> None:
    if table is None:
        return
    if not -geometry.EPSILON <= point[0] <= table[0] + geometry.EPSILON:
        raise RulesInputError(x_key, f"{point[0]:g} is off the table (0 to {table[0]:g} inches)")
    if not -geometry.EPSILON <= point[1] <= table[1] + geometry.EPSILON:
        raise RulesInputError(y_key, f"{point[1]:g} is off the table (0 to {table[1]:g} inches)")


def read_stamp(r: InputReader, bombardment_id: str | None) -> tuple[int, int]:
    """The Turn and Phase for the bombardment's history: required when there is a bombardment to change."""
    if bombardment_id is None:
        return (r.int("turn", 1, minimum=1), r.int("phase", 1, minimum=1))
    return (r.int("turn", minimum=1), r.int("phase", minimum=1))


def _parse(inputs: Inputs) -> RangingInputs:
    r = InputReader(inputs)
    aim = (r.float("aim_x"), r.float("aim_y"))
    attempts = r.int("unobserved_attempts", 0, minimum=0, maximum=MAX_ATTEMPTS)
    bearing = r.optional_float("bearing", minimum=0.0, maximum=360.0)
    sides = r.int("ranging_bearing_die_sides", _setting_int("ranging_bearing_die_sides"), minimum=2, maximum=360)
    above = r.choice("ranging_above_table", ABOVE_TABLE, _setting_str("ranging_above_table"))
    bombardment_id = read_id(r, "bombardment_id")
    turn, phase = read_stamp(r, bombardment_id)
    side = r.int("side", 0, minimum=0)
    active_side = r.optional_int("active_side", minimum=0)
    last = read_last(r, "last_ranging")
    table = read_table(r)
    smoke = r.bool("smoke", False)
    r.finish()
    check_on_table(aim, table, "aim_x", "aim_y")
    check_own_phase(side, active_side, "A Forward Observer ranges")
    check_once_a_phase(last, PhaseStamp(turn, phase), "last_ranging_phase", "took a ranging shot",
                       "an unobserved shot is repeated on a later Phase")
    return RangingInputs(aim, attempts, None if bearing is None else geometry.normalise(bearing), sides, above,
                         bombardment_id, turn, phase, table, smoke)


def bearing_from_face(face: int, sides: int) -> float:
    """A bearing die read as a clock face: the top face (the die's highest) points up the table."""
    return (face % sides) * 360.0 / sides


def bearing_roll_label(sides: int) -> str:
    """The roll that gives a deviating shot's direction, named as the dice prompt names it."""
    return f"Deviation direction (D{sides})"


def bearing_die_faces(inputs: Inputs, asked: str) -> tuple[geometry.Point, tuple[tuple[int, float], ...]] | None:
    """While `asked` is the direction die: the aiming point and each face with its bearing, face 1 first.

    The map draws the faces round the aiming point before the die is rolled,
    so the reading the player checks is `bearing_from_face`'s own; None while
    any other roll is asked for.
    """
    p = _parse(inputs)
    if asked != bearing_roll_label(p.bearing_die_sides):
        return None
    sides = p.bearing_die_sides
    return p.aim, tuple((face, bearing_from_face(face, sides)) for face in range(1, sides + 1))


def bearing_die_words(settings: Mapping[str, Scalar]) -> str:
    """How the die for a deviating shot's direction maps to the table: the document is silent, so a default.

    Said where the dialog asks for the roll, with `bearing_from_face`'s own
    reading: a D12 is a clock face laid on the table, its 12 towards the top edge.
    """
    sides = int(setting(RULESET, "ranging_bearing_die_sides", settings))
    step = 360.0 / sides
    if sides == 12:
        reading = ("read like a clock face laid on the table: 12 points to the top edge, 3 to the right edge, "
                   "6 to the bottom edge, 9 to the left, each face 30 degrees on from the last")
    else:
        reading = (f"read as {sides} directions: {sides} points to the top edge and each face below it turns "
                   f"{step:g} degrees clockwise from there (face 1 is {step:g} degrees right of the top)")
    return (f"A deviating shot's direction: one D{sides}, {reading}. The document does not say how the direction is "
            f"found; this is a default to check (Game > Ruleset settings), or set the bearing yourself.")


def ranging_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    table = data().ranging
    roller = Roller(dice)
    natural = sum(roller.roll_ints("Ranging shot (2D6)", D6, table.dice))
    modifier = p.unobserved_attempts * table.per_unobserved_attempt
    total = natural + modifier
    row = table.row(total, p.above_table)
    if p.smoke and row.result == "devastating":
        row = next(r for r in table.rows if r.result == "on_target")
    shown = f"{natural}" + (f" +{modifier} = {total}" if modifier else "")
    distance = 0.0
    bearing = p.bearing
    landed = p.aim
    log = [f"Ranging shot: {shown}"]
    deviates = ""
    if row.result == "deviates":
        distance = float(sum(roller.roll_ints(f"Deviation ({row.deviation_dice}D6 inches)", D6,
                                              row.deviation_dice)))
        if bearing is None:
            face = int(roller.one(bearing_roll_label(p.bearing_die_sides), numeric_die(p.bearing_die_sides)))
            bearing = bearing_from_face(face, p.bearing_die_sides)
        landed = geometry.offset(p.aim, bearing, distance)
        deviates = f"Deviates {distance:g}\" on a bearing of {degrees(bearing)} degrees: lands at "
        log.append(f"Deviates {distance:g}\" {compass(round(bearing))} of the aiming point (a bearing of "
                   f"{degrees(bearing)} degrees)")
        if p.table is not None and not geometry.on_table(landed, *p.table):
            log.append("The shot lands off the table")
        log.append("At the Forward Observer's next activation: fire for effect there, or re-aim")
    elif row.result == "unobserved":
        log.append(f"Unobserved: no effect; range again next Phase with +{modifier + table.per_unobserved_attempt}")
    elif row.result == "on_target":
        log.append("On target: the bombardment begins now")
    else:
        log.append("Devastating Bombardment: on target, and the first Phase of fire rolls double Firepower Dice")
    values = {"roll": total, "natural": natural, "modifier": modifier, "distance": distance, "bearing": bearing,
              "x": landed[0], "y": landed[1]}
    summary = log[1] if row.result != "deviates" else deviates + recorded_point(landed)
    return Resolution("coc.ranging_shot", row.result, values, roller.rolls,
                      _effects(p, row.result, landed, values, summary), log)


def _effects(p: RangingInputs, result: str, landed: geometry.Point, values: Mapping[str, float | None],
             text: str) -> list[Effect]:
    if p.bombardment_id is None:
        return []
    stamp = ("last_ranged", PhaseStamp(p.turn, p.phase))
    if result == "unobserved":
        update: tuple[tuple[str, object], ...] = (("unobserved_attempts", p.unobserved_attempts + 1), stamp)
    elif result == "deviates":
        update = (("state", "landed"), ("landed_x", landed[0]), ("landed_y", landed[1]), stamp)
    else:
        update = (("state", "ready"), ("devastating", result == "devastating"), ("landed_x", None),
                  ("landed_y", None), stamp)
    numbers = {k: v for k, v in values.items() if v is not None}
    event = BombardmentEvent(p.turn, p.phase, "ranging", f"Ranging shot {values['roll']}: {text}",
                             landed[0], landed[1], p.aim[0], p.aim[1], {"result": result, **numbers})
    return [UpdateBombardment(p.bombardment_id, update), AppendBombardmentEvent(p.bombardment_id, event)]


@lru_cache(maxsize=256)
def _odds(attempts: int, above_table: str, smoke: bool) -> Distribution[str]:
    table = data().ranging
    modifier = attempts * table.per_unobserved_attempt

    def result(n: int) -> str:
        read = table.row(n + modifier, above_table).result
        return "on_target" if smoke and read == "devastating" else read
    return Distribution.dice_sum(table.dice).map(result)


def ranging_odds(inputs: Inputs) -> Distribution[str]:
    p = _parse(inputs)
    return _odds(p.unobserved_attempts, p.above_table, p.smoke)


def ranging_luck(inputs: Inputs) -> Distribution[str]:
    """The ranging shot's odds with each deviation's inches ("deviates=7"): how far it strays is what the
    Forward Observer's side cares about, so the dice luck ranks a shorter deviation above a longer one."""
    p = _parse(inputs)
    return _luck(p.unobserved_attempts, p.above_table, p.smoke)


@lru_cache(maxsize=256)
def _luck(attempts: int, above_table: str, smoke: bool) -> Distribution[str]:
    table = data().ranging
    modifier = attempts * table.per_unobserved_attempt
    weights: dict[str, Fraction] = {}
    for n, chance in Distribution.dice_sum(table.dice).items():
        row = table.row(n + modifier, above_table)
        result = "on_target" if smoke and row.result == "devastating" else row.result
        if result != "deviates":
            weights[result] = weights.get(result, Fraction(0)) + chance
            continue
        for inches, also in Distribution.dice_sum(row.deviation_dice).items():
            key = f"deviates={inches}"
            weights[key] = weights.get(key, Fraction(0)) + chance * also
    return Distribution(weights)


def ranging_luck_outcome(result: Resolution) -> str:
    """A resolved ranging shot as `ranging_luck` keys it."""
    if result.outcome != "deviates":
        return result.outcome
    return f"deviates={round(float(result.values['distance']))}"


def ranging_better(outcome: str) -> tuple[float, ...]:
    """Devastating > on target > a shorter deviation > a longer one > unobserved (no landing at all)."""
    if outcome.startswith("deviates"):
        _, _, inches = outcome.partition("=")
        return (1.0, -float(inches or 0))
    return (float(("unobserved", "deviates", "on_target", "devastating").index(outcome)), 0.0)


LANDINGS = {"unobserved": "Unobserved: no effect", "deviates": "Deviates", "on_target": "On target",
            "devastating": "Devastating"}

register(Procedure("coc.ranging_shot", "Ranging shot", ranging_resolve, ranging_odds,
                   ruleset=RULESET, settings=SETTINGS, label=worded(LANDINGS), order=listed_order(*LANDINGS),
                   better=ranging_better, rolled_by=("side",), luck=(ranging_luck, ranging_luck_outcome),
                   typical={"aim_x": 36, "aim_y": 24, "unobserved_attempts": 1},
                   largest={"aim_x": 36, "aim_y": 24, "unobserved_attempts": 20},
                   worst_best=("unobserved", "devastating")))
