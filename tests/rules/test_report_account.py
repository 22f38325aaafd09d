"""The report's Turn by Turn account: one line an action in a player's words, under the side that acted."""

from __future__ import annotations

import csv
import io
import re
from html.parser import HTMLParser

import pytest

from battletracker.model import savefile
from battletracker.model.effects import StarLogEntry
from battletracker.model.game import Game
from battletracker.rules.account import AccountLine
from battletracker.rules.report import build_report
from battletracker.rules.report import log_csv
from battletracker.rules.report import report_html
from tests.played_games import path
from tests.rules.test_bombardment_playthrough import played_without_qt
from tests.rules.test_report import AT_DICE
from tests.rules.test_report import tank_lost

COORDINATES = re.compile(r'\(\s*-?\d+(\.\d+)?"?\s*,\s*-?\d+(\.\d+)?"?\s*\)')
RAW = re.compile(r"\b[a-z_]+=\w|\b[ubt]\d+\b|percentile|net\d:")


def said(lines: tuple[AccountLine, ...]) -> list[tuple[str, str, str]]:
    return [(line.side, line.text, line.dice) for line in lines]


def test_a_force_morale_test_after_a_tank_is_lost_is_under_the_tanks_side() -> None:
    game = tank_lost()
    assert game.sides[1].force_morale == 9
    report = build_report(game)
    assert said(report.account) == [
        ("Germany", "Command Dice \u2014 the other side's Phase next", "1 3 2 2 5"),
        ("Germany", "Anti-tank fire: Panzer IV H at Sherman 'Lucky' \u2014 AFV Explodes", " ".join(map(str, AT_DICE))),
        ("United States", "Force Morale Test \u2014 Force Morale falls by 1 to 9", "4"),
    ]
    assert report.whose_phase == ((1, 1, "Germany"),)
    rows = list(csv.DictReader(io.StringIO(log_csv(report))))
    tested = [r for r in rows if r["action"] == "United States: Force Morale Test"]
    assert tested and {r["side"] for r in tested} == {"United States"}
    assert {r["side"] for r in rows if r["action"].startswith("End of Turn")} == {"Germany"}, \
        "ending Germany's Phase stays Germany's in the log"


def test_a_played_game_is_told_one_line_an_action_in_a_players_words() -> None:
    report = build_report(savefile.load(path("chain_of_command")))
    assert said(report.account) == [
        ("United States", '2nd Squad moved 20.6", now in the Bois de la Croix', ""),
        ("Germany", "Command Dice \u2014 the other side's Phase next", "1 2 3 4 5"),
        ("United States", "Command Dice \u2014 the other side's Phase next", "1 1 2 2 5"),
        ("Germany", "Command Dice \u2014 the other side's Phase next", "3 1 1 2 2"),
        ("Germany", "Anti-tank fire: Panzer IV H at Sherman 'Lucky' \u2014 Vehicle Immobilised, 2 Shock",
         "6 1 1 1 2 3 4 4 5 5 6 6 1 2 3 4 5 6 4"),
    ]
    assert [(line.turn, line.phase) for line in report.account] == [(1, 1), (1, 1), (1, 2), (1, 3), (1, 3)]
    assert report.whose_phase == ((1, 1, "Germany"), (1, 2, "United States"), (1, 3, "Germany"))
    assert len(report.rows) == len(savefile.load(path("chain_of_command")).log), "the CSV keeps every log line"


@pytest.fixture(scope="module")
def bombarded() -> Game:
    return played_without_qt()


def test_a_bombardment_is_told_by_its_name_with_what_each_phase_of_fire_did(bombarded: Game) -> None:
    report = build_report(bombarded)
    lines = said(report.account)
    assert lines[0] == ("Germany", "Germany's mortars, first barrage: Forward Observer placed with 3 Phases of fire; "
                       'aiming point 2" east of 1st Squad', "")
    assert ("Germany", "Germany's mortars, first barrage: ranging shot \u2014 Unobserved: no effect", "1 2") in lines
    assert ("Germany", "Germany's mortars, first barrage: Phase of fire \u2014 1st Squad, 2nd Squad and Lt. Hayes: "
                       "Pinned", " ".join(["3"] * 18)) in lines
    assert ("Germany", "Germany's mortars, first barrage: Phase of fire \u2014 contact lost", "") in lines
    # End Phase is the clock's: what it brought is a short line of no side's, and its own lines are the headings'.
    assert ("", "Lt. Hayes is no longer Pinned", "") in lines
    assert not any(text.startswith(("End of Turn", "Turn 1, Phase")) for _s, text, _d in lines)
    sided = [line for line in report.account if line.side]
    assert len(sided) == sum(not a.name.startswith("clock.") for a in bombarded.actions)


def test_no_line_of_the_account_says_an_id_a_raw_key_or_a_coordinate_pair(bombarded: Game) -> None:
    games = [savefile.load(path(r)) for r in ("chain_of_command", "armour_battles", "necromunda")]
    for game in [*games, bombarded, tank_lost()]:
        for line in build_report(game).account:
            assert not COORDINATES.search(line.text), line.text
            assert not RAW.search(line.text), line.text


def test_a_starred_line_keeps_its_mark_in_the_account(bombarded: Game) -> None:
    game = tank_lost()
    explodes = next(i for i, e in enumerate(game.log) if "AFV Explodes" in e.text)
    game.apply(StarLogEntry(explodes, True))
    assert [line.starred for line in build_report(game).account] == [False, True, False]
    unpinned = next(i for i, e in enumerate(bombarded.log) if e.text == "Lt. Hayes is no longer Pinned")
    bombarded.apply(StarLogEntry(unpinned, True))
    try:
        starred = [line.text for line in build_report(bombarded).account if line.starred]
    finally:
        bombarded.apply(StarLogEntry(unpinned, False))
    assert starred == ["Lt. Hayes is no longer Pinned"]


class Page(HTMLParser):
    """The Turn by Turn section's lines as (the side they are under, the text, the dice), and the luck's words."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[tuple[str, str, str]] = []
        self.text: list[str] = []
        self.under, self.cell, self.row = "", "", [""]
        self.in_account = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "table":
            self.in_account = named.get("class") == "account"
        elif tag == "tr":
            self.row = []
        elif tag == "td":
            self.cell = named.get("class") or ""
            self.row.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr" and self.in_account:
            if len(self.row) == 1:
                self.under = self.row[0]
            else:
                self.lines.append((self.under, *self.row))  # type: ignore[arg-type]

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self.in_account and self.row:
            self.row[-1] += data


def test_the_page_puts_each_line_under_its_side_with_the_dice_beside_it_and_the_luck_in_words() -> None:
    page = Page()
    page.feed(report_html(build_report(tank_lost()), {}))
    assert page.lines == [
        ("Germany", "Command Dice \u2014 the other side's Phase next", "1 3 2 2 5"),
        ("Germany", "Anti-tank fire: Panzer IV H at Sherman 'Lucky' \u2014 AFV Explodes", " ".join(map(str, AT_DICE))),
        ("United States", "Force Morale Test \u2014 Force Morale falls by 1 to 9", "4"),
    ]
    text = "\n".join(page.text)
    assert "Phase 1: Germany" in text
    assert re.search(r"better than \d+% of rolls like it", text)
    assert "chance of a worse result" not in text and "Percentile" not in text
