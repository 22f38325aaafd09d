"""Snipers: their one shot (`coc.sniper`) and what the tracker keeps about them.

A sniper rolls one Firepower Die, hitting on 3+ at any range (4+ against a
bunker), and the hit's effect is read as in the Open (Light Cover against a
bunker) with any Shock doubled. A kill on a Unit with a Leader attached rolls
one more die: the Leader is hit on 1 or 2 (what that hit does is the Leader
hit procedure's business; the outcome says it happened). Snipers never fire
Suppressing Fire, never target vehicles, and reach APC passengers only when
they man a weapon outside an enclosed turret.

Tracker state on the sniper's card:
- counter `sniper_shots`: +1 per shot (the Resolution carries it when
  `firer_id` is given). The enemy Team on Overwatch adds it to its roll to
  spot the sniper (`spotting_bonus`).
- condition `spotted`: until it is set the sniper ignores Suppressing Fire
  and cannot be targeted (`check_sniper_targetable`).
- Snipers ignore Shock; one kill removes the sniper and calls for a Force
  Morale Test (`sniper_fired_on`); an enemy Unit contacting its base
  removes it with no test (`sniper_contacted`).

`coc.sniper`
    Inputs: `target_kind` (infantry | support | bunker | transport_passengers
    | apc_passengers | apc_weapon_crew | vehicle), `enclosed_turret`,
    `leader_attached`, `suppressing` (bools); optional `firer_id`,
    `target_id`, `target_figures` (a target left with none is out of play).
    Dice: "Sniper's Firepower Die", "Effect die" on a hit,
    "Leader hit die" after a kill with a Leader attached. Outcomes: `miss`,
    `no_effect`, `shock=2`, `kill`, `kill+leader_hit`. Values: `to_hit`,
    `cover`, `hit`, `kills`, `shock`, `leader_hit`, `cannot_ignore` (bunker).
    Effects: `sniper_shots` +1 on the firer; ChangeFigures / `shock` on the
    target, and `out_of_play` on a target that loses its last figure.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.core.odds import success_chance
from battletracker.core.text import brief
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import Effect
from battletracker.model.effects import RemoveUnit
from battletracker.model.effects import SetCondition
from battletracker.model.effects import add_shock
from battletracker.model.game import OUT_OF_PLAY
from battletracker.rules import register
from battletracker.rules.base import FIRER
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import RulesInputError
from battletracker.rules.base import listed_order
from battletracker.rules.base import listed_rank
from battletracker.rules.base import worded
from battletracker.rules.chain_of_command.fire import FIGURES_DIGITS
from battletracker.rules.chain_of_command.fire import RULESET
from battletracker.rules.chain_of_command.fire import TABLE_SETTINGS
from battletracker.rules.chain_of_command.fire import FireTables
from battletracker.rules.chain_of_command.fire import HitEffect
from battletracker.rules.chain_of_command.fire import out_of_play_line
from battletracker.rules.chain_of_command.fire import read_id

SIGHT_RADIUS = 3.0
"""Line of Sight is measured from any point within 3" of the centre of the sniper's base."""
SHOTS_COUNTER = "sniper_shots"
SPOTTED = "spotted"
SHOCK_MULTIPLIER = 2
TO_HIT = 3
TO_HIT_BUNKER = 4
LEADER_HIT_ON = 2  # a Leader attached to the Unit is hit on 1 or 2
TARGET_KINDS = ("infantry", "support", "bunker", "transport_passengers", "apc_passengers", "apc_weapon_crew",
                "vehicle")
RESULT_TEXT = {
    "miss": "Missed",
    "no_effect": "No effect",
    f"shock={SHOCK_MULTIPLIER}": f"{SHOCK_MULTIPLIER} Shock",
    "kill": "One figure killed",
    "kill+leader_hit": "One figure killed and the Leader hit",
}


@dataclass(frozen=True)
class Shot:
    """What the dice need: the score to hit, how a hit is read, whether a Leader may be hit."""

    to_hit: int
    effect: HitEffect
    leader_attached: bool


@dataclass(frozen=True)
class SniperInputs:
    shot: Shot
    target_kind: str
    firer_id: str | None
    target_id: str | None
    target_figures: int | None = None


def check_sniper_target(target_kind: str, enclosed_turret: bool, suppressing: bool) -> None:
    """Refuse what a sniper cannot do, naming why."""
    if suppressing:
        raise RulesInputError("suppressing", "snipers never fire Suppressing Fire")
    if target_kind == "vehicle":
        raise RulesInputError("target_kind", "snipers cannot target vehicles and never affect them")
    if target_kind == "apc_passengers":
        raise RulesInputError("target_kind", "APC passengers cannot be targeted by a sniper; only a Team "
                                             "manning a weapon outside an enclosed turret can")
    if target_kind == "apc_weapon_crew" and enclosed_turret:
        raise RulesInputError("enclosed_turret", "a Team manning an APC weapon in an enclosed turret cannot be "
                                                 "targeted by a sniper")


def _parse(inputs: Inputs) -> SniperInputs:
    r = InputReader(inputs)
    kind = r.choice("target_kind", TARGET_KINDS)
    enclosed = r.bool("enclosed_turret")
    leader = r.bool("leader_attached")
    suppressing = r.bool("suppressing")
    firer_id = read_id(r, "firer_id")
    target_id = read_id(r, "target_id")
    figures_text = r.optional_str("target_figures")
    tables = FireTables.read(r)
    r.finish()
    text = None if figures_text is None else figures_text.strip()
    if text is not None and not (text.isascii() and text.isdigit() and len(text) <= FIGURES_DIGITS):
        raise RulesInputError("target_figures", f"must be a whole number, not {brief(figures_text)}")
    figures = int(text) if text is not None else None
    if figures == 0:
        raise RulesInputError("target_figures", "the target has no figures left: it is out of play and cannot be "
                                                "fired at")
    check_sniper_target(kind, enclosed, suppressing)
    bunker = kind == "bunker"
    effect = HitEffect.for_cover("light" if bunker else "open", SHOCK_MULTIPLIER, tables)
    return SniperInputs(Shot(TO_HIT_BUNKER if bunker else TO_HIT, effect, leader), kind, firer_id, target_id,
                        figures)


def sniper_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    roller = Roller(dice)
    shot = p.shot
    bunker = p.target_kind == "bunker"
    values: dict[str, object] = {"to_hit": shot.to_hit, "cover": shot.effect.cover, "hit": False,
                                 "kills": 0, "shock": 0, "leader_hit": False, "cannot_ignore": bunker}
    effects: list[Effect] = []
    if p.firer_id is not None:
        effects.append(ChangeCounter(p.firer_id, SHOTS_COUNTER, 1))
    roll = int(roller.one("Sniper's Firepower Die", D6))
    log = [f"Sniper needs {shot.to_hit}+ against {p.target_kind.replace('_', ' ')}: rolled {roll}"]
    outcome = "miss"
    if roll >= shot.to_hit:
        values["hit"] = True
        face = int(roller.one("Effect die", D6))
        kills, shock = shot.effect.read(face)
        values.update(kills=kills, shock=shock)
        log.append(f"Hit; effect die {face} read as {shot.effect.cover}, Shock doubled")
        if kills:
            outcome = "kill"
            if shot.leader_attached:
                leader = int(roller.one("Leader hit die", D6))
                if leader <= LEADER_HIT_ON:
                    outcome = "kill+leader_hit"
                    values["leader_hit"] = True
                log.append(f"Leader attached: rolled {leader}, "
                           f"{'the Leader is hit' if values['leader_hit'] else 'the Leader is not hit'}")
        elif shock:
            outcome = f"shock={shock}"
        else:
            outcome = "no_effect"
        if p.target_id is not None:
            if kills:
                effects.append(ChangeFigures(p.target_id, -kills))
            if shock:
                effects.append(add_shock(p.target_id, shock))
            if kills and p.target_figures is not None and kills >= p.target_figures:
                effects.append(SetCondition(p.target_id, OUT_OF_PLAY))
    log.append(RESULT_TEXT[outcome])
    if values["kills"] and p.target_figures is not None and values["kills"] == p.target_figures:
        log.append(out_of_play_line("The target"))
    if bunker and outcome not in ("miss", "no_effect"):
        log.append("The target in the bunker cannot ignore this result")
    return Resolution("coc.sniper", outcome, values, roller.rolls, effects, log)


@lru_cache(maxsize=256)
def shot_odds(shot: Shot) -> Distribution[str]:
    """Exact odds of the sniper's outcome keys."""
    p_hit = success_chance(shot.to_hit)
    kill = shot.effect.kill_chance()
    shock = shot.effect.shock_chance()
    leader = Fraction(LEADER_HIT_ON, 6) if shot.leader_attached else Fraction(0)
    return Distribution({
        "miss": 1 - p_hit,
        "no_effect": p_hit * (1 - kill - shock),
        f"shock={SHOCK_MULTIPLIER}": p_hit * shock,
        "kill": p_hit * kill * (1 - leader),
        "kill+leader_hit": p_hit * kill * leader,
    })


def sniper_odds(inputs: Inputs) -> Distribution[str]:
    return shot_odds(_parse(inputs).shot)


def spotting_bonus(shots: int) -> int:
    """What the enemy Team on Overwatch adds to its roll to spot the sniper: +1 per shot fired."""
    return shots


def check_sniper_targetable(spotted: bool, field: str = "target_id") -> None:
    """Only a spotted sniper can be fired at (and only then is it affected by Suppressing Fire)."""
    if not spotted:
        raise RulesInputError(field, "the sniper has not been spotted: it cannot be targeted and ignores "
                                     "Suppressing Fire")


@dataclass(frozen=True)
class SniperLoss:
    """What happens to a sniper: the Effects, and whether its side takes a Force Morale Test."""

    effects: tuple[Effect, ...]
    force_morale_test: bool


def sniper_fired_on(sniper_id: str, kills: int) -> SniperLoss:
    """Fire at a spotted sniper: Shock is ignored; a single kill removes the Team and calls a Force Morale Test."""
    if kills <= 0:
        return SniperLoss((), False)
    return SniperLoss((RemoveUnit(sniper_id),), True)


def sniper_contacted(sniper_id: str) -> SniperLoss:
    """An enemy Unit contacts the sniper's base: it leaves the area, with no Force Morale Test."""
    return SniperLoss((RemoveUnit(sniper_id),), False)


SHOT_WORDS = {"miss": "Miss", "no_effect": "No effect", "shock=2": "2 Shock", "kill": "Kill",
              "kill+leader_hit": "Kill, and the leader is hit"}

register(Procedure("coc.sniper", "Sniper shot", sniper_resolve, sniper_odds, ruleset=RULESET,
                   settings=TABLE_SETTINGS, label=worded(SHOT_WORDS), order=listed_order(*SHOT_WORDS),
                   better=listed_rank("miss", "no_effect", "shock=2", "kill", "kill+leader_hit"), rolled_by=FIRER,
                   typical={"target_kind": "infantry", "leader_attached": True},
                   worst_best=("miss", "kill+leader_hit")))
