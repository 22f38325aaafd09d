"""A unit's range profile, short/effective/long in inches ("9/18/36"), and the
bands direct and indirect fire may use.

Direct fire may reach the long range. Indirect fire doubles the long range and
may not target anything within the short range; a distance exactly on a band
edge belongs to the nearer band, so a target exactly 9" away is at short range.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from battletracker.core.geometry import range_band
from battletracker.core.text import brief
from battletracker.rules.base import NUMBER_LIMIT
from battletracker.rules.base import RulesInputError

BANDS = ("short", "effective", "long")


@dataclass(frozen=True)
class RangeProfile:
    short: float
    effective: float
    long: float

    def __str__(self) -> str:
        return "/".join(f"{v:g}" for v in (self.short, self.effective, self.long))

    def direct_band(self, dist: float) -> str | None:
        """The band a direct-fire target at `dist` inches is in; None beyond long range."""
        i = range_band(dist, (self.short, self.effective, self.long))
        return None if i is None else BANDS[i]

    def indirect_long(self, multiplier: int) -> float:
        return self.long * multiplier

    def indirect_band(self, dist: float, multiplier: int) -> str | None:
        """The band for indirect fire: "short" (not allowed), "effective", "long" (doubled), or None beyond."""
        i = range_band(dist, (self.short, self.effective, self.indirect_long(multiplier)))
        return None if i is None else BANDS[i]

    def rings(self, multiplier: int) -> dict[str, float]:
        """Radii the map draws around the firer: the three bands and the doubled indirect long range."""
        return {"short": self.short, "effective": self.effective, "long": self.long,
                "indirect_long": self.indirect_long(multiplier)}

    def check_direct(self, dist: float, field: str = "range") -> str:
        band = self.direct_band(dist)
        if band is None:
            raise RulesInputError(field, f'{dist:g}" is beyond the long range of {self.long:g}" ({self})')
        return band

    def check_indirect(self, dist: float, multiplier: int, field: str = "range") -> str:
        """The indirect-fire band of `dist`, or a refusal naming the numbers."""
        band = self.indirect_band(dist, multiplier)
        if band == "short":
            raise RulesInputError(field, f'{dist:g}" is within the short range of {self.short:g}" ({self}): '
                                         "indirect fire cannot target anything at short range")
        if band is None:
            raise RulesInputError(field, f'{dist:g}" is beyond the indirect fire long range of '
                                         f'{self.indirect_long(multiplier):g}" (long range {self.long:g}" '
                                         f"x{multiplier})")
        return band


def parse_ranges(text: str, field: str = "ranges") -> RangeProfile:
    """Read "9/18/36": three increasing positive distances in inches."""
    parts = [p.strip().rstrip('"') for p in str(text).split("/")]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        values = []
    if len(values) != 3 or any(not math.isfinite(v) or not 0 < v <= NUMBER_LIMIT for v in values):
        raise RulesInputError(field, f"must be short/effective/long in inches, like 9/18/36, not {brief(text)}")
    short, effective, long = values
    if not short < effective < long:
        raise RulesInputError(field, f"must increase from short to long, not {brief(text)}")
    return RangeProfile(short, effective, long)
