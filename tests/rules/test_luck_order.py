"""Each procedure's better/worse order for the dice luck: declared, the rules' meaning, calibrated on long games."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import pytest

from battletracker.core.dice import RandomDice
from battletracker.core.odds import Distribution
from battletracker.model.game import Game
from battletracker.rules import get
from battletracker.rules import procedures
from battletracker.rules.chain_of_command import command_dice
from battletracker.rules.luck import acting_side
from battletracker.rules.luck import better_of
from battletracker.rules.luck import game_luck
from battletracker.rules.luck import percentile
from tests.model.sample import sample_game
from tests.rules.luck_games import ATTACKS
from tests.rules.luck_games import Loaded
from tests.rules.luck_games import play
from tests.rules.test_outcome_labels import outcome_keys

COUNT = re.compile(r"\d+ \w+|\w+=\d+")
"""A plain dice pool's outcome: one count ("3 successes", "kills=2"); only such procedures may keep the generic rule."""

# Rolls whose outcomes are neither better nor worse for the roller: all alike, left out of the luck.
ALIKE = ("coc.reverse", "necro.engaged_allocation", "necro.stray_shots")


def rolls_dice(name: str) -> bool:
    return len(outcome_keys(name)) > 1


@pytest.mark.parametrize("name", procedures())
def test_every_procedure_with_dice_declares_its_order_and_who_rolls(name: str) -> None:
    if not rolls_dice(name):
        return
    proc = get(name)
    if proc.better is None:
        assert all(COUNT.fullmatch(k) for k in outcome_keys(name)), (
            f"{name} rolls dice but says no better/worse order; only a plain dice pool may use the generic rule")
    else:
        assert proc.rolled_by or name == "dice.pool", f"{name} does not say which input names the side that rolled"
    assert proc.worst_best is not None or name in ALIKE, f"{name}: declare its worst_best outcomes"


@pytest.mark.parametrize("name", [name for name in procedures() if get(name).worst_best is not None])
def test_each_order_puts_the_worst_and_best_outcomes_at_its_ends(name: str) -> None:
    keys = outcome_keys(name)
    better = better_of(name)
    declared = get(name).worst_best
    assert declared is not None
    worst, best = declared
    assert worst in keys and best in keys
    assert better(worst) == min(map(better, keys)) < max(map(better, keys)) == better(best)


@pytest.mark.parametrize("name", ALIKE)
def test_rolls_neither_good_nor_bad_for_the_roller_rank_alike(name: str) -> None:
    assert len({better_of(name)(k) for k in outcome_keys(name)}) == 1


def ordered(name: str, *keys: str) -> bool:
    """Whether `keys` are strictly worse to better for the roller."""
    ranks = [better_of(name)(k) for k in keys]
    return all(a < b for a, b in zip(ranks, ranks[1:], strict=False))


def test_a_ranging_shot_devastating_beats_on_target_beats_a_deviation_beats_unobserved() -> None:
    assert ordered("coc.ranging_shot", "unobserved", "deviates", "on_target", "devastating")
    d = Distribution({"unobserved": Fraction(1, 4), "deviates": Fraction(1, 4), "on_target": Fraction(1, 4),
                      "devastating": Fraction(1, 4)})
    luck = [percentile(d, k, better_of("coc.ranging_shot")) for k in ("unobserved", "deviates", "on_target",
                                                                        "devastating")]
    assert luck == [Fraction(1, 8), Fraction(3, 8), Fraction(5, 8), Fraction(7, 8)]


def test_anti_tank_destroyed_beats_damage_beats_shock_beats_no_effect_beats_a_miss() -> None:
    assert ordered("coc.at_fire", "miss", "no_effect", "equal:reverse", "net1:shock", "net2:shock",
                   "net1:engine_damage", "net2:immobilised", "net3:destroyed", "net3:explodes")
    same = better_of("coc.at_fire")
    assert same("no_effect") == same("equal:none")
    assert ordered("coc.at_grenade", "failed_to_reach", "no_effect", "net1:shock", "net3:destroyed")


def test_a_sniper_kill_beats_shock() -> None:
    assert ordered("coc.sniper", "miss", "no_effect", "shock=2", "kill", "kill+leader_hit")


def test_a_smaller_force_morale_loss_is_luckier_for_the_side_that_took_it() -> None:
    assert ordered("coc.force_morale_test", "Force Morale falls by 3", "Force Morale falls by 1",
                   "no loss of Force Morale")
    game = sample_game()
    other = 1 - game.active_side
    assert acting_side(game, {}, {"side": other}, "coc.force_morale_test") == other


def test_command_dice_that_give_another_phase_or_a_chain_of_command_die_beat_neither() -> None:
    assert ordered("coc.command_dice", command_dice.OTHER_SIDE, command_dice.SAME_SIDE,
                   command_dice.TURN_ENDS_BONUS)
    rank = better_of("coc.command_dice")
    assert rank(command_dice.TURN_ENDS) == rank(command_dice.SAME_SIDE)  # the Turn ending helps no side
    game = sample_game()
    other = 1 - game.active_side
    assert acting_side(game, {}, {"side": other}, "coc.command_dice") == other


def test_an_armour_save_is_the_targets_luck_and_the_firers_worst_is_its_best() -> None:
    game = sample_game()
    target = next(u for u in game.units.values() if u.side != game.active_side)
    assert acting_side(game, {"target": target.id, "firer": "nobody"}, {}, "coc.armour_save_only") == target.side
    assert ordered("coc.armour_save_only", "net3:explodes", "net1:shock", "no_effect")


def long_games(seed: int) -> list[Game]:
    dice = RandomDice(seed)
    return [play("chain_of_command", dice, 80), play("armour_battles", dice, 12), play("necromunda", dice, 80)]


def test_over_long_seeded_games_each_sides_luck_per_procedure_is_average() -> None:
    """The mean percentile of fair dice is 1/2 whatever the odds; one roll's variance is at most 1/12."""
    games = long_games(2026)
    assert sum(len(g.actions) for g in games) >= 300
    rated: dict[tuple[str, int, str], list[Fraction]] = {}
    for game in games:
        luck = game_luck(game)
        assert luck.stopped == ""
        for r in luck.rolls:
            rated.setdefault((game.ruleset, r.side, r.procedure), []).append(r.percentile)
    assert {proc for _rs, _side, proc in rated} >= {"coc.command_dice", "coc.fire", "ab.close_support_assault",
                                                     "necro.attack"}
    for key, values in rated.items():
        mean = float(sum(values, Fraction(0))) / len(values)
        assert abs(mean - 0.5) <= 3 * math.sqrt(1 / 12 / len(values)), (key, len(values), mean)


@pytest.mark.parametrize("ruleset", sorted(ATTACKS))
def test_loaded_dice_push_the_luck_of_the_side_that_rolled_to_the_top_and_the_bottom(ruleset: str) -> None:
    for high in (True, False):
        luck = game_luck(play(ruleset, Loaded(high), 12))
        assert luck.stopped == "" and luck.rolls
        for side, (_n, mean) in luck.by_side().items():
            assert (mean > 0.65) if high else (mean < 0.35), (ruleset, high, side, float(mean))


RANGING = {"aim_x": 36.0, "aim_y": 24.0, "unobserved_attempts": 1}


def test_a_shorter_deviation_is_luckier_than_a_longer_one_for_the_forward_observers_side() -> None:
    from battletracker.rules.chain_of_command.ranging import ranging_luck
    from battletracker.rules.luck import luck_odds

    luck = ranging_luck(RANGING)
    assert sum(p for _k, p in luck.items()) == 1
    deviations = sorted((k for k in luck.outcomes if k.startswith("deviates=")), key=lambda k: int(k[9:]))
    assert len(deviations) > 2
    better = better_of("coc.ranging_shot")
    scores = [percentile(luck, k, better) for k in ("unobserved", *reversed(deviations), "on_target", "devastating")]
    assert scores == sorted(scores) and len(set(scores)) == len(scores)
    rolled = get("coc.ranging_shot").resolve(RANGING, RandomDice(3))
    odds, outcome = luck_odds("coc.ranging_shot", RANGING, rolled)
    assert odds == luck and outcome in luck.outcomes


def test_the_ranging_shots_luck_odds_agree_with_a_seeded_simulation() -> None:
    from battletracker.rules.chain_of_command.ranging import ranging_luck
    from battletracker.rules.chain_of_command.ranging import ranging_luck_outcome

    luck = ranging_luck(RANGING)
    dice, runs = RandomDice(2026), 20_000
    counts: dict[str, int] = {}
    for _ in range(runs):
        key = ranging_luck_outcome(get("coc.ranging_shot").resolve({**RANGING, "bearing": 90.0}, dice))
        counts[key] = counts.get(key, 0) + 1
    for key, p in luck.items():
        error = math.sqrt(float(p) * (1 - float(p)) / runs)
        assert abs(counts.get(key, 0) / runs - float(p)) <= 4 * error + 1e-9, key
