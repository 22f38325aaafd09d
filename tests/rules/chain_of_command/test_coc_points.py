"""Chain of Command points as seed 000 counts them, and the Forward Observer's activation charged before its step.

"If no Command Dice roll of 1 is available, the player must use a single Chain
of Command point to activate the Bombardment. If neither is available, the
Bombardment ends, contact with the mortars lost." A side keeps whole Chain of
Command dice (`coc_points`) and loose points (`coc_tally`, six to a die); one
point comes from the loose points first, else a die is broken into its points.
"""

from __future__ import annotations

import json

import pytest

from battletracker.core.dice import Die
from battletracker.core.dice import Face
from battletracker.model import savefile
from battletracker.model.effects import Effect
from battletracker.rules.actions import Choices
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import perform
from battletracker.rules.actions import plan
from battletracker.rules.base import Resolution
from battletracker.rules.chain_of_command.coc_points import CocStore
from battletracker.rules.chain_of_command.coc_points import coc_store
from battletracker.rules.chain_of_command.coc_points import store_words
from battletracker.rules.replay import replay_steps
from battletracker.rules.tables import find_setting
from battletracker.rules.tables import resources_dir

DEMO = resources_dir() / "demo" / "chain_of_command.json"
GERMANY = 0
B = {"bombardment": "b1"}
TIME = "2026-12-02T10:00:00"


class Threes:
    """Every die a 3: the dice of the Phases of fire, which these tests do not read."""

    def roll(self, die: Die, count: int, label: str) -> tuple[Face, ...]:
        return (3,) * count


class Table:
    """The demo game, each action performed and applied in one go, its inverse kept to undo it."""

    def __init__(self, dice: int = 1, points: int = 0) -> None:
        self.game = savefile.load(DEMO)
        self.game.sides[GERMANY].coc_points = dice
        self.game.sides[GERMANY].coc_tally = points
        self.undo: list[tuple[bytes, list[Effect]]] = []

    def act(self, name: str, choices: Choices, dice: list[int] | None = None) -> Resolution:
        before = savefile.dumps(self.game)
        res = perform(self.game, name, choices, dice, rng=Threes(), time=TIME)
        self.undo.append((before, self.game.apply_all(res.effects)))
        return res

    def undo_last(self) -> None:
        before, inverses = self.undo.pop()
        self.game.apply_all(inverses[::-1])
        assert savefile.dumps(self.game) == before

    def store(self) -> tuple[int, int]:
        side = self.game.sides[GERMANY]
        return side.coc_points, side.coc_tally

    def held(self) -> list[int]:
        return list(self.game.sides[GERMANY].held_dice)

    def new_bombardment(self) -> None:
        self.act("coc.new_bombardment", {"side": GERMANY, "kind": "high_explosive", "phases": 3, "x": 24.0,
                                         "y": 38.0, "observer_x": 30.0, "observer_y": 12.0})

    def next_german_phase(self) -> None:
        self.act("clock.end_phase", {})
        self.act("clock.end_phase", {})


def _firing(dice: int, points: int) -> Table:
    """A German bombardment on target whose first Phase of fire is over, in the next German Phase."""
    t = Table(dice, points)
    t.new_bombardment()
    t.act("coc.command_dice", {}, [1, 2, 3, 4, 4])
    t.act("coc.ranging_shot", B, [4, 4])                                          # 8: on target
    t.act("coc.hidden_die", {**B, "face": 2})
    t.act("coc.bombardment_phase", {**B, "activation": "begun"}, None)
    t.next_german_phase()
    t.act("coc.command_dice", {}, [2, 2, 3, 4, 4])                                # no 1, no 5
    return t


# -- the store in the seed's words ------------------------------------------------------------------------------


def test_the_store_is_said_as_dice_and_points_of_a_die() -> None:
    assert CocStore(1, 5).words() == "1 die, 5 points of 6"
    assert CocStore(2, 1).words() == "2 dice, 1 point of 6"
    assert CocStore(0, 5).spent_words() == "a Chain of Command point (4 points left)"
    assert CocStore(1, 0).spent_words() == ("a Chain of Command point (5 points left): a Chain of Command die is "
                                            "broken into its 6 points")
    game = Table(1, 5).game
    assert store_words(game, GERMANY) == "Chain of Command: 1 die, 5 points of 6"
    game.settings["command_dice_pips_per_die"] = 4
    assert coc_store(game, GERMANY).words() == "1 die, 5 points of 4"


# -- a Phase of fire costs one point ------------------------------------------------------------------------------


def test_a_bombardment_is_activated_with_one_point_of_five_and_four_are_left() -> None:
    t = _firing(0, 5)
    p = plan("coc.bombardment_phase", t.game, {**B, "activation": "coc_point"})
    assert p.facts[0] == "Activated with a Chain of Command point (4 points left)"
    res = t.act("coc.bombardment_phase", {**B, "activation": "coc_point"}, None)
    assert t.store() == (0, 4)
    assert "Activated with a Chain of Command point (4 points left)" in res.log
    assert t.game.bombardments["b1"].phases_fired == 2
    t.undo_last()
    assert t.store() == (0, 5)


def test_with_no_loose_point_a_whole_die_is_broken_into_its_points_and_one_spent() -> None:
    t = _firing(1, 0)
    t.act("coc.bombardment_phase", {**B, "activation": "coc_point"}, None)
    assert t.store() == (0, 5)
    t.undo_last()
    assert t.store() == (1, 0)


def test_a_die_is_not_broken_when_the_setting_says_so() -> None:
    t = _firing(1, 0)
    t.game.settings["coc_point_breaks_die"] = False
    with pytest.raises(Refusal, match="no loose Chain of Command point and its Chain of Command die is not broken"):
        plan("coc.bombardment_phase", t.game, {**B, "activation": "coc_point"})


def test_the_breaking_of_a_die_is_a_documented_default_to_check() -> None:
    s = find_setting("chain_of_command", "coc_point_breaks_die")
    assert s.default is True and s.check
    assert "six points" in s.description and "single Chain of Command point" in s.description


# -- the Forward Observer's activation -------------------------------------------------------------------------------


def test_a_ranging_shot_is_refused_before_the_side_has_rolled_its_command_dice() -> None:
    t = Table(1, 0)
    t.new_bombardment()
    before = savefile.dumps(t.game)
    with pytest.raises(Refusal, match="Roll Germany's Command Dice for this Phase first: the Forward Observer is "
                                      "activated with a held 1 or a Chain of Command point to take a ranging shot"):
        perform(t.game, "coc.ranging_shot", B, [1, 2])
    assert savefile.dumps(t.game) == before


def test_a_ranging_shot_spends_a_held_one_and_undo_gives_it_back() -> None:
    t = Table(1, 0)
    t.new_bombardment()
    t.act("coc.command_dice", {}, [1, 3, 1, 2, 4])
    p = plan("coc.ranging_shot", t.game, B)
    assert p.facts[0] == "Activated with a Command Dice 1"
    t.act("coc.ranging_shot", B, [1, 2])
    assert t.held() == [1, 2, 3, 4] and t.store() == (1, 0)
    assert any(e.text == "Germany's mortars, first barrage: Activated with a Command Dice 1" for e in t.game.log)
    t.undo_last()
    assert t.held() == [1, 1, 2, 3, 4]


def test_without_a_one_a_ranging_shot_spends_a_chain_of_command_point() -> None:
    t = Table(0, 3)
    t.new_bombardment()
    t.act("coc.command_dice", {}, [2, 3, 4, 4, 2])
    p = plan("coc.ranging_shot", t.game, B)
    assert p.facts[0] == "Activated with a Chain of Command point (2 points left)"
    t.act("coc.ranging_shot", B, [1, 2])
    assert t.store() == (0, 2) and t.held() == [2, 2, 3, 4, 4]
    t.undo_last()
    assert t.store() == (0, 3)


def test_a_player_may_spend_a_point_though_a_one_is_held() -> None:
    t = Table(1, 0)
    t.new_bombardment()
    t.act("coc.command_dice", {}, [1, 2, 3, 4, 4])
    t.act("coc.ranging_shot", {**B, "activation": "coc_point"}, [1, 2])
    assert t.store() == (0, 5) and t.held() == [1, 2, 3, 4, 4]


def test_with_neither_a_one_nor_a_point_the_ranging_shot_is_refused() -> None:
    t = Table(0, 0)
    t.new_bombardment()
    t.act("coc.command_dice", {}, [2, 3, 4, 4, 2])
    before = savefile.dumps(t.game)
    with pytest.raises(Refusal, match="Germany holds no Command Dice 1 and has no Chain of Command point "
                                      r"\(0 dice, 0 points of 6\): the Forward Observer cannot take a ranging "
                                      "shot this Phase"):
        perform(t.game, "coc.ranging_shot", B, [1, 2])
    with pytest.raises(Refusal, match="Germany holds no Command Dice 1 this Phase"):
        plan("coc.ranging_shot", t.game, {**B, "activation": "command_die"})
    assert savefile.dumps(t.game) == before


def test_fire_for_effect_and_re_aiming_are_activations_too() -> None:
    t = Table(1, 0)
    t.new_bombardment()
    t.act("coc.command_dice", {}, [1, 2, 3, 4, 4])
    t.act("coc.ranging_shot", {**B, "bearing": 90.0}, [3, 3, 2, 2, 2])                # 6: deviates 3D6"
    assert t.game.bombardments["b1"].state == "landed"
    t.next_german_phase()
    with pytest.raises(Refusal, match="to call for fire for effect"):
        plan("coc.fire_for_effect", t.game, B)
    with pytest.raises(Refusal, match="to re-aim"):
        plan("coc.re_aim", t.game, {**B, "x": 20.0, "y": 30.0})
    t.act("coc.command_dice", {}, [2, 2, 3, 4, 4])
    assert plan("coc.fire_for_effect", t.game, B).facts[0] == (
        "Germany's mortars, first barrage: Activated with a Chain of Command point (5 points left): a Chain of Command "
        "die is broken into its 6 points")
    t.act("coc.re_aim", {**B, "x": 20.0, "y": 30.0})
    assert t.store() == (0, 5) and t.game.bombardments["b1"].state == "ranging"
    t.undo_last()
    t.act("coc.fire_for_effect", B)
    assert t.store() == (0, 5) and t.game.bombardments["b1"].state == "ready"
    # The Phase it begins in, the activation that began it counts: the first Phase of fire spends nothing more.
    t.act("coc.hidden_die", {**B, "face": 2})
    t.act("coc.bombardment_phase", {**B, "activation": "begun"}, None)
    assert t.store() == (0, 5) and t.held() == [2, 2, 3, 4, 4]


def test_placing_the_hidden_die_and_buying_rounds_stay_free() -> None:
    t = Table(0, 0)
    t.new_bombardment()
    t.act("coc.command_dice", {}, [1, 2, 3, 4, 4])
    t.act("coc.ranging_shot", B, [4, 4])
    held = t.held()
    t.act("coc.hidden_die", {**B, "face": 2})
    t.act("coc.extra_rounds", {**B, "rounds": 1})
    assert t.held() == held and t.store() == (0, 0)


def test_the_charged_steps_replay_to_the_same_state() -> None:
    t = Table(1, 0)
    t.new_bombardment()
    t.act("coc.command_dice", {}, [2, 2, 3, 4, 4])
    t.act("coc.ranging_shot", B, [1, 2])
    loaded = savefile.loads(savefile.dumps(t.game))
    replayed, _steps = replay_steps(loaded)
    assert savefile.state_dict(replayed) == savefile.state_dict(t.game)


def test_games_saved_before_the_charges_replay_as_they_were_played() -> None:
    """Version 2 charged a Forward Observer's ranging shot nothing and a Phase of fire's point a whole die."""
    t = Table(2, 0)
    t.new_bombardment()
    t.act("coc.command_dice", {}, [2, 2, 3, 4, 4])
    doc = savefile.game_to_dict(t.game)
    doc["version"] = 2
    ranging = {"name": "coc.ranging_shot", "choices": dict(B), "dice": [1, 2], "time": TIME}
    doc["history"]["actions"].append(ranging)
    game = savefile.loads(json.dumps(doc).encode())
    assert game.actions[-1].choices["activation"] == "unrecorded"
    res = perform(game, "coc.ranging_shot", game.actions[-1].choices, [1, 2], time=TIME)
    game.apply_all(res.effects)
    assert game.sides[GERMANY].coc_points == 2 and game.sides[GERMANY].held_dice == [2, 2, 3, 4, 4]
