"""How lucky each side was: where every rolled result fell in its exact distribution.

The luck of one roll is its percentile in the procedure's exact odds:

    percentile = P(a worse outcome) + P(an equally good outcome) / 2

so 0.5 is an average roll, near 1 the best the dice could do, near 0 the
worst; over many rolls of a fair die the mean is 0.5 whatever the odds were.

"Better" is for the side that rolled, by one documented rule for every
procedure (`rank`): an outcome's quantities are the whole numbers it names,
in order ("kills=2 shock=3" -> (2, 3); "3 successes" -> (3,)), "yes" counting
1 and "no" 0, compared left to right, more being better (more kills first,
then more Shock on the target; more successes). An outcome naming no
quantity ranks by whether it did anything: a miss, "no effect", a deviation
or a failure ranks below any other outcome, which all rank alike. The side
that rolled is the firing unit's side (`acting_side`), else the side the
action is for (a Force Morale Test's, a bombardment's), else the side whose
Phase it was when the action was applied.

Only the game's recorded actions that rolled dice are rated; a replay stops
at the first action that cannot be replayed (made by a dialog that records no
choices), which `GameLuck.stopped` says.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

from battletracker.core.odds import Distribution
from battletracker.model.game import Game

if TYPE_CHECKING:
    from battletracker.rules.replay import Replayed

_NUMBER = re.compile(r"(?<![A-Za-z])-?\d+|\b(?:yes|no)\b")
K = TypeVar("K", bound=Hashable)
_NOTHING = ("miss", "no_effect", "no effect", "deviated", "fail", "none", "nothing")


def rank(outcome: str) -> tuple[int, ...]:
    """The outcome's place in the better/worse order for the side that rolled (see the module text)."""
    found = _NUMBER.findall(outcome)
    if found:
        return tuple(1 if v == "yes" else 0 if v == "no" else int(v) for v in found)
    lowered = outcome.lower()
    return (0,) if any(word in lowered for word in _NOTHING) else (1,)


def acting_side(game: Game, choices: Mapping[str, object], inputs: Mapping[str, object]) -> int:
    """The side that took an action: the firer's (an interrupt fires in the enemy's Phase), else the
    unit's the action is about, else the side the action is for, else the side whose Phase it is.

    The side an action is for is its `side` input: the side whose Force Morale a Force Morale Test
    changes (a tank lost in the enemy's Phase is tested for in that Phase, by the tank's side), whose
    Command Dice are rolled, whose bombardment fires.
    """
    for key in ("firer_id", "firer", "unit"):
        unit_id = inputs.get(key, choices.get(key))
        if isinstance(unit_id, str) and unit_id in game.units:
            return game.units[unit_id].side
    side = inputs.get("side")
    if isinstance(side, int) and not isinstance(side, bool) and 0 <= side < len(game.sides):
        return side
    return game.active_side


def percentile(odds: Distribution[str], outcome: str) -> Fraction:
    """P(worse) + P(equally good)/2 of `outcome` under `odds`, by `rank`."""
    mine = rank(outcome)
    worse = odds.probability(lambda o: rank(o) < mine)
    equal = odds.probability(lambda o: rank(o) == mine)
    return worse + equal / 2


@dataclass(frozen=True)
class RolledLuck:
    """One rated roll: the action's place in the game's list, who rolled, what and how it fell."""

    index: int
    turn: int
    phase: int
    side: int
    procedure: str
    title: str
    outcome: str
    percentile: Fraction
    words: str
    """The outcome as the procedure's label says it, units by name."""


@dataclass(frozen=True)
class GameLuck:
    """Every rated roll of a game, in order; `stopped` says why the later actions were not rated, or ""."""

    rolls: tuple[RolledLuck, ...]
    stopped: str = ""

    def by_side(self) -> dict[int, tuple[int, Fraction]]:
        """Side index -> (rolls, mean percentile)."""
        return _means(self.rolls, lambda r: r.side)

    def by_side_and_procedure(self) -> dict[tuple[int, str], tuple[int, Fraction]]:
        """(side, procedure) -> (rolls, mean percentile), sorted by side then procedure."""
        return dict(sorted(_means(self.rolls, lambda r: (r.side, r.procedure)).items()))

    def running(self, side: int) -> list[tuple[int, Fraction]]:
        """The side's mean percentile after each of its rolls: (roll number, running mean), for the plot."""
        out: list[tuple[int, Fraction]] = []
        total = Fraction(0)
        for n, r in enumerate((r for r in self.rolls if r.side == side), start=1):
            total += r.percentile
            out.append((n, total / n))
        return out


def _means(rolls: tuple[RolledLuck, ...], key: Callable[[RolledLuck], K]) -> dict[K, tuple[int, Fraction]]:
    collected: dict[K, list[Fraction]] = {}
    for r in rolls:
        collected.setdefault(key(r), []).append(r.percentile)
    return {k: (len(v), sum(v, Fraction(0)) / len(v)) for k, v in collected.items()}


def game_luck(game: Game) -> GameLuck:
    """Replay the game's recorded actions from its start and rate every roll the app knew the odds of."""
    from battletracker.rules.replay import ReplayError, replayed_actions

    if game.start is None:
        return GameLuck((), "the game has no recorded start, so no roll could be rated" if game.actions else "")
    rolls: list[RolledLuck] = []
    try:
        for replayed, after in replayed_actions(game):
            rated = rate(replayed, after)
            if rated is not None:
                rolls.append(rated)
    except ReplayError as exc:
        return GameLuck(tuple(rolls), str(exc))
    return GameLuck(tuple(rolls))


def rate(replayed: Replayed, after: Game) -> RolledLuck | None:
    """How lucky one replayed action's dice were, or None when it rolled none or its odds are not known.

    `after` is the game just after the action, whose units' names say the outcome.
    """
    from battletracker.rules import OddsTooLarge, get, odds

    if not replayed.action.dice:
        return None
    p, outcome = replayed.plan, replayed.result.outcome
    try:
        dist = odds(p.procedure, p.inputs)
    except (ValueError, NotImplementedError, OddsTooLarge):
        return None
    if dist.p(outcome) <= 0:
        return None
    return RolledLuck(replayed.index, replayed.turn, replayed.phase, replayed.side, p.procedure,
                      p.title or replayed.action.name, outcome, percentile(dist, outcome),
                      get(p.procedure).words(outcome, {k: u.name for k, u in after.units.items()}))
