"""The Effects of the support-weapon procedures applied to a game, then undone exactly."""

from __future__ import annotations

import copy

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model.bombardment import Building
from battletracker.model.effects import SetMarkerData
from battletracker.model.effects import TurnUnit
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.game import Marker
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.model.game import Weapon
from battletracker.model.savefile import game_to_dict
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.base import Resolution
from battletracker.rules.chain_of_command.fire import hit_effect_faces
from tests.rules.oddscheck import assert_odds_match_simulation

KILL = hit_effect_faces("open").index("kill") + 1
SHOCK = hit_effect_faces("open").index("shock") + 1


def table() -> Game:
    game = Game(sides=[Side("British", "#3366cc"), Side("German", "#cc3333")])
    units = [
        Unit("mg", "Tripod MG42", "support_weapon", 1, 10, 10, 0.0, figures=3, figures_max=5,
             weapons=[Weapon("MG42", "mmg", 45.0, [18.0, 72.0])]),
        Unit("sniper", "Sniper", "sniper", 1, 30, 5, 180.0, figures=2, figures_max=2),
        Unit("flame", "Flamethrower", "team", 0, 20, 30, 0.0, figures=2, figures_max=2,
             weapons=[Weapon("Rifle", "small_arms"),
                      Weapon("Flamethrower", "flamethrower", None, [12.0], ammo=3, ammo_max=3, ammo_label="fuel")]),
        Unit("t1", "1 Section, Bren team", "team", 0, 12, 20, 0.0, figures=4, figures_max=4),
        Unit("t2", "1 Section, rifle team", "team", 0, 14, 20, 0.0, figures=2, figures_max=6),
        Unit("ht", "Sd.Kfz 251", "vehicle", 1, 22, 20, 90.0, figures=2, figures_max=2, counters={"shock": 2},
             vehicle=Vehicle("apc", {"front": 2, "side": 1, "rear": 1, "top": 0}, True)),
    ]
    game.units = {u.id: u for u in units}
    game.markers = {"barn": Marker("barn", "aiming_point", 20, 22)}
    game.buildings = {"barn": Building("barn", "Wooden barn", 20, 22, material="wood", occupants=["t1"])}
    return game


def apply_and_undo(res: Resolution) -> tuple[Game, Game]:
    game = table()
    before = copy.deepcopy(game_to_dict(game))
    inverses = game.apply_all(res.effects)
    after = copy.deepcopy(game)
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert game_to_dict(game) == before
    return after, game


def test_tripod_mg_turns_and_hits_two_teams() -> None:
    res = resolve("coc.tripod_mg", {"figures": 3, "to_hit": 4, "cover": "open", "teams": 2, "target_ids": "t1,t2",
                                    "firer_id": "mg", "barrel_facing": 0, "target_bearing": 30},
                  ScriptedDice([4, 4, 4] + [1] * 7 + [KILL, SHOCK, KILL]))
    after, _ = apply_and_undo(res)
    assert after.unit("mg").facing == 30.0 and (after.unit("mg").x, after.unit("mg").y) == (10, 10)
    assert after.unit("t1").figures == 3 and after.unit("t1").shock == 1
    assert after.unit("t2").figures == 1


def test_kills_beyond_a_teams_figures_are_not_removed() -> None:
    res = resolve("coc.fire", {"firepower_dice": 3, "to_hit": 2, "cover": "open", "target_id": "t2",
                               "target_figures": "2"}, ScriptedDice([4, 4, 4, KILL, KILL, KILL]))
    after, _ = apply_and_undo(res)
    assert after.unit("t2").figures == 0


def test_sniper_shots_are_counted() -> None:
    res = resolve("coc.sniper", {"target_kind": "infantry", "firer_id": "sniper", "target_id": "t1"},
                  ScriptedDice([5, KILL]))
    after, _ = apply_and_undo(res)
    assert after.unit("sniper").counters["sniper_shots"] == 1 and after.unit("t1").figures == 3


def test_flamethrower_spends_fuel_and_sets_the_barn_alight() -> None:
    res = resolve("coc.flamethrower", {"range": 6, "fuel": 3, "target_kind": "wooden_building", "to_hit": 4,
                                       "target_id": "t1", "building_id": "barn", "firer_id": "flame",
                                       "weapon_index": 1},
                  ScriptedDice([6, 6] + [1] * 10 + [1, 1] + [SHOCK, SHOCK]))
    after, _ = apply_and_undo(res)
    assert after.unit("flame").weapons[1].ammo == 2
    assert after.buildings["barn"].state == "on_fire"
    assert after.unit("t1").shock == 4


def test_flamethrower_with_no_fuel_on_the_card_is_refused_by_the_game() -> None:
    game = table()
    game.unit("flame").weapons[1].ammo = 0
    res = resolve("coc.flamethrower", {"range": 6, "fuel": 1, "target_kind": "infantry", "to_hit": 4,
                                       "firer_id": "flame", "weapon_index": 1}, ScriptedDice([1] * 12))
    with pytest.raises(GameError, match="no fuel left"):
        game.apply_all(res.effects)


def test_grenade_shock_on_an_apc_abandons_it() -> None:
    res = resolve("coc.grenade_into_vehicle", {"firepower_dice": 3, "vehicle": "open_topped", "vehicle_id": "ht",
                                               "vehicle_current_shock": 2},
                  ScriptedDice([3, 6, 2, 3, 5, 6, 6]))
    after, _ = apply_and_undo(res)
    assert after.unit("ht").shock == 4 and after.unit("ht").has("abandoned")


def test_turn_unit_and_set_marker_data_undo() -> None:
    game = table()
    inverse = game.apply(TurnUnit("mg", 400.0))
    assert game.unit("mg").facing == 40.0
    game.apply(inverse)
    assert game.unit("mg").facing == 0.0
    inverse = game.apply(SetMarkerData("barn", "on_fire", True))
    game.apply(inverse)
    assert "on_fire" not in game.markers["barn"].data
    with pytest.raises(GameError):
        game.apply(SetMarkerData("nowhere", "on_fire", True))


@pytest.mark.parametrize(("name", "inputs"), [
    ("coc.tripod_mg", {"figures": 4, "to_hit": 4, "cover": "open", "target_id": "t", "target_figures": "2"}),
    ("coc.gun_he", {"he_dice": 4, "cover": "open", "crew": 4, "teams": 2, "target_ids": "a,b",
                    "target_figures": "1,2"}),
    ("coc.flamethrower", {"range": 8, "fuel": 3, "target_kind": "infantry", "to_hit": 4, "target_id": "t",
                          "target_figures": "2"}),
    ("coc.grenade_into_vehicle", {"firepower_dice": 3, "vehicle": "open_topped", "passenger_teams": 1,
                                  "to_hit": 4, "target_id": "p", "target_figures": "1"}),
])
def test_every_procedure_on_coc_fire_caps_kills_at_the_figures(name: str, inputs: dict[str, object]) -> None:
    """No chart lists more kills than the target Teams have figures, and the odds still equal the dice."""
    figures = sum(int(f) for f in str(inputs["target_figures"]).split(","))
    dist = odds(name, inputs)  # type: ignore[arg-type]
    kills = [int(k.split("kills=")[1].split()[0]) for k in dist.outcomes if "kills=" in k]
    assert max(kills) == figures
    assert_odds_match_simulation(name, inputs, runs=3000)  # type: ignore[arg-type]
