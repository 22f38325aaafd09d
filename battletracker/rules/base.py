"""What every procedure shares: its inputs, its record of rolls, its result.

A procedure is a pair of pure functions over the same parsed inputs:
`resolve(inputs, dice) -> Resolution` and `odds(inputs) -> Distribution` over
the same outcome keys. Neither touches the game; the Resolution carries the
Effects the session applies.
"""

from __future__ import annotations

import builtins
import math
import re
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING
from typing import Any

from battletracker.core.dice import Dice
from battletracker.core.dice import Die
from battletracker.core.dice import Face
from battletracker.core.text import brief
from battletracker.model.changes import Effect

if TYPE_CHECKING:
    # Exact odds (fractions, decimal) load with the first procedure's odds, not with the window.
    from battletracker.core.odds import Distribution

InputValue = str | int | float | bool
Inputs = Mapping[str, InputValue]

WHOLE_LIMIT = 1_000_000
"""No whole-number input (dice, figures, rounds, turns) is anywhere near this; beyond it is a typing accident."""
NUMBER_LIMIT = 1_000_000.0
"""Likewise for measures (inches, degrees): far beyond any table."""
_WHOLE_DIGITS = len(str(WHOLE_LIMIT))
_NUMBER_CHARACTERS = 64  # longer text is no number a player means, and is refused before `float` reads it


def _shown_number(value: builtins.int) -> builtins.str:
    """A whole number for a message: in full when short, named when too long to print."""
    return f"{value}" if abs(value) < 10**12 else brief(value)


def inches(value: builtins.float) -> builtins.str:
    """A distance as a player measures it: to one decimal of an inch, a whole number without ".0" ("21.2", "24")."""
    return f"{round(value, 1):g}"


def table_point(x: builtins.float, y: builtins.float) -> builtins.str:
    """A spot on the table as a player measures it from the corner: inches across, then down ('(22", 38")')."""
    return f'({inches(x)}", {inches(y)}")'


def degrees(value: builtins.float) -> builtins.str:
    """An angle as a player reads it: whole degrees."""
    return f"{round(value)}"


class RulesInputError(ValueError):
    """An input a procedure cannot take; `field` names it."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


class OddsTooLarge(Exception):
    """Exact odds that would take the player's laptop far too long to count: the roll is valid and can be made,
    only its odds are not shown. `sentence` says why, in a player's words."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


class Refusal(RulesInputError):
    """What the table, the sequence or the rules forbid, said as the whole sentence a player reads.

    `field` still names the choice or input at fault, for code and tests.
    """

    def __init__(self, field: str, sentence: str) -> None:
        super().__init__(field, sentence)
        self.sentence = sentence

    def __str__(self) -> str:
        return self.sentence


_LEANS_ON_FIELD = ("must ", "is ", "are ", "cannot ", "has ", "needs ")


def message_of(exc: BaseException) -> str:
    """What a player reads for a refused input: no `field: ` prefix, the field named in words when needed.

    "dice: must be at least 1" reads "Dice must be at least 1"; a message that
    is already a whole sentence ("the target is 78 degrees off the barrel") is
    shown alone. The raw field stays on the exception (`.field`) for tests.
    """
    if isinstance(exc, RulesInputError):
        text = exc.message
        if text.startswith(_LEANS_ON_FIELD):
            words = exc.field.replace("_", " ").strip()
            return f"{words[:1].upper()}{words[1:]} {text}" if words else text
        return text[:1].upper() + text[1:]
    return builtins.str(exc)


class ChoiceNeeded(Exception):
    """A choice the rules leave to a player, needed before the procedure can go on.

    Raised the way a missing die is (`DiceExhausted`): the procedure stops
    where the choice falls, and is run again with the same dice and the
    answer as input `field`. Each option is `(value, words)`: the value the
    input takes and what the player reads.
    """

    def __init__(self, field: str, options: tuple[tuple[str, str], ...], prompt: str) -> None:
        self.field = field
        self.options = options
        self.prompt = prompt
        super().__init__(f"{field}: {prompt}")


@dataclass(frozen=True)
class Resolution:
    """Everything one run of a procedure produced, in roll order.

    Frozen, so a result shown to the player is the result applied; a step that
    adds to one builds a new Resolution with `dataclasses.replace`. A procedure
    may pass lists; the Resolution always keeps tuples.
    """

    procedure: str
    outcome: str
    values: dict[str, Any] = field(default_factory=dict)
    rolls: Sequence[tuple[str, tuple[Face, ...]]] = ()
    effects: Sequence[Effect] = ()
    log: Sequence[str] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "rolls", tuple(self.rolls))
        object.__setattr__(self, "effects", tuple(self.effects))
        object.__setattr__(self, "log", tuple(self.log))


class Roller:
    """Wraps the dice a procedure was given and records each labelled roll."""

    def __init__(self, dice: Dice) -> None:
        self._dice = dice
        self.rolls: list[tuple[str, tuple[Face, ...]]] = []

    def roll(self, label: str, die: Die, count: int = 1) -> tuple[Face, ...]:
        if count <= 0:
            return ()
        values = self._dice.roll(die, count, label)
        self.rolls.append((label, values))
        return values

    def roll_ints(self, label: str, die: Die, count: int = 1) -> tuple[int, ...]:
        values = self.roll(label, die, count)
        return tuple(int(v) for v in values)

    def one(self, label: str, die: Die) -> Face:
        return self.roll(label, die, 1)[0]


class InputReader:
    """Typed access to a procedure's inputs that names the field on any error.

    Every key read is remembered; `finish()` refuses keys nobody read, so a
    misspelt input is an error rather than a silently ignored option.
    """

    def __init__(self, inputs: Inputs) -> None:
        if not isinstance(inputs, Mapping):
            raise RulesInputError("inputs", "must be a mapping of names to values")
        self._inputs = inputs
        self._read: set[str] = set()

    def __contains__(self, key: builtins.str) -> builtins.bool:
        return key in self._inputs and self._inputs[key] is not None

    def _raw(self, key: builtins.str) -> InputValue | None:
        self._read.add(key)
        value = self._inputs.get(key)
        return value

    def int(self, key: builtins.str, default: builtins.int | None = None, *, minimum: builtins.int | None = None,
            maximum: builtins.int | None = None) -> builtins.int:
        raw = self._raw(key)
        if raw is None or raw == "":
            if default is None:
                raise RulesInputError(key, "is required")
            value = default
        elif isinstance(raw, bool):
            raise RulesInputError(key, f"must be a whole number, not {raw}")
        elif isinstance(raw, int):
            value = raw
        elif isinstance(raw, float) and raw.is_integer():
            value = int(raw)
        elif isinstance(raw, str) and raw.strip().isascii() and raw.strip().removeprefix("-").isdigit():
            text = raw.strip()
            if len(text.removeprefix("-")) > _WHOLE_DIGITS:
                raise RulesInputError(key, f"must be a whole number from {-WHOLE_LIMIT:,} to {WHOLE_LIMIT:,}, "
                                           f"not a number {len(text.removeprefix('-')):,} digits long")
            value = int(text)
        else:
            raise RulesInputError(key, f"must be a whole number, not {brief(raw)}")
        if minimum is not None and value < minimum:
            raise RulesInputError(key, f"must be at least {minimum}, not {_shown_number(value)}")
        if maximum is not None and value > maximum:
            raise RulesInputError(key, f"must be at most {maximum}, not {_shown_number(value)}")
        if not -WHOLE_LIMIT <= value <= WHOLE_LIMIT:
            raise RulesInputError(key, f"must be a whole number from {-WHOLE_LIMIT:,} to {WHOLE_LIMIT:,}, "
                                       f"not {_shown_number(value)}")
        return value

    def float(self, key: builtins.str, default: builtins.float | None = None, *, minimum: builtins.float | None = None,
              maximum: builtins.float | None = None) -> builtins.float:
        raw = self._raw(key)
        if raw is None or raw == "":
            if default is None:
                raise RulesInputError(key, "is required")
            value = default
        elif isinstance(raw, bool):
            raise RulesInputError(key, f"must be a number, not {raw}")
        elif isinstance(raw, int):
            if abs(raw) > NUMBER_LIMIT:
                raise RulesInputError(key, f"must be a number from {-NUMBER_LIMIT:,.0f} to {NUMBER_LIMIT:,.0f}, "
                                           f"not {_shown_number(raw)}")
            value = float(raw)
        elif isinstance(raw, builtins.float):
            value = raw
        elif isinstance(raw, str) and len(raw.strip()) <= _NUMBER_CHARACTERS:
            try:
                value = float(raw)
            except ValueError:
                raise RulesInputError(key, f"must be a number, not {brief(raw)}") from None
        else:
            raise RulesInputError(key, f"must be a number, not {brief(raw)}")
        if not math.isfinite(value):
            raise RulesInputError(key, f"must be a finite number, not {brief(raw)}")
        if minimum is not None and value < minimum:
            raise RulesInputError(key, f"must be at least {minimum:g}, not {inches(value)}")
        if maximum is not None and value > maximum:
            raise RulesInputError(key, f"must be at most {maximum:g}, not {inches(value)}")
        if abs(value) > NUMBER_LIMIT:
            raise RulesInputError(key, f"must be a number from {-NUMBER_LIMIT:,.0f} to {NUMBER_LIMIT:,.0f}, "
                                       f"not {value:g}")
        return value

    def optional_float(self, key: builtins.str, **bounds: builtins.float) -> builtins.float | None:
        if key not in self:
            self._read.add(key)
            return None
        return self.float(key, **bounds)

    def optional_int(self, key: builtins.str, *, minimum: builtins.int | None = None,
                     maximum: builtins.int | None = None) -> builtins.int | None:
        """A whole number, or None when the input is absent or empty (the caller has nothing to say)."""
        if key not in self or self._inputs[key] == "":
            self._read.add(key)
            return None
        return self.int(key, minimum=minimum, maximum=maximum)

    def optional_str(self, key: builtins.str) -> builtins.str | None:
        """Text such as a unit id, or None when absent or empty."""
        if key not in self or self._inputs[key] == "":
            self._read.add(key)
            return None
        return self.str(key)

    def bool(self, key: builtins.str, default: builtins.bool = False) -> builtins.bool:
        raw = self._raw(key)
        if raw is None or raw == "":
            return default
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, int) and raw in (0, 1):
            return bool(raw)
        if isinstance(raw, str) and raw.strip().lower() in ("true", "yes", "1", "on"):
            return True
        if isinstance(raw, str) and raw.strip().lower() in ("false", "no", "0", "off"):
            return False
        raise RulesInputError(key, f"must be true or false, not {brief(raw)}")

    def choice(self, key: builtins.str, options: tuple[builtins.str, ...],
               default: builtins.str | None = None) -> builtins.str:
        raw = self._raw(key)
        if raw is None or raw == "":
            if default is None:
                raise RulesInputError(key, f"is required (one of {', '.join(options)})")
            return default
        value = raw.strip() if isinstance(raw, str) else None
        if value not in options:
            raise RulesInputError(key, f"must be one of {', '.join(options)}, not {brief(raw)}")
        return value

    def str(self, key: builtins.str, default: builtins.str | None = None) -> builtins.str:
        raw = self._raw(key)
        if raw is None or raw == "":
            if default is None:
                raise RulesInputError(key, "is required")
            return default
        if not isinstance(raw, str):
            raise RulesInputError(key, f"must be text, not {brief(raw)}")
        return raw

    def finish(self) -> None:
        unknown = sorted(set(self._inputs) - self._read)
        if unknown:
            raise RulesInputError(unknown[0], "is not an input of this procedure")



def numbered(prefix: str, count_key: str, rows: Sequence[Mapping[str, InputValue]]) -> dict[str, InputValue]:
    """A list of units or targets as numbered inputs (`<prefix>1_id`, ...) with their count, as a plan passes it."""
    out: dict[str, InputValue] = {count_key: len(rows)}
    for n, row in enumerate(rows, 1):
        out.update({f"{prefix}{n}_{key}": value for key, value in row.items()})
    return out

ResolveFn = Callable[[Inputs, Dice], Resolution]
OddsFn = Callable[[Inputs], "Distribution[str]"]
LabelFn = Callable[[str], str]
NamedLabelFn = Callable[[str, Mapping[str, str]], str]
OrderFn = Callable[[str], Any]
RankFn = Callable[[str], tuple[builtins.float, ...]]
"""How good an outcome is for the side that rolled it: a higher key is better, equal keys are equally good."""

COUNT_NOUNS: dict[str, tuple[str, str]] = {
    # name in an outcome key -> (one, many)
    "kills": ("kill", "kills"),
    "shock": ("Shock", "Shock"),
    "vehicle_shock": ("Shock on the vehicle", "Shock on the vehicle"),
    "successes": ("success", "successes"),
    "hits": ("hit", "hits"),
    "sixes": ("six", "sixes"),
    "disruption": ("Disruption", "Disruption"),
    "suppressed": ("unit suppressed", "units suppressed"),
    "disrupted": ("unit disrupted", "units disrupted"),
    "unstable": ("building turns unstable", "buildings turn unstable"),
    "dice": ("die", "dice"),
    "Phases of fire": ("Phase of fire", "Phases of fire"),
    "extra rounds": ("extra round", "extra rounds"),
    "H.E. dice": ("H.E. die", "H.E. dice"),
}
FLAG_WORDS: dict[str, str] = {
    "no_effect": "no effect",
    "building_on_fire": "the building catches fire",
    "building_unstable": "the building turns unstable",
    "on_target": "on target",
}


def counted(n: int, name: str) -> str:
    """A count with its noun agreeing: "1 kill", "2 kills", "1 six", "3 Shock"."""
    one, many = COUNT_NOUNS.get(name, (_singular(name.replace("_", " ")), name.replace("_", " ")))
    return f"{n} {one if n == 1 else many}"


def _singular(words: str) -> str:
    if words.endswith("sses") or words.endswith("xes"):
        return words[:-2]
    return words[:-1] if words.endswith("s") and not words.endswith("ss") else words


def outcome_words(outcome: str) -> str:
    """An outcome key in a player's words: "kills=2 shock=1" -> "2 kills, 1 Shock"; all zero -> "no effect".

    The default label of a procedure whose keys are counts (`name=value`) and
    flags (`building_on_fire`); a procedure with other keys gives its own.
    """
    counts: list[tuple[str, int, str]] = []  # (name, count, in words)
    parts: list[str] = []
    for word in outcome.split():
        name, sep, value = word.partition("=")
        if sep and re.fullmatch(r"-?\d+", value):
            counts.append((name, int(value), counted(int(value), name)))
        elif sep and re.fullmatch(r"\d+\+", value):  # "vehicle_shock=4+": that many or more
            many = COUNT_NOUNS.get(name, ("", name.replace("_", " ")))[1]
            counts.append((name, int(value[:-1]), f"{value[:-1]} or more {many}"))
        elif sep:
            if value in ("yes", "true"):
                parts.append(name.replace("_", " "))
            elif value not in ("no", "false", "ok", "none"):
                parts.append(f"{name.replace('_', ' ')} {value.replace('_', ' ').replace(',', ', ')}")
        else:
            parts.append(FLAG_WORDS.get(word, word.replace("_", " ").replace("+", " and ")))
    said = [words for _name, n, words in counts if n]
    if not said and counts:
        plural = COUNT_NOUNS.get(counts[0][0], ("", counts[0][0].replace("_", " ")))[1]
        said = [f"no {plural}" if len(counts) == 1 else "no effect"]
    return ", ".join([*said, *parts]) or outcome


def listed_order(*keys: str) -> OrderFn:
    """An order that reads `keys` first, in the order given, then any other key by `outcome_order`."""
    def order(outcome: str) -> tuple[int, list[Any]]:
        return (keys.index(outcome) if outcome in keys else len(keys), outcome_order(outcome))
    return order


def worded(words: Mapping[str, str]) -> LabelFn:
    """A label reading a fixed set of keys from `words`, any other key by `outcome_words`."""
    def label(outcome: str) -> str:
        return words.get(outcome) or outcome_words(outcome)
    return label


def already_words(outcome: str) -> str:
    """The label of a procedure whose outcome keys are already a player's words ("the Turn ends after this Phase")."""
    return outcome


def _count(value: str) -> builtins.float:
    if value in ("yes", "true"):
        return 1
    if value in ("no", "false"):
        return 0
    return builtins.float(int(value.removesuffix("+"))) if re.fullmatch(r"-?\d+\+?", value) else 0


def counts(*names: str) -> RankFn:
    """A `better` rank reading the named counts of a `name=count` key, the first named deciding first.

    "kills=1 shock=0" ranks above "kills=0 shock=6" under counts("kills", "shock"); a count a key lacks
    is 0, "yes" 1, "no" 0, "4+" 4; a named flag (a word with no count, "building_on_fire") is 1 when present.
    """
    def rank(outcome: str) -> tuple[builtins.float, ...]:
        found: dict[str, builtins.float] = {}
        for word in outcome.split():
            name, sep, value = word.partition("=")
            found[name] = _count(value) if sep else 1
        return tuple(found.get(name, 0) for name in names)
    return rank


def listed_rank(*keys: str | tuple[str, ...]) -> RankFn:
    """A `better` rank for a fixed set of keys, worst first; keys grouped in a tuple rank alike."""
    place = {key: n for n, group in enumerate(keys) for key in ((group,) if isinstance(group, str) else group)}

    def rank(outcome: str) -> tuple[builtins.float, ...]:
        return (builtins.float(place[outcome]),) if outcome in place else (-1.0,)
    return rank


FIRER = ("firer_id", "firer")
"""`rolled_by` of an attack: the firing unit's side rolled its dice."""


def all_alike(outcome: str) -> tuple[builtins.float, ...]:
    """A `better` rank for a roll none of whose outcomes is better or worse for the side that rolled it:
    such a roll says nothing about luck and the dice luck leaves it out."""
    return ()


def worse_for_roller(rank: RankFn) -> RankFn:
    """The rank turned round: for dice rolled by the side an outcome happens to (an armour save)."""
    def turned(outcome: str) -> tuple[builtins.float, ...]:
        return tuple(-v for v in rank(outcome))
    return turned


def outcome_order(outcome: str) -> list[Any]:
    """Reading order of outcome keys: numbers in a key compare as numbers ("kills=10" after "kills=9")."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", outcome)]


@dataclass(frozen=True)
class Procedure:
    """A registered procedure: its stable name, a title for menus, its two functions.

    `settings` names the ruleset settings (see tables.py) it takes as optional
    inputs; the app passes the game's overrides for exactly those. `label`
    turns an outcome key into the words a player reads, `order` is the sort key
    that puts outcomes in reading order: the keys stay the rules' own. A key
    that holds unit ids ("miss stray:u3") is read by `named_label`, given the
    units' names by id, so the player reads the names.

    The dice luck reads two more. `better` ranks how good each outcome is for
    the side that rolled the dice (`counts`, `listed_rank`, `all_alike` or the
    procedure's own); None leaves it to the generic count rule
    (`luck.rank`), which only fits a plain dice pool whose keys are counts.
    `rolled_by` names the inputs (or, when the plan did not carry them, the
    player's choices) that say who rolled, the first present deciding: a unit
    id (that unit's side rolled) or a side index. `luck` gives finer odds for
    the dice luck when the outcome key leaves out what the roller cared about
    (how far a ranging shot deviated): the odds of those finer keys, and the
    finer key of a resolution; `better` then ranks the finer keys.

    `typical` and `largest` are the inputs its exact odds are measured and
    checked with (tests/benchmarks/odds_bench.py, tests/rules/test_odds_inputs.py):
    as a dialog passes them from a worked example or a demo, and the most the
    rules allow where its work grows with its inputs. They sit with the
    procedure so that a new one is benchmarked by being registered; `largest`
    None says no input is larger than the typical one. `worst_best` names the worst and the best of the
    typical inputs' outcomes for the side that rolled, which `better` must put at its ends
    (tests/rules/test_luck_order.py): a rolling procedure states them, or ranks all its outcomes alike.
    """

    name: str
    title: str
    resolve: ResolveFn
    odds: OddsFn
    ruleset: str = "generic"
    settings: tuple[str, ...] = ()
    label: LabelFn = outcome_words
    order: OrderFn = outcome_order
    named_label: NamedLabelFn | None = None
    better: RankFn | None = None
    rolled_by: tuple[str, ...] = ()
    luck: tuple[OddsFn, Callable[[Resolution], builtins.str]] | None = None
    typical: Inputs | None = None
    largest: Inputs | None = None
    worst_best: tuple[builtins.str, builtins.str] | None = None

    def words(self, outcome: str, names: Mapping[builtins.str, builtins.str]) -> builtins.str:
        """The outcome in a player's words, any unit its key holds said by its name in `names`."""
        return self.label(outcome) if self.named_label is None else self.named_label(outcome, names)
