"""The odds of a procedure as the odds view shows them: by the procedure's labels."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from battletracker.rules import get
from battletracker.rules import odds
from battletracker.ui.odds_plot import grouped


def labelled_odds(name: str, inputs: Mapping[str, object]) -> dict[str, Fraction]:
    proc = get(name)
    return dict(grouped(odds(name, inputs), proc.label, proc.order))  # type: ignore[arg-type]
