"""Bombardments, buildings and smoke in the model and the save file."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import pytest

from battletracker.core import geometry
from battletracker.model import savefile
from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment import BombardmentEvent
from battletracker.model.bombardment import Building
from battletracker.model.bombardment import SmokeArea
from battletracker.model.bombardment import check_bombardment
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.game import Side
from battletracker.model.savefile import SaveFileError


def bombardment_game() -> Game:
    game = Game(title="Bombardment", sides=[Side("British", "#3366cc", 9, 2), Side("German", "#cc3333", 8, 1)])
    game.bombardments = {
        "b1": Bombardment("b1", 0, state="firing", observer_id="fo1", x=20.0, y=30.0, phases_left=3,
                          phases_fired=2, pattern_die=5, revealed=True, direction="right", moves_left=1,
                          pinned=["u1", "u2"],
                          history=[BombardmentEvent(1, 2, "ranging", "Ranging shot 6", 29.0, 20.0, 20.0, 20.0,
                                                    {"roll": 6, "distance": 9.0, "result": "deviates"})]),
        "sos1": Bombardment("sos1", 1, kind="sos", state="lingering", x=40.0, y=10.0, linger_phases=2,
                            shape="circle", radius=6.0),
        "b2": Bombardment("b2", 1, kind="smoke", state="landed", x=5.0, y=6.0, landed_x=7.5, landed_y=9.0,
                          unobserved_attempts=2, phases_left=4),
    }
    game.buildings = {
        "bld1": Building("bld1", "Farmhouse", 36.0, 22.0, 6.0, 4.0, 30.0, "brick_stone", 2, ["u2"], "unstable"),
        "bld2": Building("bld2", "Barn", 10.0, 10.0, material="wood"),
    }
    game.smoke = {"smoke1": SmokeArea("smoke1", 12.0, 14.0, 6.0, 4.0, 0.0, "collapse:bld9", -1)}
    return game


def test_a_new_game_has_no_bombardments_buildings_or_smoke() -> None:
    game = Game()
    assert game.bombardments == {} and game.buildings == {} and game.smoke == {}


def test_bombardments_buildings_and_smoke_survive_a_save_exactly() -> None:
    game = bombardment_game()
    again = savefile.loads(savefile.dumps(game))
    assert again == game
    assert list(again.bombardments) == ["b1", "sos1", "b2"]
    assert savefile.dumps(again) == savefile.dumps(game)


def test_an_old_save_without_the_new_fields_still_loads() -> None:
    doc = {"format": "battletracker", "version": 1,
           "game": {"title": "Old", "ruleset": "chain_of_command", "table_width": 72, "table_height": 48,
                    "sides": [{"name": "A", "colour": "#112233"}]}}
    game = savefile.loads(json.dumps(doc).encode())
    assert game.bombardments == {} and game.buildings == {} and game.smoke == {}


def _doc(game: Game) -> dict[str, Any]:
    return json.loads(savefile.dumps(game))  # type: ignore[no-any-return]


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        target: Any = doc["game"]
        parts = path.split(".")
        for part in parts[:-1]:
            target = target[int(part)] if part.isdigit() else target[part]
        target[parts[-1]] = value
    return edit


@pytest.mark.parametrize(("edit", "message"), [
    (_set("bombardments.0.state", "exploded"), r"game.bombardments\[0\].state: must be one of ranging"),
    (_set("bombardments.0.kind", "nuclear"), r"game.bombardments\[0\].kind: must be one of high_explosive"),
    (_set("bombardments.0.side", 5), r"game.bombardments\[0\].side: there is no side number 6"),
    (_set("bombardments.0.pattern_die", 7), r"game.bombardments\[0\]: .*die shows 1-6, not 7"),
    (_set("bombardments.0.phases_left", 0), r"game.bombardments\[0\]: .*needs Phases left"),
    (_set("bombardments.0.direction", "sideways"), r"game.bombardments\[0\].direction: must be one of up"),
    (_set("bombardments.0.width", 0), r"game.bombardments\[0\]: .*must be more than 0"),
    (_set("bombardments.0.to_hit", 7), r"game.bombardments\[0\]: .*score to hit is 2-6, not 7"),
    (_set("bombardments.0.pinned", ["u1", "u1"]), r"game.bombardments\[0\].pinned: lists the same name twice"),
    (_set("bombardments.0.history.0.kind", "party"), r"history\[0\].kind: must be one of placed"),
    (_set("bombardments.0.history.0.turn", 0), r"history\[0\].turn: must be at least 1, not 0"),
    (_set("bombardments.1.linger_phases", 0), r"game.bombardments\[1\]: .*need at least one Phase end"),
    (_set("bombardments.2.landed_y", None), r"game.bombardments\[2\]: .*landing point needs both x and y"),
    (_set("bombardments.1.id", "b1"), r"game.bombardments\[1\]: the id 'b1' is used twice"),
    (_set("bombardments.0.x", "left"), r"game.bombardments\[0\].x: must be a number"),
    (_set("buildings.0.material", "straw"), r"game.buildings\[0\].material: must be one of wood, brick_stone"),
    (_set("buildings.0.state", "haunted"), r"game.buildings\[0\].state: must be one of intact"),
    (_set("buildings.0.storeys", 0), r"game.buildings\[0\].storeys: must be at least 1, not 0"),
    (_set("buildings.0.occupants", ["u2", "u2"]), r"game.buildings\[0\].occupants: lists the same name twice"),
    (_set("buildings.1.id", "bld1"), r"game.buildings\[1\]: the id 'bld1' is used twice"),
    (_set("smoke.0.width", -1), r"game.smoke\[0\]: .*width and depth must be more than 0"),
    (_set("smoke.0.to_hit", 1.5), r"game.smoke\[0\].to_hit: must be a whole number"),
    (_set("bombardments", {}), r"game.bombardments: must be a list"),
])
def test_broken_bombardment_data_is_refused_naming_the_place(edit: Callable[[dict[str, Any]], None],
                                                             message: str) -> None:
    doc = _doc(bombardment_game())
    edit(doc)
    with pytest.raises(SaveFileError, match=message):
        savefile.loads(json.dumps(doc).encode())


def test_rectangular_and_circular_areas() -> None:
    b = Bombardment("b", 0, x=20.0, y=20.0, width=18.0, depth=12.0)
    assert b.contains((29.0, 26.0)) and b.contains((11.0, 14.0))
    assert not b.contains((29.1, 20.0)) and not b.contains((20.0, 26.1))
    assert b.contains((38.0, 20.0), centre=(29.0, 20.0))
    assert b.outline() == [(11.0, 14.0), (29.0, 14.0), (29.0, 26.0), (11.0, 26.0)]
    turned = Bombardment("t", 0, x=20.0, y=20.0, width=18.0, depth=12.0, facing=90.0)
    assert turned.contains((20.0, 29.0)) and not turned.contains((29.0, 20.0))
    circle = Bombardment("c", 0, x=0.0, y=0.0, shape="circle", radius=6.0)
    assert circle.contains((6.0, 0.0)) and not circle.contains((4.3, 4.3)) and circle.outline() == []


def test_the_hidden_die_is_visible_to_its_owner_and_to_everyone_once_revealed() -> None:
    b = Bombardment("b", 1, pattern_die=5)
    assert b.pattern_visible_to(1) and not b.pattern_visible_to(0) and not b.pattern_visible_to(None)
    b.revealed = True
    assert b.pattern_visible_to(0) and b.pattern_visible_to(None)


def test_active_states_and_the_observer_on_the_table() -> None:
    assert [s for s in ("ranging", "landed", "ready", "firing", "lingering", "cleared")
            if Bombardment("b", 0, state=s, phases_left=1, linger_phases=1).active] == ["ready", "firing", "lingering"]
    assert not Bombardment("b", 0, state="lingering", linger_phases=1).observer_on_table


def test_a_building_footprint_and_smoke_across_a_line_of_fire() -> None:
    house = Building("h", "House", 10.0, 10.0, 6.0, 4.0)
    assert house.contains((12.9, 11.9)) and not house.contains((13.1, 10.0))
    assert len(house.outline()) == 4
    smoke = SmokeArea("s", 10.0, 10.0, 4.0, 2.0)
    assert smoke.crosses((0.0, 10.0), (20.0, 10.0))
    assert smoke.crosses((0.0, 0.0), (20.0, 20.0))
    assert not smoke.crosses((0.0, 0.0), (20.0, 0.0))
    assert smoke.crosses((10.0, 10.0), (30.0, 30.0))
    assert smoke.crosses((8.0, 0.0), (8.0, 9.0))


def test_turned_rectangles_in_geometry() -> None:
    corners = geometry.rectangle_corners((0.0, 0.0), 4.0, 2.0, 90.0)
    assert all(math.isclose(abs(x), 1.0) and math.isclose(abs(y), 2.0) for x, y in corners)
    assert geometry.in_rectangle((0.0, 0.0), 4.0, 2.0, 45.0, (1.0, 1.0))
    assert not geometry.in_rectangle((0.0, 0.0), 4.0, 2.0, 45.0, (1.5, -1.5))
    assert geometry.segment_crosses_rectangle((-5.0, 3.0), (5.0, -3.0), (0.0, 0.0), 1.0, 1.0)
    assert not geometry.segment_crosses_rectangle((-5.0, 3.0), (-4.0, 3.0), (0.0, 0.0), 1.0, 1.0)


def test_the_consistency_check_names_what_is_wrong() -> None:
    with pytest.raises(GameError, match="a bombardment needs an id"):
        check_bombardment(Bombardment("", 0))
    with pytest.raises(GameError, match="ranging shot that landed needs its landing point"):
        check_bombardment(Bombardment("b", 0, state="landed"))
    with pytest.raises(GameError, match="not a position on the table"):
        check_bombardment(Bombardment("b", 0, x=math.inf))
    with pytest.raises(GameError, match="Phases left cannot be negative"):
        check_bombardment(Bombardment("b", 0, phases_left=-1))
    with pytest.raises(GameError, match="at least one Firepower Die"):
        check_bombardment(Bombardment("b", 0, firepower_dice=0))
