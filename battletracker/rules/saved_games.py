"""A saved game read whole: the model's checks of every value (model/savefile.py), then the ruleset's.

The model knows the shape of a game but not what each ruleset's settings may
hold; a setting the ruleset cannot use (`bombardment_area_shape: 7`) would
otherwise be found only when a procedure reads it, mid-game. Opening a file
anywhere (the window, crash recovery, the command line) goes through here.
"""

from __future__ import annotations

import os

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules.tables import TableError
from battletracker.rules.tables import find_setting


def loads(raw: bytes) -> Game:
    """A game from a save file's bytes; SaveFileError naming the first thing wrong, the settings included."""
    game = savefile.loads(raw)
    check_settings(game)
    return game


def load(path: str | os.PathLike[str]) -> Game:
    return loads(savefile.read_file(path))


def check_settings(game: Game) -> None:
    """Refuse a setting whose value its ruleset cannot use, naming it as Ruleset settings does.

    A key the ruleset does not declare is kept unread (a later version's setting), as before.
    """
    for key, value in game.settings.items():
        try:
            setting = find_setting(game.ruleset, key)
        except TableError:
            continue
        problem = setting.problem(value)
        if problem is not None:
            raise savefile.SaveFileError(f"game.settings.{key}: the setting \u201c{setting.title}\u201d {problem}")
