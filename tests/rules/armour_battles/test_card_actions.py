"""The card's Suppression and Disruption -/+ as actions: one level or point a step, refused past the ends."""

from __future__ import annotations

import pytest

from battletracker.rules.actions import Refusal
from battletracker.rules.actions import perform
from battletracker.rules.actions import plan
from battletracker.rules.armour_battles.actions import DISRUPTION_POINTS
from battletracker.rules.armour_battles.actions import SUPPRESSION
from tests.rules.armour_battles.helpers import kursk


def test_suppression_steps_up_to_artillery_and_back() -> None:
    game = kursk()
    game.apply_all(perform(game, SUPPRESSION, {"unit": "rifles", "delta": 1}).effects)
    game.apply_all(perform(game, SUPPRESSION, {"unit": "rifles", "delta": 1}).effects)
    assert set(game.units["rifles"].conditions) == {"suppressed", "artillery_suppressed"}
    assert game.log[-1].text.endswith("Suppressed -> Suppressed (artillery)")
    with pytest.raises(Refusal, match="already suppressed by artillery"):
        plan(SUPPRESSION, game, {"unit": "rifles", "delta": 1})
    game.apply_all(perform(game, SUPPRESSION, {"unit": "rifles", "delta": -1}).effects)
    assert game.units["rifles"].conditions == ["suppressed"]
    assert game.actions[-1].name == SUPPRESSION


def test_disruption_adds_and_removes_points_and_never_goes_below_none() -> None:
    game = kursk()
    with pytest.raises(Refusal, match="no Disruption Points to remove"):
        plan(DISRUPTION_POINTS, game, {"unit": "rifles", "delta": -1})
    game.apply_all(perform(game, DISRUPTION_POINTS, {"unit": "rifles", "delta": 1}).effects)
    assert game.units["rifles"].counters["disruption"] == 1
    assert game.log[-1].text == f"Disruption on {game.units['rifles'].name}: 0 -> 1"
    with pytest.raises(Refusal, match="Step up or down by one"):
        plan(DISRUPTION_POINTS, game, {"unit": "rifles", "delta": 3})
    with pytest.raises(Refusal, match=r"^That unit is no longer on the table \(was it removed\?\)\.$"):
        plan(DISRUPTION_POINTS, game, {"unit": "nobody", "delta": 1})
