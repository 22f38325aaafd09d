"""Force Morale Tests: queued on the agenda where the rules call for one, resolved as `coc.force_morale_test`.

The rules documents call for a test on a sniper killed, a Team lost, a Leader
wounded, an AFV abandoned or lost (exploding, with a +1) and an APC lost, but
print no table: force_morale.toml holds the Force Morale setback table of a
community quick-reference sheet (a row for each kind of event, a column for
each D6 roll, each value the change to Force Morale; every row a setting,
marked to check) and maps each of the documents' occasions to a row by
default. A test rolls a D6, adds the event's modifier (a total above 6 reads
as 6), and changes the side's Force Morale by the row's value (never below 0),
taking the test off the agenda, as one step. A cell not legible in our copy
("?") asks the player for the loss from their rulebook (`ChoiceNeeded`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from battletracker.core.dice import D6
from battletracker.core.dice import Dice
from battletracker.core.odds import Distribution
from battletracker.model.effects import Effect
from battletracker.model.game import AgendaItem
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.sequence_effects import FORCE_MORALE_TEST
from battletracker.model.sequence_effects import AddAgendaItem
from battletracker.model.sequence_effects import ChangeForceMorale
from battletracker.model.sequence_effects import RemoveAgendaItem
from battletracker.model.sequence_effects import agenda_id
from battletracker.rules import register
from battletracker.rules.actions import Choices
from battletracker.rules.actions import Plan
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import register_plan
from battletracker.rules.base import ChoiceNeeded
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import InputValue
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import already_words
from battletracker.rules.chain_of_command.snipers import sniper_fired_on
from battletracker.rules.sequence import SequenceRefusal
from battletracker.rules.sequence import side_name
from battletracker.rules.tables import find_setting
from battletracker.rules.tables import ruleset_file
from battletracker.rules.tables import setting
from battletracker.rules.words import possessive

RULESET = "chain_of_command"
KIND = FORCE_MORALE_TEST
ILLEGIBLE = "?"
FROM_RULEBOOK = "loss from your rulebook"
RULEBOOK_LOSSES = (0, 1, 2, 3)


@dataclass(frozen=True)
class Event:
    key: str
    title: str
    named: str
    modifier: int
    row: str


@lru_cache(maxsize=1)
def rows() -> dict[str, str]:
    """The rows of the setback table (kinds of event), key to title, in the table's order."""
    table = ruleset_file(RULESET, "force_morale").table("rows")
    return {key: t.str("title") for key, t in table.tables()}


def setting_key(row: str) -> str:
    return f"force_morale_setback_{row}"


SETTINGS = tuple(setting_key(row) for row in rows())


@lru_cache(maxsize=1)
def events() -> dict[str, Event]:
    """The events that call for a Force Morale Test, from force_morale.toml, by key."""
    table = ruleset_file(RULESET, "force_morale").table("events")
    out: dict[str, Event] = {}
    for key, t in table.tables():
        row = t.str("row")
        if row not in rows():
            raise t._fail("row", f"must be a row of the setback table, not {row!r}")
        out[key] = Event(key, t.str("title"), t.str("named"), t.int("modifier", minimum=0, maximum=5), row)
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
    row: str
    agenda_id: str | None
    changes: tuple[int | None, ...]
    rulebook_loss: int | None


def _read_row(r: InputReader, row: str) -> tuple[int | None, ...]:
    """Every row's setting is read (a game may override any); the chosen one is returned, None where empty."""
    chosen: tuple[int | None, ...] = ()
    for key in rows():
        name = setting_key(key)
        raw = r.str(name, str(setting(RULESET, name)))
        if key != row:
            continue
        problem = find_setting(RULESET, name).problem(raw)
        if problem is not None:
            raise SequenceRefusal(name, f"The Force Morale Test's row for {rows()[key].lower()} {problem}.")
        chosen = tuple(None if w == ILLEGIBLE else int(w) for w in raw.split())
    return chosen


def _parse(inputs: Inputs) -> MoraleInputs:
    r = InputReader(inputs)
    side = r.int("side", 0, minimum=0)
    name = r.str("side_name", f"Side {side + 1}")
    force_morale = r.int("force_morale", minimum=0)
    key = r.str("event")
    if key not in events():
        raise SequenceRefusal("event", f"No Force Morale Test is listed for {key!r}: the events are "
                                       f"{', '.join(e.title for e in events().values())}.")
    event = events()[key]
    row = r.str("row", event.row)
    if row not in rows():
        raise SequenceRefusal("row", f"The Force Morale setback table has no row {row!r}.")
    agenda = r.optional_str("agenda_id")
    changes = _read_row(r, row)
    rulebook = r.optional_int("rulebook_loss", minimum=0, maximum=max(RULEBOOK_LOSSES))
    r.finish()
    return MoraleInputs(side, name, force_morale, event, row, agenda, changes, rulebook)


def _change(p: MoraleInputs, roll: int) -> int | None:
    """The row's change for this D6 roll plus the event's modifier (above 6 reads as 6); None where empty."""
    return p.changes[min(6, roll + p.event.modifier) - 1]


def _outcome(loss: int) -> str:
    return "no loss of Force Morale" if loss == 0 else f"Force Morale falls by {loss}"


def morale_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    roller = Roller(dice)
    roll = int(roller.one("Force Morale Test", D6))
    change = _change(p, roll)
    values: dict[str, object] = {"roll": roll, "row": p.row}
    if change is None:
        if p.rulebook_loss is None:
            raise ChoiceNeeded("rulebook_loss", tuple((str(n), _outcome(n)) for n in RULEBOOK_LOSSES),
                               f"The table we have is not legible for {rows()[p.row].lower()} on "
                               f"{min(6, roll + p.event.modifier)}: what does your rulebook say?")
        wanted, outcome = p.rulebook_loss, FROM_RULEBOOK
        values["rulebook_loss"] = p.rulebook_loss
    else:
        wanted = -change
        outcome = _outcome(min(p.force_morale, wanted))
    loss = min(p.force_morale, wanted)
    effects: list[Effect] = []
    if loss:
        effects.append(ChangeForceMorale(p.side, -loss))
    if p.agenda_id is not None:
        effects.append(RemoveAgendaItem(p.agenda_id))
    bonus = f" +{p.event.modifier}" if p.event.modifier else ""
    source = " (from the rulebook)" if change is None else ""
    log = [f"{possessive(p.name)} Force Morale Test for {p.event.title} ({rows()[p.row].lower()}): {roll}{bonus}, "
           f"{_outcome(loss)}{source} (Force Morale {p.force_morale - loss})"]
    values.update(loss=loss, force_morale=p.force_morale - loss)
    return Resolution("coc.force_morale_test", outcome, values, roller.rolls, effects, log)


def morale_odds(inputs: Inputs) -> Distribution[str]:
    p = _parse(inputs)

    def outcome(roll: int) -> str:
        change = _change(p, roll)
        return FROM_RULEBOOK if change is None else _outcome(min(p.force_morale, -change))

    return Distribution.die(6).map(outcome)


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


def _plan_test(game: Game, choices: Choices) -> Plan:
    """A Force Morale Test from the agenda (`agenda_id`), on the event's row or another (`row`)."""
    r = InputReader(choices)
    item = r.str("agenda_id")
    row = r.optional_str("row")
    rulebook = r.optional_int("rulebook_loss", minimum=0, maximum=max(RULEBOOK_LOSSES))
    r.finish()
    inputs = morale_test_inputs(game, item)
    if row is not None:
        if row not in rows():
            raise Refusal("row", f"The Force Morale setback table has no row {row!r}.")
        inputs["row"] = row
    if rulebook is not None:
        inputs["rulebook_loss"] = rulebook
    p = _parse(inputs)
    return Plan("coc.force_morale_test", inputs, (f"Read on the row: {rows()[p.row]}",), dict(choices),
                f"{p.name}: Force Morale Test", log_kind="roll")


register_plan("coc.force_morale_test", _plan_test)

def tester_rank(outcome: str) -> tuple[float, ...]:
    """How good a Force Morale Test's outcome is for the side that took it (`Procedure.better`): the
    smaller the loss the better, no loss best (a gain better still). A loss from the player's rulebook
    is not known before the roll: it counts as the middle of the losses a rulebook gives (0 to 3)."""
    if outcome == FROM_RULEBOOK:
        return (-(min(RULEBOOK_LOSSES) + max(RULEBOOK_LOSSES)) / 2,)
    if outcome == _outcome(0):
        return (0.0,)
    return (-float(outcome.rsplit(" ", 1)[-1]),)  # "Force Morale falls by 2"


register(Procedure("coc.force_morale_test", "Force Morale Test", morale_resolve, morale_odds, ruleset=RULESET,
                   settings=SETTINGS, label=already_words, better=tester_rank, rolled_by=("side",),
                   typical={"side": 0, "side_name": "Germany", "force_morale": 9, "event": "team_lost",
                            "agenda_id": "fm1"},
                   worst_best=("Force Morale falls by 2", "no loss of Force Morale")))
