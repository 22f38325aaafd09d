"""How lucky each side was: where every rolled result fell in its exact distribution.

The luck of one roll is its percentile in the procedure's exact odds:

    percentile = P(a worse outcome) + P(an equally good outcome) / 2

so 0.5 is an average roll, near 1 the best the dice could do, near 0 the
worst; over many rolls of a fair die the mean is 0.5 whatever the odds were.

"Better" is for the side that rolled the dice, and each procedure says what
it means next to its labels (`Procedure.better`): more kills before more
Shock; a vehicle destroyed above any damage above Shock above no effect above
a miss; a smaller loss for the side taking a test; and so on. Outcomes the
roller cannot tell apart rank alike. Only a plain dice pool, whose outcomes
are counts, is left to the generic rule (`rank`): the whole numbers an
outcome names, compared left to right, more being better. A roll whose
possible outcomes all rank alike (a certain result, or dice whose result is
neither good nor bad for the roller, such as which models a stray shot
finds) says nothing about luck and is not rated.

The side that rolled is the one the procedure names (`Procedure.rolled_by`,
`acting_side`): the firer for an attack, the testing side for a test, the
side whose Command Dice they are; never whoever's Phase it happens to be.

Only the game's recorded actions that rolled dice are rated; a replay stops
at the first action that cannot be replayed (made by a dialog that records no
choices), which `GameLuck.stopped` says.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Hashable
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING
from typing import TypeVar

from battletracker.core.odds import Distribution
from battletracker.model.game import Game
from battletracker.rules.words import UnitNames

if TYPE_CHECKING:
    from battletracker.rules.base import Inputs
    from battletracker.rules.base import InputValue
    from battletracker.rules.base import Resolution
    from battletracker.rules.replay import Replayed

_NUMBER = re.compile(r"(?<![A-Za-z])-?\d+|\b(?:yes|no)\b")
K = TypeVar("K", bound=Hashable)


def rank(outcome: str) -> tuple[float, ...]:
    """The generic order of a plain dice pool's outcomes: the whole numbers each names, more being better
    ("3 successes" above "2 successes"); "yes" counts 1 and "no" 0. An outcome naming no number ranks below
    any that does. Every other procedure declares its own order (`Procedure.better`)."""
    return tuple(1 if v == "yes" else 0 if v == "no" else int(v) for v in _NUMBER.findall(outcome))


def better_of(procedure: str) -> Callable[[str], tuple[float, ...]]:
    """How `procedure` ranks its outcomes for the side that rolled: its own order, else the generic `rank`."""
    from battletracker.rules import get

    return get(procedure).better or rank


def acting_side(game: Game, choices: Mapping[str, object], inputs: Mapping[str, object],
                procedure: str | None = None) -> int:
    """The side that took an action: for a procedure that rolls dice, the side that rolled them.

    The procedure names the inputs that say who rolled (`Procedure.rolled_by`, read from the inputs, else
    the player's choices): a unit id is that unit's side (a firer's, even in the enemy's Phase when it
    interrupts), a whole number is the side itself (the side whose Force Morale is tested, even when a tank
    lost in the enemy's Phase is tested for in that Phase; whose Command Dice are rolled; whose bombardment
    fires). An action that names none (a move, an edit) is the unit's it is about, else the side the
    action is for, else the side whose Phase it is.
    """
    from battletracker.rules import get

    named = get(procedure).rolled_by if procedure else ()
    for key in (*named, "firer_id", "firer", "unit", "side"):
        found = _side(game, inputs.get(key, choices.get(key)))
        if found is not None:
            return found
    return game.active_side


def _side(game: Game, value: object) -> int | None:
    if isinstance(value, str) and value in game.units:
        return game.units[value].side
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(game.sides):
        return value
    return None


def luck_odds(procedure: str, inputs: Inputs, result: Resolution) -> tuple[Distribution[str], str]:
    """The odds the dice luck reads for a roll and the roll's outcome among them: the procedure's own, or its
    finer `luck` odds where its outcome key leaves out what the roller cared about.

    The odds are worked out once for a procedure and its inputs (`_luck_odds`): a long game rolls the same
    dice for the same target again and again.
    """
    from battletracker.rules import get

    finer = get(procedure).luck
    outcome = result.outcome if finer is None else finer[1](result)
    return _luck_odds(procedure, tuple((k, type(v), v) for k, v in inputs.items())), outcome


@lru_cache(maxsize=256)
def _luck_odds(procedure: str, inputs: tuple[tuple[str, type, InputValue], ...]) -> Distribution[str]:
    """`luck_odds`' odds of `procedure` on `inputs`, each value beside its type: 1, 1.0 and True are equal keys,
    but not the same input."""
    from battletracker.rules import get
    from battletracker.rules import odds

    plain = {k: v for k, _t, v in inputs}
    finer = get(procedure).luck
    return odds(procedure, plain) if finer is None else finer[0](plain)


def percentile(odds: Distribution[str], outcome: str,
               better: Callable[[str], tuple[float, ...]] = rank) -> Fraction:
    """P(worse) + P(equally good)/2 of `outcome` under `odds`, by the procedure's order `better`."""
    mine = better(outcome)
    worse = odds.probability(lambda o: better(o) < mine)
    equal = odds.probability(lambda o: better(o) == mine)
    return worse + equal / 2


def can_be_lucky(odds: Distribution[str], better: Callable[[str], tuple[float, ...]]) -> bool:
    """Whether the roll could have gone better or worse for the roller: two of its outcomes rank apart."""
    return len({better(o) for o, p in odds.items() if p > 0}) > 1


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
    from battletracker.rules.replay import ReplayError
    from battletracker.rules.replay import replayed_actions

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
    rated = rate_with_odds(replayed, after)
    return None if rated is None else rated[0]


def rate_with_odds(replayed: Replayed, after: Game) -> tuple[RolledLuck, Distribution[str]] | None:
    """`rate`, with the odds it read the roll against (the report's comparisons read them too)."""
    from battletracker.rules import OddsTooLarge
    from battletracker.rules import get

    if not replayed.action.dice:
        return None
    p = replayed.plan
    try:
        dist, outcome = luck_odds(p.procedure, p.inputs, replayed.result)
    except (ValueError, NotImplementedError, OddsTooLarge):
        return None
    if dist.p(outcome) <= 0:
        return None
    ranked = better_of(p.procedure)
    better = {o: ranked(o) for o in dist.outcomes}.__getitem__  # each outcome ranked once, not once a comparison
    if not can_be_lucky(dist, better):
        return None
    return RolledLuck(replayed.index, replayed.turn, replayed.phase, replayed.side, p.procedure,
                      p.title or replayed.action.name, outcome, percentile(dist, outcome, better),
                      get(p.procedure).words(outcome, UnitNames(after))), dist
