"""A Shoot's dice prompts and log lines name the fighters, never their unit ids."""

from __future__ import annotations

from pathlib import Path

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules import get
from battletracker.rules.actions import perform
from battletracker.rules.base import Resolution
from battletracker.rules.log_lines import reads_as
from battletracker.rules.report import build_report
from battletracker.rules.report import report_html
from tests.rules.necromunda.test_plans import autogun
from tests.rules.necromunda.test_plans import fighter
from tests.rules.necromunda.test_plans import flamer
from tests.rules.necromunda.test_plans import game_of


def log_of(result: Resolution, game: Game) -> list[str]:
    game.apply_all(result.effects)
    return [e.text for e in game.log]


def test_stray_shots_name_the_models_in_their_dice_prompts_and_lines() -> None:
    game = game_of(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("b", "Mira", 1, 10, 20),
                   fighter("e", "Bystander", 0, 10.5, 15, conditions=["seriously_injured"]),
                   fighter("f", "Lookout", 1, 10.2, 17), toolkit_stray_shots=True)
    # a miss with two shots: the first passes Bystander and hits Lookout, the second hits Bystander
    r = perform(game, "necro.attack", {"firer": "a", "target": "b"}, [1, "1", "1", 5, 2, 3])
    assert [label for label, _ in r.rolls][-3:] == ["Stray shot 1: Bystander", "Stray shot 1: Lookout",
                                                    "Stray shot 2: Bystander"]
    log = log_of(r, game)
    assert "Stray shot 1: Bystander: 5; Stray shot 1: Lookout: 2; Stray shot 2: Bystander: 3" in log[0]
    assert log[-2:] == ["Stray shot 1: hits Lookout", "Stray shot 2: hits Bystander"]


def test_walking_fire_names_who_takes_each_hit() -> None:
    game = game_of(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("b", "Mira", 1, 10, 20),
                   fighter("c", "Close", 1, 12, 21), toolkit_walking_fire=True)
    r = perform(game, "necro.attack", {"firer": "a", "target": "b", "walking_fire": "c,b"}, [5, "1", "2"])
    assert "Walking fire: Hit 1 to Mira, Hit 2 to Close, Hit 3 to Mira" in log_of(r, game)


def test_hits_allocated_in_a_combat_are_said_by_name() -> None:
    game = game_of(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                   fighter("b", "Mira", 1, 10, 20, conditions=["engaged"]),
                   fighter("c", "Brute", 0, 11, 20, conditions=["engaged"]))
    r = perform(game, "necro.attack", {"firer": "a", "target": "b"}, [5, "1", "2", 2, 1, 2])
    assert "Hits allocated at random (1 = Mira, 2 = Brute): Brute, Mira, Brute" in log_of(r, game)


def test_a_template_names_the_models_it_hits() -> None:
    game = game_of(fighter("a", "Kal", 0, 10, 10, weapons=[flamer()]), fighter("b", "Mira", 1, 10, 12),
                   fighter("c", "Brute", 0, 10.5, 14))
    log = log_of(perform(game, "necro.attack", {"firer": "a", "target": "b"}, []), game)
    assert "The Template hits Mira, Brute" in log
    assert not any(line.endswith(("hits b, c", " b", " c")) for line in log)


def test_an_old_line_with_ids_reads_as_the_line_with_the_names_the_fighters_had() -> None:
    names = {"b": "Mira", "c": "Close", "e": "Bystander", "u7": "Vex"}
    assert reads_as("Stray shot 2: hits e", "Stray shot 2: hits Bystander", names)
    assert reads_as("Walking fire: Hit 1 to b, Hit 2 to c", "Walking fire: Hit 1 to Mira, Hit 2 to Close", names)
    assert reads_as("Hits allocated at random (1 = b, 2 = u7): u7, b", "Hits allocated at random (1 = Mira, "
                    "2 = Vex): Vex, Mira", names)
    assert reads_as("The Template hits b, c", "The Template hits Mira, Close", names)
    assert reads_as("Kal shoots Autogun at Mira - rolls: Hit roll: 1; Stray shot 1: e: 5",
                    "Kal shoots Autogun at Mira - rolls: Hit roll: 1; Stray shot 1: Bystander: 5", names)
    assert not reads_as("Stray shot 2: hits e", "Stray shot 2: hits Mira", names)
    assert not reads_as("Stray shot 2: hits e", "Stray shot 2: hits Bystander", {"e": "Other"})


def test_the_battle_report_says_each_shot_in_words_naming_the_fighters() -> None:
    saved = savefile.load(Path(__file__).parents[2] / "fixtures" / "fighter_names_v1.battle")
    report = build_report(saved)
    assert [r.words for r in report.luck.rolls] == ["Miss; stray shots hit Bystander, Lookout", "3 Hits",
                                                    "3 Hits; 1 to Tess, 2 to Brute"]
    page = report_html(report, {m.key: "" for m in report.moments})
    assert "<td>Miss; stray shots hit Bystander, Lookout</td>" in page and "stray: e" not in page


def test_the_parts_of_an_attack_label_their_outcomes_with_the_fighters_names() -> None:
    names = {"u3": "Vex", "u4": "Kal"}
    assert get("necro.stray_shots").words("hit=u3,u4", names) == "Stray shots hit Vex, Kal"
    assert get("necro.engaged_allocation").words("u3:2,u4:1", names) == "2 hits on Vex, 1 hit on Kal"
    assert get("necro.attack").words("miss ammo=ok stray:u4", names) == "Miss; stray shots hit Kal"
