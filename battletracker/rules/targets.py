"""Who a unit can fire at, read from its card and the table: its arc and its range bands.

The map marks the selection's targets and its tooltip says the band and the arc; both ask
here, so what the map shows is the test the rules make, not a copy of it. The reading is the
card's: the narrowest weapon arc (`Unit.main_arc`, all round without one) and the first range
bands (`Unit.range_bands`), centre to centre, an edge belonging to the nearer band. A ruleset's
plan still has the last word on a shot (its weapon's own bands, Line of Sight, cover).
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.core.geometry import distance
from battletracker.core.geometry import in_arc
from battletracker.core.geometry import range_band
from battletracker.model.game import Game
from battletracker.model.game import Unit


@dataclass(frozen=True)
class Sighting:
    """One unit as another's card sees it: how far, in which range band, in the arc or not.

    `band` indexes `bands` (0 the shortest); it is None beyond the longest band, and
    always None for a card without range bands, which reaches anything in its arc.
    """

    distance: float
    bands: tuple[float, ...]
    band: int | None
    in_arc: bool

    @property
    def in_range(self) -> bool:
        return not self.bands or self.band is not None

    @property
    def reach(self) -> float | None:
        """The far edge of the band it stands in (None out of range or without bands)."""
        return self.bands[self.band] if self.band is not None else None

    @property
    def in_reach(self) -> bool:
        """In the arc and in range: what makes an enemy a target."""
        return self.in_arc and self.in_range


def centre_to_centre(unit: Unit, other: Unit) -> float:
    """How far apart two units stand on the map, in inches between their centres.

    The measure a target list shows beside each name, asked here so a dialog's
    list reads what the rules read rather than measuring the table itself.
    """
    return distance((unit.x, unit.y), (other.x, other.y))


def sighting(firer: Unit, other: Unit) -> Sighting:
    """How `other` stands from `firer`: its distance, range band and whether it is in the arc."""
    bands = tuple(sorted(firer.range_bands()))
    gap = centre_to_centre(firer, other)
    return Sighting(gap, bands, range_band(gap, bands) if bands else None,
                    in_arc((firer.x, firer.y), firer.facing, firer.main_arc(), (other.x, other.y)))


def targets_of(game: Game, firer: Unit) -> dict[str, int | None]:
    """The enemies in `firer`'s arc and range, each with the index of its range band.

    The band is None for a card without range bands. A card with neither an arc nor
    range bands has no targets to show: it says nothing of what it can reach.
    """
    arc = firer.main_arc()
    bands = tuple(sorted(firer.range_bands()))
    if arc is None and not bands:
        return {}
    # Read once for every unit: the map asks again at each step of a drag.
    here = (firer.x, firer.y)
    found: dict[str, int | None] = {}
    for other in game.units.values():
        if other.side == firer.side:
            continue
        there = (other.x, other.y)
        band = range_band(distance(here, there), bands) if bands else None
        if (band is not None or not bands) and in_arc(here, firer.facing, arc, there):
            found[other.id] = band
    return found
