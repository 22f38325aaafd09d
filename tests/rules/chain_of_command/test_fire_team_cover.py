"""Teams sharing a Fire's hits each read their effect dice against their own cover, from the table or the player."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battletracker.core.dice import DiceExhausted
from battletracker.core.dice import ScriptedDice
from battletracker.core.odds import Distribution
from battletracker.model import savefile
from battletracker.model.effects import AppendLog
from battletracker.model.game import Game
from battletracker.model.terrain import TerrainPiece
from battletracker.rules import RulesInputError
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.actions import perform
from battletracker.rules.actions import plan
from battletracker.rules.base import Inputs
from battletracker.rules.chain_of_command.fire_plans import SMALL_ARMS
from battletracker.rules.chain_of_command.fire_plans import plan_fire
from battletracker.rules.tables import resources_dir
from tests.acting import ready_side
from tests.rules.oddscheck import assert_odds_match_simulation

GRUPPE, MG, FIRST_SQUAD, SECOND_SQUAD = "u1", "u3", "u7", "u8"
# 1st Squad stands at (22, 38), 2nd Squad at (38, 39); 1. Gruppe at (20, 10), the sMG42 at (45, 11).
COPSE = TerrainPiece("t1", "Copse", "woods", "area", [(20.0, 36.0), (24.0, 36.0), (24.0, 40.0), (20.0, 40.0)])


@pytest.fixture
def game() -> Game:
    game = savefile.load(resources_dir() / "demo" / "chain_of_command.json")
    game.terrain, game.buildings, game.smoke = {}, {}, {}
    game.terrain["t1"] = COPSE
    return ready_side(game)


def shot(**more: object) -> dict[str, object]:
    return {"firer": GRUPPE, "target": SECOND_SQUAD, "targets": FIRST_SQUAD, "weapon": SMALL_ARMS, **more}


def brute_odds(name: str, inputs: Inputs) -> dict[str, Fraction]:
    """Every sequence of faces the procedure can ask for, each weighted 1/6 a die: the odds by enumeration."""
    found: dict[str, Fraction] = {}

    def roll(faces: tuple[int, ...], weight: Fraction) -> None:
        try:
            outcome = resolve(name, inputs, ScriptedDice(list(faces))).outcome
        except DiceExhausted:
            for face in range(1, 7):
                roll((*faces, face), weight / 6)
            return
        found[outcome] = found.get(outcome, Fraction(0)) + weight

    roll((), Fraction(1))
    return found


def as_dict(dist: Distribution[str]) -> dict[str, Fraction]:
    return dict(dist.items())


def test_each_team_takes_its_own_cover_from_the_table(game: Game) -> None:
    planned = plan_fire(game, shot())
    assert planned.inputs["cover"] == "open" and planned.inputs["team_cover"] == "open,light"
    assert "1st Squad: Light cover: in Copse" in planned.facts and planned.log == ()
    assert "2nd Squad: In the open" in planned.facts
    game.terrain.clear()
    assert "team_cover" not in plan_fire(game, shot()).inputs


def test_a_teams_cover_card_condition_wins_as_the_targets_does(game: Game) -> None:
    game.unit(FIRST_SQUAD).conditions.append("hard cover")
    planned = plan_fire(game, shot())
    assert planned.inputs["team_cover"] == "open,hard"
    assert "1st Squad: Hard cover: on 1st Squad's card" in planned.facts


def test_the_player_overrides_a_teams_cover_and_it_is_logged_under_its_name(game: Game) -> None:
    choices = shot(**{f"cover.{FIRST_SQUAD}": "hard", f"cover_reason.{FIRST_SQUAD}": "behind the wall"})
    planned = plan("coc.shoot", game, choices)
    line = "1st Squad: Cover Hard (player: 'behind the wall'; the map: Light cover: in Copse)"
    assert planned.inputs["team_cover"] == "open,hard" and planned.log == (line,) and line in planned.facts
    applied = perform(game, "coc.shoot", choices)
    assert line in [e.entry.text for e in applied.effects if isinstance(e, AppendLog)]
    same = plan_fire(game, shot(**{f"cover.{FIRST_SQUAD}": "open", "cover": "open"}))
    assert "team_cover" not in same.inputs and "1st Squad: Cover Open" in " ".join(same.facts)
    with pytest.raises(RulesInputError, match="1st Squad's cover is one of open, light, hard"):
        plan_fire(game, shot(**{f"cover.{FIRST_SQUAD}": "bunker"}))


def test_the_second_teams_effect_dice_read_its_own_cover() -> None:
    # Two hits: one each. A 5 in the Open kills; a 5 in Light Cover is Shock.
    inputs = {"firepower_dice": 2, "to_hit": 4, "cover": "open", "teams": 2, "team_cover": "open,light"}
    res = resolve("coc.fire", inputs, ScriptedDice([4, 6, 5, 5]))
    assert res.values["team_kills"] == [1, 0] and res.values["team_shock"] == [0, 1]
    assert "2 hits, 1 six; effect rolled as open for Team 1, light for Team 2" in res.log
    alike = resolve("coc.fire", {**inputs, "team_cover": "open,open"}, ScriptedDice([4, 6, 5, 5]))
    assert alike.values["team_kills"] == [1, 1]


@pytest.mark.parametrize("inputs", [
    {"firepower_dice": 3, "to_hit": 5, "cover": "open", "teams": 2, "team_cover": "open,hard",
     "target_figures": "2,1"},
    {"firepower_dice": 2, "to_hit": 3, "cover": "hard", "teams": 3, "team_cover": "hard,open,light",
     "shock_multiplier": 2},
    {"firepower_dice": 1, "to_hit": 4, "cover": "light", "teams": 2, "team_cover": "light,open",
     "target_figures": "1,3", "storm_of_steel": True},
])
def test_the_odds_are_exact_by_enumerating_every_roll(inputs: Inputs) -> None:
    assert as_dict(odds("coc.fire", inputs)) == brute_odds("coc.fire", inputs)


def test_the_odds_of_a_planned_shot_at_two_covers_agree_with_a_simulation(game: Game) -> None:
    planned = plan_fire(game, shot())
    assert_odds_match_simulation("coc.fire", planned.inputs)
    mg = plan_fire(game, {"firer": MG, "target": SECOND_SQUAD, "targets": FIRST_SQUAD})
    assert mg.procedure == "coc.tripod_mg" and mg.inputs["team_cover"] == "open,light"
    assert_odds_match_simulation("coc.tripod_mg", mg.inputs)


def test_gun_he_reads_each_teams_cover_reduced_a_level() -> None:
    inputs = {"he_dice": 2, "cover": "open", "crew": 4, "teams": 2, "team_cover": "open,hard",
              "building": "brick_stone"}
    one_die = {**inputs, "he_dice": 1}
    assert as_dict(odds("coc.gun_he", one_die)) == brute_odds("coc.gun_he", one_die)
    res = resolve("coc.gun_he", inputs, ScriptedDice([4, 4, 5, 5]))
    assert res.log[0] == "H.E. at Close Range, cover reduced one level to open for Team 1, light for Team 2"
    assert res.values["team_kills"] == [1, 0] and res.values["team_shock"] == [0, 1]
    assert_odds_match_simulation("coc.gun_he", inputs)


@pytest.mark.parametrize(("team_cover", "words"), [
    ("open,light,hard", "gives 3 covers for 2 teams"),
    ("light,open", "starts with light, but the first Team's cover is open"),
    ("open,bunker", "lists each Team's cover (open, light, hard) separated by commas"),
])
def test_team_cover_refusals_say_what_is_wrong(team_cover: str, words: str) -> None:
    with pytest.raises(RulesInputError, match=words.replace("(", r"\(").replace(")", r"\)")):
        odds("coc.fire", {"firepower_dice": 2, "to_hit": 4, "cover": "open", "teams": 2, "team_cover": team_cover})


def test_teams_in_different_cover_with_chained_storm_of_steel_leave_the_odds_out_and_still_roll() -> None:
    """3 extra dice a 6, chained: 12 Firepower Dice can bring 480 dice, and two covers would take minutes to
    count; the odds say so at once, while the roll itself resolves as usual."""
    import time

    from battletracker.rules import OddsTooLarge

    inputs: Inputs = {"firepower_dice": 12, "to_hit": 3, "cover": "open", "storm_of_steel": True, "teams": 2,
                      "target_figures": "5,5", "team_cover": "open,light",
                      "storm_of_steel_per_six": 3, "storm_of_steel_chains": True}
    started = time.process_time()
    with pytest.raises(OddsTooLarge, match="480 dice"):
        odds("coc.fire", inputs)
    assert time.process_time() - started < 1.0
    # One 6 of 12 earns 3 Storm of Steel dice, all missing: one hit, on the first Team, in the Open: a 6 kills.
    res = resolve("coc.fire", inputs, ScriptedDice([1] * 11 + [6] + [2, 2, 2] + [6]))
    assert res.values["hits"] == 1 and res.values["team_kills"] == [1, 0] and res.outcome == "kills=1 shock=0"


def test_teams_in_different_cover_are_counted_exactly_up_to_48_dice() -> None:
    """3 extra dice a 6, not chained: at most 48 dice, counted exactly."""
    inputs: Inputs = {"firepower_dice": 12, "to_hit": 3, "cover": "open", "storm_of_steel": True, "teams": 2,
                      "target_figures": "5,5", "team_cover": "open,light",
                      "storm_of_steel_per_six": 3, "storm_of_steel_chains": False}
    assert sum(p for _, p in odds("coc.fire", inputs).items()) == 1
