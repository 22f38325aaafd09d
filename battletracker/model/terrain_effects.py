"""Effects on terrain pieces, each with its exact inverse.

A piece is stored only as a save file would load it (model/fields.py checks
it first), so no effect can leave a game that cannot be reopened. Moving or
reshaping a piece replaces its points (never adds an offset), so undo puts
back exactly the numbers there were.
"""

from __future__ import annotations

from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import replace

from battletracker.core.geometry import Point
from battletracker.model.effects import Changes
from battletracker.model.effects import Effect
from battletracker.model.fields import FieldError
from battletracker.model.fields import terrain_from_dict
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.terrain import TerrainPiece

TERRAIN_CHANGES = Changes(terrain=True)


def terrain_piece(game: Game, piece_id: str) -> TerrainPiece:
    try:
        return game.terrain[piece_id]
    except KeyError:
        raise GameError(f"no terrain piece with id {piece_id!r}") from None


def _as_saved(piece: TerrainPiece) -> TerrainPiece:
    """A fresh copy of `piece` exactly as a save file would load it, or GameError saying why not."""
    try:
        return terrain_from_dict(asdict(piece), "terrain")
    except FieldError as exc:
        raise GameError(str(exc)) from None


@dataclass(frozen=True)
class AddTerrain(Effect):
    """Put a terrain piece on the table (at `index` in the list, or last)."""

    piece: TerrainPiece
    index: int | None = None

    def apply(self, game: Game) -> Effect:
        if self.piece.id in game.terrain:
            raise GameError(f"a terrain piece with id {self.piece.id!r} is already on the table")
        added = _as_saved(self.piece)
        listed = list(game.terrain.items())
        at = len(listed) if self.index is None else max(0, min(self.index, len(listed)))
        listed.insert(at, (added.id, added))
        game.terrain.clear()
        game.terrain.update(listed)
        return RemoveTerrain(added.id)

    @property
    def touches(self) -> Changes:
        return TERRAIN_CHANGES


@dataclass(frozen=True)
class RemoveTerrain(Effect):
    piece_id: str

    def apply(self, game: Game) -> Effect:
        old = terrain_piece(game, self.piece_id)
        index = list(game.terrain).index(self.piece_id)
        del game.terrain[self.piece_id]
        return AddTerrain(old, index)

    @property
    def touches(self) -> Changes:
        return TERRAIN_CHANGES


@dataclass(frozen=True)
class ReplaceTerrain(Effect):
    """Swap in an edited copy of a piece (another name, kind or override); the id and place stay."""

    piece: TerrainPiece

    def apply(self, game: Game) -> Effect:
        old = terrain_piece(game, self.piece.id)
        game.terrain[self.piece.id] = _as_saved(self.piece)
        return ReplaceTerrain(old)

    @property
    def touches(self) -> Changes:
        return TERRAIN_CHANGES


@dataclass(frozen=True)
class SetTerrainPoints(Effect):
    """A piece moved or reshaped: its new points, in order (the inverse holds the old ones)."""

    piece_id: str
    points: tuple[Point, ...]

    def apply(self, game: Game) -> Effect:
        old = terrain_piece(game, self.piece_id)
        game.terrain[self.piece_id] = _as_saved(replace(old, points=list(self.points)))
        return SetTerrainPoints(self.piece_id, tuple(old.points))

    @property
    def touches(self) -> Changes:
        return TERRAIN_CHANGES
