"""A turn on the spot and a unit's edit that moves it read the same activation and bombardment ban as a move.

Turning a tripod MG swings its arc of fire, and the edit dialog's X and Y put
the unit somewhere else on the table: neither may be a way round "a unit acts
only once activated, in its own side's Phase" or "they cannot move" (000).
"""

from __future__ import annotations

import copy

import pytest

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules import ChoiceNeeded
from battletracker.rules import RulesInputError
from battletracker.rules.actions import Choices
from battletracker.rules.actions import perform
from battletracker.rules.actions import plan
from battletracker.rules.table_actions import unit_choice
from battletracker.rules.tables import resources_dir

TIME = "2026-12-02T10:00:00"
GRUPPE, GRUPPE_2, MG, KRAUS, SQUAD = "u1", "u2", "u3", "u5", "u7"


def demo() -> Game:
    return savefile.load(resources_dir() / "demo" / "chain_of_command.json")


def act(game: Game, name: str, choices: Choices, dice: list[int] | None = None) -> None:
    before = savefile.dumps(game)
    inverses = game.apply_all(perform(game, name, choices, list(dice or []), time=TIME).effects)
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert savefile.dumps(game) == before
    game.apply_all(perform(game, name, choices, list(dice or []), time=TIME).effects)


def refused(game: Game, name: str, choices: Choices) -> str:
    with pytest.raises(RulesInputError) as caught:
        plan(name, game, choices)
    return str(caught.value)


def edited(game: Game, unit_id: str, **changes: float) -> str:
    unit = copy.deepcopy(game.unit(unit_id))
    for key, value in changes.items():
        setattr(unit, key, value)
    return unit_choice(unit)


def test_turning_reads_the_phase_and_the_activation_like_a_move() -> None:
    game = demo()
    act(game, "unit.turn", {"unit": MG, "facing": 90.0})  # setting up the table: free
    act(game, "coc.command_dice", {}, [2, 4, 1, 3, 5])
    assert "It is the Germany Phase" in refused(game, "unit.turn", {"unit": SQUAD, "facing": 90.0})
    with pytest.raises(ChoiceNeeded) as asked:
        plan("unit.turn", game, {"unit": MG, "facing": 120.0})
    assert asked.value.options == (("dice:1", "a held Command Dice 1"),)
    act(game, "unit.turn", {"unit": MG, "facing": 120.0, "activation": "dice:1"})
    assert game.unit(MG).facing == 120.0
    assert game.sides[0].held_dice == [2, 3, 4]
    act(game, "unit.turn", {"unit": MG, "facing": 150.0})  # activated: it turns again


def test_a_unit_under_a_bombardment_is_not_turned_out_of_its_ban() -> None:
    game = demo()
    act(game, "coc.new_bombardment", {"side": 0, "kind": "high_explosive", "phases": 3, "x": 22.0, "y": 38.0,
                                      "observer_x": 10.0, "observer_y": 10.0})
    game.bombardments["b1"].state = "firing"
    act(game, "coc.command_dice", {}, [2, 4, 3, 3, 5])
    act(game, "clock.end_phase", {})
    act(game, "coc.command_dice", {}, [2, 2, 3, 3, 5])
    assert "cannot move" in refused(game, "unit.turn", {"unit": SQUAD, "facing": 90.0, "activation": "dice:2"})


def test_an_edit_that_moves_the_unit_is_a_move() -> None:
    game = demo()
    act(game, "unit.edit", {"unit": edited(game, GRUPPE, x=21.0)})  # setting up the table: free
    act(game, "coc.command_dice", {}, [2, 4, 1, 3, 5])
    assert "It is the Germany Phase" in refused(game, "unit.edit", {"unit": edited(game, SQUAD, x=25.0)})
    text = refused(game, "unit.edit", {"unit": edited(game, GRUPPE, x=25.0)})
    assert "has not been activated this Phase" in text
    assert game.unit(GRUPPE).x == 21.0
    # Anything else on the card is edited as before; an activated unit's edit moves it.
    act(game, "unit.edit", {"unit": edited(game, GRUPPE, figures=9)})
    act(game, "coc.activate", {"unit": GRUPPE, "activation": "dice:2"})
    act(game, "unit.edit", {"unit": edited(game, GRUPPE, x=25.0)})
    assert game.unit(GRUPPE).x == 25.0
    act(game, "coc.shoot", {"firer": GRUPPE, "target": SQUAD}, [1] * 7)
    assert "it cannot move after firing" in refused(game, "unit.edit", {"unit": edited(game, GRUPPE, x=26.0)})


def test_an_edit_does_not_take_a_unit_out_of_a_bombardment() -> None:
    game = demo()
    act(game, "coc.new_bombardment", {"side": 0, "kind": "high_explosive", "phases": 3, "x": 22.0, "y": 38.0,
                                      "observer_x": 10.0, "observer_y": 10.0})
    game.bombardments["b1"].state = "firing"
    assert "cannot move" in refused(game, "unit.edit", {"unit": edited(game, SQUAD, x=22.0, y=20.0)})


def test_the_orders_menus_offer_only_what_the_plan_allows() -> None:
    """order_targets is what the card's and the This Phase dock's Orders menus list: each entry is accepted."""
    from battletracker.model.effects import ChangeCounter
    from battletracker.model.effects import SetCondition
    from battletracker.rules.chain_of_command.activation import order_targets

    game = demo()
    act(game, "coc.command_dice", {}, [2, 4, 1, 3, 5])
    act(game, "coc.activate", {"unit": KRAUS, "activation": "dice:4"})
    game.apply(ChangeCounter(GRUPPE_2, "shock", 2))

    def offered() -> dict[str, list[str]]:
        return {kind: [u.id for u in order_targets(game, game.unit(KRAUS), kind)] for kind in ("activate", "rally")}

    def accepted(kind: str, unit_id: str) -> bool:
        try:
            plan("coc.order", game, {"leader": KRAUS, "unit": unit_id, "order": kind})
        except RulesInputError:
            return False
        return True

    assert offered()["activate"] and offered()["rally"] == [GRUPPE_2]
    for settings in ({"order_activates": False}, {"order_rallies_shock": 0}):
        game.settings.clear()
        game.settings.update(settings)
        for kind, units in offered().items():
            assert all(accepted(kind, u) for u in units), (settings, kind, units)
    # A Leader gone off the table after his activation gives no Order.
    game.settings.clear()
    game.apply(SetCondition(KRAUS, "out_of_play"))
    assert "out of play" in refused(game, "coc.order", {"leader": KRAUS, "unit": GRUPPE_2})
    assert offered() == {"activate": [], "rally": []}
