"""Anti-tank fire reads Line of Sight and the target's visibility from the terrain on the table."""

from __future__ import annotations

import pytest

from battletracker.model import savefile
from battletracker.model.bombardment import Building
from battletracker.model.game import Game
from battletracker.model.terrain import TerrainPiece
from battletracker.rules.actions import plan
from battletracker.rules.chain_of_command.anti_tank_plans import ShotRefusal
from battletracker.rules.chain_of_command.anti_tank_plans import plan_at_fire
from battletracker.rules.tables import resources_dir
from battletracker.rules.terrain import TableIndex
from tests.acting import ready_side

# The Panzer IV stands at (54, 8), the Sherman at (50, 36).
SHOT = {"firer": "u6", "target": "u11"}
COPSE = TerrainPiece("t1", "Copse", "woods", "area", [(48.0, 34.0), (52.0, 34.0), (52.0, 38.0), (48.0, 38.0)])


@pytest.fixture
def game() -> Game:
    game = savefile.load(resources_dir() / "demo" / "chain_of_command.json")
    game.terrain, game.buildings, game.smoke = {}, {}, {}
    return ready_side(game)


def test_the_targets_cover_on_the_map_sets_the_visibility(game: Game) -> None:
    assert plan_at_fire(game, SHOT).inputs["visibility"] == "open"
    game.terrain["t1"] = COPSE
    shot = plan_at_fire(game, SHOT)
    assert shot.inputs["visibility"] == "obscured" and "Light cover: in Copse: view obscured" in shot.facts
    assert shot.log == ()


def test_the_players_visibility_is_logged_with_its_reason(game: Game) -> None:
    game.terrain["t1"] = COPSE
    given = plan("coc.at_fire", game, {**SHOT, "visibility": "open", "visibility_reason": "the wood is thin"})
    assert given.inputs["visibility"] == "open"
    assert given.log == ("In the Open (player: 'the wood is thin'; the map: Light cover: in Copse: view obscured)",)


def test_no_line_of_sight_is_refused_unless_the_player_gives_it(game: Game) -> None:
    game.buildings["b1"] = Building("b1", "Farmhouse", 52.0, 22.0, width=10.0, depth=4.0)
    with pytest.raises(ShotRefusal) as refused:
        plan_at_fire(game, SHOT)
    assert str(refused.value).startswith("No Line of Sight: crosses Farmhouse. If Panzer IV H can see")
    given = plan("coc.at_fire", game, {**SHOT, "sight": True})
    assert given.log == ("Line of Sight given (player; the map: No Line of Sight: crosses Farmhouse)",)


def test_an_anti_tank_grenade_needs_no_line_of_sight_the_figure_runs_into_contact(game: Game) -> None:
    """The seed's grenade attack is a run into contact decided by the movement roll, not a shot: a building
    hiding the vehicle neither refuses it nor adds a sight fact or log line."""
    squad, sherman = game.unit("u2"), game.unit("u11")
    squad.x, squad.y = 50.0, 28.0
    game.buildings["b1"] = Building("b1", "Farmhouse", 50.0, 32.0, width=6.0, depth=2.0)
    assert TableIndex(game).sight(squad, sherman).reason == "No Line of Sight: crosses Farmhouse"
    grenade = plan("coc.at_grenade", game, {"firer": "u2", "target": "u11", "weapon": "Teller mine"})
    assert grenade.procedure == "coc.at_grenade" and grenade.log == ()
    assert not any("Sight" in fact for fact in grenade.facts)
