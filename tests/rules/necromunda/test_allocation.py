"""necro.engaged_allocation: Hits on an Engaged target go to random models in the combat."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import DiceError
from battletracker.core.dice import ScriptedDice
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.base import InputValue
from tests.rules.necromunda.helpers import assert_sentence
from tests.rules.oddscheck import assert_odds_match_simulation

NAME = "necro.engaged_allocation"


def test_each_hit_rolls_a_die_with_a_face_per_model() -> None:
    r = resolve(NAME, {"combat": "u2, u5, u7", "hits": 3}, ScriptedDice([3, 1, 3]))
    assert list(r.rolls) == [("Allocate 3 Hits (D3 each)", (3, 1, 3))]
    assert r.values["per_hit"] == ["u7", "u2", "u7"]
    assert r.values["counts"] == {"u2": 1, "u7": 2}
    assert r.outcome == "u2:1,u7:2"
    assert list(r.effects) == []
    assert "1 = u2, 2 = u5, 3 = u7" in r.log[0]


def test_a_face_beyond_the_models_is_refused() -> None:
    with pytest.raises(DiceError, match="4 cannot be rolled on a D3"):
        resolve(NAME, {"combat": "u2,u5,u7", "hits": 1}, ScriptedDice([4]))


def test_odds_closed_form() -> None:
    two = odds(NAME, {"combat": "t,f", "hits": 1})
    assert two.p("t:1") == two.p("f:1") == Fraction(1, 2)
    dist = odds(NAME, {"combat": "a,b,c", "hits": 2})
    assert dist.p("a:2") == Fraction(1, 9)
    assert dist.p("a:1,b:1") == Fraction(2, 9)
    assert len(dist.outcomes) == 6 and dist.total() == 1


@pytest.mark.parametrize("combat, hits", [("a,b", 1), ("a,b", 4), ("a,b,c,d", 3), ("a,b,c,d,e,f", 2)])
def test_odds_match_simulation(combat: str, hits: int) -> None:
    assert_odds_match_simulation(NAME, {"combat": combat, "hits": hits})


@pytest.mark.parametrize("inputs, field, message", [
    ({"combat": "u2"}, "combat", "The combat must hold at least 2 models, not 1."),
    ({"combat": ""}, "combat", "at least 2"),
    ({"combat": "a,b,c,d,e,f,g"}, "combat", "at most 6 models, not 7"),
    ({"combat": "a,b", "hits": 0}, "hits", "at least 1"),
    ({"combat": "a,b", "hits": 13}, "hits", "at most 12"),
    ({"combat": "a,a"}, "combat", "listed twice"),
])
def test_refusals(inputs: dict[str, InputValue], field: str, message: str) -> None:
    with pytest.raises(RulesInputError) as err:
        resolve(NAME, inputs, ScriptedDice([1] * 12))
    assert err.value.field == field and message in str(err.value)
    assert_sentence(str(err.value))
