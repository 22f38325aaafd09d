"""Who a Blast marker or the Template hits, with the same geometry the map draws.

A fighter is under a marker when the marker touches its base (centre within
the marker's reach plus the base radius). Then two rules from the documents:
only models on the same level as the targeted model can be hit (a marker
that scatters off a ledge explodes in mid-air), and a hit on an Engaged model
also hits every model, friend or foe, it is Engaged with. Those models are hit
by the weapon too, so the rule carries on through them to the whole combat;
the level rule applies to them as to every model.

Sizes (Blast 3" and 5" diameters, the Template's teardrop, the base radius)
are in markers.toml; the Template's shape and the base are examples there.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from battletracker.core.geometry import Point
from battletracker.core.geometry import along_line
from battletracker.core.geometry import distance_to_segment
from battletracker.core.geometry import in_radius
from battletracker.core.geometry import offset
from battletracker.rules.necromunda.targeting import FighterOnTable
from battletracker.rules.tables import TableError
from battletracker.rules.tables import ruleset_table

RULESET = "necromunda"


@dataclass(frozen=True)
class TemplateShape:
    """A teardrop: `narrow_width` at the firer, widening to a round end `wide_width` across."""

    length: float
    narrow_width: float
    wide_width: float

    @property
    def wide_radius(self) -> float:
        return self.wide_width / 2

    @property
    def straight(self) -> float:
        """Distance from the narrow tip to the centre of the round end."""
        return self.length - self.wide_radius


@dataclass(frozen=True)
class MarkerSizes:
    blast_small: float
    blast_large: float
    template: TemplateShape
    base_radius: float


@lru_cache(maxsize=1)
def marker_sizes() -> MarkerSizes:
    """The marker sizes from markers.toml, checked (errors name file, table and key)."""
    blast = ruleset_table(RULESET, "markers", "blast")
    template = ruleset_table(RULESET, "markers", "template")
    fighter = ruleset_table(RULESET, "markers", "fighter")
    length = template.float("length", minimum=0.5)
    wide = template.float("wide_width", minimum=0.0)
    if wide > length:
        raise TableError(f"{template.where}: key 'wide_width': cannot be more than the length "
                         f"({wide:g} > {length:g})")
    return MarkerSizes(
        blast_small=blast.float("small", minimum=0.0),
        blast_large=blast.float("large", minimum=0.0),
        template=TemplateShape(length, template.float("narrow_width", minimum=0.0), wide),
        base_radius=fighter.float("base_radius", minimum=0.0),
    )


def under_blast(centre: Point, diameter: float, fighters: Iterable[FighterOnTable],
                base_radius: float) -> list[str]:
    """Fighters whose base the Blast marker (its diameter in inches) touches, in the order given."""
    reach = diameter / 2 + base_radius
    return [f.key for f in fighters if in_radius(centre, reach, f.position)]


def template_end(origin: Point, bearing: float, shape: TemplateShape) -> Point:
    """Centre of the Template's round end, for a template laid from `origin` along `bearing`."""
    return offset(origin, bearing, shape.straight)


def in_template(origin: Point, bearing: float, shape: TemplateShape, point: Point, base_radius: float) -> bool:
    """Whether the Template laid from `origin` along `bearing` touches a base centred on `point`."""
    end = template_end(origin, bearing, shape)
    if in_radius(end, shape.wide_radius + base_radius, point):
        return True
    if in_radius(origin, shape.narrow_width / 2 + base_radius, point):
        return True
    t = along_line(origin, end, point)
    if not 0.0 <= t <= shape.straight:
        return False
    half = shape.narrow_width / 2 + (shape.wide_radius - shape.narrow_width / 2) * t / shape.straight
    return distance_to_segment(origin, end, point) <= half + base_radius


def under_template(origin: Point, bearing: float, shape: TemplateShape, fighters: Iterable[FighterOnTable],
                   base_radius: float) -> list[str]:
    """Fighters the Template touches, in the order given."""
    return [f.key for f in fighters if in_template(origin, bearing, shape, f.position, base_radius)]


def models_hit(under: Iterable[str], target: str, fighters: Sequence[FighterOnTable]) -> list[str]:
    """Everyone a Blast or Template hits: those under it on the target's level, and their combats.

    `under` is the marker's membership (`under_blast`, `under_template`);
    `target` is the targeted model. The result keeps the order of `fighters`.
    """
    by_key = {f.key: f for f in fighters}
    if target not in by_key:
        raise ValueError(f"the target {target!r} is not among the fighters given")
    level = by_key[target].level
    hit = {key for key in under if key in by_key and by_key[key].level == level}
    queue = list(hit)
    while queue:
        f = by_key[queue.pop()]
        if not f.is_engaged:
            continue
        for other in f.engaged_with:
            if other in by_key and other not in hit and by_key[other].level == level:
                hit.add(other)
                queue.append(other)
    return [f.key for f in fighters if f.key in hit]


def blast_hits(centre: Point, diameter: float, target: str, fighters: Sequence[FighterOnTable],
               base_radius: float) -> list[str]:
    """Models a Blast marker centred at `centre` hits."""
    return models_hit(under_blast(centre, diameter, fighters, base_radius), target, fighters)


def template_hits(origin: Point, bearing: float, shape: TemplateShape, target: str,
                  fighters: Sequence[FighterOnTable], base_radius: float) -> list[str]:
    """Models the Template laid from `origin` along `bearing` hits."""
    return models_hit(under_template(origin, bearing, shape, fighters, base_radius), target, fighters)


def blast_radius(diameter: float) -> float:
    """The radius the map draws for a Blast (3") or (5") marker."""
    return diameter / 2

