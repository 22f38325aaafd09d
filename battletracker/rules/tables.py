"""Ruleset tables and settings, loaded from `battletracker/resources/rulesets/<ruleset>/*.toml`.

Tables from the rules documents are data, not code, so a player can check
them against their rulebook. Rules the documents name but do not state are
*settings*: a documented default, flagged `check = true`, that a game can
override (Game.settings) and that every dialog shows as a default to check.
Every problem in a file is reported with the file, table and key.
"""

from __future__ import annotations

import builtins
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from battletracker.model.game import Scalar


class TableError(ValueError):
    """A ruleset data file that is missing, malformed or has a bad value."""


def resources_dir() -> Path:
    """The data shipped inside the package (rulesets, demos, icons), or $BATTLETRACKER_RESOURCES.

    Found through importlib.resources, so the source tree, an installed wheel and
    the frozen bundle take the same path. Every installer unpacks the package onto
    disk; Qt and the save-file reader need real file paths, hence a Path.
    """
    override = os.environ.get("BATTLETRACKER_RESOURCES")
    if override:
        return Path(override)
    from importlib.resources import files

    return Path(str(files("battletracker") / "resources"))


@lru_cache(maxsize=16)
def _ruleset_files(ruleset: str) -> dict[str, dict[str, Any]]:
    folder = resources_dir() / "rulesets" / ruleset
    if not folder.is_dir():
        raise TableError(f"no ruleset data folder for {ruleset!r} at {folder}")
    import tomllib  # here, not at the top: the window's first paint reads no tables

    files: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.toml")):
        try:
            files[path.stem] = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise TableError(f"{ruleset}/{path.name}: {exc}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise TableError(f"{ruleset}/{path.name}: cannot be read ({exc})") from None
    return files


def clear_cache() -> None:
    """Forget loaded files (tests that point resources elsewhere)."""
    _ruleset_files.cache_clear()
    ruleset_settings.cache_clear()


class Table:
    """One TOML table with typed getters whose errors name file, table and key."""

    def __init__(self, where: builtins.str, data: Mapping[str, Any]) -> None:
        self.where = where
        self.data = data

    def _fail(self, key: builtins.str, message: builtins.str) -> TableError:
        return TableError(f"{self.where}: key {key!r}: {message}")

    def keys(self) -> builtins.list[builtins.str]:
        return list(self.data)

    def _get(self, key: builtins.str) -> Any:
        if key not in self.data:
            raise self._fail(key, "missing")
        return self.data[key]

    def int(self, key: builtins.str, minimum: builtins.int | None = None,
            maximum: builtins.int | None = None) -> builtins.int:
        v = self._get(key)
        if not isinstance(v, int) or isinstance(v, bool):
            raise self._fail(key, f"must be a whole number, not {v!r}")
        if minimum is not None and v < minimum:
            raise self._fail(key, f"must be at least {minimum}, not {v}")
        if maximum is not None and v > maximum:
            raise self._fail(key, f"must be at most {maximum}, not {v}")
        return v

    def float(self, key: builtins.str, minimum: builtins.float | None = None) -> builtins.float:
        v = self._get(key)
        if not isinstance(v, int | builtins.float) or isinstance(v, bool):
            raise self._fail(key, f"must be a number, not {v!r}")
        if not math.isfinite(v):
            raise self._fail(key, f"must be a finite number, not {v!r}")
        if minimum is not None and v < minimum:
            raise self._fail(key, f"must be at least {minimum:g}, not {v:g}")
        return float(v)

    def str(self, key: builtins.str, choices: tuple[builtins.str, ...] | None = None) -> builtins.str:
        v = self._get(key)
        if not isinstance(v, str):
            raise self._fail(key, f"must be text, not {v!r}")
        if choices is not None and v not in choices:
            raise self._fail(key, f"must be one of {', '.join(choices)}, not {v!r}")
        return v

    def bool(self, key: builtins.str) -> builtins.bool:
        v = self._get(key)
        if not isinstance(v, bool):
            raise self._fail(key, f"must be true or false, not {v!r}")
        return v

    def list(self, key: builtins.str) -> builtins.list[Any]:
        v = self._get(key)
        if not isinstance(v, list):
            raise self._fail(key, f"must be a list, not {v!r}")
        return v

    def table(self, key: builtins.str) -> Table:
        v = self._get(key)
        if not isinstance(v, dict):
            raise self._fail(key, "must be a table")
        return Table(f"{self.where}.{key}", v)

    def tables(self) -> builtins.list[tuple[builtins.str, Table]]:
        """Every sub-table, in file order (e.g. one per weapon)."""
        return [(k, self.table(k)) for k, v in self.data.items() if isinstance(v, dict)]


def ruleset_file(ruleset: str, name: str) -> Table:
    """The whole of `battletracker/resources/rulesets/<ruleset>/<name>.toml` as a Table."""
    files = _ruleset_files(ruleset)
    if name not in files:
        raise TableError(f"{ruleset}/{name}.toml: missing")
    return Table(f"{ruleset}/{name}.toml", files[name])


def ruleset_table(ruleset: str, name: str, table: str) -> Table:
    """One top-level table of a ruleset file: errors read "<file>: table 'x': key 'y'"."""
    whole = ruleset_file(ruleset, name)
    if table not in whole.data or not isinstance(whole.data[table], dict):
        raise TableError(f"{whole.where}: table {table!r}: missing")
    return Table(f"{whole.where}: table {table!r}", whole.data[table])


@dataclass(frozen=True)
class Setting:
    """A rule the documents name but do not state: a default a player can change."""

    ruleset: str
    key: str
    title: str
    default: Scalar
    description: str
    check: bool
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    def validate(self, value: Scalar) -> Scalar:
        """Return `value` if it suits this setting, else raise naming the setting."""
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise TableError(f"setting {self.key}: must be true or false, not {value!r}")
        elif isinstance(self.default, int):
            if not isinstance(value, int) or isinstance(value, bool):
                raise TableError(f"setting {self.key}: must be a whole number, not {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise TableError(f"setting {self.key}: must be at least {self.minimum}, not {value}")
            if self.maximum is not None and value > self.maximum:
                raise TableError(f"setting {self.key}: must be at most {self.maximum}, not {value}")
        elif self.choices and value not in self.choices:
            raise TableError(f"setting {self.key}: must be one of {', '.join(self.choices)}, not {value!r}")
        elif not isinstance(value, str):
            raise TableError(f"setting {self.key}: must be text, not {value!r}")
        return value


@lru_cache(maxsize=16)
def ruleset_settings(ruleset: str) -> tuple[Setting, ...]:
    """The settings declared in `<ruleset>/settings.toml`, each validated."""
    files = _ruleset_files(ruleset)
    if "settings" not in files:
        return ()
    out: list[Setting] = []
    for key, _ in ruleset_file(ruleset, "settings").tables():
        t = ruleset_table(ruleset, "settings", key)
        default = t._get("default")
        if not isinstance(default, bool | int | str):
            raise t._fail("default", "must be a whole number, text or true/false")
        setting = Setting(
            ruleset=ruleset,
            key=key,
            title=t.str("title"),
            default=default,
            description=t.str("description"),
            check=t.bool("check"),
            minimum=t.int("minimum") if "minimum" in t.data else None,
            maximum=t.int("maximum") if "maximum" in t.data else None,
            choices=tuple(t.list("choices")) if "choices" in t.data else (),
        )
        try:
            setting.validate(default)
        except TableError as exc:
            raise t._fail("default", str(exc).removeprefix(f"setting {key}: ")) from None
        out.append(setting)
    return tuple(out)


def setting(ruleset: str, key: str, overrides: Mapping[str, Scalar] | None = None) -> Scalar:
    """A setting's value: the game's override when it has one, else the documented default."""
    for s in ruleset_settings(ruleset):
        if s.key == key:
            if overrides is not None and key in overrides:
                return s.validate(overrides[key])
            return s.default
    raise TableError(f"{ruleset}/settings.toml: no setting {key!r}")
