"""Force Morale Tests: queued on the agenda where the documents call for one, resolved with a D6 against the
setback table (by event and current Force Morale), lowering Force Morale as one step that undo takes back."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.effects import Effect
from battletracker.model.game import Game, GameError, Side, Unit
from battletracker.rules import odds, resolve
from battletracker.rules.chain_of_command.force_morale import (
    event_named,
    morale_test_inputs,
    queue_named,
    queue_test,
    sniper_killed,
)
from battletracker.rules.sequence import SequenceRefusal
from tests.rules.oddscheck import assert_odds_match_simulation


def game(force_morale: int = 9) -> Game:
    g = Game(sides=[Side("Americans", "#3366cc", force_morale, 0), Side("Germans", "#cc3333", 8, 0)])
    g.units["s1"] = Unit("s1", "Sniper", "sniper", 1, 30.0, 30.0, figures=2, figures_max=2)
    return g


def apply(g: Game, effects: list[Effect]) -> list[Effect]:
    return g.apply_all(effects)


def queued(g: Game, event: str, side: int = 0) -> str:
    effect = queue_test(g, side, event)
    apply(g, [effect])
    return effect.item.id


@pytest.mark.parametrize(("force_morale", "event", "roll", "loss"), [
    (9, "team_lost", 3, 0),
    (9, "team_lost", 4, 1),
    (9, "team_lost", 6, 2),
    (9, "afv_explodes", 5, 2),
    (6, "leader_wounded", 3, 1),
    (6, "afv_explodes", 6, 2),
    (3, "sniper_killed", 1, 0),
    (3, "sniper_killed", 5, 2),
    (1, "sniper_killed", 6, 1),
])
def test_a_test_lowers_force_morale_by_the_row_for_the_current_force_morale(force_morale: int, event: str,
                                                                            roll: int, loss: int) -> None:
    g = game(force_morale)
    item = queued(g, event)
    before = savefile.dumps(g)
    res = resolve("coc.force_morale_test", morale_test_inputs(g, item), ScriptedDice([roll]))
    inverses = apply(g, res.effects)
    assert g.sides[0].force_morale == force_morale - loss
    assert g.sides[0].agenda == []
    assert res.outcome == ("no loss of Force Morale" if loss == 0 else f"Force Morale falls by {loss}")
    for inverse in reversed(inverses):
        g.apply(inverse)
    assert savefile.dumps(g) == before


@pytest.mark.parametrize(("force_morale", "event"), [(9, "team_lost"), (9, "afv_explodes"), (5, "afv_lost"),
                                                     (2, "apc_lost"), (1, "sniper_killed")])
def test_the_odds_are_exact_and_match_a_simulation(force_morale: int, event: str) -> None:
    g = game(force_morale)
    assert_odds_match_simulation("coc.force_morale_test", morale_test_inputs(g, queued(g, event)))


def test_the_exploding_afv_adds_one_to_the_roll() -> None:
    g = game(9)
    plain = odds("coc.force_morale_test", morale_test_inputs(g, queued(g, "afv_lost")))
    worse = odds("coc.force_morale_test", morale_test_inputs(g, queued(g, "afv_explodes")))
    assert plain.p("Force Morale falls by 2") == Fraction(1, 6)
    assert worse.p("Force Morale falls by 2") == Fraction(2, 6)


def test_the_rows_are_settings() -> None:
    g = game(9)
    g.settings["force_morale_losses_high"] = "3 3 3 3 3 3"
    res = resolve("coc.force_morale_test", morale_test_inputs(g, queued(g, "team_lost")), ScriptedDice([1]))
    assert res.values["loss"] == 3
    g.settings["force_morale_losses_high"] = "3 3 3"
    with pytest.raises(SequenceRefusal, match="high row must list 6 results"):
        odds("coc.force_morale_test", morale_test_inputs(g, g.sides[0].agenda[0].id))


def test_a_sniper_killed_is_removed_and_its_side_has_a_test_due() -> None:
    g = game()
    before = savefile.dumps(g)
    inverses = apply(g, sniper_killed(g, "s1", kills=1))
    assert "s1" not in g.units
    assert g.sides[0].agenda == []
    assert [(i.kind, i.event, i.text) for i in g.sides[1].agenda] == [
        ("force_morale_test", "sniper_killed", "Germans: Force Morale Test for Sniper killed")]
    for inverse in reversed(inverses):
        g.apply(inverse)
    assert savefile.dumps(g) == before
    assert sniper_killed(g, "s1", kills=0) == []


def test_events_read_from_the_documents_words_and_unknown_ones_are_refused() -> None:
    named = event_named("Loss of an AFV Support, +1")
    assert named is not None and named.key == "afv_explodes"
    assert event_named("Lunch") is None
    with pytest.raises(GameError, match="no Force Morale Test is listed"):
        queue_test(game(), 0, "lunch")
    with pytest.raises(SequenceRefusal, match="no longer due"):
        morale_test_inputs(game(), "a9")


def test_an_anti_tank_result_names_its_tests_and_they_go_on_the_agenda() -> None:
    g = game()
    explodes = resolve("coc.at_fire", {"strike_dice": 3, "armour_dice": 0, "location": "rear", "visibility": "open",
                                       "target": "afv", "target_id": "v"}, ScriptedDice([3, 3, 6, 6, 6, 6]))
    assert explodes.values["result"] == "explodes"
    assert explodes.values["force_morale_tests"] == ("Loss of an AFV Support, +1",)
    wounded_and_abandoned = resolve("coc.at_fire", {
        "strike_dice": 2, "armour_dice": 0, "location": "rear", "visibility": "open", "target": "afv",
        "target_id": "v", "target_shock": 2}, ScriptedDice([3, 3, 6, 6, 6]))
    assert wounded_and_abandoned.values["result"] == "commander_wounded"
    assert wounded_and_abandoned.values["force_morale_tests"] == ("Leader Wounded", "AFV abandoned")
    missed = resolve("coc.at_fire", {"strike_dice": 1, "armour_dice": 0, "location": "rear", "visibility": "open",
                                     "target": "afv"}, ScriptedDice([1, 1]))
    assert missed.values["force_morale_tests"] == ()
    before = savefile.dumps(g)
    inverses = apply(g, [*queue_named(g, 1, ("Leader Wounded", "AFV abandoned"))])
    assert [(i.id, i.event) for i in g.sides[1].agenda] == [("a1", "leader_wounded"), ("a2", "afv_abandoned")]
    for inverse in reversed(inverses):
        g.apply(inverse)
    assert savefile.dumps(g) == before
    with pytest.raises(GameError, match="no Force Morale Test is listed for 'Lunch'"):
        queue_named(g, 1, ["Lunch"])
