"""Save files: versioned JSON, written atomically, validated field by field.

Loading never trusts the file: every value is checked for type and range (by
the validators of model/fields.py, which the Effects use too) and
anything wrong is refused with a `SaveFileError` naming the place in the file,
so a broken or foreign file can never half-load or run anything.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from battletracker.model.actions import Action
from battletracker.model.backdrop import Backdrop
from battletracker.model.bombardment import Bombardment, BombardmentEvent, Building, SmokeArea
from battletracker.model.fields import (
    FieldError,
    field_names,
    game_from_state,
    history_from_dict,
    record_fields,
    state_dict,
    state_fields,
)
from battletracker.model.game import (
    ARMOUR_FACES,
    Activation,
    AgendaItem,
    CommandRoll,
    Game,
    LogEntry,
    Marker,
    Side,
    Unit,
    Vehicle,
    Weapon,
    WeaponProfile,
)
from battletracker.model.terrain import TerrainPiece

FORMAT = "battletracker"
VERSION = 3

MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest file read as a save file. A game of 500 units and 10,000 log
entries, far beyond any real battle, is about 1.3 MB; anything this big is
not a game, and parsing it would hold the window for seconds and take
about twenty times its size in memory."""

SaveFileError = FieldError
"""A file that cannot be loaded; the message names the problem and where. It is the
validators' `FieldError`: a file's contents are refused for the same reasons as
any other plain data, and the file for its own (not JSON, too big, too new)."""


def game_to_dict(game: Game) -> dict[str, Any]:
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": state_dict(game)}
    if game.start is not None:
        doc["history"] = {"start": game.start, "actions": [a.to_plain() for a in game.actions]}
    return doc


def dumps(game: Game) -> bytes:
    """The save file's bytes; a value no save file may hold (NaN, infinity) raises ValueError.

    The same document as `game_to_dict`, written straight from the game's
    records (json reads each record's fields) rather than from a plain copy.
    """
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": state_fields(game)}
    if game.start is not None:
        doc["history"] = {"start": game.start, "actions": [a.to_plain() for a in game.actions]}
    return json.dumps(doc, ensure_ascii=False, allow_nan=False, separators=(",", ":"),
                      default=record_fields).encode("utf-8")


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
    return frozenset({"format", "version", "game", "history", *ARMOUR_FACES, *_LEGACY_KEYS,
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
    game = game_from_state(doc.get("game"))
    if "history" in doc:
        units_read = {read["id"]: (read, game.units[read["id"]]) for read in doc["game"].get("units", ())}
        # An older version's start lacks what later versions write: it is written afresh from the game it makes.
        game.start, game.actions = history_from_dict(doc["history"],
                                                     start_as_read=not parser.dropped and version == VERSION,
                                                     units_read=units_read)
    return game


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
    write_atomic(path, dumps(game))


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

