"""Shared pieces of the Armour Battles tests: the StuH 42 of the rules document."""

from __future__ import annotations

from battletracker.model.game import Game, Side, Unit
from battletracker.rules import Inputs
from battletracker.rules.presets import preset

STUH_RANGES = "9/18/36"


def stuh_fire(**extra: str | int | float | bool) -> Inputs:
    """The document's StuH 42 (FP 7D, AT 4D, 9/18/36) firing; `extra` adds or replaces inputs."""
    inputs: dict[str, str | int | float | bool] = {
        "mode": "indirect", "dice_type": "fp", "fp_dice": 7, "at_dice": 4, "move": "single",
        "range": 24.0, "ranges": STUH_RANGES,
    }
    inputs.update(extra)
    return inputs


def unit_from_preset(key: str, unit_id: str, side: int, x: float, y: float) -> Unit:
    p = preset("armour_battles", key)
    return p.make(unit_id, p.title, side, x, y)


def battle(*units: Unit) -> Game:
    game = Game(title="Kursk", ruleset="armour_battles",
                sides=[Side("Germany", "#666666"), Side("Soviet Union", "#aa3333")])
    for u in units:
        game.units[u.id] = u
    return game
