"""Sliding dice: how Armour Battles keeps every target number on a D6.

A target number above the highest (6) stays there and the roll loses one die
per point over; below the lowest (2) it stays there and the roll gains one die
per point under. A roll already down to zero dice is not rolled at all, and
sliding never brings it back.
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.rules.armour_battles.data import read_int_setting
from battletracker.rules.base import InputReader
from battletracker.rules.base import RulesInputError

SETTINGS = ("sliding_tn_highest", "sliding_tn_lowest")


@dataclass(frozen=True)
class SlidingLimits:
    highest: int = 6
    lowest: int = 2

    @classmethod
    def read(cls, r: InputReader) -> SlidingLimits:
        limits = cls(read_int_setting(r, "sliding_tn_highest"), read_int_setting(r, "sliding_tn_lowest"))
        if limits.lowest > limits.highest:
            raise RulesInputError("sliding_tn_lowest", f"{limits.lowest} is above the highest target number "
                                                       f"{limits.highest}")
        return limits


@dataclass(frozen=True)
class Slid:
    """A roll after sliding: the dice to roll, the TN they need, and the dice the slide added (+) or cost (-)."""

    dice: int
    tn: int
    change: int


def slide(dice: int, tn: int, limits: SlidingLimits = SlidingLimits()) -> Slid:
    """Bring `tn` within the limits, trading each point for a die; zero dice stay zero."""
    if dice <= 0:
        return Slid(0, min(max(tn, limits.lowest), limits.highest), 0)
    if tn > limits.highest:
        change = limits.highest - tn
        return Slid(max(0, dice + change), limits.highest, max(change, -dice))
    if tn < limits.lowest:
        change = limits.lowest - tn
        return Slid(dice + change, limits.lowest, change)
    return Slid(dice, tn, 0)
