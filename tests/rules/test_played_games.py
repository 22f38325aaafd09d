"""The played games the installation checks replay (tests/played_games.py) replay here, as saved."""

from __future__ import annotations

import pytest

from battletracker.model import savefile
from battletracker.model.fields import state_dict
from battletracker.rules.replay import check
from tests.played_games import PLAYS
from tests.played_games import path
from tests.played_games import played


@pytest.mark.parametrize("ruleset", sorted(PLAYS))
def test_each_played_game_replays_to_its_saved_state(ruleset: str) -> None:
    game = savefile.load(path(ruleset))
    assert game.ruleset == ruleset
    assert [action.name for action in game.actions] == [name for name, _choices, _dice in PLAYS[ruleset]]
    report = check(game)
    assert report.ok, report.message


@pytest.mark.parametrize("ruleset", sorted(PLAYS))
def test_each_saved_game_is_its_play_as_the_rules_resolve_it_now(ruleset: str) -> None:
    """Else `python -m tests.played_games` rebuilds them."""
    assert state_dict(savefile.load(path(ruleset))) == state_dict(played(ruleset))


def test_the_chain_of_command_game_begins_with_a_move_command_dice_and_end_phase() -> None:
    names = [name for name, _choices, _dice in PLAYS["chain_of_command"]]
    assert names[:3] == ["unit.move", "coc.command_dice", "clock.end_phase"]
    assert {name.split(".")[0] for plays in PLAYS.values() for name, _c, _d in plays} >= {"coc", "ab", "necro"}
