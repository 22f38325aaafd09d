"""The rolls line names a roll once; a game saved in the older wording still replays to its saved state."""

from __future__ import annotations

from pathlib import Path

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules.actions import perform
from battletracker.rules.log_lines import reads_as
from battletracker.rules.log_lines import rolls_line
from battletracker.rules.replay import check
from battletracker.rules.replay import replay_steps
from battletracker.rules.tables import resources_dir

OLD_SAVE = Path(__file__).parents[1] / "fixtures" / "command_dice_wording_v1.battle"
"""Written by the version before the change: its two Command Dice lines name the roll twice."""


def demo() -> Game:
    return savefile.load(resources_dir() / "demo" / "chain_of_command.json")


def test_the_command_dice_line_names_the_dice_once() -> None:
    game = demo()
    game.apply_all(perform(game, "coc.command_dice", {}, [6, 5, 3, 1, 1]).effects)
    assert game.log[0].text == "Germany: Command Dice - rolls: 6 5 3 1 1"
    assert rolls_line("Germany: Command Dice", [("Command Dice", (6, 5))], "dice rolled at the table") == \
        "Germany: Command Dice (dice rolled at the table) - rolls: 6 5"


def test_other_rolls_keep_their_names() -> None:
    assert rolls_line("Fire", [("Firepower Dice", (4, 6)), ("Effect dice", (5,))]) == \
        "Fire - rolls: Firepower Dice: 4 6; Effect dice: 5"
    assert rolls_line("Dice pool", [("3D6", (4, 1, 6))]) == "Dice pool - rolls: 3D6: 4 1 6"


def test_an_old_line_reads_as_the_new_one_and_nothing_else() -> None:
    old = "Germany: Command Dice (dice rolled at the table) - rolls: Command Dice: 6 5 3 1 1"
    assert reads_as(old, "Germany: Command Dice (dice rolled at the table) - rolls: 6 5 3 1 1")
    assert reads_as("United States: Command Dice - rolls: Command Dice: 4 4",
                    "United States: Command Dice - rolls: 4 4")
    assert not reads_as(old, "Germany: Command Dice (dice rolled at the table) - rolls: 6 5 3 1 2")
    assert not reads_as("Fire - rolls: Firepower Dice: 4 6", "Fire - rolls: 4 6")


def test_a_game_saved_in_the_old_wording_replays_to_its_saved_state_keeping_its_lines() -> None:
    saved = savefile.load(OLD_SAVE)
    assert saved.log[0].text.endswith("- rolls: Command Dice: 6 5 3 1 1")
    assert check(saved).ok
    replayed, steps = replay_steps(saved)
    assert len(steps) == 4 and replayed.log == saved.log
