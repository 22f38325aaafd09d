"""The Medium Mortar, SOS Fire and building numbers, and what players call each, from bombardment.toml,
read and checked once.

Every problem in the file is reported with the file, table and key (see
rules/tables.py), so a player who edits a value to match their rulebook is
told exactly what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from battletracker.rules.tables import Table
from battletracker.rules.tables import TableError
from battletracker.rules.tables import ruleset_table

RULESET = "chain_of_command"
FILE = "bombardment"
RANGING_RESULTS = ("unobserved", "deviates", "on_target", "devastating")


@dataclass(frozen=True)
class RangingRow:
    low: int
    high: int
    result: str
    deviation_dice: int


@dataclass(frozen=True)
class Ranging:
    dice: int
    per_unobserved_attempt: int
    rows: tuple[RangingRow, ...]

    def row(self, total: int, above_table: str) -> RangingRow:
        """The row a modified total reads as; above the table, the last row or an on-target row."""
        for r in self.rows:
            if r.low <= total <= r.high:
                return r
        if total > self.rows[-1].high:
            if above_table == "on_target":
                return next(r for r in self.rows if r.result == "on_target")
            return self.rows[-1]
        return self.rows[0]


@dataclass(frozen=True)
class Pattern:
    static_faces: tuple[int, ...]
    rolling_inches: tuple[tuple[int, int], ...]
    moves: int
    revealed_on_phase_of_fire: int

    def rate(self, face: int) -> int:
        """Inches per move for a face of the hidden die; 0 for Static."""
        return dict(self.rolling_inches).get(face, 0)


@dataclass(frozen=True)
class Lingering:
    after_last_phase_of_fire: int
    after_turn_end: int
    after_contact_lost: int
    sos: int


@dataclass(frozen=True)
class BombardmentData:
    ranging: Ranging
    pattern: Pattern
    lingering: Lingering
    pin_exempt_storeys: int
    passenger_dice: int
    passenger_to_hit: int
    passenger_cover: str
    vehicle_dice: int
    open_topped_dice: int
    sos_radius: float
    sos_firepower_dice: int
    sos_to_hit: int
    sos_storm_of_steel: bool
    unstable_sixes: int
    collapse_smoke_to_hit: int
    sniper_relocation: float
    smoke_close_combat_range: float
    smoke_enemy_movement_dice: int
    smoke_losing_levels_worse: int
    names: tuple[tuple[str, str], ...]
    """How a player names each kind of call ("mortars, {ordinal} barrage"), and its later calls ("sos_later")."""

    def name_of(self, kind: str, ordinal: str, later: bool) -> str:
        """The words after the side's possessive for a side's call of `kind`, the `ordinal` of that kind."""
        words = dict(self.names)
        template = words.get(f"{kind}_later", words[kind]) if later else words[kind]
        return template.replace("{ordinal}", ordinal)


def _table(name: str) -> Table:
    return ruleset_table(RULESET, FILE, name)


def _ranging() -> Ranging:
    t = _table("ranging")
    rows: list[RangingRow] = []
    for i, raw in enumerate(t.list("rows")):
        if not isinstance(raw, dict):
            raise TableError(f"{t.where}: key 'rows': entry {i + 1} must be a table")
        entry = Table(f"{t.where}: rows[{i}]", raw)
        rows.append(RangingRow(entry.int("min", minimum=0), entry.int("max", minimum=0),
                               entry.str("result", RANGING_RESULTS), entry.int("deviation_dice", minimum=0)))
    if not rows:
        raise TableError(f"{t.where}: key 'rows': at least one row")
    for before, after in zip(rows, rows[1:], strict=False):
        if after.low != before.high + 1:
            raise TableError(f"{t.where}: key 'rows': rows must run on without gaps ({before.high} then {after.low})")
    for row in rows:
        if row.low > row.high:
            raise TableError(f"{t.where}: key 'rows': {row.low}-{row.high} is not a range")
        if (row.result == "deviates") != (row.deviation_dice > 0):
            raise TableError(f"{t.where}: key 'rows': only a 'deviates' row has deviation dice")
    if not any(r.result == "on_target" for r in rows):
        raise TableError(f"{t.where}: key 'rows': needs an on_target row")
    return Ranging(t.int("dice", minimum=1), t.int("per_unobserved_attempt", minimum=0), tuple(rows))


def _pattern() -> Pattern:
    t = _table("pattern")
    static = t.list("static_faces")
    if not all(isinstance(f, int) and 1 <= f <= 6 for f in static):
        raise TableError(f"{t.where}: key 'static_faces': must be faces 1-6")
    rolling = t.table("rolling_inches")
    pairs: list[tuple[int, int]] = []
    for key in rolling.data:
        if not key.isdigit() or not 1 <= int(key) <= 6:
            raise TableError(f"{rolling.where}: key {key!r}: must be a face 1-6")
        pairs.append((int(key), rolling.int(key, minimum=1)))
    faces = set(static) | {f for f, _ in pairs}
    if faces != set(range(1, 7)) or len(static) + len(pairs) != 6:
        raise TableError(f"{t.where}: every face 1-6 must be Static or Rolling, once")
    return Pattern(tuple(static), tuple(sorted(pairs)), t.int("moves", minimum=0),
                   t.int("revealed_on_phase_of_fire", minimum=1))


def _names() -> tuple[tuple[str, str], ...]:
    t = _table("names")
    kinds = ("high_explosive", "smoke", "sos")
    names = [(kind, t.str(kind)) for kind in kinds]
    names += [(f"{kind}_later", t.str(f"{kind}_later")) for kind in kinds if f"{kind}_later" in t.data]
    for key in t.data:
        if key not in dict(names):
            raise TableError(f"{t.where}: key {key!r}: not a kind of call ({', '.join(kinds)}, or one with _later)")
    for key, words in names:
        if not words.strip() or "{" in words.replace("{ordinal}", "") or "}" in words.replace("{ordinal}", ""):
            raise TableError(f"{t.where}: key {key!r}: words, with at most {{ordinal}} in braces")
    return tuple(names)


@lru_cache(maxsize=1)
def data() -> BombardmentData:
    """bombardment.toml as checked values (read once; `tables.clear_cache` does not reach here)."""
    lingering = _table("lingering")
    pinning = _table("pinning")
    passengers = _table("passengers")
    vehicles = _table("vehicles")
    sos = _table("sos")
    buildings = _table("buildings")
    smoke = _table("smoke_barrage")
    cover = passengers.str("cover")
    return BombardmentData(
        ranging=_ranging(),
        pattern=_pattern(),
        lingering=Lingering(lingering.int("after_last_phase_of_fire", minimum=1),
                            lingering.int("after_turn_end", minimum=1),
                            lingering.int("after_contact_lost", minimum=1),
                            lingering.int("sos", minimum=1)),
        pin_exempt_storeys=pinning.int("exempt_storeys", minimum=1),
        passenger_dice=passengers.int("dice", minimum=1),
        passenger_to_hit=passengers.int("to_hit", minimum=2, maximum=6),
        passenger_cover=cover,
        vehicle_dice=vehicles.int("dice", minimum=1),
        open_topped_dice=vehicles.int("open_topped_dice", minimum=1),
        sos_radius=sos.float("radius", minimum=0.0),
        sos_firepower_dice=sos.int("firepower_dice", minimum=1),
        sos_to_hit=sos.int("to_hit", minimum=2, maximum=6),
        sos_storm_of_steel=sos.bool("storm_of_steel"),
        unstable_sixes=buildings.int("unstable_sixes", minimum=1),
        collapse_smoke_to_hit=buildings.int("collapse_smoke_to_hit"),
        sniper_relocation=buildings.float("sniper_relocation", minimum=0.0),
        smoke_close_combat_range=smoke.float("close_combat_range", minimum=0.0),
        smoke_enemy_movement_dice=smoke.int("enemy_movement_dice", minimum=0),
        smoke_losing_levels_worse=smoke.int("losing_result_levels_worse", minimum=0),
        names=_names(),
    )
