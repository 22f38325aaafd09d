"""Suppression and the ledge a fighter may fall from."""

from __future__ import annotations

import pytest

from battletracker.model.effects import SetCondition
from battletracker.rules.necromunda.conditions import becomes_suppressed
from battletracker.rules.necromunda.conditions import hit_effects
from battletracker.rules.necromunda.conditions import ledge_to_fall_from
from battletracker.rules.necromunda.conditions import must_check_falling
from battletracker.rules.necromunda.conditions import seriously_injured_effects
from battletracker.rules.necromunda.conditions import within_ledge_reach


@pytest.mark.parametrize("engaged, injured, suppressed", [(False, False, True), (True, False, False),
                                                          (False, True, False), (True, True, False)])
def test_hit_fighters_become_suppressed_unless_engaged_or_seriously_injured(
        engaged: bool, injured: bool, suppressed: bool) -> None:
    assert becomes_suppressed(engaged, injured) is suppressed


def test_within_half_an_inch_of_a_ledge() -> None:
    assert within_ledge_reach(0.0) and within_ledge_reach(0.5)
    assert not within_ledge_reach(0.51)


def test_falling_is_checked_only_after_suppression_or_serious_injury_near_a_ledge() -> None:
    assert must_check_falling(True, False, True)
    assert must_check_falling(False, True, True)
    assert not must_check_falling(False, False, True)
    assert not must_check_falling(True, True, False)


def test_the_closer_ledge_or_the_players_choice_when_equal() -> None:
    assert ledge_to_fall_from([("north", 0.4), ("east", 0.2)]) == ("east",)
    assert ledge_to_fall_from([("north", 0.3), ("east", 0.3), ("far", 0.45)]) == ("north", "east")
    assert ledge_to_fall_from([("north", 0.6)]) == ()
    assert ledge_to_fall_from([]) == ()


def test_effects_of_a_hit_and_of_a_serious_injury() -> None:
    assert hit_effects("u2", engaged=False, seriously_injured=False, near_ledge=False) == [
        SetCondition("u2", "suppressed")]
    assert hit_effects("u2", engaged=False, seriously_injured=False, near_ledge=True) == [
        SetCondition("u2", "suppressed"), SetCondition("u2", "check_falling")]
    assert hit_effects("u2", engaged=True, seriously_injured=False, near_ledge=True) == []
    assert seriously_injured_effects("u2", near_ledge=True) == [
        SetCondition("u2", "seriously_injured"), SetCondition("u2", "check_falling")]
    assert seriously_injured_effects("u2", near_ledge=False) == [SetCondition("u2", "seriously_injured")]
