"""Actions: every change a player makes, as a named plan over the table and a procedure.

    plan(name, game, choices)          -> Plan: what the table says about the action,
                                          or a Refusal in a player's words
    perform(game, name, choices, dice) -> Resolution whose effects, applied in one go,
                                          are the whole action (its record and log lines too)

`choices` are the plain values a player picked (unit ids, a weapon's number,
how much Shock, where to). A plan reads the game into the procedure's inputs;
the procedure (rules/__init__.py) turns inputs and dice into Effects and never
sees the game. An action with no registered plan but a procedure of the same
name (a dice pool) takes its choices as the procedure's inputs.

A choice needed mid-procedure raises `ChoiceNeeded` (rules/base.py), asked
like a missing die; the action runs again with the answer among its choices.
Whatever the dice, the action is recorded as an `Action` (name, choices, the
faces rolled in order): the first Effect of the step adds it to the game's
list, so a game can be replayed from its start (rules/replay.py).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from datetime import datetime
from typing import TypeVar

from battletracker.core.dice import Dice
from battletracker.core.dice import Die
from battletracker.core.dice import Face
from battletracker.core.dice import RandomDice
from battletracker.core.dice import ScriptedDice
from battletracker.model.actions import Action
from battletracker.model.effects import AppendLog
from battletracker.model.effects import Effect
from battletracker.model.game import Game
from battletracker.model.game import LogEntry
from battletracker.model.history import RecordAction
from battletracker.model.references import with_references_cleared
from battletracker.rules.base import ChoiceNeeded
from battletracker.rules.base import InputValue
from battletracker.rules.base import Refusal
from battletracker.rules.base import Resolution
from battletracker.rules.base import counted
from battletracker.rules.choices import Choices
from battletracker.rules.consequences import consequences
from battletracker.rules.log_lines import rolls_line
from battletracker.rules.sequence import activation_kept
from battletracker.rules.sequence import rules_now

V = TypeVar("V")


@dataclass(frozen=True)
class Plan:
    """One action read from the table.

    `procedure` and `inputs` are what `resolve`/`odds` take; `facts` are the
    sentences a dialog shows ("Range 21.2\" - Effective"); `choices` echoes
    what was picked. `title` names the undo step, `log_kind` the kind of its
    log lines. `effects` are changes the table itself calls for, read by the
    plan (what falls due when a Phase ends, a Pinned unit let go); they apply
    before the procedure's, and `log` says them after the procedure's lines.
    `said` is what the plan put in words that the battle report says again
    (a move's "place": where it goes, as `places.place_words` says it), so the
    report need not read the table for it a second time.
    """

    procedure: str
    inputs: Mapping[str, InputValue]
    facts: tuple[str, ...] = ()
    choices: Mapping[str, InputValue] = field(default_factory=dict)
    title: str = ""
    effects: tuple[Effect, ...] = ()
    log_kind: str = "effect"
    log: tuple[str, ...] = ()
    said: Mapping[str, str] = field(default_factory=dict)


PlanFn = Callable[[Game, Choices], Plan]

_plans: dict[str, PlanFn] = {}


def register_plan(name: str, fn: PlanFn) -> PlanFn:
    """Make `fn(game, choices) -> Plan` the plan of the action `name`; a second one is a programming error."""
    if name in _plans and _plans[name] is not fn:
        raise ValueError(f"action {name!r} has a plan already")
    _plans[name] = fn
    return fn


def actions() -> list[str]:
    """Every action with a registered plan, sorted."""
    from battletracker.rules import procedures

    procedures()  # importing every ruleset registers its plans
    return sorted(_plans)


def plan(name: str, game: Game, choices: Choices) -> Plan:
    """Read the table for the action `name`; a Refusal says in a player's words why it cannot be taken."""
    from battletracker.rules import get
    from battletracker.rules import procedures

    _check_plain(choices)
    known = procedures()
    fn = _plans.get(name)
    if fn is not None:
        return fn(game, choices)
    if name in known:
        return Plan(name, dict(choices), choices=dict(choices), title=get(name).title, log_kind="roll")
    raise Refusal("action", f"BattleTracker has no action called {name!r}.")


def _check_plain(choices: Choices) -> None:
    if not isinstance(choices, Mapping):
        raise Refusal("choices", "The choices of an action must be names and values.")
    for key, value in choices.items():
        if not isinstance(key, str) or not isinstance(value, str | int | float | bool):
            raise Refusal("choices", f"The choice {key!r} must be text, a number or yes/no.")


class _Recording:
    """Passes rolls through from `dice` and keeps every face, in order, for the action's record."""

    def __init__(self, dice: Dice) -> None:
        self._dice = dice
        self.faces: list[Face] = []

    def roll(self, die: Die, count: int, label: str) -> tuple[Face, ...]:
        values = self._dice.roll(die, count, label)
        self.faces.extend(values)
        return values


def now_stamp() -> str:
    """The wall clock as an action and its log lines record it."""
    return datetime.now().isoformat(timespec="seconds")


def perform(game: Game, name: str, choices: Choices, dice: Sequence[Face] | None = None, *,
            rng: Dice | None = None, time: str | None = None) -> Resolution:
    """Plan and resolve one action without changing the game; apply `effects` of the result in one go.

    `dice` are the faces rolled at the table, in order (a `DiceExhausted`
    asks for the next ones; dice left over are refused); without them the
    action rolls `rng` (the app's own dice). The effects begin with the
    action's record and end with its log lines, stamped `time`.
    """
    return carry_out(game, plan(name, game, choices), name, choices, dice, rng=rng, time=time)


def carry_out(game: Game, p: Plan, name: str, choices: Choices, dice: Sequence[Face] | None = None, *,
              rng: Dice | None = None, time: str | None = None, typed: bool = False) -> Resolution:
    """`perform` for a plan already made (the session shows its title; a replay names its step).

    A unit taken off the table takes every reference to it along (its pins,
    its place in a building, its passengers' embarkation) in the same step,
    so the app and a replay clear them alike. Log lines among the plan's
    effects (what falls due at End Phase) take the action's stamp too, so a
    replay writes the same log. What the step calls for in turn under the
    game's ruleset (a Force Morale Test for a Team wiped out) joins it, before
    the log lines (rules/consequences.py). `typed`: the dice were rolled at
    the table, which the log says.
    """
    from battletracker.rules import resolve

    scripted = ScriptedDice(dice) if dice is not None else None
    recording = _Recording(scripted if scripted is not None else (rng or RandomDice()))
    result = resolve(p.procedure, p.inputs, recording)
    if scripted is not None and scripted.remaining:
        given = len(recording.faces) + scripted.remaining
        raise Refusal("dice", f"{counted(given, 'dice')} {'was' if given == 1 else 'were'} given, but "
                              f"{p.title or name} rolled {len(recording.faces)}.")
    stamp = time if time is not None else now_stamp()
    action = Action(name, dict(choices), tuple(recording.faces), stamp, typed and bool(recording.faces), rules_now())
    lines = [*result.log, *p.log]
    if result.rolls:
        source = "dice rolled at the table" if action.typed else ""
        lines.insert(0, rolls_line(p.title or name, result.rolls, source))
    log = [AppendLog(LogEntry(stamp, game.turn, game.phase, line, p.log_kind)) for line in lines or [p.title or name]]
    due = [AppendLog(replace(e.entry, time=stamp)) if isinstance(e, AppendLog) else e for e in p.effects]
    effects = with_references_cleared(game, [*due, *result.effects])
    if activation_kept():
        effects.extend(consequences(game, effects))
    return Resolution(result.procedure, result.outcome, dict(result.values), list(result.rolls),
                      [RecordAction(action), *effects, *log], [*result.log, *p.log])


def with_game_settings(game: Game, procedure: str, inputs: Mapping[str, V]) -> dict[str, V | InputValue]:
    """The inputs plus the game's overrides of the settings `procedure` reads, the inputs' own values first.

    A dialog's odds, its Apply and a replay all resolve a procedure with
    these, so a game played with a house rule rolls by it everywhere.
    """
    from battletracker.rules import get

    merged: dict[str, V | InputValue] = dict(inputs)
    for key in get(procedure).settings:
        if key in game.settings and key not in merged:
            merged[key] = game.settings[key]
    return merged


def procedure_plan(game: Game, procedure: str, inputs: Mapping[str, InputValue], facts: Sequence[str],
                   choices: Choices, title: str = "", answers: Sequence[str] = ()) -> Plan:
    """The Plan of a ruleset's own plan (its procedure, inputs and facts), as every dialog resolves it.

    The game's overrides of the settings the procedure reads join the inputs
    (as a dialog's odds take them), and the answers to the procedure's
    `ChoiceNeeded` questions (`answers`, the fields asked) are copied from the
    choices, so the action resolves the very procedure the dialog showed.
    """
    from battletracker.rules import get

    proc = get(procedure)
    merged = with_game_settings(game, procedure, inputs)
    for key in answers:
        if key in choices:
            merged[key] = choices[key]
    return Plan(procedure, merged, tuple(facts), dict(choices), title or proc.title, log_kind="roll")


__all__ = ["ChoiceNeeded", "Choices", "Plan", "Refusal", "carry_out", "perform", "plan", "procedure_plan",
           "register_plan", "with_game_settings"]
