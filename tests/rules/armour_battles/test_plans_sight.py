"""Armour Battles fire reads Line of Sight from the table: a Forward Observer without it, the player's word logged.

"If the close support unit doesn't have LOS to its target, another unit must
act as its Forward Observer. No Forward Observer is required when it has LOS
to its target." (002)
"""

from __future__ import annotations

import pytest

from battletracker.model.bombardment import Building
from battletracker.model.game import Game
from battletracker.rules.actions import plan
from battletracker.rules.armour_battles.plans import direct_fire
from battletracker.rules.armour_battles.plans import indirect_mission
from battletracker.rules.armour_battles.plans import map_sight
from battletracker.rules.base import RulesInputError
from tests.rules.armour_battles.helpers import kursk

# The StuH stands at (30, 44), the aiming point is (30, 20), the German observer at (30, 30).
AIM = {"firer": "stuh", "x": 30.0, "y": 20.0}


def barn(game: Game, y: float = 38.0) -> Game:
    game.buildings["b1"] = Building("b1", "Barn", 30.0, y, width=8.0, depth=3.0)
    return game


def test_sight_to_the_aiming_point_comes_from_the_table() -> None:
    clear = indirect_mission(kursk(), AIM)
    assert clear.inputs["los"] is True and clear.log == ()
    with pytest.raises(RulesInputError) as refused:
        indirect_mission(barn(kursk()), AIM)
    assert str(refused.value) == ("No Line of Sight: crosses Barn. Without line of sight to the aiming point another "
                                  "unit must act as Forward Observer (Rifle platoon can see it on the map).")


def test_the_maps_sight_a_dialog_starts_from_is_the_plans() -> None:
    game = barn(kursk())
    to_aim = map_sight(game, "stuh", (30.0, 20.0))
    assert not to_aim.clear and to_aim.reason == "No Line of Sight: crosses Barn"
    assert map_sight(kursk(), "stuh", (30.0, 20.0)).clear
    assert not map_sight(game, "stuh", "rifles").clear


def test_without_sight_the_mission_is_planned_through_the_observer() -> None:
    planned = indirect_mission(barn(kursk()), {**AIM, "observer": "observer"})
    assert planned.inputs["los"] is False and planned.inputs["observer"] is True
    assert "No Line of Sight: crosses Barn" in planned.facts
    assert not any("no line of sight to the aiming point on the map either" in f for f in planned.facts)
    hidden = indirect_mission(barn(kursk(), y=25.0), {**AIM, "observer": "observer"})
    assert "Rifle platoon has no line of sight to the aiming point on the map either." in hidden.facts


def test_the_players_sight_over_the_map_is_logged_with_its_reason() -> None:
    game = barn(kursk())
    given = plan("ab.indirect_mission", game, {**AIM, "los": True, "los_reason": "from the ridge"})
    line = "Line of Sight given (player: 'from the ridge'; the map: No Line of Sight: crosses Barn)"
    assert given.inputs["los"] is True and given.log == (line,) and line in given.facts
    denied = plan("ab.indirect_mission", kursk(), {**AIM, "los": False, "observer": "observer"})
    assert denied.log == ("No Line of Sight (player; the map: Line of Sight clear)",)


def test_direct_fire_needs_sight_on_the_table_unless_the_player_gives_it() -> None:
    game = barn(kursk())
    with pytest.raises(RulesInputError) as refused:
        direct_fire(game, {"firer": "stuh", "target": "rifles"})
    assert str(refused.value).startswith("No Line of Sight: crosses Barn. Direct fire needs a line of sight")
    given = plan("ab.direct_fire", game, {"firer": "stuh", "target": "rifles", "los": True, "cover": 0})
    assert given.log == ("Line of Sight given (player; the map: No Line of Sight: crosses Barn)",)
    assert direct_fire(kursk(), {"firer": "stuh", "target": "rifles"}).inputs["los"] is True
