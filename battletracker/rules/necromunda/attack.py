"""`necro.attack`: one whole ranged attack, with the Arbitrator's toolkit checks it calls for.

A player's Shoot is one action: a Cool check first when target priority
forbids the chosen target without one, then the shot (`necro.shoot`), then
what follows from its result. Walking fire gives the second and later Hits
of a Rapid Fire weapon to the original target or to enemies near it, the
player choosing each (asked with `ChoiceNeeded`, input `walking_fire`). A miss
sends its shots along the line of fire (`necro.stray_shots`). Hits on an
Engaged target go at random to the models in its combat
(`necro.engaged_allocation`). A Template attack makes no Hit roll: the models
it covers (`template_hits`, read from the map) are hit.

Dice, in the rules' order: the Cool check's 2D6, the shot's dice, then the
stray shots or the allocation. One set of dice, one Resolution, one undo step.

Inputs: those of `necro.shoot` (none for a Template), and
- `cool`: the Cool score to pass before shooting this target (0: no check);
- `walking_candidates`: the enemies walking fire may reach, `walking_fire`:
  the model given each Hit after the first, in order (the answers so far);
- `at_risk`: the models along the line of fire, closest to the shooter first;
- `combat`: the Engaged target and the models in its combat;
- `template`, `template_hits`: a Template attack and the models it hits;
- `engaged`, `seriously_injured`, `near_ledge`: those of the other models
  named above that are so (their Suppression and falling checks);
- `names`: "id=name" rows, the fighters' names for the dice prompts and the
  log lines (a model without one is said by its id);
- `activated`, `round`: the fighter whose activation the Shoot is and the
  round (Turn) it is in: once the shot is taken (not after a failed Cool
  check) it is Activated for the rest of the round;
- `falling_notes`: "id=line" rows, the log's line (which ledge) for each model
  that may be flagged to check for falling, said once it is.

Outcome keys: `cool_failed`; `template`; or `necro.shoot`'s key, followed by
` stray:` and the models hit by stray shots (or `none`) when stray shots were
rolled, or ` combat:` and the Hits per model when Hits were allocated in a
combat. `label` says each in words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from fractions import Fraction
from functools import lru_cache
from math import lcm
from typing import Any

from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.core.odds import success_chance
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.effects import Effect
from battletracker.model.effects import SetCondition
from battletracker.model.sequence_effects import SetActed
from battletracker.rules import register
from battletracker.rules.base import FIRER
from battletracker.rules.base import ChoiceNeeded
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.necromunda import allocation
from battletracker.rules.necromunda import cool
from battletracker.rules.necromunda import shooting
from battletracker.rules.necromunda import stray_shots
from battletracker.rules.necromunda.conditions import CHECK_FALLING
from battletracker.rules.necromunda.conditions import hit_effects
from battletracker.rules.necromunda.firepower import FACES_SETTING
from battletracker.rules.necromunda.firepower import READING_SETTING
from battletracker.rules.necromunda.firepower import holes_and_ammo_state
from battletracker.rules.necromunda.id_lists import names_text
from battletracker.rules.necromunda.id_lists import read_ids
from battletracker.rules.necromunda.id_lists import read_names
from battletracker.rules.necromunda.options import STRAY_SHOTS
from battletracker.rules.necromunda.options import TARGET_PRIORITY
from battletracker.rules.necromunda.options import WALKING_FIRE
from battletracker.rules.necromunda.options import read_toolkit
from battletracker.rules.necromunda.refusals import Refusal
from battletracker.rules.necromunda.refusals import speaking
from battletracker.rules.necromunda.targeting import check_walking_fire

NAME = "necro.attack"
COOL_FAILED = "cool_failed"
TEMPLATE = "template"
ATTACK_KEYS = ("cool", "walking_candidates", "walking_fire", "at_risk", "combat", "template", "template_hits",
               "engaged", "seriously_injured", "near_ledge", "activated", "round", "falling_notes", "names",
               STRAY_SHOTS, TARGET_PRIORITY, WALKING_FIRE)


@dataclass(frozen=True)
class AttackInputs:
    """The attack's own inputs; `shot` is `necro.shoot`'s, parsed (None for a Template)."""

    cool: int
    shot: shooting.ShootInputs | None
    shot_inputs: tuple[tuple[str, Any], ...]
    walking_candidates: tuple[str, ...]
    walking_fire: tuple[str, ...]
    at_risk: tuple[str, ...]
    combat: tuple[str, ...]
    template_hits: tuple[str, ...]
    engaged: frozenset[str]
    seriously_injured: frozenset[str]
    near_ledge: frozenset[str]
    activated: SetActed | None
    falling_notes: tuple[tuple[str, str], ...] = ()
    names: dict[str, str] = field(default_factory=dict, compare=False)

    def name(self, unit_id: str) -> str:
        """How the log says a model: its name, else its id."""
        return self.names.get(unit_id, unit_id)


@speaking
def _parse(inputs: Inputs) -> AttackInputs:
    r = InputReader({k: v for k, v in inputs.items() if k in ATTACK_KEYS})
    template = r.bool("template")
    priority_on, walking_on, stray_on = (read_toolkit(r, o) for o in (TARGET_PRIORITY, WALKING_FIRE, STRAY_SHOTS))
    cool_score = r.int("cool", 0, minimum=0, maximum=12)
    if cool_score == 1:
        raise Refusal("cool", "a Cool check needs a score of 2 to 12 on 2D6, not 1")
    if cool_score and not priority_on:
        raise Refusal("cool", "target priority is an Arbitrator's toolkit option that is off in this game, so no "
                              "Cool check is needed")
    walking = read_ids(r, "walking_candidates", maximum=stray_shots.MAX_AT_RISK)
    if walking and not walking_on:
        raise Refusal("walking_candidates", "walking fire is an Arbitrator's toolkit option that is off in this game")
    at_risk = read_ids(r, "at_risk", maximum=stray_shots.MAX_AT_RISK)
    if at_risk and not stray_on:
        raise Refusal("at_risk", "stray shots are an Arbitrator's toolkit option that is off in this game")
    combat = read_ids(r, "combat", maximum=allocation.MAX_MODELS)
    if len(combat) == 1:
        raise Refusal("combat", "a combat holds at least two models")
    template_hits = read_ids(r, "template_hits")
    others = (*walking, *at_risk, *combat, *template_hits)
    if template and not template_hits:
        raise Refusal("template_hits", "the Template must touch the target's base")
    if not template and template_hits:
        raise Refusal("template_hits", "only a Template attack lists the models under the Template")
    engaged = frozenset(read_ids(r, "engaged", within=others))
    seriously_injured = frozenset(read_ids(r, "seriously_injured", within=others))
    near_ledge = frozenset(read_ids(r, "near_ledge", within=others))
    walking_fire = _answers(r.str("walking_fire", ""))
    activated_id = r.optional_str("activated")
    round_ = r.optional_int("round", minimum=1)
    if (activated_id is None) != (round_ is None):
        raise Refusal("round", "the fighter's activation needs both the fighter and the round")
    activated = None if activated_id is None or round_ is None else SetActed(activated_id, PhaseStamp(round_, 1))
    notes = tuple((uid.strip(), line) for uid, _sep, line in
                  (row.partition("=") for row in r.str("falling_notes", "").splitlines() if row.strip()))
    names = read_names(r)
    r.finish()
    shot_raw = tuple(sorted((k, v) for k, v in inputs.items() if k not in ATTACK_KEYS))
    if template:
        extra = [k for k, _v in shot_raw if k not in (FACES_SETTING, READING_SETTING)]
        if extra:
            raise Refusal(extra[0], "a Template attack makes no Hit roll, so it takes no shooting inputs")
        shot = None
    else:
        shot = shooting.parse_shot(dict(shot_raw))
        if shot.target_engaged and walking:
            raise Refusal("walking_candidates", "Hits on an Engaged target are allocated at random in its combat, "
                                                "so walking fire does not move them")
        if combat and not shot.target_engaged:
            raise Refusal("combat", "only Hits on an Engaged target are allocated at random in a combat")
    return AttackInputs(cool_score, shot, shot_raw, walking, walking_fire, at_risk, combat, template_hits,
                        engaged, seriously_injured, near_ledge, activated, notes, names)


def _answers(text: str) -> tuple[str, ...]:
    """The walking-fire answers so far: ids in Hit order, a model named once per Hit it takes."""
    if not text.strip():
        return ()
    given = tuple(part.strip() for part in text.split(","))
    if not all(given):
        raise Refusal("walking_fire", f"an entry of the models given the walking-fire Hits ({text!r}) is empty")
    return given


def _hit(p: AttackInputs, unit_id: str) -> list[Effect]:
    return hit_effects(unit_id, engaged=unit_id in p.engaged, seriously_injured=unit_id in p.seriously_injured,
                       near_ledge=unit_id in p.near_ledge)


def _ids(ids: tuple[str, ...], within: frozenset[str]) -> str:
    return ",".join(k for k in ids if k in within)


def _names(p: AttackInputs, ids: tuple[str, ...]) -> str:
    """The `names` input of a part of the attack: the names of its models."""
    return names_text({k: p.names[k] for k in ids if k in p.names})


def attack_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    rolls: list[tuple[str, tuple[Any, ...]]] = []
    log: list[str] = []
    effects: list[Effect] = []
    values: dict[str, Any] = {}
    if p.cool:
        check = cool.cool_resolve({"cool": p.cool}, dice)
        rolls.extend(check.rolls)
        log.extend(check.log)
        values["cool_check"] = check.outcome
        if check.outcome != "passed":
            log.append("Target priority: the Cool check failed, so this target cannot be shot; the closest enemy "
                       "must be the target instead")
            return Resolution(NAME, COOL_FAILED, values, rolls, [], log)
    if p.activated is not None:
        effects.append(p.activated)
    if p.shot is None:
        log.append("The Template hits " + ", ".join(p.name(k) for k in p.template_hits))
        for unit_id in p.template_hits:
            effects.extend(_hit(p, unit_id))
        values["models_hit"] = list(p.template_hits)
        return Resolution(NAME, TEMPLATE, values, rolls, effects, [*log, *_falling(p, effects)])

    shot = shooting.shoot_resolve(dict(p.shot_inputs), dice)
    rolls.extend(shot.rolls)
    log.extend(shot.log)
    effects.extend(shot.effects)
    values.update(shot.values)
    outcome = shot.outcome
    hits = int(shot.values["hits"])
    target = p.shot.target_id
    if hits > 1 and p.walking_candidates:
        given = p.walking_fire[:hits - 1]
        if len(given) < hits - 1:
            raise _walking_choice(p, hits, given)
        allocation_given = check_walking_fire(hits, target, (target, *given), p.walking_candidates)
        values["walking_fire"] = list(allocation_given)
        log.append("Walking fire: " + ", ".join(f"Hit {i + 1} to {p.name(k)}" for i, k in enumerate(allocation_given)))
        for unit_id in dict.fromkeys(allocation_given[1:]):
            if unit_id != target:
                effects.extend(_hit(p, unit_id))
    stray = int(shot.values["stray_hits"])
    if stray and p.at_risk:
        sub = stray_shots.stray_resolve({
            STRAY_SHOTS: True, "at_risk": ",".join(p.at_risk), "hits": min(stray, stray_shots.MAX_HITS),
            "engaged": _ids(p.at_risk, p.engaged), "seriously_injured": _ids(p.at_risk, p.seriously_injured),
            "near_ledge": _ids(p.at_risk, p.near_ledge), "names": _names(p, p.at_risk)}, dice)
        rolls.extend(sub.rolls)
        log.extend(sub.log)
        effects.extend(sub.effects)
        values["stray"] = sub.values
        outcome += " stray:" + ",".join(sub.values["models_hit"]) if sub.values["models_hit"] else " stray:none"
    if hits and p.combat:
        drawn = allocation.allocation_resolve({"combat": ",".join(p.combat), "hits": hits,
                                               "names": _names(p, p.combat)}, dice)
        rolls.extend(drawn.rolls)
        log.extend(drawn.log)
        values["combat"] = drawn.values
        outcome += f" combat:{drawn.outcome}"
    return Resolution(NAME, outcome, values, rolls, effects, [*log, *_falling(p, effects)])


def _falling(p: AttackInputs, effects: list[Effect]) -> list[str]:
    """The `falling_notes` line ("uid=line", one a row: which ledge) of each model flagged to check for falling."""
    notes = dict(p.falling_notes)
    flagged = dict.fromkeys(e.unit_id for e in effects if isinstance(e, SetCondition)
                            and e.condition == CHECK_FALLING and e.present)
    return [notes[k] for k in flagged if k in notes]


def _walking_choice(p: AttackInputs, hits: int, given: tuple[str, ...]) -> ChoiceNeeded:
    """The question for the next Hit's model: each option is the answer list with that model added.

    The options' words are unit ids; the app shows the fighters' names.
    """
    assert p.shot is not None
    n = len(given) + 2
    options = tuple((",".join((*given, k)), k) for k in (p.shot.target_id, *p.walking_candidates))
    return ChoiceNeeded("walking_fire", options, f"Walking fire: which model takes Hit {n} of {hits}?")


def attack_odds(inputs: Inputs) -> Distribution[str]:
    return _odds(_odds_key(_parse(inputs)))


@dataclass(frozen=True)
class _OddsKey:
    """What the odds depend on: not the walking-fire answers nor the models' conditions."""

    cool: int
    template: bool
    needed: int | None
    dice: int
    die: Any
    ammo: int
    reading: str
    at_risk: tuple[str, ...]
    combat: tuple[str, ...]


def _odds_key(p: AttackInputs) -> _OddsKey:
    if p.shot is None:
        return _OddsKey(p.cool, True, None, 0, None, 0, "", (), ())
    s = p.shot
    return _OddsKey(p.cool, False, s.needed if s.band is not None else None, s.dice_rolled, s.die, s.ammo,
                    s.reading, p.at_risk, p.combat)


@lru_cache(maxsize=1024)
def _odds(k: _OddsKey) -> Distribution[str]:
    if k.template:
        weights, den = {TEMPLATE: 1}, 1
    else:
        weights, den = _shot_weights(k)
    if k.cool:
        passed = cool.cool_odds({"cool": k.cool}).p("passed")
        weights = {key: n * passed.numerator for key, n in weights.items()}
        weights[COOL_FAILED] = (passed.denominator - passed.numerator) * den
        den *= passed.denominator
    return Distribution.from_weights(_display_ordered(weights), den)


def _display_ordered(weights: dict[str, int]) -> dict[str, int]:
    """The outcomes in `display_order`, which reads a key's head alone and then the whole key: the heads
    (a dozen) sorted by it, each head's keys (hundreds under stray shots) sorted as text."""
    by_head: dict[str, list[str]] = {}
    for key in weights:
        by_head.setdefault(key.partition(" ")[0], []).append(key)
    return {key: weights[key] for head in sorted(by_head, key=display_order) for key in sorted(by_head[head])}


def _shot_weights(k: _OddsKey) -> tuple[dict[str, int], int]:
    """The shot's outcomes as whole weights and their denominator, summed over the Firepower dice's (holes,
    ammo state).

    A miss keys only the ammo state, so the stray shots of every number of holes are mixed per state, the
    states together (`stray_shots.mixed_weights`), not one distribution per number of holes.
    """
    p_hit = Fraction(0) if k.needed is None else success_chance(k.needed)
    hit, miss_weight = p_hit.numerator, p_hit.denominator - p_hit.numerator
    miss = "out_of_range" if k.needed is None else "miss"
    fire: Distribution[Any] = (
        holes_and_ammo_state(k.die, k.dice, k.ammo, k.reading) if k.dice else Distribution.certain((1, None)))
    fire_weights, fire_den = fire.whole_weights()
    den = p_hit.denominator * fire_den
    plain: dict[str, int] = {}
    parts: list[tuple[dict[str, int], int]] = [(plain, den)]
    strays: dict[str | None, list[tuple[int, int]]] = {}
    for (holes, state), w in fire_weights.items():
        shots = holes if state is not None else 1
        if hit:
            key = shooting.outcome_key(f"hits={shots}", state)
            if k.combat and shots:
                drawn, drawn_den = allocation._keyed(allocation.AllocationInputs(k.combat, shots)).whole_weights()
                parts.append(({f"{key} combat:{d}": hit * w * n for d, n in drawn.items()}, den * drawn_den))
            else:
                plain[key] = plain.get(key, 0) + hit * w
        if miss_weight:
            if k.at_risk and shots:
                strays.setdefault(state, []).append((min(shots, stray_shots.MAX_HITS), w))
            else:
                key = shooting.outcome_key(miss, state)
                plain[key] = plain.get(key, 0) + miss_weight * w
    if strays:
        groups, scale = stray_shots.mixed_weights(len(k.at_risk), tuple(tuple(g) for g in strays.values()))
        struck = [m.removeprefix("hit=") for m in stray_shots._mask_keys(k.at_risk)]
        missed: dict[str, int] = {}
        for state, masks in zip(strays, groups, strict=True):
            key = shooting.outcome_key(miss, state)
            missed.update({f"{key} stray:{models}": miss_weight * n
                           for models, n in zip(struck, masks, strict=True) if n})
        parts.append((missed, den * scale))
    return _common(parts)


def _common(parts: list[tuple[dict[str, int], int]]) -> tuple[dict[str, int], int]:
    """Whole weights over several denominators, added up over the least common one."""
    den = lcm(*(d for _, d in parts))
    out: dict[str, int] = {}
    for weights, d in parts:
        factor = den // d
        for key, n in weights.items():
            out[key] = out.get(key, 0) + n * factor
    return out, den


AMMO_WORDS = {"ok": "", "out": ", Out of Ammo", "jammed": ", the weapon jams"}


RESULT_ORDER = (COOL_FAILED, "out_of_range", "miss")


def result_label(outcome: str) -> str:
    """The attack's result alone, for the odds plot's bars: "Miss", "2 Hits", "Cool check failed"."""
    return label(outcome.partition(" ")[0])


def display_order(outcome: str) -> tuple[int, int, str]:
    """Outcomes in reading order: no attack, misses, then Hits from fewest to most."""
    head = outcome.partition(" ")[0]
    if head in RESULT_ORDER:
        return (RESULT_ORDER.index(head), 0, outcome)
    return (len(RESULT_ORDER), int(head.removeprefix("hits=")) if head.startswith("hits=") else 0, outcome)


def firer_rank(outcome: str) -> tuple[float, ...]:
    """How good an attack's outcome is for the attacker (`Procedure.better`): more Hits, then the weapon
    still loaded (out of ammo or jammed is worse). A failed Cool check, a target out of range and a miss
    with the ammo kept all leave the attacker as it was: they rank alike."""
    head, *rest = outcome.split()
    hits = float(head.removeprefix("hits=")) if head.startswith("hits=") else 0.0
    ammo = dict(part.partition("=")[::2] for part in rest).get("ammo", "ok")
    return (hits, 1.0 if ammo == "ok" else 0.0)


def label(outcome: str, names: Mapping[str, str] | None = None) -> str:
    """An outcome in a player's words; `names` turns unit ids into the fighters' names."""
    def name(unit_id: str) -> str:
        return (names or {}).get(unit_id, unit_id)

    if outcome == COOL_FAILED:
        return "Cool check failed"
    if outcome == TEMPLATE:
        return "Template hits"
    head, _, rest = outcome.partition(" ")
    words = {"miss": "Miss", "out_of_range": "Out of range"}.get(head)
    if words is None:
        n = int(head.removeprefix("hits="))
        words = f"{n} Hit{'s' if n != 1 else ''}"
    for part in rest.split(" "):
        if part.startswith("ammo="):
            words += AMMO_WORDS[part.removeprefix("ammo=")]
        elif part == "stray:none":
            words += "; stray shots hit no one"
        elif part.startswith("stray:"):
            words += "; stray shots hit " + ", ".join(name(k) for k in part.removeprefix("stray:").split(","))
        elif part.startswith("combat:"):
            drawn = (pair.rpartition(":") for pair in part.removeprefix("combat:").split(","))
            words += "; " + ", ".join(f"{n} to {name(k)}" for k, _, n in drawn)
    return words


SETTINGS = (FACES_SETTING, READING_SETTING, STRAY_SHOTS, TARGET_PRIORITY, WALKING_FIRE)

_TYPICAL_ATTACK: Inputs = {"bs": 4, "range": 10.0, "short_range": 8.0, "long_range": 24.0, "acc_short": 1,
                           "acc_long": 0, "rapid_fire": 2, "ammo": 4, "firer_id": "a", "weapon": 0, "target_id": "b",
                           "weapon_name": "Autogun", "cool": 7, "toolkit_target_priority": True}
register(Procedure(NAME, "Attack", attack_resolve, attack_odds, ruleset="necromunda", settings=SETTINGS,
                   label=label, order=display_order, named_label=label, better=firer_rank, rolled_by=FIRER,
                   typical=_TYPICAL_ATTACK,
                   largest={**_TYPICAL_ATTACK, "rapid_fire": 6, "at_risk": "c,d,e,f,g,h,i,j",
                            "toolkit_stray_shots": True},
                   worst_best=("miss ammo=jammed", "hits=6 ammo=ok")))
