"""The table's picture as actions: load it, place it by two points, fade it, hide it, take it away.

    backdrop.set      {image: base64 PNG/JPEG, name}      a new picture, fitted to the table
    backdrop.place    {px1, py1, px2, py2, x1, y1, x2, y2} picture pixels (px, py) onto table inches (x, y)
    backdrop.measure  {px1, py1, px2, py2, inches, x1, y1} two picture pixels `inches` apart on the table,
                      the first on table inches (x1, y1); the picture keeps its turn
    backdrop.opacity  {opacity: 0 to 1}
    backdrop.show     {visible: true/false}
    backdrop.remove   {}

Each is one undo step through `Session.act`, recorded and replayable like any
other action: its plan reads the game, refuses in a player's words, and puts
the new record in its effects (procedure `table.step`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from battletracker.core.calibration import Placement
from battletracker.core.calibration import PlacementError
from battletracker.core.calibration import fit_to_table
from battletracker.core.calibration import place_by_distance
from battletracker.core.calibration import place_by_two_points
from battletracker.core.geometry import Point
from battletracker.model.backdrop import Backdrop
from battletracker.model.backdrop import check_backdrop
from battletracker.model.backdrop import picture_bytes
from battletracker.model.backdrop import picture_size
from battletracker.model.backdrop_effects import SetBackdrop
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.rules.actions import Choices
from battletracker.rules.actions import Plan
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import register_plan
from battletracker.rules.base import table_point
from battletracker.rules.choices import chosen_number
from battletracker.rules.step import STEP

PICTURE_CHOICES = ("px1", "py1", "px2", "py2")
TABLE_CHOICES = ("x1", "y1", "x2", "y2")
TABLE_REACH = 1000.0
"""How far from the table's corner a placing point may be, in inches: beyond any table."""


def _backdrop(game: Game) -> Backdrop:
    if game.backdrop is None:
        raise Refusal("backdrop", "There is no table picture: load one first.")
    return game.backdrop


def _step(line: str, title: str, backdrop: Backdrop | None, choices: Choices) -> Plan:
    return Plan(STEP, {}, (line,), dict(choices), title, (SetBackdrop(backdrop),), log=(line,))


def _plan_set(game: Game, choices: Choices) -> Plan:
    image = choices.get("image")
    name = choices.get("name", "")
    if not isinstance(image, str) or not image:
        raise Refusal("image", "Choose a picture file to load.")
    if not isinstance(name, str):
        raise Refusal("name", "The picture's name must be text.")
    try:
        width, height = picture_size(picture_bytes(image))
        placed = fit_to_table(width, height, game.table_width, game.table_height)
        old = game.backdrop
        backdrop = Backdrop(image, name, width, height, placed.scale, placed.rotation, placed.x, placed.y,
                            old.opacity if old is not None else 0.6, True)
        check_backdrop(backdrop)
    except (GameError, PlacementError) as exc:
        raise Refusal("image", f"That picture cannot be used: {exc}.") from None
    called = name or "a picture"
    verb = "replaced by" if game.backdrop is not None else "loaded:"
    line = f"Table picture {verb} {called} ({width} x {height} pixels), fitted to the table"
    return _step(line, "Load the table picture" if game.backdrop is None else "Replace the table picture",
                 backdrop, choices)


def _picture_points(backdrop: Backdrop, choices: Choices) -> tuple[Point, Point]:
    px1, py1, px2, py2 = (chosen_number(choices, k, "A point on the picture") for k in PICTURE_CHOICES)
    for k, v in zip(PICTURE_CHOICES, (px1, py1, px2, py2), strict=True):
        size = backdrop.width if k.startswith("px") else backdrop.height
        if not -1.0 <= v <= size + 1.0:
            raise Refusal(k, "Both points must be on the picture.")
    return (px1, py1), (px2, py2)


def _table_numbers(choices: Choices, keys: tuple[str, ...]) -> list[float]:
    values = [chosen_number(choices, k, "A point's place on the table") for k in keys]
    for k, v in zip(keys, values, strict=True):
        if abs(v) > TABLE_REACH:
            raise Refusal(k, f"A place on the table is within {TABLE_REACH:.0f}\" of its corner.")
    return values


def _placed(backdrop: Backdrop, how: Callable[[], Placement], table_key: str) -> tuple[Backdrop, str]:
    """The picture moved to the placement `how` gives, and what it covers then; refusals in words."""
    try:
        placed = how()
        moved = replace(backdrop, scale=placed.scale, rotation=placed.rotation, x=placed.x, y=placed.y)
        check_backdrop(moved)
    except PlacementError as exc:
        raise Refusal("px2", str(exc)) from None
    except GameError as exc:
        raise Refusal(table_key, f"Those points cannot place the picture: {exc}.") from None
    turned = min(placed.rotation, 360.0 - placed.rotation)
    turn = f", turned {placed.rotation:.0f}°" if turned >= 0.5 else ""
    return moved, f"it covers {backdrop.width * placed.scale:.1f}\" x {backdrop.height * placed.scale:.1f}\"{turn}"


def _plan_place(game: Game, choices: Choices) -> Plan:
    backdrop = _backdrop(game)
    picture = _picture_points(backdrop, choices)
    x1, y1, x2, y2 = _table_numbers(choices, TABLE_CHOICES)
    moved, covers = _placed(backdrop, lambda: place_by_two_points(picture, ((x1, y1), (x2, y2))), "x2")
    line = f"Table picture placed by two points: {table_point(x1, y1)} and {table_point(x2, y2)}; {covers}"
    return _step(line, "Place the table picture", moved, choices)


def _plan_measure(game: Game, choices: Choices) -> Plan:
    backdrop = _backdrop(game)
    picture = _picture_points(backdrop, choices)
    measured = chosen_number(choices, "inches", "The distance between the two points")
    x1, y1 = _table_numbers(choices, ("x1", "y1"))
    moved, covers = _placed(backdrop, lambda: place_by_distance(picture, measured, (x1, y1), backdrop.rotation),
                            "x1")
    line = (f"Table picture placed by two points {measured:g}\" apart, the first at {table_point(x1, y1)}; "
            f"{covers}")
    return _step(line, "Place the table picture", moved, choices)


def _plan_opacity(game: Game, choices: Choices) -> Plan:
    backdrop = _backdrop(game)
    opacity = chosen_number(choices, "opacity", "The picture's opacity")
    if not 0.0 <= opacity <= 1.0:
        raise Refusal("opacity", "The picture's opacity goes from 0% (unseen) to 100% (solid).")
    if round(opacity * 100) == round(backdrop.opacity * 100):
        raise Refusal("opacity", f"The picture is at {opacity:.0%} already.")
    line = f"Table picture opacity: {backdrop.opacity:.0%} -> {opacity:.0%}"
    return _step(line, f"Table picture at {opacity:.0%}", replace(backdrop, opacity=opacity), choices)


def _plan_show(game: Game, choices: Choices) -> Plan:
    backdrop = _backdrop(game)
    visible = choices.get("visible")
    if not isinstance(visible, bool):
        raise Refusal("visible", "Say whether the picture is shown or hidden.")
    if visible == backdrop.visible:
        raise Refusal("visible", f"The table picture is {'shown' if visible else 'hidden'} already.")
    line = "Table picture shown" if visible else "Table picture hidden"
    return _step(line, "Show the table picture" if visible else "Hide the table picture",
                 replace(backdrop, visible=visible), choices)


def _plan_remove(game: Game, choices: Choices) -> Plan:
    backdrop = _backdrop(game)
    if choices:
        raise Refusal(sorted(choices)[0], "Removing the table picture takes no choices.")
    line = f"Table picture removed ({backdrop.name or 'a picture'})"
    return _step(line, "Remove the table picture", None, choices)


register_plan("backdrop.set", _plan_set)
register_plan("backdrop.place", _plan_place)
register_plan("backdrop.measure", _plan_measure)
register_plan("backdrop.opacity", _plan_opacity)
register_plan("backdrop.show", _plan_show)
register_plan("backdrop.remove", _plan_remove)

__all__ = ["PICTURE_CHOICES", "TABLE_CHOICES"]
