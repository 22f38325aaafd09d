"""A bombardment row's menu: the owner's peek at the hidden die, extra rounds and the area, each undoable."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.rules.chain_of_command.bombardment import AreaOptions
from battletracker.ui.features.bombardments import BombardmentsPanel
from battletracker.ui.features.bombardments.row_menu import AreaDialog
from battletracker.ui.features.bombardments.row_menu import PeekPopup
from battletracker.ui.features.bombardments.row_menu import RoundsDialog
from battletracker.ui.session import Session
from tests.ui.dice_entry import command_dice_for
from tests.ui.dice_entry import type_dice
from tests.ui.test_bombardments import items
from tests.ui.test_bombardments import panel
from tests.ui.test_bombardments import shown_text
from tests.ui.test_bombardments import start
from tests.ui.test_bombardments import view

__all__ = ["panel", "view"]


def with_hidden_die(panel: BombardmentsPanel) -> str:
    bid = start(panel)
    command_dice_for(panel.session, bid)
    ranging = panel.open_ranging(bid)
    type_dice(ranging.runner, "4 4")
    ranging.runner.apply()
    pattern = panel.open_pattern(bid)
    pattern.choose(5, "right")
    pattern.place()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return bid


def test_peek_asks_first_and_shows_the_die_only_in_its_popup(qtbot: QtBot, session: Session,
                                                             panel: BombardmentsPanel) -> None:
    bid = with_hidden_die(panel)
    row = panel.rows[bid]
    assert set(row.menu_actions) == {"peek", "rounds", "area"}
    steps = session.undo_stack.count()
    row.menu_actions["peek"].trigger()
    popup = panel.dialog
    assert isinstance(popup, PeekPopup)
    assert "Only Germany's player should look" in popup.warning.text()
    assert not popup.showing and "Rolling 9" not in shown_text(popup) and "5" not in popup.die.toolTip()
    popup.show_button.click()
    assert popup.showing and popup.die.face == 5
    assert "Rolling 9\" per move, right" in popup.meaning.text()
    assert "Rolling 9" not in shown_text(panel.rows[bid]), "never in the row"
    assert panel.rows[bid].pattern.covered
    log = "\n".join(entry.text for entry in session.game.log)
    assert "Rolling 9" not in log and session.undo_stack.count() == steps
    popup.timer.timeout.emit()
    assert not popup.isVisible() and popup.die.face is None and not popup.meaning.text()


def test_peek_times_out(qtbot: QtBot, session: Session, panel: BombardmentsPanel) -> None:
    bid = with_hidden_die(panel)
    popup = panel.open_peek(bid)
    popup.timer.setInterval(30)
    popup.reveal()
    qtbot.waitUntil(lambda: panel.dialog is None, timeout=20000)


def test_extra_rounds_one_undo_step(session: Session, panel: BombardmentsPanel) -> None:
    bid = with_hidden_die(panel)
    before = savefile.game_to_dict(session.game)
    steps = session.undo_stack.count()
    panel.rows[bid].menu_actions["rounds"].trigger()
    dialog = panel.dialog
    assert isinstance(dialog, RoundsDialog)
    dialog.rounds.setValue(2)
    dialog.submit()
    b = session.game.bombardments[bid]
    assert b.phases_left == 5 and b.extra_rounds == 2
    assert session.undo_stack.count() == steps + 1
    assert panel.rows[bid].phases.face == 5
    assert "2 extra rounds bought" in session.game.log[-1].text
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_no_extra_rounds_before_the_bombardment_begins(session: Session, panel: BombardmentsPanel) -> None:
    bid = start(panel)
    assert "rounds" not in panel.rows[bid].menu_actions
    assert panel.add_rounds_error(bid, 1) is not None and session.undo_stack.count() == 1


def test_edit_area_one_undo_step_and_refusal_inline(session: Session, panel: BombardmentsPanel) -> None:
    bid = with_hidden_die(panel)
    before = savefile.game_to_dict(session.game)
    steps = session.undo_stack.count()
    panel.rows[bid].menu_actions["area"].trigger()
    dialog = panel.dialog
    assert isinstance(dialog, AreaDialog)
    assert not dialog.radius.isEnabled()
    dialog.shape.setCurrentIndex(dialog.shape.findData("circle"))
    assert dialog.radius.isEnabled() and not dialog.width_box.isEnabled()
    dialog.radius.setValue(5.0)
    dialog.firepower_dice.setValue(4)
    dialog.submit()
    b = session.game.bombardments[bid]
    assert (b.shape, b.radius, b.firepower_dice) == ("circle", 5.0, 4)
    assert session.game.log[-1].text == ("Germany's mortars, first barrage: Area edited: "
                                         'a circle, radius 5", 4 Firepower Dice')
    assert session.undo_stack.count() == steps + 1
    assert items(panel)[f"area:{bid}"].rect().width() == 10.0  # type: ignore[attr-defined]
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before

    again = panel.open_edit_area(bid)
    again.submit()
    assert session.undo_stack.index() == steps and session.undo_stack.canRedo(), "nothing changed is no step"
    assert "must be rectangle or circle" in str(panel.edit_area_error(bid, AreaOptions(shape="hexagon")))
    refused = panel.open_edit_area(bid)
    refused.on_submit = lambda: panel.edit_area_error(bid, AreaOptions(width=0.0))
    refused.submit()
    assert refused.isVisible() and refused.problem.isVisible()
    assert "must be more than 0 inches" in refused.problem.text()
    assert session.undo_stack.index() == steps and session.undo_stack.canRedo()


def test_extra_rounds_are_counted_in_words(session: Session, panel: BombardmentsPanel) -> None:
    """The form says "3 Phases of fire left now" and asks for a number of rounds, with no "(s)" to read past."""
    bid = with_hidden_die(panel)
    panel.rows[bid].menu_actions["rounds"].trigger()
    dialog = panel.dialog
    assert isinstance(dialog, RoundsDialog)
    left = session.game.bombardments[bid].phases_left
    words = [label.text() for label in dialog.findChildren(QLabel)]
    assert any(text.startswith(f"{left} Phases of fire left now.") for text in words), words
    assert not any("(s)" in text for text in [*words, dialog.rounds.text()]), words
    dialog.reject()


def test_while_replaying_the_rows_and_buttons_are_off(qtbot: QtBot, session: Session,
                                                      panel: BombardmentsPanel) -> None:
    """The replay shows each bombardment as it was; nothing in the dock can change it meanwhile."""
    bid = with_hidden_die(panel)
    assert panel.new_button.isEnabled() and panel.rows[bid].menu_button.isEnabled()
    session.start_replay()
    timeline = session.timeline
    assert timeline is not None
    session.show_step(len(session.live_game.actions))
    assert bid in panel.rows, "the replay's last step shows the bombardment"
    assert not panel.new_button.isEnabled() and not panel.sos_button.isEnabled()
    assert not panel.building_button.isEnabled()
    row = panel.rows[bid]
    assert not row.menu_button.isEnabled() and all(not button.isEnabled() for button in row.buttons.values())
    session.stop_replay()
    assert panel.new_button.isEnabled() and panel.rows[bid].menu_button.isEnabled()
