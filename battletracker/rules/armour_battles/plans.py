"""Reading the table into an Armour Battles procedure's inputs.

A plan function takes the Game and what the player picked (a plain mapping:
`firer`, `target`, `observer`, `x`, `y` in inches, and the options the dialog
offers) and returns an `AbPlan`: the procedure to resolve, its inputs, and the
facts the dialog shows ("Range 24.0" from StuH 42: effective range"). When the
table forbids the action it raises `Refusal`, a RulesInputError whose text is a
sentence a player understands, with distances to one decimal of an inch.

Line of Sight is read from the table (rules/terrain.py): the choice `los`,
when given, is the player's word over it, and a `los` that differs from the
map's reading is logged with `los_reason`.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field

from battletracker.core.geometry import Point
from battletracker.core.geometry import aspect
from battletracker.core.geometry import distance
from battletracker.core.geometry import in_radius
from battletracker.model.effects import Effect
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.armour_battles import close_assault as assault
from battletracker.rules.armour_battles import mission
from battletracker.rules.armour_battles import reaction as reaction_check
from battletracker.rules.armour_battles.data import RULESET
from battletracker.rules.armour_battles.data import indirect_fire_rules
from battletracker.rules.armour_battles.fire import DICE_TYPES
from battletracker.rules.armour_battles.fire import MOVES
from battletracker.rules.armour_battles.fire import NAME as FIRE
from battletracker.rules.armour_battles.fire import SETTINGS as FIRE_SETTINGS
from battletracker.rules.armour_battles.fire import FirePlan
from battletracker.rules.armour_battles.fire import plan_fire
from battletracker.rules.armour_battles.placement import DEVIATION_FACES
from battletracker.rules.armour_battles.reaction import DISPERSED
from battletracker.rules.armour_battles.reaction import DISRUPTION
from battletracker.rules.armour_battles.units import CombatProfile
from battletracker.rules.armour_battles.units import combat_profile
from battletracker.rules.armour_battles.units import dice_type_for
from battletracker.rules.armour_battles.units import fire_inputs
from battletracker.rules.armour_battles.units import is_suppressed
from battletracker.rules.armour_battles.units import reaction_dice
from battletracker.rules.base import InputValue
from battletracker.rules.base import Refusal
from battletracker.rules.base import RulesInputError
from battletracker.rules.choices import Picked as Choices
from battletracker.rules.choices import chosen_flag
from battletracker.rules.choices import chosen_number
from battletracker.rules.choices import chosen_unit
from battletracker.rules.choices import chosen_whole
from battletracker.rules.places import beyond_edges
from battletracker.rules.sequence import acted
from battletracker.rules.sequence import mark_acted
from battletracker.rules.sequence import side_name
from battletracker.rules.tables import TableError
from battletracker.rules.tables import ruleset_settings
from battletracker.rules.terrain import SightReading
from battletracker.rules.terrain import TableIndex
from battletracker.rules.terrain import sight_change

MAX_COVER_DICE = 6
DICE_TARGETS = {"fp": "infantry and soft targets", "at": "armoured targets"}


@dataclass(frozen=True)
class AbPlan:
    """One action read off the table: the procedure, its inputs, and what the dialog shows."""

    procedure: str
    inputs: Mapping[str, InputValue] = field(default_factory=dict)
    facts: tuple[str, ...] = ()
    log: tuple[str, ...] = ()
    """Lines the log adds after the roll's: a player's Line of Sight over the map's."""
    effects: tuple[Effect, ...] = ()
    """What the table records with the action: the firer's activation for this Turn (not for opportunity fire)."""


def inches(value: float) -> str:
    """A measured distance as a player reads it: one decimal of an inch."""
    return f'{value:.1f}"'


def profile_of(unit: Unit) -> CombatProfile | None:
    """The unit's FP/AT Dice and ranges, or None for a unit that has none (a marker-like token)."""
    try:
        return combat_profile(unit)
    except (RulesInputError, TableError):
        return None


def setting_overrides(game: Game, keys: tuple[str, ...]) -> dict[str, InputValue]:
    """The game's overrides of the ruleset settings a procedure reads."""
    return {k: v for k in keys if isinstance(v := game.settings.get(k), str | int | float | bool)}


def int_setting(game: Game, key: str) -> int:
    """A whole-number ruleset setting as this game plays it (its override or the default)."""
    value = game.settings.get(key)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    for s in ruleset_settings(RULESET):
        if s.key == key and isinstance(s.default, int) and not isinstance(s.default, bool):
            return s.default
    raise TableError(f"{RULESET}/settings.toml: no whole-number setting {key!r}")


def describe_fire(plan: FirePlan) -> str:
    """The dice a shot rolls, as the player checks them against the rules: 7D halved 4D, -1D moving = 3D at 4+."""
    kind = plan.dice_type.upper()
    parts = [f"{kind} {plan.unit_dice}D"]
    if plan.mode == "indirect":
        parts.append(f"halved {plan.base_dice}D")
    if plan.move_dice:
        parts.append(f"-{plan.move_dice}D moving")
    if plan.extra_dice:
        parts.append(f"{plan.extra_dice:+d}D extra")
    if plan.slide_dice:
        parts.append(f"TN {plan.tn_unslid}+ slides {plan.slide_dice:+d}D")
    if plan.dice_rolled == 0:
        return ", ".join(parts) + " = no dice: no effect"
    return ", ".join(parts) + f" = {plan.dice_rolled}D at {plan.tn}+"


# -- reading the choices ---------------------------------------------------------------------------

def _move(choices: Choices) -> str:
    move = str(choices.get("move") or "single")
    if move not in MOVES:
        raise Refusal("move", "The firer's move is a single, double or triple move.")
    return move


def _cover(choices: Choices, game: Game) -> dict[str, int]:
    """Cover Dice per unit, given as "rifles=1, t34=2"."""
    text = choices.get("cover") or ""
    cover: dict[str, int] = {}
    for part in str(text).split(","):
        if not part.strip():
            continue
        uid, sep, raw = (s.strip() for s in part.partition("="))
        if not sep:
            raise Refusal("cover", "Give each unit's Cover Dice as the unit and a number, like rifles=1.")
        name = game.units[uid].name if uid in game.units else uid
        if not raw.isdigit() or int(raw) > MAX_COVER_DICE:
            raise Refusal("cover", f"{name}'s Cover Dice must be a whole number from 0 to {MAX_COVER_DICE}.")
        cover[uid] = int(raw)
    return cover


def _close_support_firer(game: Game, choices: Choices) -> tuple[Unit, CombatProfile]:
    firer = chosen_unit(game, choices, "firer", "firing unit")
    profile = profile_of(firer)
    if profile is None:
        raise Refusal("firer", f"{firer.name} has no FP or AT Dice to fire with.")
    if not profile.close_support:
        raise Refusal("firer", f"{firer.name} is not a close-support unit.")
    _check_in_play(game, firer, "firer", "cannot fire")
    if is_suppressed(firer):
        raise Refusal("firer", f"{firer.name} is suppressed and cannot fire.")
    return firer, profile


def _activation(game: Game, firer: Unit, opportunity: bool) -> tuple[Effect, ...]:
    """The firer's activation, which its fire is unless it is opportunity fire: the SetActed to record.

    A Turn is a round in which each unit activates once, in its own side's
    activation; fire in the other side's activation is opportunity fire (which
    needs a line of sight to the target), and is neither refused for a unit
    that has activated nor counted as its activation.
    """
    if opportunity:
        return ()
    if game.active_side != firer.side:
        raise Refusal("opportunity", f"The side activating now is {side_name(game, game.active_side)}: "
                                     f"{firer.name} can fire now only as opportunity fire, with a direct line of "
                                     "sight to the target.")
    if acted(game, firer.id):
        raise Refusal("firer", f"{firer.name} has already activated this Turn (Turn {game.turn}): each unit "
                               "activates once a Turn, and it is ready again when the Turn ends.")
    return (mark_acted(game, firer.id),)


def line_of_sight(game: Game, choices: Choices, firer: Unit, there: Point | Unit) -> tuple[bool, str, str | None]:
    """Whether the firer sees `there`: the table's reading unless the player's `los` says otherwise.

    Returns the answer, the sentence for the facts ("" for a sight the map
    finds clear, which the plan's own facts say) and the log line of a
    player's word that differs from the map (None when they agree).
    """
    reading = TableIndex(game).sight(firer, there)
    plain = "" if reading.clear and not reading.smoke else reading.reason
    given = choices.get("los")
    if not isinstance(given, bool):
        return reading.clear, plain, None
    reason = choices.get("los_reason")
    changed = sight_change(reading, given, reason.strip() if isinstance(reason, str) else "")
    return given, changed or plain, changed


def map_sight(game: Game, firer_id: str, there: str | Point) -> SightReading:
    """The map's Line of Sight from the firer to a unit (by id) or a point, with the reason.

    What a dialog's Line of Sight tick starts from until the player's word (`los`) stands over it; the plan
    reads the same (`line_of_sight`), so the tick and the plan's facts never disagree.
    """
    target = game.units[there] if isinstance(there, str) else there
    return TableIndex(game).sight(game.units[firer_id], target)


def _dispersed(game: Game, unit: Unit) -> bool:
    return unit.has(DISPERSED) or unit.counters.get(DISRUPTION, 0) >= int_setting(game, "cohesion")


def out_of_play(game: Game, unit: Unit) -> bool:
    """Whether the unit has left the battle: dispersed, or marked out of play."""
    return not unit.in_play or _dispersed(game, unit)


def _check_in_play(game: Game, unit: Unit, key: str, cannot: str) -> None:
    """Refuse a unit that has dispersed or is out of play: it `cannot` ("cannot fire") any more."""
    if _dispersed(game, unit):
        raise Refusal(key, f"{unit.name} has dispersed and {cannot}.")
    if not unit.in_play:
        raise Refusal(key, f"{unit.name} is out of play and {cannot}.")


# -- the indirect fire mission ---------------------------------------------------------------------

def indirect_mission(game: Game, choices: Choices) -> AbPlan:
    """`ab.indirect_mission` from the firer, the aiming point (`x`, `y`), `los` or an `observer`,
    the firer's `move`, `opportunity`, an arrow `bearing` read off the table, and `cover` per unit."""
    firer, profile = _close_support_firer(game, choices)
    opportunity = chosen_flag(choices, "opportunity")
    activation = _activation(game, firer, opportunity)
    aim = (chosen_number(choices, "x", "The aiming point's x", measure="inches"),
           chosen_number(choices, "y", "The aiming point's y", measure="inches"))
    if not (0.0 <= aim[0] <= game.table_width and 0.0 <= aim[1] <= game.table_height):
        raise Refusal("x", f"The aiming point is {beyond_edges(game, aim)}, off the "
                           f"{game.table_width:g}\" by {game.table_height:g}\" table.")
    rules = indirect_fire_rules()
    dist = distance((firer.x, firer.y), aim)
    ranges = profile.ranges
    reach = ranges.indirect_long(rules.long_range_multiplier)
    band = ranges.indirect_band(round(dist, 2), rules.long_range_multiplier)
    if band == "short":
        raise Refusal("x", f"The aiming point is {inches(dist)} from {firer.name}, within its short range of "
                           f'{ranges.short:g}": indirect fire cannot target anything at short range.')
    if band is None:
        raise Refusal("x", f"The aiming point is {inches(dist)} from {firer.name}, beyond its indirect fire "
                           f'long range of {reach:g}" (long range {ranges.long:g}" doubled).')
    los, seen, changed = line_of_sight(game, choices, firer, aim)
    if opportunity and not los:
        raise Refusal("opportunity", "A close-support unit may only use opportunity fire with a "
                                     "direct line of sight to the target.")
    observer: Unit | None = None
    if choices.get("observer"):
        observer = chosen_unit(game, choices, "observer", "Forward Observer")
        if observer.id == firer.id:
            raise Refusal("observer", f"{firer.name} cannot observe its own fire: pick another unit.")
        if observer.side != firer.side:
            raise Refusal("observer", f"{observer.name} is on the other side and cannot observe for {firer.name}.")
        _check_in_play(game, observer, "observer", "cannot act as Forward Observer")
    if not los and observer is None:
        seeing = [u.name for u in game.units.values()
                  if u.side == firer.side and u.id != firer.id and not out_of_play(game, u)
                  and profile_of(u) is not None
                  and TableIndex(game).sight(u, aim).clear]
        could = f" ({', '.join(seeing)} can see it on the map)" if seeing else ""
        why = f"{seen}. " if seen and changed is None else ""
        raise Refusal("observer", f"{why}Without line of sight to the aiming point another unit must act as "
                                  f"Forward Observer{could}.")
    move = _move(choices)
    bearing = choices.get("bearing")
    if bearing is not None and bearing != "":
        bearing = chosen_number(choices, "bearing", "The arrow's direction", measure="degrees") % 360.0
    cover = _cover(choices, game)

    hit_faces = int_setting(game, "deviation_hit_faces")
    reach_of_burst = rules.burst_radius + (0.0 if los else DEVIATION_FACES * rules.deviation_dice)
    near = [u for u in game.units.values()
            if u.id != firer.id and profile_of(u) is not None and not out_of_play(game, u)
            and in_radius(aim, reach_of_burst, (u.x, u.y))]
    inputs: dict[str, InputValue] = {
        "firer_id": firer.id, "firer_name": firer.name, "aim_x": aim[0], "aim_y": aim[1],
        "range": round(dist, 2), "ranges": str(ranges), "los": los, "observer": observer is not None,
        "opportunity": opportunity, "mission": "single", "move": move, "fp_dice": profile.fp_dice,
        "at_dice": profile.at_dice, "marker_id": _new_marker_id(game), "units": len(near),
        **setting_overrides(game, mission.SETTINGS),
    }
    if isinstance(bearing, float):
        inputs["bearing"] = bearing
    for n, u in enumerate(near, 1):
        target = profile_of(u)
        assert target is not None
        inputs.update({f"unit{n}_id": u.id, f"unit{n}_name": u.name, f"unit{n}_x": u.x, f"unit{n}_y": u.y,
                       f"unit{n}_armoured": target.armoured, f"unit{n}_reaction_dice": target.reaction_artillery,
                       f"unit{n}_suppressed": is_suppressed(u), f"unit{n}_disruption": u.counters.get(DISRUPTION, 0),
                       f"unit{n}_cover_dice": cover.get(u.id, 0)})

    facts = [f"Range {inches(dist)} from {firer.name}: {band} range (indirect fire reaches {reach:g}\", "
             f'nothing within {ranges.short:g}").', *([seen] if seen else [])]
    if los:
        facts.append("Line of sight to the aiming point: the fire lands on target, no deviation roll.")
    else:
        assert observer is not None
        facts.append(f"Forward Observer: {observer.name}. Without line of sight the deviation die is rolled: "
                     f"{hit_faces} of its {DEVIATION_FACES} faces Hit, otherwise the fire moves "
                     f"{rules.deviation_dice}D\" along the arrow.")
        if not TableIndex(game).sight(observer, aim).clear:
            facts.append(f"{observer.name} has no line of sight to the aiming point on the map either.")
    fire_inputs = {k: v for k, v in inputs.items() if k in ("range", "ranges", "los", "opportunity", "move",
                                                              "fp_dice", "at_dice")}
    for dice_type in DICE_TYPES:
        plan = plan_fire({**fire_inputs, **setting_overrides(game, FIRE_SETTINGS), "mode": "indirect",
                          "dice_type": dice_type})
        facts.append(f"{describe_fire(plan)} against {DICE_TARGETS[dice_type]}.")
    facts.append("Indirect fire causes artillery suppressions.")
    under = [u for u in near if in_radius(aim, rules.burst_radius, (u.x, u.y))]
    facts.append(f'Under the {rules.burst_radius:g}" burst at the aiming point: '
                 + (", ".join(u.name for u in under) if under else "no units") + ".")
    if not los:
        under_ids = {u.id for u in under}
        others = [u.name for u in near if u.id not in under_ids]
        if others:
            facts.append("Within reach if it deviates: " + ", ".join(others) + ".")
    mission.parse(inputs)  # the procedure takes what the table gives
    return AbPlan(mission.NAME, inputs, tuple(facts), (changed,) if changed else (), activation)


def _target(game: Game, choices: Choices, unit: Unit, key: str = "target", role: str = "target") -> Unit:
    """The other unit of a shot or an assault: a fighting unit still on the table."""
    other = chosen_unit(game, choices, key, role)
    if other.id == unit.id:
        raise Refusal(key, f"{unit.name} cannot pick itself as the {role}.")
    if profile_of(other) is None:
        raise Refusal(key, f"{other.name} has no FP or AT Dice and Reaction Dice: pick a fighting unit.")
    if _dispersed(game, other):
        raise Refusal(key, f"{other.name} has dispersed.")
    if not other.in_play:
        raise Refusal(key, f"{other.name} is out of play.")
    return other


# -- direct fire and the target's Reaction ----------------------------------------------------------

def direct_fire(game: Game, choices: Choices) -> AbPlan:
    """`ab.close_support_fire` at a `target` the firer sees: the range band, the flank or rear read from
    the target's facing (the choice `flank_or_rear` overrides it), the firer's `move`, `los`, `opportunity`."""
    firer, profile = _close_support_firer(game, choices)
    opportunity = chosen_flag(choices, "opportunity")
    activation = _activation(game, firer, opportunity)
    target = _target(game, choices, firer)
    dist = distance((firer.x, firer.y), (target.x, target.y))
    band = profile.ranges.direct_band(round(dist, 2))
    if band is None:
        raise Refusal("target", f"{target.name} is {inches(dist)} from {firer.name}, beyond its long range of "
                                f'{profile.ranges.long:g}".')
    los, seen, changed = line_of_sight(game, choices, firer, target)
    if opportunity and not los:
        raise Refusal("opportunity", "A close-support unit may only use opportunity fire with a "
                                     "direct line of sight to the target.")
    if not los:
        why = f"{seen}. " if seen and changed is None else ""
        raise Refusal("los", f"{why}Direct fire needs a line of sight to the target; without one a "
                             "close-support unit fires indirectly with a Forward Observer.")
    face = aspect((firer.x, firer.y), (target.x, target.y), target.facing)
    flank = chosen_flag(choices, "flank_or_rear", face != "front")
    inputs: dict[str, InputValue] = {
        **fire_inputs(firer, target, "direct", round(dist, 2)), "move": _move(choices), "los": los,
        "flank_or_rear": flank, "opportunity": opportunity, **setting_overrides(game, FIRE_SETTINGS),
    }
    plan = plan_fire(inputs)
    dice_type = str(inputs["dice_type"])
    facts = (f"Range {inches(dist)} to {target.name}: {band} range.", *([seen] if seen else []),
             f"The shot strikes {target.name}'s {face}" + (": flank or rear." if flank else "."),
             f"{describe_fire(plan)} against {DICE_TARGETS[dice_type]}.",
             "Direct fire causes normal suppressions.")
    return AbPlan(FIRE, inputs, facts, (changed,) if changed else (), activation)


def reaction(game: Game, choices: Choices) -> AbPlan:
    """`ab.reaction` of the `target` against the `firer`'s fire (`mode` direct or indirect) that scored
    `incoming` successes with `incoming_sixes` sixes, with its `cover` Dice."""
    firer = chosen_unit(game, choices, "firer", "firing unit")
    _check_in_play(game, firer, "firer", "cannot fire")
    target = _target(game, choices, firer)
    mode = str(choices.get("mode") or "direct")
    if mode not in ("direct", "indirect"):
        raise Refusal("mode", "The fire is direct or indirect.")
    incoming, sixes, cover = (chosen_whole(choices, key, what, 0, minimum=0) for key, what in (
        ("incoming", "The successes scored"), ("incoming_sixes", "The sixes scored"), ("cover", "The Cover Dice")))
    inputs: dict[str, InputValue] = {
        "reaction_dice": reaction_dice(target, mode), "incoming": incoming, "incoming_sixes": sixes,
        "suppression": "artillery" if mode == "indirect" else "normal", "suppressed": is_suppressed(target),
        "cover_dice": cover, "indirect": mode == "indirect", "disruption": target.counters.get(DISRUPTION, 0),
        "target_id": target.id, "firer_id": firer.id, **setting_overrides(game, reaction_check.SETTINGS),
    }
    plan = reaction_check.plan_reaction(inputs)
    if not plan.checked:
        facts: tuple[str, ...] = (f"The fire scored no successes: {target.name} makes no Reaction Check.",)
    else:
        covered = f" with {_count(plan.cover_dice, 'Cover Die', 'Cover Dice')}" if plan.cover_dice else ""
        facts = (f"{target.name} rolls {plan.dice_rolled}D{covered} needing {plan.tn}+ against "
                 f"{_count(incoming, 'success', 'successes')} and {_count(sixes, 'six', 'sixes')}.",)
    return AbPlan(reaction_check.NAME, inputs, facts)


# -- close assault -------------------------------------------------------------------------------------

def close_assault(game: Game, choices: Choices) -> AbPlan:
    """`ab.close_support_assault` for the close-support `firer` against the `target`: FP or AT Dice by the
    target's armour, `attacker`, `first_round`, `suppressed` (read off the unit unless given), `overrun`."""
    unit = chosen_unit(game, choices, "firer", "close-support unit")
    profile = profile_of(unit)
    if profile is None or not profile.close_support:
        raise Refusal("firer", f"{unit.name} is not a close-support unit.")
    _check_in_play(game, unit, "firer", "cannot fight a Close Assault")
    target = _target(game, choices, unit, role="unit it fights")
    if chosen_flag(choices, "overrun"):
        raise Refusal("overrun", "Close-support units can never make an overrun attack.")
    suppressed = chosen_flag(choices, "suppressed", is_suppressed(unit))
    inputs: dict[str, InputValue] = {
        "dice_type": dice_type_for(target), "fp_dice": profile.fp_dice, "at_dice": profile.at_dice,
        "attacker": chosen_flag(choices, "attacker"),
        "first_round": chosen_flag(choices, "first_round", True),
        "suppressed": suppressed, **setting_overrides(game, assault.SETTINGS),
    }
    plan = assault.plan_assault(inputs)
    kind = plan.dice_used.upper()
    slid = f", TN {plan.tn_unslid}+ slides {plan.slide_dice:+d}D" if plan.slide_dice else ""
    dice = (f"{kind} {plan.unit_dice}D as a gun (+{plan.gun_tn} TN){slid} = {plan.dice_rolled}D at {plan.tn}+"
            if plan.dice_rolled else f"{kind} {plan.unit_dice}D: no dice to roll")
    return AbPlan(assault.NAME, inputs, (f"{unit.name} against {target.name}.", dice + "."))


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _new_marker_id(game: Game) -> str:
    n = 1
    while f"impact{n}" in game.markers:
        n += 1
    return f"impact{n}"


PlanFn = Callable[[Game, Choices], AbPlan]

PLANS: dict[str, PlanFn] = {
    mission.NAME: indirect_mission,
    FIRE: direct_fire,
    reaction_check.NAME: reaction,
    assault.NAME: close_assault,
}
"""Each Armour Battles procedure a player starts, with the plan that reads the table for it."""
