"""The arsenal data: the seed's facts, examples marked as such, and checks on players' entries."""

from __future__ import annotations

from typing import Any

import pytest

from battletracker.rules.chain_of_command.arsenal import arsenal
from battletracker.rules.chain_of_command.arsenal import parse_grenade
from battletracker.rules.chain_of_command.arsenal import parse_vehicle
from battletracker.rules.chain_of_command.arsenal import parse_weapon
from battletracker.rules.tables import Table
from battletracker.rules.tables import TableError


def test_panzerschreck_from_the_seed() -> None:
    w = arsenal().weapon("Panzerschreck")
    assert w is not None
    assert (w.kind, w.bands, w.ap, w.he, w.rounds, w.example) == (
        "infantry_at", (18.0, 24.0, 36.0), (11, 11, 11), 4, 3, ())
    assert [w.band(r) for r in (0, 18, 18.01, 24, 36, 36.01)] == [0, 0, 1, 1, 2, None]
    assert w.describe_bands() == '0-18", 18-24", 24-36"'
    assert w.limited and not w.close_range_only


def test_panzer_iv_h_and_sherman_from_the_seed() -> None:
    gun = arsenal().weapon("Panzer IV H")
    assert gun is not None and gun.name == "7.5cm KwK 40" and gun.ap == (9,) and "ap" not in gun.example
    assert gun.close_range_only and gun.band(200) == 0 and not gun.limited
    sherman = arsenal().vehicle("M4 Sherman")
    assert sherman is not None and sherman.category == "afv"
    assert sherman.armour_dice("front") == 6 and "armour.front" not in sherman.example
    assert {"armour.side", "armour.rear", "armour.top"} <= set(sherman.example)


@pytest.mark.parametrize("name", ["Bazooka", "PIAT"])
def test_bazooka_and_piat_are_limited_to_three(name: str) -> None:
    w = arsenal().weapon(name)
    assert w is not None and w.rounds == 3 and "rounds" not in w.example
    assert "ap" in w.example and "bands" in w.example


@pytest.mark.parametrize("name", ["Boys anti-tank rifle", "PTRD anti-tank rifle"])
def test_anti_tank_rifles_are_unlimited(name: str) -> None:
    w = arsenal().weapon(name)
    assert w is not None and w.rounds is None and not w.limited


def test_values_not_in_the_seed_are_marked() -> None:
    pak = arsenal().weapon("7.5cm Pak 40")
    assert pak is not None and pak.kind == "at_gun" and set(pak.example) == {"ap", "he"}
    for vehicle in ("Panzer IV H", "M3 half-track"):
        entry = arsenal().vehicle(vehicle)
        assert entry is not None and "armour.front" in entry.example


def test_grenades_table_from_the_seed() -> None:
    table = {name: (g.ap, g.nations) for name, g in arsenal().grenades.items()}
    assert table == {
        "Petrol Bomb": (3, ("Universal",)),
        "Teller mine": (5, ("Germany",)),
        "No.75 Hawkins Grenade": (3, ("Great Britain", "United States")),
        "No.83 Gammon Bomb": (4, ("Great Britain", "United States")),
        "Soviet RPG 3 AT grenade": (4, ("Soviet Union",)),
    }
    assert all(g.example == () for g in arsenal().grenades.values())


def test_names_are_matched_ignoring_case() -> None:
    assert arsenal().grenade("teller MINE") is not None
    assert arsenal().weapon("nothing") is None
    assert arsenal().weapon("M3 half-track") is None  # a vehicle with no gun


def entry(**data: Any) -> Table:
    return Table("user weapon", data)


def test_players_entries_are_checked() -> None:
    ok = parse_weapon("My gun", entry(nation="UK", kind="infantry_at", bands=[12, 24], ap=[5, 4], example=[]))
    assert ok.strike_dice(1) == 4
    with pytest.raises(TableError, match="key 'ap': one value per range band \\(2\\), not 1"):
        parse_weapon("x", entry(nation="UK", kind="infantry_at", bands=[12, 24], ap=[5], example=[]))
    with pytest.raises(TableError, match="key 'bands': edges must be positive and increasing"):
        parse_weapon("x", entry(nation="UK", kind="infantry_at", bands=[24, 12], ap=[5, 5], example=[]))
    with pytest.raises(TableError, match="key 'bands': a tank_gun treats the whole table as Close Range"):
        parse_weapon("x", entry(nation="UK", kind="tank_gun", ap=5, bands=[12], example=[]))
    with pytest.raises(TableError, match="key 'kind': must be one of"):
        parse_weapon("x", entry(nation="UK", kind="laser", ap=5, example=[]))
    with pytest.raises(TableError, match="key 'example': 'armour' is not one of its fields"):
        parse_weapon("x", entry(nation="UK", kind="at_gun", ap=5, example=["armour"]))
    with pytest.raises(TableError, match="key 'side': missing"):
        parse_vehicle("x", entry(nation="UK", category="afv", armour={"front": 3}, weapons=[], example=[]))
    with pytest.raises(TableError, match="key 'category': must be one of afv, apc"):
        parse_vehicle("x", entry(nation="UK", category="tank", armour={"front": 1, "side": 1, "rear": 1, "top": 0},
                                 weapons=[], example=[]))
    with pytest.raises(TableError, match="key 'nations': list at least one nation"):
        parse_grenade("x", entry(nations=[], ap=3, example=[]))
