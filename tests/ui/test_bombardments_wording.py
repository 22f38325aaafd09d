"""The Bombardments dock and its dialogs say what happened and what will be rolled, in a player's words."""

from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from battletracker.model.effects import SetCondition
from battletracker.rules.actions import plan
from battletracker.ui.features.bombardments import BombardmentsPanel
from battletracker.ui.features.bombardments.dialogs import NewBombardmentDialog
from battletracker.ui.features.bombardments.dialogs import PhaseDialog
from battletracker.ui.features.bombardments.dialogs import RangingDialog
from battletracker.ui.features.bombardments.dialogs import SosDialog
from battletracker.ui.features.bombardments.dialogs import SosSideDialog
from battletracker.ui.map.view import MapView
from battletracker.ui.session import Session
from tests.ui.dice_entry import command_dice_for
from tests.ui.dice_entry import type_dice
from tests.ui.test_bombardments import AIM  # noqa: F401
from tests.ui.test_bombardments import OBSERVER  # noqa: F401
from tests.ui.test_bombardments import panel  # noqa: F401
from tests.ui.test_bombardments import start  # noqa: F401
from tests.ui.test_bombardments import type_all  # noqa: F401
from tests.ui.test_bombardments import view  # noqa: F401
from tests.ui.test_bombardments_terrain import ready_to_fire

__all__ = ["panel", "view"]


def click_ok(dialog: NewBombardmentDialog | SosSideDialog) -> None:
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    QTest.mouseClick(ok, Qt.MouseButton.LeftButton)


def click_map(view: MapView, at: tuple[float, float]) -> None:  # noqa: F811
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     view.mapFromScene(QPointF(*at)))


def test_a_deviated_ranging_shot_reads_as_where_it_landed_and_where_it_was_aimed(
        session: Session, panel: BombardmentsPanel) -> None:  # noqa: F811
    bid = start(panel)
    command_dice_for(panel.session, bid)
    dialog = panel.open_ranging(bid)
    assert isinstance(dialog, RangingDialog)
    dialog.set_bearing.setChecked(True)
    dialog.bearing.setValue(90.0)
    type_dice(dialog.runner, "3 3", "2 2 2")                 # deviates 6" east of the aim (24, 38)
    dialog.runner.apply()
    text = panel.rows[bid].state.text()
    assert 'Ranging shot landed 5" north of Lt. Hayes' in text and 'Aimed 2" east of 1st Squad' in text
    assert "(" not in text


def test_the_pick_banner_says_esc_cancels_once(qtbot: QtBot, session: Session, panel: BombardmentsPanel,
                                               view: MapView) -> None:  # noqa: F811
    QTest.mouseClick(panel.new_button, Qt.MouseButton.LeftButton)
    assert isinstance(panel.dialog, NewBombardmentDialog)
    click_ok(panel.dialog)
    assert view.picking
    assert view.banner.text().count("Esc cancels") == 1, view.banner.text()
    click_map(view, AIM)
    assert view.banner.text().count("Esc cancels") == 1, view.banner.text()


def test_the_phase_of_fire_says_how_many_dice_and_what_score_before_rolling(
        session: Session, panel: BombardmentsPanel) -> None:  # noqa: F811
    bid = ready_to_fire(panel)
    b = session.game.bombardments[bid]
    dialog = panel.open_phase(bid)
    assert dialog.runner.result is None
    said = f"Each unit in the area takes {b.firepower_dice} Firepower Dice, hitting on {b.to_hit}+"
    assert said in dialog.facts.facts()[2] and said not in dialog.intro.text()
    assert dialog.facts.facts() == plan("coc.bombardment_phase", session.game, dialog.choices()).facts


def test_each_bombardment_dialog_says_what_it_read_from_the_table_once(
        qtbot: QtBot, session: Session, panel: BombardmentsPanel, view: MapView) -> None:  # noqa: F811
    bid = start(panel)
    command_dice_for(session, bid)
    qtbot.mouseClick(panel.rows[bid].buttons["range"], Qt.MouseButton.LeftButton)
    ranging = panel.dialog
    assert isinstance(ranging, RangingDialog)
    planned = plan("coc.ranging_shot", session.game, {"bombardment": bid})
    assert ranging.facts.facts() == planned.facts and planned.facts[:2] == (
        "Activated with a Command Dice 1", 'Aiming 2" east of 1st Squad')
    assert "Aiming" not in ranging.intro.text() and "(24" not in ranging.intro.text()
    ranging.close()

    QTest.mouseClick(panel.sos_button, Qt.MouseButton.LeftButton)
    assert isinstance(panel.dialog, SosSideDialog)
    click_ok(panel.dialog)
    click_map(view, (22.0, 38.0))
    sos = panel.dialog
    assert isinstance(sos, SosDialog)
    shown = sos.facts.facts()
    assert shown == plan("coc.sos_fire", session.game, sos.choices()).facts
    assert shown[0].startswith('SOS Fire centred at 1st Squad, 6" radius') and "Firepower Dice, hitting on" in shown[1]
    assert "radius" not in sos.intro.text() and "Firepower Dice" not in sos.intro.text()


def test_a_pinned_unit_shows_the_cover_it_is_rolled_with(session: Session, panel: BombardmentsPanel) -> None:  # noqa: F811
    bid = ready_to_fire(panel)
    session.apply("Pinned", [SetCondition("u7", "pinned", True)])
    dialog = panel.open_phase(bid)
    row = dialog.cover_rows["u7"]
    assert row.level == "open"
    assert row.rolled.isVisibleTo(dialog) and row.rolled.text() == "Rolled as Light (Pinned)"
    row.cover.setCurrentIndex(row.cover.findData("hard"))
    assert row.rolled.text() == ""                         # Hard Cover is as good as it gets
    session.apply("Rallied", [SetCondition("u7", "pinned", False)])
    unpinned = panel.open_phase(bid)
    assert isinstance(unpinned, PhaseDialog) and not unpinned.cover_rows["u7"].rolled.isVisibleTo(unpinned)


def test_smoke_offers_no_devastating_shot_and_draws_no_chart_for_a_certain_outcome(
        session: Session, panel: BombardmentsPanel) -> None:  # noqa: F811
    assert panel.place_bombardment(0, "smoke", 3, AIM, OBSERVER)
    (bid,) = session.game.bombardments
    command_dice_for(panel.session, bid)
    ranging = panel.open_ranging(bid)
    assert "devastating" not in dict(ranging.runner.odds_plot.rows)
    res = type_dice(ranging.runner, "6 6")
    assert res is not None and res.outcome == "on_target"
    ranging.runner.apply()
    assert not session.game.bombardments[bid].devastating
    pattern = panel.open_pattern(bid)
    pattern.choose(2, None)
    pattern.place()
    phase = panel.open_phase(bid)
    plot = phase.runner.odds_plot
    assert [label for label, _p in plot.rows] == ["smoke"]
    assert plot.summary.isVisibleTo(phase) and "Certain" in plot.summary.text()
    assert not plot.table.isVisibleTo(phase)
    assert plot._plot is None or not plot._plot.isVisibleTo(phase)
    assert "rolls no dice" in phase.facts.facts()[2] and "rolls no dice" not in phase.intro.text()


def test_sos_fire_asks_the_side_and_says_nothing_is_over_before_rolling(
        session: Session, panel: BombardmentsPanel, view: MapView) -> None:  # noqa: F811
    QTest.mouseClick(panel.sos_button, Qt.MouseButton.LeftButton)
    side_dialog = panel.dialog
    assert isinstance(side_dialog, SosSideDialog)
    assert [side_dialog.side.itemText(i) for i in range(side_dialog.side.count())] == [
        s.name for s in session.game.sides]
    side_dialog.side.setCurrentIndex(1)
    click_ok(side_dialog)
    assert view.picking
    click_map(view, (22.0, 38.0))
    (sos,) = session.game.bombardments.values()
    assert sos.side == 1
    row_text = panel.rows[sos.id].state.text()
    assert "Over" not in row_text and 'SOS Fire centred at 1st Squad' in row_text
    dialog = panel.dialog
    assert isinstance(dialog, SosDialog)
    type_all(dialog.runner, 3)
    dialog.runner.apply()
    assert dialog.done_note.isVisibleTo(dialog) and "has been rolled for" in dialog.done_note.text()
    assert not dialog.problem.isVisibleTo(dialog)
    assert not dialog.runner.isEnabled()


def test_a_linear_obstacle_shows_it_is_rolled_in_the_open(session: Session, panel: BombardmentsPanel) -> None:  # noqa: F811
    bid = ready_to_fire(panel)
    dialog = panel.open_phase(bid)
    row = dialog.cover_rows["u7"]
    row.cover.setCurrentIndex(row.cover.findData("light"))
    row.linear.setChecked(True)
    assert row.rolled.text() == "Rolled as Open (only a wall or hedge)"
