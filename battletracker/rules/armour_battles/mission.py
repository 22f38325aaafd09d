"""A close-support unit's whole indirect fire mission: `ab.indirect_mission`.

One procedure, one set of dice in the order the document rolls them, one undo
step: the Impact Marker goes on the aiming point; without line of sight the
deviation die (and the arrow's direction and 1D" distance) moves it; every
unit under the 2" burst where it lands is rolled against with FP or AT Dice
(halved, less the move's dice, 4+, artillery suppressions) and makes its
Reaction Check; then the Impact Marker is removed.

Which units are hit depends on where the fire lands, so the inputs carry every
unit near the aiming point (`unit<N>_...`, N from 1 to `units`) and the
procedure works out who is under the burst after any deviation.

The outcome is what the player weighs before firing: whether the fire lands
on target, how many units end suppressed and how many take Disruption
("deviated suppressed=1 disrupted=2"); each target's own result is in the
Resolution's values and log.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from functools import partial

from battletracker.core.dice import Dice
from battletracker.core.dice import Die
from battletracker.core.dice import Face
from battletracker.core.geometry import Point
from battletracker.core.geometry import offset
from battletracker.core.odds import Distribution
from battletracker.model.effects import Effect
from battletracker.model.effects import RemoveMarker
from battletracker.rules import register
from battletracker.rules.armour_battles import fire
from battletracker.rules.armour_battles import placement
from battletracker.rules.armour_battles import reaction
from battletracker.rules.armour_battles.data import RULESET
from battletracker.rules.armour_battles.data import indirect_fire_rules
from battletracker.rules.armour_battles.fire import FirePlan
from battletracker.rules.armour_battles.fire import plan_fire
from battletracker.rules.armour_battles.placement import CLOCK_DIE
from battletracker.rules.armour_battles.placement import burst_targets
from battletracker.rules.armour_battles.placement import clock_bearing
from battletracker.rules.armour_battles.reaction import ReactionPlan
from battletracker.rules.armour_battles.reaction import plan_reaction
from battletracker.rules.armour_battles.reaction import suppresses
from battletracker.rules.base import FIRER
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import InputValue
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import numbered

NAME = "ab.indirect_mission"
SETTINGS = tuple(dict.fromkeys(placement.SETTINGS + fire.SETTINGS + reaction.SETTINGS))
MAX_UNITS = 60
LANDINGS = ("on_target", "deviated")


def outcome_key(lands: str, suppressed: int, disrupted: int) -> str:
    return f"{lands} suppressed={suppressed} disrupted={disrupted}"


def label(outcome: str) -> str:
    """The outcome in a player's words: "Deviates: 1 unit suppressed, 2 take Disruption"."""
    lands, *parts = outcome.split()
    counts = dict(part.split("=", 1) for part in parts)
    suppressed, disrupted = int(counts["suppressed"]), int(counts["disrupted"])
    where = "On target" if lands == "on_target" else "Deviates"
    if not suppressed and not disrupted:
        return f"{where}: no effect"
    said = []
    if suppressed:
        said.append(f"{suppressed} unit{'s' if suppressed > 1 else ''} suppressed")
    if disrupted:
        units = "" if suppressed else (" unit" if disrupted == 1 else " units")
        said.append(f"{disrupted}{units} {'takes' if disrupted == 1 else 'take'} Disruption")
    return f"{where}: " + ", ".join(said)


def sort_key(outcome: str) -> tuple[int, int, int]:
    """Display order: on target first, then by units suppressed and disrupted."""
    lands, *parts = outcome.split()
    counts = dict(part.split("=", 1) for part in parts)
    return (LANDINGS.index(lands), int(counts["suppressed"]), int(counts["disrupted"]))


def firer_rank(outcome: str) -> tuple[float, ...]:
    """How good a mission's outcome is for the firer (`Procedure.better`): more units taking Disruption,
    then more suppressed, then (for the same) landing on target rather than deviating."""
    lands, *parts = outcome.split()
    counts = dict(part.split("=", 1) for part in parts)
    return (float(counts["disrupted"]), float(counts["suppressed"]), 1.0 if lands == "on_target" else 0.0)


@dataclass(frozen=True)
class Target:
    """A unit near the aiming point, with what its fire and Reaction would roll."""

    id: str
    name: str
    x: float
    y: float
    armoured: bool
    reaction_dice: int
    suppressed: bool
    disruption: int
    cover_dice: int


@dataclass(frozen=True)
class MissionInputs:
    firer_id: str
    firer_name: str
    aim: Point
    los: bool
    bearing: float | None
    marker_id: str
    hit_faces: int
    deviation_dice: int
    radius: float
    placement: tuple[tuple[str, InputValue], ...]
    shot: tuple[tuple[str, InputValue], ...]
    reaction_settings: tuple[tuple[str, InputValue], ...]
    targets: tuple[Target, ...]


def _setting_items(inputs: Inputs, keys: tuple[str, ...]) -> tuple[tuple[str, InputValue], ...]:
    return tuple((k, inputs[k]) for k in keys if k in inputs and inputs[k] is not None)


@lru_cache(maxsize=64)
def _parse_cached(items: tuple[tuple[str, InputValue], ...]) -> MissionInputs:
    inputs = dict(items)
    r = InputReader(inputs)
    firer_id = r.str("firer_id", "")
    firer_name = r.str("firer_name", "The close-support unit")
    aim = (r.float("aim_x"), r.float("aim_y"))
    place: dict[str, InputValue] = {"aim_x": aim[0], "aim_y": aim[1], "range": r.float("range", minimum=0.0),
                                    "ranges": r.str("ranges"), "los": r.bool("los"),
                                    "observer": r.bool("observer"), "opportunity": r.bool("opportunity"),
                                    "mission": r.choice("mission", placement.MISSIONS, "single")}
    bearing = r.optional_float("bearing", minimum=0.0, maximum=360.0)
    if bearing is not None:
        place["bearing"] = bearing
    marker_id = r.str("marker_id", "")
    shot: dict[str, InputValue] = {"mode": "indirect", "fp_dice": r.int("fp_dice", minimum=0, maximum=fire.MAX_DICE),
                                   "at_dice": r.int("at_dice", minimum=0, maximum=fire.MAX_DICE),
                                   "move": r.choice("move", fire.MOVES, "single"), "range": place["range"],
                                   "ranges": place["ranges"], "los": place["los"],
                                   "opportunity": place["opportunity"],
                                   "firer_suppressed": r.bool("firer_suppressed")}
    count = r.int("units", 0, minimum=0, maximum=MAX_UNITS)
    targets = []
    for n in range(1, count + 1):
        p = f"unit{n}_"
        targets.append(Target(
            id=r.str(p + "id"), name=r.str(p + "name", r.str(p + "id")), x=r.float(p + "x"), y=r.float(p + "y"),
            armoured=r.bool(p + "armoured"),
            reaction_dice=r.int(p + "reaction_dice", minimum=0, maximum=reaction.MAX_DICE),
            suppressed=r.bool(p + "suppressed"), disruption=r.int(p + "disruption", 0, minimum=0),
            cover_dice=r.int(p + "cover_dice", 0, minimum=0, maximum=reaction.MAX_DICE)))
    for key in SETTINGS:
        r.optional_str(key)
    r.finish()
    if len({t.id for t in targets}) != len(targets):
        raise RulesInputError("units", "each unit near the aiming point must be listed once")
    place.update(_setting_items(inputs, placement.SETTINGS))
    shot.update(_setting_items(inputs, fire.SETTINGS))
    placed = placement.parse_placement(place)  # the placement's own refusals (range, observer, missions)
    for dice_type in fire.DICE_TYPES:
        plan_fire({**shot, "dice_type": dice_type})  # the fire's own refusals (a suppressed firer)
    rules = indirect_fire_rules()
    parsed = MissionInputs(
        firer_id=firer_id, firer_name=firer_name, aim=aim, los=placed.los, bearing=placed.bearing,
        marker_id=marker_id, hit_faces=placed.hit_faces, deviation_dice=rules.deviation_dice,
        radius=rules.burst_radius, placement=tuple(place.items()), shot=tuple(shot.items()),
        reaction_settings=_setting_items(inputs, reaction.SETTINGS), targets=tuple(targets))
    for t in targets:
        _reaction_plan(parsed, t)  # the Reaction's own refusals (a unit already dispersed)
    return parsed


def parse(inputs: Inputs) -> MissionInputs:
    """The mission's inputs, parsed once per distinct set (the odds and the dialog ask often)."""
    if not hasattr(inputs, "items"):
        raise RulesInputError("inputs", "must be a mapping of names to values")
    return _parse_cached(tuple(sorted(inputs.items())))


def _fire_plan(p: MissionInputs, armoured: bool) -> FirePlan:
    return _fire_plan_cached(p.shot, "at" if armoured else "fp")


@lru_cache(maxsize=128)
def _fire_plan_cached(shot: tuple[tuple[str, InputValue], ...], dice_type: str) -> FirePlan:
    return plan_fire({**dict(shot), "dice_type": dice_type})


def _reaction_inputs(p: MissionInputs, t: Target, incoming: int, sixes: int) -> dict[str, InputValue]:
    return {**dict(p.reaction_settings), "reaction_dice": t.reaction_dice, "incoming": incoming,
            "incoming_sixes": sixes, "suppression": "artillery", "suppressed": t.suppressed,
            "cover_dice": t.cover_dice, "indirect": True, "disruption": t.disruption, "target_id": t.id,
            "firer_id": p.firer_id}


def _reaction_plan(p: MissionInputs, t: Target) -> ReactionPlan:
    """The Reaction roll the target makes when the fire scores (its dice do not depend on how much)."""
    return _reaction_plan_cached(p.reaction_settings, t.reaction_dice, t.suppressed, t.cover_dice, t.disruption)


@lru_cache(maxsize=256)
def _reaction_plan_cached(settings: tuple[tuple[str, InputValue], ...], dice: int, suppressed: bool, cover: int,
                          disruption: int) -> ReactionPlan:
    return plan_reaction({**dict(settings), "reaction_dice": dice, "incoming": 1, "suppression": "artillery",
                          "suppressed": suppressed, "cover_dice": cover, "indirect": True,
                          "disruption": disruption})


def under_burst(p: MissionInputs, centre: Point) -> list[Target]:
    """The listed units under the burst at `centre`, in the order listed (the order they are rolled for)."""
    return burst_targets(centre, [(t, (t.x, t.y)) for t in p.targets])


class _Prefixed:
    """The mission's dice, with each roll's label naming the unit it is for."""

    def __init__(self, dice: Dice, prefix: str) -> None:
        self._dice = dice
        self._prefix = prefix

    def roll(self, die: Die, count: int, label: str) -> tuple[Face, ...]:
        return self._dice.roll(die, count, f"{self._prefix}: {label}")


def mission_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = parse(inputs)
    placed = placement.placement_resolve({**dict(p.placement), "marker_id": p.marker_id}, dice)
    rolls = list(placed.rolls)
    effects: list[Effect] = list(placed.effects)
    log = [f"Indirect fire by {p.firer_name}.", *placed.log]
    centre = (float(placed.values["x"]), float(placed.values["y"]))
    under = under_burst(p, centre)
    log.append(f'Under the {p.radius:g}" burst: ' + (", ".join(t.name for t in under) or "no units") + ".")
    results = []
    suppressed = disrupted = 0
    for t in under:
        prefixed = _Prefixed(dice, t.name)
        shot = fire.fire_resolve({**dict(p.shot), "dice_type": "at" if t.armoured else "fp"}, prefixed)
        answer = reaction.reaction_resolve(
            _reaction_inputs(p, t, int(shot.values["successes"]), int(shot.values["sixes"])), prefixed)
        rolls.extend((f"{t.name}: {label}", values) for label, values in (*shot.rolls, *answer.rolls))
        effects.extend(answer.effects)
        log.extend(f"{t.name}: {line}" for line in (*shot.log, *answer.log))
        suppressed += bool(answer.values["suppressed"])
        disrupted += int(answer.values["disruption"]) > 0
        results.append({"id": t.id, "name": t.name, "dice_type": shot.values["dice_type"],
                        "dice_rolled": shot.values["dice_rolled"], "successes": shot.values["successes"],
                        "sixes": shot.values["sixes"], "disruption": answer.values["disruption"],
                        "suppressed": answer.values["suppressed"], "dispersed": answer.values["dispersed"],
                        "forced_back": answer.values["forced_back"]})
    if p.marker_id:
        effects.append(RemoveMarker(p.marker_id))
        log.append("The Impact Marker is removed.")
    values = {**placed.values, "under": tuple(t.id for t in under), "targets": tuple(results),
              "units_suppressed": suppressed, "units_disrupted": disrupted}
    return Resolution(NAME, outcome_key(placed.outcome, suppressed, disrupted), values, rolls, effects, log)


# -- odds ---------------------------------------------------------------------------------------------

@lru_cache(maxsize=256)
def _throws(dice: int, tn: int) -> dict[tuple[int, int], int]:
    """(successes, sixes) of `dice` D6 needing `tn`+, as counts of the 6**dice equally likely throws."""
    counts = {(0, 0): 1}
    for _ in range(dice):
        rolled: dict[tuple[int, int], int] = {}
        for (hits, sixes), n in counts.items():
            for face in range(1, 7):
                key = (hits + (face >= tn), sixes + (face == 6))
                rolled[key] = rolled.get(key, 0) + n
        counts = rolled
    return counts


@lru_cache(maxsize=1024)
def _target_odds(fire_dice: int, fire_tn: int, reaction_dice: int, reaction_tn: int,
                 ) -> Distribution[tuple[int, int]]:
    """(suppressed, disrupted) as 0/1 for one unit under the burst: its fire, then its Reaction."""
    answers = _throws(reaction_dice, reaction_tn)
    throws = 6 ** reaction_dice
    out: dict[tuple[int, int], int] = {}
    for (hits, sixes), n in _throws(fire_dice, fire_tn).items():
        if hits == 0:
            out[(0, 0)] = out.get((0, 0), 0) + n * throws
            continue
        for (saves, answered), m in answers.items():
            key = (int(suppresses("artillery", sixes, answered)), int(hits > saves))
            out[key] = out.get(key, 0) + n * m
    return Distribution.from_weights(out, 6 ** fire_dice * throws)


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return (a[0] + b[0], a[1] + b[1])


Profile = tuple[int, int, int, int]


@lru_cache(maxsize=4096)
def _group_odds(profiles: tuple[Profile, ...]) -> Distribution[tuple[int, int]]:
    """Units suppressed and units disrupted for the units under one burst (sorted profiles: independent rolls)."""
    if not profiles:
        return Distribution.certain((0, 0))
    return _group_odds(profiles[:-1]).convolve(_target_odds(*profiles[-1]), _add).reduced()


def _landings(p: MissionInputs) -> tuple[int, list[tuple[int, str, Point]]]:
    """Where the fire may land, each with its whole-number weight over the returned denominator:
    the aiming point, or each arrow direction and distance."""
    if p.los:
        return 1, [(1, "on_target", p.aim)]
    bearings = ([p.bearing] if p.bearing is not None else [clock_bearing(int(f)) for f in CLOCK_DIE.faces])
    throws = placement.DEVIATION_FACES ** p.deviation_dice
    out: list[tuple[int, str, Point]] = [(p.hit_faces * len(bearings) * throws, "on_target", p.aim)]
    ways: dict[int, int] = {0: 1}  # the deviation distance: ways to throw each total on the D6s
    for _ in range(p.deviation_dice):
        rolled: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, 7):
                rolled[total + face] = rolled.get(total + face, 0) + n
        ways = rolled
    for b in bearings:
        for dist, n in ways.items():
            out.append(((placement.DEVIATION_FACES - p.hit_faces) * n, "deviated", offset(p.aim, b, dist)))
    return placement.DEVIATION_FACES * len(bearings) * throws, out


def _key(lands: str, counts: tuple[int, int]) -> str:
    return outcome_key(lands, counts[0], counts[1])


@lru_cache(maxsize=64)
def _odds(p: MissionInputs) -> Distribution[str]:
    profile: dict[str, Profile] = {}
    for t in p.targets:
        shot = _fire_plan(p, t.armoured)
        answer = _reaction_plan(p, t)
        profile[t.id] = (shot.dice_rolled, shot.tn, answer.dice_rolled, answer.tn)
    den, landings = _landings(p)
    groups: dict[tuple[str, tuple[Profile, ...]], int] = {}
    for weight, lands, centre in landings:
        group = (lands, tuple(sorted(profile[t.id] for t in under_burst(p, centre))))
        groups[group] = groups.get(group, 0) + weight
    mixed = Distribution.mix((Fraction(weight, den), _group_odds(profiles).map(partial(_key, lands)))
                             for (lands, profiles), weight in groups.items())
    return Distribution(sorted(mixed.items(), key=lambda item: sort_key(item[0])))


def mission_odds(inputs: Inputs) -> Distribution[str]:
    return _odds(parse(inputs))


def _benchmark_unit(uid: str, x: float, y: float, armoured: bool, reaction: int) -> dict[str, InputValue]:
    return {"id": uid, "x": x, "y": y, "armoured": armoured, "reaction_dice": reaction}


def _benchmark_mission(units: list[dict[str, InputValue]], fp: int, at: int) -> dict[str, InputValue]:
    """A Stuh's mission at (30", 20") called by an observer out of its sight, over `units`."""
    return {"firer_id": "stuh", "aim_x": 30.0, "aim_y": 20.0, "range": 24.0, "ranges": "9/18/36", "los": False,
            "observer": True, "fp_dice": fp, "at_dice": at, "marker_id": "impact1", **numbered("unit", "units", units)}


register(Procedure(NAME, "Indirect fire mission", mission_resolve, mission_odds, ruleset=RULESET, settings=SETTINGS,
                   label=label, order=sort_key, better=firer_rank, rolled_by=FIRER,
                   typical=_benchmark_mission([_benchmark_unit("rifles", 29.0, 20.0, False, 4),
                                               _benchmark_unit("smgs", 31.5, 21.0, False, 4),
                                               _benchmark_unit("t34", 30.0, 18.0, True, 5),
                                               _benchmark_unit("far", 32.01, 20.0, False, 4)], 7, 4),
                   largest=_benchmark_mission([_benchmark_unit(f"u{n}", 28.0 + (n % 5), 18.0 + n // 5, n % 3 == 0, 6)
                                               for n in range(10)], 20, 20),
                   worst_best=("deviated suppressed=0 disrupted=0", "deviated suppressed=4 disrupted=4")))


def clear_caches() -> None:
    """Forget every cached parse and distribution (for measuring cold odds)."""
    for cached in (_parse_cached, _fire_plan_cached, _reaction_plan_cached, _throws, _target_odds, _group_odds,
                   _odds):
        cached.cache_clear()
