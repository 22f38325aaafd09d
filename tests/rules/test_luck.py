"""The luck of each roll is its percentile in the procedure's exact odds, by a documented better/worse order."""

from __future__ import annotations

from fractions import Fraction

from battletracker.core.odds import Distribution
from battletracker.model.game import Game
from battletracker.rules import odds
from battletracker.rules import perform
from battletracker.rules.luck import game_luck
from battletracker.rules.luck import percentile
from battletracker.rules.luck import rank
from tests.model.sample import sample_game


def test_the_generic_rank_of_a_dice_pool_orders_outcomes_by_the_counts_they_name() -> None:
    assert rank("kills=2 shock=0") > rank("kills=1 shock=5") > rank("kills=1 shock=1")
    assert rank("3 successes") > rank("2 successes") > rank("0 successes")
    assert rank("disruption=1 suppressed=yes") > rank("disruption=1 suppressed=no")


def test_percentile_is_the_chance_of_worse_plus_half_the_chance_of_equal() -> None:
    d = Distribution({"kills=0 shock=0": Fraction(1, 2), "kills=0 shock=1": Fraction(1, 4),
                      "kills=1 shock=0": Fraction(1, 4)})
    assert percentile(d, "kills=0 shock=0") == Fraction(1, 4)
    assert percentile(d, "kills=0 shock=1") == Fraction(1, 2) + Fraction(1, 8)
    assert percentile(d, "kills=1 shock=0") == Fraction(7, 8)


def play(game: Game, name: str, choices: dict[str, int], dice: list[int] | None = None) -> None:
    game.apply_all(perform(game, name, choices, dice).effects)  # type: ignore[arg-type]


def test_each_rolled_action_is_rated_for_the_side_whose_phase_it_was() -> None:
    game = sample_game()
    side_before = game.active_side
    play(game, "dice.pool", {"dice": 4, "target": 4}, [6, 3, 4, 1])
    play(game, "unit.shock", {"unit": "u1", "delta": 1})
    play(game, "clock.end_phase", {})
    side_after = game.active_side
    play(game, "dice.pool", {"dice": 3, "target": 5}, [6, 6, 6])
    luck = game_luck(game)
    assert luck.stopped == ""
    assert [r.index for r in luck.rolls] == [0, 3]
    d1 = odds("dice.pool", {"dice": 4, "target": 4})
    assert luck.rolls[0].percentile == d1.p("0 successes") + d1.p("1 successes") + d1.p("2 successes") / 2
    assert luck.rolls[0].side == side_before != side_after == luck.rolls[1].side
    d2 = odds("dice.pool", {"dice": 3, "target": 5})
    assert luck.rolls[1].percentile == 1 - d2.p("3 successes") / 2
    by_side = luck.by_side()
    assert sum(n for n, _mean in by_side.values()) == 2
    assert luck.running(side_before)[0] == (1, luck.rolls[0].percentile)


def test_a_game_without_a_recorded_start_rates_nothing_and_says_why() -> None:
    game = sample_game()
    assert game_luck(game).rolls == ()


def test_the_firer_rolls_even_in_the_enemys_phase() -> None:
    from battletracker.rules.luck import acting_side

    game = sample_game()
    enemy = next(u for u in game.units.values() if u.side != game.active_side)
    assert acting_side(game, {}, {"firer_id": enemy.id}) == enemy.side
    assert acting_side(game, {}, {}) == game.active_side
