"""Lists of models given as plain inputs, and outcome keys that name models.

Procedure inputs are scalars, so the map passes the models at risk of a stray
shot or in a combat as one text of comma-separated unit ids, in the order that
matters (closest to the attacker first, say). Outcome keys name models by id,
so an id may not hold the characters the keys use as separators. The
fighters' names come as one more text (`names`, "id=name" rows) for the dice
prompts and the log lines a player reads: the keys keep the ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence

from battletracker.rules.base import InputReader
from battletracker.rules.base import counted
from battletracker.rules.necromunda.refusals import Refusal
from battletracker.rules.necromunda.refusals import field_words

RESERVED = (",", ":", "=")


def parse_ids(text: str, field: str) -> tuple[str, ...]:
    """Ids from "u3, u5,u7": stripped, none empty, none twice, none holding ':' or '='."""
    if not text.strip():
        return ()
    ids = tuple(part.strip() for part in text.split(","))
    words = field_words(field)
    for i, unit_id in enumerate(ids):
        if not unit_id:
            raise Refusal(field, f"entry {i + 1} of {words} ({text!r}) is empty")
        bad = [c for c in RESERVED if c in unit_id]
        if bad:
            raise Refusal(field, f"{unit_id!r} in {words} holds {bad[0]!r}, which ids may not contain")
    for i, unit_id in enumerate(ids):
        if unit_id in ids[:i]:
            raise Refusal(field, f"{unit_id!r} is listed twice in {words}")
    return ids


def read_ids(r: InputReader, field: str, *, minimum: int = 0, maximum: int | None = None,
             within: Sequence[str] | None = None) -> tuple[str, ...]:
    """A comma-separated id list input, with its length bounded and (optionally) a subset of `within`."""
    ids = parse_ids(r.str(field, ""), field)
    words = field_words(field)
    if len(ids) < minimum:
        raise Refusal(field, f"{words} must hold at least {counted(minimum, 'models')}, not {len(ids)}")
    if maximum is not None and len(ids) > maximum:
        raise Refusal(field, f"{words} can hold at most {maximum} models, not {len(ids)}")
    if within is not None:
        for unit_id in ids:
            if unit_id not in within:
                raise Refusal(field, f"{unit_id!r} in {words} is not one of the models listed "
                                     f"({', '.join(within)})")
    return ids


def counts_key(ids: Sequence[str], counts: Sequence[int]) -> str:
    """Models and their counts as an outcome key (u3:2,u5:1), zero counts left out, in the order given."""
    return ",".join(f"{unit_id}:{n}" for unit_id, n in zip(ids, counts, strict=True) if n)


def read_names(r: InputReader) -> dict[str, str]:
    """The `names` input: "id=name" rows, one a row; an id without a name is said by its id."""
    rows = (row.partition("=") for row in r.str("names", "").splitlines())
    return {uid.strip(): name.strip() for uid, sep, name in rows if sep and uid.strip() and name.strip()}


def names_text(names: Mapping[str, str]) -> str:
    """`names` as the input text `read_names` reads."""
    return "\n".join(f"{uid}={name}" for uid, name in names.items())
