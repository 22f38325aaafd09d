"""The Anti-tank fire dialog on the demo battle: the Panzer IV H, the Panzerschreck and the Sherman."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDoubleSpinBox
from pytestqt.qtbot import QtBot

from battletracker.core.dice import ScriptedDice
from battletracker.core.odds import Distribution
from battletracker.model import savefile
from battletracker.model.effects import MoveUnit
from battletracker.model.effects import SetDamage
from battletracker.model.effects import add_shock
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.rules import odds
from battletracker.rules import resolve
from battletracker.rules.chain_of_command.anti_tank_plans import in_group_order
from battletracker.rules.chain_of_command.anti_tank_plans import plan_at_fire
from battletracker.rules.chain_of_command.anti_tank_plans import plan_at_grenade
from battletracker.ui.extensions import unit_action
from battletracker.ui.extensions import unit_actions
from battletracker.ui.features.anti_tank import AntiTankDialog
from battletracker.ui.features.anti_tank import GrenadeDialog
from battletracker.ui.features.anti_tank import group_label
from battletracker.ui.features.anti_tank import infantry_near
from battletracker.ui.main_window import MainWindow
from battletracker.ui.procedure_parts import TargetPicker
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session
from tests.acting import ready_unit
from tests.ui.dice_entry import type_dice
from tests.ui.picking import NO_RAISE
from tests.ui.picking import choose_with_keys
from tests.ui.picking import click_on_map
from tests.ui.picking import shown_map

PANZER, SCHRECK, SHERMAN, RIFLES = "u6", "u4", "u11", "u1"
WORKED_EXAMPLE = ["6 1", "1 1 2 3 4 4 5 5 6 6", "1 2 3 4 5 6", "4"]


pytestmark = pytest.mark.usefixtures("germany_ready")


def dialog_for(qtbot: QtBot, session: Session, firer: str) -> AntiTankDialog:
    dialog = AntiTankDialog(session, ready_unit(session, firer))
    qtbot.addWidget(dialog)
    return dialog


def test_action_offered_to_units_with_an_anti_tank_weapon(session: Session) -> None:
    game = session.game
    action = unit_action("coc.anti_tank_fire")
    assert action.shortcut == "Ctrl+Shift+T"
    assert action in unit_actions(game, game.unit(PANZER))
    assert action in unit_actions(game, game.unit(SCHRECK))
    assert action not in unit_actions(game, game.unit(RIFLES))
    game.ruleset = "necromunda"
    assert action not in unit_actions(game, game.unit(PANZER))


def test_panzer_iv_at_the_sherman_reads_the_table(qtbot: QtBot, session: Session) -> None:
    dialog = dialog_for(qtbot, session, PANZER)
    assert dialog.target_picker.current() == SHERMAN
    inputs = dialog.inputs()
    assert inputs is not None
    assert inputs["location"] == "front" and inputs["armour_dice"] == 6
    assert inputs["weapon"] == "7.5cm KwK 40" and inputs["target"] == "afv"
    assert dialog.shot is not None
    assert dialog.shot.facts[0].startswith('Range 28.3": ') and "Front armour: 6 Armour Dice" in dialog.shot.facts
    assert 'Range 28.3"' in dialog.facts.text()
    assert "5+ on 2D6" in dialog.to_hit.text()
    assert dialog.refusal.isHidden() and dialog.runner.roll_button.isEnabled()


def test_odds_grouped_and_summing_to_one(qtbot: QtBot, session: Session) -> None:
    dialog = dialog_for(qtbot, session, PANZER)
    rows = dialog.runner.odds_plot.rows
    assert [label.split(":")[0] for label, _p in rows] == ["miss", "no effect", "equal", "+1", "+2", "+3"]
    assert sum((p for _l, p in rows), Fraction(0)) == 1
    assert dict(rows)["miss"] == Fraction(6, 36)
    assert group_label("net2:immobilised") == "+2: two Penetrating Hits more than the Armour Saves"


def test_side_shot_and_the_checked_adjustments(qtbot: QtBot, session: Session) -> None:
    session.game.unit(SHERMAN).facing = 90.0
    session.game.unit(PANZER).counters["shock"] = 1
    dialog = dialog_for(qtbot, session, PANZER)
    dialog.checks["two_orders"].setChecked(True)
    inputs = dialog.inputs()
    assert inputs is not None
    assert (inputs["location"], inputs["armour_dice"], inputs["firer_shock"], inputs["two_orders"]) == (
        "side", 4, 1, True)
    assert "modifier +0" in dialog.to_hit.text()
    dialog.location_box.setCurrentIndex(dialog.location_box.findData("top"))
    inputs = dialog.inputs()
    assert inputs is not None and (inputs["location"], inputs["armour_dice"]) == ("top", 2)


def test_target_outside_the_arc_is_refused_with_the_reason(qtbot: QtBot, session: Session) -> None:
    session.game.unit(PANZER).facing = 90.0
    dialog = dialog_for(qtbot, session, PANZER)
    assert dialog.inputs() is None
    text = dialog.refusal.text()
    assert "outside the arc of fire" in text and "7.5cm KwK 40" in text and "45° either side" in text
    assert dialog.refusal.isVisibleTo(dialog) and not dialog.runner.isEnabled()
    dialog.checks["turret_rotated"].setChecked(True)
    assert dialog.inputs() is not None and dialog.refusal.isHidden()


def test_panzerschreck_range_band_and_rounds(qtbot: QtBot, session: Session) -> None:
    dialog = dialog_for(qtbot, session, SCHRECK)
    inputs = dialog.inputs()
    assert inputs is not None
    assert inputs["weapon"] == "Panzerschreck" and inputs["rounds_left"] == 3
    assert dialog.shot is not None and "band 3 of 0-18\", 18-24\", 24-36\"" in dialog.shot.facts[0]
    assert "modifier -2" in dialog.to_hit.text()
    session.game.unit(SCHRECK).weapons[0].ammo = 0
    assert dialog.inputs() is None
    assert "no rounds left" in dialog.refusal.text() and not dialog.runner.isEnabled()


def test_worked_example_typed_applied_and_undone(qtbot: QtBot, session: Session) -> None:
    before = savefile.game_to_dict(session.game)
    dialog = dialog_for(qtbot, session, PANZER)
    type_dice(dialog.runner, *WORKED_EXAMPLE)
    res = dialog.runner.result
    assert res is not None and res.outcome == "net2:immobilised"
    assert list(res.effects) == [add_shock(SHERMAN, 2), SetDamage(SHERMAN, "immobilised")]
    assert "immobilised" in dialog.runner.result_view.toPlainText().lower()
    assert dialog.runner.apply()
    sherman = session.game.unit(SHERMAN)
    assert sherman.shock == 2 and sherman.vehicle is not None and sherman.vehicle.damage == ["immobilised"]
    assert any("To hit" in entry.text for entry in session.game.log)
    assert dialog.follow_up.isVisibleTo(dialog) and not dialog.reverse_button.isVisibleTo(dialog)
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_reverse_result_moves_the_sherman_as_one_step(qtbot: QtBot, session: Session) -> None:
    dialog = dialog_for(qtbot, session, PANZER)
    # Hit on 3+4; one Penetrating Hit among the nine Strike Dice, one save: Equal Hits & Saves, 1 is Reverse.
    type_dice(dialog.runner, "3 4", "5 1 1 1 1 1 1 1 1", "5 1 1 1 1 1", "1")
    res = dialog.runner.result
    assert res is not None and res.outcome == "equal:reverse"
    assert dialog.runner.apply()
    assert dialog.reverse_button.isVisibleTo(dialog)
    before = savefile.game_to_dict(session.game)
    dialog.start_reverse()
    runner = dialog.reverse_runner
    assert runner is not None
    runner.start_typed()
    runner.entry.setText("4")
    runner.submit_entry()
    assert runner.result is not None and isinstance(runner.result.effects[0], MoveUnit)
    assert runner.apply()
    sherman = session.game.unit(SHERMAN)
    assert abs(((sherman.x - 50.0) ** 2 + (sherman.y - 36.0) ** 2) ** 0.5 - 4.0) < 1e-6
    assert sherman.y > 36.0 and sherman.facing == 345.0
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_explodes_lists_the_infantry_near_the_wreck(qtbot: QtBot, demo_game: Game) -> None:
    demo_game.unit("u8").x, demo_game.unit("u8").y = 52.0, 38.0
    session = Session(demo_game)
    assert [u.id for u in infantry_near(demo_game, (50.0, 36.0), 4.0, SHERMAN)] == ["u8"]
    dialog = dialog_for(qtbot, session, PANZER)
    type_dice(dialog.runner, "6 6", "6 6 6 6 6 6 6 6 6 6 6", "1 1 1 1 1 1", "6")
    res = dialog.runner.result
    assert res is not None and res.outcome == "net3:explodes"
    assert dialog.runner.apply()
    assert "2nd Squad" in dialog.follow_text.text()


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the offscreen platform, bringing the dialog back
def test_opened_from_the_window_and_target_picked_on_the_map(qtbot: QtBot, session: Session,
                                                             tmp_path: Path) -> None:
    win = MainWindow(session, Recovery(session, tmp_path))
    win.feature_host.load()  # normally just after the first paint
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.show()
    win.feature_host.run_unit_action("coc.anti_tank_fire", PANZER)
    dialogs = win.findChildren(AntiTankDialog)
    assert len(dialogs) == 1
    dialog = dialogs[0]
    assert dialog.target_picker.pick_button.isEnabled()
    view = win.map
    qtbot.mouseClick(dialog.target_picker.pick_button, Qt.MouseButton.LeftButton)
    assert view.picking
    assert view.banner.text().lower().count("esc") == 1, view.banner.text()
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     view.mapFromScene(QPointF(22.0, 38.0)))
    assert "1st Squad is not an enemy AFV or APC" in dialog.refusal.text()
    qtbot.mouseClick(dialog.target_picker.pick_button, Qt.MouseButton.LeftButton)
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     view.mapFromScene(QPointF(50.0, 36.0)))
    assert dialog.target_picker.current() == SHERMAN and dialog.refusal.isHidden()
    inputs = dialog.inputs()
    assert inputs is not None and inputs["location"] == "front"
    dialog.close()


def test_grenade_offered_only_within_reach_and_resolved(qtbot: QtBot, demo_game: Game) -> None:
    action = unit_action("coc.at_grenade")
    assert action not in unit_actions(demo_game, demo_game.unit(SCHRECK))
    squad = demo_game.unit("u2")
    squad.x, squad.y = 50.0, 30.0
    assert action in unit_actions(demo_game, squad)
    assert action not in unit_actions(demo_game, demo_game.unit(PANZER))
    session = Session(demo_game)
    before = savefile.game_to_dict(session.game)
    dialog = GrenadeDialog(session, ready_unit(session, "u2"))
    qtbot.addWidget(dialog)
    assert dialog.choices()["weapon"] == "Teller mine"
    assert dialog.plan is not None
    inputs = dialog.plan.inputs
    assert (inputs["armour_dice"], inputs["distance"], inputs["target_id"]) == (2, 6.0, SHERMAN)
    rows = dialog.runner.odds_plot.rows
    assert [label.split(":")[0] for label, _p in rows] == ["failed to reach", "no effect", "equal", "+1", "+2", "+3"]
    assert sum((p for _l, p in rows), Fraction(0)) == 1
    runner = dialog.runner
    runner.start_typed()
    runner.entry.setText("2 1")
    runner.submit_entry()
    assert runner.result is not None and runner.result.outcome == "failed_to_reach"
    assert runner.apply()
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def grouped(dist: Distribution[str]) -> list[tuple[str, Fraction]]:
    """The odds as the plot shows them: summed per group label, in reading order."""
    rows: dict[str, Fraction] = {}
    for outcome, p in in_group_order(dist).items():
        rows[group_label(outcome)] = rows.get(group_label(outcome), Fraction(0)) + p
    return list(rows.items())


def test_anti_tank_odds_shown_are_the_odds_of_what_apply_resolves(qtbot: QtBot, session: Session) -> None:
    session.game.unit(SHERMAN).facing = 90.0
    session.game.unit(PANZER).counters["shock"] = 1
    dialog = dialog_for(qtbot, session, PANZER)
    dialog.show()
    qtbot.mouseClick(dialog.checks["two_orders"], Qt.MouseButton.LeftButton)
    dialog.location_box.setCurrentIndex(dialog.location_box.findData("top"))
    dialog.visibility.box.setCurrentIndex(dialog.visibility.box.findData("obscured"))
    plan = plan_at_fire(session.game, {"firer": PANZER, "target": SHERMAN, "weapon": "7.5cm KwK 40",
                                       "location": "top", "visibility": "obscured", "two_orders": True})
    assert plan.inputs["two_orders"] is True and plan.inputs["armour_dice"] == 2
    assert dialog.runner.odds_plot.rows == grouped(odds(plan.procedure, plan.inputs))
    dice = ["6 2", "1 1 2 3 4 4 5 5 6 6", "4 6", "4"]
    res = type_dice(dialog.runner, *dice)
    expected = resolve(plan.procedure, plan.inputs, ScriptedDice([int(f) for d in dice for f in d.split()]))
    assert res is not None and (res.outcome, res.effects, res.values) == (expected.outcome, expected.effects,
                                                                          expected.values)


def test_grenade_odds_shown_are_the_odds_of_what_apply_resolves(qtbot: QtBot, demo_game: Game) -> None:
    demo_game.settings["grenade_movement_dice"] = 3
    squad = demo_game.unit("u2")
    squad.x, squad.y = 50.0, 24.0
    session = Session(demo_game)
    dialog = GrenadeDialog(session, ready_unit(session, "u2"))
    qtbot.addWidget(dialog)
    run = dialog.widget("distance")
    assert isinstance(run, QDoubleSpinBox)
    run.clear()
    qtbot.keyClicks(run, "9.5")
    qtbot.keyClick(run, Qt.Key.Key_Return)
    plan = plan_at_grenade(session.game, {"firer": "u2", "target": SHERMAN, "weapon": "Teller mine",
                                          "distance": 9.5})
    assert plan.inputs["distance"] == 9.5 and plan.inputs["grenade_movement_dice"] == 3
    assert dialog.runner.odds_plot.rows == grouped(odds(plan.procedure, plan.inputs))
    dice = ["3 3 4", "6 6 6 6 6", "4 1 1 1 1", "1 1", "6"]
    res = type_dice(dialog.runner, *dice, complete=False)
    expected = resolve(plan.procedure, plan.inputs, ScriptedDice([int(f) for d in dice for f in d.split()]))
    assert res is not None and (res.outcome, res.effects) == (expected.outcome, expected.effects)


@pytest.mark.qt_log_ignore(NO_RAISE)
def test_grenade_vehicle_is_chosen_from_the_list_or_clicked_on_the_map(qtbot: QtBot, demo_game: Game) -> None:
    squad = demo_game.unit("u2")
    squad.x, squad.y = 50.0, 30.0
    demo_game.units["u40"] = Unit("u40", "M3 half-track", "vehicle", 1, 45.0, 30.0, facing=0.0, figures=1,
                                  figures_max=1, vehicle=Vehicle("apc", {"front": 2, "side": 1, "rear": 1, "top": 0}))
    session = Session(demo_game)
    view = shown_map(qtbot, session)
    dialog = GrenadeDialog(session, ready_unit(session, "u2"), view, view)
    dialog.show()
    qtbot.waitExposed(dialog)
    picker = dialog.widget("target")
    assert isinstance(picker, TargetPicker)
    assert picker.units() == ["u40", SHERMAN] and dialog.choices()["target"] == "u40"   # nearest first
    assert dialog.choices()["distance"] == pytest.approx(5.0)

    choose_with_keys(qtbot, picker, SHERMAN)
    assert dialog.choices()["target"] == SHERMAN and dialog.choices()["distance"] == pytest.approx(6.0)
    assert dialog.plan is not None and dialog.plan.inputs["target_id"] == SHERMAN

    click_on_map(qtbot, view, picker, "u40", dialog)
    assert dialog.choices()["target"] == "u40" and dialog.choices()["distance"] == pytest.approx(5.0)
    assert dialog.plan is not None and dialog.plan.inputs["target_id"] == "u40"

    click_on_map(qtbot, view, picker, PANZER, dialog)                   # a friendly tank
    assert "Panzer IV H" in dialog.refusal.text() and dialog.choices()["target"] == "u40"


def test_grenade_run_starts_at_the_maps_reading_and_the_player_corrects_it(qtbot: QtBot, demo_game: Game,
                                                                           tmp_path: Path) -> None:
    squad = demo_game.unit("u2")
    squad.x, squad.y = 50.0, 30.0
    session = Session(demo_game)
    win = MainWindow(session, Recovery(session, tmp_path))
    win.feature_host.load()
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.show()
    win.feature_host.run_unit_action("coc.at_grenade", ready_unit(session, "u2"))
    [dialog] = win.findChildren(GrenadeDialog)
    qtbot.waitExposed(dialog)
    run = dialog.widget("distance")
    assert isinstance(run, QDoubleSpinBox)
    assert run.text() == '6.0"' and 'Run 6.0" on 2D6' in dialog.facts.facts()
    assert "nearest figure" in dialog.notes["distance"].text() and dialog.notes["distance"].isVisible()

    with qtbot.waitActive(dialog):
        dialog.activateWindow()
    qtbot.mouseClick(run.lineEdit(), Qt.MouseButton.LeftButton)        # into the box, as the player does
    assert run.hasFocus()
    qtbot.keyClick(run, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(run, "4.5")                                       # measured from the nearest figure
    assert 'Run 4.5" (the map gives 6.0" centre to centre) on 2D6' in dialog.facts.facts()
    qtbot.keyClick(run, Qt.Key.Key_Up)                                # a step is an inch
    assert run.text() == '5.5"' and dialog.plan is not None and dialog.plan.inputs["distance"] == 5.5

    qtbot.mouseClick(dialog.runner.typed_button, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(dialog.runner.entry, "2 1")
    qtbot.keyClick(dialog.runner.entry, Qt.Key.Key_Return)
    assert dialog.runner.result is not None and dialog.runner.result.outcome == "failed_to_reach"
    qtbot.mouseClick(dialog.runner.apply_button, Qt.MouseButton.LeftButton)
    action = session.game.actions[-1]
    assert (action.name, action.choices["distance"], action.choices["target"]) == ("coc.at_grenade", 5.5, SHERMAN)
    assert not run.isEnabled()                                        # applied: the choices lock until Undo
    dialog.close()
