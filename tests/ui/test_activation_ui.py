"""A German Phase on the demo from the cards and a Fire dialog, pressing their real buttons: the units are
activated as the rules allow, each fires once, and nothing the plan would refuse is offered."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.rules.chain_of_command.activation import current
from battletracker.ui.features.support_fire import FireDialog
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session
from tests.ui.menus import entries
from tests.ui.menus import pick

GRUPPE, GRUPPE_2, KRAUS, SQUAD = "u1", "u2", "u5", "u7"
# The offscreen platform, popping up a menu.
pytestmark = pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing the keyboard")


@pytest.fixture
def window(qtbot: QtBot, session: Session, tmp_path: Path) -> MainWindow:
    session.game.terrain.clear()
    win = MainWindow(session, Recovery(session, tmp_path))
    win.feature_host.load()
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.resize(1366, 768)
    win.show()
    qtbot.waitExposed(win)
    return win


def card_button(window: MainWindow, unit_id: str, name: str) -> QPushButton:
    card = window.cards.card(unit_id)
    assert card is not None
    button = card.findChild(QPushButton, name)
    assert button is not None
    return button


def test_a_german_phase_from_the_cards_and_the_fire_dialog(qtbot: QtBot, window: MainWindow) -> None:
    session = window.session
    game = session.game
    assert card_button(window, GRUPPE, "activate").isHidden()  # nothing held before the roll
    session.act("coc.command_dice", {}, [2, 4, 1, 3, 5])
    # Leutnant Kraus's card offers the 4, or a 1 and a 3 combined, and never another face alone.
    assert entries(qtbot, card_button(window, KRAUS, "activate")) == {
        "activate_dice:4": "With a held Command Dice 4", "activate_dice:1+3": "With held Command Dice 1 and 3 combined"}
    pick(qtbot, card_button(window, KRAUS, "activate"), "activate_dice:4")
    assert current(game, game.unit(KRAUS)) is not None and game.sides[0].held_dice == [1, 2, 3]
    orders = entries(qtbot, card_button(window, KRAUS, "orders"))
    assert "order_u2" in orders and "order_u3" not in orders  # the sMG42 team is beyond 9"
    pick(qtbot, card_button(window, KRAUS, "orders"), "order_u2")
    assert game.unit(GRUPPE_2).activation is not None and game.unit(GRUPPE_2).activation.leader == KRAUS

    # The Fire dialog asks how 1. Gruppe is activated, offering only the held 2.
    dialog = FireDialog(session, GRUPPE)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.set_target(SQUAD)
    ways = dialog.activation.ways
    assert ways.isVisibleTo(dialog) and [ways.itemData(i) for i in range(ways.count())] == ["dice:2"]
    runner = dialog.runner
    assert runner is not None and runner.isVisibleTo(dialog)
    # The table's dice, typed and entered with the keyboard: seven 1s, no hit.
    qtbot.mouseClick(runner.typed_button, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(runner.entry, "1 1 1 1 1 1 1")
    qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    assert dialog.isVisible(), "Enter in the dice field keeps the dialog"
    qtbot.mouseClick(runner.apply_button, Qt.MouseButton.LeftButton)
    act = game.unit(GRUPPE).activation
    assert act is not None and act.dice == [2] and act.done == ["fire"]
    assert game.sides[0].held_dice == [1, 3]
    # It has fired: the dialog says so and offers no second roll.
    assert not runner.isVisibleTo(dialog) or not runner.roll_button.isEnabled()
    assert "has already fired this Phase" in dialog.refusal.text() or not runner.roll_button.isEnabled()
    card = window.cards.card(GRUPPE)
    assert card is not None
    state = card.findChild(QLabel, "activation_state")
    assert state is not None and state.text() == "Activated (Command Dice 2): fired"
    # Each step undoes exactly.
    before_roll = savefile.dumps(game)
    session.undo_stack.undo()
    assert game.unit(GRUPPE).activation is None and game.sides[0].held_dice == [1, 2, 3]
    session.undo_stack.redo()
    assert savefile.dumps(game) == before_roll
