"""One reader for a plan's choices: each kind of choice read, and refused in a player's words with its key."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from battletracker.model.game import OUT_OF_PLAY
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.rules.actions import with_game_settings
from battletracker.rules.base import Refusal
from battletracker.rules.chain_of_command.anti_tank_plans import ShotRefusal
from battletracker.rules.chain_of_command.anti_tank_plans import vehicles_in_throw
from battletracker.rules.chain_of_command.grenades_into_vehicles import throw_odds
from battletracker.rules.choices import Reach
from battletracker.rules.choices import check_within
from battletracker.rules.choices import chosen_flag
from battletracker.rules.choices import chosen_number
from battletracker.rules.choices import chosen_text
from battletracker.rules.choices import chosen_unit
from battletracker.rules.choices import chosen_whole
from battletracker.rules.choices import chosen_word
from battletracker.rules.choices import off_table_refusal
from battletracker.rules.places import enemies_within


def _tank(unit_id: str, name: str, side: int, x: float) -> Unit:
    return Unit(unit_id, name, "vehicle", side, x, 10.0, 0.0,
                vehicle=Vehicle("afv", {"front": 4, "side": 3, "rear": 2, "top": 1}, False, []))


@pytest.fixture
def game() -> Game:
    """A British section at 10", a German squad 4" from it, a Panzer 5" and a Tiger 8" away, a friendly tank."""
    game = Game(title="Crossroads", ruleset="chain_of_command")
    game.sides = [Side("British", "#3366cc", 9, 2), Side("German", "#cc3333", 8, 1)]
    units = [
        Unit("brits", "1 Section", "section", 0, 10.0, 10.0, 0.0, figures=8, figures_max=10),
        Unit("squad", "1. Gruppe", "section", 1, 14.0, 10.0, 0.0, figures=9, figures_max=10),
        _tank("panzer", "Panzer IV", 1, 15.0),
        _tank("tiger", "Tiger", 1, 18.0),
        _tank("sherman", "Sherman", 0, 12.0),
    ]
    game.units = {u.id: u for u in units}
    return game


def refused(exc: pytest.ExceptionInfo[Refusal]) -> tuple[str, str]:
    return exc.value.field, exc.value.sentence


# -- a unit --------------------------------------------------------------------------------------------------------

def test_a_unit_is_read_by_its_id(game: Game) -> None:
    assert chosen_unit(game, {"unit": "brits"}).name == "1 Section"
    assert chosen_unit(game, {"firer": "squad"}, "firer", "firing unit").name == "1. Gruppe"


@pytest.mark.parametrize("choices, sentence", [
    ({}, "Choose the target."),
    ({"target": ""}, "Choose the target."),
    ({"target": 3}, "Choose the target."),
    ({"target": "gone"}, "That target is no longer on the table (was it removed?)."),
])
def test_a_missing_unit_is_refused_by_its_role(game: Game, choices: dict[str, object], sentence: str) -> None:
    with pytest.raises(Refusal) as exc:
        chosen_unit(game, choices, "target", "target")
    assert refused(exc) == ("target", sentence)


def test_a_unit_off_the_table_is_refused_only_when_it_must_be_in_play(game: Game) -> None:
    game.units["squad"].conditions.append(OUT_OF_PLAY)
    assert chosen_unit(game, {"target": "squad"}, "target", "target").id == "squad"
    with pytest.raises(Refusal) as exc:
        chosen_unit(game, {"target": "squad"}, "target", "target", in_play=True)
    assert refused(exc) == ("target", "1. Gruppe is out of play: it is no longer a target.")
    with pytest.raises(Refusal) as exc:
        chosen_unit(game, {"firer": "squad"}, "firer", "firing unit", in_play=True)
    assert refused(exc) == ("firer", "1. Gruppe is out of play: it can no longer fire.")
    with pytest.raises(Refusal) as exc:
        chosen_unit(game, {"observer": "squad"}, "observer", "Forward Observer", in_play=True)
    assert refused(exc) == ("observer", "1. Gruppe is out of play: it plays no part now.")


def test_off_table_refusal_says_why_and_raises_the_kind_asked(game: Game) -> None:
    game.units["panzer"].vehicle.damage.append("destroyed")  # type: ignore[union-attr]
    refusal = off_table_refusal(game.units["panzer"], "target", ShotRefusal)
    assert isinstance(refusal, ShotRefusal)
    assert (refusal.field, refusal.sentence) == ("target", "Panzer IV is destroyed: it is no longer a target.")


def test_a_unit_on_the_same_side_is_refused_as_the_enemy(game: Game) -> None:
    brits = game.units["brits"]
    assert chosen_unit(game, {"target": "squad"}, "target", "target", enemy_of=brits).id == "squad"
    with pytest.raises(Refusal) as exc:
        chosen_unit(game, {"target": "sherman"}, "target", "target", enemy_of=brits)
    assert refused(exc) == ("target", "Sherman is on the same side as 1 Section: pick an enemy unit.")


def test_a_unit_beyond_the_reach_is_refused_with_its_distance(game: Game) -> None:
    reach = Reach(game.units["brits"], 6.0, 'a grenade is thrown within 6"')
    assert chosen_unit(game, {"target": "panzer"}, "target", "target", within=reach).id == "panzer"  # 5"
    with pytest.raises(Refusal) as exc:
        chosen_unit(game, {"target": "tiger"}, "target", "target", within=reach)
    assert refused(exc) == ("target", 'Tiger is 8.0" away: a grenade is thrown within 6".')


def test_the_edge_of_the_reach_is_within_it(game: Game) -> None:
    check_within(game.units["panzer"], Reach(game.units["brits"], 5.0, "too far"), "target")


def test_every_unit_refusal_raises_the_kind_asked(game: Game) -> None:
    brits = game.units["brits"]
    for choices, options in (({}, {}), ({"target": "gone"}, {}), ({"target": "sherman"}, {"enemy_of": brits}),
                             ({"target": "tiger"}, {"within": Reach(brits, 6.0, "too far")})):
        with pytest.raises(ShotRefusal):
            chosen_unit(game, choices, "target", "target", refusal=ShotRefusal, **options)


# -- yes/no, numbers, words, text ----------------------------------------------------------------------------------

def test_a_flag_is_yes_or_no_with_a_default() -> None:
    assert chosen_flag({"sight": True}, "sight") is True
    assert chosen_flag({"sight": False}, "sight", True) is False
    assert chosen_flag({}, "sight") is False
    assert chosen_flag({"sight": ""}, "first_round", True) is True
    with pytest.raises(Refusal) as exc:
        chosen_flag({"turret_rotated": "maybe"}, "turret_rotated")
    assert refused(exc) == ("turret_rotated", "Turret rotated is yes or no.")
    with pytest.raises(ShotRefusal) as shot:
        chosen_flag({"sight": 1}, "sight", what="Line of Sight", refusal=ShotRefusal)
    assert refused(shot) == ("sight", "Line of Sight is yes or no.")


def test_a_whole_number_is_read_within_its_bounds() -> None:
    assert chosen_whole({"dice": 3}, "dice", "The dice") == 3
    assert chosen_whole({"dice": 3.0}, "dice", "The dice") == 3
    assert chosen_whole({}, "dice", "The dice", 2) == 2
    assert chosen_whole({"dice": 0}, "dice", "The dice", minimum=0, maximum=20) == 0


@pytest.mark.parametrize("value, bounds, sentence", [
    (None, {}, "The dice must be a whole number."),
    ("three", {}, "The dice must be a whole number."),
    (True, {}, "The dice must be a whole number."),
    (2.5, {}, "The dice must be a whole number."),
    (-1, {"minimum": 0}, "The dice must be a whole number, 0 or more."),
    (7, {"maximum": 6}, "The dice must be a whole number, 6 or less."),
    (21, {"minimum": 0, "maximum": 20}, "The dice must be a whole number from 0 to 20."),
])
def test_a_whole_number_is_refused_in_words(value: object, bounds: dict[str, int], sentence: str) -> None:
    choices = {} if value is None else {"dice": value}
    with pytest.raises(Refusal) as exc:
        chosen_whole(choices, "dice", "The dice", **bounds)  # type: ignore[arg-type]
    assert refused(exc) == ("dice", sentence)


def test_a_number_is_read_within_its_bounds() -> None:
    assert chosen_number({"x": 12}, "x", "Where to") == 12.0
    assert chosen_number({"x": 12.5}, "x", "Where to", minimum=0) == 12.5
    assert chosen_number({}, "x", "Where to", 3.0) == 3.0


@pytest.mark.parametrize("value, options, sentence", [
    (None, {}, "The run must be a number."),
    ("far", {"measure": "inches"}, "The run must be a number of inches."),
    (False, {}, "The run must be a number."),
    (math.inf, {}, "The run must be a number."),
    (math.nan, {"measure": "inches"}, "The run must be a number of inches."),
    (-0.5, {"minimum": 0, "measure": "inches"}, "The run must be a number of inches, 0 or more."),
    (1.5, {"minimum": 0, "maximum": 1}, "The run must be a number from 0 to 1."),
])
def test_a_number_is_refused_in_words(value: object, options: dict[str, object], sentence: str) -> None:
    choices = {} if value is None else {"run": value}
    with pytest.raises(Refusal) as exc:
        chosen_number(choices, "run", "The run", **options)  # type: ignore[arg-type]
    assert refused(exc) == ("run", sentence)


def test_a_word_is_one_of_those_allowed_with_a_default() -> None:
    allowed = ("open", "light_cover", "hard_cover")
    assert chosen_word({"cover": "hard_cover"}, "cover", allowed, "open", "Cover") == "hard_cover"
    assert chosen_word({}, "cover", allowed, "open", "Cover") == "open"
    assert chosen_word({"cover": ""}, "cover", allowed, "light_cover", "Cover") == "light_cover"
    with pytest.raises(ShotRefusal) as exc:
        chosen_word({"cover": "deep"}, "cover", allowed, "open", "Cover", refusal=ShotRefusal)
    assert refused(exc) == ("cover", "Cover is one of open, light cover, hard cover.")


def test_text_is_trimmed_and_never_refused() -> None:
    assert chosen_text({"why": "  behind the hedge "}, "why") == "behind the hedge"
    assert chosen_text({"why": 3}, "why") == ""
    assert chosen_text({}, "why") == ""


# -- the game's settings, units within reach, the throw ------------------------------------------------------------

def test_the_games_settings_join_the_inputs_the_inputs_first(game: Game) -> None:
    game.settings = {"grenade_throw_to_hit": 9, "grenade_bullseye_double_six": 3, "not_read_here": 1}
    merged = with_game_settings(game, "coc.grenade_into_vehicle", {"firepower_dice": 4, "grenade_throw_to_hit": 8})
    assert merged == {"firepower_dice": 4, "grenade_throw_to_hit": 8, "grenade_bullseye_double_six": 3}


def test_enemies_within_reach_nearest_first_of_the_kind_asked(game: Game) -> None:
    brits = game.units["brits"]
    assert [u.id for u in enemies_within(game, brits, 8.0)] == ["squad", "panzer", "tiger"]
    assert [u.id for u in enemies_within(game, brits, 6.0, lambda u: u.is_vehicle)] == ["panzer"]
    assert [u.id for u in enemies_within(game, brits, 6.0, lambda u: not u.is_vehicle)] == ["squad"]
    game.units["panzer"].conditions.append(OUT_OF_PLAY)
    assert [u.id for u in vehicles_in_throw(game, brits)] == []


def test_the_throw_lands_on_its_score_or_better() -> None:
    odds = throw_odds(7, sum)
    assert odds.p(None) == Fraction(15, 36)
    assert odds.p(7) == Fraction(6, 36) and odds.p(12) == Fraction(1, 36)
    assert sorted(k for k in odds.outcomes if k is not None) == list(range(7, 13))
