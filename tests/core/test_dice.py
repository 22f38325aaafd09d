"""Dice: seeded repeatability, scripted replays, and validation of typed-in rolls."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from battletracker.core.dice import D3
from battletracker.core.dice import D6
from battletracker.core.dice import D12
from battletracker.core.dice import DiceError
from battletracker.core.dice import DiceExhausted
from battletracker.core.dice import Die
from battletracker.core.dice import RandomDice
from battletracker.core.dice import ScriptedDice
from battletracker.core.dice import count_at_least
from battletracker.core.dice import numeric_die
from battletracker.core.dice import parse_typed_rolls

DEVIATION = Die("deviation die", ("hit", "hit", "arrow 1", "arrow 2", "arrow 3", "arrow 4"))


# -- shapes ---------------------------------------------------------------------------------


def test_standard_dice_have_the_faces_their_names_say() -> None:
    assert D3.faces == (1, 2, 3) and D3.name == "D3"
    assert D6.faces == (1, 2, 3, 4, 5, 6) and D6.name == "D6"
    assert D12.faces == tuple(range(1, 13)) and D12.name == "D12"
    assert numeric_die(8) == Die("D8", tuple(range(1, 9)))
    assert D6.numeric and not DEVIATION.numeric


def test_a_die_needs_two_sides() -> None:
    with pytest.raises(DiceError, match="at least two sides, not 1"):
        numeric_die(1)


# -- RandomDice ------------------------------------------------------------------------------


def test_random_dice_with_the_same_seed_repeat_exactly() -> None:
    a, b = RandomDice(42), RandomDice(42)
    rolls_a = [a.roll(D6, 5, "shots") for _ in range(50)]
    rolls_b = [b.roll(D6, 5, "shots") for _ in range(50)]
    assert rolls_a == rolls_b
    assert rolls_a != [RandomDice(43).roll(D6, 5, "shots") for _ in range(50)]


def test_random_dice_stay_on_the_die_and_cover_every_face() -> None:
    dice = RandomDice(7)
    for die in (D3, D6, D12, DEVIATION):
        seen = Counter(dice.roll(die, 600, "spread"))
        assert set(seen) == set(die.faces)
    assert dice.roll(D6, 0, "none") == ()


def test_random_dice_roll_the_count_asked_for() -> None:
    assert len(RandomDice(1).roll(D12, 9, "x")) == 9


# -- ScriptedDice ----------------------------------------------------------------------------


def test_scripted_dice_replay_in_order_and_count_what_they_used() -> None:
    dice = ScriptedDice([6, 1, 3, "hit"])
    assert dice.roll(D6, 2, "to hit") == (6, 1)
    assert (dice.used, dice.remaining) == (2, 2)
    assert dice.roll(D3, 1, "shock") == (3,)
    assert dice.roll(DEVIATION, 1, "deviation") == ("hit",)
    assert dice.remaining == 0


def test_scripted_dice_running_out_name_the_roll_they_could_not_make() -> None:
    dice = ScriptedDice([4])
    with pytest.raises(DiceExhausted) as caught:
        dice.roll(D6, 3, "Penetration")
    err = caught.value
    assert (err.label, err.die, err.count, err.supplied) == ("Penetration", D6, 3, 1)
    assert "'Penetration'" in str(err) and "3 D6" in str(err) and "1 were given" in str(err)
    # Nothing was taken: the one die is still there for a smaller roll.
    assert dice.remaining == 1
    assert dice.roll(D6, 1, "Penetration") == (4,)
    with pytest.raises(DiceExhausted, match="'Armour save'"):
        dice.roll(D6, 1, "Armour save")


def test_dice_exhausted_is_a_dice_error() -> None:
    with pytest.raises(DiceError):
        ScriptedDice([]).roll(D6, 1, "anything")


def test_scripted_value_that_cannot_be_on_the_die_is_refused_naming_die_and_roll() -> None:
    dice = ScriptedDice([2, 7])
    with pytest.raises(DiceError) as caught:
        dice.roll(D6, 2, "Firepower")
    message = str(caught.value)
    assert message.startswith("Firepower: ")
    assert "7" in message and "D6" in message and "1-6" in message
    assert not isinstance(caught.value, DiceExhausted)
    # A refused roll consumes nothing.
    assert dice.used == 0


def test_scripted_value_on_a_d3_is_checked_against_the_d3() -> None:
    with pytest.raises(DiceError, match="4 cannot be rolled on a D3"):
        ScriptedDice([4]).roll(D3, 1, "Shock")


def test_scripted_face_names_are_checked_against_the_face_list() -> None:
    with pytest.raises(DiceError, match="'miss' is not a face of the deviation die"):
        ScriptedDice(["miss"]).roll(DEVIATION, 1, "Deviation")
    with pytest.raises(DiceError, match="deviation die"):
        ScriptedDice([3]).roll(DEVIATION, 1, "Deviation")


# -- validation of typed rolls ---------------------------------------------------------------


@pytest.mark.parametrize("value", [0, 7, "0", "7", -1, "-1"])
def test_zero_and_seven_on_a_d6_are_refused_naming_the_d6(value: int | str) -> None:
    with pytest.raises(DiceError) as caught:
        D6.validate(value)
    assert "D6" in str(caught.value) and "1-6" in str(caught.value)


@pytest.mark.parametrize(("die", "bad"), [(D3, 0), (D3, 4), (D12, 0), (D12, 13)])
def test_values_off_the_die_are_refused_naming_it(die: Die, bad: int) -> None:
    with pytest.raises(DiceError, match=rf"{bad} cannot be rolled on a {die.name} \(faces 1-{len(die.faces)}\)"):
        die.validate(bad)


@pytest.mark.parametrize("die", [D3, D6, D12])
def test_every_face_is_accepted_as_number_and_as_text(die: Die) -> None:
    for face in die.faces:
        assert die.validate(face) == face
        assert die.validate(f" {face} ") == face


@pytest.mark.parametrize("text", ["six", "", "4.0", "1e1", "--1", "²", "+-3"])
def test_text_that_is_not_a_whole_number_is_refused_naming_the_die(text: str) -> None:
    with pytest.raises(DiceError) as caught:
        D6.validate(text)
    assert "D6" in str(caught.value)


def test_booleans_are_not_dice() -> None:
    with pytest.raises(DiceError, match="D6"):
        D6.validate(True)


def test_face_list_die_matches_names_ignoring_case_and_spaces() -> None:
    assert DEVIATION.validate("HIT") == "hit"
    assert DEVIATION.validate("  Arrow 3 ") == "arrow 3"
    assert DEVIATION.describe_faces() == "hit, hit, arrow 1, arrow 2, arrow 3, arrow 4"


def test_parse_typed_rolls_accepts_spaces_and_commas() -> None:
    assert parse_typed_rolls("6 1, 3,,4", D6) == (6, 1, 3, 4)
    assert parse_typed_rolls("12", D12, count=1) == (12,)
    assert parse_typed_rolls("hit", DEVIATION, count=1) == ("hit",)


def test_parse_typed_rolls_refuses_a_bad_value_naming_die_and_value() -> None:
    with pytest.raises(DiceError, match="7 cannot be rolled on a D6"):
        parse_typed_rolls("6 7", D6)
    with pytest.raises(DiceError, match="0 cannot be rolled on a D6"):
        parse_typed_rolls("0", D6)
    with pytest.raises(DiceError, match="'left' is not a face of the deviation die"):
        parse_typed_rolls("left", DEVIATION)


def test_parse_typed_rolls_refuses_nothing_and_the_wrong_count() -> None:
    with pytest.raises(DiceError, match="no dice entered: type the D6 results"):
        parse_typed_rolls(" , ", D6)
    with pytest.raises(DiceError, match="3 D6 needed, 2 entered"):
        parse_typed_rolls("1 2", D6, count=3)


def test_count_at_least_counts_numeric_faces_only() -> None:
    assert count_at_least((6, 5, 4, 1), 5) == 2
    assert count_at_least(("hit", 6), 1) == 1
    assert count_at_least((), 4) == 0


LONG_NUMBER = "6" * 5000  # past the 4,300 digits Python's int() reads from text


@pytest.mark.parametrize("text", [LONG_NUMBER, "6 " + LONG_NUMBER, "-" + LONG_NUMBER, "0000006" + "0" * 10])
def test_a_typed_number_too_long_for_any_face_is_refused_naming_the_die(text: str) -> None:
    with pytest.raises(DiceError) as caught:
        parse_typed_rolls(text, D6)
    message = str(caught.value)
    assert "cannot be rolled on a D6 (faces 1-6)" in message
    assert len(message) < 80


@pytest.mark.parametrize("value", [6.0, 1.0, True, False, [6], None])
def test_a_roll_that_is_not_a_whole_number_is_not_a_face(value: object) -> None:
    with pytest.raises(DiceError, match="cannot be rolled on a D6"):
        D6.validate(value)  # type: ignore[arg-type]
    with pytest.raises(DiceError, match="is not a face of the deviation die"):
        Die("deviation die", ("hit", 2, 3)).validate(value)  # type: ignore[arg-type]


def test_scripted_dice_refuse_a_float_roll_instead_of_recording_it() -> None:
    with pytest.raises(DiceError, match=r"to hit: 6\.0 cannot be rolled on a D6"):
        ScriptedDice([6.0]).roll(D6, 1, "to hit")  # type: ignore[list-item]


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=40), st.text(alphabet="0123456789 -", max_size=6000)))
def test_any_typed_text_is_read_as_faces_or_refused_with_a_dice_error(text: str) -> None:
    try:
        values = parse_typed_rolls(text, D6)
    except DiceError as exc:
        assert len(str(exc)) < 120
    else:
        assert all(type(v) is int and 1 <= v <= 6 for v in values)
