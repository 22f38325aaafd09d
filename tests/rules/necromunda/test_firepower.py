"""The Firepower die from its setting, and the ammo readings."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.odds import Distribution
from battletracker.core.odds import binomial
from battletracker.rules import RulesInputError
from battletracker.rules.necromunda.firepower import AMMO_READINGS
from battletracker.rules.necromunda.firepower import FirepowerFace
from battletracker.rules.necromunda.firepower import ammo_check_failed
from battletracker.rules.necromunda.firepower import ammo_checks_needed
from battletracker.rules.necromunda.firepower import ammo_state
from battletracker.rules.necromunda.firepower import ammo_symbols_counted
from battletracker.rules.necromunda.firepower import default_die
from battletracker.rules.necromunda.firepower import holes_and_ammo_state
from battletracker.rules.necromunda.firepower import holes_and_symbols
from battletracker.rules.necromunda.firepower import parse_faces
from battletracker.rules.tables import ruleset_settings


def test_the_default_die_is_the_documented_setting_marked_to_check() -> None:
    settings = {s.key: s for s in ruleset_settings("necromunda")}
    faces = settings["firepower_die_faces"]
    assert faces.check and faces.default == "1, 1, 2, 2, 3, 1+ammo"
    die = default_die()
    assert die.labels == ("1", "1", "2", "2", "3", "1+ammo")
    assert die.die.name == "Firepower" and not die.die.numeric
    assert settings["ammo_trait_reading"].check
    assert settings["ammo_trait_reading"].default == "ammo_check"
    assert "Hammer of Math: Necromunda Ammo Checks" in settings["ammo_trait_reading"].description
    assert "always" in settings["ammo_trait_reading"].choices
    assert settings["ammo_trait_reading"].choices == tuple(AMMO_READINGS)


def test_every_symbol_the_documents_name_is_on_the_default_die() -> None:
    assert set(default_die().faces) == {FirepowerFace(1), FirepowerFace(2), FirepowerFace(3),
                                        FirepowerFace(1, ammo=True)}


def test_faces_parse_with_spaces_and_capitals() -> None:
    die = parse_faces(" 1 ,2,2 , 3,3, 1 + AMMO")
    assert die.labels == ("1", "2", "2", "3", "3", "1+ammo")
    assert die.face("1+Ammo") == FirepowerFace(1, True)


@pytest.mark.parametrize("text, message", [
    ("", "'' is not a Firepower die face"),
    ("1, 1, 2, 2, 3", "6 faces, not 5"),
    ("1, 1, 2, 2, 3, 1+ammo, 2", "6 faces, not 7"),
    ("0, 1, 2, 2, 3, 1+ammo", "'0' is not a Firepower die face"),
    ("1, 1, 2, 2, 3, ammo", "'ammo' is not a Firepower die face"),
    ("1, 1, 2, 2, 3, 1+jam", "'1+jam' is not"),
])
def test_bad_faces_are_refused_naming_the_setting(text: str, message: str) -> None:
    with pytest.raises(RulesInputError) as err:
        parse_faces(text)
    assert err.value.field == "firepower_die_faces"
    assert message in str(err.value)


@pytest.mark.parametrize("symbols, state", [(0, "ok"), (1, "out"), (2, "jammed"), (3, "jammed")])
def test_ammo_state_by_symbols(symbols: int, state: str) -> None:
    assert ammo_state(symbols) == state


@pytest.mark.parametrize("rolled, trait, reading, counted", [
    (0, False, "always", 0), (1, False, "always", 1), (2, False, "always", 2),
    (0, True, "always", 1), (1, True, "always", 2), (2, True, "always", 3),
    (0, True, "with_rolled_symbol", 0), (1, True, "with_rolled_symbol", 2),
    (0, True, "never", 0), (1, True, "never", 1),
])
def test_ammo_symbols_counted(rolled: int, trait: bool, reading: str, counted: int) -> None:
    assert ammo_symbols_counted(rolled, trait, reading) == counted


@pytest.mark.parametrize("rolled, ammo, failed, needed, counted", [
    (0, 4, 0, 0, 0), (1, 4, 0, 1, 0), (1, 4, 1, 1, 1), (2, 4, 1, 2, 1), (2, 4, 2, 2, 2), (2, 0, 0, 0, 2),
])
def test_the_ammo_check_reading_counts_failed_checks(rolled: int, ammo: int, failed: int, needed: int,
                                                      counted: int) -> None:
    assert ammo_checks_needed(rolled, ammo, "ammo_check") == needed
    assert ammo_symbols_counted(rolled, ammo > 0, "ammo_check", failed) == counted
    assert ammo_checks_needed(rolled, ammo, "always") == 0


def test_an_ammo_check_fails_below_x() -> None:
    assert [ammo_check_failed(roll, 4) for roll in range(1, 7)] == [True, True, True, False, False, False]


def test_holes_and_ammo_state_with_checks() -> None:
    dist = holes_and_ammo_state(default_die(), 1, 4, "ammo_check")
    assert dist.total() == 1
    assert dist.p((1, "out")) == Fraction(1, 12) and dist.p((1, "ok")) == Fraction(2, 6) + Fraction(1, 12)
    literal = holes_and_ammo_state(default_die(), 1, 4, "always")
    assert literal.probability(lambda hs: hs[1] == "ok") == 0


@pytest.mark.parametrize("count", [0, 1, 3, 6])
@pytest.mark.parametrize("ammo", [0, 1, 4, 6])
@pytest.mark.parametrize("reading", list(AMMO_READINGS))
def test_holes_and_ammo_state_equal_each_roll_followed_by_its_ammo_checks(count: int, ammo: int,
                                                                          reading: str) -> None:
    fail = Fraction(max(ammo - 1, 0), 6)

    def state(hs: tuple[int, int]) -> Distribution[tuple[int, str]]:
        holes, rolled = hs
        return binomial(ammo_checks_needed(rolled, ammo, reading), fail).map(
            lambda failed: (holes, ammo_state(ammo_symbols_counted(rolled, ammo > 0, reading, failed))))

    plain = holes_and_symbols(default_die(), count).bind(state)
    assert holes_and_ammo_state(default_die(), count, ammo, reading) == plain


def test_an_unknown_reading_is_refused() -> None:
    with pytest.raises(ValueError, match="not a reading"):
        ammo_symbols_counted(0, True, "literal")


def test_each_reading_has_an_explanation_for_the_dialog() -> None:
    assert all(len(text) > 40 for text in AMMO_READINGS.values())
    assert "literally" in AMMO_READINGS["always"]


def test_joint_holes_and_symbols_for_two_default_dice() -> None:
    dist = holes_and_symbols(default_die(), 2)
    assert dist.total() == 1
    assert dist.p((6, 0)) == Fraction(1, 36)
    assert dist.p((2, 2)) == Fraction(1, 36)
    assert dist.probability(lambda hs: hs[1] == 1) == Fraction(10, 36)
    assert dist.p((2, 0)) == Fraction(4, 36)
    assert dist.map(lambda hs: hs[0]).mean() == 2 * Fraction(10, 6)
