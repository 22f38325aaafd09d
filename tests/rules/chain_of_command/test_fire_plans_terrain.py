"""The Fire plans read cover and Line of Sight from the terrain on the table, and log a player's override."""

from __future__ import annotations

import math

import pytest

from battletracker.model import savefile
from battletracker.model.bombardment import Building
from battletracker.model.bombardment import SmokeArea
from battletracker.model.effects import AppendLog
from battletracker.model.game import Game
from battletracker.model.terrain import TerrainPiece
from battletracker.rules.actions import perform
from battletracker.rules.actions import plan
from battletracker.rules.chain_of_command.anti_tank_plans import ShotRefusal
from battletracker.rules.chain_of_command.fire_plans import SMALL_ARMS
from battletracker.rules.chain_of_command.fire_plans import plan_fire
from battletracker.rules.tables import resources_dir
from battletracker.rules.terrain import circle_points
from tests.acting import ready_side

MG, SQUAD, SNIPER, GERMAN_SECTION = "u3", "u8", "u9", "u1"
# 2nd Squad stands at (38, 39), the sMG42 at (45, 11), the sniper at (12, 30), 1. Gruppe at (20, 10).


@pytest.fixture
def game() -> Game:
    game = savefile.load(resources_dir() / "demo" / "chain_of_command.json")
    game.terrain, game.buildings, game.smoke = {}, {}, {}
    return ready_side(game)


def square(piece_id: str, name: str, kind: str, x: float, y: float, half: float) -> TerrainPiece:
    return TerrainPiece(piece_id, name, kind, "area",
                        [(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)])


def test_cover_comes_from_the_area_the_target_stands_in_with_its_reason(game: Game) -> None:
    assert plan_fire(game, {"firer": MG, "target": SQUAD}).inputs["cover"] == "open"
    game.terrain["t1"] = square("t1", "Copse", "woods", 38.0, 39.0, 1.5)
    shot = plan_fire(game, {"firer": MG, "target": SQUAD})
    assert shot.inputs["cover"] == "light" and "Light cover: in Copse" in shot.facts and shot.log == ()


def test_a_wall_in_front_gives_hard_cover_to_small_arms_but_not_from_behind(game: Game) -> None:
    game.terrain["t2"] = TerrainPiece("t2", "Stone wall", "wall", "linear", [(34.0, 38.5), (42.0, 38.5)])
    shot = plan_fire(game, {"firer": GERMAN_SECTION, "target": SQUAD, "weapon": SMALL_ARMS})
    assert shot.procedure == "coc.fire" and shot.inputs["cover"] == "hard"
    assert "Hard cover: behind Stone wall" in shot.facts
    game.unit(GERMAN_SECTION).y = 45.0   # now firing from the squad's own side of the wall
    assert plan_fire(game, {"firer": GERMAN_SECTION, "target": SQUAD, "weapon": SMALL_ARMS}).inputs["cover"] == "open"


def test_the_cards_cover_condition_still_wins_over_the_table(game: Game) -> None:
    game.terrain["t1"] = square("t1", "Copse", "woods", 38.0, 39.0, 1.5)
    game.unit(SQUAD).conditions.append("hard cover")
    shot = plan_fire(game, {"firer": MG, "target": SQUAD})
    assert shot.inputs["cover"] == "hard" and "Hard cover: on 2nd Squad's card" in shot.facts


def test_the_players_cover_overrides_the_table_and_is_logged_with_the_reason(game: Game) -> None:
    choices = {"firer": MG, "target": SQUAD, "cover": "hard", "cover_reason": "behind the wall the map lacks"}
    shot = plan_fire(game, choices)
    line = "Cover Hard (player: 'behind the wall the map lacks'; the map: In the open)"
    assert shot.inputs["cover"] == "hard" and shot.log == (line,) and line in shot.facts
    resolution = perform(game, "coc.shoot", choices)
    logged = [e.entry.text for e in resolution.effects if isinstance(e, AppendLog)]
    assert logged[-1] == line
    assert plan("coc.shoot", game, {"firer": MG, "target": SQUAD, "cover": "open"}).log == ()


def test_no_line_of_sight_through_a_building_is_refused_unless_the_player_gives_it(game: Game) -> None:
    game.buildings["b1"] = Building("b1", "Farmhouse", 41.5, 25.0, width=8.0, depth=4.0)
    with pytest.raises(ShotRefusal) as refused:
        plan_fire(game, {"firer": MG, "target": SQUAD})
    assert refused.value.field == "sight"
    assert str(refused.value).startswith("No Line of Sight: crosses Farmhouse. If sMG42 team can see 2nd Squad")
    given = plan("coc.shoot", game, {"firer": MG, "target": SQUAD, "sight": True, "sight_reason": "over the roof"})
    assert given.log == ("Line of Sight given (player: 'over the roof'; the map: No Line of Sight: "
                         "crosses Farmhouse)",)
    game.buildings["b1"].state = "collapsed"
    assert plan_fire(game, {"firer": MG, "target": SQUAD}).log == ()


def test_a_sniper_sees_from_any_point_within_three_inches_of_its_centre(game: Game) -> None:
    # A short stretch of bocage across the middle of the line from the sniper (12, 30) to 1. Gruppe (20, 10).
    along = (8.0 / math.hypot(8.0, 20.0), -20.0 / math.hypot(8.0, 20.0))
    across = (-along[1] * 0.8, along[0] * 0.8)
    game.terrain["t5"] = TerrainPiece("t5", "Bocage", "bocage", "linear",
                                      [(16.0 - across[0], 20.0 - across[1]), (16.0 + across[0], 20.0 + across[1])])
    shot = plan_fire(game, {"firer": SNIPER, "target": GERMAN_SECTION})
    assert shot.procedure == "coc.sniper" and 'Line of Sight from within 3" of the centre' in shot.facts
    # The same line for any other firer standing at the sniper's centre is blocked.
    game.unit(GERMAN_SECTION).x, game.unit(GERMAN_SECTION).y = 12.0, 30.0
    game.unit("u7").x, game.unit("u7").y = 20.0, 10.0
    with pytest.raises(ShotRefusal, match="No Line of Sight: Bocage is in the way"):
        plan_fire(game, {"firer": "u7", "target": GERMAN_SECTION})


def test_a_sniper_hidden_from_its_whole_circle_is_refused(game: Game) -> None:
    game.buildings["b1"] = Building("b1", "Barn", 16.0, 20.0, width=16.0, depth=3.0, facing=0.0)
    with pytest.raises(ShotRefusal, match="No Line of Sight: crosses Barn"):
        plan_fire(game, {"firer": SNIPER, "target": GERMAN_SECTION})


def test_the_sight_circle_is_the_centre_and_two_rings() -> None:
    points = circle_points((0.0, 0.0), 3.0)
    assert points[0] == (0.0, 0.0) and len(points) == 25
    assert sorted({round(math.hypot(*p), 6) for p in points}) == [0.0, 1.5, 3.0]


def test_gun_he_takes_the_smoke_on_the_tables_line_of_sight(game: Game) -> None:
    game.smoke["s1"] = SmokeArea("s1", 51.0, 25.0, 8.0, 4.0, source="", to_hit=-1)
    squad, sherman = game.unit("u7"), game.unit("u11")
    squad.x, squad.y = sherman.x, sherman.y  # H.E. is fired at infantry, not at the Sherman it stands beside
    shot = plan_fire(game, {"firer": "u6", "target": "u7", "weapon": game.unit("u6").weapons[0].name})
    assert shot.procedure == "coc.gun_he" and shot.inputs["to_hit_modifier"] == -1
    assert "Firing through smoke: -1 to hit" in shot.facts
