"""The Fire dialog with H.E.: stone buildings made unstable, smoke on the line, a vehicle's Shock and optics."""

from __future__ import annotations

from fractions import Fraction

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.bombardment import Building
from battletracker.model.bombardment import SmokeArea
from battletracker.model.bombardment_effects import AddBuilding
from battletracker.model.bombardment_effects import AddSmoke
from battletracker.model.bombardment_effects import SetBuildingState
from battletracker.model.effects import AddUnit
from battletracker.model.effects import SetDamage
from battletracker.model.effects import add_shock
from battletracker.model.game import Unit
from battletracker.model.game import Weapon
from battletracker.rules import odds
from battletracker.ui.extensions import unit_actions
from battletracker.ui.features.bombardments import BombardmentsPanel
from battletracker.ui.features.support_fire import FireDialog
from battletracker.ui.map.view import MapView
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.session import Session
from tests.acting import ready
from tests.acting import ready_unit
from tests.ui.dice_entry import type_dice
from tests.ui.labelled import labelled_odds
from tests.ui.test_bombardments import items
from tests.ui.test_bombardments import panel
from tests.ui.test_bombardments import view

__all__ = ["panel", "view"]

SQUAD, TANK = "u8", "u6"      # the 2nd Squad at (38, 39); the Panzer IV H at (54, 8)


pytestmark = pytest.mark.usefixtures("germany_ready")


def pak40(session: Session) -> None:
    gun = Unit("u21", "Pak 40", "gun", 0, 38.0, 20.0, facing=180.0, figures=5, figures_max=5,
               weapons=[Weapon("7.5cm Pak 40", "at_gun", 45.0, [72.0], stats={"ap": 8, "he": 3})])
    session.apply("Add the gun", [AddUnit(gun)])


def farmhouse(session: Session) -> None:
    house = Building("b1", "Farmhouse", 38.0, 39.0, 6.0, 4.0, 0.0, "brick_stone", 1, [SQUAD])
    session.apply("Farmhouse", [AddBuilding(house)])


def open_dialog(qtbot: QtBot, session: Session, firer: str, weapon: str = "") -> FireDialog:
    dialog = FireDialog(session, ready_unit(session, firer))
    qtbot.addWidget(dialog)
    if weapon:
        dialog.weapon.setCurrentIndex(dialog.weapon.findText(weapon))
    assert dialog.set_target(SQUAD)
    return dialog


def runner_of(dialog: FireDialog) -> ProcedureRunner:
    assert dialog.runner is not None
    return dialog.runner


def test_four_sixes_of_gun_he_make_the_squads_stone_house_unstable_and_undo_is_exact(
        qtbot: QtBot, session: Session, panel: BombardmentsPanel, view: MapView) -> None:
    pak40(session)
    farmhouse(session)
    ready(session.game, "u21")
    before = savefile.game_to_dict(session.game)
    dialog = open_dialog(qtbot, session, "u21")
    assert dialog.plan is not None and dialog.plan.inputs["building_id"] == "b1"
    assert "2nd Squad is in Farmhouse (brick or stone): four 6s make it unstable" in "\n".join(dialog.facts.facts())
    runner = runner_of(dialog)
    assert any(key.endswith(", the building turns unstable") for key, _p in runner.odds_plot.rows)
    type_dice(runner, "6 6 6", "6 1 1", "1 1 1 1")      # H.E. dice, Storm of Steel dice, effect dice
    assert runner.result is not None and runner.result.outcome.endswith(" building_unstable")
    qtbot.mouseClick(runner.apply_button, Qt.MouseButton.LeftButton)
    assert session.game.buildings["b1"].state == "unstable"
    assert any("Farmhouse is unstable and collapses at the end of the Turn" in e.text for e in session.game.log)
    assert "Farmhouse: unstable" in items(panel)["building_label:b1"].text()  # type: ignore[attr-defined]
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_gun_he_through_the_smoke_of_a_collapsed_building_is_minus_one(qtbot: QtBot, session: Session) -> None:
    pak40(session)
    session.apply("Ruin", [AddBuilding(Building("b2", "Mill", 38.0, 30.0, 4.0, 4.0, 0.0, "brick_stone")),
                           SetBuildingState("b2", "collapsed"),
                           AddSmoke(SmokeArea("s1", 38.0, 30.0, 4.0, 4.0, source="collapse:b2"))])
    dialog = open_dialog(qtbot, session, "u21")
    assert dialog.plan is not None and dialog.plan.inputs["to_hit_modifier"] == -1
    assert "Firing through the smoke of the collapsed Mill: -1 to hit" in "\n".join(dialog.facts.facts())
    runner = runner_of(dialog)
    rows = dict(runner.odds_plot.rows)
    assert rows == labelled_odds("coc.gun_he", dialog.plan.inputs) and sum(rows.values()) == Fraction(1)
    clear = {k: v for k, v in dialog.plan.inputs.items() if k != "to_hit_modifier"}
    assert rows["no effect"] > odds("coc.gun_he", clear).p("kills=0 shock=0")
    result = type_dice(runner, "4 5 6", "1", "1 1")
    assert result is not None and result.values["to_hit"] == 5 and result.values["hits"] == 2


def test_a_tank_fires_its_hull_mg_with_a_die_fewer_per_shock(qtbot: QtBot, session: Session) -> None:
    assert "coc.support_fire" in {a.key for a in unit_actions(session.game, session.game.unit(TANK))}
    session.apply("Shock", [add_shock(TANK, 2)])
    dialog = open_dialog(qtbot, session, TANK, "Hull MG (6 Firepower Dice)")
    assert [dialog.weapon.itemText(i) for i in range(dialog.weapon.count())] == [
        "7.5cm KwK 40 (H.E.)", "Hull MG (6 Firepower Dice)"]
    assert dialog.plan is not None and dialog.plan.procedure == "coc.fire"
    assert dialog.plan.inputs["firepower_dice"] == 4
    assert ("2 Shock on Panzer IV H: 6 Firepower Dice become 4 (one fewer per point of Shock)"
            in dialog.facts.facts())
    runner = runner_of(dialog)
    assert dict(runner.odds_plot.rows) == labelled_odds("coc.fire", dialog.plan.inputs)
    result = type_dice(runner, "1 2 3 4")                 # four dice asked for, not six
    assert result is not None and list(result.rolls) == [("Firepower Dice", (1, 2, 3, 4))]


def test_a_tank_with_damaged_optics_fires_he_at_minus_one_and_a_die_fewer_per_shock(
        qtbot: QtBot, session: Session) -> None:
    session.apply("Damage", [add_shock(TANK, 1), SetDamage(TANK, "optics_damaged")])
    before = savefile.game_to_dict(session.game)
    facing = session.game.unit(TANK).facing
    dialog = open_dialog(qtbot, session, TANK, "7.5cm KwK 40 (H.E.)")
    assert dialog.plan is not None and dialog.plan.procedure == "coc.gun_he"
    assert dialog.plan.inputs["he_dice"] == 3 and dialog.plan.inputs["to_hit_modifier"] == -1
    assert "barrel_facing" not in dialog.plan.inputs, "the turret turns; the hull stays where it is"
    text = "\n".join(dialog.facts.facts())
    assert "1 Shock on Panzer IV H: 4 Firepower Dice become 3" in text and "Optics damaged: -1 to hit with H.E." in text
    runner = runner_of(dialog)
    assert dict(runner.odds_plot.rows) == labelled_odds("coc.gun_he", dialog.plan.inputs)
    result = type_dice(runner, "4 5 1", "1")
    assert result is not None and result.values["to_hit"] == 5 and result.values["hits"] == 1
    qtbot.mouseClick(runner.apply_button, Qt.MouseButton.LeftButton)
    assert session.game.unit(TANK).facing == facing
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before
