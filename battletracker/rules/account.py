"""The battle report's account of the battle: one line an action, in a player's words, under the side that acted.

The log keeps every roll and every step; a club member reading the report
afterwards wants the story. So each recorded action is one sentence: what it
was (its step's title, which names who did it and to whom: "sMG42 team fires
at 1st Squad") and what came of it, read from the table just before and just
after it (figures lost, Shock, vehicle damage, conditions, units taken off the
table, a side's Force Morale), else the outcome as its procedure labels it
("Unobserved: no effect"). The dice go in a column of their own beside it.
No line says an id, a raw outcome key or a coordinate pair.

End Phase and End Turn are the clock's, not a side's: what they brought (a
bombardment's next Phase, units no longer Pinned) is said in short lines of
their own, and the Phase headings say whose Phase it was. A log line no
replayed action wrote (a game older than its history, or past where its
replay stopped) is a short line as it stands.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from battletracker.core.geometry import distance
from battletracker.model.game import Game
from battletracker.model.game import LogEntry
from battletracker.rules.base import counted
from battletracker.rules.base import inches
from battletracker.rules.places import place_words
from battletracker.rules.step import DONE
from battletracker.rules.words import UnitNames
from battletracker.rules.words import condition_words
from battletracker.rules.words import damage_result
from battletracker.rules.words import possessive

if TYPE_CHECKING:
    from battletracker.model.changes import Changes
    from battletracker.model.game import Unit
    from battletracker.rules.replay import Replayed

MOVED = 0.05
"""A unit's place changed by less than this (inches) has not moved: the account says a tenth of an inch at most."""

CLOCK_ACTIONS = frozenset({"clock.end_phase", "clock.end_turn"})
"""The actions that move the clock on: no side takes them, the headings say what they did."""


@dataclass(frozen=True)
class AccountLine:
    """One line of the account: `side` the side that acted ("" for a line of the clock's or a note)."""

    turn: int
    phase: int
    side: str
    text: str
    dice: str = ""
    starred: bool = False


@dataclass(frozen=True)
class UnitState:
    """What the account tells of a unit: where it is and what has happened to it."""

    name: str
    x: float
    y: float
    figures: int
    shock: int
    damage: tuple[str, ...]
    conditions: tuple[str, ...]
    category: str


@dataclass(frozen=True)
class TableState:
    """What the account compares across an action: each unit's state, each side's name and Force Morale, and
    whose Phase it is."""

    units: dict[str, UnitState]
    sides: tuple[tuple[str, int], ...]
    active_side: int


def unit_state(unit: Unit) -> UnitState:
    return UnitState(unit.name, unit.x, unit.y, unit.figures, unit.shock,
                     tuple(unit.vehicle.damage) if unit.vehicle is not None else (), tuple(unit.conditions),
                     unit.vehicle.category if unit.vehicle is not None else "")


def table_state(game: Game) -> TableState:
    """The parts of `game` an action's consequences are read from (small: taken after every replayed action)."""
    return TableState({u.id: unit_state(u) for u in game.units.values()},
                      tuple((s.name, s.force_morale) for s in game.sides), game.active_side)


def table_state_after(before: TableState, game: Game, written: Iterable[Changes]) -> TableState:
    """`table_state(game)` for `game` just after effects that wrote `written` (their `Effect.writes`) changed the
    table `before` was taken of.

    Only the units they wrote are read again and the others keep their very
    UnitState, so a report of 300 actions on 500 units does not read 150,000
    units, and `consequences` passes the kept ones over. An effect that adds or
    removes a unit, or may write anything, has the whole table read again, so
    the units stay in the game's order.
    """
    units = before.units  # copied before the first unit it changes: a TableState's units are never changed
    for writes in written:
        if writes.everything or writes.roster:
            return table_state(game)
        if writes.units and units is before.units:
            units = dict(before.units)
        for unit_id in writes.units:
            unit = game.units.get(unit_id)
            if unit is None or unit_id not in units:
                return table_state(game)
            units[unit_id] = unit_state(unit)
    return TableState(units, tuple((s.name, s.force_morale) for s in game.sides), game.active_side)


def unit_changes(before: UnitState | None, after: UnitState | None, ruleset: str) -> list[str]:
    """What happened to one unit across an action, each in a few words ("1 figure lost", "Pinned")."""
    if after is None:
        return ["taken off the table"] if before is not None else []
    if before is None:
        return ["comes onto the table"]
    said: list[str] = []
    if after.figures < before.figures:
        said.append(f"{counted(before.figures - after.figures, 'figures')} lost")
    elif after.figures > before.figures:
        said.append(f"{counted(after.figures - before.figures, 'figures')} back")
    said.extend(damage_result(ruleset, after.category, d).title for d in after.damage if d not in before.damage)
    said.extend(f"{damage_result(ruleset, after.category, d).title} repaired"
                for d in before.damage if d not in after.damage)
    if after.shock > before.shock:
        said.append(f"{after.shock - before.shock} Shock")
    elif after.shock < before.shock:
        said.append(f"{before.shock - after.shock} Shock removed")
    said.extend(condition_words(c) for c in after.conditions if c not in before.conditions)
    said.extend(f"no longer {condition_words(c)}" for c in before.conditions if c not in after.conditions)
    return said


def consequences(before: TableState, after: TableState, title: str, acting: str, ruleset: str) -> str:
    """What came of an action, read from the table: units with the same fate said together, then Force Morale.

    A single unit the title already names is not named again ("fires at 1st Squad - 1 figure lost").
    """
    fates: dict[tuple[str, ...], list[str]] = {}
    # A unit whose very UnitState table_state_after kept was written by nothing: only the others are read (none
    # when it kept the whole roster, after an action that wrote no unit).
    changed: list[str] = []
    if after.units is not before.units:
        changed = [k for k, was in before.units.items() if after.units.get(k) is not was]
        if before.units.keys() != after.units.keys():
            changed.extend(k for k in after.units if k not in before.units)
    for key in changed:
        was, now = before.units.get(key), after.units.get(key)
        said = unit_changes(was, now, ruleset)
        if was is not None and now is not None:
            moved = distance((was.x, was.y), (now.x, now.y))
            if moved >= MOVED:
                said.append(f'moved {inches(moved)}"')
        unit = now if now is not None else was
        if said and unit is not None:
            fates.setdefault(tuple(said), []).append(unit.name)
    parts: list[str] = []
    only = [(said, names[0]) for said, names in fates.items() if len(names) == 1] if len(fates) == 1 else []
    if only and only[0][1] in title:
        parts.append(", ".join(only[0][0]))
    else:
        parts.extend(f"{and_list(names)}: {', '.join(said)}" for said, names in fates.items())
    for (name, was_morale), (_n, morale) in zip(before.sides, after.sides, strict=False):
        if morale != was_morale:
            whose = "Force Morale" if name == acting else f"{possessive(name)} Force Morale"
            change = "falls" if morale < was_morale else "rises"
            parts.append(f"{whose} {change} by {abs(morale - was_morale)} to {morale}")
    return "; ".join(parts)


def and_list(names: Sequence[str]) -> str:
    """Names as a sentence lists them: "1st Squad, 2nd Squad and Lt. Hayes"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def what_was_done(title: str, sides: Sequence[str]) -> str:
    """The step's title without the acting side's name before it ("Germany: Command Dice" -> "Command Dice"):
    the account already puts the line under its side."""
    for name in sides:
        if name and title.startswith(f"{name}: "):
            return title[len(name) + 2:]
    return title


def _moved(replayed: Replayed, before: TableState, game: Game) -> str | None:
    """A move as it was made: '2nd Squad moved 20.6", now 3" north of the Stone wall'."""
    unit_id = replayed.plan.choices.get("unit")
    was = before.units.get(unit_id) if isinstance(unit_id, str) else None
    unit = game.units.get(unit_id) if isinstance(unit_id, str) else None
    if was is None or unit is None:
        return None
    how_far = inches(distance((was.x, was.y), (unit.x, unit.y)))
    place = _place_after(replayed, unit) or place_words(game, (unit.x, unit.y), besides=unit.id)
    return f'{unit.name} moved {how_far}", now {place}'


def _place_after(replayed: Replayed, unit: Unit) -> str | None:
    """Where the move's plan said `unit` went (`Plan.said`), where that still holds after the move: the unit is
    there and the move wrote nothing else `place_words` reads (no other unit, no building or terrain), so the
    table the plan said it of, the unit aside, is the table after the move. Else None.

    The plan's words spare the report a second search of every unit and piece of terrain for each move: on a
    500-unit game, the most of what the account costs.
    """
    place = replayed.plan.said.get("place")
    if place is None or (replayed.plan.inputs.get("x"), replayed.plan.inputs.get("y")) != (unit.x, unit.y):
        return None
    for effect in replayed.step.effects:
        writes = effect.writes
        if writes.everything or writes.roster or writes.buildings or writes.terrain or not writes.units <= {unit.id}:
            return None
    return place


def _first_line(replayed: Replayed, before: TableState, game: Game) -> str | None:
    """The step's own first log line, where that line already says it all (a new bombardment, named and placed)."""
    return game.log[replayed.log_from].text if replayed.log_from < len(game.log) else None


OWN_WORDS: dict[str, Callable[[Replayed, TableState, Game], str | None]] = {
    "unit.move": _moved,
    "coc.new_bombardment": _first_line,
}
"""Actions whose title does not say what a player would: a move says how far and where to, a new bombardment
its name, Phases of fire and aiming point (its title is only "New bombardment")."""


def action_line(replayed: Replayed, before: TableState, after: TableState, game: Game, side: str,
                starred: bool) -> AccountLine:
    """The account's line for one replayed action; `game` is the table just after it.

    A change made by hand (no dice, no outcome of its own: "Shock +1 on 1 Section", "Remove Ganger") is
    said by its title alone, which is the change.
    """
    from battletracker.rules import get

    sides = [name for name, _m in after.sides]
    what = what_was_done(replayed.step.title, sides)
    own = OWN_WORDS.get(replayed.action.name)
    text = (own(replayed, before, game) if own is not None else None) or what
    dice = " ".join(map(str, replayed.action.dice))
    if not dice and replayed.result.outcome == DONE:
        return AccountLine(replayed.turn, replayed.phase, side, text, "", starred)
    came = consequences(before, after, what, side, game.ruleset)
    if not came:
        came = get(replayed.plan.procedure).words(replayed.result.outcome, UnitNames(game))
    return AccountLine(replayed.turn, replayed.phase, side, f"{text} \u2014 {came}", dice, starred)


def clock_lines(replayed: Replayed, log: Sequence[LogEntry]) -> list[AccountLine]:
    """What an End Phase or End Turn brought, one short line each, from its lines of the saved `log` (their stars
    kept); the clock's own lines ("End of Turn 1 Phase 1", "Turn 1, Phase 2: United States") are left to the
    headings."""
    ticks = {replayed.plan.inputs.get("text"), replayed.plan.inputs.get("heading")}
    return [note_line(e) for e in log if e.text not in ticks]


def note_line(entry: LogEntry) -> AccountLine:
    """A log line as a short line of the account, no side's."""
    return AccountLine(entry.turn, entry.phase, "", entry.text, "", entry.starred)
