"""A small but complete game that exercises every field a save file holds."""

from __future__ import annotations

from battletracker.model.game import Game
from battletracker.model.game import LogEntry
from battletracker.model.game import Marker
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.model.game import Weapon
from battletracker.model.game import WeaponProfile


def sample_game() -> Game:
    game = Game(title="Hill 112 — Schürzen", ruleset="chain_of_command")
    game.sides = [Side("British", "#3366cc", 9, 2), Side("German", "#cc3333", 8, 1)]
    game.turn, game.phase, game.active_side = 2, 3, 1
    game.settings = {"storm_of_steel_per_six": 2}
    units = [
        Unit("u1", "1 Section", "section", 0, 12.0, 40.0, 0.0, figures=8, figures_max=10,
             counters={"shock": 2}, conditions=["pinned"],
             weapons=[Weapon("Bren", "lmg", None, [18.0, 36.0])]),
        Unit("u2", "MG 42 tripod", "support_weapon", 1, 30.5, 8.25, 180.0, figures=3, figures_max=3,
             counters={"shock": 0, "suppression": 1},
             weapons=[Weapon("MG 42", "mmg", 45.0, [18.0, 36.0, 72.0], ammo=6, ammo_max=10,
                             stats={"firepower": 12, "belt": True})]),
        Unit("u3", "Flamethrower", "team", 0, 20.0, 30.0, 45.0, figures=2, figures_max=2,
             weapons=[Weapon("Flammenwerfer", "flamethrower", 30.0, [6.0], ammo=3, ammo_max=3,
                             ammo_label="fuel")]),
        Unit("u4", "Panzer IV H", "vehicle", 1, 50.0, 10.0, 200.0, figures=5, figures_max=5,
             counters={"shock": 1}, conditions=["buttoned"],
             weapons=[Weapon("75mm L/48", "gun", 30.0, [24.0, 48.0])],
             vehicle=Vehicle("afv", {"front": 5, "side": 3, "rear": 2, "top": 1}, False, ["engine_damage"]),
             stats={"speed": "medium"}),
        Unit("u5", "Ganger", "fighter", 0, 5.0, 5.0, 270.0,
             weapons=[Weapon("Autogun", "autogun", None, [8.0, 24.0], profiles=[
                 WeaponProfile("standard", {"s": 3, "ap": 0}, ["rapid_fire_1"]),
                 WeaponProfile("scatter", {"s": 2, "ap": -1}, [], "out_of_ammo"),
             ])],
             level=2, notes="Ammo 4+"),
    ]
    game.units = {u.id: u for u in units}
    game.markers = {
        "m1": Marker("m1", "aiming_point", 40.0, 20.0, 2.0, "Ranging", 0, {"phase": "ranging"}),
        "m2": Marker("m2", "smoke", 33.0, 22.5),
    }
    game.log = [
        LogEntry("2026-05-01T10:00:00", 1, 1, "Battle begins"),
        LogEntry("2026-05-01T10:05:00", 2, 3, "Rolled 3D6 needing 4+: 6 4 1 -> 2 successes", "roll"),
    ]
    return game
