"""The "This Phase" dock on the demo battle: Command Dice typed from the table, a bombardment driven from the
dock's own buttons across several Phases, End Phase following the dice, and a Force Morale Test from the agenda.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QDockWidget
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QToolBar
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.bombardment import Building
from battletracker.model.bombardment import PhaseStamp
from battletracker.model.game import Weapon
from battletracker.model.sequence_effects import ChangeCocTally
from battletracker.rules.actions import plan
from battletracker.rules.chain_of_command.force_morale import queue_test
from battletracker.ui.features.bombardments import BombardmentsPanel
from battletracker.ui.features.bombardments.dialogs import NewBombardmentDialog
from battletracker.ui.features.bombardments.dialogs import PatternDialog
from battletracker.ui.features.bombardments.dialogs import PhaseDialog
from battletracker.ui.features.bombardments.dialogs import RangingDialog
from battletracker.ui.features.this_phase import CommandDiceDialog
from battletracker.ui.features.this_phase import ForceMoraleDialog
from battletracker.ui.features.this_phase import ThisPhasePanel
from battletracker.ui.gc_pause import top_level_widgets
from battletracker.ui.main_window import MainWindow
from battletracker.ui.procedure_parts import FactsPanel
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session
from tests.ui.dice_entry import type_dice
from tests.ui.menus import pick
from tests.ui.refusals import assert_refusal

AIM = (24.0, 38.0)
OBSERVER = (30.0, 20.0)


@pytest.fixture
def window(qtbot: QtBot, session: Session, tmp_path: Path) -> MainWindow:
    win = MainWindow(session, Recovery(session, tmp_path))
    win.feature_host.load()
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.resize(1366, 768)
    win.show()
    qtbot.waitExposed(win)
    return win


def this_phase(window: MainWindow) -> ThisPhasePanel:
    dock = window.findChild(QDockWidget, "dock-this-phase")
    assert dock is not None
    dock.raise_()
    panel = dock.widget()
    assert isinstance(panel, ThisPhasePanel)
    return panel


def click(qtbot: QtBot, button: QAbstractButton | None) -> None:
    assert button is not None
    qtbot.waitUntil(button.isVisible, timeout=20000)
    assert button.isEnabled()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def end_phase(qtbot: QtBot, window: MainWindow) -> None:
    toolbar = window.findChild(QToolBar, "toolbar-main")
    assert toolbar is not None
    click(qtbot, toolbar.widgetForAction(window.end_phase_action))


def text(panel: ThisPhasePanel, name: str) -> str:
    label = panel.findChild(QLabel, name)
    return "" if label is None else label.text()


def roll_command_dice(qtbot: QtBot, window: MainWindow, faces: str) -> CommandDiceDialog:
    """Open the dialog from the dock, type the table's dice and press Enter (which must not close it), Apply."""
    panel = this_phase(window)
    click(qtbot, panel.buttons["roll"])
    dialog = QApplication.activeModalWidget()
    assert isinstance(dialog, CommandDiceDialog)
    runner = dialog.runner
    assert runner.odds_plot.isVisible()
    click(qtbot, runner.typed_button)
    qtbot.keyClicks(runner.entry, faces)
    qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    assert dialog.isVisible() and runner.result is not None, runner.entry_error.text()
    click(qtbot, runner.apply_button)
    assert not dialog.isVisible()
    return dialog


def fire(qtbot: QtBot, window: MainWindow, bid: str) -> PhaseDialog:
    click(qtbot, this_phase(window).buttons[f"fire_{bid}"])
    dialog = bombardments(window).dialog
    assert isinstance(dialog, PhaseDialog)
    return dialog


def bombardments(window: MainWindow) -> BombardmentsPanel:
    found = window.findChild(BombardmentsPanel)
    assert found is not None
    return found


def test_a_bombardment_driven_from_this_phase_across_phases_with_command_dice_typed_in(
        qtbot: QtBot, window: MainWindow) -> None:
    session = window.session
    game = session.game
    panel = this_phase(window)
    assert panel.buttons.keys() == {"roll", "new_bombardment"}
    assert "Next: the United States Phase." in text(panel, "this_phase_next")

    # Turn 1 Phase 1, Germany: the dice, then the Forward Observer ranges and places the hidden die.
    roll_command_dice(qtbot, window, "1 2 3 4 5")
    assert game.sides[0].held_dice == [1, 2, 3, 4]
    assert "roll" not in panel.buttons
    assert text(panel, "this_phase_held").startswith("Held: 1 (a Team")
    assert game.actions[-1].name == "coc.command_dice" and list(game.actions[-1].dice) == [1, 2, 3, 4, 5]
    assert bombardments(window).place_bombardment(0, "high_explosive", 5, AIM, OBSERVER)
    bid = next(iter(game.bombardments))
    click(qtbot, panel.buttons[f"range_{bid}"])
    ranging = bombardments(window).dialog
    assert isinstance(ranging, RangingDialog)
    type_dice(ranging.runner, "4 4")
    click(qtbot, ranging.runner.apply_button)
    click(qtbot, panel.buttons[f"pattern_{bid}"])
    pattern = bombardments(window).dialog
    assert isinstance(pattern, PatternDialog)
    pattern.choose(2, None)
    box = pattern.findChild(QDialogButtonBox)
    assert box is not None
    click(qtbot, box.button(QDialogButtonBox.StandardButton.Ok))
    dialog = fire(qtbot, window, bid)
    click(qtbot, dialog.runner.roll_button)
    click(qtbot, dialog.runner.apply_button)
    b = game.bombardments[bid]
    assert (b.phases_fired, b.last_fired) == (1, PhaseStamp(1, 1))
    assert f"fire_{bid}" not in panel.buttons  # once a Phase

    # Phase 2, the United States: Germany's bombardment is not theirs to fire.
    end_phase(qtbot, window)
    assert (game.turn, game.phase, game.active_side) == (1, 2, 1)
    assert game.sides[0].held_dice == []
    roll_command_dice(qtbot, window, "2 2 3 3 4")
    assert not any(key.startswith("fire_") for key in panel.buttons)
    end_phase(qtbot, window)

    # Phase 3, Germany: a held 1 activates it and is spent.
    assert (game.phase, game.active_side) == (3, 0)
    assert "Command Dice not rolled yet: activate with a Chain of Command point (1 held)" in " ".join(
        label.text() for label in panel.findChildren(QLabel))  # a 1 is not known before the roll
    roll_command_dice(qtbot, window, "1 3 3 4 5")
    assert "held Command Dice 1" in " ".join(label.text() for label in panel.findChildren(QLabel))
    dialog = fire(qtbot, window, bid)
    assert dialog.activation == "command_die"
    click(qtbot, dialog.runner.roll_button)
    click(qtbot, dialog.runner.apply_button)
    assert game.bombardments[bid].phases_fired == 2
    assert 1 not in game.sides[0].held_dice
    end_phase(qtbot, window)

    # Phase 4, the United States roll three 6s: End Phase ends the Turn and they take the next Phase too,
    # so Germany's bombardment loses that Phase.
    roll_command_dice(qtbot, window, "6 6 6 2 3")
    assert "the Turn ends after this Phase" in text(panel, "this_phase_follows")
    assert "Next: the Turn ends." in text(panel, "this_phase_next")
    assert "the Turn end takes" in " ".join(label.text() for label in panel.findChildren(QLabel))
    left = game.bombardments[bid].phases_left
    end_phase(qtbot, window)
    assert (game.turn, game.phase, game.active_side) == (2, 1, 1)
    assert game.bombardments[bid].phases_left == left - 1
    roll_command_dice(qtbot, window, "2 3 4 5 5")
    end_phase(qtbot, window)

    # Turn 2 Phase 2, Germany: no 1 and no Chain of Command point, so contact is lost and it ends.
    assert (game.turn, game.phase, game.active_side) == (2, 2, 0)
    session.act("side.change", {"side": 0, "value": "coc_points", "delta": -game.sides[0].coc_points})
    if game.sides[0].coc_tally:  # the loose Chain of Command points too: one would activate the bombardment
        session.apply("Spend the Chain of Command points", [ChangeCocTally(0, -game.sides[0].coc_tally)])
    roll_command_dice(qtbot, window, "2 3 4 4 2")
    assert "no Chain of Command point: contact is lost" in " ".join(
        label.text() for label in panel.findChildren(QLabel))
    dialog = fire(qtbot, window, bid)
    assert dialog.activation == "none"  # preselected from what the side holds, not ticked by the player
    click(qtbot, dialog.runner.roll_button)
    click(qtbot, dialog.runner.apply_button)
    assert game.bombardments[bid].state == "lingering"
    assert f"fire_{bid}" not in panel.buttons
    labels = [label.text() for label in panel.findChildren(QLabel)]
    assert "1st Squad is no longer Pinned" in labels  # what this Phase's end lets go, in the rules' words
    end_phase(qtbot, window)
    assert all(not u.has("pinned") for u in game.units.values())


def test_new_bombardment_re_aim_and_fire_for_effect_start_the_bombardments_docks_own_steps(
        qtbot: QtBot, window: MainWindow) -> None:
    game = window.session.game
    panel = this_phase(window)
    click(qtbot, panel.buttons["new_bombardment"])
    assert isinstance(bombardments(window).dialog, NewBombardmentDialog)

    roll_command_dice(qtbot, window, "1 2 3 4 5")
    assert bombardments(window).place_bombardment(0, "high_explosive", 5, AIM, OBSERVER)
    bid = next(iter(game.bombardments))
    click(qtbot, panel.buttons[f"range_{bid}"])
    ranging = bombardments(window).dialog
    assert isinstance(ranging, RangingDialog)
    ranging.set_bearing.setChecked(True)
    ranging.bearing.setValue(90.0)
    type_dice(ranging.runner, "3 3", "2 2 2")
    click(qtbot, ranging.runner.apply_button)
    assert game.bombardments[bid].state == "landed"
    end_phase(qtbot, window)
    roll_command_dice(qtbot, window, "2 2 3 3 4")
    end_phase(qtbot, window)
    roll_command_dice(qtbot, window, "1 2 3 4 4")

    click(qtbot, panel.buttons[f"re_aim_{bid}"])
    view = window.map
    assert view.picking
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     view.mapFromScene(QPointF(30.0, 30.0)))
    assert game.actions[-1].name == "coc.re_aim" and game.bombardments[bid].state == "ranging"
    window.session.undo_stack.undo()
    assert game.bombardments[bid].state == "landed"
    click(qtbot, panel.buttons[f"fire_for_effect_{bid}"])
    assert game.actions[-1].name == "coc.fire_for_effect" and game.bombardments[bid].state == "ready"


@pytest.mark.parametrize(("faces", "clock"), [
    ("1 2 3 4 5", (1, 2, 1)), ("1 2 3 4 6", (1, 2, 1)), ("1 2 3 6 6", (1, 2, 0)),
    ("1 2 6 6 6", (2, 1, 0)), ("1 6 6 6 6", (2, 1, 0)), ("6 6 6 6 6", (2, 1, 0)),
])
def test_every_count_of_sixes_through_the_toolbars_end_phase(qtbot: QtBot, window: MainWindow, faces: str,
                                                             clock: tuple[int, int, int]) -> None:
    game = window.session.game
    before = savefile.dumps(game)
    roll_command_dice(qtbot, window, faces)
    end_phase(qtbot, window)
    assert (game.turn, game.phase, game.active_side) == clock
    this_phase(window)
    for _ in range(2):
        window.session.undo_stack.undo()
    assert savefile.dumps(game) == before


@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing the keyboard")  # a popped-up menu
def test_the_panel_never_offers_what_the_rules_refuse(qtbot: QtBot, window: MainWindow) -> None:
    game = window.session.game
    panel = this_phase(window)
    roll_command_dice(qtbot, window, "2 2 4 5 5")
    assert "roll" not in panel.buttons  # once a Phase
    assert {k for k in panel.buttons if k.startswith("spend_")} == {"spend_2", "spend_4"}
    activate = panel.menus["spend_4"].findChild(QAction, "spend_4_u5")
    assert activate is not None and activate.text() == "Activate Leutnant Kraus (a Senior Leader: needs a 4)"
    assert panel.menus["spend_4"].findChild(QAction, "spend_4_u1") is None  # a 4 never activates a Section
    assert panel.menus["spend_2"].findChild(QAction, "spend_2_u4") is None  # a Team needs a 1
    assert panel.menus["spend_2"].findChild(QAction, "spend_2_u1") is not None
    assert panel.menus["combine"].findChild(QAction, "combine_2+2_u5") is not None  # two 2s make a 4
    pick(qtbot, panel.buttons["spend_4"], "spend_4_u5")
    assert game.sides[0].held_dice == [2, 2]
    assert "spend_4" not in panel.buttons
    assert text(panel, "this_phase_activated_u5") == "Leutnant Kraus: Activated (Command Dice 4); 2 Orders left"
    assert panel.menus["orders_u5"].findChild(QAction, "order_u5_u4") is not None
    window.session.act("unit.figures", {"unit": "u4", "delta": -game.units["u4"].figures})
    assert panel.menus["orders_u5"].findChild(QAction, "order_u5_u4") is None  # out of play
    assert panel.menus["orders_u5"].findChild(QAction, "order_u5_u3") is None  # 15.8" away: out of range
    this_phase(window)  # the player looks at the dock again
    pick(qtbot, panel.buttons["orders_u5"], "order_u5_u2")
    assert text(panel, "this_phase_activated_u2") == "2. Gruppe: Activated (Order from Leutnant Kraus)"
    assert panel.menus["spend_2"].findChild(QAction, "spend_2_u2") is None  # activated already
    card = window.cards.card("u5")
    assert card is not None
    state = card.findChild(QLabel, "activation_state")
    assert state is not None and state.text() == "Activated (Command Dice 4); 1 Order left"
    end_phase(qtbot, window)
    card = window.cards.card("u5")
    assert card is not None
    state = card.findChild(QLabel, "activation_state")
    assert state is not None and state.text() == "Not activated: a 4 or an Order"
    session = window.session
    session.act("unit.condition", {"unit": "u11", "condition": "halt_and_engage_this_phase"})
    labels = " ".join(label.text() for label in panel.findChildren(QLabel))
    assert "Sherman 'Lucky': Halt and engage this Phase" in labels
    session.act("unit.figures", {"unit": "u11", "delta": -game.units["u11"].figures})
    assert not game.units["u11"].in_play
    assert "Sherman" not in " ".join(label.text() for label in panel.findChildren(QLabel))


def test_a_force_morale_test_from_the_agenda_lowers_force_morale_as_one_undo_step(
        qtbot: QtBot, window: MainWindow) -> None:
    session = window.session
    game = session.game
    session.apply("Sniper killed", [queue_test(game, 1, "sniper_killed")], ["Sniper killed"])
    before = savefile.dumps(game)
    morale = game.sides[1].force_morale
    steps = session.undo_stack.count()
    panel = this_phase(window)
    item = game.sides[1].agenda[0].id
    click(qtbot, panel.buttons[f"morale_{item}"])
    dialog = QApplication.activeModalWidget()
    assert isinstance(dialog, ForceMoraleDialog)
    assert dialog.widget("row").currentData() == "support_killed"
    type_dice(dialog.runner, "4")
    click(qtbot, dialog.runner.apply_button)
    assert game.sides[1].force_morale == morale - 2 and game.sides[1].agenda == []
    assert session.undo_stack.count() == steps + 1
    assert f"morale_{item}" not in panel.buttons
    session.undo_stack.undo()
    assert savefile.dumps(game) == before


def test_a_team_wiped_out_on_its_card_is_offered_in_the_dock_and_its_button_takes_the_test(
        qtbot: QtBot, window: MainWindow) -> None:
    session = window.session
    game = session.game
    before = savefile.dumps(game)
    session.act("unit.figures", {"unit": "u4", "delta": -2})  # the Panzerschreck's last two figures
    [item] = game.sides[0].agenda
    assert item.event == "support_killed"
    panel = this_phase(window)
    labels = [label.text() for label in panel.findChildren(QLabel)]
    assert "<b>Force Morale Tests due</b>" in labels
    assert "Germany: Force Morale Test, Panzerschreck: Support Team killed" in labels
    click(qtbot, panel.buttons[f"morale_{item.id}"])
    dialog = QApplication.activeModalWidget()
    assert isinstance(dialog, ForceMoraleDialog)
    assert dialog.widget("row").currentData() == "support_killed"
    type_dice(dialog.runner, "4")
    click(qtbot, dialog.runner.apply_button)
    assert game.sides[0].force_morale == 7 and game.sides[0].agenda == []
    assert f"morale_{item.id}" not in panel.buttons
    session.undo_stack.undo()
    session.undo_stack.undo()
    assert savefile.dumps(game) == before


def test_an_illegible_cell_asks_the_rulebooks_loss_in_the_dialog(qtbot: QtBot, window: MainWindow) -> None:
    session = window.session
    game = session.game
    session.apply("AFV lost", [queue_test(game, 0, "afv_lost")], ["AFV lost"])
    panel = this_phase(window)
    click(qtbot, panel.buttons[f"morale_{game.sides[0].agenda[0].id}"])
    dialog = QApplication.activeModalWidget()
    assert isinstance(dialog, ForceMoraleDialog)
    runner = dialog.runner
    type_dice(runner, "3", complete=False)
    assert runner.choice_box.isVisible() and "rulebook" in runner.prompt.text()
    runner.choice_box.setCurrentIndex(runner.choice_box.findData("2"))
    click(qtbot, runner.entry_ok)
    assert runner.result is not None and runner.result.values["loss"] == 2
    morale = game.sides[0].force_morale
    click(qtbot, runner.apply_button)
    assert game.sides[0].force_morale == morale - 2
    assert game.actions[-1].choices == {"agenda_id": "a1", "row": "afv_knocked_out", "rulebook_loss": "2"}


def test_end_turn_by_hand_asks_first(qtbot: QtBot, window: MainWindow) -> None:
    game = window.session.game
    seen: list[str] = []

    def answer(button: QMessageBox.StandardButton) -> None:
        def click_box() -> None:
            box = QApplication.activeModalWidget()
            if isinstance(box, QMessageBox):
                seen.append(box.text())
                qtbot.mouseClick(box.button(button), Qt.MouseButton.LeftButton)
            else:
                QTimer.singleShot(10, click_box)
        QTimer.singleShot(0, click_box)

    answer(QMessageBox.StandardButton.No)
    window.end_turn_action.trigger()
    assert game.turn == 1 and seen
    answer(QMessageBox.StandardButton.Yes)
    window.end_turn_action.trigger()
    assert (game.turn, game.phase) == (2, 1)


def test_fuel_and_buildings_due_to_collapse_are_shown(qtbot: QtBot, session: Session, tmp_path: Path) -> None:
    game = session.game
    game.units["u1"].weapons.append(Weapon("Flamethrower", kind="flamethrower", ammo=2, ammo_max=3,
                                           ammo_label="fuel"))
    game.buildings["bld1"] = Building("bld1", "Farmhouse", 10.0, 10.0, state="unstable")
    win = MainWindow(session, Recovery(session, tmp_path))
    win.feature_host.load()
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.show()
    labels = [label.text() for label in this_phase(win).findChildren(QLabel)]
    assert "1. Gruppe: Flamethrower, fuel for 2 more Phases of fire" in labels
    assert "Farmhouse collapses at the end of the Turn." in labels
    assert win.statusBar().currentMessage() == "Germany: roll the Command Dice for this Phase (This Phase dock)."


def test_an_action_dialog_shows_its_plans_facts_in_the_facts_panel(qtbot: QtBot, window: MainWindow) -> None:
    panel = this_phase(window)
    click(qtbot, panel.buttons["roll"])
    dialog = QApplication.activeModalWidget()
    assert isinstance(dialog, CommandDiceDialog)
    planned = plan("coc.command_dice", window.session.game, {})
    assert planned.facts and isinstance(dialog.facts, FactsPanel) and dialog.facts.facts() == planned.facts
    dialog.reject()


def test_a_refused_spend_shows_in_the_docks_refusal_banner(qtbot: QtBot, window: MainWindow) -> None:
    game = window.session.game
    panel = this_phase(window)
    roll_command_dice(qtbot, window, "2 2 4 5 5")
    activate = panel.menus["spend_4"].findChild(QAction, "spend_4_u5")
    assert activate is not None
    game.sides[0].held_dice = [2, 2]  # the 4 spent meanwhile, and the dock not yet told
    activate.trigger()
    assert_refusal(panel.refusal, "Not applied:")
    assert game.sides[0].held_dice == [2, 2]
    window.session.act("unit.shock", {"unit": "u5", "delta": 1})
    assert not panel.refusal.refused(), "a change to the game takes the old refusal away"


def test_the_command_dice_odds_read_as_sentences(qtbot: QtBot, window: MainWindow) -> None:
    """The outcomes in the Command Dice dialog's odds are said as written, not a comma after each word."""
    click(qtbot, this_phase(window).buttons["roll"])
    dialog = QApplication.activeModalWidget()
    assert isinstance(dialog, CommandDiceDialog)
    table = dialog.runner.odds_plot.table
    shown = {table.item(row, 0).text() for row in range(table.rowCount())}
    assert shown == {"the other side's Phase next", "the same side takes the next Phase",
                     "the Turn ends after this Phase",
                     "the Turn ends after this Phase, with a Chain of Command die and a random event"}
    dialog.reject()


def test_while_replaying_the_panel_shows_what_was_due_with_its_buttons_off(qtbot: QtBot, window: MainWindow) -> None:
    unit = next(iter(window.session.game.units))
    window.session.act("unit.shock", {"unit": unit, "delta": 1})
    panel = this_phase(window)
    assert panel.buttons["roll"].isEnabled()
    window.replay.start()
    assert window.statusBar().currentMessage() == ""  # the prompt to roll was of the game being played
    roll = panel.buttons["roll"]
    assert not roll.isEnabled() and "replay" in roll.toolTip()
    qtbot.mouseClick(roll, Qt.MouseButton.LeftButton)
    assert not [w for w in top_level_widgets() if isinstance(w, CommandDiceDialog) and w.isVisible()]
    window.session.stop_replay()
    assert panel.buttons["roll"].isEnabled()


@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing the keyboard")  # a popped-up menu
def test_a_name_with_an_ampersand_shows_it_in_the_menu_not_as_a_shortcut(qtbot: QtBot, window: MainWindow) -> None:
    game = window.session.game
    game.units["u5"].name = "Kraus & Sohn"
    panel = this_phase(window)
    roll_command_dice(qtbot, window, "2 2 4 5 5")
    activate = panel.menus["spend_4"].findChild(QAction, "spend_4_u5")
    assert activate is not None and activate.text().startswith("Activate Kraus && Sohn (")  # shown "Kraus & Sohn"


def test_the_reminder_to_roll_goes_once_the_command_dice_are_rolled(qtbot: QtBot, window: MainWindow) -> None:
    window.session.end_phase()
    assert window.statusBar().currentMessage().endswith(": roll the Command Dice for this Phase (This Phase dock).")
    side = window.session.game.active_side
    roll_command_dice(qtbot, window, "1 2 3 4 4")
    assert window.session.game.sides[side].held_dice
    assert "roll the Command Dice" not in window.statusBar().currentMessage()


def test_rows_the_dock_takes_out_never_show_as_windows_of_their_own(qtbot: QtBot, window: MainWindow) -> None:
    roll_command_dice(qtbot, window, "1 2 3 4 4")
    window.session.end_phase()
    window.session.undo_stack.undo()
    qtbot.wait(0)
    stray = [w for w in top_level_widgets() if w.isVisible() and w is not window and type(w).__name__ != "QMenu"]
    assert not stray, [(type(w).__name__, w.objectName()) for w in stray]
