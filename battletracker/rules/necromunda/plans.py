"""Reading the table for a Necromunda Shoot: from the player's choices to `necro.attack`'s inputs.

`attack_plan(game, choices)` is what the Shoot dialog (or a test, or a replay)
calls: it looks at the `Game` the way the rules do (range centre to centre,
who is the closest enemy in Line of Sight, who stands within 3" of the target
or 1" of the line of fire, who fights in the target's combat, what the
Template covers) and returns the procedure, its inputs and the facts it read,
as sentences the dialog shows. When the table forbids the attack the sentence
is a refusal (`RulesInputError`).

Choices, all plain values: `firer` and `target` (unit ids), `weapon` (its
number on the card, or its name) and `profile` (number or name, the first by
default), and what the player may set against the map: `range` (inches, the
table's tape), `modifier` (anything else on the Hit roll), `firepower_dice`,
`close_combat`, `target_engaged`, `target_seriously_injured`,
`target_near_ledge` (the target's card by default), `not_in_sight` (ids of the
enemies the shooter cannot see, besides those the map hides) and `in_sight`
(ids the map hides that the shooter does see).

Line of Sight and cover come from the terrain on the table (rules/terrain.py,
the kinds in terrain.toml): a target the map hides is refused unless the
player gives `sight` (logged with `sight_reason`); the target's cover against
the shooter adds its modifier to the Hit roll (terrain.toml's [cover].to_hit,
a documented default: the seeds print no cover rules), the player's `cover`
overriding it, logged with `cover_reason`.
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.core.geometry import distance
from battletracker.core.geometry import range_band
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.base import InputReader
from battletracker.rules.base import InputValue
from battletracker.rules.base import RulesInputError
from battletracker.rules.choices import Choices
from battletracker.rules.choices import chosen_flag
from battletracker.rules.choices import chosen_text
from battletracker.rules.necromunda.areas import blast_hits
from battletracker.rules.necromunda.areas import marker_sizes
from battletracker.rules.necromunda.attack import NAME
from battletracker.rules.necromunda.attack import SETTINGS
from battletracker.rules.necromunda.conditions import ENGAGED
from battletracker.rules.necromunda.conditions import SERIOUSLY_INJURED
from battletracker.rules.necromunda.id_lists import names_text
from battletracker.rules.necromunda.id_lists import parse_ids
from battletracker.rules.necromunda.options import STRAY_SHOTS
from battletracker.rules.necromunda.options import TARGET_PRIORITY
from battletracker.rules.necromunda.options import WALKING_FIRE
from battletracker.rules.necromunda.options import enabled
from battletracker.rules.necromunda.profiles import profile_name
from battletracker.rules.necromunda.profiles import shoot_inputs
from battletracker.rules.necromunda.profiles import weapon_jammed
from battletracker.rules.necromunda.refusals import Refusal
from battletracker.rules.necromunda.refusals import in_words
from battletracker.rules.necromunda.stray_shots import MAX_AT_RISK
from battletracker.rules.necromunda.stray_shots import stray_shot_candidates
from battletracker.rules.necromunda.table import ProfileRef
from battletracker.rules.necromunda.table import enemies_by_distance
from battletracker.rules.necromunda.table import fighters_on_table
from battletracker.rules.necromunda.table import in_the_fight
from battletracker.rules.necromunda.table import near_ledge
from battletracker.rules.necromunda.table import profile_ranges
from battletracker.rules.necromunda.table import profile_refs
from battletracker.rules.necromunda.table import traits_of
from battletracker.rules.necromunda.targeting import PRIORITY_RANGE
from battletracker.rules.necromunda.targeting import WALKING_FIRE_RADIUS
from battletracker.rules.necromunda.targeting import needs_cool_check
from battletracker.rules.necromunda.targeting import priority_targets
from battletracker.rules.necromunda.targeting import walking_fire_candidates
from battletracker.rules.necromunda.template import COMBAT_REACH
from battletracker.rules.necromunda.template import TemplatePlacement
from battletracker.rules.necromunda.template import place_template
from battletracker.rules.sequence import acted
from battletracker.rules.tables import ruleset_file
from battletracker.rules.terrain import CoverReading
from battletracker.rules.terrain import TableIndex
from battletracker.rules.terrain import cover_override
from battletracker.rules.terrain import sight_override
from battletracker.rules.terrain import terrain_rules

MAX_COMBAT = 6


@dataclass(frozen=True)
class NecroPlan:
    """One Shoot read from the table: the procedure to run, its inputs, what was read in words, what was picked.

    The fields are those of the rules' `Plan`, so it converts field for field.
    """

    procedure: str
    inputs: dict[str, InputValue]
    facts: tuple[str, ...]
    choices: dict[str, InputValue]
    title: str
    log: tuple[str, ...] = ()


def cover_to_hit() -> dict[str, int]:
    """The Hit roll modifier of each level of cover (terrain.toml's [cover].to_hit)."""
    table = ruleset_file("necromunda", "terrain").table("cover").table("to_hit")
    return {level: table.int(level, minimum=-6, maximum=0) for level in terrain_rules("necromunda").levels}


def map_hidden(game: Game, firer: Unit) -> frozenset[str]:
    """The enemies the map says the shooter cannot see."""
    index = TableIndex(game)
    return frozenset(u.id for u in game.units.values()
                     if u.side != firer.side and in_the_fight(u) and not index.sight(firer, u).clear)


def measured_range(firer: Unit, target: Unit) -> float:
    """The range the map measures, centre to centre, to a tenth of an inch: the shot's range unless the table's
    tape says otherwise (`range`)."""
    return round(distance((firer.x, firer.y), (target.x, target.y)), 1)


def map_cover(game: Game, firer: Unit, target: Unit) -> CoverReading:
    """The cover the terrain on the map gives `target` against `firer`, and why: the shot's unless the player says
    another level (`cover`)."""
    return TableIndex(game).cover_against(firer, target)


def firer_of(game: Game, choices: Choices) -> Unit:
    """The shooting fighter, still in the fight."""
    unit_id = str(choices.get("firer", ""))
    unit = game.units.get(unit_id)
    if unit is None:
        raise Refusal("firer", "That fighter is no longer on the table (was it taken off?)." if unit_id
                      else "Choose the fighter who shoots.")
    if not in_the_fight(unit):
        raise Refusal("firer", f"{unit.name} is Out of Action and cannot shoot")
    if acted(game, unit.id):
        raise Refusal("firer", f"{unit.name} is Activated: it has already shot this round, and is Ready again when "
                               "the round ends.")
    return unit


def profile_of(firer: Unit, choices: Choices) -> ProfileRef:
    """The weapon profile chosen, by number or by name."""
    refs = profile_refs(firer)
    if not refs:
        raise Refusal("weapon", f"{firer.name} carries no weapon with a profile to shoot")
    weapon = choices.get("weapon", refs[0].weapon)
    profile = choices.get("profile", 0)
    for ref in refs:
        w = firer.weapons[ref.weapon]
        if weapon in (ref.weapon, w.name) and profile in (ref.profile, w.profiles[ref.profile].name):
            _check_loaded(firer, ref)
            return ref
    raise Refusal("weapon", f"{firer.name} has no weapon profile like that: choose one of the weapons on "
                            "their card.")


def _check_loaded(firer: Unit, ref: ProfileRef) -> None:
    """Refuse a jammed weapon (for the rest of the battle) or an Out of Ammo profile (until a Reload action)."""
    weapon = firer.weapons[ref.weapon]
    name = profile_name(weapon, ref.profile)
    if weapon_jammed(weapon):
        raise Refusal("weapon", f"{firer.name}'s {name} is jammed and cannot be used again this battle")
    if weapon.profiles[ref.profile].state == "out_of_ammo":
        raise Refusal("weapon", f"{firer.name}'s {name} is Out of Ammo and cannot fire until a Reload action")


def target_of(game: Game, firer: Unit, choices: Choices) -> Unit:
    """The target: an enemy fighter still in the fight."""
    unit_id = choices.get("target")
    if not unit_id:
        raise Refusal("target", "choose an enemy fighter as the target")
    unit = game.units.get(str(unit_id))
    if unit is None or unit.side == firer.side or not in_the_fight(unit):
        raise Refusal("target", "the target must be an enemy fighter still in the fight")
    return unit


def hidden_of(choices: Choices, game: Game, firer: Unit) -> frozenset[str]:
    """The enemies out of sight: the map's and the player's `not_in_sight`, less the player's `in_sight`."""
    said = frozenset(parse_ids(str(choices.get("not_in_sight", "")), "not_in_sight"))
    seen = frozenset(parse_ids(str(choices.get("in_sight", "")), "in_sight"))
    return (map_hidden(game, firer) - seen) | said


def priority_for(game: Game, firer: Unit, hidden: frozenset[str]) -> tuple[str, ...]:
    """Enemies the shot must go to unless a Cool check passes (empty when target priority is off)."""
    if not enabled(TARGET_PRIORITY, game.settings):
        return ()
    return priority_targets((firer.x, firer.y), firer.side, fighters_on_table(game, hidden))


def sight_candidates(game: Game, firer: Unit) -> list[tuple[Unit, float]]:
    """Enemies within 12" that could claim target priority, closest first: the ones to ask about Line of Sight."""
    return [(u, d) for u, d in enemies_by_distance(game, firer) if d <= PRIORITY_RANGE]


def combat_of(game: Game, target: Unit) -> list[str]:
    """The target and the Engaged models near it, closest first: the map's reading of its combat."""
    at = (target.x, target.y)
    near = sorted((distance(at, (u.x, u.y)), u.id) for u in game.units.values()
                  if u.id != target.id and in_the_fight(u) and u.has(ENGAGED)
                  and distance(at, (u.x, u.y)) <= COMBAT_REACH)
    return [target.id, *(k for _d, k in near)][:MAX_COMBAT]


def walking_candidates(game: Game, firer: Unit, target: Unit, ref: ProfileRef, hidden: frozenset[str]) -> list[str]:
    """Other enemies within 3" of the target, in range and Line of Sight, closest to the target first."""
    ranges = profile_ranges(firer, ref.weapon, ref.profile)
    reach = ranges[1] if ranges else 0.0
    in_range = frozenset(u.id for u in game.units.values() if distance((firer.x, firer.y), (u.x, u.y)) <= reach)
    fighters = fighters_on_table(game, hidden, in_range)
    original = next((f for f in fighters if f.key == target.id), None)
    return [] if original is None else walking_fire_candidates(original, firer.side, fighters)


NAMED = ("target_id", "walking_candidates", "at_risk", "combat", "template_hits")
"""The inputs that list models the attack's dice prompts and log lines may name: their names go with them."""


def stray_candidates(game: Game, firer: Unit, target: Unit) -> list[str]:
    """Models within 1" of the line of fire, closest to the shooter first."""
    models = [(u.id, (u.x, u.y)) for u in game.units.values() if in_the_fight(u)]
    return stray_shot_candidates((firer.id, (firer.x, firer.y)), (target.id, (target.x, target.y)), models)


def template_for(game: Game, choices: Choices) -> TemplatePlacement | None:
    """The Template laid towards the chosen target, for the map (None unless a Template profile and a target)."""
    try:
        firer = firer_of(game, choices)
        ref = profile_of(firer, choices)
        target = target_of(game, firer, choices)
    except RulesInputError:
        return None
    return place_template(game, firer, target) if ref.template else None


def _names(game: Game, ids: list[str] | tuple[str, ...]) -> str:
    return ", ".join(game.units[k].name for k in ids)


def _conditions(game: Game, ids: list[str]) -> dict[str, InputValue]:
    """The `engaged`, `seriously_injured`, `near_ledge` lists for the models named."""
    units = [game.units[k] for k in dict.fromkeys(ids)]
    lists = {"engaged": [u.id for u in units if u.has(ENGAGED)],
             "seriously_injured": [u.id for u in units if u.has(SERIOUSLY_INJURED)],
             "near_ledge": [u.id for u in units if near_ledge(u)]}
    return {k: ",".join(v) for k, v in lists.items() if v}


def _state_words(unit: Unit) -> str:
    if unit.has(ENGAGED):
        return "Engaged: not Suppressed"
    if unit.has(SERIOUSLY_INJURED):
        return "Seriously Injured: not Suppressed"
    return "becomes Suppressed and checks for falling" if near_ledge(unit) else "becomes Suppressed"


def attack_plan(game: Game, choices: Choices) -> NecroPlan:
    """`necro.attack`'s inputs and the facts read from the table, or a refusal in a player's words.

    The names of the models the inputs list go with them, for the dice prompts and log lines to say.
    """
    try:
        plan = _attack_plan(game, choices)
    except RulesInputError as exc:
        raise in_words(exc) from None
    listed = [k for key in NAMED for k in str(plan.inputs.get(key, "")).split(",") if k in game.units]
    plan.inputs["names"] = names_text({k: game.units[k].name for k in listed})
    return plan


def _attack_plan(game: Game, choices: Choices) -> NecroPlan:
    firer = firer_of(game, choices)
    ref = profile_of(firer, choices)
    target = target_of(game, firer, choices)
    hidden = hidden_of(choices, game, firer)
    facts: list[str] = []
    log: list[str] = []
    inputs: dict[str, InputValue] = {k: game.settings[k] for k in SETTINGS if k in game.settings}
    inputs.update(activated=firer.id, round=game.turn)
    _judge_sight(game, firer, target, choices, facts, log)

    priority = priority_for(game, firer, hidden)
    if enabled(TARGET_PRIORITY, game.settings):
        facts.append(_priority_fact(game, firer, target, priority))
        if needs_cool_check(target.id, priority):
            score = firer.stats.get("cool")
            if isinstance(score, bool) or not isinstance(score, int) or not 2 <= score <= 12:
                raise Refusal("cool", f"{firer.name} has no Cool characteristic (2+ to 12+) on the card for the "
                                      f"Cool check target priority asks for")
            inputs["cool"] = score

    if ref.template:
        return _template_plan(game, firer, target, inputs, facts, choices, tuple(log))

    weapon = firer.weapons[ref.weapon]
    traits = traits_of(weapon, ref.profile)
    try:
        inputs.update(shoot_inputs(weapon, ref.profile))
    except ValueError as exc:
        raise Refusal("weapon", str(exc)) from None
    r = InputReader(choices)
    measured = measured_range(firer, target)
    at = r.float("range", measured, minimum=0.0)
    engaged = r.bool("target_engaged", target.has(ENGAGED))
    inputs.update(bs=firer.stats.get("bs", 0), range=at, target_engaged=engaged,
                  target_near_ledge=r.bool("target_near_ledge", near_ledge(target)),
                  target_seriously_injured=r.bool("target_seriously_injured", target.has(SERIOUSLY_INJURED)),
                  other_modifier=r.int("modifier", 0) + _judge_cover(game, firer, target, choices, facts, log),
                  firer_id=firer.id, weapon=ref.weapon, target_id=target.id)
    if traits.rapid_fire and traits.light and r.bool("close_combat"):
        inputs["close_combat"] = True
    elif traits.rapid_fire:
        inputs["firepower_dice"] = r.int("firepower_dice", traits.rapid_fire)
    facts.append(_range_fact(at, measured, float(inputs["short_range"]), float(inputs["long_range"])))

    models: list[str] = []
    if engaged:
        combat = combat_of(game, target)
        if len(combat) >= 2:
            inputs["combat"] = ",".join(combat)
            facts.append(f"{target.name} is Engaged: each Hit goes at random to one of {_names(game, combat)} "
                         f"(Engaged models within {COMBAT_REACH:g}\" of the target, friend or foe).")
        else:
            facts.append(f"{target.name} is Engaged but no other Engaged model is within {COMBAT_REACH:g}\" on "
                         f"the map: allocate the Hits at the table.")
    elif enabled(WALKING_FIRE, game.settings) and traits.rapid_fire:
        walking = walking_candidates(game, firer, target, ref, hidden)[:MAX_AT_RISK]
        if walking:
            inputs["walking_candidates"] = ",".join(walking)
            models.extend(walking)
            facts.append(f"Walking fire: Hits after the first may go to {_names(game, walking)} (within "
                         f"{WALKING_FIRE_RADIUS:g}\" of {target.name}); you choose each.")
        else:
            facts.append(f"Walking fire: no other enemy within {WALKING_FIRE_RADIUS:g}\" of {target.name} is in "
                         f"range and Line of Sight.")
    if enabled(STRAY_SHOTS, game.settings):
        at_risk = stray_candidates(game, firer, target)[:MAX_AT_RISK]
        if at_risk:
            inputs["at_risk"] = ",".join(at_risk)
            models.extend(at_risk)
            facts.append(f"Stray shots: on a miss, {_names(game, at_risk)} (within 1\" of the line of fire, "
                         f"closest to {firer.name} first) may be hit, each on a 1-3.")
        else:
            facts.append("Stray shots: no model is within 1\" of the line of fire.")
    inputs.update(_conditions(game, models))
    if traits.blast is not None:
        hit = blast_hits((target.x, target.y), traits.blast, target.id, fighters_on_table(game),
                         marker_sizes().base_radius)
        facts.append(f"Blast ({traits.blast:g}\") centred on {target.name}: on a hit the marker covers, on level "
                     f"{target.level}: {_names(game, hit) or 'no one'}. Scatter it on the table if the rules call "
                     f"for it and resolve each model's Hit.")
    return NecroPlan(NAME, inputs, tuple(facts), dict(choices), f"{firer.name} shoots {ref.title} at {target.name}",
                     tuple(log))


def _judge_sight(game: Game, firer: Unit, target: Unit, choices: Choices, facts: list[str], log: list[str]) -> None:
    """Refuse a target the map hides from the shooter, unless the player gives `sight` (logged)."""
    reading = TableIndex(game).sight(firer, target)
    if reading.clear:
        return
    if not chosen_flag(choices, "sight", what="Line of Sight", refusal=Refusal):
        raise Refusal("sight", f"{reading.reason}: {firer.name} cannot see {target.name} on the map; tick Line of "
                               "Sight if it can on the table")
    changed = sight_override(reading, chosen_text(choices, "sight_reason"))
    log.append(changed)
    facts.append(changed)


def _judge_cover(game: Game, firer: Unit, target: Unit, choices: Choices, facts: list[str], log: list[str]) -> int:
    """The Hit roll modifier of the target's cover: the map's reading, or the player's `cover` (logged)."""
    to_hit = cover_to_hit()
    reading = map_cover(game, firer, target)
    chosen = choices.get("cover")
    level = chosen if isinstance(chosen, str) and chosen in to_hit else reading.level
    if chosen not in (None, "") and level != chosen:
        raise Refusal("cover", f"cover is one of {', '.join(to_hit)}")
    changed = cover_override(reading, level, chosen_text(choices, "cover_reason"))
    if changed is not None:
        log.append(changed)
    modifier = to_hit.get(level, 0)
    if changed is not None or modifier:
        facts.append((changed or reading.reason) + (f": {modifier:+d} to hit" if modifier else ""))
    return modifier


def _template_plan(game: Game, firer: Unit, target: Unit, inputs: dict[str, InputValue],
                   facts: list[str], choices: Choices, log: tuple[str, ...]) -> NecroPlan:
    placement = place_template(game, firer, target)
    if not placement.reaches:
        raise Refusal("target", f"the Template laid towards {target.name} does not reach: it is "
                                f"{placement.shape.length:g}\" long and must touch the target's base")
    inputs.update(template=True, template_hits=",".join(placement.hit))
    inputs.update(_conditions(game, list(placement.hit)))
    facts.append(f"The Template hits (level {target.level}): "
                 + "; ".join(f"{game.units[k].name} \u2013 {_state_words(game.units[k])}" for k in placement.hit)
                 + ".")
    if placement.other_level:
        facts.append(f"Under it on another level, not hit: {_names(game, placement.other_level)}.")
    title = f"{firer.name} fires {profile_of(firer, choices).title} (Template) at {target.name}"
    return NecroPlan(NAME, inputs, tuple(facts), dict(choices), title, log)


def _range_fact(at: float, measured: float, short: float, long: float) -> str:
    band = range_band(at, (short, long))
    words = ("short range", "long range")[band] if band is not None else "out of range: the attack misses"
    tape = "" if abs(at - measured) < 0.05 else f" (the map measures {measured:.1f}\")"
    return f"Range {at:.1f}\" \u2014 {words}{tape}."


def _priority_fact(game: Game, firer: Unit, target: Unit, priority: tuple[str, ...]) -> str:
    names = _names(game, priority)
    if not priority:
        return (f"Target priority: no enemy in Line of Sight within {PRIORITY_RANGE:g}\" must be the target "
                f"(none that close, or the closest is Engaged or Seriously Injured).")
    if not needs_cool_check(target.id, priority):
        return f"Target priority: {names} is the closest enemy in Line of Sight within 12\" and is the target."
    return (f"Target priority: {names} is the closest enemy in Line of Sight within {PRIORITY_RANGE:g}\": to shoot "
            f"{target.name} {firer.name} must first pass a Cool check ({firer.stats.get('cool')}+ on 2D6).")
