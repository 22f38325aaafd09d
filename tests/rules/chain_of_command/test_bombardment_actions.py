"""Each bombardment action through `perform`: planned from the table, recorded, undone exactly, replayed.

The game is the Medium Mortar one of test_bombardment_end_to_end.py; every
step here is a named action with the player's choices and the dice rolled, so
the saved game's history replays to the same state.
"""

from __future__ import annotations

from typing import Any

import pytest

from battletracker.model import savefile
from battletracker.model.effects import Effect
from battletracker.model.game import Game
from battletracker.rules.actions import Choices
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import perform
from battletracker.rules.actions import plan
from battletracker.rules.base import Resolution
from battletracker.rules.base import RulesInputError
from battletracker.rules.replay import replay_steps
from tests.rules.chain_of_command.test_bombardment_end_to_end import face
from tests.rules.chain_of_command.test_bombardment_end_to_end import start


class Table:
    """A game and the undo of each action applied to it."""

    def __init__(self) -> None:
        self.game = start()
        self.undo: list[tuple[dict[str, Any], list[Effect]]] = []

    def act(self, name: str, choices: Choices, dice: list[int] | None = None) -> Resolution:
        before = savefile.game_to_dict(self.game)
        res = perform(self.game, name, choices, dice if dice is not None else [], time="2026-01-01T10:00:00")
        self.undo.append((before, self.game.apply_all(res.effects)))
        assert self.game.actions[-1].name == name and dict(self.game.actions[-1].choices) == dict(choices)
        assert list(self.game.actions[-1].dice) == (dice or [])
        return res

    def roll(self, faces: list[int] | None = None) -> None:
        """The active side rolls its Command Dice: the Forward Observer's activations wait for it."""
        self.act("coc.command_dice", {}, faces or [1, 2, 3, 4, 4])

    def undo_all(self) -> None:
        while self.undo:
            before, inverse = self.undo.pop()
            self.game.apply_all(inverse[::-1])
            assert savefile.game_to_dict(self.game) == before


def _replays(game: Game) -> None:
    loaded = savefile.loads(savefile.dumps(game))
    replayed, _steps = replay_steps(loaded)
    assert savefile.state_dict(replayed) == savefile.state_dict(game)


def test_new_bombardment_ranging_fire_for_effect_hidden_die_and_phases_are_actions() -> None:
    t = Table()
    g = t.game
    t.act("coc.new_bombardment", {"side": 0, "kind": "high_explosive", "phases": 6, "x": 20.0, "y": 20.0,
                                  "observer_x": 5.0, "observer_y": 5.0})
    b = g.bombardments["b1"]
    assert (b.state, b.phases_left, b.centre) == ("ranging", 6, (20.0, 20.0))
    assert g.log[-1].text.endswith("aiming point 5\" west of 1 Gruppe") and g.log[-1].kind == "bombardment"

    t.roll()
    res = t.act("coc.ranging_shot", {"bombardment": "b1"}, [1, 2])
    assert res.outcome == "unobserved" and b.unobserved_attempts == 1
    assert g.sides[0].held_dice == [2, 3, 4, 4]
    t.act("clock.end_phase", {})
    t.act("clock.end_phase", {})
    t.roll()
    res = t.act("coc.ranging_shot", {"bombardment": "b1", "bearing": 90.0}, [3, 2, 2, 3, 4])
    assert res.outcome == "deviates" and (b.state, b.landed_x, b.landed_y) == ("landed", 29.0, 20.0)
    t.act("clock.end_phase", {})
    t.act("clock.end_phase", {})

    t.roll()
    t.act("coc.fire_for_effect", {"bombardment": "b1"})
    assert (b.state, b.centre) == ("ready", (29.0, 20.0))
    t.act("coc.hidden_die", {"bombardment": "b1", "face": 5, "direction": "right"})
    assert (b.pattern_die, b.direction, b.moves_left) == (5, "right", 3)
    assert "5" not in g.log[-1].text

    p = plan("coc.bombardment_phase", g, {"bombardment": "b1", "activation": "begun", "cover.b": "hard"})
    assert [p.inputs[f"target{i}_id"] for i in (1, 2, 3)] == ["a", "b", "tank"]
    res = t.act("coc.bombardment_phase", {"bombardment": "b1", "activation": "begun", "cover.b": "hard"}, [
        1, 2, 3, 4, 5, 5, face("open", "kill"), face("open", "shock"), face("open", "kill"),
        1, 1, 2, 3, 3, 4, face("hard", "shock"),
        6, 2, 3,
    ])
    assert res.outcome == "kills=2 unstable=0" and res.values["vehicle_shock"] == 1
    assert (g.units["a"].figures, b.state, b.phases_left) == (6, "firing", 5)

    t.act("coc.extra_rounds", {"bombardment": "b1", "rounds": 2})
    assert b.phases_left == 7
    t.act("coc.edit_area", {"bombardment": "b1", "firepower_dice": 6})
    assert b.firepower_dice == 6

    _replays(g)
    t.undo_all()
    assert savefile.state_dict(g) == savefile.state_dict(start())


def test_re_aim_after_a_deviation_starts_ranging_again() -> None:
    t = Table()
    t.act("coc.new_bombardment", {"side": 0, "phases": 3, "x": 20.0, "y": 20.0, "observer_x": 5.0,
                                  "observer_y": 5.0, "kind": "smoke"})
    t.roll()
    t.act("coc.ranging_shot", {"bombardment": "b1", "bearing": 90.0}, [3, 3, 2, 3, 4])
    t.act("clock.end_phase", {})
    t.act("clock.end_phase", {})
    t.roll()
    t.act("coc.re_aim", {"bombardment": "b1", "x": 24.0, "y": 26.0})
    b = t.game.bombardments["b1"]
    assert (b.state, b.centre, b.unobserved_attempts) == ("ranging", (24.0, 26.0), 0)
    _replays(t.game)
    t.undo_all()


def test_sos_fire_buildings_in_and_out() -> None:
    t = Table()
    g = t.game
    t.act("coc.new_sos", {"side": 0, "x": 25.0, "y": 20.0})
    assert g.bombardments["sos1"].kind == "sos"
    res = t.act("coc.sos_fire", {"bombardment": "sos1", "target": "a", "cover": "open"},
                [1, 1, 1, 1, 1, 1])
    assert res.outcome is not None and g.units["a"].has("pinned")
    t.act("coc.add_building", {"name": "Barn", "x": 60.0, "y": 30.0, "width": 4.0, "depth": 3.0,
                               "material": "wood", "storeys": 1})
    (barn,) = [x for x in g.buildings.values() if x.name == "Barn"]
    t.act("coc.enter_building", {"unit": "d", "building": barn.id})
    assert g.buildings[barn.id].occupants == ["d"]
    t.act("coc.leave_building", {"unit": "d"})
    assert g.buildings[barn.id].occupants == []
    _replays(g)
    t.undo_all()


@pytest.mark.parametrize(("name", "choices", "words"), [
    ("coc.fire_for_effect", {"bombardment": "b9"}, "That bombardment is no longer on the table"),
    ("coc.fire_for_effect", {"bombardment": "b1"}, "follows a ranging shot that deviated"),
    ("coc.hidden_die", {"bombardment": "b1", "face": 5}, "needs a direction along a table edge"),
    ("coc.leave_building", {"unit": "a"}, "1 Gruppe is not in a building."),
    ("coc.new_bombardment", {"side": 0, "phases": "six", "x": 1.0, "y": 1.0, "observer_x": 1.0,
                             "observer_y": 1.0}, "The Forward Observer's die of Phases must be a whole number."),
    ("coc.new_bombardment", {"side": 0, "phases": 3, "x": 99.0, "y": 1.0, "observer_x": 1.0, "observer_y": 1.0},
     r"^The aiming point: 99 is off the table \(0 to 72 inches\)\.$"),
    ("coc.new_bombardment", {"side": 0, "phases": 9, "x": 9.0, "y": 1.0, "observer_x": 1.0, "observer_y": 1.0},
     "^The Forward Observer's die: the Forward Observer's die shows 1-6 Phases of fire, not 9.$"),
    ("coc.extra_rounds", {"bombardment": "b1", "rounds": 1},
     "^British mortars, first barrage is ranging; rounds are added to a bombardment that is firing.$"),
])
def test_refusals_are_sentences_and_change_nothing(name: str, choices: Choices, words: str) -> None:
    t = Table()
    t.act("coc.new_bombardment", {"side": 0, "phases": 6, "x": 20.0, "y": 20.0, "observer_x": 5.0,
                                  "observer_y": 5.0})
    before = savefile.game_to_dict(t.game)
    with pytest.raises((Refusal, RulesInputError), match=words):
        perform(t.game, name, choices, [])
    assert savefile.game_to_dict(t.game) == before


def test_what_falls_due_at_end_phase_is_stamped_with_the_action_so_a_replay_writes_the_same_log() -> None:
    t = Table()
    t.act("coc.new_bombardment", {"side": 0, "phases": 6, "x": 20.0, "y": 20.0, "observer_x": 5.0,
                                  "observer_y": 5.0})
    t.roll()
    t.act("coc.ranging_shot", {"bombardment": "b1"}, [1, 2])
    t.act("clock.end_phase", {})
    count = len(t.game.log)
    res = perform(t.game, "clock.end_phase", {}, [], time="1999-01-01T00:00:00")
    t.game.apply_all(res.effects)
    new = t.game.log[count:]
    assert any("ranges again" in entry.text for entry in new)
    assert {entry.time for entry in new} == {"1999-01-01T00:00:00"}
