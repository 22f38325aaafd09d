"""Changing the ruleset settings is one action: the changed keys and values, refused in a player's words."""

from __future__ import annotations

import pytest

from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import perform
from battletracker.rules.actions import plan
from battletracker.rules.table_actions import SETTINGS


def coc() -> Game:
    return Game(title="Settings", ruleset="chain_of_command", sides=[Side("A", "#111111"), Side("B", "#222222")])


def test_settings_change_together_and_the_default_takes_the_games_value_away() -> None:
    game = coc()
    game.apply_all(perform(game, SETTINGS, {"to_hit_close_regular": 5,
                                            "hit_effect_open": "kill none shock shock kill kill"}).effects)
    assert game.settings == {"to_hit_close_regular": 5, "hit_effect_open": "kill none shock shock kill kill"}
    assert game.actions[-1].name == SETTINGS
    assert game.log[-1].text.startswith("Ruleset settings: ")
    game.apply_all(perform(game, SETTINGS, {"to_hit_close_regular": 4}).effects)
    assert game.settings == {"hit_effect_open": "kill none shock shock kill kill"}
    assert game.log[-1].text.endswith("back to the default")


def test_bad_settings_are_refused_without_their_keys() -> None:
    game = coc()
    with pytest.raises(Refusal, match="No setting was changed"):
        plan(SETTINGS, game, {})
    with pytest.raises(Refusal) as bad:
        plan(SETTINGS, game, {"to_hit_close_regular": 9})
    assert "must be at most 6" in str(bad.value) and "to_hit_close_regular" not in str(bad.value)
    with pytest.raises(Refusal, match="already"):
        plan(SETTINGS, game, {"to_hit_close_regular": 4})
    with pytest.raises(Refusal, match="no setting"):
        plan(SETTINGS, game, {"no_such_thing": 1})
