"""The actions on terrain pieces: add, remove, edit, move or reshape.

Each is a plan (reads the game, refuses in a player's words) and a procedure
(turns the plan's plain inputs into one Effect and a log line), so a dialog
and a drag on the map go through `Session.act` and make one undo step that
replays. A piece travels as the save file's JSON (`terrain_choice`).

    action          choices
    terrain.add     piece (JSON)
    terrain.edit    piece (JSON, same id as the piece it replaces)
    terrain.remove  piece (id)
    terrain.move    piece (id) and dx, dy (inches), or points (JSON list of [x, y])
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict
from dataclasses import replace

from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.model.effects import Effect
from battletracker.model.fields import FieldError
from battletracker.model.fields import terrain_from_dict
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.terrain import TerrainPiece
from battletracker.model.terrain import check_terrain
from battletracker.model.terrain_effects import AddTerrain
from battletracker.model.terrain_effects import RemoveTerrain
from battletracker.model.terrain_effects import ReplaceTerrain
from battletracker.model.terrain_effects import SetTerrainPoints
from battletracker.rules import register
from battletracker.rules.actions import Choices
from battletracker.rules.actions import Plan
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import register_plan
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import InputValue
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.choices import chosen_number
from battletracker.rules.terrain import outline_problem
from battletracker.rules.terrain import piece_problem
from battletracker.rules.terrain import terrain_rules

DONE = "done"


def terrain_choice(piece: TerrainPiece) -> str:
    """A piece as the text terrain.add and terrain.edit take as their `piece` choice (the save file's JSON)."""
    return json.dumps(asdict(piece), ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def points_choice(points: list[tuple[float, float]]) -> str:
    """New points as the text terrain.move takes as its `points` choice."""
    return json.dumps([list(p) for p in points], allow_nan=False, separators=(",", ":"))


def _parse_piece(text: InputValue | None) -> TerrainPiece:
    if not isinstance(text, str):
        raise Refusal("piece", "The terrain piece is missing.")
    try:
        return terrain_from_dict(json.loads(text), "terrain piece")
    except RecursionError:
        raise Refusal("piece", "That terrain piece cannot be put on the table: it is nested too deeply to "
                               "read.") from None
    except (ValueError, FieldError) as exc:
        reason = str(exc).removeprefix("terrain piece: ")
        raise Refusal("piece", f"That terrain piece cannot be put on the table: {reason}.") from None


def _checked(game: Game, piece: TerrainPiece) -> TerrainPiece:
    if not piece.name.strip():
        raise Refusal("name", "A terrain piece needs a name to show on the map: type one.")
    problem = piece_problem(game, piece)
    if problem is not None:
        raise Refusal("piece", f"{piece.name or 'The piece'}: {problem}.")
    return piece


def _existing(game: Game, choices: Choices) -> TerrainPiece:
    piece_id = choices.get("piece")
    if not isinstance(piece_id, str) or not piece_id:
        raise Refusal("piece", "Pick a terrain piece first.")
    piece = game.terrain.get(piece_id)
    if piece is None:
        raise Refusal("piece", "That terrain piece is no longer on the table (was it removed?).")
    return piece


def _what(game: Game, piece: TerrainPiece) -> str:
    kind = terrain_rules(game.ruleset).kind(piece.kind)
    return kind.title if kind is not None else piece.kind


def _plan_add(game: Game, choices: Choices) -> Plan:
    piece = _checked(game, _parse_piece(choices.get("piece")))
    problem = outline_problem(piece.shape, piece.points)
    if problem is not None:
        raise Refusal("piece", f"{piece.name}: {problem}.")
    if piece.id in game.terrain:
        raise Refusal("piece", f"{game.terrain[piece.id].name} already has the id {piece.id!r}.")
    line = f"Added {piece.name} ({_what(game, piece)}) to the table"
    return Plan("terrain.add", {"piece": terrain_choice(piece), "line": line}, (line,), dict(choices),
                f"Add {piece.name}")


def _plan_edit(game: Game, choices: Choices) -> Plan:
    piece = _checked(game, _parse_piece(choices.get("piece")))
    old = _existing(game, {"piece": piece.id})
    changes = _describe(game, old, piece)
    if not changes:
        raise Refusal("piece", f"Nothing about {old.name} was changed.")
    line = f"Edited {old.name}: {'; '.join(changes)}"
    return Plan("terrain.edit", {"piece": terrain_choice(piece), "line": line}, tuple(changes), dict(choices),
                f"Edit {old.name}")


def _describe(game: Game, old: TerrainPiece, new: TerrainPiece) -> list[str]:
    """Each edited field as "what: before -> after", for the log line."""
    out: list[str] = []
    if new.name != old.name:
        out.append(f"name {old.name} -> {new.name}")
    if new.kind != old.kind:
        out.append(f"kind {_what(game, old)} -> {_what(game, new)}")
    if new.cover != old.cover:
        out.append(f"cover {old.cover or 'as its kind'} -> {new.cover or 'as its kind'}")
    if new.blocks_sight != old.blocks_sight:
        words = {None: "as its kind", True: "blocks sight", False: "does not block sight"}
        out.append(f"sight {words[old.blocks_sight]} -> {words[new.blocks_sight]}")
    if new.sight_depth != old.sight_depth:
        def depth(d: float | None) -> str:
            return "as its kind" if d is None else f'{d:g}"'
        out.append(f"sight depth {depth(old.sight_depth)} -> {depth(new.sight_depth)}")
    if new.points != old.points or new.shape != old.shape:
        out.append("reshaped")
    return out


def _plan_remove(game: Game, choices: Choices) -> Plan:
    piece = _existing(game, choices)
    line = f"Removed {piece.name} ({_what(game, piece)}) from the table"
    return Plan("terrain.remove", {"piece": piece.id, "line": line}, (line,), dict(choices), f"Remove {piece.name}")


def _plan_move(game: Game, choices: Choices) -> Plan:
    """Move a piece by `dx`, `dy` inches, or give it new `points` (reshape it)."""
    piece = _existing(game, choices)
    if "points" in choices:
        try:
            points = terrain_from_dict({**asdict(piece), "points": json.loads(str(choices["points"]))}).points
        except RecursionError:
            raise Refusal("points", f"{piece.name} cannot take that shape: it is nested too deeply to "
                                    "read.") from None
        except (ValueError, FieldError) as exc:
            reason = str(exc).rsplit(": ", 1)[-1]
            raise Refusal("points", f"{piece.name} cannot take that shape: {reason}.") from None
        problem = outline_problem(piece.shape, points)
        if problem is not None:
            raise Refusal("points", f"{piece.name} cannot take that shape: {problem}.")
        line = f"Reshaped {piece.name} ({len(points)} points)"
    else:
        dx, dy = (chosen_number(choices, key, "How far to move the piece", 0.0, measure="inches")
                  for key in ("dx", "dy"))
        if math.hypot(dx, dy) < 1e-9:
            raise Refusal("dx", f"{piece.name} is already there.")
        points = [(x + dx, y + dy) for x, y in piece.points]
        try:
            check_terrain(replace(piece, points=points))
        except GameError as exc:
            raise Refusal("dx", f"{piece.name} cannot move that far: {str(exc).removeprefix(piece.name + ': ')}.") \
                from None
        line = f"Moved {piece.name} {math.hypot(dx, dy):.1f}\""
    if points == piece.points:
        raise Refusal("points", f"{piece.name} is already there.")
    return Plan("terrain.move", {"piece": piece.id, "points": points_choice(points), "line": line}, (line,),
                dict(choices), f"Move {piece.name}")


def _build(name: str, r: InputReader) -> list[Effect]:
    if name == "terrain.add":
        return [AddTerrain(_parse_piece(r.str("piece")))]
    if name == "terrain.edit":
        return [ReplaceTerrain(_parse_piece(r.str("piece")))]
    if name == "terrain.remove":
        return [RemoveTerrain(r.str("piece"))]
    points = json.loads(r.str("points"))
    return [SetTerrainPoints(r.str("piece"), tuple((float(x), float(y)) for x, y in points))]


def _procedure(name: str, procedure_title: str, typical: Inputs) -> None:
    """Register a procedure that always succeeds: one effect and the plan's log line; `typical` are inputs
    the demo's table passes it (rules.plan on the demo game)."""

    def resolve(inputs: Inputs, dice: Dice) -> Resolution:
        r = InputReader(inputs)
        effects = _build(name, r)
        line = r.str("line")
        r.finish()
        return Resolution(name, DONE, {}, [], effects, [line])

    def odds(inputs: Inputs) -> Distribution[str]:
        return Distribution.certain(DONE)

    register(Procedure(name, procedure_title, resolve, odds, ruleset="table", typical=typical))


_ORCHARD = TerrainPiece("t6", "Orchard", "woods", "area", [(40.0, 20.0), (46.0, 20.0), (46.0, 26.0), (40.0, 26.0)])
_BARLEY = TerrainPiece("t1", "Barley field", "crops", "area", [(15.0, 6.5), (25.5, 6.0), (26.0, 13.5), (15.5, 14.0)])
_procedure("terrain.add", "Add a terrain piece", {"piece": terrain_choice(_ORCHARD),
                                                  "line": "Added Orchard (Woods) to the table"})
_procedure("terrain.edit", "Edit a terrain piece", {"piece": terrain_choice(_BARLEY),
                                                    "line": "Edited Wheat field: name Wheat field -> Barley field"})
_procedure("terrain.remove", "Remove a terrain piece", {"piece": "t4", "line": "Removed Hedge (Hedge) from the table"})
_procedure("terrain.move", "Move or reshape a terrain piece",
           {"piece": "t5", "points": "[[34.0,38.3],[45.0,38.3]]", "line": 'Moved Stone wall 1.0"'})

register_plan("terrain.add", _plan_add)
register_plan("terrain.edit", _plan_edit)
register_plan("terrain.remove", _plan_remove)
register_plan("terrain.move", _plan_move)

__all__ = ["points_choice", "terrain_choice"]
