"""`necro.shoot`: one ranged attack, from measuring range to the weapon's ammo.

The sequence follows the documents: range is measured after the shot is
declared, and a target beyond the weapon's long range is missed without a
Hit roll. The Hit roll is a Ballistic Skill test: the D6 plus the modifiers
(the range's accuracy, -1 against a Seriously Injured target, anything else
the player adds) must reach the BS score; a natural 1 always misses and a
natural 6 always hits, so the natural score `needed` is always 2 to 6.

A Rapid Fire (X) weapon rolls its Firepower dice (up to X) whether or not
the shot hits. The documents say "regardless of whether the shots hit or
not", and the weapon has been fired once the shot is declared, so the dice
are rolled for an out-of-range miss too and its ammo is checked the same way.
On a hit the number of Hits is the bullet holes across the dice; otherwise a
hit is one Hit. A Rapid Fire weapon that is also Light fires a single shot in
close combat and rolls no Firepower dice.

Ammo: the Firepower dice's ammo symbols count against the weapon as the
setting `ammo_trait_reading` says (firepower.py). Under the default,
`ammo_check`, a weapon with Ammo (X+) makes one Ammo check per ammo symbol
rolled, a D6 each that passes on X+, and counts only the failed checks.

Dice order: the Hit D6 (none when out of range), then the Firepower dice,
then the Ammo check D6s (one per ammo symbol, when the reading calls for them).

Outcome: `out_of_range`, `miss` or `hits=N`, followed by ` ammo=ok|out|jammed`
when Firepower dice were rolled.

Effects, when ids are given: with `firer_id`, Out of Ammo on the profile fired
(`weapon`, `profile`), or, on a jam, every profile of the weapon jammed (the
documents jam the weapon, not the profile; `weapon_profiles` says how many it
has). With `target_id`, a hit target becomes Suppressed unless it is Engaged or
Seriously Injured, and is flagged `check_falling` when within 1/2" of a ledge.
Hits on an Engaged target are allocated at random among every model in the
combat with `necro.engaged_allocation`, so this procedure suppresses no one then.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.geometry import range_band
from battletracker.core.odds import Distribution
from battletracker.core.odds import success_chance
from battletracker.model.effects import Effect
from battletracker.model.effects import SetProfileState
from battletracker.model.game import PROFILE_STATES
from battletracker.rules import register
from battletracker.rules.base import FIRER
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import counted
from battletracker.rules.necromunda.conditions import becomes_suppressed
from battletracker.rules.necromunda.conditions import hit_effects
from battletracker.rules.necromunda.firepower import AMMO_JAMMED
from battletracker.rules.necromunda.firepower import AMMO_OUT
from battletracker.rules.necromunda.firepower import FACES_SETTING
from battletracker.rules.necromunda.firepower import PROFILE_STATE_AFTER
from battletracker.rules.necromunda.firepower import READING_SETTING
from battletracker.rules.necromunda.firepower import FirepowerDie
from battletracker.rules.necromunda.firepower import ammo_check_failed
from battletracker.rules.necromunda.firepower import ammo_checks_needed
from battletracker.rules.necromunda.firepower import ammo_state
from battletracker.rules.necromunda.firepower import ammo_symbols_counted
from battletracker.rules.necromunda.firepower import holes_and_ammo_state
from battletracker.rules.necromunda.firepower import read_die
from battletracker.rules.necromunda.firepower import read_reading
from battletracker.rules.necromunda.refusals import Refusal
from battletracker.rules.necromunda.refusals import speaking
from battletracker.rules.necromunda.refusals import weapon_words

NAME = "necro.shoot"
MAX_RAPID_FIRE = 6
MAX_MODIFIER = 6
MAX_PROFILES = 12
BANDS = ("short", "long")


@dataclass(frozen=True)
class ShootInputs:
    bs: int
    distance: float
    short_range: float
    long_range: float
    acc_short: int
    acc_long: int
    rapid_fire: int
    firepower_dice: int
    ammo: int
    target_engaged: bool
    target_seriously_injured: bool
    other_modifier: int
    light: bool
    close_combat: bool
    target_near_ledge: bool
    firer_id: str
    weapon: int
    profile: int
    weapon_profiles: int
    target_id: str
    die: FirepowerDie
    reading: str

    @property
    def band(self) -> str | None:
        """The range band: short or long, None beyond long range (an edge belongs to the nearer band)."""
        index = range_band(self.distance, (self.short_range, self.long_range))
        return None if index is None else BANDS[index]

    @property
    def single_shot(self) -> bool:
        """Rapid Fire and Light in close combat: single shots, no Firepower dice."""
        return self.rapid_fire > 0 and self.light and self.close_combat

    @property
    def dice_rolled(self) -> int:
        """Firepower dice this attack rolls."""
        return 0 if self.single_shot else self.firepower_dice

    @property
    def accuracy(self) -> int:
        return self.acc_short if self.band == "short" else self.acc_long

    @property
    def modifier(self) -> int:
        """Everything added to the Hit roll."""
        return self.accuracy + self.other_modifier - (1 if self.target_seriously_injured else 0)

    @property
    def needed(self) -> int:
        """The natural D6 score that hits: BS less the modifiers, never below 2 nor above 6."""
        return min(6, max(2, self.bs - self.modifier))


@speaking
def _parse(inputs: Inputs) -> ShootInputs:
    r = InputReader(inputs)
    bs = r.int("bs", minimum=2, maximum=6)
    distance = r.float("range", minimum=0.0)
    short_range = r.float("short_range", minimum=0.0)
    long_range = r.float("long_range", minimum=0.0)
    if long_range < short_range:
        raise Refusal("long_range", f"the weapon's long range ({long_range:g}\") must be at least its short "
                                    f"range ({short_range:g}\")")
    acc_short = r.int("acc_short", 0, minimum=-MAX_MODIFIER, maximum=MAX_MODIFIER)
    acc_long = r.int("acc_long", 0, minimum=-MAX_MODIFIER, maximum=MAX_MODIFIER)
    rapid_fire = r.int("rapid_fire", 0, minimum=0, maximum=MAX_RAPID_FIRE)
    light = r.bool("light")
    close_combat = r.bool("close_combat")
    dice_given = "firepower_dice" in r
    firepower_dice = r.int("firepower_dice", rapid_fire, minimum=0)
    if rapid_fire == 0 and firepower_dice:
        raise Refusal("firepower_dice", f"this profile has no Rapid Fire trait, so it rolls no Firepower dice, "
                                        f"not {firepower_dice}")
    if rapid_fire and light and close_combat and dice_given:
        raise Refusal("firepower_dice", f"a Rapid Fire ({rapid_fire}) weapon that is also Light fires single "
                                        f"shots in close combat and rolls no Firepower dice")
    if rapid_fire and not 1 <= firepower_dice <= rapid_fire:
        raise Refusal("firepower_dice", f"a Rapid Fire ({rapid_fire}) weapon rolls 1 to {rapid_fire} Firepower "
                                        f"dice, not {firepower_dice}")
    ammo = r.int("ammo", 0, minimum=0, maximum=6)
    if ammo == 1:
        raise Refusal("ammo", "the X of Ammo (X+) must be 2 to 6 (0 for no Ammo trait), not 1")
    profile_state = r.choice("profile_state", PROFILE_STATES, "ok")
    name = r.str("weapon_name", "")
    if profile_state == "out_of_ammo":
        raise Refusal("profile_state", f"{weapon_words(name, 'this profile')} is Out of Ammo and cannot fire "
                                       f"until a Reload action")
    if profile_state == "jammed":
        raise Refusal("profile_state", f"{weapon_words(name)} is jammed and cannot be used again this battle")
    weapon = r.int("weapon", 0, minimum=0)
    weapon_profiles = r.int("weapon_profiles", 1, minimum=1, maximum=MAX_PROFILES)
    profile = r.int("profile", 0, minimum=0)
    if profile >= weapon_profiles:
        raise Refusal("profile", f"the weapon has {counted(weapon_profiles, 'profiles')}, numbered from 0; there is no "
                                 f"profile {profile}")
    parsed = ShootInputs(
        bs=bs,
        distance=distance,
        short_range=short_range,
        long_range=long_range,
        acc_short=acc_short,
        acc_long=acc_long,
        rapid_fire=rapid_fire,
        firepower_dice=firepower_dice,
        ammo=ammo,
        target_engaged=r.bool("target_engaged"),
        target_seriously_injured=r.bool("target_seriously_injured"),
        other_modifier=r.int("other_modifier", 0, minimum=-MAX_MODIFIER, maximum=MAX_MODIFIER),
        light=light,
        close_combat=close_combat,
        target_near_ledge=r.bool("target_near_ledge"),
        firer_id=r.str("firer_id", ""),
        weapon=weapon,
        profile=profile,
        weapon_profiles=weapon_profiles,
        target_id=r.str("target_id", ""),
        die=read_die(r),
        reading=read_reading(r),
    )
    r.finish()
    return parsed


parse_shot = _parse


def outcome_key(result: str, ammo: str | None) -> str:
    """The outcome key: the result, then the ammo state when Firepower dice were rolled ("hits=3 ammo=out")."""
    return result if ammo is None else f"{result} ammo={ammo}"


def _signed(n: int) -> str:
    return f"{n:+d}"


def shoot_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    roller = Roller(dice)
    log: list[str] = []
    band = p.band
    hit_roll: int | None = None
    if band is None:
        hit = False
        log.append(f"Range {p.distance:g}\" is beyond the long range of {p.long_range:g}\": the attack misses")
    else:
        hit_roll = roller.roll_ints("Hit roll", D6)[0]
        hit = hit_roll >= p.needed
        extra = " (natural 1 always misses)" if hit_roll == 1 else " (natural 6 always hits)" if hit_roll == 6 else ""
        log.append(
            f"Range {p.distance:g}\" ({band} range, accuracy {_signed(p.accuracy)}); Hit roll {hit_roll} with "
            f"modifier {_signed(p.modifier)} against BS {p.bs}+ needs a natural {p.needed}+: "
            f"{'hit' if hit else 'miss'}{extra}"
        )

    faces: list[str] = []
    holes = 0
    rolled_symbols = 0
    counted_symbols = 0
    checks: tuple[int, ...] = ()
    failed = 0
    state: str | None = None
    if p.single_shot:
        log.append("Rapid Fire and Light in close combat: a single shot, no Firepower dice")
    elif p.dice_rolled:
        rolled = roller.roll("Firepower dice", p.die.die, p.dice_rolled)
        for value in rolled:
            face = p.die.face(value)
            faces.append(face.label)
            holes += face.holes
            rolled_symbols += 1 if face.ammo else 0
        needed = ammo_checks_needed(rolled_symbols, p.ammo, p.reading)
        fire_line = (f"Firepower dice {', '.join(faces)}: {counted(holes, 'bullet holes')}, "
                     f"{counted(rolled_symbols, 'ammo symbols')}")
        if needed:
            checks = roller.roll_ints(_checks_label(p.ammo, needed), D6, needed)
            failed = sum(1 for roll in checks if ammo_check_failed(roll, p.ammo))
        counted_symbols = ammo_symbols_counted(rolled_symbols, p.ammo > 0, p.reading, failed)
        state = ammo_state(counted_symbols)
        if needed:
            log.append(fire_line)
            log.append(f"{_checks_label(p.ammo, needed)}: {', '.join(str(c) for c in checks)}, {failed} failed: "
                       f"{_ammo_text(state)}")
        else:
            trait = f" + 1 for Ammo ({p.ammo}+)" if counted_symbols > rolled_symbols else ""
            log.append(f"{fire_line}{trait}: {_ammo_text(state)}")

    shots = holes if state is not None else 1
    hits = shots if hit else 0
    if band is None:
        result = "out_of_range"
    elif hit:
        result = f"hits={hits}"
    else:
        result = "miss"
    suppressed = hit and becomes_suppressed(p.target_engaged, p.target_seriously_injured)
    allocate = hit and p.target_engaged
    if hit:
        log.append(f"{counted(hits, 'Hits')} on the target")
        if allocate:
            log.append("The target is Engaged: allocate the Hits at random among every model in the combat")
        elif suppressed:
            log.append("The target becomes Suppressed" + (" and must check for falling" if p.target_near_ledge
                                                          else ""))

    effects: list[Effect] = []
    if p.firer_id and state == AMMO_OUT:
        effects.append(SetProfileState(p.firer_id, p.weapon, p.profile, PROFILE_STATE_AFTER[AMMO_OUT]))
    elif p.firer_id and state == AMMO_JAMMED:
        effects.extend(SetProfileState(p.firer_id, p.weapon, i, PROFILE_STATE_AFTER[AMMO_JAMMED])
                       for i in range(p.weapon_profiles))
    if p.target_id and hit:
        effects.extend(hit_effects(p.target_id, engaged=p.target_engaged,
                                   seriously_injured=p.target_seriously_injured, near_ledge=p.target_near_ledge))

    values: dict[str, Any] = {
        "range_band": band or "out",
        "accuracy": p.accuracy,
        "modifier": p.modifier,
        "needed": p.needed if band is not None else None,
        "hit_roll": hit_roll,
        "hit": hit,
        "firepower_faces": faces,
        "bullet_holes": holes,
        "hits": hits,
        "stray_hits": 0 if hit else shots,
        "ammo_symbols_rolled": rolled_symbols,
        "ammo_symbols": counted_symbols,
        "ammo_checks": list(checks),
        "ammo_checks_failed": failed,
        "ammo_state": state,
        "suppressed": suppressed,
        "check_falling": suppressed and p.target_near_ledge,
        "allocate_at_random": allocate,
    }
    return Resolution(NAME, outcome_key(result, state), values, roller.rolls, effects, log)


def _checks_label(ammo: int, count: int) -> str:
    """The roll's name for typed dice: "Ammo check (4+)", or "Ammo checks (4+)" for one per symbol."""
    return f"Ammo check{'s' if count > 1 else ''} ({ammo}+)"


def _ammo_text(state: str) -> str:
    if state == AMMO_OUT:
        return "the profile is Out of Ammo"
    if state == AMMO_JAMMED:
        return "the weapon jams for the rest of the battle"
    return "ammo fine"


def shoot_odds(inputs: Inputs) -> Distribution[str]:
    p = _parse(inputs)
    needed = p.needed if p.band is not None else None
    return _odds(needed, p.dice_rolled, p.die, p.ammo, p.reading)


@lru_cache(maxsize=1024)
def _odds(needed: int | None, dice: int, die: FirepowerDie, ammo: int, reading: str) -> Distribution[str]:
    """Exact odds; `needed` None is out of range (no Hit roll)."""
    p_hit = Fraction(0) if needed is None else success_chance(needed)
    miss = "out_of_range" if needed is None else "miss"
    if not dice:
        return Distribution({"hits=1": p_hit, miss: 1 - p_hit})
    fire = holes_and_ammo_state(die, dice, ammo, reading)
    hit_or_miss = Distribution({True: p_hit, False: 1 - p_hit})
    return hit_or_miss.convolve(
        fire, lambda hit, hs: outcome_key(f"hits={hs[0]}" if hit else miss, hs[1])).reduced()


SETTINGS = (FACES_SETTING, READING_SETTING)

def shoot_label(outcome: str) -> str:
    """The shot in a player's words ("2 Hits, Out of Ammo"), read as the attack reads its own shot."""
    from battletracker.rules.necromunda import attack  # the attack builds on this module
    return attack.label(outcome)


def shoot_order(outcome: str) -> tuple[int, int, str]:
    from battletracker.rules.necromunda import attack
    return attack.display_order(outcome)


def shoot_rank(outcome: str) -> tuple[float, ...]:
    from battletracker.rules.necromunda import attack
    return attack.firer_rank(outcome)


_TYPICAL_SHOOT: Inputs = {"bs": 4, "range": 10, "short_range": 8, "long_range": 24, "acc_short": 1, "rapid_fire": 2,
                          "ammo": 4}
register(Procedure(NAME, "Shoot", shoot_resolve, shoot_odds, ruleset="necromunda", settings=SETTINGS,
                   label=shoot_label, order=shoot_order, better=shoot_rank, rolled_by=FIRER,
                   typical=_TYPICAL_SHOOT, largest={**_TYPICAL_SHOOT, "rapid_fire": 6},
                   worst_best=("miss ammo=jammed", "hits=6 ammo=ok")))
