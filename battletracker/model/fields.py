"""The model as plain data and back: every value checked for type and range.

A save file, a preset, a pasted unit and every Effect that stores a part of
the game (a unit, a side, a bombardment, ...) go through these validators, so
nothing in a game is ever something a save file could not hold. A refusal is
a `FieldError` naming the place (game.units[3].shock) and the problem. The
save file itself (JSON, versions, reading and writing) is `model/savefile.py`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import fields
from typing import Any
from typing import TypeVar

from battletracker.core.geometry import normalise
from battletracker.model.actions import Action
from battletracker.model.actions import ActionError
from battletracker.model.backdrop import Backdrop
from battletracker.model.backdrop import check_backdrop
from battletracker.model.bombardment import AREA_SHAPES
from battletracker.model.bombardment import BOMBARDMENT_KINDS
from battletracker.model.bombardment import BOMBARDMENT_STATES
from battletracker.model.bombardment import BUILDING_MATERIALS
from battletracker.model.bombardment import BUILDING_STATES
from battletracker.model.bombardment import EDGE_DIRECTIONS
from battletracker.model.bombardment import EVENT_KINDS
from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment import BombardmentEvent
from battletracker.model.bombardment import Building
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.bombardment import SmokeArea
from battletracker.model.bombardment import check_bombardment
from battletracker.model.bombardment import check_building
from battletracker.model.bombardment import check_smoke
from battletracker.model.game import ACTIVATION_WAYS
from battletracker.model.game import ARMOUR_FACES
from battletracker.model.game import PROFILE_STATES
from battletracker.model.game import REACH
from battletracker.model.game import RULESETS
from battletracker.model.game import UNIT_KINDS
from battletracker.model.game import VEHICLE_CATEGORIES
from battletracker.model.game import Activation
from battletracker.model.game import AgendaItem
from battletracker.model.game import CommandRoll
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.game import LogEntry
from battletracker.model.game import Marker
from battletracker.model.game import Scalar
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.model.game import Weapon
from battletracker.model.game import WeaponProfile
from battletracker.model.terrain import TERRAIN_SHAPES
from battletracker.model.terrain import TerrainPiece
from battletracker.model.terrain import check_terrain

# Fields of a Game written beside it under "history", not in "game".
HISTORY_FIELDS = ("actions", "start")

T = TypeVar("T")


class FieldError(ValueError):
    """Plain data that cannot be part of a game; the message names the problem and where."""


_FIELD_NAMES: dict[type[Any], tuple[str, ...]] = {}


def field_names(cls: type[Any]) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


_SCALAR_TYPES = frozenset({str, int, float, bool, type(None)})


def _plain(value: Any) -> Any:
    """Dataclasses, lists and dicts as plain JSON data (faster than dataclasses.asdict).

    Plain values inside are taken as they are without a call each: most of a
    game is numbers and text.
    """
    scalars = _SCALAR_TYPES
    kind = type(value)
    if kind in scalars:
        return value
    if kind is list:
        return [v if type(v) in scalars else _plain(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in scalars else _plain(v) for k, v in value.items()}
    if isinstance(value, str | int | float):
        return value
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return {k: v if type(v) in scalars else _plain(v) for k, v in record_fields(value).items()}


def record_fields(value: Any) -> dict[str, Any]:
    """A record (a dataclass) as the object a save file writes: its fields, in order, their values as they are.

    `json.dumps(..., default=record_fields)` writes a game without first
    making a plain copy of it. Raises TypeError for anything else.
    """
    names = field_names(type(value))
    items: dict[str, Any] = vars(value)
    if len(items) != len(names):  # something beside the fields: read the fields alone
        items = {name: getattr(value, name) for name in names}
    return items


def plain_record(value: Any) -> Any:
    """A record (or list or dict of them) as plain JSON data, as a save file holds it."""
    return _plain(value)


_KEYED_FIELDS = tuple(name for name, value in vars(Game()).items() if isinstance(value, dict) and name != "settings")
"""Game fields kept by id (every map of a game but its settings), written as lists: each item holds its id."""


def state_fields(game: Game) -> dict[str, Any]:
    """The save file's "game" object with its values as they are in the game (records not yet plain)."""
    data = {name: getattr(game, name) for name in field_names(Game) if name not in HISTORY_FIELDS}
    for name in _KEYED_FIELDS:
        data[name] = list(data[name].values())
    if data["backdrop"] is None:
        del data["backdrop"]  # a game without a picture is written as before there were pictures
    return data


def state_dict(game: Game) -> dict[str, Any]:
    """The game's state as the save file's "game" object: everything but its history."""
    return _plain(state_fields(game))  # type: ignore[no-any-return]


def game_from_state(data: Any, where: str = "game") -> Game:
    """A game from a save file's "game" object (a history's start), validated like a save file's."""
    return _game(_Path(where), data)


def unit_from_dict(data: Any, where: str = "unit") -> Unit:
    """A unit from plain data (a preset or a pasted unit), validated like a save file's."""
    return _unit(_Path(where), data)


def marker_from_dict(data: Any, where: str = "marker") -> Marker:
    """A marker from plain data, validated like a save file's."""
    return _marker(_Path(where), data)


def side_from_dict(data: Any, where: str = "side") -> Side:
    """A side from plain data, validated like a save file's."""
    return _side(_Path(where), data)


def log_entry_from_dict(data: Any, where: str = "log entry") -> LogEntry:
    """A battle log entry from plain data, validated like a save file's."""
    return _entry(_Path(where), data)


def backdrop_from_dict(data: Any, where: str = "backdrop") -> Backdrop:
    """The table's picture from plain data, validated like a save file's."""
    return _backdrop(_Path(where), data)


def scalar_value(value: Any, where: str = "value") -> Scalar:
    """A setting or data value a save file can hold: text, a finite number or true/false."""
    return _scalar(_Path(where), value)


def bombardment_from_dict(data: Any, where: str = "bombardment") -> Bombardment:
    """A bombardment from plain data, validated like a save file's."""
    return _bombardment(_Path(where), data)


def building_from_dict(data: Any, where: str = "building") -> Building:
    """A building from plain data, validated like a save file's."""
    return _building(_Path(where), data)


def smoke_from_dict(data: Any, where: str = "smoke") -> SmokeArea:
    """A smoke area from plain data, validated like a save file's."""
    return _smoke(_Path(where), data)


def terrain_from_dict(data: Any, where: str = "terrain") -> TerrainPiece:
    """A terrain piece from plain data, validated like a save file's."""
    return _terrain(_Path(where), data)


def history_from_dict(data: Any, where: str = "history", start_as_read: bool = False,
                      game_read: tuple[dict[str, Any], Game] | None = None) -> tuple[dict[str, Any], list[Action]]:
    """The state a game started from and the actions applied since, each checked.

    The start is checked like a game; it is kept as it was read when
    `start_as_read` says it holds only JSON values no one else holds (a save
    file's, parsed for this), else written out afresh from the game it makes.
    Either way a replay starts from the same game. `game_read` is a game's
    data and the game already checked from it: a unit or terrain piece of
    the start read from equal data is that game's (most of a game is as it
    started, and a save file writes the terrain still as it was by reference).
    """
    path = _Path(where)
    o = _obj(path, data)
    started = _game(path.key("start"), o.get("start"), game_read)
    start = o["start"] if start_as_read else state_dict(started)
    raw = o.get("actions", [])
    if not isinstance(raw, list):
        raise path.key("actions").fail("must be a list")
    actions = []
    for i, item in enumerate(raw):
        try:
            actions.append(Action.from_plain(item))
        except ActionError as exc:
            raise path.key("actions").index(i).fail(str(exc)) from None
    return start, actions


# -- validation ---------------------------------------------------------------------


class _Path:
    """Where in the document a value sits, for messages like game.units[3].shock.

    The text is only written when a value is refused: a load makes one path
    per value it checks, and almost all of them are never read.
    """

    __slots__ = ("_parent", "_name", "_index")

    def __init__(self, name: str, parent: _Path | None = None, index: int = -1) -> None:
        self._parent = parent
        self._name = name
        self._index = index

    @property
    def text(self) -> str:
        parts: list[str] = []
        path: _Path | None = self
        while path is not None:
            parts.append(f"[{path._index}]" if path._index >= 0 else
                         path._name if path._parent is None else f".{path._name}")
            path = path._parent
        return "".join(reversed(parts))

    def key(self, name: str) -> _Path:
        return _Path(name, self)

    def index(self, i: int) -> _Path:
        return _Path("", self, i)

    def fail(self, message: str) -> FieldError:
        return FieldError(f"{self.text}: {message}")


_MISSING: Any = object()


def _obj(path: _Path, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise path.fail("missing or not an object")
    return value


def _field(path: _Path, obj: dict[str, Any], name: str, check: Callable[[_Path, Any], T], default: Any = ...) -> T:
    value = obj.get(name, _MISSING)
    if value is _MISSING:
        if default is ...:
            raise path.key(name).fail("missing")
        return default  # type: ignore[no-any-return]
    return check(_Path(name, path), value)


def _str(path: _Path, v: Any) -> str:
    if not isinstance(v, str):
        raise path.fail("must be text")
    return v


def _int(path: _Path, v: Any, minimum: int | None = None) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise path.fail("must be a whole number")
    if minimum is not None and v < minimum:
        raise path.fail(f"must be at least {minimum}, not {v}")
    return v


def _count(path: _Path, v: Any) -> int:
    return _int(path, v, 0)


def _positive(path: _Path, v: Any) -> int:
    return _int(path, v, 1)


def _num(path: _Path, v: Any) -> float:
    if not isinstance(v, int | float) or isinstance(v, bool):
        raise path.fail("must be a number")
    try:
        number = float(v)
    except OverflowError:
        raise path.fail("must be a number of a sensible size") from None
    if not math.isfinite(number):
        raise path.fail("must be a number")
    return number


def _place(path: _Path, v: Any) -> float:
    """A coordinate or a size on the table: a number within the table's reach."""
    number = _num(path, v)
    if not -REACH <= number <= REACH:
        raise path.fail(f"{number:g}\" is too far from the table (everything on it lies within {REACH:g}\" "
                        "of its corner)")
    return number


def _bool(path: _Path, v: Any) -> bool:
    if not isinstance(v, bool):
        raise path.fail("must be true or false")
    return v


def _opt(check: Callable[[_Path, Any], T]) -> Callable[[_Path, Any], T | None]:
    def inner(path: _Path, v: Any) -> T | None:
        return None if v is None else check(path, v)

    return inner


def _list(check: Callable[[_Path, Any], T]) -> Callable[[_Path, Any], list[T]]:
    def inner(path: _Path, v: Any) -> list[T]:
        if not isinstance(v, list):
            raise path.fail("must be a list")
        return [check(path.index(i), item) for i, item in enumerate(v)]

    return inner


def _one_of(options: tuple[str, ...]) -> Callable[[_Path, Any], str]:
    def inner(path: _Path, v: Any) -> str:
        if v not in options:
            raise path.fail(f"must be one of {', '.join(options)}, not {v!r}")
        return str(v)

    return inner


def _scalar(path: _Path, v: Any) -> Scalar:
    if isinstance(v, bool | str | int):
        return v
    if isinstance(v, float) and math.isfinite(v):
        return v
    raise path.fail("must be text, a number or true/false")


def _scalars(path: _Path, v: Any) -> dict[str, Scalar]:
    obj = _obj(path, v)
    return {k: _scalar(path.key(k), item) for k, item in obj.items()}


def _counters(path: _Path, v: Any) -> dict[str, int]:
    obj = _obj(path, v)
    return {k: _count(path.key(k), item) for k, item in obj.items()}


def _names(path: _Path, v: Any) -> list[str]:
    names = _list(_str)(path, v)
    if len(set(names)) != len(names):
        raise path.fail("lists the same name twice")
    return sorted(names)


def _profile(path: _Path, v: Any) -> WeaponProfile:
    o = _obj(path, v)
    return WeaponProfile(
        name=_field(path, o, "name", _str),
        stats=_field(path, o, "stats", _scalars, {}),
        traits=_field(path, o, "traits", _list(_str), []),
        state=_field(path, o, "state", _one_of(PROFILE_STATES), "ok"),
    )


def _weapon(path: _Path, v: Any) -> Weapon:
    o = _obj(path, v)
    weapon = Weapon(
        name=_field(path, o, "name", _str),
        kind=_field(path, o, "kind", _str, "small_arms"),
        arc=_field(path, o, "arc", _opt(_num), None),
        ranges=_field(path, o, "ranges", _list(_num), []),
        ammo=_field(path, o, "ammo", _opt(_count), None),
        ammo_max=_field(path, o, "ammo_max", _opt(_count), None),
        ammo_label=_field(path, o, "ammo_label", _str, "rounds"),
        stats=_field(path, o, "stats", _scalars, {}),
        profiles=_field(path, o, "profiles", _list(_profile), []),
    )
    if weapon.arc is not None and not 0 < weapon.arc <= 180:
        raise path.key("arc").fail(f"must be a half-angle between 0 and 180 degrees, not {weapon.arc:g}")
    if weapon.ammo is not None and weapon.ammo_max is not None and weapon.ammo > weapon.ammo_max:
        raise path.key("ammo").fail(f"{weapon.ammo} is more than the maximum of {weapon.ammo_max}")
    return weapon


def _vehicle(path: _Path, v: Any) -> Vehicle:
    o = _obj(path, v)
    armour_path = path.key("armour")
    armour_obj = _field(path, o, "armour", _obj)
    armour = {face: _field(armour_path, armour_obj, face, _count) for face in ARMOUR_FACES}
    return Vehicle(
        category=_field(path, o, "category", _one_of(VEHICLE_CATEGORIES)),
        armour=armour,
        open_topped=_field(path, o, "open_topped", _bool, False),
        damage=_field(path, o, "damage", _names, []),
    )


def _unit_checked(path: _Path, v: Any) -> Unit:
    o = _obj(path, v)
    unit = Unit(
        id=_field(path, o, "id", _str),
        name=_field(path, o, "name", _str),
        kind=_field(path, o, "kind", _one_of(UNIT_KINDS)),
        side=_field(path, o, "side", _count),
        x=_field(path, o, "x", _place),
        y=_field(path, o, "y", _place),
        facing=normalise(_field(path, o, "facing", _num, 0.0)),
        figures=_field(path, o, "figures", _count, 1),
        figures_max=_field(path, o, "figures_max", _count, 1),
        counters=_field(path, o, "counters", _counters, {"shock": 0}),
        conditions=_field(path, o, "conditions", _names, []),
        weapons=_field(path, o, "weapons", _list(_weapon), []),
        vehicle=_field(path, o, "vehicle", _opt(_vehicle), None),
        stats=_field(path, o, "stats", _scalars, {}),
        level=_field(path, o, "level", _int, 0),
        notes=_field(path, o, "notes", _str, ""),
        acted=_field(path, o, "acted", _opt(_stamp), None),
        activation=_field(path, o, "activation", _opt(_activation), None),
    )
    if not unit.id:
        raise path.key("id").fail("must not be empty")
    if unit.figures > unit.figures_max:
        raise path.key("figures").fail(f"{unit.figures} is more than the unit's {unit.figures_max}")
    return unit


def _side(path: _Path, v: Any) -> Side:
    o = _obj(path, v)
    return Side(
        name=_field(path, o, "name", _str),
        colour=_field(path, o, "colour", _colour),
        force_morale=_field(path, o, "force_morale", _count, 10),
        coc_points=_field(path, o, "coc_points", _count, 0),
        command_dice=_field(path, o, "command_dice", _positive, 5),
        held_dice=_field(path, o, "held_dice", _list(_face), []),
        coc_tally=_field(path, o, "coc_tally", _count, 0),
        command_roll=_field(path, o, "command_roll", _opt(_command_roll), None),
        agenda=_field(path, o, "agenda", _list(_agenda_item), []),
    )


def _face(path: _Path, v: Any) -> int:
    face = _int(path, v, 1)
    if face > 6:
        raise path.fail(f"a die shows 1 to 6, not {face}")
    return face


def _command_roll(path: _Path, v: Any) -> CommandRoll:
    o = _obj(path, v)
    return CommandRoll(turn=_field(path, o, "turn", _positive), phase=_field(path, o, "phase", _positive),
                       faces=_field(path, o, "faces", _list(_face), []))


def _activation(path: _Path, v: Any) -> Activation:
    o = _obj(path, v)
    return Activation(turn=_field(path, o, "turn", _positive), phase=_field(path, o, "phase", _positive),
                      how=_field(path, o, "how", _one_of(ACTIVATION_WAYS)),
                      dice=_field(path, o, "dice", _list(_face), []), leader=_field(path, o, "leader", _str, ""),
                      orders_left=_field(path, o, "orders_left", _count, 0),
                      done=_field(path, o, "done", _list(_str), []))


def _agenda_item(path: _Path, v: Any) -> AgendaItem:
    o = _obj(path, v)
    item = AgendaItem(id=_field(path, o, "id", _str), kind=_field(path, o, "kind", _str),
                      event=_field(path, o, "event", _str), text=_field(path, o, "text", _str, ""),
                      turn=_field(path, o, "turn", _positive), phase=_field(path, o, "phase", _positive))
    if not item.id:
        raise path.key("id").fail("must not be empty")
    return item


def _colour(path: _Path, v: Any) -> str:
    text = _str(path, v)
    if len(text) != 7 or text[0] != "#" or any(c not in "0123456789abcdefABCDEF" for c in text[1:]):
        raise path.fail(f"must be a colour like #3366cc, not {text!r}")
    return text


def _marker(path: _Path, v: Any) -> Marker:
    o = _obj(path, v)
    marker = Marker(
        id=_field(path, o, "id", _str),
        kind=_field(path, o, "kind", _str),
        x=_field(path, o, "x", _place),
        y=_field(path, o, "y", _place),
        radius=_field(path, o, "radius", _place, 0.0),
        label=_field(path, o, "label", _str, ""),
        side=_field(path, o, "side", _opt(_count), None),
        data=_field(path, o, "data", _scalars, {}),
    )
    if marker.radius < 0:
        raise path.key("radius").fail("cannot be negative")
    return marker


def _entry_checked(path: _Path, v: Any) -> LogEntry:
    o = _obj(path, v)
    return LogEntry(
        time=_field(path, o, "time", _str),
        turn=_field(path, o, "turn", _positive),
        phase=_field(path, o, "phase", _positive),
        text=_field(path, o, "text", _str),
        kind=_field(path, o, "kind", _str, "note"),
        starred=_field(path, o, "starred", _bool, False),
    )


def _backdrop(path: _Path, v: Any) -> Backdrop:
    o = _obj(path, v)
    backdrop = Backdrop(
        image=_field(path, o, "image", _str),
        name=_field(path, o, "name", _str, ""),
        width=_field(path, o, "width", _positive),
        height=_field(path, o, "height", _positive),
        scale=_field(path, o, "scale", _num),
        rotation=_field(path, o, "rotation", _num, 0.0),
        x=_field(path, o, "x", _num, 0.0),
        y=_field(path, o, "y", _num, 0.0),
        opacity=_field(path, o, "opacity", _num, 0.6),
        visible=_field(path, o, "visible", _bool, True),
    )
    return _checked(path, check_backdrop, backdrop)


# -- quick paths --------------------------------------------------------------------
#
# The records a big game holds by the thousand (log entries, units and their
# weapons) are first read by a quick path: plain type tests on the values as
# JSON gives them, no path kept, nothing raised per field. Anything it does
# not take as it is (a missing value, a wrong type, a number out of range, a
# subclass) goes to the full check, which refuses it with its message or
# accepts it; so what loads, and every refusal, is the full check's.


class _Unusual(Exception):
    """A value the quick path leaves to the full check."""


def _q_text(v: Any) -> str:
    if type(v) is str:
        return v
    raise _Unusual


def _q_count(v: Any) -> int:
    if type(v) is int and v >= 0:
        return v
    raise _Unusual


def _q_int(v: Any) -> int:
    if type(v) is int:
        return v
    raise _Unusual


def _q_num(v: Any) -> float:
    kind = type(v)
    if kind is float and v - v == 0.0:  # finite: infinity and NaN give NaN
        return v  # type: ignore[no-any-return]
    if kind is int and -1e300 < v < 1e300:
        return float(v)
    raise _Unusual


def _q_place(v: Any) -> float:
    number = _q_num(v)
    if -REACH <= number <= REACH:
        return number
    raise _Unusual


def _q_bool(v: Any) -> bool:
    if type(v) is bool:
        return v
    raise _Unusual


def _q_one_of(v: Any, options: tuple[str, ...]) -> str:
    if type(v) is str and v in options:
        return v
    raise _Unusual


def _q_list(v: Any) -> list[Any]:
    if type(v) is list:
        return v
    raise _Unusual


def _q_texts(v: Any) -> list[str]:
    if type(v) is list and all(type(item) is str for item in v):
        return list(v)
    raise _Unusual


def _q_names(v: Any) -> list[str]:
    names = _q_texts(v)
    if len(set(names)) != len(names):
        raise _Unusual
    names.sort()
    return names


def _q_scalars(v: Any) -> dict[str, Scalar]:
    if type(v) is not dict:
        raise _Unusual
    for item in v.values():
        kind = type(item)
        if not (kind is str or kind is int or kind is bool or (kind is float and item - item == 0.0)):
            raise _Unusual
    return dict(v)


def _q_counters(v: Any) -> dict[str, int]:
    if type(v) is not dict or not all(type(item) is int and item >= 0 for item in v.values()):
        raise _Unusual
    return dict(v)


def _q_profile(v: Any) -> WeaponProfile:
    if type(v) is not dict:
        raise _Unusual
    return WeaponProfile(
        name=_q_text(v.get("name")),
        stats=_q_scalars(v["stats"]) if "stats" in v else {},
        traits=_q_texts(v["traits"]) if "traits" in v else [],
        state=_q_one_of(v.get("state", "ok"), PROFILE_STATES),
    )


def _q_weapon(v: Any) -> Weapon:
    if type(v) is not dict:
        raise _Unusual
    get = v.get
    arc, ammo, ammo_max = get("arc"), get("ammo"), get("ammo_max")
    arc = None if arc is None else _q_num(arc)
    ammo = None if ammo is None else _q_count(ammo)
    ammo_max = None if ammo_max is None else _q_count(ammo_max)
    if (arc is not None and not 0 < arc <= 180) or (ammo is not None and ammo_max is not None and ammo > ammo_max):
        raise _Unusual
    return Weapon(
        name=_q_text(get("name")),
        kind=_q_text(get("kind", "small_arms")),
        arc=arc,
        ranges=[_q_num(r) for r in _q_list(v["ranges"])] if "ranges" in v else [],
        ammo=ammo,
        ammo_max=ammo_max,
        ammo_label=_q_text(get("ammo_label", "rounds")),
        stats=_q_scalars(v["stats"]) if "stats" in v else {},
        profiles=[_q_profile(p) for p in _q_list(v["profiles"])] if "profiles" in v else [],
    )


def _q_vehicle(v: Any) -> Vehicle:
    if type(v) is not dict:
        raise _Unusual
    armour = v.get("armour")
    if type(armour) is not dict:
        raise _Unusual
    return Vehicle(
        category=_q_one_of(v.get("category"), VEHICLE_CATEGORIES),
        armour={face: _q_count(armour.get(face)) for face in ARMOUR_FACES},
        open_topped=_q_bool(v.get("open_topped", False)),
        damage=_q_names(v["damage"]) if "damage" in v else [],
    )


def _q_facing(v: Any) -> float:
    return normalise(_q_num(v))


def _q_weapons(v: Any) -> list[Weapon]:
    return [_q_weapon(w) for w in _q_list(v)]


def _q_acted(v: Any) -> PhaseStamp | None:
    if v is None:
        return None
    if type(v) is dict:
        turn, phase = v.get("turn"), v.get("phase")
        if type(turn) is int and turn >= 1 and type(phase) is int and phase >= 1:
            return PhaseStamp(turn, phase)
    raise _Unusual


def _q_activated(v: Any) -> Activation | None:
    return None if v is None else _q_activation(v)


def _q_unit(v: Any) -> Unit:
    if type(v) is not dict:
        raise _Unusual
    get = v.get
    unit_id = _q_text(get("id"))
    figures, figures_max = _q_count(get("figures", 1)), _q_count(get("figures_max", 1))
    if not unit_id or figures > figures_max:
        raise _Unusual
    vehicle = get("vehicle")
    return Unit(
        id=unit_id,
        name=_q_text(get("name")),
        kind=_q_one_of(get("kind"), UNIT_KINDS),
        side=_q_count(get("side")),
        x=_q_place(get("x")),
        y=_q_place(get("y")),
        facing=_q_facing(get("facing", 0.0)),
        figures=figures,
        figures_max=figures_max,
        counters=_q_counters(v["counters"]) if "counters" in v else {"shock": 0},
        conditions=_q_names(v["conditions"]) if "conditions" in v else [],
        weapons=_q_weapons(v["weapons"]) if "weapons" in v else [],
        vehicle=None if vehicle is None else _q_vehicle(vehicle),
        stats=_q_scalars(v["stats"]) if "stats" in v else {},
        level=_q_int(get("level", 0)),
        notes=_q_text(get("notes", "")),
        acted=_q_acted(get("acted")),
        activation=_q_activated(get("activation")),
    )


def _q_activation(v: Any) -> Activation:
    if type(v) is not dict:
        raise _Unusual
    get = v.get
    turn, phase = get("turn"), get("phase")
    dice = _q_list(get("dice", []))
    if not (type(turn) is int and turn >= 1 and type(phase) is int and phase >= 1) or \
            not all(type(f) is int and 1 <= f <= 6 for f in dice):
        raise _Unusual
    return Activation(turn=turn, phase=phase, how=_q_one_of(get("how"), ACTIVATION_WAYS), dice=list(dice),
                      leader=_q_text(get("leader", "")), orders_left=_q_count(get("orders_left", 0)),
                      done=_q_texts(get("done", [])))


def _unit(path: _Path, v: Any) -> Unit:
    try:
        return _q_unit(v)
    except _Unusual:
        return _unit_checked(path, v)


_UNIT_CHANGES: dict[str, Callable[[Any], Any]] = {
    "x": _q_place, "y": _q_place, "facing": _q_facing, "counters": _q_counters, "conditions": _q_names,
    "weapons": _q_weapons, "stats": _q_scalars, "notes": _q_text, "acted": _q_acted, "activation": _q_activated,
}
"""The quick reading of each field of a unit that play changes and that no other of its fields is checked against."""


def _by_id(data: dict[str, Any], name: str, records: Mapping[str, T]) -> dict[str, tuple[Any, T]]:
    """Each record of a checked game's map `name`, by id, with the data it was read from."""
    return {item["id"]: (item, records[item["id"]]) for item in data.get(name, ())}


def _read(records_read: Mapping[str, tuple[Any, T]], quick: Callable[[Any], T],
          changed: Callable[[T, dict[str, Any], dict[str, Any]], T] | None = None) -> Callable[[Any], T]:
    """`quick`, except that data equal to a record's already checked is that record.

    `changed` reads data that differs from a checked record's, given the
    record, its data and the data to read; like `quick`, it raises _Unusual
    for anything it leaves to the full check.
    """
    def inner(v: Any) -> T:
        key = v.get("id") if type(v) is dict else None
        read = records_read.get(key) if type(key) is str else None
        if read is None:
            return quick(v)
        data, record = read
        if data == v:
            return record
        if changed is not None:
            try:
                return changed(record, data, v)
            except _Unusual:
                pass
        return quick(v)

    return inner


def _unit_changed(unit: Unit, data: dict[str, Any], v: dict[str, Any]) -> Unit:
    """The unit `data` made, with the fields of `v` that differ read by _UNIT_CHANGES.

    A start's unit mostly differs from the game's in a few fields (its place,
    its Shock): those alone are read, and the rest taken from the unit
    checked, sharing its lists and maps (a start's game is only read, as an
    unchanged unit is that unit). Any other difference, or a value the quick
    reading does not take, raises _Unusual, for the full check to name the problem.
    """
    if v.keys() != data.keys():
        raise _Unusual
    changed = {name: item for name, item in v.items() if item != data[name]}
    if not _UNIT_CHANGES.keys() >= changed.keys():
        raise _Unusual
    # The unit was made by this load from its fields alone: vars() holds those and nothing else.
    return Unit(**{**vars(unit), **{name: _UNIT_CHANGES[name](item) for name, item in changed.items()}})


def _q_entry(v: Any) -> LogEntry:
    if type(v) is dict:
        get = v.get
        time, turn, phase, text = get("time"), get("turn"), get("phase"), get("text")
        kind, starred = get("kind", "note"), get("starred", False)
        if (type(time) is str and type(turn) is int and turn >= 1 and type(phase) is int and phase >= 1
                and type(text) is str and type(kind) is str and type(starred) is bool):
            return LogEntry(time, turn, phase, text, kind, starred)
    raise _Unusual


def _entry(path: _Path, v: Any) -> LogEntry:
    try:
        return _q_entry(v)
    except _Unusual:
        return _entry_checked(path, v)


def _records(quick: Callable[[Any], T], full: Callable[[_Path, Any], T]) -> Callable[[_Path, Any], list[T]]:
    """`_list(full)` for records read by `quick` first: an item's place in the file is only made for the full check."""
    def inner(path: _Path, v: Any) -> list[T]:
        if not isinstance(v, list):
            raise path.fail("must be a list")
        out = []
        for i, item in enumerate(v):
            try:
                out.append(quick(item))
            except _Unusual:
                out.append(full(path.index(i), item))
        return out

    return inner


def _checked(path: _Path, check: Callable[[T], None], value: T) -> T:
    """Run the model's own consistency check, reporting its message at this place in the file."""
    try:
        check(value)
    except GameError as exc:
        raise path.fail(str(exc)) from None
    return value


def _event(path: _Path, v: Any) -> BombardmentEvent:
    o = _obj(path, v)
    return BombardmentEvent(
        turn=_field(path, o, "turn", _positive),
        phase=_field(path, o, "phase", _positive),
        kind=_field(path, o, "kind", _one_of(EVENT_KINDS)),
        text=_field(path, o, "text", _str),
        x=_field(path, o, "x", _num, 0.0),
        y=_field(path, o, "y", _num, 0.0),
        from_x=_field(path, o, "from_x", _num, 0.0),
        from_y=_field(path, o, "from_y", _num, 0.0),
        values=_field(path, o, "values", _scalars, {}),
    )


def _stamp(path: _Path, v: Any) -> PhaseStamp:
    o = _obj(path, v)
    return PhaseStamp(turn=_field(path, o, "turn", _positive), phase=_field(path, o, "phase", _positive))


def _last(path: _Path, o: dict[str, Any], name: str, history: list[BombardmentEvent], kind: str) -> PhaseStamp | None:
    """A bombardment's last Phase of fire or ranging shot; a file written before they were kept reads its history."""
    if name in o:
        return _opt(_stamp)(path.key(name), o[name])
    stamps = [PhaseStamp(e.turn, e.phase) for e in history if e.kind == kind]
    return max(stamps) if stamps else None


def _bombardment(path: _Path, v: Any) -> Bombardment:
    o = _obj(path, v)
    history = _field(path, o, "history", _list(_event), [])
    bombardment = Bombardment(
        id=_field(path, o, "id", _str),
        side=_field(path, o, "side", _count),
        kind=_field(path, o, "kind", _one_of(BOMBARDMENT_KINDS), "high_explosive"),
        state=_field(path, o, "state", _one_of(BOMBARDMENT_STATES), "ranging"),
        observer_id=_field(path, o, "observer_id", _str, ""),
        x=_field(path, o, "x", _num),
        y=_field(path, o, "y", _num),
        landed_x=_field(path, o, "landed_x", _opt(_num), None),
        landed_y=_field(path, o, "landed_y", _opt(_num), None),
        unobserved_attempts=_field(path, o, "unobserved_attempts", _count, 0),
        phases_left=_field(path, o, "phases_left", _count, 0),
        phases_fired=_field(path, o, "phases_fired", _count, 0),
        devastating=_field(path, o, "devastating", _bool, False),
        pattern_die=_field(path, o, "pattern_die", _opt(_count), None),
        revealed=_field(path, o, "revealed", _bool, False),
        direction=_field(path, o, "direction", _opt(_one_of(EDGE_DIRECTIONS)), None),
        moves_left=_field(path, o, "moves_left", _count, 0),
        extra_rounds=_field(path, o, "extra_rounds", _count, 0),
        linger_phases=_field(path, o, "linger_phases", _count, 0),
        shape=_field(path, o, "shape", _one_of(AREA_SHAPES), "rectangle"),
        width=_field(path, o, "width", _num, 18.0),
        depth=_field(path, o, "depth", _num, 12.0),
        radius=_field(path, o, "radius", _num, 6.0),
        facing=_field(path, o, "facing", _num, 0.0),
        firepower_dice=_field(path, o, "firepower_dice", _positive, 6),
        to_hit=_field(path, o, "to_hit", _positive, 4),
        pinned=_field(path, o, "pinned", _names, []),
        history=history,
        last_fired=_last(path, o, "last_fired", history, "fire"),
        last_ranged=_last(path, o, "last_ranged", history, "ranging"),
    )
    return _checked(path, check_bombardment, bombardment)


def _building(path: _Path, v: Any) -> Building:
    o = _obj(path, v)
    building = Building(
        id=_field(path, o, "id", _str),
        name=_field(path, o, "name", _str),
        x=_field(path, o, "x", _num),
        y=_field(path, o, "y", _num),
        width=_field(path, o, "width", _num, 6.0),
        depth=_field(path, o, "depth", _num, 4.0),
        facing=_field(path, o, "facing", _num, 0.0),
        material=_field(path, o, "material", _one_of(BUILDING_MATERIALS), "brick_stone"),
        storeys=_field(path, o, "storeys", _positive, 1),
        occupants=_field(path, o, "occupants", _names, []),
        state=_field(path, o, "state", _one_of(BUILDING_STATES), "intact"),
    )
    return _checked(path, check_building, building)


def _smoke(path: _Path, v: Any) -> SmokeArea:
    o = _obj(path, v)
    smoke = SmokeArea(
        id=_field(path, o, "id", _str),
        x=_field(path, o, "x", _num),
        y=_field(path, o, "y", _num),
        width=_field(path, o, "width", _num),
        depth=_field(path, o, "depth", _num),
        facing=_field(path, o, "facing", _num, 0.0),
        source=_field(path, o, "source", _str, ""),
        to_hit=_field(path, o, "to_hit", _int, -1),
    )
    return _checked(path, check_smoke, smoke)


def _point(path: _Path, v: Any) -> tuple[float, float]:
    if not isinstance(v, list | tuple) or len(v) != 2:
        raise path.fail("must be a point: two numbers, across and up the table")
    return (_num(path.index(0), v[0]), _num(path.index(1), v[1]))


def _terrain(path: _Path, v: Any) -> TerrainPiece:
    o = _obj(path, v)
    piece = TerrainPiece(
        id=_field(path, o, "id", _str),
        name=_field(path, o, "name", _str),
        kind=_field(path, o, "kind", _str),
        shape=_field(path, o, "shape", _one_of(TERRAIN_SHAPES), "area"),
        points=_field(path, o, "points", _list(_point)),
        cover=_field(path, o, "cover", _opt(_str), None),
        blocks_sight=_field(path, o, "blocks_sight", _opt(_bool), None),
        sight_depth=_field(path, o, "sight_depth", _opt(_num), None),
    )
    return _checked(path, check_terrain, piece)


def _q_point(v: Any) -> tuple[float, float]:
    if type(v) is list and len(v) == 2:
        return (_q_num(v[0]), _q_num(v[1]))
    raise _Unusual


def _q_terrain(v: Any) -> TerrainPiece:
    if type(v) is not dict:
        raise _Unusual
    get = v.get
    cover, blocks_sight, sight_depth = get("cover"), get("blocks_sight"), get("sight_depth")
    piece = TerrainPiece(
        id=_q_text(get("id")),
        name=_q_text(get("name")),
        kind=_q_text(get("kind")),
        shape=_q_one_of(get("shape", "area"), TERRAIN_SHAPES),
        points=[_q_point(point) for point in _q_list(get("points"))],
        cover=None if cover is None else _q_text(cover),
        blocks_sight=None if blocks_sight is None else _q_bool(blocks_sight),
        sight_depth=None if sight_depth is None else _q_num(sight_depth),
    )
    try:
        check_terrain(piece)
    except GameError:
        raise _Unusual from None
    return piece


def _keyed(path: _Path, items: list[T], ident: Callable[[T], str]) -> dict[str, T]:
    """Items by id, refusing an id used twice."""
    out: dict[str, T] = {}
    for i, item in enumerate(items):
        key = ident(item)
        if key in out:
            raise path.index(i).fail(f"the id {key!r} is used twice")
        out[key] = item
    return out


def _game(path: _Path, v: Any, read: tuple[dict[str, Any], Game] | None = None) -> Game:
    o = _obj(path, v)
    sides = _field(path, o, "sides", _list(_side))
    if not sides:
        raise path.key("sides").fail("a game needs at least one side")
    read_unit, read_piece = (_q_unit, _q_terrain) if read is None else (
        _read(_by_id(read[0], "units", read[1].units), _q_unit, _unit_changed),
        _read(_by_id(read[0], "terrain", read[1].terrain), _q_terrain))
    units = _field(path, o, "units", _records(read_unit, _unit_checked), [])
    markers = _field(path, o, "markers", _list(_marker), [])
    game = Game(
        title=_field(path, o, "title", _str),
        ruleset=_field(path, o, "ruleset", _one_of(RULESETS)),
        table_width=_field(path, o, "table_width", _num),
        table_height=_field(path, o, "table_height", _num),
        turn=_field(path, o, "turn", _positive, 1),
        phase=_field(path, o, "phase", _positive, 1),
        active_side=_field(path, o, "active_side", _count, 0),
        sides=sides,
        units={},
        markers={},
        log=_field(path, o, "log", _records(_q_entry, _entry_checked), []),
        settings=_field(path, o, "settings", _scalars, {}),
    )
    if not (0 < game.table_width <= 1000 and 0 < game.table_height <= 1000):
        raise path.fail(f"table size {game.table_width:g}\" x {game.table_height:g}\" is not a table")
    if game.active_side >= len(sides):
        raise path.key("active_side").fail(f"there is no side number {game.active_side + 1}")
    for i, unit in enumerate(units):
        if unit.id in game.units:
            raise path.key("units").index(i).fail(f"the id {unit.id!r} is used twice")
        if unit.side >= len(sides):
            raise path.key("units").index(i).key("side").fail(f"there is no side number {unit.side + 1}")
        game.units[unit.id] = unit
    for i, marker in enumerate(markers):
        if marker.id in game.markers:
            raise path.key("markers").index(i).fail(f"the id {marker.id!r} is used twice")
        if marker.side is not None and marker.side >= len(sides):
            raise path.key("markers").index(i).key("side").fail(f"there is no side number {marker.side + 1}")
        game.markers[marker.id] = marker
    bombardments = _field(path, o, "bombardments", _list(_bombardment), [])
    game.bombardments = _keyed(path.key("bombardments"), bombardments, lambda b: b.id)
    game.backdrop = _field(path, o, "backdrop", _opt(_backdrop), None)
    for i, bombardment in enumerate(bombardments):
        if bombardment.side >= len(sides):
            raise path.key("bombardments").index(i).key("side").fail(
                f"there is no side number {bombardment.side + 1}")
    game.buildings = _keyed(path.key("buildings"), _field(path, o, "buildings", _list(_building), []),
                            lambda b: b.id)
    game.smoke = _keyed(path.key("smoke"), _field(path, o, "smoke", _list(_smoke), []), lambda s: s.id)
    game.terrain = _keyed(path.key("terrain"), _field(path, o, "terrain", _records(read_piece, _terrain), []),
                          lambda t: t.id)
    _agenda_ids(path.key("sides"), sides)
    return game


def _agenda_ids(path: _Path, sides: list[Side]) -> None:
    """Refuse an agenda item id used twice in the game (items are found by id, whichever side they are for)."""
    seen: set[str] = set()
    for i, side in enumerate(sides):
        for j, item in enumerate(side.agenda):
            if item.id in seen:
                raise path.index(i).key("agenda").index(j).fail(f"the id {item.id!r} is used twice")
            seen.add(item.id)

