"""A Template attack laid on the map: where the Template lies and whom it hits.

The Template's narrow end touches the firer's base and it points at the
target (the shape is markers.toml's). The documents give two Template rules:
only models on the target's level may be hit, and a hit on an Engaged model
hits every model it is Engaged with (`areas.template_hits`). The map does
not record who fights whom, so an Engaged fighter is read as Engaged with the
Engaged fighters within `COMBAT_REACH` of it, the same reading `plans.combat_of`
uses for allocating Hits in a combat.
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.core.geometry import Point
from battletracker.core.geometry import bearing
from battletracker.core.geometry import distance
from battletracker.core.geometry import offset
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.necromunda.areas import TemplateShape
from battletracker.rules.necromunda.areas import marker_sizes
from battletracker.rules.necromunda.areas import template_hits
from battletracker.rules.necromunda.areas import under_template
from battletracker.rules.necromunda.conditions import ENGAGED
from battletracker.rules.necromunda.table import in_the_fight
from battletracker.rules.necromunda.targeting import FighterOnTable

# Centre to centre: two bases in contact with a little room.
COMBAT_REACH = 1.5


@dataclass(frozen=True)
class TemplatePlacement:
    """The Template from `origin` (the edge of the firer's base) along `heading`, and what it covers.

    It reaches when it touches the target: a Template laid towards a model too
    far away is no attack on it, whoever else lies under it.
    """

    target: str
    origin: Point
    heading: float
    shape: TemplateShape
    hit: tuple[str, ...]
    other_level: tuple[str, ...]

    @property
    def reaches(self) -> bool:
        return self.target in self.hit


def engaged_with(game: Game, unit: Unit) -> list[str]:
    """The Engaged fighters within `COMBAT_REACH` of an Engaged fighter, closest first."""
    if not unit.has(ENGAGED):
        return []
    at = (unit.x, unit.y)
    near = [(distance(at, (u.x, u.y)), u.id) for u in game.units.values()
            if u.id != unit.id and in_the_fight(u) and u.has(ENGAGED) and distance(at, (u.x, u.y)) <= COMBAT_REACH]
    return [key for _d, key in sorted(near)]


def template_fighters(game: Game, shooter: Unit) -> list[FighterOnTable]:
    """Every fighter in the fight but the firer, with the combats the map shows."""
    return [FighterOnTable.from_unit(u, engaged_with=engaged_with(game, u))
            for u in game.units.values() if u.id != shooter.id and in_the_fight(u)]


def place_template(game: Game, shooter: Unit, target: Unit) -> TemplatePlacement:
    """The Template laid from the firer towards the target, with the models it hits."""
    sizes = marker_sizes()
    heading = bearing((shooter.x, shooter.y), (target.x, target.y))
    origin = offset((shooter.x, shooter.y), heading, sizes.base_radius)
    fighters = template_fighters(game, shooter)
    hit = template_hits(origin, heading, sizes.template, target.id, fighters, sizes.base_radius)
    under = under_template(origin, heading, sizes.template, fighters, sizes.base_radius)
    return TemplatePlacement(target.id, origin, heading, sizes.template, tuple(hit),
                             tuple(k for k in under if k not in hit))
