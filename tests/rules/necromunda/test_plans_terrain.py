"""A Necromunda Shoot reads Line of Sight and cover from the terrain on the table; the player's word is logged."""

from __future__ import annotations

import pytest

from battletracker.model.game import Game
from battletracker.model.terrain import TerrainPiece
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules.actions import plan
from battletracker.rules.necromunda.plans import attack_plan
from battletracker.rules.necromunda.plans import cover_to_hit
from battletracker.rules.necromunda.plans import map_cover
from battletracker.rules.necromunda.plans import measured_range
from tests.rules.necromunda.test_plans import autogun
from tests.rules.necromunda.test_plans import fighter
from tests.rules.necromunda.test_plans import game_of

# Kal shoots from (10, 10) at Mira at (10, 20).
RUINS = TerrainPiece("t1", "Ruins", "ruins", "area", [(8.0, 18.0), (12.0, 18.0), (12.0, 22.0), (8.0, 22.0)])
BARRICADE = TerrainPiece("t2", "Barricade", "barricade", "linear", [(6.0, 19.5), (14.0, 19.5)])
BULKHEAD = TerrainPiece("t3", "Bulkhead wall", "bulkhead", "linear", [(5.0, 15.0), (15.0, 15.0)])


def shooters(*pieces: TerrainPiece) -> Game:
    game = game_of(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("b", "Mira", 1, 10, 20))
    game.terrain = {p.id: p for p in pieces}
    return game


def test_cover_is_read_from_the_map_and_changes_the_hit_roll() -> None:
    assert cover_to_hit() == {"none": 0, "partial": -1, "full": -2}
    assert attack_plan(shooters(), {"firer": "a", "target": "b"}).inputs["other_modifier"] == 0
    in_ruins = attack_plan(shooters(RUINS), {"firer": "a", "target": "b"})
    assert in_ruins.inputs["other_modifier"] == -1 and "Partial cover: in Ruins: -1 to hit" in in_ruins.facts
    behind = attack_plan(shooters(BARRICADE), {"firer": "a", "target": "b", "modifier": 1})
    assert behind.inputs["other_modifier"] == 0 and "Partial cover: behind Barricade: -1 to hit" in behind.facts
    assert odds(in_ruins.procedure, in_ruins.inputs) != odds(in_ruins.procedure,
                                                              {**in_ruins.inputs, "other_modifier": 0})


def test_the_range_and_cover_the_dialog_starts_at_are_the_plans_reading() -> None:
    game = shooters(RUINS)
    kal, mira = game.units["a"], game.units["b"]
    mira.x = 10.34
    assert measured_range(kal, mira) == 10.0
    cover = map_cover(game, kal, mira)
    assert (cover.level, cover.reason) == ("partial", "Partial cover: in Ruins")
    assert map_cover(shooters(), kal, mira).level == "none"
    planned = attack_plan(game, {"firer": "a", "target": "b", "range": measured_range(kal, mira),
                                 "cover": cover.level})
    assert planned.log == ()
    assert 'Range 10.0" \u2014 long range.' in planned.facts and "Partial cover: in Ruins: -1 to hit" in planned.facts


def test_the_players_cover_overrides_the_map_and_is_logged() -> None:
    game = shooters(RUINS)
    choices = {"firer": "a", "target": "b", "cover": "full", "cover_reason": "behind the pipes"}
    planned = plan("necro.attack", game, choices)
    line = "Cover Full (player: 'behind the pipes'; the map: Partial cover: in Ruins)"
    assert planned.inputs["other_modifier"] == -2 and planned.log == (line,)
    with pytest.raises(RulesInputError, match="Cover is one of none, partial, full"):
        attack_plan(game, {**choices, "cover": "heavy"})


def test_a_target_behind_a_bulkhead_is_refused_unless_the_player_gives_sight() -> None:
    game = shooters(BULKHEAD)
    with pytest.raises(RulesInputError) as refused:
        attack_plan(game, {"firer": "a", "target": "b"})
    assert "No Line of Sight: Bulkhead wall is in the way: Kal cannot see Mira on the map" in str(refused.value)
    given = plan("necro.attack", game, {"firer": "a", "target": "b", "sight": True, "sight_reason": "a gap"})
    assert given.log == ("Line of Sight given (player: 'a gap'; the map: No Line of Sight: Bulkhead wall is in "
                         "the way)",)


def test_target_priority_skips_an_enemy_the_map_hides_unless_the_player_sees_it() -> None:
    game = game_of(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("b", "Mira", 1, 20, 10),
                   fighter("c", "Vex", 1, 10, 17), toolkit_target_priority=True)
    assert attack_plan(game, {"firer": "a", "target": "b"}).inputs["cool"] == 7   # Vex is the closest
    game.terrain = {"t3": BULKHEAD}
    hidden = attack_plan(game, {"firer": "a", "target": "b"})
    assert "cool" not in hidden.inputs
    seen = attack_plan(game, {"firer": "a", "target": "b", "in_sight": "c"})
    assert seen.inputs["cool"] == 7
