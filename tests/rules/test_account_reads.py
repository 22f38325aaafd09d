"""The report's account reads the table after each replayed action from what the action wrote alone, and a move's
place from its plan while nothing else changed: it reads the same as from the whole table."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battletracker.model import savefile
from battletracker.model.effects import ChangeCounter
from battletracker.model.fields import game_from_state
from battletracker.rules.account import action_line
from battletracker.rules.account import table_state
from battletracker.rules.account import table_state_after
from battletracker.rules.places import place_words
from battletracker.rules.replay import Replayed
from battletracker.rules.replay import replayed_actions
from tests.played_games import PLAYS
from tests.played_games import path
from tests.rules.test_bombardment_playthrough import played_without_qt


@pytest.mark.parametrize("ruleset", sorted(PLAYS))
def test_the_table_after_each_action_reads_as_the_whole_table_does(ruleset: str) -> None:
    game = savefile.load(path(ruleset))
    assert game.start is not None
    state = table_state(game_from_state(game.start, "history.start"))
    for replayed, current in replayed_actions(game):
        after = table_state_after(state, current, [e.writes for e in replayed.step.effects])
        assert after == table_state(current)
        assert list(after.units) == list(current.units)
        state = after


def test_a_unit_no_action_wrote_keeps_its_very_state() -> None:
    game = played_without_qt()
    assert game.start is not None
    state = table_state(game_from_state(game.start, "history.start"))
    kept = 0
    for replayed, current in replayed_actions(game):
        writes = [e.writes for e in replayed.step.effects]
        after = table_state_after(state, current, writes)
        assert after == table_state(current)
        written = {u for w in writes for u in w.units}
        if not any(w.everything or w.roster for w in writes):
            kept += sum(after.units[k] is state.units[k] for k in after.units if k not in written)
        state = after
    assert kept, "a bombardment's Phases leave most of the table as it was"


def test_a_move_is_said_where_its_plan_said_it_went_unless_the_move_changed_more_than_the_mover() -> None:
    game = savefile.load(path("chain_of_command"))
    assert game.start is not None
    start = game_from_state(game.start, "history.start")
    replayed, after = next(replayed_actions(game))
    assert replayed.action.name == "unit.move" and replayed.plan.said == {"place": "in the Bois de la Croix"}
    mover = after.units[str(replayed.plan.choices["unit"])]
    assert place_words(after, (mover.x, mover.y), besides=mover.id) == "in the Bois de la Croix"

    def said(step: Replayed) -> str:
        return action_line(step, table_state(start), table_state(after), after, "Germany", False).text

    planned = replace(replayed, plan=replace(replayed.plan, said={"place": "where the plan said"}))
    assert said(planned).endswith("now where the plan said"), "the plan's words, not a second search"
    other = next(u for u in after.units if u != mover.id)
    shocked = (*planned.step.effects, ChangeCounter(other, "shock", 1))
    more = replace(planned, step=replace(planned.step, effects=shocked))
    assert said(more).endswith("now in the Bois de la Croix"), "another unit changed: the place is read again"
