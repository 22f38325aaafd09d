"""Shared pieces of the Armour Battles tests: the StuH 42 of the rules document."""

from __future__ import annotations

from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
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


def kursk() -> Game:
    """Max's StuH 42 and, around the aiming point (30, 20), two infantry units and a T34/43; another
    platoon 2.01" off the aiming point, and a German platoon to observe."""
    return battle(
        unit_from_preset("stuh_42", "stuh", 0, 30.0, 44.0),
        unit_from_preset("rifle_platoon_su", "rifles", 1, 29.0, 20.0),
        unit_from_preset("smg_platoon_su", "smgs", 1, 31.5, 21.0),
        unit_from_preset("t34_43", "t34", 1, 30.0, 18.0),
        unit_from_preset("rifle_platoon_su", "far", 1, 32.01, 20.0),
        unit_from_preset("rifle_platoon_su", "observer", 0, 30.0, 30.0),
    )


def observed(**extra: object) -> dict[str, object]:
    """The StuH's mission at (30, 20) without line of sight, the German platoon observing."""
    return {"firer": "stuh", "x": 30.0, "y": 20.0, "los": False, "observer": "observer", **extra}
