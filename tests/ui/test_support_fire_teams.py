"""The Fire dialog with several target Teams sharing the hits, and MG Suppressing Fire at two Teams."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.effects import AddUnit
from battletracker.model.effects import ChangeFigures
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.model.game import Weapon
from battletracker.model.terrain import TerrainPiece
from battletracker.model.terrain_effects import AddTerrain
from battletracker.rules.chain_of_command.fire_plans import plan_fire
from battletracker.ui.features.support_fire import FireDialog
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.session import Session
from tests.acting import ready_unit
from tests.ui.dice_entry import type_dice
from tests.ui.labelled import labelled_odds
from tests.ui.picking import NO_RAISE
from tests.ui.picking import choose_with_keys
from tests.ui.picking import click_on_map
from tests.ui.picking import shown_map
from tests.ui.refusals import assert_refusal

MG, GERMAN_SECTION, FIRST_SQUAD, SECOND_SQUAD = "u3", "u1", "u7", "u8"


pytestmark = pytest.mark.usefixtures("germany_ready")


@pytest.fixture
def demo_game(demo_game: Game) -> Game:
    """The demo on an open table: the shared hits assume no cover (terrain: test_support_fire_terrain.py)."""
    demo_game.terrain.clear()
    return demo_game


def dialog_for(qtbot: QtBot, session: Session, firer: str, target: str) -> FireDialog:
    dialog = FireDialog(session, ready_unit(session, firer))
    qtbot.addWidget(dialog)
    assert dialog.set_target(target)
    return dialog


def runner_of(dialog: FireDialog) -> ProcedureRunner:
    assert dialog.runner is not None
    return dialog.runner


def bar_team(session: Session) -> Unit:
    """A BAR team 3" from the 2nd Squad, as a second target beside it."""
    team = Unit("u30", "BAR team", "team", 1, 41.0, 39.0, figures=3, figures_max=3,
                weapons=[Weapon("BAR", "lmg", 24.0, [18.0, 48.0], stats={"firepower_dice": 4})])
    session.apply("Add the BAR team", [AddUnit(team)])
    return team


def test_a_second_team_shares_the_hits_and_each_takes_its_effects(qtbot: QtBot, session: Session) -> None:
    team = bar_team(session)
    dialog = dialog_for(qtbot, session, GERMAN_SECTION, SECOND_SQUAD)
    offered = dialog.also_picker.units()
    assert offered[0] == team.id                         # the Team beside the target comes first
    assert GERMAN_SECTION not in offered and "u11" not in offered   # no friends, no vehicles
    assert "u9" not in offered                                      # nor the sniper
    assert not dialog.add_team(GERMAN_SECTION)
    assert dialog.add_team(team.id)
    assert dialog.plan is not None
    inputs = dialog.plan.inputs
    assert inputs["teams"] == 2 and inputs["target_ids"] == f"{SECOND_SQUAD},{team.id}"
    assert inputs["target_figures"] == "12,3" and "target_id" not in inputs
    assert "Hits shared by: 2nd Squad, BAR team" in dialog.teams_label.text()
    assert team.id not in dialog.also_picker.units()

    before = savefile.game_to_dict(session.game)
    runner = runner_of(dialog)
    assert runner.problem.isHidden()
    dialog.dice.setValue(4)
    # 4 dice at Effective against Regulars, all hit; 2 hits each, Team by Team; open: 5-6 kill, 3-4 Shock (default).
    type_dice(runner, "6 6 6 6", "6 6", "6 3")
    res = runner.result
    assert res is not None and res.values["team_hits"] == [2, 2]
    kills, shock = res.values["team_kills"], res.values["team_shock"]
    assert isinstance(kills, list) and isinstance(shock, list)
    assert runner.apply()
    game = session.game
    assert game.unit(SECOND_SQUAD).figures == 12 - kills[0]
    assert game.unit(team.id).figures == 3 - kills[1]
    assert game.unit(SECOND_SQUAD).shock == shock[0] and game.unit(team.id).shock == shock[1]
    assert {e.unit_id for e in res.effects if isinstance(e, ChangeFigures)} == {SECOND_SQUAD, team.id}
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_clear_leaves_the_target_alone(qtbot: QtBot, session: Session) -> None:
    dialog = dialog_for(qtbot, session, GERMAN_SECTION, SECOND_SQUAD)
    assert dialog.add_team(FIRST_SQUAD)
    dialog.clear_teams()
    assert dialog.plan is not None and dialog.plan.inputs["target_id"] == SECOND_SQUAD
    assert "teams" not in dialog.plan.inputs


def test_mg_suppressing_two_teams_reads_their_gap_from_the_map(qtbot: QtBot, session: Session) -> None:
    team = bar_team(session)
    dialog = dialog_for(qtbot, session, MG, SECOND_SQUAD)
    assert dialog.add_team(team.id)
    dialog.suppressing.setChecked(True)
    assert dialog.plan is not None and dialog.plan.inputs["team_gap"] == pytest.approx(3.0)
    assert runner_of(dialog).problem.isHidden()
    assert 'Teams 3.0" apart' in "\n".join(dialog.facts.facts())


def test_mg_suppressing_two_teams_too_far_apart_is_refused_with_the_gap(qtbot: QtBot, session: Session) -> None:
    dialog = dialog_for(qtbot, session, MG, SECOND_SQUAD)
    dialog.show()
    assert dialog.add_team(FIRST_SQUAD)                  # 16" apart
    qtbot.mouseClick(dialog.suppressing, Qt.MouseButton.LeftButton)
    runner = runner_of(dialog)
    assert_refusal(runner.problem, 'within 4" of each other, not 16"')
    assert not runner.roll_button.isEnabled()


def test_gun_he_hits_shared_between_teams(qtbot: QtBot, session: Session) -> None:
    gun = Unit("u31", "Pak 40", "gun", 0, 40.0, 20.0, facing=180.0, figures=4, figures_max=4,
               weapons=[Weapon("7.5cm Pak 40", "at_gun", 48.0, [12.0, 48.0], stats={"ap": 9, "he": 4})])
    session.apply("Add the Pak", [AddUnit(gun)])
    team = bar_team(session)
    dialog = dialog_for(qtbot, session, gun.id, SECOND_SQUAD)
    assert dialog.fire_weapon.procedure == "coc.gun_he"
    assert not dialog.teams_box.isHidden()
    assert dialog.add_team(team.id)
    assert dialog.plan is not None and dialog.plan.inputs["teams"] == 2
    assert runner_of(dialog).problem.isHidden(), runner_of(dialog).problem.text()


def test_dialog_with_two_teams_looks_right(qtbot: QtBot, session: Session) -> None:
    team = bar_team(session)
    dialog = dialog_for(qtbot, session, MG, SECOND_SQUAD)
    assert dialog.add_team(team.id)
    dialog.suppressing.setChecked(True)
    dialog.show()
    dialog.grab().save("/tmp/fire_two_teams.png")
    assert dialog.clear_teams_button.isEnabled()


@pytest.mark.qt_log_ignore(NO_RAISE)
def test_a_team_sharing_the_hits_is_chosen_from_the_list_or_clicked_on_the_map(qtbot: QtBot,
                                                                               session: Session) -> None:
    team = bar_team(session)
    view = shown_map(qtbot, session)
    dialog = FireDialog(session, ready_unit(session, GERMAN_SECTION), view, view)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.set_target(SECOND_SQUAD)
    picker = dialog.also_picker
    assert picker.units()[0] == team.id and FIRST_SQUAD in picker.units()   # the Team beside first

    choose_with_keys(qtbot, picker, FIRST_SQUAD)
    qtbot.mouseClick(dialog.add_team_button, Qt.MouseButton.LeftButton)
    assert dialog.choices()["targets"] == FIRST_SQUAD
    assert dialog.plan is not None and dialog.plan.inputs["target_ids"] == f"{SECOND_SQUAD},{FIRST_SQUAD}"

    click_on_map(qtbot, view, picker, team.id, dialog)              # a click on the map adds the Team
    assert dialog.choices()["targets"] == f"{FIRST_SQUAD},{team.id}"
    assert "Hits shared by: 2nd Squad, 1st Squad, BAR team" in dialog.teams_label.text()
    assert team.id not in picker.units()

    click_on_map(qtbot, view, picker, "u11", dialog)                # a vehicle never shares the hits
    assert dialog.refusal.text().startswith("Sherman 'Lucky' cannot share the hits")
    assert dialog.choices()["targets"] == f"{FIRST_SQUAD},{team.id}"


def test_each_team_sharing_the_hits_reads_its_own_cover_and_the_player_may_change_it(
        qtbot: QtBot, session: Session) -> None:
    """1st Squad in a copse takes the hits it shares with 2nd Squad, in the open, in Light Cover; a Hard Cover
    the map lacks is the player's, logged under its name."""
    copse = TerrainPiece("t9", "Copse", "woods", "area", [(20.0, 36.0), (24.0, 36.0), (24.0, 40.0), (20.0, 40.0)])
    session.apply("Copse", [AddTerrain(copse)])
    dialog = dialog_for(qtbot, session, GERMAN_SECTION, SECOND_SQUAD)
    dialog.show()
    choose_with_keys(qtbot, dialog.also_picker, FIRST_SQUAD)
    qtbot.mouseClick(dialog.add_team_button, Qt.MouseButton.LeftButton)
    row = dialog.team_rows[FIRST_SQUAD]
    qtbot.waitUntil(row.isVisible)                                # Qt shows a row added to a shown form next
    combo, reason = row.box, row.reason
    assert combo.currentText() == "Light" and not reason.isVisible()
    assert dialog.cover.box.currentText() == "Open"
    assert dialog.plan is not None and dialog.plan.inputs["team_cover"] == "open,light"
    assert "1st Squad: Light cover: in Copse" in dialog.facts.facts()
    runner = runner_of(dialog)
    assert dict(runner.odds_plot.rows) == labelled_odds(dialog.plan.procedure, dialog.plan.inputs)

    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)                     # Light -> Hard
    assert combo.currentText() == "Hard" and reason.isVisible()
    qtbot.keyClicks(reason, "behind the wall")
    plan = plan_fire(session.game, dialog.choices())
    line = "1st Squad: Cover Hard (player: 'behind the wall'; the map: Light cover: in Copse)"
    assert dialog.plan == plan and plan.inputs["team_cover"] == "open,hard" and plan.log == (line,)
    assert dict(runner.odds_plot.rows) == labelled_odds(plan.procedure, plan.inputs)

    dialog.dice.setValue(2)
    # Both hit; 2nd Squad's 5 in the Open kills, 1st Squad's 5 in Hard Cover is Shock.
    res = type_dice(runner, "6 6", "5", "5")
    assert res is not None and res.values["team_kills"] == [1, 0] and res.values["team_shock"] == [0, 1]
    qtbot.mouseClick(runner.apply_button, Qt.MouseButton.LeftButton)
    assert session.game.unit(FIRST_SQUAD).shock == 1 and session.game.unit(SECOND_SQUAD).figures == 11
    assert line in [e.text for e in session.game.log]



def test_odds_too_large_to_count_are_said_in_their_place_and_the_roll_goes_on(qtbot: QtBot, session: Session) -> None:
    """Teams in different cover under chained Storm of Steel dice (480 dice from 12) would take minutes to count:
    the runner says so at once instead of the chart, and the player still rolls and applies."""
    session.game.settings.update({"storm_of_steel_per_six": 3, "storm_of_steel_chains": True})
    runner = ProcedureRunner(session, "coc.fire", "Fire")
    qtbot.addWidget(runner)
    runner.show()
    assert runner.set_inputs({"firepower_dice": 12, "to_hit": 3, "cover": "open", "storm_of_steel": True,
                              "teams": 2, "target_ids": f"{SECOND_SQUAD},{FIRST_SQUAD}", "target_figures": "12,12",
                              "team_cover": "open,light"})
    assert runner.odds_plot.summary.text().startswith("Exact odds not shown")
    assert runner.odds_plot.table.isHidden() and runner.odds_plot.rows == []
    assert runner.roll_button.isEnabled() and runner.problem.isHidden()
    before = len(session.game.log)
    qtbot.mouseClick(runner.roll_button, Qt.MouseButton.LeftButton)
    assert runner.result is not None
    qtbot.mouseClick(runner.apply_button, Qt.MouseButton.LeftButton)
    assert len(session.game.log) > before


def test_the_targets_cover_row_names_it_once_teams_share_the_hits(qtbot: QtBot, session: Session) -> None:
    """With a second Team's cover row ("1st Squad's cover"), the first cover row says it is the target's, no
    wider than the labels below so the pickers keep their room; alone, it reads Cover again."""
    dialog = dialog_for(qtbot, session, GERMAN_SECTION, SECOND_SQUAD)
    label = dialog.form.labelForField(dialog.cover)
    assert isinstance(label, QLabel) and label.text() == "&Cover" and label.buddy() is dialog.cover
    assert dialog.add_team(FIRST_SQUAD)
    assert label.text() == "Target's &cover"
    others = [item.widget() for row in range(dialog.form.rowCount())
              if (item := dialog.form.itemAt(row, QFormLayout.ItemRole.LabelRole)) is not None
              and isinstance(item.widget(), QLabel) and item.widget() is not label]
    assert label.sizeHint().width() <= max(other.sizeHint().width() for other in others)
    qtbot.mouseClick(dialog.clear_teams_button, Qt.MouseButton.LeftButton)
    assert label.text() == "&Cover"
