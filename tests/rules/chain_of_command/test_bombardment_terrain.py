"""A Bombardment's and SOS Fire's cover read from the table: area terrain kept, linear obstacles giving none."""

from __future__ import annotations

from battletracker.model.effects import AppendLog
from battletracker.model.terrain import TerrainPiece
from battletracker.rules.actions import plan
from battletracker.rules.terrain import TableIndex
from battletracker.rules.terrain_actions import terrain_choice
from tests.rules.chain_of_command.test_bombardment_actions import Table
from tests.rules.chain_of_command.test_bombardment_actions import _replays

# 1 Gruppe ("a") stands at (25, 20); 2 Gruppe ("b") is in the brick Farmhouse at (36, 22).
COPSE = TerrainPiece("t1", "Copse", "woods", "area", [(23.0, 18.0), (27.0, 18.0), (27.0, 22.0), (23.0, 22.0)])
WALL = TerrainPiece("t2", "Stone wall", "wall", "linear", [(20.0, 19.5), (30.0, 19.5)])


def firing(t: Table) -> None:
    """The bombardment of test_bombardment_actions, ready to fire on (29, 20)."""
    t.act("coc.new_bombardment", {"side": 0, "kind": "high_explosive", "phases": 6, "x": 20.0, "y": 20.0,
                                  "observer_x": 5.0, "observer_y": 5.0})
    t.roll()
    t.act("coc.ranging_shot", {"bombardment": "b1"}, [1, 2])
    t.act("clock.end_phase", {})
    t.act("clock.end_phase", {})
    t.roll()
    t.act("coc.ranging_shot", {"bombardment": "b1", "bearing": 90.0}, [3, 2, 2, 3, 4])
    t.act("clock.end_phase", {})
    t.act("clock.end_phase", {})
    t.roll()
    t.act("coc.fire_for_effect", {"bombardment": "b1"})
    t.act("coc.hidden_die", {"bombardment": "b1", "face": 5, "direction": "right"})


def test_a_bombardment_keeps_the_cover_of_area_terrain_and_buildings() -> None:
    t = Table()
    firing(t)
    t.game.terrain["t1"] = COPSE
    p = plan("coc.bombardment_phase", t.game, {"bombardment": "b1", "activation": "begun"})
    assert [p.inputs[f"target{i}_id"] for i in (1, 2)] == ["a", "b"]
    assert p.inputs["target1_cover"] == "light" and p.inputs["target2_cover"] == "hard"
    assert "1 Gruppe: Light cover: in Copse" in p.facts and "2 Gruppe: Hard cover: in Farmhouse" in p.facts
    assert p.log == ()


def test_a_wall_gives_no_cover_from_a_bombardment_though_it_does_from_a_firer_beyond_it() -> None:
    t = Table()
    firing(t)
    t.game.terrain["t2"] = WALL
    assert TableIndex(t.game).cover_against((25.0, 5.0), t.game.units["a"]).level == "hard"
    p = plan("coc.bombardment_phase", t.game, {"bombardment": "b1", "activation": "begun"})
    assert p.inputs["target1_cover"] == "open"
    assert "1 Gruppe: In the open (a wall or hedge gives no cover from above)" in p.facts


def test_the_players_cover_for_a_unit_is_logged_with_its_reason_and_replays() -> None:
    t = Table()
    firing(t)
    t.act("terrain.add", {"piece": terrain_choice(COPSE)})
    choices = {"bombardment": "b1", "activation": "begun", "cover.a": "hard", "cover_reason.a": "in foxholes"}
    res = t.act("coc.bombardment_phase", choices, [1] * 6 + [1] * 6 + [1, 1])
    line = "1 Gruppe: Cover Hard (player: 'in foxholes'; the map: Light cover: in Copse)"
    assert line in [e.entry.text for e in res.effects if isinstance(e, AppendLog)]
    assert t.game.log[-1].text == line
    _replays(t.game)


def test_sos_fire_reads_the_same_cover_and_logs_a_change() -> None:
    t = Table()
    t.game.terrain.update({"t1": COPSE, "t2": WALL})
    t.act("coc.new_sos", {"side": 0, "x": 25.0, "y": 20.0})
    p = plan("coc.sos_fire", t.game, {"bombardment": "sos1", "target": "a"})
    assert p.inputs["cover"] == "light" and "1 Gruppe: Light cover: in Copse" in p.facts and p.log == ()
    del t.game.terrain["t1"]
    assert plan("coc.sos_fire", t.game, {"bombardment": "sos1", "target": "a"}).inputs["cover"] == "open"
    changed = plan("coc.sos_fire", t.game, {"bombardment": "sos1", "target": "a", "cover": "light",
                                            "cover_reason": "long grass"})
    assert changed.log == ("1 Gruppe: Cover Light (player: 'long grass'; the map: In the open (a wall or hedge "
                           "gives no cover from above))",)
