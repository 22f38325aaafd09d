"""Choosing who a shot may go to: target priority and walking fire.

Both are Arbitrator's toolkit options (see options.py) that the shoot
dialog applies from the map, so they are pure functions over what the map
knows about each fighter (`FighterOnTable`). Distances are centre to centre,
in inches, with the same geometry the map draws.

Target priority: when the closest enemy in Line of Sight is within 12" and is
neither Engaged nor Seriously Injured, it must be the target unless the
shooter passes a Cool check (`necro.cool_check`). If the closest enemy is
Engaged or Seriously Injured the shooter may choose freely; the rule does not
pass on to the next closest.

Walking fire: with more than one Hit, the first goes to the original target
and each of the rest to it or to another enemy within 3" of it that is also in
range and Line of Sight. All Hits are allocated before any Wound roll.
"""

from __future__ import annotations

from collections.abc import Collection
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass

from battletracker.core.geometry import EPSILON
from battletracker.core.geometry import Point
from battletracker.core.geometry import distance
from battletracker.model.game import Unit
from battletracker.rules.necromunda.conditions import ENGAGED
from battletracker.rules.necromunda.conditions import SERIOUSLY_INJURED
from battletracker.rules.necromunda.refusals import Refusal

PRIORITY_RANGE = 12.0
WALKING_FIRE_RADIUS = 3.0


@dataclass(frozen=True)
class FighterOnTable:
    """One fighter as the shooting rules see it from the map.

    `in_los` and `in_range` are from the shooter being considered (and its
    weapon); `engaged_with` lists the models, friend or foe, it is Engaged with.
    """

    key: str
    position: Point
    side: int
    level: int = 0
    engaged: bool = False
    seriously_injured: bool = False
    engaged_with: frozenset[str] = frozenset()
    in_los: bool = True
    in_range: bool = True

    @property
    def is_engaged(self) -> bool:
        return self.engaged or bool(self.engaged_with)

    @classmethod
    def from_unit(cls, unit: Unit, *, engaged_with: Iterable[str] = (), in_los: bool = True,
                  in_range: bool = True) -> FighterOnTable:
        """A fighter from its unit: position, side, level and conditions; the rest from the map."""
        return cls(
            key=unit.id,
            position=(unit.x, unit.y),
            side=unit.side,
            level=unit.level,
            engaged=unit.has(ENGAGED),
            seriously_injured=unit.has(SERIOUSLY_INJURED),
            engaged_with=frozenset(engaged_with),
            in_los=in_los,
            in_range=in_range,
        )


def priority_targets(shooter: Point, shooter_side: int, fighters: Iterable[FighterOnTable]) -> tuple[str, ...]:
    """The enemies the shot must go to unless the shooter passes a Cool check.

    Empty when the choice is free: no enemy in Line of Sight within 12", or
    the closest is Engaged or Seriously Injured. Several when enemies are
    tied for closest; any of them satisfies the rule.
    """
    seen = [(distance(shooter, f.position), f) for f in fighters if f.side != shooter_side and f.in_los]
    if not seen:
        return ()
    closest = min(d for d, _ in seen)
    if closest > PRIORITY_RANGE + EPSILON:
        return ()
    return tuple(f.key for d, f in seen
                 if d <= closest + EPSILON and not (f.is_engaged or f.seriously_injured))


def needs_cool_check(chosen: str, priority: Collection[str]) -> bool:
    """Whether targeting `chosen` needs a passed Cool check first."""
    return bool(priority) and chosen not in priority


def walking_fire_candidates(original: FighterOnTable, shooter_side: int,
                            fighters: Iterable[FighterOnTable]) -> list[str]:
    """Other enemies that may take the second and later Hits, closest to the original target first."""
    near = [(distance(original.position, f.position), f.key) for f in fighters
            if f.key != original.key and f.side != shooter_side and f.in_range and f.in_los
            and distance(original.position, f.position) <= WALKING_FIRE_RADIUS + EPSILON]
    near.sort(key=lambda pair: pair[0])
    return [key for _, key in near]


def check_walking_fire(hits: int, original: str, allocation: Sequence[str],
                       eligible: Collection[str]) -> tuple[str, ...]:
    """Validate a walking-fire allocation (one model per Hit, in order) and return it.

    Refused, naming `allocation`, unless it gives exactly `hits` Hits, the
    first to the original target and each other to it or an eligible model.
    """
    given = tuple(allocation)
    if len(given) != hits:
        raise Refusal("allocation", f"allocate all {hits} Hits before any Wound roll, not {len(given)}")
    if given and given[0] != original:
        raise Refusal("allocation", f"the first Hit goes to the original target {original!r}, not {given[0]!r}")
    for i, key in enumerate(given[1:], start=2):
        if key != original and key not in eligible:
            raise Refusal("allocation", f"Hit {i} cannot go to {key!r}: walking fire reaches only enemies within "
                                        f"{WALKING_FIRE_RADIUS:g}\" of the target that are in range and Line of "
                                        f"Sight")
    return given
