"""Each dialog's shot is a registered action: it plans and performs on the shipped demo games, and replays."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from battletracker.core.dice import RandomDice
from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.actions import actions
from battletracker.rules.actions import perform
from battletracker.rules.actions import plan
from battletracker.rules.chain_of_command.anti_tank_plans import plan_at_fire
from battletracker.rules.chain_of_command.anti_tank_plans import plan_at_grenade
from battletracker.rules.chain_of_command.anti_tank_plans import plan_grenade_into_vehicle
from battletracker.rules.chain_of_command.fire_plans import plan_fire
from battletracker.rules.replay import replay_steps
from battletracker.rules.tables import resources_dir
from tests.acting import ready
from tests.rules.chain_of_command.test_anti_tank_plans import beside_a_halftrack
from tests.rules.oddscheck import assert_odds_match_simulation


def demo(name: str) -> Game:
    return savefile.load(resources_dir() / "demo" / f"{name}.json")


def squad_beside_the_sherman(game: Game) -> None:
    game.unit("u2").x, game.unit("u2").y = 50.0, 30.0


def halftrack(game: Game) -> None:
    beside_a_halftrack(game)


def nothing(_game: Game) -> None:
    return None


def open_table(game: Game) -> None:
    """The demo without its terrain, which hides these targets: planning and replay are tested here, sight elsewhere."""
    game.terrain.clear()


CASES: list[tuple[str, str, Callable[[Game], None], dict[str, str | float | bool | int]]] = [
    ("coc.at_fire", "chain_of_command", nothing, {"firer": "u6", "target": "u11", "weapon": "7.5cm KwK 40"}),
    ("coc.at_grenade", "chain_of_command", squad_beside_the_sherman,
     {"firer": "u2", "target": "u11", "weapon": "Teller mine"}),
    ("coc.grenade_into_vehicle", "chain_of_command", halftrack, {"firer": "u40", "target": "u41", "firepower_dice": 3}),
    ("coc.shoot", "chain_of_command", open_table, {"firer": "u3", "target": "u7"}),
    ("coc.shoot", "chain_of_command", open_table, {"firer": "u1", "target": "u8"}),
    ("ab.indirect_mission", "armour_battles", nothing, {"firer": "stuh", "x": 36.0, "y": 18.0, "los": True}),
    ("ab.direct_fire", "armour_battles", nothing, {"firer": "stuh", "target": "t34"}),
    ("ab.direct_fire", "armour_battles", nothing, {"firer": "stuh", "target": "rifles", "cover": 1}),
    ("ab.reaction", "armour_battles", nothing, {"firer": "stuh", "target": "t34"}),
    ("ab.close_assault", "armour_battles", nothing, {"firer": "stuh", "target": "rifles"}),
    ("necro.attack", "necromunda", open_table, {"firer": "u1", "target": "u6"}),
]


def test_every_dialog_shot_is_a_registered_action() -> None:
    assert {name for name, *_rest in CASES} <= set(actions())


@pytest.mark.parametrize(("name", "ruleset", "setup", "choices"), CASES,
                         ids=[f"{c[0]}-{c[3]['firer']}" for c in CASES])
def test_the_action_plans_performs_and_replays_on_the_demo(
        name: str, ruleset: str, setup: Callable[[Game], None], choices: dict[str, str | float | bool | int]) -> None:
    game = demo(ruleset)
    setup(game)
    if ruleset == "chain_of_command":
        ready(game, str(choices["firer"]))
    p = plan(name, game, choices)
    assert p.facts and p.title and dict(p.choices) == choices
    assert odds(p.procedure, p.inputs).total() == 1
    res = perform(game, name, choices, rng=RandomDice(7), time="2026-11-30T21:00:00")
    game.apply_all(res.effects)
    assert [(a.name, dict(a.choices)) for a in game.actions] == [(name, choices)]
    assert list(game.actions[0].dice) == [face for _label, faces in res.rolls for face in faces]
    replayed, _steps = replay_steps(game)
    assert savefile.game_to_dict(replayed) == savefile.game_to_dict(game)


def test_the_plans_read_the_same_inputs_as_the_dialogs_readers() -> None:
    game = demo("chain_of_command")
    halftrack(game)
    ready(game, "u6", "u3", "u2", "u40")
    shot = {"firer": "u6", "target": "u11"}
    assert plan("coc.at_fire", game, shot).inputs == plan_at_fire(game, shot).inputs
    open_table(game)
    assert plan("coc.shoot", game, {"firer": "u3", "target": "u7"}).procedure == plan_fire(
        game, {"firer": "u3", "target": "u7"}).procedure == "coc.tripod_mg"
    squad_beside_the_sherman(game)
    grenade = {"firer": "u2", "target": "u11", "weapon": "Teller mine"}
    assert plan("coc.at_grenade", game, grenade).inputs == plan_at_grenade(game, grenade).inputs
    into = {"firer": "u40", "target": "u41", "firepower_dice": 3}
    assert plan("coc.grenade_into_vehicle", game, into).inputs == plan_grenade_into_vehicle(game, into).inputs


def test_necromunda_walking_fire_answers_join_the_inputs() -> None:
    game = demo("necromunda")
    open_table(game)
    p = plan("necro.attack", game, {"firer": "u1", "target": "u6", "walking_fire": "u7"})
    assert p.inputs["walking_fire"] == "u7" and p.choices["walking_fire"] == "u7"


def test_direct_fire_and_its_reaction_check_are_one_action_with_exact_odds() -> None:
    game = demo("armour_battles")
    choices = {"firer": "stuh", "target": "rifles", "cover": 1}
    p = plan("ab.direct_fire", game, choices)
    assert p.procedure == "ab.direct_fire_reaction" and p.inputs["reaction:cover_dice"] == 1
    assert_odds_match_simulation(p.procedure, p.inputs)
    fire = resolve("ab.close_support_fire", {k: v for k, v in p.inputs.items() if ":" not in k},
                   ScriptedDice([6] * 7))
    assert fire.values["dice_rolled"] == 7
    # Seven FP dice: two 6s; five Reaction dice with the Cover Die: one 6; forced back 1D6 for the unmatched 6.
    res = perform(game, "ab.direct_fire", choices, [6, 6, 1, 1, 1, 1, 1, 6, 1, 1, 1, 1, 3])
    assert res.values["fire"]["successes"] == 2 and res.values["incoming_sixes"] == 2
    assert res.values["saves"] == 1 and res.values["disruption"] == 1 and res.values["dice_rolled"] == 5
    game.apply_all(res.effects)
    assert game.unit("rifles").counters["disruption"] == 1 and len(game.actions) == 1
