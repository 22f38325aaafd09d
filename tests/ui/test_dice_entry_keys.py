"""Enter and Escape in the dice field of every procedure dialog, opened from the main window.

Enter submits the typed dice and the dialog stays open; Escape with typed dice
not yet applied asks before closing, and No keeps the dialog and the dice.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.model.effects import AddUnit
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.model.game import Weapon
from battletracker.rules.presets import preset
from battletracker.ui.dice_dialog import DiceDialog
from battletracker.ui.features.anti_tank import AntiTankDialog
from battletracker.ui.features.anti_tank import GrenadeDialog
from battletracker.ui.features.armour_battles.assault import CloseAssaultDialog
from battletracker.ui.features.armour_battles.direct import DirectFireDialog
from battletracker.ui.features.armour_battles.indirect import IndirectFireDialog
from battletracker.ui.features.bombardments.panel import BombardmentsPanel
from battletracker.ui.features.necromunda.shoot_dialog import ShootDialog
from battletracker.ui.features.support_fire.dialog import FireDialog
from battletracker.ui.features.support_fire.grenade_vehicle import GrenadeIntoVehicleDialog
from battletracker.ui.main_window import MainWindow
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session
from tests.acting import ready
from tests.acting import ready_side
from tests.ui.dice_entry import command_dice_for
from tests.ui.dice_entry import type_dice

PANZER, MG, SQUAD = "u6", "u3", "u8"

Opened = tuple[QDialog, ProcedureRunner]
D = TypeVar("D", bound=QDialog)


def _window(qtbot: QtBot, game: Game, folder: Path) -> MainWindow:
    session = Session(game)
    win = MainWindow(session, Recovery(session, folder))
    win.feature_host.load()  # normally just after the first paint
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.show()
    qtbot.waitExposed(win)
    return win


def _only(win: MainWindow, kind: type[D]) -> D:
    dialogs = win.findChildren(kind)
    assert len(dialogs) == 1, dialogs
    return dialogs[0]


def _ab_unit(game: Game, key: str, unit_id: str, side: int, x: float, y: float) -> None:
    p = preset("armour_battles", key)
    game.units[unit_id] = p.make(unit_id, p.title, side, x, y)


def _kursk() -> Game:
    game = Game(title="Kursk", ruleset="armour_battles",
                sides=[Side("Germany", "#666666"), Side("Soviet Union", "#aa3333")])
    _ab_unit(game, "stuh_42", "stuh", 0, 30.0, 32.0)
    _ab_unit(game, "rifle_platoon_su", "rifles", 1, 30.0, 20.0)
    _ab_unit(game, "rifle_platoon_su", "observer", 0, 30.0, 30.0)
    return game


def open_dice(qtbot: QtBot, tmp_path: Path) -> Opened:
    win = _window(qtbot, savefile.load(demo_path()), tmp_path)
    win.dice_action.trigger()
    dialog = _only(win, DiceDialog)
    return dialog, dialog.runner


def _bombardment(qtbot: QtBot, tmp_path: Path) -> tuple[BombardmentsPanel, str]:
    win = _window(qtbot, savefile.load(demo_path()), tmp_path)
    panel = win.findChild(BombardmentsPanel)
    assert panel is not None
    assert panel.place_bombardment(0, "high_explosive", 3, (30.0, 38.0), (30.0, 20.0))
    (bid,) = win.session.game.bombardments
    return panel, bid


def open_ranging(qtbot: QtBot, tmp_path: Path) -> Opened:
    panel, bid = _bombardment(qtbot, tmp_path)
    command_dice_for(panel.session, bid)
    dialog = panel.open_ranging(bid)
    return dialog, dialog.runner


def open_bombardment_phase(qtbot: QtBot, tmp_path: Path) -> Opened:
    panel, bid = _bombardment(qtbot, tmp_path)
    command_dice_for(panel.session, bid)
    ranging = panel.open_ranging(bid)
    type_dice(ranging.runner, "5 4")
    assert ranging.runner.apply()
    pattern = panel.open_pattern(bid)
    pattern.choose(6, "left")
    pattern.place()
    dialog = panel.open_phase(bid)
    return dialog, dialog.runner


def open_anti_tank(qtbot: QtBot, tmp_path: Path) -> Opened:
    win = _window(qtbot, ready_side(savefile.load(demo_path())), tmp_path)
    win.feature_host.run_unit_action("coc.anti_tank_fire", PANZER)
    dialog = _only(win, AntiTankDialog)
    return dialog, dialog.runner


def open_anti_tank_grenade(qtbot: QtBot, tmp_path: Path) -> Opened:
    game = ready_side(savefile.load(demo_path()))
    game.unit("u2").x, game.unit("u2").y = 50.0, 30.0
    win = _window(qtbot, game, tmp_path)
    win.feature_host.run_unit_action("coc.at_grenade", "u2")
    dialog = _only(win, GrenadeDialog)
    return dialog, dialog.runner


def open_fire(qtbot: QtBot, tmp_path: Path) -> Opened:
    win = _window(qtbot, ready_side(savefile.load(demo_path())), tmp_path)
    win.feature_host.run_unit_action("coc.support_fire", MG)
    dialog = _only(win, FireDialog)
    assert dialog.set_target(SQUAD)
    assert dialog.runner is not None
    return dialog, dialog.runner


def open_grenade_into_vehicle(qtbot: QtBot, tmp_path: Path) -> Opened:
    win = _window(qtbot, ready_side(savefile.load(demo_path())), tmp_path)
    team = Unit("u40", "Rifle team", "team", 0, 30.0, 30.0, figures=4, figures_max=4,
                weapons=[Weapon("Rifles", "small_arms", 24.0, [18.0, 48.0], stats={"firepower_dice": 3})])
    vehicle = Unit("u41", "M3 half-track", "vehicle", 1, 30.0, 33.0, facing=0.0, figures=1, figures_max=1,
                   vehicle=Vehicle("apc", {"front": 2, "side": 1, "rear": 1, "top": 0}, True))
    win.session.apply("Add the team and the half-track", [AddUnit(team), AddUnit(vehicle)])
    ready(win.session.game, "u40")
    win.feature_host.run_unit_action("coc.grenade_into_vehicle", "u40")
    dialog = _only(win, GrenadeIntoVehicleDialog)
    return dialog, dialog.runner


def open_necromunda_shoot(qtbot: QtBot, tmp_path: Path) -> Opened:
    from tests.ui.test_necromunda import autogun
    from tests.ui.test_necromunda import fighter
    from tests.ui.test_necromunda import necro_game

    game = necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("b", "Mira", 1, 10, 20))
    win = _window(qtbot, game, tmp_path)
    win.feature_host.run_unit_action("necromunda.shoot", "a")
    dialog = _only(win, ShootDialog)
    return dialog, dialog.runner


def open_indirect_fire(qtbot: QtBot, tmp_path: Path) -> Opened:
    win = _window(qtbot, _kursk(), tmp_path)
    win.feature_host.run_unit_action("ab.indirect_fire", "stuh")
    dialog = _only(win, IndirectFireDialog)
    dialog.set_aim(30.0, 20.0)
    dialog.set_observer("observer")
    assert dialog.refusal_text() == ""
    return dialog, dialog.runner


def open_direct_fire(qtbot: QtBot, tmp_path: Path) -> Opened:
    win = _window(qtbot, _kursk(), tmp_path)
    win.feature_host.run_unit_action("ab.direct_fire", "stuh")
    dialog = _only(win, DirectFireDialog)
    dialog.set_target("rifles")
    assert dialog.current is not None
    return dialog, dialog.current.fire


def open_close_assault(qtbot: QtBot, tmp_path: Path) -> Opened:
    game = _kursk()
    game.units["rifles"].y = 30.0
    win = _window(qtbot, game, tmp_path)
    win.feature_host.run_unit_action("ab.close_assault", "stuh")
    dialog = _only(win, CloseAssaultDialog)
    return dialog, dialog.runner


DIALOGS: dict[str, Callable[[QtBot, Path], Opened]] = {
    "dice": open_dice,
    "ranging": open_ranging,
    "bombardment phase": open_bombardment_phase,
    "anti-tank": open_anti_tank,
    "anti-tank grenade": open_anti_tank_grenade,
    "fire": open_fire,
    "grenade into a vehicle": open_grenade_into_vehicle,
    "necromunda shoot": open_necromunda_shoot,
    "armour battles indirect fire": open_indirect_fire,
    "armour battles direct fire": open_direct_fire,
    "armour battles close assault": open_close_assault,
}


@pytest.fixture(params=list(DIALOGS))
def opened(request: pytest.FixtureRequest, qtbot: QtBot, tmp_path: Path) -> Iterator[Opened]:
    dialog, runner = DIALOGS[request.param](qtbot, tmp_path)
    qtbot.waitExposed(dialog)
    assert dialog.isVisible() and runner.typed_button.isEnabled(), runner.problem.text()
    assert [b.text() for b in dialog.findChildren(QPushButton) if b.isDefault()] == []
    closed: list[int] = []
    dialog.finished.connect(closed.append)
    yield dialog, runner
    if not closed:
        dialog.close()


def _first_prompt(qtbot: QtBot, runner: ProcedureRunner) -> str:
    """Press "Enter table dice" and return dice for the first roll asked (each die's first face)."""
    qtbot.mouseClick(runner.typed_button, Qt.MouseButton.LeftButton)
    need = runner._pending
    assert need is not None, "nothing to roll"
    return " ".join([str(need.die.faces[0])] * need.count)


def test_enter_in_the_dice_field_submits_the_dice_and_keeps_the_dialog(qtbot: QtBot, opened: Opened) -> None:
    dialog, runner = opened
    finished: list[int] = []
    dialog.finished.connect(finished.append)
    text = _first_prompt(qtbot, runner)
    pressed: list[str] = []
    for button in dialog.findChildren(QAbstractButton):
        button.clicked.connect(lambda _checked=False, b=button: pressed.append(b.text()))
    qtbot.keyClicks(runner.entry, text)
    qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    assert finished == [] and dialog.isVisible()
    assert pressed == [], f"Enter in the dice field pressed {pressed}"
    assert runner.entry_error.isHidden(), runner.entry_error.text()
    assert [str(face) for face in runner._typed] == text.split()


def test_escape_with_typed_dice_asks_and_no_keeps_the_dialog(qtbot: QtBot, opened: Opened,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    dialog, runner = opened
    finished: list[int] = []
    dialog.finished.connect(finished.append)
    asked: list[str] = []
    answer = QMessageBox.StandardButton.No

    def question(_parent: object, title: str, *_args: object) -> QMessageBox.StandardButton:
        asked.append(title)
        return answer

    monkeypatch.setattr(QMessageBox, "question", question)
    text = _first_prompt(qtbot, runner)
    qtbot.keyClicks(runner.entry, text)
    qtbot.keyClick(runner.entry, Qt.Key.Key_Escape)
    assert asked == ["Discard the typed dice?"]
    assert finished == [] and dialog.isVisible() and runner.entry.text() == text
    answer = QMessageBox.StandardButton.Yes
    qtbot.keyClick(runner.entry, Qt.Key.Key_Escape)
    assert len(asked) == 2 and finished == [QDialog.DialogCode.Rejected]


def test_escape_without_typed_dice_closes_at_once(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    dialog, runner = open_dice(qtbot, tmp_path)
    monkeypatch.setattr(QMessageBox, "question", lambda *_a: pytest.fail("asked with no dice typed"))
    finished: list[int] = []
    dialog.finished.connect(finished.append)
    _first_prompt(qtbot, runner)
    qtbot.keyClick(runner.entry, Qt.Key.Key_Escape)
    assert finished == [QDialog.DialogCode.Rejected]


def test_a_five_thousand_digit_die_is_refused_naming_the_die(qtbot: QtBot, tmp_path: Path) -> None:
    dialog, runner = open_dice(qtbot, tmp_path)
    dialog_session = runner.session
    steps = dialog_session.undo_stack.count()
    _first_prompt(qtbot, runner)
    qtbot.keyClicks(runner.entry, "6 " + "6" * 5000)
    qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    assert dialog.isVisible() and runner.entry_error.isVisible()
    message = runner.entry_error.text()
    assert message.startswith("6D6: ") and "cannot be rolled on a D6 (faces 1-6)" in message
    assert len(message) < 100
    assert runner.result is None and runner._typed == []
    assert dialog_session.undo_stack.count() == steps
    dialog.close()


def test_a_die_short_keeps_the_dice_typed_so_the_last_one_can_be_added(qtbot: QtBot, tmp_path: Path) -> None:
    """Told "10 D6 needed, 9 entered", the player types the missing die: the nine already typed stay."""
    dialog, runner = open_fire(qtbot, tmp_path)
    qtbot.mouseClick(runner.typed_button, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(runner.entry, "6 5 4 3 2 1 6 5 4")
    qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    assert "10 D6 needed, 9 entered" in runner.entry_error.text()
    assert runner.entry.text() == "6 5 4 3 2 1 6 5 4"
    qtbot.keyClicks(runner.entry, " 3")
    qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    assert runner.entry_error.isHidden(), runner.entry_error.text()
    assert [int(face) for face in runner._typed] == [6, 5, 4, 3, 2, 1, 6, 5, 4, 3]
    dialog.close()


def _asking(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    asked: list[str] = []

    def question(_parent: object, title: str, *_args: object) -> QMessageBox.StandardButton:
        asked.append(title)
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", question)
    return asked


def test_a_typed_result_not_applied_asks_and_once_applied_closes_at_once(qtbot: QtBot, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    dialog, runner = open_dice(qtbot, tmp_path)
    asked = _asking(monkeypatch)
    finished: list[int] = []
    dialog.finished.connect(finished.append)
    text = _first_prompt(qtbot, runner)
    qtbot.keyClicks(runner.entry, text)
    qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    assert runner.result is not None
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert asked and finished == []
    qtbot.mouseClick(runner.apply_button, Qt.MouseButton.LeftButton)
    asked.clear()
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert asked == [] and finished == [QDialog.DialogCode.Rejected]


def test_direct_fire_results_wait_for_the_dialogs_apply(qtbot: QtBot, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    dialog, runner = open_direct_fire(qtbot, tmp_path)
    assert isinstance(dialog, DirectFireDialog) and dialog.current is not None
    asked = _asking(monkeypatch)
    finished: list[int] = []
    dialog.finished.connect(finished.append)
    type_dice(dialog.current.fire, "6 6 5 1 1 1 1")
    type_dice(dialog.current.reaction, "6 6 1 1")
    close = next(b for b in dialog.findChildren(QAbstractButton) if b.text() == "Close")
    qtbot.mouseClick(close, Qt.MouseButton.LeftButton)
    assert asked and finished == []
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert dialog.applied
    asked.clear()
    qtbot.mouseClick(close, Qt.MouseButton.LeftButton)
    assert asked == [] and finished == [QDialog.DialogCode.Rejected]
