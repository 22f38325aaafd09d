"""A Fire whose hits several units share says each by the name on the table, never "Team 1"; games saved when
it said "Team 1" reopen to their saved state."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules import RulesInputError
from battletracker.rules import resolve
from battletracker.rules.actions import perform
from battletracker.rules.chain_of_command.fire_plans import SMALL_ARMS
from battletracker.rules.log_lines import reads_as
from battletracker.rules.replay import check
from battletracker.rules.tables import resources_dir
from tests.acting import ready_side
from tests.rules.chain_of_command.test_fire_team_cover import COPSE
from tests.rules.chain_of_command.test_fire_team_cover import FIRST_SQUAD
from tests.rules.chain_of_command.test_fire_team_cover import GRUPPE
from tests.rules.chain_of_command.test_fire_team_cover import SECOND_SQUAD


@pytest.fixture
def game() -> Game:
    """The demo with the Copse alone on the table: 1st Squad in it, 2nd Squad in the open."""
    game = savefile.load(resources_dir() / "demo" / "chain_of_command.json")
    game.terrain, game.buildings, game.smoke = {"t1": COPSE}, {}, {}
    return ready_side(game)


SHOT = {"firer": GRUPPE, "target": SECOND_SQUAD, "targets": FIRST_SQUAD, "weapon": SMALL_ARMS}
DICE = [5, 5, 2, 2, 2, 2, 2, 5, 5]
"""Seven Firepower Dice needing 5+: two hits, one each; a 5 kills 2nd Squad's man in the open and is Shock on
1st Squad in the Copse (light cover)."""

OLD = ["1. Gruppe fires at 2nd Squad - rolls: Firepower Dice: 5 5 2 2 2 2 2; Effect dice, team 1: 5; "
       "Effect dice, team 2: 5",
       "7 Firepower Dice needing 5+: 5 5 2 2 2 2 2",
       "2 hits, 0 sixes; effect rolled as open for Team 1, light for Team 2",
       "Team 1: effect dice 5 -> 1 kill, 0 Shock",
       "Team 2: effect dice 5 -> 0 kills, 1 Shock"]
"""The lines an older version wrote for the shot."""


def shot_log(game: Game) -> list[str]:
    before = len(game.log)
    game.apply_all(perform(game, "coc.shoot", SHOT, DICE).effects)
    return [e.text for e in game.log[before:]]


def test_the_log_names_each_unit_sharing_the_hits(game: Game) -> None:
    assert shot_log(game) == [
        "1. Gruppe fires at 2nd Squad - rolls: Firepower Dice: 5 5 2 2 2 2 2; Effect dice, 2nd Squad: 5; "
        "Effect dice, 1st Squad: 5",
        "7 Firepower Dice needing 5+: 5 5 2 2 2 2 2",
        "2 hits, 0 sixes; effect rolled as open for 2nd Squad, light for 1st Squad",
        "2nd Squad: effect dice 5 -> 1 kill, 0 Shock",
        "1st Squad: effect dice 5 -> 0 kills, 1 Shock"]


def test_a_unit_left_with_no_figures_is_named() -> None:
    inputs = {"firepower_dice": 2, "to_hit": 4, "cover": "open", "teams": 2, "target_ids": "u8,u7",
              "target_figures": "1,3", "target_names": "2nd Squad\n1st Squad"}
    res = resolve("coc.fire", inputs, ScriptedDice([4, 4, 6, 1]))
    assert "2nd Squad has no figures left: out of play. Its side takes a Force Morale Test" in res.log
    assert not any("Team" in line for line in res.log)


def test_the_names_are_one_a_team() -> None:
    with pytest.raises(RulesInputError, match="gives 1 name for 2 teams"):
        resolve("coc.fire", {"firepower_dice": 2, "to_hit": 4, "cover": "open", "teams": 2,
                             "target_names": "2nd Squad"}, ScriptedDice([4, 4, 6, 1]))


def test_a_game_saved_when_the_log_said_team_1_reopens_to_its_saved_state(game: Game) -> None:
    written = shot_log(game)
    game.apply_all(perform(game, "unit.move", {"unit": "u5", "x": 30.0, "y": 10.0}).effects)  # Leutnant Kraus
    saved = replace(game)
    old = [replace(e, text=line) for e, line in zip(game.log[:len(OLD)], OLD, strict=True)]
    saved.log = [*old, *game.log[len(OLD):]]
    assert len(written) == len(OLD)
    report = check(savefile.loads(savefile.dumps(saved)))
    assert report.ok, report.message


def test_an_old_team_number_reads_only_as_a_units_name() -> None:
    names = {"u7": "1st Squad", "u8": "2nd Squad"}
    assert reads_as("Team 2: effect dice 5 -> 0 kills, 1 Shock", "1st Squad: effect dice 5 -> 0 kills, 1 Shock",
                    names)
    assert not reads_as("Team 2: effect dice 5 -> 0 kills, 1 Shock", "1st Squad: effect dice 6 -> 0 kills, 1 Shock",
                        names)
    assert not reads_as("Team 2: effect dice 5", "Somebody: effect dice 5", names)
    assert not reads_as("open for Team 1, light for Team 1", "open for 1st Squad, light for 2nd Squad", names)
    assert not reads_as("open for Team 1, light for Team 2", "open for 1st Squad, light for 1st Squad", names)


def test_two_units_of_one_name_read_as_two_numbers() -> None:
    """Names need not be unique: Team 1 and Team 2 may both be "Rifle Team" when two units are."""
    twins = {"u7": "Rifle Team", "u8": "Rifle Team"}
    assert reads_as("open for Team 1, light for Team 2", "open for Rifle Team, light for Rifle Team", twins)
    assert not reads_as("open for Team 1, light for Team 2", "open for Rifle Team, light for Rifle Team",
                        {"u7": "Rifle Team", "u8": "MG Team"})
