"""The battle report: what became of each unit, the battle told Turn by Turn, the table at its moments, the dice luck.

`build_report(game)` reads everything from the game and a replay of its
recorded actions (rules/replay.py): the account, one line an action in a
player's words (rules/account.py), and the log's lines with the action that
wrote each. `report_html` writes the report as one self-contained HTML page
given the map pictures (data: URIs the UI drew for each `Moment`), and
`log_csv` writes the log as a table, every line. No Qt here: the UI draws the
pictures and prints the page.

The table is pictured at the end of each Turn (right after the action that
ended it), after the action that wrote each starred log line, and after the
luckiest and the unluckiest roll of the game (`StandOut`), which always get
their pictures. A game with no replayable history is pictured only as it
stands now, and the report says so.

The dice luck says each side's in one line, how its rolls compare with every
game like this one (rules/luck_games.py), then the two rolls that stood out
with the odds they beat, then the table per side and kind of roll.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import replace
from fractions import Fraction
from functools import partial
from html import escape
from typing import TYPE_CHECKING

from battletracker.core.odds import Distribution
from battletracker.model.fields import game_from_state
from battletracker.model.game import OUT_OF_PLAY
from battletracker.model.game import Game
from battletracker.model.game import TableCopies
from battletracker.model.game import Unit
from battletracker.rules.account import CLOCK_ACTIONS
from battletracker.rules.account import AccountLine
from battletracker.rules.account import action_line
from battletracker.rules.account import clock_lines
from battletracker.rules.account import note_line
from battletracker.rules.account import table_state
from battletracker.rules.account import table_state_after
from battletracker.rules.base import counted
from battletracker.rules.luck import GameLuck
from battletracker.rules.luck import RolledLuck
from battletracker.rules.luck import better_of
from battletracker.rules.luck import game_luck
from battletracker.rules.luck import rate_with_odds
from battletracker.rules.luck_games import GamesLike
from battletracker.rules.luck_games import as_bad
from battletracker.rules.luck_games import as_good
from battletracker.rules.luck_games import games_like
from battletracker.rules.luck_games import spread
from battletracker.rules.sequence import ROUND_RULESETS
from battletracker.rules.sequence import side_name
from battletracker.rules.words import possessive

if TYPE_CHECKING:
    from battletracker.rules.replay import Progress


@dataclass(frozen=True)
class UnitFate:
    """What became of one unit: figures lost, Shock, vehicle damage, out of play or taken off the table."""

    name: str
    figures_lost: int
    figures_max: int
    shock: int
    damage: tuple[str, ...]
    out_of_play: bool
    removed: bool = False

    def summary(self) -> str:
        """The fate in a player's words, e.g. "2 of 8 figures lost, 3 Shock"."""
        said: list[str] = []
        if self.removed:
            said.append("taken off the table")
        elif self.out_of_play:
            said.append("out of play")
        if self.figures_lost:
            said.append(f"{self.figures_lost} of {self.figures_max} figures lost")
        if self.shock:
            said.append(f"{self.shock} Shock")
        said.extend(d.replace("_", " ") for d in self.damage)
        return ", ".join(said) if said else "unharmed"


@dataclass(frozen=True)
class LogRow:
    """One battle log line with the action that wrote it (if replayed): who, what, which dice; a row of the CSV."""

    index: int
    turn: int
    phase: int
    side: str
    action: str
    dice: str
    text: str
    starred: bool


MAX_PICTURES = 48
"""Pictures of the table in one report, the table as it stands now besides: four dozen tables already make a
long report. A game with more Turn ends and starred lines pictures the first ones and says how many it left
out (a report of 3,000 starred lines took two minutes and 265 MB, all of it pictures); the luckiest and the
unluckiest roll are always pictured, within the limit."""


@dataclass(frozen=True)
class Moment:
    """A picture of the table: `key` names it for the pictures the UI draws, `caption` says when it was."""

    key: str
    caption: str
    turn: int
    game: Game


@dataclass(frozen=True)
class StandOut:
    """The luckiest or the unluckiest roll of the game, pictured by the Moment `key` (the table just after it).

    `title` names it ("The luckiest roll"), `lucky` says which way it stood
    out, `beaten` is the chance of a roll as good or better (lucky) or as bad or
    worse (not), and `extreme` that none better (worse) could have been rolled.
    """

    key: str
    title: str
    roll: RolledLuck
    lucky: bool
    beaten: Fraction
    extreme: bool

    def odds(self) -> str:
        """The odds the roll beat in words: "a 1 in 12 roll: only 8% of rolls do as well"."""
        return beaten_words(self.beaten, self.lucky, self.extreme)


@dataclass(frozen=True)
class BattleReport:
    """What the report says: `rows` are the log's lines (the CSV), `account` the story Turn by Turn (the page);
    `whose_phase` names the side whose Phase each (Turn, Phase) was, where the game takes turns by Phases."""

    title: str
    sides: tuple[str, ...]
    colours: tuple[str, ...]
    fates: tuple[tuple[UnitFate, ...], ...]
    rows: tuple[LogRow, ...]
    moments: tuple[Moment, ...]
    luck: GameLuck
    history_note: str
    account: tuple[AccountLine, ...] = ()
    whose_phase: tuple[tuple[int, int, str], ...] = ()
    dice: tuple[GamesLike | None, ...] = ()
    """Each side's rolls against every game like this one; None for a side with no rated roll."""
    stand_outs: tuple[StandOut, ...] = ()
    """The luckiest roll and the unluckiest (one, when a single roll could have gone otherwise)."""

    def dice_line(self, side: int) -> str:
        """A side's luck over the game in one line: "Germany's dice: better than 71% of games like this"."""
        return dice_line(self.sides[side], self.dice[side] if side < len(self.dice) else None)


def unit_fate(unit: Unit, removed: bool = False) -> UnitFate:
    damage = tuple(unit.vehicle.damage) if unit.vehicle is not None else ()
    return UnitFate(unit.name, max(0, unit.figures_max - unit.figures), unit.figures_max, unit.shock, damage,
                    OUT_OF_PLAY in unit.conditions, removed)


def build_report(game: Game, progress: Progress | None = None) -> BattleReport:
    """Everything the report says about `game`, its history replayed once (the luck read from the same replay).

    `progress` follows the replay; Cancelled when it says stop.
    """
    from battletracker.rules.replay import PROGRESS_EVERY
    from battletracker.rules.replay import Cancelled
    from battletracker.rules.replay import ReplayError
    from battletracker.rules.replay import replayed_actions

    sides = tuple(side_name(game, i) for i in range(len(game.sides)))
    start = game_from_state(game.start, "history.start") if game.start is not None else None
    fates: list[list[UnitFate]] = [[] for _ in sides]
    for unit in game.units.values():
        if 0 <= unit.side < len(fates):
            fates[unit.side].append(unit_fate(unit))
    if start is not None:
        for unit in start.units.values():
            if unit.id not in game.units and 0 <= unit.side < len(fates):
                fates[unit.side].append(unit_fate(unit, removed=True))

    note, stopped = "", ""
    starred = {i for i, e in enumerate(game.log) if e.starred}
    row_action: dict[int, tuple[str, str, str]] = {}
    moments: list[Moment] = []
    left_out = 0

    def picture(moment: Moment, copies: TableCopies) -> None:
        """Keep the moment with a copy of its table, up to MAX_PICTURES."""
        nonlocal left_out
        if len(moments) < MAX_PICTURES:
            moments.append(replace(moment, game=copies.copy(moment.game)))
        else:
            left_out += 1

    rolls: list[RolledLuck] = []
    standing = _Standing()
    told: list[tuple[int, list[AccountLine]]] = []  # (first log line, the account's lines), in the log's order
    whose: dict[tuple[int, int], str] = {}
    if start is None:
        note = ("This game has no replayable history (it was made before the app recorded actions), "
                "so the table is pictured only as it stands now.")
        luck = game_luck(game)
    else:
        state = table_state(start)
        copies = TableCopies(start)
        try:
            for replayed, current in replayed_actions(game):
                if progress is not None and replayed.index % PROGRESS_EVERY == 0 and \
                        not progress(replayed.index, len(game.actions)):
                    raise Cancelled
                writes = [e.writes for e in replayed.step.effects]
                copies.wrote(writes)
                action, before = replayed.action, replayed.log_from
                rated = rate_with_odds(replayed, current)
                if rated is not None:
                    rolls.append(rated[0])
                    standing.rated(*rated, partial(copies.copy, current))
                who = side_name(current, replayed.side) if 0 <= replayed.side < len(current.sides) else ""
                for i in range(before, len(current.log)):
                    row_action[i] = (who, replayed.step.title, " ".join(map(str, action.dice)))
                if (replayed.turn, replayed.phase) not in whose and 0 <= state.active_side < len(current.sides):
                    whose[replayed.turn, replayed.phase] = side_name(current, state.active_side)
                after = table_state_after(state, current, writes)
                written = game.log[before:len(current.log)]
                told.append((before, clock_lines(replayed, written) if action.name in CLOCK_ACTIONS else
                             [action_line(replayed, state, after, current, who, any(e.starred for e in written))]))
                state = after
                turn = replayed.turn
                if current.turn > turn:
                    picture(Moment(f"turn-{turn}", f"End of Turn {turn}", turn, current), copies)
                for i in sorted(starred & set(range(before, len(current.log)))):
                    picture(Moment(f"star-{i}", f"Starred: {game.log[i].text}", game.log[i].turn, current), copies)
                    starred.discard(i)
        except ReplayError as exc:
            stopped = str(exc)
            count = exc.index if exc.index is not None else 0
            note = (f"The replay of this game stops at action {count + 1}: {exc}. The table is pictured up to "
                    f"there, and as it stands now.")
        luck = GameLuck(tuple(rolls), stopped)
    for i in sorted(starred):
        if len(moments) < MAX_PICTURES:
            moments.append(Moment(f"star-{i}", f"Starred: {game.log[i].text} (the table as it stands now)",
                                  game.log[i].turn, game))
        else:
            left_out += 1
    stand_outs = standing.stand_outs(sides)
    overflow = len(moments) + len(stand_outs) - MAX_PICTURES
    if overflow > 0:  # the two rolls always get their pictures: the last Turn ends and starred lines make room
        del moments[-overflow:]
        left_out += overflow
    moments.extend(moment for _s, moment in stand_outs)
    if left_out:
        note = " ".join(filter(None, [note, f"{counted(left_out, 'more moments')} (Turn ends and starred lines) "
                                             f"{'is' if left_out == 1 else 'are'} not pictured: a report pictures "
                                             f"the first {MAX_PICTURES - len(stand_outs)}; the log below marks "
                                             "every starred line."]))
    moments.append(Moment("now", f"The table now (Turn {game.turn}, Phase {game.phase})", game.turn, game))
    rows = tuple(LogRow(i, e.turn, e.phase, *row_action.get(i, ("", "", "")), e.text, e.starred)
                 for i, e in enumerate(game.log))
    told.extend((i, [note_line(e)]) for i, e in enumerate(game.log) if i not in row_action)
    account = tuple(line for _i, lines in sorted(told, key=lambda t: t[0]) for line in lines)
    phases = () if game.ruleset in ROUND_RULESETS else tuple((t, p, s) for (t, p), s in whose.items())
    colours = tuple(s.colour for s in game.sides)
    return BattleReport(game.title, sides, colours, tuple(tuple(f) for f in fates), rows, tuple(moments),
                        luck, note, account, phases, standing.dice(len(sides)), tuple(s for s, _m in stand_outs))


class _Standing:
    """What the replay keeps for the dice luck: each rated roll's spread, and the luckiest and unluckiest roll
    so far with a copy of the table just after it (taken only when a roll takes the lead)."""

    def __init__(self) -> None:
        self.spreads: list[tuple[int, Distribution[Fraction], Fraction]] = []  # (side, spread, percentile)
        self.best: tuple[tuple[Fraction, Fraction], RolledLuck, Distribution[Fraction], Game] | None = None
        self.worst: tuple[tuple[Fraction, Fraction], RolledLuck, Distribution[Fraction], Game] | None = None

    def rated(self, roll: RolledLuck, dist: Distribution[str], after: Callable[[], Game]) -> None:
        """A rated roll (one that could have gone better or worse: `luck.rate`) under its odds `dist`; `after`
        copies the table just after it."""
        spread_ = spread(dist, better_of(roll.procedure))
        self.spreads.append((roll.side, spread_, roll.percentile))
        rarer = -dist.p(roll.outcome)
        table: Game | None = None
        # The highest percentile, the rarer outcome on a tie, else the first; the lowest likewise. The first of
        # equals keeps its place, so a long game of like rolls copies its table once, not at every roll.
        if self.best is None or (roll.percentile, rarer) > self.best[0]:
            table = after()
            self.best = ((roll.percentile, rarer), roll, spread_, table)
        if self.worst is None or (-roll.percentile, rarer) > self.worst[0]:
            self.worst = ((-roll.percentile, rarer), roll, spread_, table or after())

    def dice(self, sides: int) -> tuple[GamesLike | None, ...]:
        out: list[GamesLike | None] = []
        for side in range(sides):
            mine = [(s, p) for rolled_by, s, p in self.spreads if rolled_by == side]
            out.append(games_like([s for s, _p in mine], [p for _s, p in mine]) if mine else None)
        return tuple(out)

    def stand_outs(self, sides: tuple[str, ...]) -> list[tuple[StandOut, Moment]]:
        if self.best is None or self.worst is None:
            return []
        picked = [("luckiest", "The luckiest roll", True, self.best),
                  ("unluckiest", "The unluckiest roll", False, self.worst)]
        if len(self.spreads) == 1:
            only = self.best[1].percentile >= Fraction(1, 2)
            picked = [("luckiest" if only else "unluckiest", "The only roll that could have gone better or worse",
                       only, self.best if only else self.worst)]
        out: list[tuple[StandOut, Moment]] = []
        for key, title, lucky, (_k, roll, spread_, table) in picked:
            beaten = as_good(spread_, roll.percentile) if lucky else as_bad(spread_, roll.percentile)
            extreme = beaten == spread_.p(roll.percentile)
            who = sides[roll.side] if 0 <= roll.side < len(sides) else ""
            caption = (f"{title}: {roll.title} \u2014 {roll.words} ({who}, Turn {roll.turn}), "
                       "the table just after it")
            out.append((StandOut(key, title, roll, lucky, beaten, extreme), Moment(key, caption, roll.turn, table)))
        return out


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a CSV cell as a formula (OWASP's CSV injection advice)."""


def as_text(cell: str) -> str:
    """`cell` as a spreadsheet shows it: an apostrophe first when it would otherwise be read as a formula.

    A side or unit named `=HYPERLINK(...)` or `@SUM(A1)` would otherwise run
    when the log is opened in a spreadsheet. Only the first character counts,
    so "Shock on 1 Section: 2 -> 3" is left as it is.
    """
    return "'" + cell if cell.startswith(FORMULA_STARTS) else cell


def log_csv(report: BattleReport) -> str:
    """The battle log as CSV: turn, phase, side, action, dice, result (one row per log line).

    Turn and phase are the game's counters (whole numbers from 1), written as
    numbers so a spreadsheet sorts and sums them. Every other column is text
    and goes through `as_text`: names the players typed, the app's words, and
    the dice as faces separated by spaces (numbers from 1 or face names, as
    recorded in the save file, so checked like any other text). A name such
    as "-2" is a name, not a quantity, and keeps its apostrophe.

    Lines end in CR LF, as RFC 4180 has it: the writer then quotes a field
    holding a lone carriage return too, where a spreadsheet would otherwise
    start a new row, with whatever follows it at the start of a cell.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["turn", "phase", "side", "action", "dice", "result"])
    for r in report.rows:
        writer.writerow([r.turn, r.phase, *map(as_text, (r.side, r.action, r.dice, r.text))])
    return out.getvalue()


def percent(p: Fraction) -> str:
    """A percentile as a player reads it: a whole percent."""
    return f"{round(float(p) * 100)}%"


def share(p: Fraction) -> str:
    """A chance as a share of rolls or games, never rounded to none or all of them: "71%", "0.077%", "99.9%"."""
    pct = p * 100
    if pct in (0, 100) or 1 <= pct <= 99:
        return f"{round(pct)}%"
    if pct < 1:
        return f"{float(pct):.2g}%"
    return f"{math.floor(pct * 10) / 10:g}%"  # "better than" stays true: 99.96% is said 99.9%


def beaten_words(beaten: Fraction, lucky: bool, extreme: bool) -> str:
    """The odds a roll beat: "a 1 in 12 roll: only 8% of rolls do as well" (`beaten` the chance of a roll as
    good or better), or as badly for an unlucky roll; "the best (worst) these dice could do" when nothing
    better (worse) could be rolled."""
    did = "do as well" if lucky else "do as badly"
    if beaten > Fraction(1, 2):
        said = f"a common roll: {share(beaten)} of rolls {did}"
    else:
        said = f"a 1 in {round(1 / beaten):,} roll: only {share(beaten)} of rolls {did}"
    if extreme:
        said += f", the {'best' if lucky else 'worst'} these dice could do"
    return said


def dice_line(side: str, dice: GamesLike | None) -> str:
    """A side's luck in one line: "Germany's dice: better than 71% of games like this"."""
    whose = f"{possessive(side)} dice"
    if dice is None:
        return f"{whose}: no roll whose odds the app knew"
    return f"{whose}: better than {share(dice.chance)} of games like this"


def compared(p: Fraction) -> str:
    """A roll's percentile as a player says it: "better than 71% of rolls like it"."""
    return f"better than {percent(p)} of rolls like it"


def on_average(p: Fraction) -> str:
    """A mean percentile as a player says it: "on average better than 56% of rolls like them"."""
    return f"on average better than {percent(p)} of rolls like them"


def procedure_title(procedure: str) -> str:
    """A procedure's name as a player reads it ("Dice pool")."""
    from battletracker.rules import get

    return get(procedure).title or procedure


def luck_plot_svg(report: BattleReport, width: int = 640, height: int = 240) -> str:
    """Each side's running mean percentile after each of its rolls, as an inline SVG line chart (50% dashed)."""
    pad = 36
    series = [(i, report.luck.running(i)) for i in range(len(report.sides))]
    longest = max((len(s) for _i, s in series), default=0)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
             f'<rect x="{pad}" y="8" width="{width - 2 * pad}" height="{height - pad - 8}" fill="none" stroke="#888"/>']

    def y(p: Fraction) -> float:
        return 8 + (1 - float(p)) * (height - pad - 8)

    def x(n: int) -> float:
        return pad + (n - 1) / max(1, longest - 1) * (width - 2 * pad)

    for level in (0, 50, 100):
        parts.append(f'<text x="{pad - 4}" y="{y(Fraction(level, 100)) + 4:.1f}" text-anchor="end">{level}%</text>')
    parts.append(f'<line x1="{pad}" x2="{width - pad}" y1="{y(Fraction(1, 2)):.1f}" y2="{y(Fraction(1, 2)):.1f}" '
                 'stroke="#888" stroke-dasharray="4 3"/>')
    for k, (side, points) in enumerate(series):
        colour = escape(report.colours[side]) if side < len(report.colours) else "#444"
        if points:
            coords = " ".join(f"{x(n):.1f},{y(p):.1f}" for n, p in points)
            parts.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2"/>')
            if len(points) == 1:
                parts.append(f'<circle cx="{x(1):.1f}" cy="{y(points[0][1]):.1f}" r="3" fill="{colour}"/>')
        parts.append(f'<text x="{pad + 8 + 150 * k}" y="{height - 8}" fill="{colour}">'
                     f'{escape(report.sides[side])}</text>')
    parts.append(f'<text x="{width - pad}" y="{height - 8}" text-anchor="end">rolls \u2192</text></svg>')
    return "".join(parts)


_STYLE = """
body { font-family: sans-serif; max-width: 60em; margin: 1em auto; color: #222; }
h1 { margin-bottom: 0.2em; } table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #bbb; padding: 2px 6px; text-align: left; vertical-align: top; }
th { background: #eee; } .star { color: #c80; } img { max-width: 100%; border: 1px solid #888; }
.picture { margin: 1em 0; } .caption { margin-top: 0.2em; font-style: italic; } .note { font-style: italic; }
table.account { border-collapse: collapse; margin: 0 0 0.5em; } table.account td { border: none; padding: 1px 6px; }
table.account td.side { padding-top: 4px; }
.dice { color: #888; font-size: small; } .aside { color: #555; font-style: italic; }
h4 { margin: 0.6em 0 0.2em; }
"""


def report_html(report: BattleReport, pictures: Mapping[str, str], plot: str | None = None) -> str:
    """The report as one HTML page; `pictures` maps a Moment's key to its image's address (a data: URI).

    The luck plot is inline SVG, or the image at `plot` for a reader that
    draws no inline SVG (Qt's rich text, which prints the PDF).
    """
    h: list[str] = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                    f"<title>{escape(report.title)} - battle report</title><style>{_STYLE}</style></head><body>",
                    f"<h1>{escape(report.title)}</h1>",
                    f"<p>{' against '.join(escape(s) for s in report.sides)}</p>"]
    if report.history_note:
        h.append(f'<p class="note">{escape(report.history_note)}</p>')
    h.append('<h2 id="units">The forces and what became of them</h2>')
    for side, fates in zip(report.sides, report.fates, strict=True):
        h.append(f"<h3>{escape(side)}</h3><table><tr><th>Unit</th><th>What became of it</th></tr>")
        h.extend(f'<tr class="unit"><td>{escape(f.name)}</td><td>{escape(f.summary())}</td></tr>' for f in fates)
        h.append("</table>")
    h.append('<h2 id="turns">Turn by Turn</h2>')
    by_turn: dict[int, list[AccountLine]] = {}
    for line in report.account:
        by_turn.setdefault(line.turn, []).append(line)
    pictured: dict[int, list[Moment]] = {}
    stood_out = {s.key for s in report.stand_outs}  # pictured with the dice luck
    for m in report.moments:
        if m.key not in stood_out:
            pictured.setdefault(m.turn, []).append(m)
    whose = {(t, p): s for t, p, s in report.whose_phase}
    colour = dict(zip(report.sides, report.colours, strict=True))
    for turn in sorted(set(by_turn) | set(pictured)):
        h.append(f'<h3 class="turn" id="turn-{turn}">Turn {turn}</h3>')
        phase: int | None = None
        under: str | None = None  # the side the lines are under
        for line in by_turn.get(turn, []):
            if line.phase != phase:
                if phase is not None:
                    h.append("</table>")
                phase, under = line.phase, None
                of = whose.get((turn, phase))
                h.append(f"<h4>Phase {phase}{': ' + escape(of) if of else ''}</h4>"
                         '<table class="account" width="100%">')
            star = '<span class="star">\u2605</span> ' if line.starred else ""
            if line.side and line.side != under:
                h.append(f'<tr><td colspan="2" class="side"><b style="color: {escape(colour.get(line.side, "#222"))}">'
                         f"{escape(line.side)}</b></td></tr>")
            under = line.side
            said = escape(line.text) if line.side else f'<span class="aside">{escape(line.text)}</span>'
            h.append(f'<tr><td width="75%">{star}{said}</td><td class="dice">{escape(line.dice)}</td></tr>')
        if phase is not None:
            h.append("</table>")
        for m in pictured.get(turn, []):
            uri = pictures.get(m.key)
            if uri:
                h.append(f'<div class="picture"><img src="{escape(uri)}" alt="{escape(m.caption)}">'
                         f'<p class="caption">{escape(m.caption)}</p></div>')
    h.append('<h2 id="luck">The dice luck</h2>')
    rolls_said = ("<p>Every roll whose odds the app knew is set against everything the same dice could have done, "
                  "for the side that rolled them: the firer for an attack, the side taking a test, the side whose "
                  "Command Dice they are. Better means what the rules make better for that side: more kills "
                  "before more Shock, a vehicle destroyed before any damage, a smaller Force Morale loss, another "
                  "Phase, a shorter deviation; a draw counts as half. An average roll is better than 50% of rolls "
                  "like it, the best possible better than nearly all of them.</p>")
    if not report.luck.rolls:
        h.append(rolls_said)
        h.append('<p class="note">No roll with known odds was replayed in this game.</p>')
    else:
        h.extend(f'<p class="dice-line"><b>{escape(report.dice_line(side))}</b></p>'
                 for side in range(len(report.sides)))
        simulated = [report.sides[i] for i, d in enumerate(report.dice) if d is not None and not d.exact]
        games = next((d.games for d in report.dice if d is not None and not d.exact), 0)
        h.append("<p>A game like this is one with the same rolls, every die rolled again. The line says how a "
                 "side's rolls, taken together, compare with all those games: a draw counts as half, so 50% is "
                 "as average as a game gets, and better than 50% means luckier than most." +
                 (f" So many different rolls make too many games to count one by one, so the app rolled {games:,} "
                  f"of them for {escape(' and '.join(simulated))}; the share may be a point out." if simulated
                  else " Every game like this was counted, so the share is exact.") + "</p>")
        h.append(rolls_said)
        for stand_out in report.stand_outs:
            r = stand_out.roll
            who = report.sides[r.side] if 0 <= r.side < len(report.sides) else ""
            said = stand_out.odds()
            h.append(f'<h3 class="stand-out">{escape(stand_out.title)}</h3>'
                     f"<p>{escape(who)}, Turn {r.turn}: {escape(r.title)} \u2014 {escape(r.words)}. "
                     f"{escape(said[:1].upper() + said[1:])}.</p>")
            uri = pictures.get(stand_out.key)
            if uri:
                h.append(f'<div class="picture"><img src="{escape(uri)}" alt="{escape(stand_out.title)}">'
                         '<p class="caption">The table just after it</p></div>')
        h.append("<h3>Each kind of roll</h3>")
        h.append('<table class="luck"><tr><th>Side</th><th>Procedure</th><th>Rolls</th><th>Mean percentile</th></tr>')
        for (rolled_by, procedure), (n, mean) in report.luck.by_side_and_procedure().items():
            h.append(f"<tr><td>{escape(report.sides[rolled_by])}</td><td>{escape(procedure_title(procedure))}</td>"
                     f"<td>{n}</td><td>{on_average(mean)}</td></tr>")
        for rolled_by, (n, mean) in sorted(report.luck.by_side().items()):
            h.append(f"<tr><th>{escape(report.sides[rolled_by])}</th><th>all</th><th>{n}</th>"
                     f"<th>{on_average(mean)}</th></tr>")
        h.append("</table>")
        h.append('<table class="rolls"><tr><th>Turn</th><th>Side</th><th>Roll</th><th>Result</th>'
                 "<th>How it compares</th></tr>")
        for r in report.luck.rolls:
            h.append(f'<tr><td>{r.turn}</td><td>{escape(report.sides[r.side])}</td><td>{escape(r.title)}</td>'
                     f'<td>{escape(r.words)}</td><td data-percentile="{r.percentile}">'
                     f"{compared(r.percentile)}</td></tr>")
        h.append("</table>")
        chart = f'<img src="{escape(plot)}" alt="The luck plot">' if plot else luck_plot_svg(report)
        h.append(f'<div class="picture">{chart}<p class="caption">How each side\'s rolls compared, on average, '
                 "as the battle went on</p></div>")
    if report.luck.stopped:
        h.append(f'<p class="note">Rolls after this were not rated: {escape(report.luck.stopped)}.</p>')
    h.append("</body></html>")
    return "\n".join(h)
