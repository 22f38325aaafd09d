"""Every refusal a player meets outside the procedure dialogs' own banners shows in the one shared red banner.

Each case is a player's click that the rules or the game refuse: the Apply of a
This Phase dialog, the OK of a bombardment row's form, a click in the
Bombardments dock, a card's button. The colours come from one place, so light
and dark mode show a refusal alike.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.rules.necromunda.conditions import SUPPRESSED
from battletracker.ui.features.bombardments import BombardmentLayer
from battletracker.ui.features.bombardments import BombardmentsPanel
from battletracker.ui.features.necromunda.fighter_card import FighterSection
from battletracker.ui.features.support_fire.cards import SniperSection
from battletracker.ui.features.this_phase import CommandDiceDialog
from battletracker.ui.map.view import MapView
from battletracker.ui.procedure_parts import RefusalBanner
from battletracker.ui.session import Session
from battletracker.ui.theme import REFUSAL_BACKGROUND
from battletracker.ui.theme import REFUSAL_TEXT
from tests.ui.dice_entry import type_dice
from tests.ui.refusals import assert_refusal

AIM = (24.0, 38.0)
OBSERVER = (30.0, 20.0)


def _panel(qtbot: QtBot, session: Session) -> tuple[BombardmentsPanel, MapView]:
    view = MapView(session)
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    panel = BombardmentsPanel(session, view)
    panel.layer = BombardmentLayer(session, view, panel)
    qtbot.addWidget(panel)
    panel.resize(420, 600)
    panel.show()
    return panel, view


def test_the_banner_reads_the_same_in_light_and_dark_mode(qtbot: QtBot) -> None:
    banner = RefusalBanner()
    qtbot.addWidget(banner)
    banner.show_refusal("Not applied.")
    assert REFUSAL_TEXT in banner.styleSheet() and REFUSAL_BACKGROUND in banner.styleSheet()
    banner.set_refusal(None)
    assert not banner.refused() and banner.text() == ""


def test_command_dice_applied_twice_is_refused_in_the_banner(qtbot: QtBot, session: Session) -> None:
    dialog = CommandDiceDialog(session)
    qtbot.addWidget(dialog)
    dialog.show()
    type_dice(dialog.runner, "1 2 3 4 5")
    session.act("coc.command_dice", {}, [6, 6, 5, 4, 3])  # rolled meanwhile, from another window
    qtbot.mouseClick(dialog.runner.apply_button, Qt.MouseButton.LeftButton)
    assert_refusal(dialog.refusal, "already rolled its Command Dice this Phase")
    assert dialog.isVisible() and session.undo_stack.count() == 1


def test_a_row_form_whose_bombardment_is_gone_is_refused_in_the_banner(qtbot: QtBot, session: Session) -> None:
    panel, _view = _panel(qtbot, session)
    assert panel.place_bombardment(0, "high_explosive", 3, AIM, OBSERVER)
    (bid,) = session.game.bombardments
    dialog = panel.open_add_rounds(bid)
    session.undo_stack.undo()  # the bombardment is taken back while the form is open
    box = dialog.findChild(QDialogButtonBox)
    assert box is not None
    qtbot.mouseClick(box.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert_refusal(dialog.problem, "That bombardment is no longer on the table")
    assert dialog.isVisible() and not session.game.bombardments


def test_a_click_on_the_map_outside_any_building_is_refused_in_the_dock(qtbot: QtBot, session: Session) -> None:
    panel, view = _panel(qtbot, session)
    assert panel.place_building("Farmhouse", (22.0, 38.0), 6.0, 4.0, 0.0, "brick_stone", 2)
    panel.start_enter_building("u7")
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     view.mapFromScene(QPointF(50.0, 10.0)))
    assert_refusal(panel.problem, "No building ")


def test_the_sniper_card_shows_a_refused_click_in_the_banner(qtbot: QtBot, session: Session) -> None:
    holder = QWidget()
    qtbot.addWidget(holder)
    section = SniperSection(holder, session, "u9")
    holder.show()
    sniper = session.game.units["u9"]
    sniper.kind, sniper.weapons = "team", []  # no longer a sniper, and the card not yet told
    qtbot.mouseClick(section.contact, Qt.MouseButton.LeftButton)
    assert_refusal(section.problem, "is not a sniper")


def test_the_fighter_card_shows_a_refused_click_in_the_banner(qtbot: QtBot) -> None:
    game = Game(title="Underhive", ruleset="necromunda", table_width=36, table_height=36,
                sides=[Side("Goliaths", "#3b6fb6"), Side("Escher", "#b5651d")])
    game.units["a"] = Unit("a", "Kal", "fighter", 0, 10, 10, stats={"bs": 4, "cool": 7})
    session = Session(game)
    holder = QWidget()
    qtbot.addWidget(holder)
    section = FighterSection(holder, session, "a")
    section.refresh(game.units["a"])
    holder.show()
    game.units["a"].conditions.append(SUPPRESSED)  # suppressed meanwhile, and the card not yet told
    qtbot.mouseClick(section.toggles[SUPPRESSED], Qt.MouseButton.LeftButton)
    assert_refusal(section.message, "already")
    assert session.undo_stack.count() == 0
