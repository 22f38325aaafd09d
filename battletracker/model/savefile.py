"""Save files: versioned JSON, written atomically, validated field by field.

Loading never trusts the file: every value is checked for type and range (by
the validators of model/fields.py, which the Effects use too) and
anything wrong is refused with a `SaveFileError` naming the place in the file,
so a broken or foreign file can never half-load or run anything.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from battletracker.model.actions import Action
from battletracker.model.backdrop import Backdrop
from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment import BombardmentEvent
from battletracker.model.bombardment import Building
from battletracker.model.bombardment import SmokeArea
from battletracker.model.fields import FieldError
from battletracker.model.fields import field_names
from battletracker.model.fields import game_from_state
from battletracker.model.fields import history_from_dict
from battletracker.model.fields import plain_record
from battletracker.model.fields import record_fields
from battletracker.model.fields import state_dict
from battletracker.model.fields import state_fields
from battletracker.model.game import ARMOUR_FACES
from battletracker.model.game import Activation
from battletracker.model.game import AgendaItem
from battletracker.model.game import CommandRoll
from battletracker.model.game import Game
from battletracker.model.game import LogEntry
from battletracker.model.game import Marker
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.model.game import Weapon
from battletracker.model.game import WeaponProfile
from battletracker.model.terrain import TerrainPiece

FORMAT = "battletracker"
VERSION = 4
START_AS_WRITTEN_SINCE = 3
"""The first version whose history's start holds every field the current version writes."""

MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest file read as a save file. A game of 500 units and 10,000 log
entries, far beyond any real battle, is about 1.3 MB; anything this big is
not a game, and parsing it would hold the window for seconds and take
about twenty times its size in memory."""

SaveFileError = FieldError
"""A file that cannot be loaded; the message names the problem and where. It is the
validators' `FieldError`: a file's contents are refused for the same reasons as
any other plain data, and the file for its own (not JSON, too big, too new)."""

NEAR_FULL_BYTES = 12 * 1024 * 1024
"""A saved game larger than this is near MAX_FILE_BYTES: the player is told while there is room to act."""

PICTURE = "picture:"
"""Since version 4 a table picture is written once, in the file's "pictures" under its SHA-256, and
where it is used (the table, the history's start, each Load picture action) as this and that hash:
a photo loaded again and again, or kept from the start to now, costs the file its size once."""

SAME_AS_GAME = "same_as_game"
"""Since version 4 a terrain piece of the history's start that is exactly as the game holds it now is
written as {"same_as_game": its id}: a terrain-heavy game does not write its terrain twice."""


def game_to_dict(game: Game) -> dict[str, Any]:
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": state_dict(game)}
    if game.start is not None:
        doc["history"] = {"start": game.start, "actions": [a.to_plain() for a in game.actions]}
    return doc


def dumps(game: Game, *, history: bool = True) -> bytes:
    """The save file's bytes; a value no save file may hold (NaN, infinity) raises ValueError.

    The same document as `game_to_dict`, written straight from the game's
    records (json reads each record's fields) rather than from a plain copy,
    with each picture written once (PICTURE) and the start's terrain that
    the game still holds as it was written by reference (SAME_AS_GAME).
    Without `history`, the game as it stands, with no undo history.
    """
    pictures: dict[str, str] = {}
    state = state_fields(game)
    if game.backdrop is not None:
        state["backdrop"] = {**record_fields(game.backdrop), "image": _picture(game.backdrop.image, pictures)}
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": state}
    if history and game.start is not None:
        doc["history"] = {"start": _start_written(game, pictures),
                          "actions": [_action_written(a, pictures) for a in game.actions]}
    if pictures:
        doc["pictures"] = pictures
    return json.dumps(doc, ensure_ascii=False, allow_nan=False, separators=(",", ":"),
                      default=record_fields).encode("utf-8")


@dataclass(frozen=True)
class Saving:
    """What Save writes (`data`), and whether the undo history had to be left out to keep it openable."""

    data: bytes
    without_history: bool = False

    def note(self) -> str | None:
        """What the player should hear about this file beside "Saved", or None."""
        limit = MAX_FILE_BYTES // 1024 ** 2
        if self.without_history:
            return (f"saved without its undo history: with it the file would be larger than the {limit} MB a "
                    "saved game may hold. It reopens as it stands now.")
        if len(self.data) > NEAR_FULL_BYTES:
            return (f"this game's file is {len(self.data) / 1024 ** 2:.1f} MB of the {limit} MB a saved game may "
                    "hold; table pictures and long histories take the most room.")
        return None


def to_save(game: Game) -> Saving:
    """The bytes to save, always a file Open accepts: with the undo history when that stays within
    MAX_FILE_BYTES, else the game as it stands; SaveFileError when even that is too large."""
    data = dumps(game)
    if len(data) <= MAX_FILE_BYTES:
        return Saving(data)
    data = dumps(game, history=False)
    if len(data) <= MAX_FILE_BYTES:
        return Saving(data, without_history=True)
    raise SaveFileError(f"this game would be a {len(data) / 1024 ** 2:.0f} MB file, larger than the "
                        f"{MAX_FILE_BYTES // 1024 ** 2} MB a saved game may hold: nothing was written")


def _picture(image: str, pictures: dict[str, str]) -> str:
    key = hashlib.sha256(image.encode("utf-8")).hexdigest()
    pictures[key] = image
    return PICTURE + key


def _start_written(game: Game, pictures: dict[str, str]) -> dict[str, Any]:
    start = dict(game.start or {})
    backdrop = start.get("backdrop")
    if isinstance(backdrop, dict) and isinstance(backdrop.get("image"), str):
        start["backdrop"] = {**backdrop, "image": _picture(backdrop["image"], pictures)}
    terrain = start.get("terrain")
    if isinstance(terrain, list) and game.terrain:
        start["terrain"] = [{SAME_AS_GAME: item["id"]} if _as_in_game(item, game) else item for item in terrain]
    return start


def _as_in_game(item: Any, game: Game) -> bool:
    key = item.get("id") if isinstance(item, dict) else None
    piece = game.terrain.get(key) if isinstance(key, str) else None
    return piece is not None and plain_record(piece) == item


def _action_written(action: Action, pictures: dict[str, str]) -> dict[str, Any]:
    plain = action.to_plain()
    image = plain["choices"].get("image")
    if action.name == "backdrop.set" and isinstance(image, str):
        plain["choices"]["image"] = _picture(image, pictures)
    return plain


class _Dropped:
    """Stands in for a list or object under a key no save file uses, so its contents are freed while parsing."""

    def __repr__(self) -> str:
        return "an unknown list or object"


_DROPPED = _Dropped()

_LEGACY_KEYS: frozenset[str] = frozenset()
"""Keys that only older versions wrote and `migrate` reads: kept while parsing like current ones."""


def _known_keys() -> frozenset[str]:
    """Every key a save file of any version can hold outside the free-form maps (stats, settings, ...)."""
    classes = (Game, Side, Unit, Weapon, WeaponProfile, Vehicle, Marker, LogEntry,
               Bombardment, BombardmentEvent, Building, SmokeArea, TerrainPiece, CommandRoll, AgendaItem, Action,
               Activation)
    return frozenset({"format", "version", "game", "history", "pictures", SAME_AS_GAME, *ARMOUR_FACES, *_LEGACY_KEYS,
                      *(name for cls in (*classes, Backdrop) for name in field_names(cls))})


_KNOWN_KEYS = _known_keys()


class _Parser:
    """Parses a file's JSON, dropping lists and objects under unknown keys as they are read.

    Free-form maps (stats, settings, counters) only ever hold plain values,
    which are kept; a dropped value reaching a validator is refused there
    like any other value of the wrong type. `dropped` says whether any was.
    """

    def __init__(self) -> None:
        self.dropped = False

    def object(self, obj: dict[str, Any]) -> dict[str, Any]:
        if _KNOWN_KEYS.issuperset(obj):
            return obj
        for key, value in obj.items():
            if key not in _KNOWN_KEYS and isinstance(value, dict | list):
                obj[key] = _DROPPED
                self.dropped = True
        return obj


def loads(raw: bytes) -> Game:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SaveFileError(f"not a BattleTracker save file: not UTF-8 text (byte {exc.start})") from None
    try:
        parser = _Parser()
        doc = json.loads(text, parse_constant=_refuse_constant, object_hook=parser.object)
    except RecursionError:
        raise SaveFileError("not a BattleTracker save file: nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise SaveFileError(
            f"not a BattleTracker save file: broken JSON at line {exc.lineno}, column {exc.colno} "
            "(the file is cut short or damaged)"
        ) from None
    except SaveFileError:
        raise
    except ValueError:
        raise SaveFileError("not a BattleTracker save file: it holds a number too long to read") from None
    if "\\u" in text:
        _refuse_lone_surrogates(doc)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SaveFileError("not a BattleTracker save file: the \"format\" field is missing or wrong")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveFileError("the save file has no version number")
    if version > VERSION:
        raise SaveFileError(
            f"the save file is version {version}, newer than this BattleTracker understands (up to {VERSION})"
        )
    doc = migrate(doc)
    _resolve_shared(doc)
    game = game_from_state(doc.get("game"))
    if "history" in doc:
        # An older version's start lacks what later versions write: it is written afresh from the game it makes.
        as_read = not parser.dropped and version >= START_AS_WRITTEN_SINCE
        game.start, game.actions = history_from_dict(doc["history"], start_as_read=as_read,
                                                     game_read=(doc["game"], game))
    return game


def _resolve_shared(doc: dict[str, Any]) -> None:
    """Put each picture and each start's terrain piece written by reference (PICTURE, SAME_AS_GAME) in place."""
    pictures = doc.pop("pictures", {})
    if not isinstance(pictures, dict) or not all(isinstance(v, str) for v in pictures.values()):
        raise SaveFileError("pictures: must map each picture's hash to the picture")

    def picture(holder: Any, key: str, where: str) -> None:
        value = holder.get(key) if isinstance(holder, dict) else None
        if isinstance(value, str) and value.startswith(PICTURE):
            if value[len(PICTURE):] not in pictures:
                raise SaveFileError(f"{where}: names a picture the file does not hold")
            holder[key] = pictures[value[len(PICTURE):]]

    game, history = doc.get("game"), doc.get("history")
    if isinstance(game, dict):
        picture(game.get("backdrop"), "image", "game.backdrop.image")
    if not isinstance(history, dict):
        return
    start = history.get("start")
    if isinstance(start, dict):
        picture(start.get("backdrop"), "image", "history.start.backdrop.image")
        terrain = start.get("terrain")
        if isinstance(terrain, list):
            pieces = game.get("terrain") if isinstance(game, dict) else None
            held = {p.get("id"): p for p in pieces if isinstance(p, dict)} if isinstance(pieces, list) else {}
            start["terrain"] = [_same_as_game(item, held, i) for i, item in enumerate(terrain)]
    actions = history.get("actions")
    for i, action in enumerate(actions if isinstance(actions, list) else ()):
        if isinstance(action, dict) and action.get("name") == "backdrop.set":
            picture(action.get("choices"), "image", f"history.actions[{i}].choices.image")


def _same_as_game(item: Any, held: dict[Any, Any], index: int) -> Any:
    """The game's own piece for a start's piece written as {"same_as_game": id}, else the item as it is."""
    if not (isinstance(item, dict) and list(item) == [SAME_AS_GAME]):
        return item
    found = held.get(item[SAME_AS_GAME])
    if found is None:
        raise SaveFileError(f"history.start.terrain[{index}]: names a terrain piece the game does not hold")
    return found


def migrate(doc: dict[str, Any]) -> dict[str, Any]:
    """Bring an older document up to VERSION, one step at a time."""
    version = doc["version"]
    if version < 1:
        raise SaveFileError(f"save file version {version} is not one BattleTracker ever wrote")
    # Version 1 kept no history: such a game has no start and no actions, which is what no "history" means.
    if version < 3:
        # Actions recorded before version 3 were played under the rules of their day (actions.RULES 1).
        history = doc.get("history")
        actions = history.get("actions") if isinstance(history, dict) else None
        if isinstance(actions, list):
            for action in actions:
                if isinstance(action, dict) and "rules" not in action:
                    action["rules"] = 1
        _activations_as_version_2_charged(doc)
    return doc


OBSERVER_STEPS = ("coc.ranging_shot", "coc.fire_for_effect", "coc.re_aim")
"""The Forward Observer's activations that version 3 charges (a Command Dice 1 or a Chain of Command point)."""


def _activations_as_version_2_charged(doc: dict[str, Any]) -> None:
    """Recorded actions keep the charges version 2 made, so they replay to the saved state.

    Version 2 charged nothing for a Forward Observer's ranging shot, fire for
    effect or re-aiming (`activation` "unrecorded"), and a whole Chain of
    Command die for a Phase of fire activated by a point (`activation`
    "coc_die"); version 3 charges each a Command Dice 1 or one point.
    """
    history = doc.get("history")
    actions = history.get("actions") if isinstance(history, dict) else None
    if not isinstance(actions, list):
        return
    for action in actions:
        choices = action.get("choices") if isinstance(action, dict) else None
        if not isinstance(choices, dict):
            continue
        name = action.get("name")
        if name in OBSERVER_STEPS and "activation" not in choices:
            choices["activation"] = "unrecorded"
        elif name == "coc.bombardment_phase" and choices.get("activation") == "coc_point":
            choices["activation"] = "coc_die"


def save(game: Game, path: str | os.PathLike[str]) -> None:
    """Write atomically: a temp file beside the target, fsynced, then renamed over it."""
    write_atomic(path, to_save(game).data)


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write `data` to a temp file beside `path`, fsync it, then rename it over `path`."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_file(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a file to load as a game, refusing anything that cannot be one before reading it.

    A folder, a device (/dev/zero never ends) or a pipe (a FIFO blocks until
    someone writes) is refused, and so is a file larger than MAX_FILE_BYTES.
    The checks are made on the opened file, so it cannot be swapped between
    the check and the read.
    """
    name = os.fspath(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        if stat.S_ISDIR(os.stat(name).st_mode):
            raise SaveFileError(f"cannot read {name}: it is a folder, not a file")
        fd = os.open(name, flags)
    except OSError as exc:
        raise SaveFileError(f"cannot read {name}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SaveFileError(f"cannot read {name}: it is a device or a pipe, not a file")
        if info.st_size > MAX_FILE_BYTES:
            raise _too_big(name, info.st_size)
        try:
            raw = fh.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise SaveFileError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise _too_big(name, len(raw))
    return raw


def _too_big(name: str, size: int) -> SaveFileError:
    return SaveFileError(
        f"{name} is not a BattleTracker save file: it is {size / 1024 ** 2:.0f} MB, and a saved game is "
        f"never larger than {MAX_FILE_BYTES // 1024 ** 2} MB"
    )


def load(path: str | os.PathLike[str]) -> Game:
    return loads(read_file(path))


def _refuse_lone_surrogates(doc: Any) -> None:
    """A lone \\ud800-style escape loads as text that can never be written back as UTF-8."""
    try:
        json.dumps(doc, ensure_ascii=False, default=repr).encode("utf-8")
    except UnicodeEncodeError:
        raise SaveFileError("the save file contains text that is not valid Unicode (a lone \\u surrogate)") from None


def _refuse_constant(name: str) -> None:
    raise SaveFileError(f"the save file contains {name}, which is not a number BattleTracker accepts")

