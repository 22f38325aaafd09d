"""Weapon profiles as the shooting rules read them: traits, inputs, states, presets.

A Necromunda weapon is a `Weapon` with one `WeaponProfile` per kind of ammo.
A profile's `stats` hold `short_range` and `long_range` (inches) and
`acc_short` and `acc_long` (added to the Hit roll), plus strength, ap and
damage for the wound; its `traits` are the printed names ("Rapid Fire (1)",
"Ammo (4+)", "Light", "Blast (3\")", "Template"). Its `state` is "ok",
"out_of_ammo" (that profile only) or "jammed"; a jam puts every profile of the
weapon in "jammed", because the documents jam the weapon for the battle.

Weapon presets for the unit dialog are in weapons.toml; the fighters built
from them are ordinary unit presets in units.toml (rules/presets.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from battletracker.model.fields import FieldError
from battletracker.model.fields import unit_from_dict
from battletracker.model.game import Scalar
from battletracker.model.game import Weapon
from battletracker.rules.base import InputValue
from battletracker.rules.necromunda.refusals import field_words
from battletracker.rules.tables import TableError
from battletracker.rules.tables import ruleset_file

RULESET = "necromunda"
RANGE_STATS = ("short_range", "long_range")
ACCURACY_STATS = ("acc_short", "acc_long")

_RAPID_FIRE = re.compile(r"^rapid\s*fire\s*\((\d+)\)$", re.IGNORECASE)
_AMMO = re.compile(r"^ammo\s*\((\d)\+\)$", re.IGNORECASE)
_BLAST = re.compile(r"^blast\s*\((\d+(?:\.\d+)?)\s*(?:\"|''|in)?\)$", re.IGNORECASE)


@dataclass(frozen=True)
class Traits:
    """The traits the shooting rules act on; the rest are kept by name in `other`."""

    rapid_fire: int = 0
    ammo: int = 0
    light: bool = False
    blast: float | None = None
    template: bool = False
    other: tuple[str, ...] = ()


def parse_traits(traits: Iterable[str]) -> Traits:
    """Read printed trait names; a malformed Rapid Fire, Ammo or Blast raises ValueError naming it."""
    rapid_fire = 0
    ammo = 0
    light = False
    blast: float | None = None
    template = False
    other: list[str] = []
    for raw in traits:
        name = raw.strip()
        lower = name.lower()
        if lower.startswith("rapid fire"):
            m = _RAPID_FIRE.match(name)
            if m is None or int(m.group(1)) < 1:
                raise ValueError(f"trait {raw!r}: write Rapid Fire (X) with X a whole number from 1")
            rapid_fire = int(m.group(1))
        elif lower.startswith("ammo"):
            m = _AMMO.match(name)
            if m is None or not 2 <= int(m.group(1)) <= 6:
                raise ValueError(f"trait {raw!r}: write Ammo (X+) with X from 2 to 6")
            ammo = int(m.group(1))
        elif lower.startswith("blast"):
            m = _BLAST.match(name)
            if m is None or float(m.group(1)) <= 0:
                raise ValueError(f"trait {raw!r}: write Blast (3\") or Blast (5\")")
            blast = float(m.group(1))
        elif lower == "light":
            light = True
        elif lower == "template":
            template = True
        else:
            other.append(name)
    return Traits(rapid_fire, ammo, light, blast, template, tuple(other))


def _number(stats: dict[str, Scalar], key: str, where: str) -> float:
    value = stats.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{where}: {field_words(key)} must be a number, not {value!r}")
    return float(value)


def weapon_jammed(weapon: Weapon) -> bool:
    """A weapon with a jammed profile is jammed: it cannot be used again this battle."""
    return any(p.state == "jammed" for p in weapon.profiles)


def reloadable_profiles(weapon: Weapon) -> list[int]:
    """Profiles a Reload action may clear: those Out of Ammo, none if the weapon is jammed."""
    if weapon_jammed(weapon):
        return []
    return [i for i, p in enumerate(weapon.profiles) if p.state == "out_of_ammo"]


def shoot_inputs(weapon: Weapon, profile: int) -> dict[str, InputValue]:
    """The part of `necro.shoot`'s inputs a weapon profile supplies.

    The app adds the shooter's `bs`, the `range`, the target's conditions,
    `firer_id`/`weapon`/`target_id` and the game's settings. A Template
    profile makes no Hit roll, so it has no shoot inputs (ValueError).
    """
    if not 0 <= profile < len(weapon.profiles):
        raise ValueError(f"{weapon.name} has no profile number {profile}")
    p = weapon.profiles[profile]
    where = f"{weapon.name} ({p.name})"
    traits = parse_traits(p.traits)
    if traits.template:
        raise ValueError(f"{where}: a Template weapon makes no Hit roll; place the Template instead")
    short_range, long_range = (_number(p.stats, key, where) for key in RANGE_STATS)
    acc_short, acc_long = (int(_number(p.stats, key, where)) for key in ACCURACY_STATS)
    state = "jammed" if weapon_jammed(weapon) else p.state
    return {
        "short_range": short_range,
        "long_range": long_range,
        "acc_short": acc_short,
        "acc_long": acc_long,
        "rapid_fire": traits.rapid_fire,
        "ammo": traits.ammo,
        "light": traits.light,
        "profile": profile,
        "weapon_profiles": len(weapon.profiles),
        "profile_state": state,
        "weapon_name": profile_name(weapon, profile),
    }


def profile_name(weapon: Weapon, profile: int) -> str:
    """How a refusal names the profile: the weapon when jammed or single, else "Shotgun's Scatter shot profile"."""
    if len(weapon.profiles) == 1 or weapon_jammed(weapon):
        return weapon.name
    return f"{weapon.name}'s {weapon.profiles[profile].name} profile"


def reload_inputs(weapon: Weapon, profile: int) -> dict[str, InputValue]:
    """The part of `necro.reload`'s inputs a weapon profile supplies (the app adds `fighter_id`, `weapon`)."""
    if not 0 <= profile < len(weapon.profiles):
        raise ValueError(f"{weapon.name} has no profile number {profile}")
    state = "jammed" if weapon_jammed(weapon) else weapon.profiles[profile].state
    return {"profile": profile, "profile_state": state, "weapon_name": profile_name(weapon, profile)}


@dataclass(frozen=True)
class WeaponPreset:
    key: str
    title: str
    group: str
    data: dict[str, Any]

    def make(self) -> Weapon:
        """A new Weapon from the preset, validated as a save file's weapon would be."""
        fields = {k: v for k, v in self.data.items() if k not in ("title", "group")}
        carrier = {"id": "preset", "name": self.title, "kind": "fighter", "side": 0, "x": 0, "y": 0,
                   "weapons": [fields]}
        return unit_from_dict(carrier, f"weapon preset {self.key}").weapons[0]


@lru_cache(maxsize=1)
def weapon_presets() -> tuple[WeaponPreset, ...]:
    """The weapons in weapons.toml, each checked: its fields, its profiles' stats and traits."""
    table = ruleset_file(RULESET, "weapons")
    presets: list[WeaponPreset] = []
    for key, t in table.tables():
        preset = WeaponPreset(key, t.str("title"), t.str("group"), dict(t.data))
        try:
            weapon = preset.make()
            if not weapon.profiles:
                raise ValueError("has no profiles")
            for i, p in enumerate(weapon.profiles):
                if not parse_traits(p.traits).template:
                    shoot_inputs(weapon, i)
        except (FieldError, ValueError) as exc:
            raise TableError(f"{table.where}: table {key!r}: {exc}") from None
        presets.append(preset)
    return tuple(presets)


def weapon_preset(key: str) -> WeaponPreset:
    for p in weapon_presets():
        if p.key == key:
            return p
    raise TableError(f"{RULESET}/weapons.toml: no weapon {key!r}")
