"""The National Arsenal entries anti-tank fire needs: weapons, vehicles, grenades.

Loaded from `resources/rulesets/chain_of_command/arsenal.toml`. Each entry
keeps the list of its fields that the rules documents do not give (`example`),
so a dialog can mark them as examples to check against the player's National
Arsenal. Players' own entries use the same format and go through the same
checks (`parse_weapon`, `parse_vehicle`, `parse_grenade`); the app hands them
over with `set_user_arsenal` at start and after each edit, and `arsenal()`
(what every procedure's `weapon` input is looked up in) then includes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from battletracker.core.geometry import range_band
from battletracker.core.text import brief
from battletracker.model.game import ARMOUR_FACES
from battletracker.model.game import VEHICLE_CATEGORIES
from battletracker.rules.tables import Table
from battletracker.rules.tables import TableError
from battletracker.rules.tables import ruleset_file

RULESET = "chain_of_command"
CLOSE_RANGE_KINDS = ("tank_gun", "at_gun")
WEAPON_KINDS = (*CLOSE_RANGE_KINDS, "infantry_at")
MAX_STRIKE_DICE = 30
MAX_BAND_INCHES = 1000.0
"""A range band's outer edge; far beyond any table, so a larger figure is a typing accident."""


def _example(t: Table, fields: tuple[str, ...]) -> tuple[str, ...]:
    listed = tuple(str(f) for f in t.list("example"))
    for name in listed:
        if name not in fields:
            raise TableError(f"{t.where}: key 'example': {name!r} is not one of its fields ({', '.join(fields)})")
    return listed


def _sane_edge(value: float) -> bool:
    """Above 0 and at most MAX_BAND_INCHES; NaN and the infinities fail both comparisons or the bound."""
    return 0 < value <= MAX_BAND_INCHES


def _ints(t: Table, key: str, minimum: int, maximum: int) -> tuple[int, ...]:
    values = t.list(key)
    for v in values:
        if not isinstance(v, int) or isinstance(v, bool) or not minimum <= v <= maximum:
            raise TableError(f"{t.where}: key {key!r}: each must be a whole number from {minimum} to {maximum}, "
                             f"not {brief(v)}")
    return tuple(values)


@dataclass(frozen=True)
class ATWeapon:
    """A weapon that fires A.P. at armour.

    `bands` are the outer edges of a portable weapon's range bands; empty for
    tanks and anti-tank guns, which treat the whole table as Close Range.
    `ap` holds the A.P. Strike Dice for each band (one value when there are
    no bands). `rounds` None is unlimited ammunition.
    """

    name: str
    nation: str
    kind: str
    ap: tuple[int, ...]
    bands: tuple[float, ...] = ()
    he: int | None = None
    rounds: int | None = None
    example: tuple[str, ...] = ()

    @property
    def close_range_only(self) -> bool:
        return not self.bands

    @property
    def limited(self) -> bool:
        return self.rounds is not None

    def band(self, range_inches: float) -> int | None:
        """Index of the range band a target at `range_inches` falls in (0 = first); None beyond the last."""
        if not self.bands:
            return 0
        return range_band(range_inches, self.bands)

    def strike_dice(self, band: int) -> int:
        return self.ap[band]

    def describe_bands(self) -> str:
        """The bands as the arsenal tables print them: 0-18", 18-24", 24-36"."""
        edges = (0.0, *self.bands)
        return ", ".join(f"{edges[i]:g}-{edges[i + 1]:g}\"" for i in range(len(self.bands)))


@dataclass(frozen=True)
class ArmouredVehicle:
    """An AFV or APC: its Armour Dice on each face and the weapons it carries (main gun first)."""

    name: str
    nation: str
    category: str
    armour: Mapping[str, int]
    weapons: tuple[str, ...] = ()
    example: tuple[str, ...] = ()

    def armour_dice(self, location: str) -> int:
        return self.armour[location]


@dataclass(frozen=True)
class Grenade:
    """An anti-tank grenade or charge: its A.P. Strike Dice and the nations that use it."""

    name: str
    nations: tuple[str, ...]
    ap: int
    example: tuple[str, ...] = ()


def parse_weapon(name: str, t: Table) -> ATWeapon:
    kind = t.str("kind", WEAPON_KINDS)
    rounds = t.int("rounds", minimum=1) if "rounds" in t.data else None
    he = t.int("he", minimum=0) if "he" in t.data else None
    if kind in CLOSE_RANGE_KINDS:
        if "bands" in t.data:
            raise TableError(f"{t.where}: key 'bands': a {kind} treats the whole table as Close Range")
        ap: tuple[int, ...] = (t.int("ap", minimum=0, maximum=MAX_STRIKE_DICE),)
        bands: tuple[float, ...] = ()
        fields: tuple[str, ...] = ("ap", "he", "rounds")
    else:
        ap = _ints(t, "ap", 0, MAX_STRIKE_DICE)
        raw_bands = t.list("bands")
        if not raw_bands or any(isinstance(b, bool) or not isinstance(b, int | float) for b in raw_bands):
            raise TableError(f"{t.where}: key 'bands': must list the outer edge of each range band in inches")
        wrong = [b for b in raw_bands if not _sane_edge(b)]
        if wrong:
            raise TableError(f"{t.where}: key 'bands': each edge must be a number of inches above 0 and at most "
                             f"{MAX_BAND_INCHES:g}, not {brief(wrong[0])}")
        bands = tuple(float(b) for b in raw_bands)
        if list(bands) != sorted(set(bands)):
            raise TableError(f"{t.where}: key 'bands': edges must be positive and increasing, not {brief(raw_bands)}")
        if len(ap) != len(bands):
            raise TableError(f"{t.where}: key 'ap': one value per range band ({len(bands)}), not {len(ap)}")
        fields = ("bands", "ap", "he", "rounds")
    return ATWeapon(name=name, nation=t.str("nation"), kind=kind, ap=ap, bands=bands, he=he, rounds=rounds,
                    example=_example(t, fields))


def parse_vehicle(name: str, t: Table) -> ArmouredVehicle:
    armour_table = t.table("armour")
    armour = {face: armour_table.int(face, minimum=0, maximum=MAX_STRIKE_DICE) for face in ARMOUR_FACES}
    extra = set(armour_table.keys()) - set(ARMOUR_FACES)
    if extra:
        raise TableError(f"{armour_table.where}: {sorted(extra)[0]!r} is not a face ({', '.join(ARMOUR_FACES)})")
    weapons = tuple(str(w) for w in t.list("weapons"))
    fields = ("category", "weapons", *(f"armour.{face}" for face in ARMOUR_FACES))
    return ArmouredVehicle(name=name, nation=t.str("nation"), category=t.str("category", VEHICLE_CATEGORIES),
                           armour=armour, weapons=weapons, example=_example(t, fields))


def parse_grenade(name: str, t: Table) -> Grenade:
    nations = tuple(str(n) for n in t.list("nations"))
    if not nations:
        raise TableError(f"{t.where}: key 'nations': list at least one nation (or \"Universal\")")
    return Grenade(name=name, nations=nations, ap=t.int("ap", minimum=0, maximum=MAX_STRIKE_DICE),
                   example=_example(t, ("ap",)))


@dataclass(frozen=True)
class Arsenal:
    weapons: Mapping[str, ATWeapon]
    vehicles: Mapping[str, ArmouredVehicle]
    grenades: Mapping[str, Grenade]

    def weapon(self, name: str) -> ATWeapon | None:
        """A weapon by name, or a vehicle's main gun by the vehicle's name; letter case is ignored."""
        found = _lookup(self.weapons, name)
        if found is not None:
            return found
        vehicle = _lookup(self.vehicles, name)
        if vehicle is not None and vehicle.weapons:
            return self.weapons.get(vehicle.weapons[0])
        return None

    def vehicle(self, name: str) -> ArmouredVehicle | None:
        return _lookup(self.vehicles, name)

    def grenade(self, name: str) -> Grenade | None:
        return _lookup(self.grenades, name)


E = TypeVar("E")


def _lookup(entries: Mapping[str, E], name: str) -> E | None:
    if name in entries:
        return entries[name]
    wanted = name.strip().casefold()
    for key, entry in entries.items():
        if key.casefold() == wanted:
            return entry
    return None


@lru_cache(maxsize=1)
def builtin_arsenal() -> Arsenal:
    """The arsenal file, every entry checked; a vehicle's weapons must be listed among the weapons."""
    whole = ruleset_file(RULESET, "arsenal")
    weapons = {name: parse_weapon(name, t) for name, t in whole.table("weapons").tables()}
    vehicles = {name: parse_vehicle(name, t) for name, t in whole.table("vehicles").tables()}
    grenades = {name: parse_grenade(name, t) for name, t in whole.table("grenades").tables()}
    for vehicle in vehicles.values():
        for w in vehicle.weapons:
            if w not in weapons:
                raise TableError(f"{whole.where}.vehicles.{vehicle.name}: key 'weapons': no weapon called {w!r}")
    return Arsenal(weapons, vehicles, grenades)


USER_SECTIONS = ("weapons", "vehicles", "grenades")
UserEntries = Mapping[str, Mapping[str, Mapping[str, object]]]
_user_entries: dict[str, dict[str, dict[str, object]]] = {section: {} for section in USER_SECTIONS}


def _section(entries: UserEntries, section: str, where: str) -> list[tuple[str, Table]]:
    raw = entries.get(section, {})
    if not isinstance(raw, Mapping):
        raise TableError(f"{where}: key {section!r}: must be a table of entries")
    out: list[tuple[str, Table]] = []
    for name, data in raw.items():
        if not isinstance(data, Mapping):
            raise TableError(f"{where}.{section}: key {name!r}: must be a table of fields")
        if not str(name).strip():
            raise TableError(f"{where}.{section}: an entry needs a name")
        defaults: dict[str, object] = {"example": []}
        if section == "vehicles":
            defaults["weapons"] = []
        out.append((str(name), Table(f"{where}.{section}.{name}", {**defaults, **data})))
    return out


def parse_user_arsenal(entries: UserEntries, where: str = "your arsenal") -> Arsenal:
    """Players' own weapons, vehicles and grenades, each checked exactly as the arsenal file's are.

    The format is the arsenal file's (`example` and a vehicle's `weapons` may
    be left out). A vehicle's weapons may be built-in or the player's own. A
    refusal is a TableError naming the entry and the field.
    """
    unknown = sorted(set(entries) - set(USER_SECTIONS))
    if unknown:
        raise TableError(f"{where}: {unknown[0]!r} is not a section ({', '.join(USER_SECTIONS)})")
    weapons = {name: parse_weapon(name, t) for name, t in _section(entries, "weapons", where)}
    vehicles = {name: parse_vehicle(name, t) for name, t in _section(entries, "vehicles", where)}
    grenades = {name: parse_grenade(name, t) for name, t in _section(entries, "grenades", where)}
    known = {*builtin_arsenal().weapons, *weapons}
    for vehicle in vehicles.values():
        for w in vehicle.weapons:
            if w not in known:
                raise TableError(f"{where}.vehicles.{vehicle.name}: key 'weapons': no weapon called {w!r}")
    return Arsenal(weapons, vehicles, grenades)


def set_user_arsenal(entries: UserEntries) -> None:
    """Make the player's own entries part of the arsenal every procedure reads.

    The app calls it at start with what it saved in the user's data folder
    and again after each edit. Entries are checked first; a refusal
    (TableError) leaves the arsenal as it was. A player's entry with a
    built-in entry's name replaces it, so a National Arsenal's own figures
    can stand in for the example values.
    """
    parse_user_arsenal(entries)
    global _user_entries
    _user_entries = {section: {str(name): dict(data) for name, data in entries.get(section, {}).items()}
                     for section in USER_SECTIONS}
    arsenal.cache_clear()


def user_arsenal_entries() -> dict[str, dict[str, dict[str, object]]]:
    """The player's own entries as last set, in the format `set_user_arsenal` takes (a copy)."""
    return {section: {name: dict(data) for name, data in entries.items()}
            for section, entries in _user_entries.items()}


@lru_cache(maxsize=1)
def arsenal() -> Arsenal:
    """The arsenal file with the player's own entries (`set_user_arsenal`) added over it."""
    base = builtin_arsenal()
    user = parse_user_arsenal(_user_entries)
    return Arsenal({**base.weapons, **user.weapons}, {**base.vehicles, **user.vehicles},
                   {**base.grenades, **user.grenades})
