"""The Bombardments dock and map layer walking a bombardment through its states on the demo battle."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import QEvent
from PySide6.QtCore import QPointF
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton
from PySide6.QtWidgets import QDockWidget
from PySide6.QtWidgets import QGraphicsItem
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.sequence_effects import ChangeCocTally
from battletracker.ui.features.bombardments import BombardmentLayer
from battletracker.ui.features.bombardments import BombardmentsPanel
from battletracker.ui.features.bombardments.dialogs import PatternDialog
from battletracker.ui.features.bombardments.dialogs import PhaseDialog
from battletracker.ui.features.bombardments.dialogs import RangingDialog
from battletracker.ui.map.view import MapView
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.session import Session
from tests.ui.dice_entry import command_dice_for
from tests.ui.dice_entry import type_dice
from tests.ui.picking import NO_RAISE
from tests.ui.picking import choose_with_keys
from tests.ui.picking import click_on_map

AIM = (24.0, 38.0)
OBSERVER = (30.0, 20.0)


@pytest.fixture
def view(qtbot: QtBot, session: Session) -> MapView:
    v = MapView(session)
    qtbot.addWidget(v)
    v.resize(1000, 700)
    v.show()
    qtbot.waitExposed(v)
    return v


@pytest.fixture
def panel(qtbot: QtBot, session: Session, view: MapView) -> BombardmentsPanel:
    p = BombardmentsPanel(session, view)
    p.layer = BombardmentLayer(session, view, p)
    qtbot.addWidget(p)
    p.resize(420, 600)
    p.show()
    return p


def type_all(runner: ProcedureRunner, face: int) -> None:
    """Answer every die the procedure asks for with the same face."""
    runner.start_typed()
    while runner.entry_row.isVisible():
        count = int(runner.prompt.text().split("roll ")[1].split(" ")[0].replace("one", "1"))
        runner.entry.setText(" ".join([str(face)] * count))
        runner.submit_entry()
        assert not runner.entry_error.isVisible(), runner.entry_error.text()
    assert runner.result is not None


def shown_text(widget: QWidget) -> str:
    """Everything the panel shows or says: labels, buttons, tooltips and accessible names."""
    parts: list[str] = []
    for child in [widget, *widget.findChildren(QWidget)]:
        if isinstance(child, QLabel):
            parts.append(child.text())
        if isinstance(child, QAbstractButton):
            parts.append(child.text())
        parts.extend([child.toolTip(), child.accessibleName()])
    return "\n".join(parts)


def items(panel: BombardmentsPanel) -> dict[str, QGraphicsItem]:
    assert panel.layer is not None
    return panel.layer.items


def start(panel: BombardmentsPanel) -> str:
    assert panel.place_bombardment(0, "high_explosive", 3, AIM, OBSERVER)
    return next(iter(panel.session.game.bombardments))


def test_the_panel_walks_a_bombardment_through_its_states(qtbot: QtBot, session: Session, panel: BombardmentsPanel,
                                                           view: MapView) -> None:
    start_state = savefile.game_to_dict(session.game)
    bid = start(panel)
    game = session.game
    steps = session.undo_stack.count()
    assert steps == 1
    row = panel.rows[bid]
    assert row.phases.face == 3 and "range" in row.buttons
    assert "aim:" + bid in items(panel)

    # a ranging shot with typed dice: 3+3 = 6 deviates 3D6", here 6" along bearing 90
    row.buttons["range"].click()
    dialog = panel.dialog
    assert isinstance(dialog, RangingDialog)
    dialog.set_bearing.setChecked(True)
    dialog.bearing.setValue(90.0)
    # each activation of the Forward Observer waits for the side's Command Dice, then spends a held 1
    assert "Roll Germany's Command Dice for this Phase first" in dialog.problem.text()
    assert not dialog.runner.isEnabled()
    session.act("coc.command_dice", {}, dice=[1, 2, 3, 4, 4])
    steps += 1
    assert "Activated with a Command Dice 1" in dialog.facts.text()
    assert dialog.runner.odds_plot.isVisible() or dialog.runner.roll_button.isEnabled()
    type_dice(dialog.runner, "3 3", "2 2 2")
    assert dialog.runner.result is not None and dialog.runner.result.outcome == "deviates"
    dialog.runner.apply_button.click()
    assert session.undo_stack.count() == steps + 1
    steps += 1
    b = game.bombardments[bid]
    assert b.state == "landed" and (b.landed_x, b.landed_y) == pytest.approx((30.0, 38.0))
    assert game.sides[0].held_dice == [2, 3, 4, 4]
    assert any(key.startswith(f"shot_line:{bid}") for key in items(panel))
    assert any(getattr(item, "text", lambda: "")() == '6.0"' for item in items(panel).values())

    # fire for effect waits for the Forward Observer's next activation, in a later Phase of its side
    assert not panel.rows[bid].buttons
    for _ in range(2):
        session.end_phase()
        steps += 1

    # fire for effect on the landing point: no 1 held, so the side's Chain of Command die is broken into points
    session.act("coc.command_dice", {}, dice=[2, 2, 3, 4, 4])
    steps += 1
    row = panel.rows[bid]
    assert {"fire_for_effect", "re_aim"} <= set(row.buttons)
    assert row.buttons["fire_for_effect"].toolTip() == (
        "Activated with a Chain of Command point (5 points left): a Chain of Command die is broken into its 6 points")
    row.buttons["fire_for_effect"].click()
    assert (game.sides[0].coc_points, game.sides[0].coc_tally) == (0, 5)
    assert session.undo_stack.count() == steps + 1
    steps += 1
    assert b.state == "ready" and b.centre == pytest.approx((30.0, 38.0))
    assert f"area:{bid}" in items(panel)
    assert items(panel)[f"area:{bid}"].scene() is view.map_scene

    # the hidden die: Rolling 9" to the right, covered in the panel
    panel.rows[bid].buttons["pattern"].click()
    pattern = panel.dialog
    assert isinstance(pattern, PatternDialog)
    pattern.choose(5, "right")
    pattern.place()
    assert session.undo_stack.count() == steps + 1
    steps += 1
    assert b.pattern_die == 5 and not b.revealed
    row = panel.rows[bid]
    assert row.pattern.covered and row.pattern.face is None
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # the closed dialog
    shown = shown_text(panel)
    assert "Rolling 9" not in shown and "5:" not in shown and "right" not in shown.replace("Forward", "")
    log = "\n".join(entry.text for entry in game.log)
    assert "Rolling 9" not in log and "right" not in log
    assert not [k for k in items(panel) if k.startswith("ghost")], "ghosts would give the die away"

    # the first Phase of fire (the activation that began it counts)
    row.buttons["fire"].click()
    phase = panel.dialog
    assert isinstance(phase, PhaseDialog) and phase.activation == "begun"
    assert "1st Squad" in phase.targets_view.toPlainText()
    type_all(phase.runner, 3)
    phase.runner.apply_button.click()
    assert session.undo_stack.count() == steps + 1
    steps += 1
    assert b.state == "firing" and b.phases_fired == 1 and b.phases_left == 2
    assert panel.rows[bid].pattern.covered and panel.rows[bid].phases.face == 2

    for _ in range(2):
        session.end_phase()
        steps += 1

    # the next British Phase: a Command Dice 1; it moves 9" right and the die is revealed
    panel.rows[bid].buttons["fire"].click()
    phase = panel.dialog
    assert isinstance(phase, PhaseDialog)
    points = session.game.sides[0].coc_tally
    session.apply("Spend the Chain of Command points", [ChangeCocTally(0, -points)])
    steps += 1
    phase.set_activation("coc_point")
    assert phase.problem.isVisible()
    assert "Germany has no Chain of Command point (0 dice, 0 points of 6)" in phase.problem.text()
    phase.set_activation("command_die")
    type_all(phase.runner, 3)
    phase.runner.apply_button.click()
    assert session.undo_stack.count() == steps + 1
    assert b.revealed and b.centre == pytest.approx((39.0, 38.0))
    row = panel.rows[bid]
    assert not row.pattern.covered and row.pattern.face == 5
    assert "Rolling 9\" per move, right" in row.pattern.toolTip()
    assert [k for k in items(panel) if k.startswith(f"ghost:{bid}")] == [f"ghost:{bid}:1"]
    assert items(panel)[f"ghost:{bid}:1"].boundingRect().center().x() == pytest.approx(48.0)

    while session.undo_stack.canUndo():
        session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == start_state
    assert not panel.rows and not items(panel)


def test_new_bombardment_from_two_clicks_on_the_map(qtbot: QtBot, session: Session, panel: BombardmentsPanel,
                                                     view: MapView) -> None:
    panel.start_new(1, "smoke", 2)
    assert view.picking
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     view.mapFromScene(QPointF(*AIM)))
    assert view.picking, "then the Forward Observer's place"
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     view.mapFromScene(QPointF(*OBSERVER)))
    (b,) = session.game.bombardments.values()
    assert b.side == 1 and b.kind == "smoke" and b.phases_left == 2
    assert b.centre == pytest.approx(AIM, abs=0.2)
    assert session.undo_stack.count() == 1


def test_re_aim_and_refusals_show_in_the_panel(session: Session, panel: BombardmentsPanel) -> None:
    bid = start(panel)
    assert not panel.fire_for_effect(bid)
    assert panel.problem.isVisible() and "follows a ranging shot that deviated" in panel.problem.text()
    assert session.undo_stack.count() == 1
    assert not panel.place_bombardment(0, "high_explosive", 3, (99.0, 10.0), OBSERVER)
    assert "99 is off the table" in panel.problem.text()


def test_contact_lost_without_activation(session: Session, panel: BombardmentsPanel) -> None:
    bid = start(panel)
    game = session.game
    session.act("coc.command_dice", {}, dice=[1, 2, 3, 4, 4])
    command_dice_for(panel.session, bid)
    ranging = panel.open_ranging(bid)
    type_dice(ranging.runner, "4 4")
    ranging.runner.apply()
    assert game.bombardments[bid].state == "ready"
    pattern = panel.open_pattern(bid)
    pattern.choose(2, None)
    pattern.place()
    first = panel.open_phase(bid)
    type_all(first.runner, 3)
    first.runner.apply()
    session.end_phase()
    session.end_phase()
    second = panel.open_phase(bid)
    second.set_activation("none")
    assert "bombardment ends" in second.targets_view.toPlainText()
    type_all(second.runner, 3)
    assert second.runner.result is not None and second.runner.result.outcome == "contact_lost"
    second.runner.apply()
    assert game.bombardments[bid].state == "lingering"
    assert "wait" not in panel.rows[bid].buttons and "fire" not in panel.rows[bid].buttons


def test_sos_fire_rolls_for_each_unit_in_the_circle(session: Session, panel: BombardmentsPanel) -> None:
    start_state = savefile.game_to_dict(session.game)
    dialog = panel.create_sos(0, (22.0, 38.0))
    assert dialog is not None and session.undo_stack.count() == 1
    (sos,) = session.game.bombardments.values()
    assert f"area:{sos.id}" in items(panel)
    names = [dialog.target_picker.combo.itemText(i) for i in range(dialog.target_picker.combo.count())]
    assert names == ["1st Squad"]
    type_all(dialog.runner, 3)
    dialog.runner.apply()
    assert session.undo_stack.count() == 2
    assert session.game.units["u7"].has("pinned")
    assert dialog.done_note.isVisibleTo(dialog) and not dialog.problem.isVisibleTo(dialog)
    while session.undo_stack.canUndo():
        session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == start_state


def test_the_window_has_the_dock_and_the_layer(qtbot: QtBot, session: Session, tmp_path: Path) -> None:
    from battletracker.ui.main_window import MainWindow

    win = MainWindow(session)

    win.feature_host.load()  # normally just after the first paint
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    panel = win.findChild(BombardmentsPanel)
    dock = win.findChild(QDockWidget, "dock-bombardments")
    assert panel is not None and dock is not None and panel.layer is not None
    panel.place_bombardment(0, "high_explosive", 3, (30.0, 38.0), OBSERVER)
    (bid,) = session.game.bombardments
    command_dice_for(panel.session, bid)
    ranging = panel.open_ranging(bid)
    type_dice(ranging.runner, "5 4")
    ranging.runner.apply()
    dock.show()
    dock.raise_()
    pattern = panel.open_pattern(bid)
    pattern.choose(6, "left")
    pattern.place()
    qtbot.wait(50)
    win.grab().save(str(tmp_path / "window.png"))
    panel.grab().save(str(tmp_path / "panel.png"))
    phase = panel.open_phase(bid)
    qtbot.waitExposed(phase)
    phase.grab().save(str(tmp_path / "phase.png"))
    assert isinstance(panel.layer, BombardmentLayer) and f"area:{bid}" in items(panel)
    assert items(panel)[f"area:{bid}"].scene() is win.map.map_scene
    phase.close()


@pytest.mark.qt_log_ignore(NO_RAISE)
def test_sos_target_is_chosen_from_the_list_or_clicked_on_the_map(qtbot: QtBot, session: Session) -> None:
    from battletracker.ui.main_window import MainWindow

    window = MainWindow(session)
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.show()
    window.feature_host.load()
    qtbot.waitExposed(window)
    panel = window.findChild(BombardmentsPanel)
    assert panel is not None
    view = window.map
    dialog = panel.create_sos(0, (26.0, 40.0))
    assert dialog is not None and dialog.isVisible()
    picker = dialog.target_picker
    assert picker.units() == ["u7", "u10"] and picker.current() == "u7"
    assert dialog.runner.title.endswith("SOS Fire at 1st Squad")

    choose_with_keys(qtbot, picker, "u10")
    assert dialog.runner.title.endswith("SOS Fire at Lt. Hayes")
    assert dialog.choices()["target"] == "u10"

    click_on_map(qtbot, view, picker, "u7", dialog)
    assert dialog.runner.title.endswith("SOS Fire at 1st Squad")
    assert dialog.choices()["target"] == "u7"

    click_on_map(qtbot, view, picker, "u8", dialog)                # outside the circle
    assert dialog.problem.text() == "2nd Squad is not a Team or AFV/APC inside the SOS circle."
    assert picker.current() == "u7"


def test_a_phase_of_fire_that_cannot_be_made_says_why_its_chances_are_missing(panel: BombardmentsPanel) -> None:
    """A bombardment still ranging has no Phase of fire: the box of each unit's chances is not left empty."""
    from battletracker.ui.features.bombardments.dialogs import NO_CHANCES

    bid = start(panel)
    dialog = panel.open_phase(bid)
    assert dialog is not None and dialog.problem.isVisibleTo(dialog)
    assert dialog.targets_view.toPlainText() == NO_CHANCES
    dialog.reject()
