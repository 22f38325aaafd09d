"""`necro.engaged_allocation`: Hits on an Engaged target go to random models in the combat.

The documents say every Hit on an Engaged target is allocated at random
between all the models involved in the combat, the target and friends of the
shooter included. Each Hit rolls one die with a face per model (a D3 for
three models, a D4 for four), the face numbering the models in the order
given. Every model in a combat is Engaged, so none becomes Suppressed and no
Effects follow; the allocation is for resolving each Hit's wound.

Inputs: `combat` (ids, 2 to 6 models), `hits`, and the models' `names`
("id=name" rows) for the log. Outcome: the models given
Hits and how many, in the order of `combat` ("u2:2,u5:1").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from functools import lru_cache
from math import factorial
from typing import Any

from battletracker.core.dice import Dice
from battletracker.core.dice import numeric_die
from battletracker.core.odds import Distribution
from battletracker.rules import register
from battletracker.rules.base import FIRER
from battletracker.rules.base import InputReader
from battletracker.rules.base import Inputs
from battletracker.rules.base import Procedure
from battletracker.rules.base import Resolution
from battletracker.rules.base import Roller
from battletracker.rules.base import all_alike
from battletracker.rules.base import counted
from battletracker.rules.necromunda.id_lists import counts_key
from battletracker.rules.necromunda.id_lists import read_ids
from battletracker.rules.necromunda.id_lists import read_names
from battletracker.rules.necromunda.refusals import speaking

NAME = "necro.engaged_allocation"
MAX_MODELS = 6
MAX_HITS = 12


@dataclass(frozen=True)
class AllocationInputs:
    combat: tuple[str, ...]
    hits: int
    names: dict[str, str] = field(default_factory=dict, compare=False)


@speaking
def _parse(inputs: Inputs) -> AllocationInputs:
    r = InputReader(inputs)
    parsed = AllocationInputs(
        combat=read_ids(r, "combat", minimum=2, maximum=MAX_MODELS),
        hits=r.int("hits", 1, minimum=1, maximum=MAX_HITS),
        names=read_names(r),
    )
    r.finish()
    return parsed


def allocation_resolve(inputs: Inputs, dice: Dice) -> Resolution:
    p = _parse(inputs)
    roller = Roller(dice)
    die = numeric_die(len(p.combat))
    rolled = roller.roll_ints(f"Allocate {counted(p.hits, 'Hits')} ({die.name} each)", die, p.hits)
    per_hit = [p.combat[v - 1] for v in rolled]
    counts = [per_hit.count(unit_id) for unit_id in p.combat]
    name = [p.names.get(unit_id, unit_id) for unit_id in p.combat]
    numbering = ", ".join(f"{i + 1} = {n}" for i, n in enumerate(name))
    log = [f"Hits allocated at random ({numbering}): " + ", ".join(name[v - 1] for v in rolled)]
    values: dict[str, Any] = {
        "per_hit": per_hit,
        "counts": {unit_id: n for unit_id, n in zip(p.combat, counts, strict=True) if n},
    }
    return Resolution(NAME, counts_key(p.combat, counts), values, roller.rolls, [], log)


def allocation_odds(inputs: Inputs) -> Distribution[str]:
    return _keyed(_parse(inputs))


@lru_cache(maxsize=512)
def _keyed(p: AllocationInputs) -> Distribution[str]:
    return Distribution.from_weights(_allocations(p.combat, p.hits), len(p.combat) ** p.hits)


def _allocations(ids: tuple[str, ...], hits: int) -> dict[str, int]:
    """Every way `hits` Hits fall on the models `ids` (a multinomial with equal chances), keyed as `resolve`
    keys it ("u2:2,u5:1"), with its number of ways hits! / (c1! ... cm!).

    Built model by model with the key growing alongside, so six models and a
    dozen Hits (6,188 outcomes) never pass through tuples of counts.
    """
    fact = [factorial(n) for n in range(hits + 1)]
    out: dict[str, int] = {}
    last = len(ids) - 1

    def place(i: int, left: int, key: str, den: int) -> None:
        if i == last:
            if left:
                key = f"{key},{ids[i]}:{left}" if key else f"{ids[i]}:{left}"
            out[key] = out.get(key, 0) + fact[hits] // (den * fact[left])
            return
        place(i + 1, left, key, den)
        uid = ids[i]
        for n in range(1, left + 1):
            place(i + 1, left - n, f"{key},{uid}:{n}" if key else f"{uid}:{n}", den * fact[n])

    place(0, hits, "", 1)
    return out


def allocation_label(outcome: str, names: Mapping[str, str] | None = None) -> str:
    """"u1:2,u2:1" reads "2 hits on u1, 1 hit on u2", or on the models' `names` by id."""
    drawn = (pair.rpartition(":") for pair in outcome.split(","))
    return ", ".join(f"{counted(int(n), 'hits')} on {(names or {}).get(model, model)}" for model, _, n in drawn)


# Which models in the combat the Hits find is good or bad by whose they are, which the outcome does not
# say: the dice luck leaves the roll out.
register(Procedure(NAME, "Allocate Hits in a combat", allocation_resolve, allocation_odds, ruleset="necromunda",
                   label=allocation_label, named_label=allocation_label, better=all_alike, rolled_by=FIRER,
                   typical={"combat": "u1,u2,u3", "hits": 3}, largest={"combat": "u1,u2,u3,u4,u5,u6", "hits": 12}))
