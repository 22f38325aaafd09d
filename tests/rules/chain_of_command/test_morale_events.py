"""Every Force Morale Test the rules call for goes on the side's agenda, whatever action lost the unit.

Played on the demo battle through `perform` with the table's dice, as the app
and a replay take each step: a Team wiped out by fire, a Leader killed, a
vehicle destroyed or exploding under anti-tank fire, a player's "figures -1"
on the card. The test is then taken from the agenda; undo and a replay give
back exactly the same games.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from battletracker.core.dice import Face
from battletracker.model import savefile
from battletracker.model.effects import AddUnit
from battletracker.model.effects import Effect
from battletracker.model.effects import SetCondition
from battletracker.model.effects import SetDamage
from battletracker.model.game import AgendaItem
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.model.sequence_effects import FORCE_MORALE_TEST
from battletracker.model.sequence_effects import AddAgendaItem
from battletracker.rules.actions import perform
from battletracker.rules.base import InputValue
from battletracker.rules.chain_of_command.activation import rank
from battletracker.rules.chain_of_command.force_morale import events
from battletracker.rules.chain_of_command.morale_events import morale_tests
from battletracker.rules.consequences import registered
from battletracker.rules.replay import replay_steps
from battletracker.rules.tables import resources_dir
from tests.acting import ready_by_actions

TIME = "2026-12-01T20:00:00"
GERMANY, USA = 0, 1
PANZERSCHRECK, KRAUS, PANZER, SECTION, SQUAD, SNIPER, HAYES, SHERMAN = (
    "u4", "u5", "u6", "u1", "u8", "u9", "u10", "u11")
AT_FIRE = {"firer": PANZER, "target": SHERMAN, "weapon": "7.5cm KwK 40"}
# 2nd Squad's five Firepower Dice at the Panzerschreck in the open: three hits, and 6 6 kill both figures.
WIPE_OUT_PANZERSCHRECK = [5, 3, 6, 3, 6, 6, 6, 5]
# At Leutnant Kraus: two hits, the 5 kills him.
KILL_KRAUS = [2, 5, 5, 2, 3, 5, 4]
# The Panzer IV's 7.5cm at the Sherman's front: a hit, 5 penetrating hits against 1 save, +3 Net Hits,
# then the damage die: 1 to 4 destroyed, 5 or 6 explodes.
AT_NET3 = [2, 5, 5, 2, 3, 5, 4, 6, 5, 1, 5, 1, 4, 3, 5, 2, 2]


@pytest.fixture
def game() -> Game:
    """The demo on an open table (the wood between 2nd Squad and the Germans blocks their sight)."""
    demo = savefile.load(resources_dir() / "demo" / "chain_of_command.json")
    demo.terrain.clear()
    return demo


def act(game: Game, name: str, choices: dict[str, InputValue], dice: Sequence[Face] = ()) -> list[Effect]:
    """One step as the app takes it: planned, resolved with the dice, applied in one go; its inverses.

    A shot is taken in its firer's Phase, once activated: the steps that bring it there are taken first.
    """
    undo: list[Effect] = []
    if name in SHOTS:
        def step(n: str, c: dict[str, InputValue], d: list[Face]) -> None:
            undo.extend(game.apply_all(perform(game, n, c, d, time=TIME).effects))

        ready_by_actions(game, str(choices["firer"]), step)
    return undo + game.apply_all(perform(game, name, choices, list(dice), time=TIME).effects)


SHOTS = ("coc.shoot", "coc.at_fire", "coc.at_grenade", "coc.grenade_into_vehicle")


def due_tests(game: Game, side: int) -> list[AgendaItem]:
    return [item for item in game.sides[side].agenda if item.kind == FORCE_MORALE_TEST]


def test_chain_of_command_registers_its_tests_as_a_consequence_of_every_step() -> None:
    assert morale_tests in registered("chain_of_command")
    assert morale_tests not in registered("necromunda")


def test_fire_that_wipes_out_the_panzerschreck_queues_germanys_test(game: Game) -> None:
    act(game, "coc.shoot", {"firer": SQUAD, "target": PANZERSCHRECK}, WIPE_OUT_PANZERSCHRECK)
    assert game.unit(PANZERSCHRECK).figures == 0 and not game.unit(PANZERSCHRECK).in_play
    [item] = due_tests(game, GERMANY)
    assert item.event == "support_killed" and events()[item.event].row == "support_killed"
    assert item.text == "Germany: Force Morale Test, Panzerschreck: Support Team killed"
    assert (item.turn, item.phase) == (game.turn, game.phase)
    assert due_tests(game, USA) == []
    # The log says the test once, as the fire's own line.
    assert sum("Force Morale Test" in e.text for e in game.log) == 1


def test_the_test_is_taken_from_the_agenda_and_lowers_force_morale(game: Game) -> None:
    act(game, "coc.shoot", {"firer": SQUAD, "target": PANZERSCHRECK}, WIPE_OUT_PANZERSCHRECK)
    [item] = due_tests(game, GERMANY)
    morale = game.sides[GERMANY].force_morale
    before = savefile.dumps(game)
    inverses = act(game, "coc.force_morale_test", {"agenda_id": item.id}, [4])  # Support Team row: 4 is -2
    assert game.sides[GERMANY].force_morale == morale - 2 == 7
    assert due_tests(game, GERMANY) == []
    assert game.log[-1].text.startswith("Germany's Force Morale Test for Support Team killed")
    for inverse in reversed(inverses):
        game.apply(inverse)
    assert savefile.dumps(game) == before


def test_a_team_on_the_teams_row_when_the_player_takes_its_last_figure_off(game: Game) -> None:
    AddUnit(Unit("u20", "MG42 team", "team", GERMANY, 20.0, 12.0, figures=1, figures_max=4)).apply(game)
    act(game, "unit.figures", {"unit": "u20", "delta": -1})
    [item] = due_tests(game, GERMANY)
    assert item.event == "team_lost" and events()[item.event].row == "team_wiped_out"
    act(game, "coc.force_morale_test", {"agenda_id": item.id}, [3])  # Team wiped out row: 3 is -1
    assert game.sides[GERMANY].force_morale == 8


def test_a_section_wiped_out_reads_the_sections_row(game: Game) -> None:
    act(game, "unit.figures", {"unit": SECTION, "delta": -10})
    assert [i.event for i in due_tests(game, GERMANY)] == ["section_wiped_out"]


def test_figures_lost_but_not_the_last_call_for_no_test(game: Game) -> None:
    act(game, "unit.figures", {"unit": PANZERSCHRECK, "delta": -1})
    act(game, "unit.shock", {"unit": PANZERSCHRECK, "delta": 2})
    act(game, "unit.figures", {"unit": PANZERSCHRECK, "delta": 1})
    assert due_tests(game, GERMANY) == []


def test_a_leader_killed_by_fire_queues_the_senior_leaders_test(game: Game) -> None:
    assert rank(game.unit(KRAUS)) == "senior"  # a Leader whose card gives no rank is a Senior Leader
    act(game, "coc.shoot", {"firer": SQUAD, "target": KRAUS}, KILL_KRAUS)
    [item] = due_tests(game, GERMANY)
    assert item.event == "senior_leader_killed"
    assert item.text == "Germany: Force Morale Test, Leutnant Kraus: Senior Leader killed"


def test_a_junior_leader_killed_or_wounded(game: Game) -> None:
    AddUnit(Unit("u20", "Unteroffizier Lang", "leader", GERMANY, 20.0, 12.0,
                 stats={"orders": 1, "command_range": 6, "rank": "junior"})).apply(game)
    AddUnit(Unit("u21", "Feldwebel Roth", "leader", GERMANY, 22.0, 12.0, stats={"rank": "senior"})).apply(game)
    act(game, "unit.condition", {"unit": "u20", "condition": "wounded"})
    act(game, "unit.condition", {"unit": "u21", "condition": "wounded"})
    assert [i.event for i in due_tests(game, GERMANY)] == ["leader_wounded", "senior_leader_wounded"]
    game.sides[GERMANY].agenda.clear()
    act(game, "unit.figures", {"unit": "u20", "delta": -1})
    assert [i.event for i in due_tests(game, GERMANY)] == ["junior_leader_killed"]


@pytest.mark.parametrize(("damage_die", "event"), [(1, "afv_lost"), (4, "afv_lost"), (5, "afv_explodes")])
def test_a_vehicle_knocked_out_by_anti_tank_fire_queues_its_sides_test(game: Game, damage_die: int,
                                                                        event: str) -> None:
    act(game, "coc.at_fire", AT_FIRE, [*AT_NET3, damage_die])
    sherman = game.unit(SHERMAN)
    assert sherman.vehicle is not None and sherman.vehicle.damage in (["destroyed"], ["explodes"])
    [item] = due_tests(game, USA)
    assert item.event == event and due_tests(game, GERMANY) == []  # an exploding AFV: no second test for its Leader


def test_a_vehicle_already_knocked_out_calls_for_no_second_test(game: Game) -> None:
    act(game, "coc.at_fire", AT_FIRE, [*AT_NET3, 1])
    assert morale_tests(game, [SetDamage(SHERMAN, "explodes"), SetCondition(SHERMAN, "abandoned")]) == []


def test_commander_wounded_and_abandoned_each_call_for_a_test(game: Game) -> None:
    effects = morale_tests(game, [SetDamage(SHERMAN, "commander_wounded"), SetCondition(SHERMAN, "abandoned")])
    assert [(e.item.id, e.item.event) for e in effects if isinstance(e, AddAgendaItem)] == [
        ("a1", "leader_wounded"), ("a2", "afv_abandoned")]


def test_fire_at_a_spotted_sniper_queues_its_own_test_once(game: Game) -> None:
    act(game, "coc.sniper_spotted", {"unit": SNIPER, "spotted": True})
    act(game, "coc.shoot", {"firer": SECTION, "target": SNIPER, "weapon": "Small arms", "firepower_dice": 2},
        [6, 6, 6, 1])
    assert SNIPER not in game.units
    assert [i.event for i in due_tests(game, USA)] == ["sniper_killed"]


def test_a_unit_taken_off_the_table_calls_for_no_test(game: Game) -> None:
    act(game, "coc.sniper_contacted", {"unit": SNIPER})
    assert SNIPER not in game.units and due_tests(game, USA) == []


PLAY: list[tuple[str, dict[str, InputValue], list[Face]]] = [
    ("coc.shoot", {"firer": SQUAD, "target": PANZERSCHRECK}, WIPE_OUT_PANZERSCHRECK),
    ("coc.shoot", {"firer": SQUAD, "target": KRAUS}, KILL_KRAUS),
    ("coc.at_fire", AT_FIRE, [*AT_NET3, 2]),
    ("coc.force_morale_test", {"agenda_id": "a1"}, [4]),
    ("unit.figures", {"unit": SECTION, "delta": -10}, []),
]


def test_undo_restores_the_game_exactly_and_a_saved_game_replays(game: Game, tmp_path: Path) -> None:
    start = savefile.dumps(game)
    undo: list[list[Effect]] = []
    for name, choices, dice in PLAY:
        undo.append(act(game, name, choices, dice))
    assert [(i.id, i.event) for i in due_tests(game, GERMANY)] == [
        ("a2", "senior_leader_killed"), ("a4", "section_wiped_out")]
    assert [(i.id, i.event) for i in due_tests(game, USA)] == [("a3", "afv_lost")]
    assert game.sides[GERMANY].force_morale == 7
    path = tmp_path / "morale.battle"
    savefile.save(game, path)
    loaded = savefile.load(path)
    replayed, steps = replay_steps(loaded)
    assert len(steps) == len(game.actions)
    assert savefile.game_to_dict(replayed) == savefile.game_to_dict(game) == savefile.game_to_dict(loaded)
    for inverses in reversed(undo):
        for inverse in reversed(inverses):
            game.apply(inverse)
    assert savefile.dumps(game) == start
