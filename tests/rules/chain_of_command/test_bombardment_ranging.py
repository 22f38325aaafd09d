"""coc.ranging_shot: the ranging table, deviation, the +1s, its odds and its effects."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from battletracker.core.dice import DiceExhausted
from battletracker.core.dice import ScriptedDice
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.bombardment_effects import AppendBombardmentEvent
from battletracker.model.bombardment_effects import UpdateBombardment
from battletracker.rules import RulesInputError
from battletracker.rules import get
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.base import Resolution
from battletracker.rules.chain_of_command.ranging import bearing_die_faces
from tests.rules.oddscheck import assert_odds_match_simulation

AIM: dict[str, object] = {"aim_x": 30.0, "aim_y": 20.0}


def shot(dice: list[int], **inputs: object) -> Resolution:
    return resolve("coc.ranging_shot", {**AIM, **inputs}, ScriptedDice(dice))  # type: ignore[dict-item]


def test_on_target_or_better_with_no_plus_one_is_15_in_36() -> None:
    d = odds("coc.ranging_shot", AIM)  # type: ignore[arg-type]
    assert d.p("on_target") + d.p("devastating") == Fraction(15, 36)
    assert d.p("unobserved") == Fraction(6, 36)
    assert d.p("deviates") == Fraction(4 + 5 + 6, 36)
    assert d.p("devastating") == Fraction(1, 36)
    assert d.total() == 1


@pytest.mark.parametrize(("attempts", "unobserved", "on_target_or_better"), [
    (1, Fraction(3, 36), Fraction(21, 36)),
    (2, Fraction(1, 36), Fraction(26, 36)),
    (3, Fraction(0), Fraction(30, 36)),
    (10, Fraction(0), Fraction(1)),
])
def test_each_earlier_unobserved_shot_adds_one(attempts: int, unobserved: Fraction,
                                                on_target_or_better: Fraction) -> None:
    d = odds("coc.ranging_shot", {**AIM, "unobserved_attempts": attempts})  # type: ignore[dict-item]
    assert d.p("unobserved") == unobserved
    assert d.p("on_target") + d.p("devastating") == on_target_or_better


def test_a_modified_total_above_twelve_is_devastating_by_default_or_on_target_by_setting() -> None:
    assert shot([6, 6], unobserved_attempts=2).outcome == "devastating"
    assert shot([6, 5], unobserved_attempts=2).outcome == "devastating"
    assert shot([6, 5], unobserved_attempts=2, ranging_above_table="on_target").outcome == "on_target"
    d = odds("coc.ranging_shot", {**AIM, "unobserved_attempts": 1, "ranging_above_table": "on_target"})  # type: ignore[dict-item]
    # 11 + 1 reads as 12 on the table; only totals above it are read as on target.
    assert d.p("devastating") == Fraction(2, 36) and d.p("on_target") == Fraction(19, 36)


@pytest.mark.parametrize(("dice", "outcome"), [
    ([1, 1], "unobserved"), ([2, 2], "unobserved"), ([4, 4], "on_target"), ([5, 6], "on_target"),
    ([6, 6], "devastating"),
])
def test_the_table_rows(dice: list[int], outcome: str) -> None:
    res = shot(dice)
    assert res.outcome == outcome
    assert (res.values["x"], res.values["y"], res.values["distance"]) == (30.0, 20.0, 0.0)
    assert list(res.rolls) == [("Ranging shot (2D6)", tuple(dice))]


@pytest.mark.parametrize(("dice", "deviation_dice"), [([2, 3], 4), ([3, 3], 3), ([3, 4], 2)])
def test_deviation_4d6_3d6_2d6_with_a_given_bearing(dice: list[int], deviation_dice: int) -> None:
    res = shot(dice + [2] * deviation_dice, bearing=90)
    assert res.outcome == "deviates"
    assert res.values["distance"] == 2.0 * deviation_dice
    assert math.isclose(res.values["x"], 30.0 + 2.0 * deviation_dice) and math.isclose(res.values["y"], 20.0)
    assert res.rolls[1] == (f"Deviation ({deviation_dice}D6 inches)", (2,) * deviation_dice)
    assert len(res.rolls) == 2


def test_without_a_bearing_a_d12_clock_face_gives_the_direction() -> None:
    res = shot([3, 4, 1, 2, 3])
    assert res.rolls[-1] == ("Deviation direction (D12)", (3,))
    assert res.values["bearing"] == 90.0 and math.isclose(res.values["x"], 33.0)
    up = shot([3, 4, 1, 2, 12])
    assert up.values["bearing"] == 0.0 and math.isclose(up.values["y"], 17.0)
    left = shot([3, 4, 1, 2, 9])
    assert left.values["bearing"] == 270.0 and math.isclose(left.values["x"], 27.0)
    d8 = shot([3, 4, 1, 2, 2], ranging_bearing_die_sides=8)
    assert d8.values["bearing"] == 90.0 and d8.rolls[-1][0] == "Deviation direction (D8)"


def test_the_faces_the_map_draws_are_the_bearings_the_shot_takes() -> None:
    """The map shows each face of the direction die while it is asked for: the same reading the roll uses."""
    with pytest.raises(DiceExhausted) as asked:
        shot([3, 4, 1, 2])
    shown = bearing_die_faces(AIM, asked.value.label)  # type: ignore[arg-type]
    assert shown is not None
    aim, faces = shown
    assert aim == (30.0, 20.0)
    assert faces[:3] == ((1, 30.0), (2, 60.0), (3, 90.0)) and faces[-1] == (12, 0.0) and len(faces) == 12
    for face, bearing in faces:
        assert shot([3, 4, 1, 2, face]).values["bearing"] == bearing
    assert bearing_die_faces(AIM, "Ranging shot (2D6)") is None  # type: ignore[arg-type]
    eight = bearing_die_faces({**AIM, "ranging_bearing_die_sides": 8}, "Deviation direction (D8)")  # type: ignore[arg-type]
    assert eight is not None and [b for _f, b in eight[1]] == [45.0 * f % 360 for f in range(1, 9)]


def test_the_plus_ones_show_in_the_roll_and_values() -> None:
    res = shot([2, 1, 1, 1, 1, 1], unobserved_attempts=2, bearing=0)
    assert (res.values["natural"], res.values["modifier"], res.values["roll"]) == (3, 2, 5)
    assert res.outcome == "deviates" and res.values["distance"] == 4.0
    assert res.log[0] == "Ranging shot: 3 +2 = 5"


def test_the_dialog_is_told_which_dice_it_needs_next() -> None:
    with pytest.raises(DiceExhausted) as err:
        shot([3, 3])
    assert err.value.label == "Deviation (3D6 inches)" and err.value.count == 3


def test_effects_move_the_bombardment_through_its_states() -> None:
    ids = {"bombardment_id": "b1", "turn": 2, "phase": 3}
    unobserved = shot([1, 2], unobserved_attempts=1, **ids)
    stamp = ("last_ranged", PhaseStamp(2, 3))
    assert unobserved.effects[0] == UpdateBombardment("b1", (("unobserved_attempts", 2), stamp))
    landed = shot([3, 3, 1, 1, 1], bearing=180, **ids)
    assert landed.effects[0] == UpdateBombardment("b1", (("state", "landed"), ("landed_x", 30.0),
                                                         ("landed_y", 23.0), stamp))
    event = landed.effects[1]
    assert isinstance(event, AppendBombardmentEvent)
    assert (event.event.turn, event.event.phase, event.event.kind) == (2, 3, "ranging")
    assert (event.event.from_x, event.event.from_y, event.event.x, event.event.y) == (30.0, 20.0, 30.0, 23.0)
    assert event.event.values["distance"] == 3.0
    on = shot([4, 4], **ids)
    assert on.effects[0] == UpdateBombardment("b1", (("state", "ready"), ("devastating", False), ("landed_x", None),
                                                     ("landed_y", None), stamp))
    devastating = shot([6, 6], **ids)
    assert ("devastating", True) in devastating.effects[0].values  # type: ignore[attr-defined]
    assert shot([4, 4]).effects == ()


@pytest.mark.parametrize(("inputs", "field", "message"), [
    ({"aim_y": 20.0}, "aim_x", "is required"),
    ({**AIM, "unobserved_attempts": -1}, "unobserved_attempts", "must be at least 0, not -1"),
    ({**AIM, "bearing": 400}, "bearing", "must be at most 360, not 400"),
    ({**AIM, "bombardment_id": "b1"}, "turn", "is required"),
    ({**AIM, "table_width": 72.0}, "table_height", "give table_width and table_height together"),
    ({"aim_x": 80.0, "aim_y": 20.0, "table_width": 72.0, "table_height": 48.0}, "aim_x",
     "80 is off the table \\(0 to 72 inches\\)"),
    ({"aim_x": 8.0, "aim_y": -1.0, "table_width": 72.0, "table_height": 48.0}, "aim_y", "-1 is off the table"),
    ({**AIM, "ranging_above_table": "maybe"}, "ranging_above_table", "must be one of devastating, on_target"),
    ({**AIM, "ranging_bearing_die_sides": 1}, "ranging_bearing_die_sides", "must be at least 2, not 1"),
    ({**AIM, "colour": "red"}, "colour", "is not an input of this procedure"),
])
def test_refusals_name_the_field(inputs: dict[str, object], field: str, message: str) -> None:
    with pytest.raises(RulesInputError, match=message) as err:
        odds("coc.ranging_shot", inputs)  # type: ignore[arg-type]
    assert err.value.field == field


def test_a_shot_landing_off_the_table_is_logged() -> None:
    res = shot([3, 3, 6, 6, 6], bearing=90, table_width=36.0, table_height=48.0)
    assert "The shot lands off the table" in res.log


@pytest.mark.parametrize("inputs", [{}, {"unobserved_attempts": 1}, {"unobserved_attempts": 3},
                                    {"unobserved_attempts": 2, "ranging_above_table": "on_target"}])
def test_odds_agree_with_simulation(inputs: dict[str, object]) -> None:
    assert_odds_match_simulation("coc.ranging_shot", {**AIM, **inputs})  # type: ignore[dict-item]


def test_its_settings_are_declared() -> None:
    assert get("coc.ranging_shot").settings == ("ranging_bearing_die_sides", "ranging_above_table")


def test_a_smoke_barrage_is_never_devastating_its_double_six_is_on_target() -> None:
    assert shot([6, 6], smoke=True).outcome == "on_target"
    assert shot([6, 5], unobserved_attempts=2, smoke=True).outcome == "on_target"
    d = odds("coc.ranging_shot", {**AIM, "smoke": True})  # type: ignore[arg-type]
    assert "devastating" not in d.outcomes and d.p("on_target") == Fraction(15, 36) and d.total() == 1
    assert_odds_match_simulation("coc.ranging_shot", {**AIM, "smoke": True, "bearing": 90.0})
