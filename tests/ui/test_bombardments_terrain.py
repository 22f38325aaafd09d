"""The Phase of fire and SOS dialogs ask where each unit is: cover, a linear obstacle, left out, fortification."""

from __future__ import annotations

from battletracker.model import savefile
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.ui.features.bombardments import BombardmentsPanel
from battletracker.ui.session import Session
from tests.ui.dice_entry import command_dice_for
from tests.ui.dice_entry import type_dice
from tests.ui.test_bombardments import panel  # noqa: F401
from tests.ui.test_bombardments import start  # noqa: F401
from tests.ui.test_bombardments import type_all  # noqa: F401
from tests.ui.test_bombardments import view  # noqa: F401

__all__ = ["panel", "view"]


def ready_to_fire(panel: BombardmentsPanel) -> str:  # noqa: F811
    bid = start(panel)
    command_dice_for(panel.session, bid)
    ranging = panel.open_ranging(bid)
    type_dice(ranging.runner, "4 4")
    ranging.runner.apply()
    pattern = panel.open_pattern(bid)
    pattern.choose(2, None)
    pattern.place()
    return bid


def kill_chance(text: str) -> str:
    return text.split("at least one kill ")[1].split("%")[0] if "at least one kill" in text else "0"


def test_phase_dialog_cover_linear_obstacle_and_leave_out(session: Session, panel: BombardmentsPanel) -> None:  # noqa: F811
    bid = ready_to_fire(panel)
    dialog = panel.open_phase(bid)
    assert "u7" in dialog.cover_rows
    row = dialog.cover_rows["u7"]
    open_text = dialog.targets_view.toPlainText()
    row.cover.setCurrentIndex(row.cover.findData("hard"))
    assert dialog.runner._inputs["target1_cover"] == "hard"
    hard_text = dialog.targets_view.toPlainText()
    assert int(kill_chance(hard_text)) < int(kill_chance(open_text))
    row.linear.setChecked(True)
    assert dialog.runner._inputs["target1_linear_obstacle"] is True
    assert dialog.targets_view.toPlainText() == open_text, "a wall gives no cover from above"
    row.leave_out.setChecked(True)
    assert not row.cover.isEnabled()
    assert "1st Squad" not in dialog.targets_view.toPlainText()
    assert all(dialog.runner._inputs.get(f"target{i}_id") != "u7"
               for i in range(1, int(str(dialog.runner._inputs.get("targets", 0))) + 1))
    row.leave_out.setChecked(False)
    row.linear.setChecked(False)
    before = savefile.game_to_dict(session.game)
    type_all(dialog.runner, 6)
    dialog.runner.apply()
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_sos_dialog_cover_and_fortification(session: Session, panel: BombardmentsPanel) -> None:  # noqa: F811
    dialog = panel.create_sos(0, (22.0, 38.0))
    assert dialog is not None
    open_odds = dialog.runner.odds_plot.rows
    dialog.cover_row.cover.setCurrentIndex(dialog.cover_row.cover.findData("light"))
    assert dialog.runner._inputs["cover"] == "light"
    assert dialog.runner.odds_plot.rows != open_odds
    dialog.cover_row.linear.setChecked(True)
    assert dialog.runner._inputs["linear_obstacle"] is True
    dialog.fortification.setChecked(True)
    assert dialog.runner._inputs["in_fortification"] is True
    before = savefile.game_to_dict(session.game)
    type_all(dialog.runner, 3)
    dialog.runner.apply()
    assert not session.game.units["u7"].has("pinned"), "a fortification keeps it from being Pinned"
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_phase_dialog_over_a_lorry_and_a_tank_with_the_most_storm_of_steel(
        session: Session, panel: BombardmentsPanel) -> None:  # noqa: F811
    """With 3 extra dice per 6 for 3 rounds the dialog once froze for minutes working out every unit's whole
    odds and the area's vehicle Shock; it lists each unit's chances and charts the area's kills."""
    game = session.game
    game.settings.update({"storm_of_steel_per_six": 3, "storm_of_steel_chains": True})
    game.units["lorry"] = Unit("lorry", "Opel Blitz", "vehicle", 1, 25.0, 38.0, stats={"transport": True})
    game.units["riders"] = Unit("riders", "3rd Squad", "section", 1, 25.0, 38.0, figures=8, figures_max=8,
                                stats={"embarked_in": "lorry"})
    game.units["tank"] = Unit("tank", "Stuart", "vehicle", 1, 23.0, 37.0, vehicle=Vehicle("afv"))
    bid = ready_to_fire(panel)
    dialog = panel.open_phase(bid)
    text = dialog.targets_view.toPlainText()
    assert "3rd Squad: at least one kill" in text and "Shock on the vehicle" in text.split("3rd Squad")[1]
    assert "Stuart: Shock on the vehicle" in text
    assert dialog.runner.roll_button.isEnabled()
    type_all(dialog.runner, 1)
    assert dialog.runner.result is not None and dialog.runner.result.outcome == "kills=0"
