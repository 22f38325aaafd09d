"""Ruleset tables and settings, loaded from `resources/rulesets/<ruleset>/*.toml`.

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

from battletracker.core.text import brief
from battletracker.model.game import Scalar


class TableError(ValueError):
    """A ruleset data file that is missing, malformed or has a bad value."""


def resources_dir() -> Path:
    """The data the app ships (rulesets, demos, icons, help), or $BATTLETRACKER_RESOURCES.

    It is the package `battletracker.resources`: inside the package in a wheel and
    the bundle, the checkout's top-level `resources/` in an editable install (setup.py
    maps it), so the import system finds it in every form, where
    `importlib.resources.files("battletracker.resources")` finds it (the packaging
    tests check that they agree). Qt and the save-file reader need real file paths,
    hence a Path; finding the package costs the start nothing, importlib.resources a
    few milliseconds. A checkout put on the path without being installed
    (`make test-core`) has no mapping: its top-level folder it is.
    """
    override = os.environ.get("BATTLETRACKER_RESOURCES")
    if override:
        return Path(override)
    from importlib.util import find_spec

    spec = find_spec("battletracker.resources")
    if spec is None or not spec.submodule_search_locations:
        return Path(__file__).absolute().parents[2] / "resources"
    return Path(next(iter(spec.submodule_search_locations)))


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
    from battletracker.rules import terrain  # it reads this module's files

    _ruleset_files.cache_clear()
    ruleset_settings.cache_clear()
    terrain.clear_cache()


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
            raise self._fail(key, f"must be a whole number, not {brief(v)}")
        if minimum is not None and v < minimum:
            raise self._fail(key, f"must be at least {minimum}, not {brief(v)}")
        if maximum is not None and v > maximum:
            raise self._fail(key, f"must be at most {maximum}, not {brief(v)}")
        return v

    def float(self, key: builtins.str, minimum: builtins.float | None = None) -> builtins.float:
        v = self._get(key)
        if not isinstance(v, int | builtins.float) or isinstance(v, bool):
            raise self._fail(key, f"must be a number, not {brief(v)}")
        if not math.isfinite(v):
            raise self._fail(key, f"must be a finite number, not {brief(v)}")
        if minimum is not None and v < minimum:
            raise self._fail(key, f"must be at least {minimum:g}, not {v:g}")
        return float(v)

    def str(self, key: builtins.str, choices: tuple[builtins.str, ...] | None = None) -> builtins.str:
        v = self._get(key)
        if not isinstance(v, str):
            raise self._fail(key, f"must be text, not {brief(v)}")
        if choices is not None and v not in choices:
            raise self._fail(key, f"must be one of {', '.join(choices)}, not {brief(v)}")
        return v

    def bool(self, key: builtins.str) -> builtins.bool:
        v = self._get(key)
        if not isinstance(v, bool):
            raise self._fail(key, f"must be true or false, not {brief(v)}")
        return v

    def list(self, key: builtins.str) -> builtins.list[Any]:
        v = self._get(key)
        if not isinstance(v, list):
            raise self._fail(key, f"must be a list, not {brief(v)}")
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
    """The whole of `resources/rulesets/<ruleset>/<name>.toml` as a Table."""
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
    """A rule the documents name but do not state: a default a player can change.

    With `length` the value is that many words, each one of `choices`,
    separated by spaces (the six faces of a die, say).
    """

    ruleset: str
    key: str
    title: str
    default: Scalar
    description: str
    check: bool
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    length: int = 0

    def problem(self, value: Scalar) -> str | None:
        """What is wrong with `value` for this setting, in words that do not name the key; None if it suits."""
        if isinstance(self.default, bool):
            return None if isinstance(value, bool) else f"must be true or false, not {value!r}"
        if isinstance(self.default, int):
            if not isinstance(value, int) or isinstance(value, bool):
                return f"must be a whole number, not {value!r}"
            if self.minimum is not None and value < self.minimum:
                return f"must be at least {self.minimum}, not {value}"
            if self.maximum is not None and value > self.maximum:
                return f"must be at most {self.maximum}, not {value}"
            return None
        if self.length:
            words = value.split() if isinstance(value, str) else []
            if len(words) != self.length:
                return (f"must list {self.length} results separated by spaces, each one of "
                        f"{', '.join(self.choices)}, not {value!r}")
            for i, word in enumerate(words, 1):
                if word not in self.choices:
                    return f"result {i} must be one of {', '.join(self.choices)}, not {word!r}"
            return None
        if self.choices and value not in self.choices:
            return f"must be one of {', '.join(self.choices)}, not {value!r}"
        if not isinstance(value, str):
            return f"must be text, not {value!r}"
        return None

    def validate(self, value: Scalar) -> Scalar:
        """Return `value` if it suits this setting, else raise naming the setting."""
        problem = self.problem(value)
        if problem is not None:
            raise TableError(f"setting {self.key}: {problem}")
        return value


def _default_from(ruleset: str, t: Table) -> Any:
    """The default a setting takes from another table of the ruleset ("file.table.key"): one source of truth.

    A list (a row of a table) becomes its items separated by spaces.
    """
    path = t.str("default_from").split(".")
    if len(path) < 3 or not all(path):
        raise t._fail("default_from", "must name a file, its table and a key, as fire.to_hit.close.green")
    table = ruleset_table(ruleset, path[0], path[1])
    for name in path[2:-1]:
        table = table.table(name)
    value = table._get(path[-1])
    if isinstance(value, list):
        if not all(isinstance(v, str) and v and " " not in v for v in value):
            raise table._fail(path[-1], "must be a list of single words to be a setting's default")
        return " ".join(value)
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
        default = _default_from(ruleset, t) if "default_from" in t.data else t._get("default")
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
            length=t.int("length", minimum=1) if "length" in t.data else 0,
        )
        try:
            setting.validate(default)
        except TableError as exc:
            raise t._fail("default", str(exc).removeprefix(f"setting {key}: ")) from None
        out.append(setting)
    return tuple(out)


def find_setting(ruleset: str, key: str) -> Setting:
    """The declared setting `key` (raises naming the file when there is none)."""
    for s in ruleset_settings(ruleset):
        if s.key == key:
            return s
    raise TableError(f"{ruleset}/settings.toml: no setting {key!r}")


def setting(ruleset: str, key: str, overrides: Mapping[str, Scalar] | None = None) -> Scalar:
    """A setting's value: the game's override when it has one, else the documented default."""
    s = find_setting(ruleset, key)
    if overrides is not None and key in overrides:
        return s.validate(overrides[key])
    return s.default
