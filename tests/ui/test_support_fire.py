"""The Fire dialog, the sniper and gun card rows and the reach overlays on the demo battle."""

from __future__ import annotations

import re
from copy import deepcopy
from fractions import Fraction
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.core.dice import ScriptedDice
from battletracker.core.geometry import bearing
from battletracker.model import savefile
from battletracker.model.bombardment import Building
from battletracker.model.bombardment_effects import AddBuilding
from battletracker.model.bombardment_effects import ReplaceBuilding
from battletracker.model.effects import AddUnit
from battletracker.model.effects import ChangeFigures
from battletracker.model.effects import MoveUnit
from battletracker.model.effects import SetCondition
from battletracker.model.effects import TurnUnit
from battletracker.model.game import OUT_OF_PLAY
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.model.game import Vehicle
from battletracker.model.game import Weapon
from battletracker.rules import resolve
from battletracker.rules.chain_of_command.fire_plans import plan_fire
from battletracker.rules.replay import replay_steps
from battletracker.ui.extensions import unit_actions
from battletracker.ui.features.support_fire import FireDialog
from battletracker.ui.features.support_fire.cards import GunCrewSection
from battletracker.ui.features.support_fire.cards import SniperSection
from battletracker.ui.features.support_fire.overlays import REACH_OVERLAY
from battletracker.ui.main_window import MainWindow
from battletracker.ui.procedure_parts import FactsPanel
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.session import Session
from tests.acting import ready_unit
from tests.ui.dice_entry import type_dice
from tests.ui.labelled import labelled_odds

MG, SQUAD, SNIPER, GERMAN_SECTION = "u3", "u8", "u9", "u1"


pytestmark = pytest.mark.usefixtures("germany_ready")


@pytest.fixture
def demo_game(demo_game: Game) -> Game:
    """The demo on an open table: these shots assume no cover (terrain: test_support_fire_terrain.py)."""
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


def flamethrower(fuel: int) -> Unit:
    return Unit("u20", "Flamethrower", "support_weapon", 1, 40.0, 30.0, facing=0.0, figures=2, figures_max=2,
                weapons=[Weapon("M2 flamethrower", "flamethrower", 45.0, [12.0], fuel, 3, "fuel",
                                {"firepower_dice": 12})])


def add(session: Session, unit: Unit) -> None:
    session.apply(f"Add {unit.name}", [AddUnit(unit)])


def test_fire_action_offered_to_units_with_a_weapon_that_fires_at_infantry(session: Session) -> None:
    game = session.game
    keys = {uid: {a.key for a in unit_actions(game, game.unit(uid))} for uid in ("u1", "u3", "u5", "u6", "u9")}
    assert "coc.support_fire" in keys["u1"] and "coc.support_fire" in keys["u3"] and "coc.support_fire" in keys["u9"]
    assert "coc.support_fire" not in keys["u5"]          # a Leader with no weapon
    assert {"coc.support_fire", "coc.anti_tank_fire"} <= keys["u6"]   # a tank's H.E. and MG, and its A.P.


def test_tripod_mg_fire_derives_dice_arc_and_cover_from_the_table(qtbot: QtBot, session: Session) -> None:
    dialog = dialog_for(qtbot, session, MG, SQUAD)
    mg, squad = session.game.unit(MG), session.game.unit(SQUAD)
    assert dialog.plan is not None and dialog.plan.procedure == "coc.tripod_mg"
    inputs = dialog.plan.inputs
    assert inputs["firepower_dice"] == 10 and inputs["figures"] == 5 and inputs["heavy"] is False
    assert inputs["range_band"] == "effective"            # 28.9" is past the 18" Close band
    assert inputs["cover"] == "open"
    assert inputs["barrel_facing"] == mg.facing
    assert inputs["target_bearing"] == pytest.approx(bearing((mg.x, mg.y), (squad.x, squad.y)))
    assert inputs["target_id"] == SQUAD and inputs["target_figures"] == "12"

    dialog.cover.box.setCurrentIndex(dialog.cover.box.findData("light"))
    assert dialog.plan.inputs["cover"] == "light"
    runner = runner_of(dialog)
    assert runner.problem.isHidden() and runner.roll_button.isEnabled()
    rows = dict(runner.odds_plot.rows)
    assert sum(rows.values()) == Fraction(1)
    assert rows == labelled_odds("coc.tripod_mg", dialog.plan.inputs)


def test_what_the_table_gives_shows_once_as_the_plans_facts(qtbot: QtBot, session: Session) -> None:
    dialog = dialog_for(qtbot, session, MG, SQUAD)
    dialog.show()
    qtbot.keyClicks(dialog.cover.box, "Light")
    planned = plan_fire(session.game, dialog.choices())
    assert planned.inputs["cover"] == "light"
    assert isinstance(dialog.facts, FactsPanel) and dialog.facts.facts() == planned.facts
    assert dialog.facts.isVisibleTo(dialog) and planned.facts[0].startswith("Range 28.9")
    shown = [label.text() for label in dialog.findChildren(QLabel) if label is not dialog.facts]
    assert not any(planned.facts[0] in text for text in shown), "each fact is said once"


def test_mg_down_to_one_figure_loses_two_dice(qtbot: QtBot, session: Session) -> None:
    session.apply("Casualties", [ChangeFigures(MG, -4)])
    dialog = dialog_for(qtbot, session, MG, SQUAD)
    assert dialog.plan is not None
    assert any("8 Firepower Dice (2 lost" in note for note in dialog.plan.facts)
    assert dialog.plan.inputs["figures"] == 1


def test_mg_fire_applied_is_one_undo_step_and_undo_restores_the_game(qtbot: QtBot, session: Session) -> None:
    before = savefile.game_to_dict(session.snapshot())
    dialog = dialog_for(qtbot, session, MG, SQUAD)
    runner = runner_of(dialog)
    type_dice(runner, "6 6 6 6 6 6 6 6 6 6", "3 4 5 6 1 1 1 1 1 1")
    # In the Open (fire.toml): 1-2 no effect, 3-4 Shock, 5-6 a kill.
    assert runner.result is not None and runner.result.outcome == "kills=2 shock=2"
    steps = session.undo_stack.count()
    assert runner.apply()
    assert session.undo_stack.count() == steps + 1
    squad, mg = session.game.unit(SQUAD), session.game.unit(MG)
    assert squad.figures == 10 and squad.shock == 2
    assert mg.facing == pytest.approx(bearing((mg.x, mg.y), (squad.x, squad.y)))   # turned onto the target
    assert any("Tripod MG" in e.text or "fires at" in e.text for e in session.game.log)
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_target_outside_the_arc_is_refused_with_the_reason(qtbot: QtBot, session: Session) -> None:
    session.apply("Turn the MG", [TurnUnit(MG, 90.0)])
    dialog = dialog_for(qtbot, session, MG, SQUAD)
    runner = runner_of(dialog)
    assert not runner.problem.isHidden()
    assert "degrees off the barrel" in runner.problem.text() and "45 degrees either side" in runner.problem.text()
    assert not runner.roll_button.isEnabled() and not runner.typed_button.isEnabled()


def test_flamethrower_with_no_fuel_is_refused(qtbot: QtBot, session: Session) -> None:
    add(session, flamethrower(0))
    dialog = dialog_for(qtbot, session, "u20", GERMAN_SECTION)
    assert dialog.plan is not None and dialog.plan.procedure == "coc.flamethrower"
    runner = runner_of(dialog)
    assert "reaches at most 12\"" in runner.problem.text()          # 20" away: out of reach first
    session.apply("Move up", [MoveUnit("u20", 20.0, 18.0, 0.0)])
    assert dialog.plan.inputs["fuel"] == 0
    assert not runner.problem.isHidden()
    assert "No fuel left: 0 of 3 Phases of fire" in runner.problem.text()
    assert not runner.roll_button.isEnabled() and not runner.typed_button.isEnabled()


def test_flamethrower_fire_spends_one_phase_of_fuel_and_undoes(qtbot: QtBot, session: Session) -> None:
    add(session, flamethrower(1))
    session.apply("Move up", [MoveUnit("u20", 20.0, 18.0, 0.0)])
    ready_unit(session, "u20")
    before = savefile.game_to_dict(session.snapshot())
    dialog = dialog_for(qtbot, session, "u20", GERMAN_SECTION)
    assert dialog.plan is not None
    assert dialog.plan.inputs["range"] == pytest.approx(8.0) and dialog.plan.inputs["target_kind"] == "infantry"
    runner = runner_of(dialog)
    type_dice(runner, "1 1 1 1 1 1 1 1 1 1 1 2")                       # twelve dice, no hits
    assert runner.apply()
    assert session.game.unit("u20").weapons[0].ammo == 0
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_sniper_shot_counts_on_the_card_and_spotted_is_an_undoable_toggle(qtbot: QtBot, session: Session) -> None:
    dialog = dialog_for(qtbot, session, SNIPER, GERMAN_SECTION)
    assert dialog.plan is not None and dialog.plan.procedure == "coc.sniper"
    assert dialog.plan.inputs["target_kind"] == "infantry" and dialog.plan.inputs["target_id"] == GERMAN_SECTION
    runner = runner_of(dialog)
    type_dice(runner, "5", "5")                                            # hit, effect 5 in the Open: a kill
    assert runner.result is not None and runner.result.outcome == "kill"
    assert runner.apply()
    assert session.game.unit(SNIPER).counters["sniper_shots"] == 1
    assert session.game.unit(GERMAN_SECTION).figures == 9

    section = SniperSection(dialog, session, SNIPER)
    section.refresh(session.game.unit(SNIPER))
    assert "Shots fired: 1" in section.shots.text() and "+1" in section.shots.text()
    assert not section.spotted.isChecked()
    section.spotted.setChecked(True)
    assert session.game.unit(SNIPER).has("spotted")
    session.undo_stack.undo()
    assert not session.game.unit(SNIPER).has("spotted")


def test_an_unspotted_sniper_cannot_be_targeted_and_a_spotted_one_ignores_shock(qtbot: QtBot,
                                                                                 session: Session) -> None:
    dialog = dialog_for(qtbot, session, GERMAN_SECTION, SNIPER)
    assert not dialog.refusal.isHidden() and "has not been spotted" in dialog.refusal.text()
    assert runner_of(dialog).isHidden()
    session.apply("Spotted", [SetCondition(SNIPER, "spotted")])
    assert dialog.refusal.isHidden()
    runner = runner_of(dialog)
    dialog.dice.setValue(2)
    type_dice(runner, "6 6", "1 2")                                        # two hits, both Shock only
    assert runner.result is not None and list(runner.result.effects) == []
    assert any("ignores the Shock" in line for line in runner.result.log)
    type_dice(runner, "6 6", "6 1")                                        # one kill removes it
    assert runner.apply()
    assert SNIPER not in session.game.units
    assert any("Force Morale Test" in e.text for e in session.game.log)
    sniper_side = session.game.sides[1 - session.game.unit(GERMAN_SECTION).side]
    assert [item.event for item in sniper_side.agenda] == ["sniper_killed"]


def test_suppressing_frontage_over_nine_inches_is_refused(qtbot: QtBot, session: Session) -> None:
    dialog = dialog_for(qtbot, session, MG, SQUAD)
    dialog.set_frontage((30.0, 38.0), (40.0, 38.0))
    runner = runner_of(dialog)
    assert 'at most 9", not 10"' in runner.problem.text()
    dialog.set_frontage((32.0, 38.0), (40.0, 38.0))
    assert runner.problem.isHidden() and dialog.plan is not None and dialog.plan.inputs["frontage"] == 8.0


def test_gun_short_of_crew_note_and_he_dice(qtbot: QtBot, session: Session) -> None:
    gun = Unit("u21", "Pak 40", "gun", 0, 40.0, 20.0, facing=180.0, figures=2, figures_max=5,
               weapons=[Weapon("7.5cm Pak 40", "at_gun", 45.0, [72.0], stats={"ap": 8, "he": 3})])
    add(session, gun)
    dialog = dialog_for(qtbot, session, "u21", SQUAD)
    assert dialog.plan is not None and dialog.plan.procedure == "coc.gun_he"
    assert dialog.plan.inputs["he_dice"] == 3 and dialog.plan.inputs["crew"] == 2
    assert any("cannot move" in note for note in dialog.plan.facts)
    section = GunCrewSection(dialog, session, "u21")
    section.refresh(session.game.unit("u21"))
    assert "Cannot move (fewer than 3 crew: 2)" in section.note.text() and not section.isHidden()
    session.apply("Crew back", [ChangeFigures("u21", 1)])
    section.refresh(session.game.unit("u21"))
    assert section.isHidden()


def test_window_draws_reach_circles_and_opens_fire_with_ctrl_f(qtbot: QtBot, session: Session) -> None:
    window = MainWindow(session)
    window.feature_host.load()  # normally just after the first paint
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    entry = window.feature_host.entries["coc.support_fire"]
    assert entry.shortcut().toString() == "Ctrl+F"
    session.select(SNIPER)
    assert REACH_OVERLAY in window.map.map_scene.overlays
    add(session, flamethrower(3))
    session.select("u20")
    assert REACH_OVERLAY in window.map.map_scene.overlays
    session.select(MG)
    assert REACH_OVERLAY not in window.map.map_scene.overlays
    window.feature_host.run_unit_action("coc.support_fire", MG)
    dialogs = window.findChildren(FireDialog)
    assert dialogs and dialogs[-1].isVisible()
    qtbot.mouseClick(dialogs[-1].target_picker.pick_button, Qt.MouseButton.LeftButton)
    assert window.map.picking
    window.map.cancel_pick()
    dialogs[-1].close()


def test_flamethrower_at_a_wooden_building_names_who_must_evacuate(qtbot: QtBot, session: Session) -> None:
    add(session, flamethrower(3))
    session.apply("Move up", [MoveUnit("u20", 20.0, 18.0, 0.0)])
    session.apply("Barn", [AddBuilding(Building("b1", "Barn", 20.0, 10.0, material="wood"))])
    add(session, Unit("u21", "Lost team", "team", 0, 20.0, 10.0, figures=0, conditions=[OUT_OF_PLAY]))
    dialog = dialog_for(qtbot, session, "u20", GERMAN_SECTION)
    dialog.target_kind.setCurrentIndex(dialog.target_kind.findData("wooden_building"))
    assert dialog.plan is not None and dialog.plan.inputs["building_id"] == "b1"
    assert any(note.endswith("then 1. Gruppe must evacuate") for note in dialog.plan.facts)
    runner = runner_of(dialog)
    type_dice(runner, "6 6 1 1 1 1 1 1 1 1 1 1", "1 1", "1 1")          # two 6s, their Storm dice, effects
    assert runner.result is not None and runner.result.values["building_on_fire"] is True
    assert runner.apply()
    assert session.game.buildings["b1"].state == "on_fire"
    session.apply("Stone barn", [ReplaceBuilding(Building("b1", "Barn", 20.0, 10.0, material="brick_stone"))])
    assert "only a wooden building catches fire" in dialog.refusal.text()


def test_flamethrower_at_a_transport_caps_the_passengers_kills_and_keys_the_vehicle_shock_as_four_or_more(
        qtbot: QtBot, session: Session) -> None:
    """Many 6s read "4 or more Shock on the vehicle" in the odds and the result, never averaged; all of them land."""
    add(session, flamethrower(3))
    session.apply("Move up", [MoveUnit("u20", 20.0, 18.0, 0.0)])
    add(session, Unit("u30", "Opel Blitz", "vehicle", 0, 20.0, 13.0, figures=1, figures_max=1,
                      vehicle=Vehicle("apc", {"front": 1, "side": 1, "rear": 1, "top": 0}, True)))
    add(session, Unit("u31", "3. Gruppe", "section", 0, 20.0, 13.0, figures=6, figures_max=10,
                      stats={"embarked_in": "u30"}))
    ready_unit(session, "u20")
    before = savefile.game_to_dict(session.snapshot())
    dialog = dialog_for(qtbot, session, "u20", "u30")
    assert dialog.plan is not None and dialog.plan.inputs["target_kind"] == "transport"
    assert (dialog.plan.inputs["target_ids"], dialog.plan.inputs["target_figures"]) == ("u31", "6")
    runner = runner_of(dialog)
    plot = runner.odds_plot
    labels = [label for label, _p in plot.rows]
    assert "6 kills, 4 or more Shock on the vehicle" in labels and not any("7 kills" in label for label in labels)
    assert "4 or more vehicle Shock: " in plot.summary.text() and "Expected vehicle Shock" not in plot.summary.text()
    qtbot.waitUntil(lambda: "vehicle_shock" in plot.tick_labels)
    assert plot.tick_labels["vehicle_shock"][-1] == (4, "4+")
    type_dice(runner, "6 6 6 6 6 6 6 1 1 1 1 1", "1 1 1 1 1 1 1", "1 1 1 1 1 1 1")  # seven 6s, no Storm, no effect
    assert runner.result is not None and runner.result.outcome == "kills=0 shock=0 vehicle_shock=4+"
    assert plot.charts["vehicle_shock"].plotItem.titleLabel.text.startswith("Vehicle Shock (rolled 4+)")
    assert runner.apply()
    lorry = session.game.unit("u30")
    assert lorry.shock == 7 and "abandoned" in lorry.conditions
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_a_leader_killed_is_out_of_play_not_offered_as_target_or_firer_and_greyed(
        qtbot: QtBot, session: Session) -> None:
    """Kills stop at the figures a unit has; at none left it is out of play until undone."""
    window = MainWindow(session)
    qtbot.addWidget(window)
    leader = "u10"
    before = savefile.game_to_dict(session.game)
    dialog = dialog_for(qtbot, session, GERMAN_SECTION, leader)
    assert dialog.plan is not None and dialog.plan.inputs["target_figures"] == "1"
    assert "kills=2 shock=0" not in dict(runner_of(dialog).odds_plot.rows)
    dialog.dice.setValue(2)
    runner = runner_of(dialog)
    type_dice(runner, "6 6", "6 1")                  # two hits: a kill, then a Shock on a Leader already dead
    assert runner.result is not None and runner.result.outcome == "kills=1 shock=0"
    assert runner.apply()
    game = session.game
    hayes = game.unit(leader)
    assert (hayes.figures, hayes.shock, hayes.in_play, hayes.has("pinned")) == (0, 0, False, False)
    assert leader in game.units                      # kept for the log and the report
    assert any("Force Morale Test" in e.text for e in game.log[-8:])
    again = dialog_for(qtbot, session, GERMAN_SECTION, SQUAD)
    assert again.target_picker.combo.findData(leader) < 0 and not again.set_target(leader)
    assert unit_actions(game, hayes) == []
    card = window.cards.card(leader)
    assert card is not None and "Out of play" in [c.text for c in card.chips.chips()]
    assert window.map.map_scene.tokens[leader].destroyed
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before
    assert not window.map.map_scene.tokens[leader].destroyed
    assert dialog_for(qtbot, session, GERMAN_SECTION, leader).target_picker.combo.findData(leader) >= 0


def test_fire_at_a_spotted_sniper_shows_the_odds_of_exactly_what_apply_does(qtbot: QtBot, session: Session) -> None:
    session.apply("Spotted", [SetCondition(SNIPER, "spotted")])
    dialog = dialog_for(qtbot, session, GERMAN_SECTION, SNIPER)
    dialog.dice.setValue(3)
    plan = plan_fire(session.game, dialog.choices())
    assert dialog.plan == plan and plan.inputs["sniper_target"] is True
    runner = runner_of(dialog)
    assert dict(runner.odds_plot.rows) == labelled_odds(plan.procedure, plan.inputs)
    assert set(dict(runner.odds_plot.rows)) == {"no effect", "1 kill"}

    expected = deepcopy(session.game)
    for effect in resolve(plan.procedure, plan.inputs, ScriptedDice([6, 6, 1, 3, 5])).effects:
        effect.apply(expected)
    type_dice(runner, "6 6 1", "3 5")                                      # a Shock, then a kill
    qtbot.mouseClick(runner.apply_button, Qt.MouseButton.LeftButton)
    expected.unit(GERMAN_SECTION).activation = session.game.unit(GERMAN_SECTION).activation  # it has fired
    assert SNIPER not in session.game.units
    assert savefile.game_to_dict(session.game)["game"]["units"] == savefile.game_to_dict(expected)["game"]["units"]


def test_the_sniper_cards_spotted_and_contact_are_recorded_actions_that_replay(
        qtbot: QtBot, session: Session, tmp_path: Path) -> None:
    section = SniperSection(None, session, SNIPER)  # type: ignore[arg-type]
    qtbot.addWidget(section)
    section.show()
    section.refresh(session.game.unit(SNIPER))
    qtbot.mouseClick(section.spotted, Qt.MouseButton.LeftButton)
    assert session.game.unit(SNIPER).has("spotted")
    assert session.game.actions[-1].name == "coc.sniper_spotted"
    qtbot.mouseClick(section.contact, Qt.MouseButton.LeftButton)
    assert session.game.actions[-1].name == "coc.sniper_contacted" and SNIPER not in session.game.units
    assert section.problem.isHidden()
    path = tmp_path / "sniper.battle"
    savefile.save(session.game, path)
    replayed, _steps = replay_steps(savefile.load(path))
    assert savefile.game_to_dict(replayed) == savefile.game_to_dict(session.game)


def mnemonics(dialog: QWidget) -> dict[str, list[str]]:
    """Each Alt+letter of a dialog's buttons and labelled fields, with the texts that claim it."""
    keys: dict[str, list[str]] = {}
    texts = [b.text() for b in dialog.findChildren(QAbstractButton)]
    texts += [label.text() for label in dialog.findChildren(QLabel) if label.buddy() is not None]
    for text in texts:
        found = re.search(r"&([^&])", text.replace("&&", ""))
        if found:
            keys.setdefault(found.group(1).lower(), []).append(text)
    return keys


@pytest.mark.parametrize("firer", [GERMAN_SECTION, MG])
def test_every_alt_letter_of_the_fire_dialog_reaches_one_thing(qtbot: QtBot, session: Session, firer: str) -> None:
    """An Alt+letter two parts claim only moves the focus between them: Alt+A must Apply, Alt+R roll."""
    dialog = FireDialog(session, ready_unit(session, firer))
    qtbot.addWidget(dialog)
    shared = {key: texts for key, texts in mnemonics(dialog).items() if len(texts) > 1}
    assert shared == {}
