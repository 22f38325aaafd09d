"""The "Grenade into vehicle..." action: a Team beside an enemy vehicle, odds first, one undo step."""

from __future__ import annotations

from fractions import Fraction

import pytest
from pytestqt.qtbot import QtBot

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.effects import AddUnit
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.model.game import Weapon
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.chain_of_command.anti_tank_plans import THROW_REACH
from battletracker.rules.chain_of_command.anti_tank_plans import can_throw_into_vehicle
from battletracker.rules.chain_of_command.anti_tank_plans import plan_grenade_into_vehicle
from battletracker.ui.extensions import unit_actions
from battletracker.ui.features.support_fire.grenade_vehicle import GrenadeIntoVehicleDialog
from battletracker.ui.features.support_fire.grenade_vehicle import outcome_label
from battletracker.ui.session import Session
from tests.acting import ready_unit
from tests.ui.dice_entry import type_dice
from tests.ui.picking import NO_RAISE
from tests.ui.picking import choose_with_keys
from tests.ui.picking import click_on_map
from tests.ui.picking import shown_map

SECTION, SHERMAN = "u1", "u11"


pytestmark = pytest.mark.usefixtures("germany_ready")


def rifle_team(session: Session, x: float, y: float, dice: int = 3) -> Unit:
    team = Unit("u40", "Rifle team", "team", 0, x, y, figures=4, figures_max=4,
                weapons=[Weapon("Rifles", "small_arms", 24.0, [18.0, 48.0], stats={"firepower_dice": dice})])
    session.apply("Add the rifle team", [AddUnit(team)])
    return team


def halftrack(session: Session, x: float, y: float, open_topped: bool = True, category: str = "apc") -> Unit:
    vehicle = Unit("u41", "M3 half-track", "vehicle", 1, x, y, facing=0.0, figures=1, figures_max=1,
                   vehicle=Vehicle(category, {"front": 2, "side": 1, "rear": 1, "top": 0}, open_topped))
    session.apply("Add the half-track", [AddUnit(vehicle)])
    return vehicle


def open_dialog(qtbot: QtBot, session: Session, unit_id: str) -> GrenadeIntoVehicleDialog:
    dialog = GrenadeIntoVehicleDialog(session, ready_unit(session, unit_id))
    qtbot.addWidget(dialog)
    return dialog


def test_action_offered_only_to_a_team_within_throwing_reach(session: Session) -> None:
    game = session.game
    team = rifle_team(session, 30.0, 30.0)
    assert not can_throw_into_vehicle(game, team)
    halftrack(session, 30.0, 30.0 + THROW_REACH)
    assert can_throw_into_vehicle(game, game.unit(team.id))
    assert "coc.grenade_into_vehicle" in {a.key for a in unit_actions(game, game.unit(team.id))}
    assert not can_throw_into_vehicle(game, game.unit("u6"))        # a tank throws nothing


def test_seed_example_two_shock_on_the_vehicle_and_undo_restores_the_game(qtbot: QtBot, session: Session) -> None:
    team = rifle_team(session, 30.0, 30.0, dice=3)
    vehicle = halftrack(session, 30.0, 33.0)
    dialog = open_dialog(qtbot, session, team.id)
    assert dialog.widget("mode").currentData() == "open_topped"            # from the card: open-topped
    assert dialog.widget("firepower_dice").value() == 3
    assert dialog.widget("to_hit").value() == 7 and "default to check" in dialog.notes["to_hit"].text()
    assert "Passengers: none" in dialog.facts.text()
    runner = dialog.runner
    assert runner.problem.isHidden(), runner.problem.text()
    before = savefile.game_to_dict(session.game)
    # Three Firepower Dice, +1 confined space, +1 Bullseye! from the throw of 3 and 6.
    type_dice(runner, "3 6", "2 3 5 6 6")
    res = runner.result
    assert res is not None and res.values["bullseye_dice"] == 1 and res.values["dice_rolled"] == 5
    assert res.values["vehicle_shock"] == 2
    depth = session.undo_stack.count()
    assert runner.apply()
    assert session.undo_stack.count() == depth + 1
    assert session.game.unit(vehicle.id).shock == 2
    assert runner.result is not None                                 # the result stays in view
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before
    assert runner.result is None and runner.roll_button.isEnabled()  # fresh odds from the card
    assert "Shock 0" in dialog.facts.text()


def test_passengers_take_the_hits(qtbot: QtBot, session: Session) -> None:
    team = rifle_team(session, 30.0, 30.0, dice=3)
    vehicle = halftrack(session, 30.0, 33.0)
    carried = Unit("u42", "Rifle squad", "section", 1, 30.0, 33.0, figures=8, figures_max=8,
                   stats={"embarked_in": vehicle.id})
    session.apply("Embark", [AddUnit(carried)])
    dialog = open_dialog(qtbot, session, team.id)
    assert "Rifle squad (8)" in dialog.facts.text()
    assert dialog.runner.problem.isHidden(), dialog.runner.problem.text()
    dialog.widget("throw").setCurrentIndex(dialog.widget("throw").findData("in"))
    type_dice(dialog.runner, "6 6 6 1", "5 5 5")
    res = dialog.runner.result
    assert res is not None and res.values["sixes"] == 3 and res.values["vehicle_shock"] == 3
    assert dialog.runner.apply()
    assert session.game.unit(carried.id).figures == 8 - int(str(res.values["kills"]))


def test_apc_from_outside_uses_the_armour_of_the_face_the_team_sees(qtbot: QtBot, session: Session) -> None:
    team = rifle_team(session, 30.0, 30.0, dice=3)
    halftrack(session, 30.0, 33.0, open_topped=False)
    dialog = open_dialog(qtbot, session, team.id)
    assert dialog.widget("mode").currentData() == "apc_outside"
    assert dialog.widget("armour_dice").value() == 2                            # facing the Team: its front armour
    rows = dialog.fields
    assert rows.isRowVisible(dialog.widget("armour_dice")) and not rows.isRowVisible(dialog.widget("throw"))
    type_dice(dialog.runner, "6 6 2", "5 1")
    res = dialog.runner.result
    assert res is not None and res.values["net_hits"] == 1 and res.values["vehicle_shock"] == 1


def test_a_closed_tank_is_refused(qtbot: QtBot, session: Session) -> None:
    team = rifle_team(session, 30.0, 30.0)
    halftrack(session, 30.0, 33.0, open_topped=False, category="afv")
    dialog = open_dialog(qtbot, session, team.id)
    assert not dialog.refusal.isHidden()
    assert "neither open-topped nor an APC" in dialog.refusal.text()
    assert dialog.runner.isHidden()


def test_the_throw_setting_override_is_shown(qtbot: QtBot, session: Session) -> None:
    session.game.settings["grenade_throw_to_hit"] = 9
    team = rifle_team(session, 30.0, 30.0)
    halftrack(session, 30.0, 33.0)
    dialog = open_dialog(qtbot, session, team.id)
    assert dialog.widget("to_hit").value() == 9
    dialog.show()
    dialog.grab().save("/tmp/grenade_into_vehicle.png")


def test_odds_shown_are_the_odds_of_what_apply_resolves(qtbot: QtBot, session: Session) -> None:
    team = rifle_team(session, 30.0, 30.0, dice=3)
    vehicle = halftrack(session, 30.0, 33.0)
    dialog = open_dialog(qtbot, session, team.id)
    dialog.show()
    dialog.widget("firepower_dice").selectAll()
    qtbot.keyClicks(dialog.widget("firepower_dice"), "4")
    dialog.widget("throw").setCurrentIndex(dialog.widget("throw").findData("in"))
    plan = plan_grenade_into_vehicle(session.game, {"firer": team.id, "target": vehicle.id, "firepower_dice": 4,
                                                    "throw": "in"})
    assert plan.inputs["firepower_dice"] == 4 and plan.inputs["throw_hit"] is True
    shown = dialog.runner.odds_plot.rows
    expected: dict[str, Fraction] = {}
    for outcome, p in odds(plan.procedure, plan.inputs).items():
        expected[outcome_label(outcome)] = expected.get(outcome_label(outcome), Fraction(0)) + p
    assert dict(shown) == expected
    dice = ["6 6 2 1 3"]
    res = type_dice(dialog.runner, *dice)
    again = resolve(plan.procedure, plan.inputs, ScriptedDice([int(f) for f in dice[0].split()]))
    assert res is not None and (res.outcome, res.effects, res.values) == (again.outcome, again.effects, again.values)


@pytest.mark.qt_log_ignore(NO_RAISE)
def test_the_vehicle_is_chosen_from_the_list_or_clicked_on_the_map(qtbot: QtBot, session: Session) -> None:
    team = rifle_team(session, 30.0, 30.0, dice=3)
    near = halftrack(session, 30.0, 32.0)                                    # its rear faces the Team
    far = Unit("u42", "Sd.Kfz. 251", "vehicle", 1, 33.0, 30.0, facing=90.0, figures=1, figures_max=1,
               vehicle=Vehicle("apc", {"front": 3, "side": 2, "rear": 1, "top": 0}, False))
    session.apply("Add the 251", [AddUnit(far)])
    view = shown_map(qtbot, session)
    dialog = GrenadeIntoVehicleDialog(session, ready_unit(session, team.id), view, view)
    dialog.show()
    qtbot.waitExposed(dialog)
    picker = dialog.widget("target")
    assert picker.units() == [near.id, far.id] and picker.current() == near.id
    assert dialog.choices()["target"] == near.id and dialog.widget("mode").currentData() == "open_topped"

    choose_with_keys(qtbot, picker, far.id)
    assert dialog.choices()["target"] == far.id
    assert dialog.widget("mode").currentData() == "apc_outside"                    # a closed APC: only from outside
    armour = dialog.widget("armour_dice")
    assert armour.value() == 1 and "rear" in armour.toolTip()               # it faces away
    assert dialog.plan is not None and dialog.runner.title.endswith(far.name)

    click_on_map(qtbot, view, picker, near.id, dialog)
    assert dialog.choices()["target"] == near.id and dialog.widget("mode").currentData() == "open_topped"

    click_on_map(qtbot, view, picker, SHERMAN, dialog)                       # out of throwing reach
    assert dialog.refusal.refused() and "Sherman" in dialog.refusal.text()
    assert dialog.choices()["target"] == near.id


def test_no_vehicle_in_reach_says_so_in_the_list(qtbot: QtBot, session: Session) -> None:
    team = rifle_team(session, 30.0, 30.0)
    dialog = open_dialog(qtbot, session, team.id)
    assert dialog.widget("target").current() is None
    assert dialog.widget("target").combo.currentText() == "" and \
        dialog.widget("target").combo.placeholderText() == "No enemy vehicle within throwing reach"
    assert dialog.refusal.refused() and "No enemy vehicle" in dialog.refusal.text()
