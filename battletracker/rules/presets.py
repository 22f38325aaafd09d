"""Unit, weapon and vehicle presets for the unit dialog, from ruleset data.

`resources/rulesets/<ruleset>/units.toml` holds one table per preset with the
fields of a unit (kind, figures, weapons, vehicle, stats), plus a `title` and
a `group` for the dialog's list. A preset becomes a Unit through the same
validation as a save file, so a bad preset is reported like a bad file.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from battletracker.model.fields import FieldError
from battletracker.model.fields import unit_from_dict
from battletracker.model.game import Unit
from battletracker.rules.tables import TableError
from battletracker.rules.tables import ruleset_file

PRESET_KEYS = ("title", "group")


@dataclass(frozen=True)
class UnitPreset:
    key: str
    title: str
    group: str
    data: dict[str, Any]

    def make(self, unit_id: str, name: str, side: int, x: float, y: float, facing: float = 0.0) -> Unit:
        fields = {k: v for k, v in self.data.items() if k not in PRESET_KEYS}
        fields.update(id=unit_id, name=name, side=side, x=x, y=y, facing=facing)
        fields.setdefault("figures_max", fields.get("figures", 1))
        return unit_from_dict(fields, f"preset {self.key}")


@lru_cache(maxsize=8)
def unit_presets(ruleset: str) -> tuple[UnitPreset, ...]:
    """Every preset of a ruleset, each checked by building a unit from it."""
    try:
        table = ruleset_file(ruleset, "units")
    except TableError:
        return ()
    presets: list[UnitPreset] = []
    for key, t in table.tables():
        preset = UnitPreset(key, t.str("title"), t.str("group"), dict(t.data))
        try:
            preset.make("check", preset.title, 0, 0.0, 0.0)
        except FieldError as exc:
            raise TableError(f"{table.where}: table {key!r}: {exc}") from None
        presets.append(preset)
    return tuple(presets)


def preset(ruleset: str, key: str) -> UnitPreset:
    for p in unit_presets(ruleset):
        if p.key == key:
            return p
    raise TableError(f"{ruleset}/units.toml: no preset {key!r}")
