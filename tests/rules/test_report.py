"""The battle report's content, read from a game and a replay of its actions, without Qt."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from html.parser import HTMLParser

import pytest

from battletracker.core.dice import Face
from battletracker.model import savefile
from battletracker.model.effects import Effect
from battletracker.model.effects import StarLogEntry
from battletracker.model.game import Game
from battletracker.rules import perform
from battletracker.rules.actions import Choices
from battletracker.rules.report import build_report
from battletracker.rules.report import log_csv
from battletracker.rules.report import report_html
from battletracker.rules.tables import resources_dir
from tests.model.sample import sample_game
from tests.rules.test_replay import PLAY
from tests.rules.test_replay import played


class Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.images: list[str] = []

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.images.append(dict(attrs)["src"] or "")


def test_the_report_says_each_units_fate_each_turn_and_pictures_the_starred_moment() -> None:
    game = played()
    starred = len(game.log) - 2
    game.apply(StarLogEntry(starred, True))
    report = build_report(game)
    assert report.history_note == ""
    assert [m.key for m in report.moments] == [f"star-{starred}", "luckiest", "now"]  # the one roll: 2 of 4
    page = Text()
    page.feed(report_html(report, {m.key: f"data:image/png;base64,{m.key}" for m in report.moments}))
    text = "\n".join(page.text)
    for unit in [*game.units.values()]:
        assert unit.name in text
    assert "Ganger" in text and "taken off the table" in text
    assert "2 of 10 figures lost, 3 Shock" in text
    assert "Turn 1" in text and "Turn 2" in text
    assert f"data:image/png;base64,star-{starred}" in page.images
    assert "Dice pool" in text and "50%" in text


def test_the_log_as_csv_names_side_action_and_dice_of_each_line() -> None:
    rows = list(csv.DictReader(io.StringIO(log_csv(build_report(played())))))
    pool = [r for r in rows if r["action"] == "Dice pool"]
    assert pool and pool[0]["dice"] == "6 3 4 1" and pool[0]["side"] == "German"
    assert list(rows[0]) == ["turn", "phase", "side", "action", "dice", "result"]


TIME = "2026-11-30T21:00:00"
# The Panzer IV's A.P. round: 6 6 to hit, 11 Strike Dice, 6 Armour Dice, and a 6 on the damage table.
AT_DICE: list[Face] = [6, 6] + [6] * 9 + [1] * 6 + [6] * 3


def tank_lost() -> Game:
    """The demo: the Panzer IV blows up the Sherman in Germany's Phase; the United States test their Force Morale."""
    game = savefile.load(resources_dir() / "demo" / "chain_of_command.json")

    def act(name: str, choices: Choices, dice: list[Face] | None = None) -> None:
        game.apply_all(perform(game, name, choices, dice, time=TIME).effects)

    act("coc.command_dice", {}, [1, 3, 2, 2, 5])
    act("coc.at_fire", {"firer": "u6", "target": "u11", "activation": "dice:3"}, AT_DICE)
    act("coc.force_morale_test", {"agenda_id": game.sides[1].agenda[0].id, "rulebook_loss": 1}, [4])
    act("clock.end_phase", {})
    return game


def test_a_force_morale_test_taken_in_the_enemys_phase_is_logged_under_the_side_that_tested() -> None:
    rows = list(csv.DictReader(io.StringIO(log_csv(build_report(tank_lost())))))
    assert {r["side"] for r in rows if r["action"] == "United States: Force Morale Test"} == {"United States"}
    assert {r["side"] for r in rows if r["action"].startswith("Anti-tank fire")} == {"Germany"}


def test_names_a_spreadsheet_would_run_as_formulas_start_with_an_apostrophe_in_the_csv() -> None:
    game = sample_game()
    game.sides[0].name, game.sides[1].name = '=HYPERLINK("x")', "+1"
    game.units["u2"].name = "-2"
    game.units["u2"].weapons[0].name = "@SUM(A1)"
    for name, choices, dice in PLAY:
        game.apply_all(perform(game, name, choices, dice).effects)  # type: ignore[arg-type]
    report = build_report(game)
    extra = [replace(report.rows[-1], side="\tcmd", text="\rcmd"), replace(report.rows[-1], text="x\r=cmd")]
    rows = list(csv.reader(io.StringIO(log_csv(replace(report, rows=(*report.rows, *extra))))))[1:]

    sides = {r[2] for r in rows}
    assert sides == {"", "'=HYPERLINK(\"x\")", "'+1", "'\tcmd"}
    moved = next(r for r in rows if r[3] == "Move -2")
    assert moved[5].startswith("'-2 moved ")
    ammo = next(r for r in rows if "spend 2 rounds" in r[3])
    assert ammo[3].startswith("'@SUM(A1) (-2)") and ammo[5].startswith("'@SUM(A1) (-2)")
    assert [r[5] for r in rows[-2:]] == ["'\rcmd", "x\r=cmd"]  # one cell each, the return inside it
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for row in rows for cell in row)
    # A sign inside the text is left alone; turn and phase are numbers a spreadsheet can sum.
    assert any(r[3] == "Shock +1 on 1 Section" for r in rows)
    assert all(r[0].isdigit() and r[1].isdigit() for r in rows)


def test_a_game_with_no_history_is_pictured_as_it_stands_and_says_so() -> None:
    report = build_report(sample_game())
    assert [m.key for m in report.moments] == ["now"]
    assert "no replayable history" in report.history_note


def test_the_report_replays_the_history_once_for_the_table_the_log_and_the_luck(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = played()
    expected = build_report(game)
    applied: list[int] = []
    apply_all = Game.apply_all

    def counting(state: Game, effects: list[Effect]) -> list[Effect]:
        applied.append(len(effects))
        return apply_all(state, effects)

    monkeypatch.setattr(Game, "apply_all", counting)
    report = build_report(game)
    assert len(applied) == len(game.actions)
    assert report.rows == expected.rows and report.luck == expected.luck
    assert [m.key for m in report.moments] == [m.key for m in expected.moments]


def test_a_picture_of_a_moment_holds_the_table_and_the_log_but_no_history() -> None:
    game = played()
    starred = len(game.log) - 2
    game.apply(StarLogEntry(starred, True))
    moment = build_report(game).moments[0]
    assert moment.key == f"star-{starred}" and "as it stands now" not in moment.caption
    assert moment.game.actions == [] and moment.game.start is None
    assert [e.text for e in moment.game.log] == [e.text for e in game.log[:starred + 1]] and moment.game.units


def test_a_report_pictures_at_most_its_limit_of_moments_and_says_how_many_it_left_out() -> None:
    from battletracker.app import demo_path
    from battletracker.model import savefile
    from battletracker.model.effects import StarLogEntry
    from battletracker.rules import perform
    from battletracker.rules.report import MAX_PICTURES
    from battletracker.rules.report import build_report

    game = savefile.load(demo_path())
    for n in range(MAX_PICTURES + 12):
        game.apply_all(perform(game, "dice.pool", {"dice": 2, "target": 4}, [n % 6 + 1, 3]).effects)
    for i in range(len(game.log)):
        game.apply(StarLogEntry(i, True))
    report = build_report(game)
    assert len(report.moments) == MAX_PICTURES + 1  # and the table now
    assert [m.key for m in report.moments[-3:]] == ["luckiest", "unluckiest", "now"]  # always pictured
    starred = sum(e.starred for e in game.log)
    assert f"{starred - MAX_PICTURES + 2} more moments (Turn ends and starred lines) are not pictured: a report " \
        f"pictures the first {MAX_PICTURES - 2};" in report.history_note
    assert all(row.starred for row in report.rows)
