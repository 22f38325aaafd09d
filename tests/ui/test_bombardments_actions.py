"""A whole bombardment driven from the dock, each step a recorded action that replays and undoes exactly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.rules import get
from battletracker.rules import odds
from battletracker.rules.actions import plan
from battletracker.rules.chain_of_command.bombardment import AreaOptions
from battletracker.rules.replay import replay_steps
from battletracker.ui.features.bombardments import BombardmentsPanel
from battletracker.ui.features.bombardments.dialogs import NewBombardmentDialog
from battletracker.ui.features.bombardments.dialogs import PatternDialog
from battletracker.ui.features.bombardments.dialogs import PhaseDialog
from battletracker.ui.features.bombardments.dialogs import RangingDialog
from battletracker.ui.features.bombardments.dialogs import kills_group
from battletracker.ui.map.view import MapView
from battletracker.ui.odds_plot import grouped
from battletracker.ui.session import Session
from tests.ui.dice_entry import command_dice_for
from tests.ui.dice_entry import type_dice
from tests.ui.test_bombardments import AIM  # noqa: F401
from tests.ui.test_bombardments import OBSERVER  # noqa: F401
from tests.ui.test_bombardments import panel  # noqa: F401
from tests.ui.test_bombardments import type_all  # noqa: F401
from tests.ui.test_bombardments import view  # noqa: F401
from tests.ui.test_bombardments_terrain import ready_to_fire
from tests.ui.test_bombardments_wording import click_map

__all__ = ["panel", "view"]


def click_ok(dialog: NewBombardmentDialog | PatternDialog) -> None:
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    QTest.mouseClick(ok, Qt.MouseButton.LeftButton)


def test_a_bombardment_from_the_dock_is_a_list_of_actions_that_replays_and_undoes(
        qtbot: QtBot, session: Session, panel: BombardmentsPanel, view: MapView,  # noqa: F811
        tmp_path: Path) -> None:
    game = session.game
    states: list[dict[str, Any]] = [savefile.game_to_dict(game)]
    names: list[str] = []

    def step(name: str) -> None:
        assert game.actions[-1].name == name, [a.name for a in game.actions]
        names.append(name)
        states.append(savefile.game_to_dict(game))
        assert session.undo_stack.count() == len(names)

    # New bombardment: British, H.E., three Phases on the Forward Observer's die; aim, then the observer
    QTest.mouseClick(panel.new_button, Qt.MouseButton.LeftButton)
    new = panel.dialog
    assert isinstance(new, NewBombardmentDialog)
    new.phases.setValue(3)
    click_ok(new)
    click_map(view, AIM)
    click_map(view, OBSERVER)
    step("coc.new_bombardment")
    (bid,) = game.bombardments
    choices = game.actions[-1].choices
    assert (choices["side"], choices["kind"], choices["phases"]) == (0, "high_explosive", 3)

    # The side rolls its Command Dice: the Forward Observer's activation spends a held 1
    session.act("coc.command_dice", {}, dice=[1, 2, 3, 4, 4])
    step("coc.command_dice")

    # A ranging shot with dice rolled at the table: 3+3 deviates 2+2+2 = 6" on a bearing of 90
    QTest.mouseClick(panel.rows[bid].buttons["range"], Qt.MouseButton.LeftButton)
    ranging = panel.dialog
    assert isinstance(ranging, RangingDialog)
    ranging.set_bearing.setChecked(True)
    ranging.bearing.setValue(90.0)
    type_dice(ranging.runner, "3 3", "2 2 2")
    QTest.mouseClick(ranging.runner.apply_button, Qt.MouseButton.LeftButton)
    step("coc.ranging_shot")
    action = game.actions[-1]
    assert (action.dice, action.typed, action.choices["bearing"]) == ((3, 3, 2, 2, 2), True, 90.0)
    assert game.bombardments[bid].state == "landed"

    for _ in range(2):
        session.end_phase()
        step("clock.end_phase")

    session.act("coc.command_dice", {}, dice=[1, 2, 3, 4, 4])
    step("coc.command_dice")
    QTest.mouseClick(panel.rows[bid].buttons["fire_for_effect"], Qt.MouseButton.LeftButton)
    step("coc.fire_for_effect")

    QTest.mouseClick(panel.rows[bid].buttons["pattern"], Qt.MouseButton.LeftButton)
    pattern = panel.dialog
    assert isinstance(pattern, PatternDialog)
    pattern.choose(5, "right")
    click_ok(pattern)
    step("coc.hidden_die")
    assert dict(game.actions[-1].choices) == {"bombardment": bid, "face": 5, "direction": "right"}

    # The Phase of fire, every die typed as a 3
    QTest.mouseClick(panel.rows[bid].buttons["fire"], Qt.MouseButton.LeftButton)
    phase = panel.dialog
    assert isinstance(phase, PhaseDialog)
    type_all(phase.runner, 3)
    QTest.mouseClick(phase.runner.apply_button, Qt.MouseButton.LeftButton)
    step("coc.bombardment_phase")
    action = game.actions[-1]
    assert action.typed and action.dice and set(action.dice) == {3}
    assert action.choices["activation"] == "begun"
    assert game.bombardments[bid].phases_fired == 1

    # The row's menu: an extra round, and eight Firepower Dice instead of the weapon's
    assert panel.add_rounds_error(bid, 1) is None
    step("coc.extra_rounds")
    assert panel.edit_area_error(bid, AreaOptions(firepower_dice=8)) is None
    step("coc.edit_area")
    assert panel.edit_area_error(bid, AreaOptions(firepower_dice=8)) is None, "no change is no step"
    assert game.bombardments[bid].firepower_dice == 8 and game.bombardments[bid].phases_left == 3

    session.end_phase()
    step("clock.end_phase")

    path = tmp_path / "mortars.battle"
    savefile.save(game, path)
    replayed, _steps = replay_steps(savefile.load(path))
    assert savefile.game_to_dict(replayed) == savefile.game_to_dict(game)

    for i in range(len(names), 0, -1):
        session.undo_stack.undo()
        assert savefile.game_to_dict(game) == states[i - 1], f"undo of {names[i - 1]}"


def test_sos_fire_and_buildings_from_the_dock_are_recorded_actions(
        qtbot: QtBot, session: Session, panel: BombardmentsPanel, view: MapView,  # noqa: F811
        tmp_path: Path) -> None:
    game = session.game
    start = savefile.game_to_dict(game)
    sos = panel.create_sos(0, (22.0, 38.0))
    assert sos is not None
    type_all(sos.runner, 3)
    QTest.mouseClick(sos.runner.apply_button, Qt.MouseButton.LeftButton)
    assert [a.name for a in game.actions] == ["coc.new_sos", "coc.sos_fire"]
    assert game.actions[-1].choices["target"] == "u7" and game.actions[-1].typed

    assert panel.place_building("Barn", (60.0, 30.0), 4.0, 3.0, 0.0, "wood", 1)
    (barn,) = game.buildings
    assert panel.enter_building("u11", barn)
    assert panel.leave_building("u11")
    assert not panel.leave_building("u11") and "is not in a building" in panel.problem.text()

    assert [a.name for a in game.actions][2:] == ["coc.add_building", "coc.enter_building", "coc.leave_building"]

    path = tmp_path / "sos.battle"
    savefile.save(game, path)
    replayed, _steps = replay_steps(savefile.load(path))
    assert savefile.game_to_dict(replayed) == savefile.game_to_dict(game)
    while session.undo_stack.canUndo():
        session.undo_stack.undo()
    assert savefile.game_to_dict(game) == start


def test_the_bombardment_dialogs_show_the_odds_of_the_action_apply_takes(
        session: Session, panel: BombardmentsPanel) -> None:  # noqa: F811
    bid = ready_to_fire(panel)
    phase = panel.open_phase(bid)
    row = next(iter(phase.cover_rows.values()))
    row.cover.setCurrentIndex(row.cover.findData("hard"))
    p = plan("coc.bombardment_phase", session.game, phase.choices())
    assert phase.choices()[f"cover.{next(iter(phase.cover_rows))}"] == "hard"
    assert phase.runner.odds_plot.rows == grouped(odds(p.procedure, p.inputs), kills_group)

    sos = panel.create_sos(0, (22.0, 38.0))
    assert sos is not None
    sos.cover_row.cover.setCurrentIndex(sos.cover_row.cover.findData("light"))
    choices = {"bombardment": sos.sos_id, "target": "u7", "cover": "light", "linear_obstacle": False,
               "in_fortification": False}
    p = plan("coc.sos_fire", session.game, choices)
    assert sos.runner.odds_plot.rows == grouped(odds(p.procedure, p.inputs), kills_group)

    assert panel.place_bombardment(0, "high_explosive", 3, AIM, OBSERVER)
    bid2 = list(session.game.bombardments)[-1]
    command_dice_for(panel.session, bid2)
    ranging = panel.open_ranging(bid2)
    p = plan("coc.ranging_shot", session.game, {"bombardment": bid2})
    shot = get(p.procedure)
    assert ranging.runner.odds_plot.rows == grouped(odds(p.procedure, p.inputs), shot.label, shot.order)
