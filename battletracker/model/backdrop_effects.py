"""The one effect on the table's picture: put a picture (or none) under the map, with its exact inverse.

Loading, placing, fading, hiding and removing the picture each store a whole
`Backdrop` record: the picture's text is shared, not copied, so a record is
cheap, and undo puts back the very record that was there. The record is
stored only as a save file would load it (the validators of model/fields.py
run on it first), so no step can leave a game that cannot be reopened.
"""

from __future__ import annotations

from dataclasses import asdict
from dataclasses import dataclass

from battletracker.model.backdrop import Backdrop
from battletracker.model.effects import Changes
from battletracker.model.effects import Effect
from battletracker.model.fields import FieldError
from battletracker.model.fields import backdrop_from_dict
from battletracker.model.game import Game
from battletracker.model.game import GameError

BACKDROP_CHANGES = Changes(backdrop=True)


@dataclass(frozen=True)
class SetBackdrop(Effect):
    """The table's picture becomes `backdrop` (None takes it away); the inverse puts back the one before."""

    backdrop: Backdrop | None

    def apply(self, game: Game) -> Effect:
        new = None
        if self.backdrop is not None:
            try:
                new = backdrop_from_dict(asdict(self.backdrop), "the table picture")
            except FieldError as exc:
                raise GameError(str(exc)) from None
        old, game.backdrop = game.backdrop, new
        return SetBackdrop(old)

    @property
    def touches(self) -> Changes:
        return BACKDROP_CHANGES


__all__ = ["BACKDROP_CHANGES", "SetBackdrop"]
