"""Target priority and walking fire, from what the map knows about each fighter."""

from __future__ import annotations

from typing import Any

import pytest

from battletracker.rules import RulesInputError
from battletracker.rules.necromunda.options import TARGET_PRIORITY
from battletracker.rules.necromunda.options import WALKING_FIRE
from battletracker.rules.necromunda.options import enabled
from battletracker.rules.necromunda.targeting import FighterOnTable
from battletracker.rules.necromunda.targeting import check_walking_fire
from battletracker.rules.necromunda.targeting import needs_cool_check
from battletracker.rules.necromunda.targeting import priority_targets
from battletracker.rules.necromunda.targeting import walking_fire_candidates
from tests.rules.necromunda.helpers import necromunda_game

SHOOTER = (0.0, 0.0)


def enemy(key: str, x: float, y: float = 0.0, **over: Any) -> FighterOnTable:
    return FighterOnTable(key, (x, y), 1, **over)


def test_the_closest_enemy_in_sight_within_12_must_be_the_target() -> None:
    fighters = [enemy("far", 9.0), enemy("near", 6.0), FighterOnTable("friend", (1.0, 0.0), 0)]
    assert priority_targets(SHOOTER, 0, fighters) == ("near",)
    assert needs_cool_check("far", ("near",))
    assert not needs_cool_check("near", ("near",))


def test_out_of_sight_enemies_do_not_count() -> None:
    fighters = [enemy("hidden", 2.0, in_los=False), enemy("seen", 8.0)]
    assert priority_targets(SHOOTER, 0, fighters) == ("seen",)


def test_beyond_12_inches_the_choice_is_free() -> None:
    assert priority_targets(SHOOTER, 0, [enemy("a", 12.0)]) == ("a",)
    assert priority_targets(SHOOTER, 0, [enemy("a", 12.01)]) == ()
    assert priority_targets(SHOOTER, 0, []) == ()
    assert not needs_cool_check("a", ())


@pytest.mark.parametrize("status", [{"engaged": True}, {"seriously_injured": True},
                                    {"engaged_with": frozenset({"x"})}])
def test_an_engaged_or_seriously_injured_closest_enemy_frees_the_choice(status: dict[str, Any]) -> None:
    fighters = [enemy("closest", 3.0, **status), enemy("next", 5.0)]
    assert priority_targets(SHOOTER, 0, fighters) == ()


def test_enemies_tied_for_closest_are_all_acceptable() -> None:
    fighters = [enemy("a", 5.0), enemy("b", 0.0, 5.0), enemy("c", 0.0, -5.0, seriously_injured=True)]
    assert priority_targets(SHOOTER, 0, fighters) == ("a", "b")


def test_walking_fire_reaches_enemies_within_3_in_range_and_sight() -> None:
    target = enemy("t", 10.0)
    fighters = [target, enemy("close", 11.0), enemy("edge", 10.0, 3.0), enemy("beyond", 13.5),
                enemy("unseen", 9.0, in_los=False), enemy("out", 11.0, 1.0, in_range=False),
                FighterOnTable("friend", (10.5, 0.0), 0)]
    assert walking_fire_candidates(target, 0, fighters) == ["close", "edge"]


def test_walking_fire_allocation_is_checked() -> None:
    assert check_walking_fire(3, "t", ["t", "close", "t"], ["close"]) == ("t", "close", "t")
    with pytest.raises(RulesInputError, match="first Hit goes to the original target 't', not 'close'") as err:
        check_walking_fire(2, "t", ["close", "t"], ["close"])
    assert err.value.field == "allocation"
    with pytest.raises(RulesInputError, match="^Allocate all 3 Hits before any Wound roll, not 2.$"):
        check_walking_fire(3, "t", ["t", "close"], ["close"])
    with pytest.raises(RulesInputError, match="Hit 2 cannot go to 'beyond'"):
        check_walking_fire(2, "t", ["t", "beyond"], ["close"])


def test_from_unit_reads_position_side_level_and_conditions() -> None:
    game = necromunda_game()
    unit = game.unit("u2")
    unit.level = 2
    unit.conditions = ["seriously_injured"]
    f = FighterOnTable.from_unit(unit, engaged_with=["u1"], in_los=False)
    assert f == FighterOnTable("u2", (12.0, 2.0), 1, level=2, engaged=False, seriously_injured=True,
                               engaged_with=frozenset({"u1"}), in_los=False, in_range=True)
    assert f.is_engaged


def test_toolkit_options_are_off_by_default_and_follow_the_game() -> None:
    assert not enabled(TARGET_PRIORITY) and not enabled(WALKING_FIRE)
    assert enabled(WALKING_FIRE, {"toolkit_walking_fire": True})
    with pytest.raises(ValueError, match="not an Arbitrator's toolkit option"):
        enabled("toolkit_overwatch")
