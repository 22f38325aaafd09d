"""The report's dice luck in a player's words: each side's line, the luckiest and unluckiest roll with their
pictures and the odds they beat, and the table per kind of roll."""

from __future__ import annotations

import re
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest

from battletracker.core.dice import Face
from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules import odds
from battletracker.rules import perform
from battletracker.rules.actions import Choices
from battletracker.rules.luck import percentile
from battletracker.rules.report import BattleReport
from battletracker.rules.report import build_report
from battletracker.rules.report import report_html
from battletracker.rules.tables import resources_dir
from tests.rules.test_report_account import RAW

FIXTURES = Path(__file__).parents[1] / "fixtures"


class Luck(HTMLParser):
    """The dice luck section's words before its tables: the side lines, the headings, the paragraphs, and the
    pictures shown there."""

    def __init__(self) -> None:
        super().__init__()
        self.on = self.in_line = False
        self.lines: list[str] = []
        self.text: list[str] = []
        self.images: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "h2":
            self.on = named.get("id") == "luck"
        elif tag == "table":
            self.on = False
        elif tag == "img" and self.on:
            self.images.append(named.get("src") or "")
        elif tag == "p" and named.get("class") == "dice-line":
            self.in_line = True
            self.lines.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "p":
            self.in_line = False

    def handle_data(self, data: str) -> None:
        if self.on:
            self.text.append(data)
        if self.in_line:
            self.lines[-1] += data


def luck_of(report: BattleReport) -> Luck:
    page = Luck()
    page.feed(report_html(report, {m.key: f"data:image/png;base64,{m.key}" for m in report.moments}))
    return page


def pool(dice: int, target: int, outcome: str) -> tuple[Fraction, Fraction]:
    """The percentile of a dice pool's outcome, and its chance."""
    d = odds("dice.pool", {"dice": dice, "target": target})
    return percentile(d, outcome), d.p(outcome)


# Germany's Phase: two rolls tie for the best percentile (15/16) and two for the worst (1/16); the six-dice
# ones are the rarer outcomes (3/32 against 1/8), so they stand out. Then the United States roll 2 of 3 dice
# at 5+ (23/27).
ROLLS: list[tuple[int, list[Face]]] = [
    (4, [6, 5, 4]),              # 3 of 3: 15/16, a 1 in 8 outcome
    (4, [6, 5, 4, 4, 6, 1]),     # 5 of 6: 15/16, 3 in 32: the luckiest
    (4, [1, 2, 3]),              # 0 of 3: 1/16, 1 in 8
    (4, [1, 2, 3, 3, 1, 6]),     # 1 of 6: 1/16, 3 in 32: the unluckiest
]


def demo_played() -> tuple[Game, list[int]]:
    """The demo with the scripted rolls above; returns the log's length after each action."""
    game = savefile.load(resources_dir() / "demo" / "chain_of_command.json")
    logged: list[int] = []

    def act(name: str, choices: Choices, dice: list[Face] | None = None) -> None:
        game.apply_all(perform(game, name, choices, dice).effects)
        logged.append(len(game.log))

    for target, dice in ROLLS:
        act("dice.pool", {"dice": len(dice), "target": target}, dice)
    act("clock.end_phase", {})
    act("dice.pool", {"dice": 3, "target": 5}, [6, 5, 1])
    return game, logged


def test_each_sides_dice_in_one_line_against_games_like_this() -> None:
    game, _logged = demo_played()
    report = build_report(game)
    assert [game.sides[r.side].name for r in report.luck.rolls] == ["Germany"] * 4 + ["United States"]
    germany = report.dice[0]
    assert germany is not None and germany.exact and (germany.rolls, germany.varied) == (4, 4)
    # At 4+ a pool's spread is even about its middle, and each best roll has its mirror in a worst one.
    assert germany.chance == Fraction(1, 2)
    united_states = report.dice[1]
    assert united_states is not None and united_states.chance == pool(3, 5, "2 successes")[0] == Fraction(23, 27)
    assert luck_of(report).lines == ["Germany's dice: better than 50% of games like this",
                                     "United States' dice: better than 85% of games like this"]


def test_the_luckiest_and_unluckiest_rolls_are_pictured_with_the_odds_they_beat() -> None:
    game, logged = demo_played()
    report = build_report(game)
    lucky, unlucky = report.stand_outs
    assert (lucky.key, lucky.roll.index, lucky.roll.percentile) == ("luckiest", 1, pool(6, 4, "5 successes")[0])
    assert (unlucky.key, unlucky.roll.index, unlucky.roll.percentile) == ("unluckiest", 3,
                                                                           pool(6, 4, "1 successes")[0])
    assert pool(6, 4, "5 successes")[0] == pool(3, 4, "3 successes")[0]  # a tie, broken by the rarer outcome
    assert pool(6, 4, "5 successes")[1] < pool(3, 4, "3 successes")[1]
    # 5 or 6 of 6 dice at 4+: 7 in 64; 0 or 1: 7 in 64 too.
    assert (lucky.beaten, unlucky.beaten) == (Fraction(7, 64), Fraction(7, 64))
    assert lucky.odds() == "a 1 in 9 roll: only 11% of rolls do as well"
    assert unlucky.odds() == "a 1 in 9 roll: only 11% of rolls do as badly"

    pictured = {m.key: m for m in report.moments}
    assert list(pictured) == ["luckiest", "unluckiest", "now"]
    for stand_out, after in ((lucky, logged[1]), (unlucky, logged[3])):
        moment = pictured[stand_out.key]
        assert len(moment.game.log) == after  # the table just after that roll
        assert moment.game.actions == [] and moment.game.start is None
        assert moment.caption.startswith(f"{stand_out.title}: Dice pool")

    page = luck_of(report)
    text = " ".join(page.text)
    assert page.images == ["data:image/png;base64,luckiest", "data:image/png;base64,unluckiest"]
    assert "The luckiest roll" in text and "The unluckiest roll" in text
    assert "Germany, Turn 1: Dice pool" in text
    assert "A 1 in 9 roll: only 11% of rolls do as well." in text
    assert "A 1 in 9 roll: only 11% of rolls do as badly." in text
    assert "Every game like this was counted, so the share is exact." in text
    assert not RAW.search(text), RAW.search(text)
    html = report_html(report, {})
    assert "Each kind of roll" in html and "on average better than" in html  # the table per kind of roll stays


def test_the_best_roll_possible_says_so() -> None:
    game = savefile.load(resources_dir() / "demo" / "chain_of_command.json")
    for dice in ([6, 6, 6], [1, 1, 1]):
        game.apply_all(perform(game, "dice.pool", {"dice": 3, "target": 6}, dice).effects)
    lucky, unlucky = build_report(game).stand_outs
    assert lucky.odds() == "a 1 in 216 roll: only 0.46% of rolls do as well, the best these dice could do"
    assert unlucky.odds() == "a common roll: 58% of rolls do as badly, the worst these dice could do"


@pytest.mark.parametrize(("name", "lines", "picked"), [
    ("played_chain_of_command.battle",
     [r"Germany's dice: better than \d+% of games like this",
      r"United States' dice: better than \d+% of games like this"],  # the Command Dice: another Phase or not
     [("The luckiest roll", "Anti-tank fire: Panzer IV H at Sherman 'Lucky'"),
      ("The unluckiest roll", "Germany: Command Dice")]),
    ("played_armour_battles.battle",
     [r"Germany's dice: better than \d+% of games like this", "Soviet Union's dice: no roll whose odds the app knew"],
     [("The only roll that could have gone better or worse", "Direct fire: StuH 42 (close support) at T34/43")]),
    ("played_necromunda.battle",  # its one roll, a Cool check failed out of range, is no worse than passing it
     [], []),
])
def test_a_played_game_says_each_sides_dice_and_pictures_the_rolls_that_stand_out(
        name: str, lines: list[str], picked: list[tuple[str, str]]) -> None:
    report = build_report(savefile.load(FIXTURES / name))
    page = luck_of(report)
    assert len(page.lines) == len(lines)
    for said, expected in zip(page.lines, lines, strict=True):
        assert re.fullmatch(expected, said), said
    assert [(s.title, s.roll.title) for s in report.stand_outs] == picked
    assert page.images == [f"data:image/png;base64,{s.key}" for s in report.stand_outs]
    assert all(s.key in [m.key for m in report.moments] for s in report.stand_outs)
    text = " ".join(page.text)
    if picked:
        assert re.search(r"(A 1 in \d+|A common) roll: (only )?[\d.]+% of rolls do as (well|badly)", text)
    assert not RAW.search(text), RAW.search(text)
