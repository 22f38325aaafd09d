"""A Template attack's log says who fires what and names each model it hits once, as a player would write it;
games saved when it named them twice still reopen to their saved state."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules.actions import perform
from battletracker.rules.replay import check
from tests.rules.necromunda.test_plans import fighter
from tests.rules.necromunda.test_plans import flamer
from tests.rules.necromunda.test_plans import game_of


def template_game(**settings: bool) -> Game:
    """Kal's Flamer laid on Mira covers Brute too; Near is the closest enemy, so Mira needs a Cool check under
    target priority."""
    return game_of(fighter("a", "Kal", 0, 10, 10, weapons=[flamer()]), fighter("b", "Mira", 1, 10, 12),
                   fighter("c", "Brute", 0, 10.5, 14), fighter("near", "Near", 1, 11, 10), **settings)


def attack_log(game: Game, dice: list[int]) -> list[str]:
    """The lines the Shoot writes, applied to `game` as the app applies it."""
    before = len(game.log)
    game.apply_all(perform(game, "necro.attack", {"firer": "a", "target": "b"}, dice).effects)
    return [e.text for e in game.log[before:]]


def test_a_template_says_who_fires_then_each_model_hit_once() -> None:
    log = attack_log(template_game(), [])
    assert log == ["Kal fires Flamer (Template) at Mira", "The Template hits Mira, Brute"]


def test_after_a_cool_check_the_dice_line_says_who_fires_and_the_hits_come_once() -> None:
    log = attack_log(template_game(toolkit_target_priority=True), [4, 4])
    assert log[0] == "Kal fires Flamer (Template) at Mira - rolls: Cool check: 4 4"
    assert log[-1] == "The Template hits Mira, Brute"
    assert sum("Brute" in line for line in log) == 1


def test_a_failed_cool_check_logs_no_template_hits() -> None:
    log = attack_log(template_game(toolkit_target_priority=True), [1, 2])
    assert not any("Template hits" in line or "the Template hits" in line for line in log)
    assert log[-1].startswith("Target priority: the Cool check failed")


OLD_LINE = "Kal fires Flamer (Template) at Mira - the Template hits Mira, Brute"
"""The line older versions wrote after the procedure's own, whatever the Cool check gave."""


@pytest.mark.parametrize(("settings", "dice", "old"), [
    ({}, [], ["The Template hits b, c", OLD_LINE]),
    ({"toolkit_target_priority": True}, [4, 4], [
        "Kal fires Flamer (Template) at Mira - rolls: Cool check: 4 4",
        "Cool check: 4 + 4 = 8 against Cool 7+: passed", "The Template hits Mira, Brute", OLD_LINE]),
    ({"toolkit_target_priority": True}, [1, 2], [
        "Kal fires Flamer (Template) at Mira - rolls: Cool check: 1 2",
        "Cool check: 1 + 2 = 3 against Cool 7+: failed",
        "Target priority: the Cool check failed, so this target cannot be shot; the closest enemy must be the "
        "target instead", OLD_LINE]),
])
def test_a_game_saved_with_the_hits_said_twice_reopens_to_its_saved_state(
        settings: dict[str, bool], dice: list[int], old: list[str]) -> None:
    game = template_game(**settings)
    lines = attack_log(game, dice)
    game.apply_all(perform(game, "unit.move", {"unit": "near", "x": 12.0, "y": 10.0}).effects)
    saved = replace(game)
    saved.log = [*(replace(game.log[0], text=line) for line in old), *game.log[len(lines):]]
    report = check(savefile.loads(savefile.dumps(saved)))
    assert report.ok, report.message
