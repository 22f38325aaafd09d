"""Force Morale Tests: queued on the agenda where the rules call for one, resolved as `coc.force_morale_test`.

The rules documents call for a test on a sniper killed, a Team lost, a Leader
wounded, an AFV abandoned or lost (exploding, with a +1) and an APC lost, but
print no table: force_morale.toml lists the events with their modifiers and
settings.toml the loss for each D6 total on three rows by the side's current
Force Morale, all defaults marked to check. A test rolls a D6, adds the
event's modifier (a total above 6 reads as 6), and lowers the side's Force
Morale by the row's loss (never below 0), taking the test off the agenda, as
one step.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from battletracker.core.dice import D6, Dice
from battletracker.core.odds import Distribution
from battletracker.model.effects import Effect
from battletracker.model.game import AgendaItem, Game, GameError
from battletracker.model.sequence_effects import (
    FORCE_MORALE_TEST,
    AddAgendaItem,
    ChangeForceMorale,
    RemoveAgendaItem,
    agenda_id,
)
from battletracker.rules import register
from battletracker.rules.base import InputReader, Inputs, InputValue, Procedure, Resolution, Roller
from battletracker.rules.chain_of_command.snipers import sniper_fired_on
from battletracker.rules.sequence import SequenceRefusal, side_name
from battletracker.rules.tables import find_setting, ruleset_file, setting

RULESET = "chain_of_command"
KIND = FORCE_MORALE_TEST
ROWS = ("high", "middle", "low")
SETTINGS = ("force_morale_high_from", "force_morale_low_below",
            *(f"force_morale_losses_{row}" for row in ROWS))


@dataclass(frozen=True)
class Event:
    key: str
    title: str
    named: str
    modifier: int


@lru_cache(maxsize=1)
def events() -> dict[str, Event]:
    """The events that call for a Force Morale Test, from force_morale.toml, by key."""
    table = ruleset_file(RULESET, "force_morale").table("events")
    out: dict[str, Event] = {}
    for key, t in table.tables():
        out[key] = Event(key, t.str("title"), t.str("named"), t.int("modifier", minimum=0, maximum=5))
    return out


def event_named(words: str) -> Event | None:
    """The event the documents' words name ("Loss of an AFV Support, +1"), or None."""
    return next((e for e in events().values() if e.named == words), None)


@dataclass(frozen=True)
class MoraleInputs:
    side: int
    name: str
    force_morale: int
    event: Event
    agenda_id: str | None
    losses: tuple[int, ...]


def _row(r: InputReader, force_morale: int) -> tuple[int, ...]:
    high_from = r.int(SETTINGS[0], int(setting(RULESET, SETTINGS[0])), minimum=1)
    low_below = r.int(SETTINGS[1], int(setting(RULESET, SETTINGS[1])), minimum=1)
    rows = {}
    for row in ROWS:
        key = f"force_morale_losses_{row}"
        raw = r.str(key, str(setting(RULESET, key)))
        problem = find_setting(RULESET, key).problem(raw)
        if problem is not None:
            raise SequenceRefusal(key, f"The Force Morale Test's {row} row {problem}.")
        rows[row] = tuple(int(w) for w in raw.split())
    if force_morale >= high_from:
        return rows["high"]
    return rows["low"] if force_morale < low_below else rows["middle"]


def _parse(inputs: Inputs) -> MoraleInputs:
    r = InputReader(inputs)
    side = r.int("side", 0, minimum=0)
    name = r.str("side_name", f"Side {side + 1}")
    force_morale = r.int("force_morale", minimum=0)
    key = r.str("event")
    agenda = r.optional_str("agenda_id")
    losses = _row(r, force_morale)
    r.finish()
    if key not in events():
        raise SequenceRefusal("event", f"No Force Morale Test is listed for {key!r}: the events are "
                                       f"{', '.join(e.title for e in events().values())}.")
    return MoraleInputs(side, name, force_morale, events()[key], agenda, losses)


def _loss(p: MoraleInputs, roll: int) -> int:
    """Force Morale lost on this D6 roll: the row's entry for the total, never more than the side has."""
    total = min(6, roll + p.event.modifier)
    return min(p.force_morale, p.losses[total - 1])


def _outcome(loss: int) -> str:
    return "no loss of Force Morale" if loss == 0 else f"Force Morale falls by {loss}"


def morale_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    roller = Roller(dice)
    roll = int(roller.one("Force Morale Test", D6))
    loss = _loss(p, roll)
    effects: list[Effect] = []
    if loss:
        effects.append(ChangeForceMorale(p.side, -loss))
    if p.agenda_id is not None:
        effects.append(RemoveAgendaItem(p.agenda_id))
    bonus = f" +{p.event.modifier}" if p.event.modifier else ""
    log = [f"{p.name}'s Force Morale Test for {p.event.title}: {roll}{bonus}, {_outcome(loss)} "
           f"(Force Morale {p.force_morale - loss})"]
    return Resolution("coc.force_morale_test", _outcome(loss),
                      {"roll": roll, "loss": loss, "force_morale": p.force_morale - loss}, roller.rolls, effects, log)


def morale_odds(inputs: Inputs) -> Distribution[str]:
    p = _parse(inputs)
    return Distribution.die(6).map(lambda roll: _outcome(_loss(p, roll)))


# the agenda --------------------------------------------------------------------------------------------------


def queue_test(game: Game, side: int, event: str, item_id: str | None = None) -> AddAgendaItem:
    """The Effect that puts a Force Morale Test for `side` on its agenda, for the event `event`."""
    if event not in events():
        raise GameError(f"no Force Morale Test is listed for {event!r}")
    text = f"{side_name(game, side)}: Force Morale Test for {events()[event].title}"
    return AddAgendaItem(side, AgendaItem(item_id or agenda_id(game), KIND, event, text, game.turn, game.phase))


def queue_named(game: Game, side: int, named: Iterable[str]) -> list[AddAgendaItem]:
    """The tests a result calls for in the documents' words (an anti-tank result's `force_morale_tests`).

    Words the events do not list are refused: a test is never silently lost.
    """
    out: list[AddAgendaItem] = []
    taken: list[str] = []
    for words in named:
        event = event_named(words)
        if event is None:
            raise GameError(f"no Force Morale Test is listed for {words!r}")
        item_id = agenda_id(game, taken)
        taken.append(item_id)
        out.append(queue_test(game, side, event.key, item_id))
    return out


def sniper_killed(game: Game, sniper_id: str, kills: int) -> list[Effect]:
    """Fire that kills at a spotted sniper: it is removed and its side's Force Morale Test goes on the agenda."""
    sniper = game.unit(sniper_id)
    loss = sniper_fired_on(sniper_id, kills)
    effects = list(loss.effects)
    if loss.force_morale_test:
        effects.append(queue_test(game, sniper.side, "sniper_killed"))
    return effects


def morale_test_inputs(game: Game, item_id: str) -> dict[str, InputValue]:
    """The inputs of `coc.force_morale_test` for the agenda's item `item_id`."""
    found = next(((s, i) for s, side in enumerate(game.sides) for i in side.agenda
                  if i.id == item_id and i.kind == KIND), None)
    if found is None:
        raise SequenceRefusal("agenda_id", "That Force Morale Test is no longer due.")
    index, item = found
    side = game.sides[index]
    inputs: dict[str, InputValue] = {"side": index, "side_name": side.name, "force_morale": side.force_morale,
                                     "event": item.event, "agenda_id": item.id}
    inputs.update({k: game.settings[k] for k in SETTINGS if k in game.settings})
    return inputs


register(Procedure("coc.force_morale_test", "Force Morale Test", morale_resolve, morale_odds, ruleset=RULESET,
                   settings=SETTINGS))
