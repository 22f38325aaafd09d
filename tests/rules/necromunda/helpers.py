"""A small Necromunda game for tests: two gangs built from the example presets."""

from __future__ import annotations

import re

from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.rules.presets import preset


def assert_sentence(text: str) -> None:
    """What a player reads on a refusal: a capitalised sentence with a full stop, naming no input."""
    assert text[:1].isupper() or text[:1] == "'", text
    assert text.endswith("."), text
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text
    assert not re.match(r"^[a-z_]+: ", text), text


def necromunda_game() -> Game:
    """Ganger u1 (autogun, stub gun) and specialist u3 (grenade launcher) against ganger u2."""
    game = Game(title="Test skirmish", ruleset="necromunda", table_width=30.0, table_height=22.0,
                sides=[Side("Goliaths", "#aa3322"), Side("Eschers", "#3366cc")])
    for unit_id, key, side, x, y in (("u1", "ganger_autogun", 0, 2.0, 2.0),
                                     ("u2", "ganger_lasgun", 1, 12.0, 2.0),
                                     ("u3", "specialist_grenades", 0, 3.0, 6.0)):
        unit = preset("necromunda", key).make(unit_id, f"{key} {unit_id}", side, x, y)
        game.units[unit_id] = unit
    return game
