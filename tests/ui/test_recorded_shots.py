"""Each shooting dialog applies as the player's recorded action: typed dice, Apply, and the save replays it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battletracker.core.dice import Face
from battletracker.model import savefile
from battletracker.model.bombardment import Building
from battletracker.model.game import Game
from battletracker.rules.base import InputValue
from battletracker.rules.replay import replay_steps
from battletracker.ui.features.anti_tank import AntiTankDialog
from battletracker.ui.features.anti_tank import GrenadeDialog
from battletracker.ui.features.armour_battles.assault import CloseAssaultDialog
from battletracker.ui.features.armour_battles.direct import DirectFireDialog
from battletracker.ui.features.armour_battles.indirect import IndirectFireDialog
from battletracker.ui.features.support_fire import FireDialog
from battletracker.ui.features.support_fire.grenade_vehicle import GrenadeIntoVehicleDialog
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.session import Session
from tests.acting import ready
from tests.rules.chain_of_command.test_anti_tank_plans import beside_a_halftrack
from tests.ui.dice_entry import type_dice
from tests.ui.test_armour_battles import kursk as kursk_fixture
from tests.ui.test_armour_battles_assault import melee as assault_table_fixture
from tests.ui.test_armour_battles_mission import _table as kursk_table
from tests.ui.test_armour_battles_mission import _type_into as type_into
from tests.ui.test_necromunda import autogun
from tests.ui.test_necromunda import dialog_for as necro_dialog
from tests.ui.test_necromunda import fighter
from tests.ui.test_necromunda import necro_game

PANZER, SHERMAN, SQUAD = "u6", "u11", "u2"


pytestmark = pytest.mark.usefixtures("germany_ready")


def apply_typed(qtbot: QtBot, runner: ProcedureRunner, *entries: str) -> None:
    """Type the table's dice into the dialog and click its Apply."""
    type_dice(runner, *entries)
    qtbot.mouseClick(runner.apply_button, Qt.MouseButton.LeftButton)


assault_table = assault_table_fixture.__wrapped__  # type: ignore[attr-defined]
kursk_session = kursk_fixture.__wrapped__  # type: ignore[attr-defined]


def assert_recorded_and_replayed(session: Session, tmp_path: Path, name: str,
                                 choices: dict[str, InputValue], dice: list[Face]) -> None:
    """The game's last action is `name` with the dialog's choices and the dice typed; the save replays to it."""
    action = session.game.actions[-1]
    assert (action.name, dict(action.choices), list(action.dice), action.typed) == (name, choices, dice, True)
    path = tmp_path / "played.battle"
    savefile.save(session.game, path)
    replayed, _steps = replay_steps(savefile.load(path))
    assert savefile.game_to_dict(replayed) == savefile.game_to_dict(session.game)


def test_anti_tank_fire_is_recorded_and_the_reverse_still_follows(qtbot: QtBot, session: Session,
                                                                   tmp_path: Path) -> None:
    dialog = AntiTankDialog(session, PANZER)
    qtbot.addWidget(dialog)
    choices = dialog.choices()
    apply_typed(qtbot, dialog.runner, "6 1", "1 1 2 3 4 4 5 5 6 6", "1 2 3 4 5 6", "4")
    assert_recorded_and_replayed(session, tmp_path, "coc.at_fire", choices,
                                 [6, 1, 1, 1, 2, 3, 4, 4, 5, 5, 6, 6, 1, 2, 3, 4, 5, 6, 4])
    assert not dialog.follow_up.isHidden() and "one undo step" in dialog.follow_text.text()
    assert "(dice rolled at the table)" in session.game.log[-len(dialog._last.log) - 1].text


def test_an_anti_tank_grenade_is_recorded(qtbot: QtBot, demo_game: Game, tmp_path: Path) -> None:
    demo_game.unit(SQUAD).x, demo_game.unit(SQUAD).y = 50.0, 30.0
    session = Session(demo_game)
    dialog = GrenadeDialog(session, SQUAD)
    qtbot.addWidget(dialog)
    choices = dialog.choices()
    apply_typed(qtbot, dialog.runner, "2 1")
    assert_recorded_and_replayed(session, tmp_path, "coc.at_grenade", choices, [2, 1])


def test_tripod_mg_fire_is_recorded_as_the_fire_dialogs_action(qtbot: QtBot, session: Session, tmp_path: Path) -> None:
    del session.game.terrain["t5"]   # 2nd Squad in the open: without the demo's stone wall in front of it
    dialog = FireDialog(session, "u3")
    qtbot.addWidget(dialog)
    assert dialog.set_target("u8")
    assert dialog.runner is not None and dialog.runner.procedure == "coc.tripod_mg"
    choices = dialog.choices()
    apply_typed(qtbot, dialog.runner, "6 6 6 6 6 6 6 6 6 6", "3 4 5 6 1 1 1 1 1 1")
    assert_recorded_and_replayed(session, tmp_path, "coc.shoot", choices,
                                 [6] * 10 + [3, 4, 5, 6, 1, 1, 1, 1, 1, 1])
    assert session.game.unit("u8").shock == 2
    assert "Applied" in dialog.runner.result_view.toPlainText()


def test_a_grenade_into_a_vehicle_is_recorded(qtbot: QtBot, demo_game: Game, tmp_path: Path) -> None:
    team, vehicle = beside_a_halftrack(demo_game)
    ready(demo_game, team.id)
    session = Session(demo_game)
    dialog = GrenadeIntoVehicleDialog(session, team.id)
    qtbot.addWidget(dialog)
    choices = dialog.choices()
    apply_typed(qtbot, dialog.runner, "3 6", "2 3 5 6 6")
    assert_recorded_and_replayed(session, tmp_path, "coc.grenade_into_vehicle", choices, [3, 6, 2, 3, 5, 6, 6])
    assert session.game.unit(vehicle.id).shock == 2


def test_an_indirect_fire_mission_is_recorded(qtbot: QtBot, tmp_path: Path) -> None:
    session = kursk_table()
    session.game.buildings["barn"] = Building("barn", "Barn", 30.0, 38.0, width=8.0, depth=3.0)  # hides the aim
    dialog = IndirectFireDialog(session, "stuh")
    qtbot.addWidget(dialog)
    dialog.show()
    type_into(qtbot, dialog.aim_x, "30")
    type_into(qtbot, dialog.aim_y, "20")
    dialog.set_observer("observer")
    qtbot.mouseClick(dialog.arrow_known, Qt.MouseButton.LeftButton)
    type_into(qtbot, dialog.arrow_bearing, "90")
    dialog.cover["far"].setValue(1)
    choices = dialog.choices()
    apply_typed(qtbot, dialog.runner, "arrow", "3", "1 1 1 1", "6 6 2 2", "6 1 1 1 1", "4")
    assert_recorded_and_replayed(session, tmp_path, "ab.indirect_mission", choices,
                                 ["arrow", 3, 1, 1, 1, 1, 6, 6, 2, 2, 6, 1, 1, 1, 1, 4])
    assert session.undo_stack.count() == 1 and session.game.units["far"].counters["disruption"] == 1


def test_a_close_assault_is_recorded(qtbot: QtBot, tmp_path: Path) -> None:
    session = assault_table()
    dialog = CloseAssaultDialog(session, "stuh")
    qtbot.addWidget(dialog)
    qtbot.mouseClick(dialog.widget("attacker"), Qt.MouseButton.LeftButton)
    choices = dialog.choices()
    assert choices["attacker"] is True
    apply_typed(qtbot, dialog.runner, "6 5 5 4 3 2 1")
    assert_recorded_and_replayed(session, tmp_path, "ab.close_assault", choices, [6, 5, 5, 4, 3, 2, 1])
    assert any("Close assault: StuH 42" in e.text and "6 5 5 4 3 2 1" in e.text for e in session.game.log)


def test_a_necromunda_shoot_with_walking_fire_is_recorded_with_the_answers(qtbot: QtBot, tmp_path: Path) -> None:
    game = necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                      fighter("b", "Mira", 1, 10, 20), fighter("c", "Close", 1, 12, 21), toolkit_walking_fire=True)
    session = Session(game)
    dialog = necro_dialog(qtbot, session)
    choices = dialog.choices()
    type_dice(dialog.runner, "5", "2 1", complete=False)
    for answer in ("Close", "Mira"):
        box = dialog.runner.choice_box
        box.setCurrentIndex(box.findText(answer))
        qtbot.mouseClick(dialog.runner.entry_ok, Qt.MouseButton.LeftButton)
    assert dialog.runner.result is not None
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert_recorded_and_replayed(session, tmp_path, "necro.attack", {**choices, "walking_fire": "c,b"},
                                 [5, "2", "1"])
    assert session.game.units["c"].has("suppressed") and session.undo_stack.count() == 1
    assert "Applied" in dialog.status.text()


def test_direct_fire_and_its_reaction_are_one_recorded_action(qtbot: QtBot, tmp_path: Path) -> None:
    session = kursk_session()
    session.game.units["stuh"].y = 32.0
    session.game.units["rifles"].facing = 180.0
    dialog = DirectFireDialog(session, "stuh")
    qtbot.addWidget(dialog)
    dialog.set_target("rifles")
    t = dialog.current
    assert t is not None
    type_dice(t.fire, "6 6 5 1 1 1 1")
    t.cover.setValue(1)
    type_dice(t.reaction, "6 6 1 1 1")
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert_recorded_and_replayed(session, tmp_path, "ab.direct_fire", {**dialog.choices(), "cover": 1},
                                 [6, 6, 5, 1, 1, 1, 1, 6, 6, 1, 1, 1])
    assert session.undo_stack.count() == 1 and session.game.units["rifles"].counters["disruption"] == 1
    assert dialog.status.text() == "Applied."


def test_the_reverse_after_an_anti_tank_hit_is_recorded_too(qtbot: QtBot, session: Session, tmp_path: Path) -> None:
    dialog = AntiTankDialog(session, PANZER)
    qtbot.addWidget(dialog)
    dialog.show()
    apply_typed(qtbot, dialog.runner, "3 4", "5 1 1 1 1 1 1 1 1", "5 1 1 1 1 1", "1")
    qtbot.mouseClick(dialog.reverse_button, Qt.MouseButton.LeftButton)
    reverse = dialog.reverse_dialog
    assert reverse is not None
    inputs = reverse.runner._as_inputs()
    apply_typed(qtbot, reverse.runner, "4")
    assert [a.name for a in session.game.actions] == ["coc.at_fire", "coc.reverse"]
    assert_recorded_and_replayed(session, tmp_path, "coc.reverse", dict(inputs), [4])
