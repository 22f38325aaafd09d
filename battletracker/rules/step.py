"""`table.step`: the procedure of the actions whose changes are all in their plan.

A card's counters and toggles, the ruleset settings: they roll no dice, so the
plan reads the table into its effects and log lines and this procedure adds
nothing. It lives apart so every ruleset's actions can use it without importing
the table's other actions.
"""

from __future__ import annotations

from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.rules import register
from battletracker.rules.base import Inputs
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution

STEP = "table.step"
DONE = "done"


def _resolve(inputs: Inputs, dice: Dice) -> Resolution:
    return Resolution(STEP, DONE, {}, [], [], [])


def _odds(inputs: Inputs) -> Distribution[str]:
    return Distribution.certain(DONE)


register(Procedure(STEP, "A change on the table", _resolve, _odds, ruleset="table",
                   typical={}))
