"""Who may act now in Chain of Command, read by every plan: activation by Command Dice and by Leaders' Orders.

The demo's German Phase and American Phase are played through `plan`/`perform`
alone, with scripted dice: what the rules forbid is refused in words, every
step undoes to the same bytes, and the saved game replays.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from battletracker.core.dice import Face
from battletracker.model import savefile
from battletracker.model.effects import Effect
from battletracker.model.game import Game
from battletracker.rules import ChoiceNeeded
from battletracker.rules import RulesInputError
from battletracker.rules.actions import Choices
from battletracker.rules.actions import perform
from battletracker.rules.actions import plan
from battletracker.rules.chain_of_command.activation import activated_words
from battletracker.rules.chain_of_command.activation import ways
from battletracker.rules.replay import replay_steps
from battletracker.rules.tables import resources_dir

TIME = "2026-12-02T10:00:00"
GRUPPE, GRUPPE_2, MG, SCHRECK, KRAUS, PANZER = "u1", "u2", "u3", "u4", "u5", "u6"
SQUAD, SQUAD_2, SNIPER, HAYES, SHERMAN = "u7", "u8", "u9", "u10", "u11"


def demo() -> Game:
    return savefile.load(resources_dir() / "demo" / "chain_of_command.json")


def act(game: Game, name: str, choices: Choices, dice: list[Face] | None = None) -> list[Effect]:
    """Take the action as the app does (one step) and check that undoing it restores the game to the byte."""
    before = savefile.dumps(game)
    inverses = game.apply_all(perform(game, name, choices, dice or [], time=TIME).effects)
    after = savefile.dumps(game)
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert savefile.dumps(game) == before
    game.apply_all(perform(game, name, choices, dice or [], time=TIME).effects)
    assert savefile.dumps(game) == after
    return inverses


def refused(game: Game, name: str, choices: Choices) -> str:
    with pytest.raises(RulesInputError) as caught:
        plan(name, game, choices)
    return str(caught.value)


def test_nothing_acts_before_its_side_has_rolled_or_in_the_other_sides_phase() -> None:
    game = demo()
    assert "Roll Germany's Command Dice for this Phase first" in refused(game, "coc.shoot",
                                                                         {"firer": GRUPPE, "target": SQUAD})
    assert "It is the Germany Phase: 1st Squad acts only in a United States Phase" in refused(
        game, "coc.shoot", {"firer": SQUAD, "target": GRUPPE})
    assert "acts only in a United States Phase" in refused(game, "coc.at_fire",
                                                          {"firer": SHERMAN, "target": PANZER})


def test_a_german_phase_a_section_on_a_2_fires_once_and_a_senior_leader_on_a_4_orders_units_in_range() -> None:
    game = demo()
    act(game, "coc.command_dice", {}, [2, 4, 1, 3, 5])
    assert game.sides[0].held_dice == [1, 2, 3, 4]
    # Not activated: the plan asks how, offering only what the side has now.
    with pytest.raises(ChoiceNeeded) as asked:
        plan("coc.shoot", game, {"firer": GRUPPE, "target": SQUAD})
    assert asked.value.options == (("dice:2", "a held Command Dice 2"),)
    # A 4 never stands in for a 2: a Section is not offered it.
    assert "cannot be activated that way now" in refused(game, "coc.shoot", {"firer": GRUPPE, "target": SQUAD,
                                                                             "activation": "dice:4"})
    act(game, "coc.shoot", {"firer": GRUPPE, "target": SQUAD, "activation": "dice:2"}, [1] * 7)
    assert game.sides[0].held_dice == [1, 3, 4]
    assert activated_words(game, game.unit(GRUPPE)) == "Activated (Command Dice 2): fired"
    assert "1. Gruppe has already fired this Phase (Turn 1, Phase 1)" in refused(
        game, "coc.shoot", {"firer": GRUPPE, "target": SQUAD})
    assert "has already been activated this Phase" in refused(game, "coc.activate",
                                                              {"unit": GRUPPE, "activation": "dice:3"})
    # Leutnant Kraus on the 4: his two Orders go to units of his command within 9".
    act(game, "coc.activate", {"unit": KRAUS, "activation": "dice:4"})
    assert "sMG42 team is 15.8\" from Leutnant Kraus, beyond its Command Range of 9\"" in refused(
        game, "coc.order", {"leader": KRAUS, "unit": MG})
    act(game, "coc.order", {"leader": KRAUS, "unit": GRUPPE_2})
    act(game, "coc.order", {"leader": KRAUS, "unit": SCHRECK})
    assert "Leutnant Kraus has no Order left this Phase" in refused(game, "coc.order",
                                                                   {"leader": KRAUS, "unit": MG})
    assert "Order from Leutnant Kraus" in activated_words(game, game.unit(GRUPPE_2))
    # The ordered Section moves, then fires; it may not move again after firing.
    act(game, "unit.move", {"unit": GRUPPE_2, "x": 34.0, "y": 13.0})
    act(game, "coc.shoot", {"firer": GRUPPE_2, "target": SQUAD_2}, [1] * 7)
    assert "it cannot move after firing" in refused(game, "unit.move", {"unit": GRUPPE_2, "x": 34.0, "y": 15.0})
    # The sMG42 team needs a 1 and the 1 is held: a tripod MG activated in the dialog's step.
    assert [w.key for w in ways(game, game.unit(MG))] == ["dice:1"]


def test_a_destroyed_tank_is_never_offered_activation() -> None:
    game = demo()
    act(game, "coc.command_dice", {}, [3, 3, 1, 2, 5])
    assert [w.key for w in ways(game, game.unit(PANZER))] == ["dice:3", "dice:1+2"]
    game.unit(PANZER).vehicle.damage.append("destroyed")  # type: ignore[union-attr]
    assert ways(game, game.unit(PANZER)) == []
    assert "Panzer IV H is destroyed" in refused(game, "coc.activate", {"unit": PANZER, "activation": "dice:3"})


def test_dice_combine_to_a_higher_face_never_a_lower_and_not_when_the_setting_is_off() -> None:
    game = demo()
    act(game, "coc.command_dice", {}, [1, 1, 2, 6, 6])
    kraus = game.unit(KRAUS)
    assert [w.key for w in ways(game, kraus)] == ["dice:1+1+2"]
    assert [w.key for w in ways(game, game.unit(GRUPPE))] == ["dice:2", "dice:1+1"]
    game.settings["command_dice_combine"] = False
    assert ways(game, kraus) == []
    assert "needs a Command Dice 4 (a Senior Leader)" in refused(game, "coc.activate", {"unit": KRAUS})


def test_the_american_phase_follows_and_a_german_unit_is_refused_in_it() -> None:
    game = demo()
    act(game, "coc.command_dice", {}, [2, 3, 3, 5, 5])
    act(game, "clock.end_phase", {})
    assert game.active_side == 1
    assert "It is the United States Phase" in refused(game, "coc.shoot", {"firer": GRUPPE, "target": SQUAD})
    act(game, "coc.command_dice", {}, [1, 2, 3, 3, 5])
    act(game, "coc.shoot", {"firer": SNIPER, "target": GRUPPE, "activation": "dice:1"}, [1])
    act(game, "coc.activate", {"unit": SQUAD, "activation": "dice:2"})
    act(game, "unit.move", {"unit": SQUAD, "x": 22.0, "y": 36.0})
    act(game, "coc.shoot", {"firer": SQUAD, "target": GRUPPE}, [1] * 5)
    assert "has already fired this Phase" in refused(game, "coc.shoot", {"firer": SQUAD, "target": GRUPPE})


def test_a_move_before_the_first_command_dice_is_setting_up_the_table() -> None:
    game = demo()
    act(game, "unit.move", {"unit": SQUAD, "x": 22.0, "y": 36.0})
    act(game, "coc.command_dice", {}, [2, 4, 1, 3, 5])
    with pytest.raises(ChoiceNeeded):
        plan("unit.move", game, {"unit": GRUPPE, "x": 20.0, "y": 12.0})
    act(game, "unit.move", {"unit": GRUPPE, "x": 20.0, "y": 12.0, "activation": "dice:2"})
    assert game.sides[0].held_dice == [1, 3, 4]


def test_the_played_phases_save_and_replay(tmp_path: Path) -> None:
    game = demo()
    act(game, "coc.command_dice", {}, [2, 4, 1, 3, 5])
    act(game, "coc.shoot", {"firer": GRUPPE, "target": SQUAD, "activation": "dice:2"}, [1] * 7)
    act(game, "coc.activate", {"unit": KRAUS, "activation": "dice:4"})
    act(game, "coc.order", {"leader": KRAUS, "unit": GRUPPE_2})
    act(game, "clock.end_phase", {})
    path = tmp_path / "played.battle"
    savefile.save(game, path)
    loaded = savefile.load(path)
    replayed, steps = replay_steps(loaded)
    assert len(steps) == 5
    assert savefile.game_to_dict(replayed) == savefile.game_to_dict(game)


def test_a_unit_under_a_bombardment_neither_fires_nor_is_fired_at_nor_moves_whatever_the_line_of_sight() -> None:
    game = demo()
    act(game, "coc.new_bombardment", {"side": 0, "kind": "high_explosive", "phases": 3, "x": 22.0, "y": 38.0,
                                      "observer_x": 10.0, "observer_y": 10.0})
    game.bombardments["b1"].state = "firing"  # begun: its area has effects on the table
    act(game, "coc.command_dice", {}, [2, 4, 3, 3, 5])
    shot = {"firer": GRUPPE, "target": SQUAD, "sight": True, "sight_reason": "we see them", "activation": "dice:2"}
    assert "1st Squad is under" in refused(game, "coc.shoot", shot)
    assert "cannot be fired at, whatever the Line of Sight" in refused(game, "coc.shoot", shot)
    assert game.sides[0].held_dice == [2, 3, 3, 4]
    act(game, "clock.end_phase", {})
    act(game, "coc.command_dice", {}, [2, 2, 3, 3, 5])
    assert "units in a bombardment area cannot fire" in refused(
        game, "coc.shoot", {"firer": SQUAD, "target": GRUPPE, "sight": True, "activation": "dice:2"})
    assert "cannot move" in refused(game, "unit.move", {"unit": SQUAD, "x": 22.0, "y": 30.0, "activation": "dice:2"})
    # 2nd Squad, outside the area, fires as usual.
    act(game, "coc.shoot", {"firer": SQUAD_2, "target": GRUPPE_2, "sight": True, "activation": "dice:2"}, [1] * 5)


def test_the_other_side_gains_the_points_its_setting_gives_when_the_active_side_rolls_two_sixes() -> None:
    game = demo()
    act(game, "coc.command_dice", {}, [6, 6, 1, 2, 3])
    assert (game.sides[1].coc_points, game.sides[1].coc_tally) == (2, 0), "by default the other side gains nothing"
    game = demo()
    game.settings["command_dice_opponent_points_on_sixes"] = 2
    act(game, "coc.command_dice", {}, [6, 6, 1, 2, 3])
    assert (game.sides[1].coc_points, game.sides[1].coc_tally) == (2, 2)
    assert game.log[-1].text == "United States gains 2 Chain of Command points"
    game = demo()
    game.settings["command_dice_opponent_points_on_sixes"] = 2
    act(game, "coc.command_dice", {}, [6, 1, 1, 2, 3])
    assert game.sides[1].coc_tally == 0, "one 6 is not enough"
