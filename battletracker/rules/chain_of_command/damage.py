"""The Vehicle Damage tables and what each result means (Section 16.2).

The tables and the "Damage Defined" text live in `at_fire.toml`; this module
reads them, checks that each table covers a D6 exactly once and that every
result is defined, and turns a result into the Effects it leaves on the
vehicle and the lines the app shows for it.

Outcome keys of every anti-tank procedure are `"<band>:<result>"`: the band of
net hits (`equal`, `net1`, `net2`, `net3` for three or more) and the result's
name in the table (`reverse`, `immobilised`, `explodes`, ...).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from battletracker.core.odds import Distribution
from battletracker.model.effects import Effect
from battletracker.model.effects import SetDamage
from battletracker.model.game import VEHICLE_CATEGORIES
from battletracker.rules.chain_of_command.vehicle_shock import VehicleShock
from battletracker.rules.chain_of_command.vehicle_shock import shock_effects
from battletracker.rules.chain_of_command.vehicle_shock import take_shock
from battletracker.rules.tables import Table
from battletracker.rules.tables import TableError
from battletracker.rules.tables import ruleset_file

RULESET = "chain_of_command"
BANDS = ("equal", "net1", "net2", "net3")
BAND_TITLES = {"equal": "Equal Hits & Saves", "net1": "+1 Net Hit", "net2": "+2 Net Hits", "net3": "+3 Net Hits"}
DURATIONS = ("immediate", "next_phase", "game")
MAX_SHOCK_PER_RESULT = 2


@dataclass(frozen=True)
class DamageRow:
    """One row of a damage table: the D6 scores it covers, its result and its Shock before doubling."""

    rolls: tuple[int, ...]
    result: str
    shock: int


@dataclass(frozen=True)
class DamageResult:
    """What a result means for the vehicle, as the "Damage Defined" tables say.

    `record`: kept on the vehicle as damage under the result's name.
    `duration`: immediate, next_phase (its next active Phase) or game.
    `force_morale_test`: the test it prompts ("" for none). `wreck`: the token
    becomes a wreck. `blast_radius`: infantry Teams within it take hits.
    """

    vehicle: str
    name: str
    title: str
    definition: str
    consequences: tuple[str, ...]
    duration: str
    record: bool
    force_morale_test: str
    wreck: bool
    blast_radius: float
    doubles_later_shock: bool = False


@dataclass(frozen=True)
class DamageTables:
    rows: Mapping[tuple[str, str], tuple[DamageRow, ...]]
    results: Mapping[tuple[str, str], DamageResult]
    shock_consequences: tuple[str, ...]
    abandoned_consequences: Mapping[str, tuple[str, ...]]
    abandoned_force_morale_test: Mapping[str, str]


def _strings(t: Table, key: str) -> tuple[str, ...]:
    values = t.list(key)
    if not all(isinstance(v, str) and v for v in values):
        raise TableError(f"{t.where}: key {key!r}: must be a list of text lines")
    return tuple(values)


def _rows(t: Table, band: str) -> tuple[DamageRow, ...]:
    rows: list[DamageRow] = []
    covered: list[int] = []
    for i, raw in enumerate(t.list(band)):
        if not isinstance(raw, dict):
            raise TableError(f"{t.where}: key {band!r}: row {i + 1} must be a table")
        row = Table(f"{t.where}.{band}[{i + 1}]", raw)
        rolls = row.list("rolls")
        if not rolls or not all(isinstance(r, int) and not isinstance(r, bool) and 1 <= r <= 6 for r in rolls):
            raise TableError(f"{row.where}: key 'rolls': must list D6 scores 1-6, not {rolls!r}")
        covered.extend(rolls)
        rows.append(DamageRow(tuple(rolls), row.str("result"), row.int("shock", 0, MAX_SHOCK_PER_RESULT)))
    if sorted(covered) != [1, 2, 3, 4, 5, 6]:
        raise TableError(f"{t.where}: key {band!r}: the rows must cover each D6 score once, not {sorted(covered)}")
    return tuple(rows)


def _result(vehicle: str, name: str, t: Table) -> DamageResult:
    return DamageResult(
        vehicle=vehicle,
        name=name,
        title=t.str("title"),
        definition=t.str("definition"),
        consequences=_strings(t, "consequences"),
        duration=t.str("duration", DURATIONS),
        record=t.bool("record"),
        force_morale_test=t.str("force_morale_test"),
        wreck=t.bool("wreck"),
        blast_radius=t.float("blast_radius", minimum=0),
        doubles_later_shock=t.bool("doubles_later_shock") if "doubles_later_shock" in t.data else False,
    )


@lru_cache(maxsize=1)
def damage_tables() -> DamageTables:
    """Both damage tables and every result's meaning, checked against each other."""
    whole = ruleset_file(RULESET, "at_fire")
    damage = whole.table("damage")
    results_table = whole.table("results")
    abandoned_table = whole.table("abandoned")
    rows: dict[tuple[str, str], tuple[DamageRow, ...]] = {}
    results: dict[tuple[str, str], DamageResult] = {}
    abandoned_lines: dict[str, tuple[str, ...]] = {}
    abandoned_test: dict[str, str] = {}
    for vehicle in VEHICLE_CATEGORIES:
        per_vehicle = results_table.table(vehicle)
        for name, t in per_vehicle.tables():
            results[(vehicle, name)] = _result(vehicle, name, t)
        table = damage.table(vehicle)
        for band in BANDS:
            rows[(vehicle, band)] = _rows(table, band)
            for row in rows[(vehicle, band)]:
                if (vehicle, row.result) not in results:
                    raise TableError(f"{table.where}: key {band!r}: result {row.result!r} has no "
                                     f"[results.{vehicle}.{row.result}] definition")
        a = abandoned_table.table(vehicle)
        abandoned_lines[vehicle] = _strings(a, "consequences")
        abandoned_test[vehicle] = a.str("force_morale_test")
    return DamageTables(rows, results, _strings(whole.table("shock"), "consequences"), abandoned_lines,
                        abandoned_test)


def band_for(net_hits: int) -> str | None:
    """The damage table band for penetrating hits minus saves; None when the saves win (no effect)."""
    if net_hits < 0:
        return None
    return BANDS[min(net_hits, len(BANDS) - 1)]


def table_rows(vehicle: str, band: str) -> tuple[DamageRow, ...]:
    return damage_tables().rows[(vehicle, band)]


def damage_row(vehicle: str, band: str, roll: int) -> DamageRow:
    """The row a D6 `roll` picks in the `vehicle` table's `band`."""
    for row in table_rows(vehicle, band):
        if roll in row.rolls:
            return row
    raise ValueError(f"{roll} is not a D6 score")


def damage_result(vehicle: str, result: str) -> DamageResult:
    """What a result means for an `afv` or `apc` (title, definition, consequences, ...)."""
    try:
        return damage_tables().results[(vehicle, result)]
    except KeyError:
        raise ValueError(f"no damage result {result!r} for an {vehicle}") from None


def consequences(vehicle: str, result: str) -> tuple[str, ...]:
    """The lines the app shows for a damage result, e.g. "Cannot move Flat Out for the rest of the game"."""
    return damage_result(vehicle, result).consequences


def results(vehicle: str) -> tuple[DamageResult, ...]:
    """Every result an `afv` or `apc` table can give, in table order."""
    tables = damage_tables()
    return tuple(r for (v, _name), r in tables.results.items() if v == vehicle)


def outcome_key(band: str, result: str) -> str:
    return f"{band}:{result}"


def outcome_keys(vehicle: str) -> tuple[str, ...]:
    """Every damage outcome key for the vehicle, in table order: what a plot of the odds lists."""
    keys: list[str] = []
    for band in BANDS:
        for row in table_rows(vehicle, band):
            key = outcome_key(band, row.result)
            if key not in keys:
                keys.append(key)
    return tuple(keys)


def outcome_group(outcome: str) -> str:
    """The group a plot shows an outcome in: its band, or the outcome itself (miss, no_effect, ...)."""
    return outcome.split(":", 1)[0]


GROUP_LABELS = {"failed_to_reach": "failed to reach", "miss": "miss",
                "no_effect": "no effect", "equal": "equal", "net1": "+1", "net2": "+2",
                "net3": "+3"}
GROUP_ORDER = tuple(GROUP_LABELS)
GROUP_MEANINGS = {"no_effect": "no effect: more Armour Saves than Penetrating Hits",
                  "equal": "equal: as many Armour Saves as Penetrating Hits",
                  "net1": "+1: one Penetrating Hit more than the Armour Saves",
                  "net2": "+2: two Penetrating Hits more than the Armour Saves",
                  "net3": "+3: three or more Penetrating Hits more than the Armour Saves"}
"""Each group of the odds as the seed (001) reads it: the saves cancel hits one for one, the rest are net hits."""
BANDS_NOTE = ("Equal, +1, +2 and +3 then roll one D6 on the target's damage table, on that row "
              "(the result and what it does show after the roll).")
RESULT_WORDS = {"none": "no effect", "hull_mg_destroyed": "hull MG destroyed"}


def outcome_label(outcome: str) -> str:
    """An anti-tank outcome in a player's words: "net2:immobilised" -> "+2: immobilised", "miss" -> "Miss"."""
    group, _, result = outcome.partition(":")
    head = GROUP_LABELS.get(group, group.replace("_", " "))
    head = head[:1].upper() + head[1:]
    if not result:
        return head
    return f"{head}: {RESULT_WORDS.get(result, result.replace('_', ' '))}"


def outcome_rank(outcome: str) -> tuple[int, str]:
    """Reading order: failed to reach and miss first, then no effect, equal, +1, +2, +3."""
    group = outcome_group(outcome)
    return (GROUP_ORDER.index(group) if group in GROUP_ORDER else len(GROUP_ORDER), outcome)


NO_HARM = ("failed_to_reach", "miss")
NO_EFFECT = ("no_effect", "none")
SHOCK_ONLY = ("shock", "reverse", "halt_and_engage", "pedal_to_metal")
DESTROYED = "destroyed"
EXPLODES = "explodes"


def firer_rank(outcome: str) -> tuple[float, ...]:
    """How good an anti-tank outcome is for the firer (`Procedure.better`).

    A miss (or a grenade that failed to reach) is worst; then no effect (more saves, or an equal result
    of none); then Shock, or a forced move or halt with no lasting harm; then any lasting damage
    (engine, optics, MG, commander, immobilised); then the vehicle destroyed, and best, exploding, which
    destroys it and kills its Leader besides. Within one of these, a higher band of net hits is better
    (its Shock and damage are heavier: +2's Shock is 2, +1's is 1); the same result in the same band is
    equally good whatever it is called.
    """
    group, _sep, result = outcome.partition(":")
    if outcome in NO_HARM:
        return (0, 0)
    if outcome in NO_EFFECT or result in NO_EFFECT:
        return (1, 0)
    band = float(GROUP_ORDER.index(group)) if group in GROUP_ORDER else 0.0
    if result in SHOCK_ONLY:
        return (2, band)
    if result == DESTROYED:
        return (4, 0)
    if result == EXPLODES:
        return (5, 0)
    return (3, band)


@lru_cache(maxsize=64)
def band_odds(vehicle: str, band: str) -> Distribution[str]:
    """Exact odds of each outcome key for one D6 on the band's table."""
    return Distribution({outcome_key(band, row.result): Fraction(len(row.rolls), 6)
                         for row in table_rows(vehicle, band)})


@dataclass(frozen=True)
class DamageOutcome:
    """A damage roll applied to a vehicle: the row it picked and the Shock that lands."""

    vehicle: str
    band: str
    roll: int
    row: DamageRow
    shock: VehicleShock

    @property
    def outcome(self) -> str:
        return outcome_key(self.band, self.row.result)

    @property
    def meaning(self) -> DamageResult:
        return damage_result(self.vehicle, self.row.result)

    def effects(self, target_id: str) -> list[Effect]:
        """The Shock (doubled on an immobilised AFV), "abandoned" at four, and the damage the result records."""
        effects = shock_effects(target_id, self.shock)
        if self.meaning.record:
            effects.append(SetDamage(target_id, self.row.result))
        return effects

    def lines(self) -> tuple[str, ...]:
        """Everything the player must now do or remember, Shock first."""
        return outcome_lines(self.vehicle, self.row.result, self.shock)

    @property
    def force_morale_tests(self) -> tuple[str, ...]:
        """The Force Morale Tests the result calls for, in the documents' words ("Leader Wounded")."""
        tests = [self.meaning.force_morale_test]
        if self.shock.added and self.shock.newly_abandoned:
            tests.append(damage_tables().abandoned_force_morale_test[self.vehicle])
        return tuple(t for t in tests if t)


def outcome_lines(vehicle: str, result: str, shock: VehicleShock) -> tuple[str, ...]:
    """The consequence lines for a result that put `shock` on the vehicle."""
    tables = damage_tables()
    lines: list[str] = []
    if shock.added:
        doubled = " (doubled: the vehicle is immobilised)" if shock.doubled else ""
        lines.append(f"{shock.added} Shock{doubled}, {shock.total} in all")
        lines.extend(tables.shock_consequences)
    lines.extend(damage_result(vehicle, result).consequences)
    if shock.added and shock.abandoned:
        lines.extend(tables.abandoned_consequences[vehicle])
    return tuple(lines)


def later_shock_doubled(vehicle: str, damage: Iterable[str]) -> bool:
    """Whether damage the `vehicle` (afv or apc) carries doubles the Shock it suffers from now on.

    The AFV table's Vehicle Immobilised says "Any subsequent Shock suffered is
    doubled"; the APC table's says nothing of the kind (at_fire.toml's
    `doubles_later_shock`).
    """
    results = damage_tables().results
    return any(r.doubles_later_shock for r in (results.get((vehicle, name)) for name in damage) if r is not None)


def apply_damage(vehicle: str, band: str, roll: int, current_shock: int, immobilised: bool) -> DamageOutcome:
    """A damage D6 on the `vehicle` table's `band`, against a vehicle with `current_shock`.

    `immobilised` doubles the Shock only where the vehicle's own table says so (an AFV, not an APC).
    """
    row = damage_row(vehicle, band, roll)
    doubled = immobilised and later_shock_doubled(vehicle, ("immobilised",))
    return DamageOutcome(vehicle, band, roll, row, take_shock(current_shock, row.shock, doubled))
