"""Force Morale Tests: queued on the agenda where the documents call for one, resolved with a D6 against the
Force Morale setback table (by kind of event and D6), lowering Force Morale as one step that undo takes back."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.effects import Effect
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.actions import ChoiceNeeded
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import perform
from battletracker.rules.actions import plan
from battletracker.rules.chain_of_command.force_morale import FROM_RULEBOOK
from battletracker.rules.chain_of_command.force_morale import RULESET
from battletracker.rules.chain_of_command.force_morale import event_named
from battletracker.rules.chain_of_command.force_morale import events
from battletracker.rules.chain_of_command.force_morale import morale_test_inputs
from battletracker.rules.chain_of_command.force_morale import queue_named
from battletracker.rules.chain_of_command.force_morale import queue_test
from battletracker.rules.chain_of_command.force_morale import rows
from battletracker.rules.chain_of_command.force_morale import sniper_killed
from battletracker.rules.sequence import SequenceRefusal
from battletracker.rules.tables import find_setting
from battletracker.rules.tables import setting
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
    (9, "team_lost", 2, 0),
    (9, "team_lost", 3, 1),
    (9, "team_lost", 6, 1),
    (9, "leader_wounded", 5, 1),
    (9, "leader_wounded", 6, 2),
    (6, "sniper_killed", 1, 1),
    (6, "sniper_killed", 4, 2),
    (1, "sniper_killed", 6, 1),
    (9, "afv_lost", 1, 1),
])
def test_a_test_changes_force_morale_by_the_setback_table(force_morale: int, event: str, roll: int,
                                                          loss: int) -> None:
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


def test_the_table_is_the_quick_reference_sheets_by_kind_of_event_and_roll() -> None:
    assert rows()["senior_leader_killed"] == "A Senior Leader killed"
    assert setting(RULESET, "force_morale_setback_senior_leader_routs") == "-2 -2 -2 -2 -3 -3"
    assert setting(RULESET, "force_morale_setback_afv_knocked_out") == "-1 ? ? ? ? ?"
    assert {e.key: e.row for e in events().values()} == {
        "sniper_killed": "support_killed", "team_lost": "team_wiped_out", "section_wiped_out": "section_wiped_out",
        "support_killed": "support_killed", "junior_leader_killed": "junior_leader_killed",
        "senior_leader_killed": "senior_leader_killed", "senior_leader_wounded": "senior_leader_wounded",
        "leader_wounded": "junior_leader_wounded", "afv_abandoned": "afv_knocked_out", "afv_lost": "afv_knocked_out",
        "afv_explodes": "afv_knocked_out", "apc_lost": "afv_knocked_out"}
    assert find_setting(RULESET, "force_morale_setback_team_breaks").check


def test_another_row_can_be_chosen() -> None:
    g = game(9)
    inputs = {**morale_test_inputs(g, queued(g, "team_lost")), "row": "senior_leader_routs"}
    res = resolve("coc.force_morale_test", inputs, ScriptedDice([1]))
    assert res.values["loss"] == 2 and res.values["row"] == "senior_leader_routs"


def test_an_illegible_cell_asks_for_the_loss_from_the_rulebook() -> None:
    g = game(9)
    inputs = morale_test_inputs(g, queued(g, "afv_explodes"))
    dist = odds("coc.force_morale_test", inputs)
    assert dist.p(FROM_RULEBOOK) == 1
    with pytest.raises(ChoiceNeeded) as asked:
        resolve("coc.force_morale_test", inputs, ScriptedDice([1]))
    assert asked.value.field == "rulebook_loss"
    assert [v for v, _ in asked.value.options] == ["0", "1", "2", "3"]
    assert "what does your rulebook say" in asked.value.prompt
    res = resolve("coc.force_morale_test", {**inputs, "rulebook_loss": 2}, ScriptedDice([1]))
    assert (res.outcome, res.values["loss"]) == (FROM_RULEBOOK, 2)
    apply(g, res.effects)
    assert g.sides[0].force_morale == 7


@pytest.mark.parametrize(("force_morale", "event"), [(9, "team_lost"), (9, "leader_wounded"), (5, "afv_lost"),
                                                     (2, "apc_lost"), (1, "sniper_killed")])
def test_the_odds_are_exact_and_match_a_simulation(force_morale: int, event: str) -> None:
    g = game(force_morale)
    inputs = {**morale_test_inputs(g, queued(g, event)), "rulebook_loss": 1}
    assert_odds_match_simulation("coc.force_morale_test", inputs)


def test_the_exploding_afv_adds_one_to_the_roll() -> None:
    g = game(9)
    plain = odds("coc.force_morale_test", {**morale_test_inputs(g, queued(g, "leader_wounded"))})
    assert plain.p("Force Morale falls by 2") == Fraction(1, 6)
    g.settings["force_morale_setback_afv_knocked_out"] = "0 0 -1 -1 -1 -2"
    lost = odds("coc.force_morale_test", morale_test_inputs(g, queued(g, "afv_lost")))
    worse = odds("coc.force_morale_test", morale_test_inputs(g, queued(g, "afv_explodes")))
    assert lost.p("Force Morale falls by 2") == Fraction(1, 6)
    assert worse.p("Force Morale falls by 2") == Fraction(2, 6)


def test_the_rows_are_settings() -> None:
    g = game(9)
    g.settings["force_morale_setback_team_wiped_out"] = "-3 -3 -3 -3 -3 -3"
    res = resolve("coc.force_morale_test", morale_test_inputs(g, queued(g, "team_lost")), ScriptedDice([1]))
    assert res.values["loss"] == 3
    g.settings["force_morale_setback_team_wiped_out"] = "-3 -3 -3"
    with pytest.raises(SequenceRefusal, match="row for a team wiped out must list 6 results"):
        odds("coc.force_morale_test", morale_test_inputs(g, g.sides[0].agenda[0].id))


def test_a_test_is_an_action_from_the_agenda_and_undo_restores_exactly() -> None:
    g = game(9)
    item = queued(g, "sniper_killed")
    before = savefile.dumps(g)
    with pytest.raises(Refusal, match="no row 'lunch'"):
        plan("coc.force_morale_test", g, {"agenda_id": item, "row": "lunch"})
    inverses = g.apply_all(perform(g, "coc.force_morale_test", {"agenda_id": item}, [4], time="t").effects)
    assert (g.sides[0].force_morale, g.sides[0].agenda, g.actions[-1].name) == (7, [], "coc.force_morale_test")
    for inverse in reversed(inverses):
        g.apply(inverse)
    assert savefile.dumps(g) == before
    with pytest.raises(SequenceRefusal, match="no longer due"):
        plan("coc.force_morale_test", g, {"agenda_id": "a9"})


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
