"""Replay a game's recorded actions from its start and check they make the saved state.

`python -m battletracker replay FILE` prints the outcome. Each action is
planned and resolved again with the dice it recorded and stamped with its
time, so the replay writes the same battle log; the first action whose log
lines differ from the saved log (its stars aside) is the one reported. A saved
line in a wording an older version wrote (rules/log_lines.py) is the same
line, and the replay keeps it as saved. When every action
replays but the states differ, the first differing place is named.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace
from pathlib import Path
from typing import Any

from battletracker.core.dice import DiceError
from battletracker.model.actions import UNTRACKED
from battletracker.model.actions import Action
from battletracker.model.effects import AppendLog
from battletracker.model.effects import Effect
from battletracker.model.fields import game_from_state
from battletracker.model.fields import state_dict
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.game import LogEntry
from battletracker.model.savefile import SaveFileError
from battletracker.model.sequence_effects import SetActed
from battletracker.rules import saved_games
from battletracker.rules.actions import ChoiceNeeded
from battletracker.rules.actions import Plan
from battletracker.rules.actions import carry_out
from battletracker.rules.actions import plan
from battletracker.rules.base import Resolution
from battletracker.rules.base import RulesInputError
from battletracker.rules.log_lines import added_since
from battletracker.rules.log_lines import dropped_since
from battletracker.rules.log_lines import reads_as
from battletracker.rules.luck import acting_side
from battletracker.rules.sequence import ROUND_RULESETS
from battletracker.rules.sequence import played_under
from battletracker.rules.tables import TableError


@dataclass(frozen=True)
class Step:
    """One replayed action: its undo step's name, the effects that make it and their inverses, in order."""

    title: str
    effects: tuple[Effect, ...]
    inverses: tuple[Effect, ...] = ()


@dataclass(frozen=True)
class ReplayReport:
    """`ok` when replaying every action gives the saved state; else `message` says where it went wrong.

    `index` is the first action (counted from 0) that did not replay as
    recorded, or None when the actions all replayed.
    """

    ok: bool
    message: str
    index: int | None = None


Progress = Callable[[int, int], bool]
"""Told how far a long piece of work has come (steps done, of how many); False stops it (Cancelled)."""

PROGRESS_EVERY = 50
"""Steps between two calls of a Progress: often enough for the window to stay live, rarely enough to cost nothing."""


class Cancelled(Exception):
    """The player stopped a long piece of work: nothing it was for has changed."""


class ReplayError(ValueError):
    """An action that does not replay as recorded; `index` is its place in the list."""

    def __init__(self, message: str, index: int | None) -> None:
        super().__init__(message)
        self.index = index


def describe(index: int, action: Action) -> str:
    choices = ", ".join(f"{k}={v}" for k, v in action.choices.items() if k not in ("unit", "image") or len(str(v)) < 40)
    dice = f"; dice {' '.join(map(str, action.dice))}" if action.dice else ""
    return f"action {index + 1} ({action.name}{': ' + choices if choices else ''}{dice})"


@dataclass(frozen=True)
class Replayed:
    """One action as its replay resolved it: what the battle report and the dice luck read of it.

    `side` is the side that acted (`luck.acting_side`), `turn` and `phase`
    when it was taken, `log_from` the first log line it wrote.
    """

    index: int
    action: Action
    step: Step
    plan: Plan
    result: Resolution
    side: int
    turn: int
    phase: int
    log_from: int


def replay_steps(game: Game, progress: Progress | None = None) -> tuple[Game, list[Step]]:
    """The game's start and each of its actions replayed on it, step by step.

    Raises ReplayError naming the first action that cannot be replayed or
    whose log lines differ from the saved log. The start is returned as the
    replay left it (after every step). `progress` is told how far it has
    come; Cancelled when it says stop.
    """
    current = start_of(game)
    steps: list[Step] = []
    total = len(game.actions)
    for i in range(total):
        if progress is not None and i % PROGRESS_EVERY == 0 and not progress(i, total):
            raise Cancelled
        steps.append(replay_action(game, current, i))
    return current, steps


def replayed_actions(game: Game) -> Iterator[tuple[Replayed, Game]]:
    """Each action replayed from the start, with the game right after it (changed in place by the next one).

    One replay for everything that reads a game's history (the report, the
    luck): raises ReplayError, after the actions before it, at the first
    action that does not replay as recorded.
    """
    current = start_of(game)
    for i in range(len(game.actions)):
        yield _replay(game, current, i), current


def start_of(game: Game) -> Game:
    """A new game in the state before the first recorded action (ReplayError when none was recorded)."""
    if game.start is None:
        raise ReplayError("this game has no recorded start: it has no actions to replay", None)
    return game_from_state(game.start, "history.start")


def replay_action(game: Game, current: Game, i: int) -> Step:
    """Replay `game`'s action `i` on `current` (the state after the actions before it) and return its step.

    Raises ReplayError when it cannot be replayed or writes other log lines
    than the saved ones; `current` is then no longer the state of any step.
    """
    return _replay(game, current, i).step


def _replay(game: Game, current: Game, i: int) -> Replayed:
    action = game.actions[i]
    if action.name == UNTRACKED:
        what = action.choices.get("title", "a change")
        raise ReplayError(f"action {i + 1} ({what}) was made by a dialog that does not record its "
                          f"choices yet, so the replay stops before it", i)
    before = len(current.log)
    turn, phase = current.turn, current.phase
    try:
        with played_under(action.rules):
            p = plan(action.name, current, action.choices)
            side = acting_side(current, action.choices, p.inputs, p.procedure)
            result = in_saved_words(carry_out(current, p, action.name, action.choices, action.dice,
                                              time=action.time, typed=action.typed), game.log, before, current)
        result = without_unrecorded_activations(result, game)
        inverses = current.apply_all(result.effects)
    except ChoiceNeeded as exc:
        raise ReplayError(f"{describe(i, action)} asks for a choice it did not record: {exc.prompt}", i) from None
    except (RulesInputError, GameError, DiceError, TableError) as exc:
        raise ReplayError(f"{describe(i, action)} cannot be replayed: {exc}", i) from None
    if current.actions[-1] != action:
        raise ReplayError(f"{describe(i, action)} rolled {list(current.actions[-1].dice)} on replay", i)
    written = current.log[before:]
    saved = [replace(e, starred=False) for e in game.log[before:before + len(written)]]
    if written != saved:
        bad = next(k for k in range(len(written)) if k >= len(saved) or written[k] != saved[k])
        said = saved[bad].text if bad < len(saved) else "nothing"
        raise ReplayError(f"{describe(i, action)} differs: the replay logs {written[bad].text!r}, "
                          f"the saved game says {said!r}", i)
    step = Step(p.title or action.name, tuple(result.effects), tuple(inverses))
    return Replayed(i, action, step, p, result, side, turn, phase, before)


def in_saved_words(result: Resolution, saved: Sequence[LogEntry], at: int, before: Game) -> Resolution:
    """`result` with each log line it appends worded as the saved log has it (from place `at` on), where the
    saved line is that line in an older wording (log_lines.OLD_WORDINGS); `before` is the game the step
    was taken in (an older line may say its units by id). A saved line this version no longer writes
    (log_lines.DROPPED_LINES) is kept in its place, and a line older versions did not write
    (log_lines.ADDED_LINES) is left out where the saved log does not have it.

    So a game saved before a wording changed replays to exactly the saved
    state: it reopens with its undo history, and undo and redo put back the
    lines as they were saved.
    """
    effects: list[Effect] = []
    place = at
    names: dict[str, str] | None = None
    last: LogEntry | None = None

    def keep_dropped(entry: LogEntry, written: str | None) -> None:
        nonlocal place
        while place < len(saved) and saved[place].text != written and dropped_since(saved[place].text):
            effects.append(AppendLog(replace(entry, text=saved[place].text)))
            place += 1

    for effect in result.effects:
        if isinstance(effect, AppendLog):
            keep_dropped(effect.entry, effect.entry.text)
            old = saved[place] if place < len(saved) else None
            if old is not None and old.text != effect.entry.text:
                names = names if names is not None else {k: u.name for k, u in before.units.items()}
                if reads_as(old.text, effect.entry.text, names):
                    effect = AppendLog(replace(effect.entry, text=old.text))
                elif added_since(effect.entry.text):
                    continue
            last = effect.entry
            place += 1
        effects.append(effect)
    if last is not None:
        keep_dropped(last, None)
    return replace(result, effects=effects) if effects != list(result.effects) else result


def without_unrecorded_activations(result: Resolution, saved: Game) -> Resolution:
    """`result` without the activations (SetActed) that `saved`, the game being replayed, never recorded.

    A game saved before an action recorded its unit's activation has that unit
    Ready at the saved clock, where the replay would leave it Activated: a
    SetActed for a unit the saved game has Ready, in the round (Armour Battles,
    Necromunda) or Phase (Chain of Command) the saved game ends in, is left
    out, so the game reopens with its undo history exactly as it was saved.
    An activation in an earlier round is kept: End Turn made the unit Ready
    again in the replay as in the game.
    """
    def unrecorded(effect: Effect) -> bool:
        if not isinstance(effect, SetActed) or effect.stamp is None:
            return False
        unit = saved.units.get(effect.unit_id)
        if unit is None or unit.acted is not None:
            return False
        if saved.ruleset in ROUND_RULESETS:
            return effect.stamp.turn == saved.turn
        return (effect.stamp.turn, effect.stamp.phase) == (saved.turn, saved.phase)

    if not any(unrecorded(e) for e in result.effects):
        return result
    return replace(result, effects=[e for e in result.effects if not unrecorded(e)])


def check(game: Game) -> ReplayReport:
    """Replay `game`'s actions from its start and compare the result with its state."""
    if game.start is None and not game.actions:
        return ReplayReport(True, "The game has no recorded actions: nothing to replay.")
    try:
        replayed, steps = replay_steps(game)
    except ReplayError as exc:
        return ReplayReport(False, _sentence(str(exc)), exc.index)
    where = first_difference(state_dict(replayed), state_dict(unstarred(game)))
    if where is not None:
        return ReplayReport(False, _sentence(f"all {len(steps)} actions replay, but the state differs at {where}"))
    return ReplayReport(True, f"All {len(steps)} actions replay to the saved state.")


def unstarred(game: Game) -> Game:
    """A copy of `game` with no star in its log: stars mark moments for the report and are no action."""
    copy = replace(game)
    copy.log = [replace(e, starred=False) for e in game.log]
    return copy


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def first_difference(replayed: Any, saved: Any, path: str = "game") -> str | None:
    """Where two plain values first differ, e.g. "game.units[0].counters.shock (replayed 2, saved 3)"."""
    if isinstance(replayed, dict) and isinstance(saved, dict):
        for key in [*replayed, *(k for k in saved if k not in replayed)]:
            found = first_difference(replayed.get(key), saved.get(key), f"{path}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(replayed, list) and isinstance(saved, list):
        for i, (a, b) in enumerate(zip(replayed, saved, strict=False)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found is not None:
                return found
        if len(replayed) != len(saved):
            return f"{path} ({len(replayed)} replayed, {len(saved)} saved)"
        return None
    if replayed != saved or type(replayed) is not type(saved):
        return f"{path} (replayed {replayed!r}, saved {saved!r})"
    return None


def replay(path: Path) -> int:
    """`battletracker replay FILE`: 0 when the actions replay to the saved state, 1 when not, 2 when the file
    cannot be read."""
    try:
        game = saved_games.load(path)
    except SaveFileError as exc:
        print(f"Cannot replay {path}: {exc}", file=sys.stderr)
        return 2
    report = check(game)
    print(report.message)
    return 0 if report.ok else 1
