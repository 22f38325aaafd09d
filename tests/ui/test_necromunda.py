"""Necromunda in the app: the Shoot dialog with typed dice and undo, toolkit checks, fighter cards."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QGraphicsPathItem
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.effects import SetProfileState
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Weapon
from battletracker.model.game import WeaponProfile
from battletracker.rules import odds
from battletracker.rules.necromunda.attack import result_label
from battletracker.rules.necromunda.plans import attack_plan
from battletracker.rules.presets import preset
from battletracker.rules.replay import replay_steps
from battletracker.rules.tables import resources_dir
from battletracker.ui.cards.card import UnitCard
from battletracker.ui.features.necromunda import SHOOT_SHORTCUT
from battletracker.ui.features.necromunda import can_shoot
from battletracker.ui.features.necromunda.fighter_card import FighterSection
from battletracker.ui.features.necromunda.overlays import SELECTION_KEY
from battletracker.ui.features.necromunda.overlays import SHOOT_KEY
from battletracker.ui.features.necromunda.shoot_dialog import ShootDialog
from battletracker.ui.main_window import MainWindow
from battletracker.ui.odds_plot import grouped
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session
from tests.ui.dice_entry import type_dice
from tests.ui.picking import NO_RAISE
from tests.ui.picking import choose_with_keys
from tests.ui.picking import click_on_map
from tests.ui.picking import shown_map

AUTOGUN_RF2 = {"short_range": 8, "long_range": 24, "acc_short": 1, "acc_long": 0, "strength": 3, "ap": 0,
               "damage": 1}


def fighter(unit_id: str, name: str, side: int, x: float, y: float, *, weapons: list[Weapon] | None = None,
            conditions: list[str] | None = None) -> Unit:
    return Unit(unit_id, name, "fighter", side, x, y, stats={"bs": 4, "cool": 7},
                weapons=weapons if weapons is not None else [], conditions=conditions or [])


def autogun(state: str = "ok") -> Weapon:
    """An autogun-style weapon with Rapid Fire (2) and Ammo (4+)."""
    return Weapon("Autogun", "basic", ranges=[8, 24],
                  profiles=[WeaponProfile("Autogun", dict(AUTOGUN_RF2), ["Rapid Fire (2)", "Ammo (4+)"], state)])


def necro_game(*units: Unit, **settings: bool | str) -> Game:
    game = Game(title="Underhive", ruleset="necromunda", table_width=36, table_height=36,
                sides=[Side("Goliaths", "#3b6fb6"), Side("Escher", "#b5651d")], settings=dict(settings))
    for unit in units:
        game.units[unit.id] = unit
    return game


def dialog_for(qtbot: QtBot, session: Session, shooter: str = "a") -> ShootDialog:
    dialog = ShootDialog(session, shooter)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_rapid_fire_two_with_typed_dice_applies_as_one_step_and_undoes_exactly(qtbot: QtBot) -> None:
    game = necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                      fighter("b", "Mira", 1, 10, 20))
    session = Session(game)
    before = savefile.game_to_dict(session.game)
    dialog = dialog_for(qtbot, session)
    assert dialog.target is not None and dialog.target.id == "b"
    assert dialog.range_box.value() == pytest.approx(10.0)
    assert dialog.firepower_box.value() == 2
    assert "Ammo check (4+)" in dialog.ammo_note.text() and "passes on 4 or more" in dialog.ammo_note.text()
    assert dialog.runner.problem.isHidden()
    assert "Miss 50.0%" in dialog.summary.text()
    assert "Out of Ammo" in dialog.summary.text() and "jammed" in dialog.summary.text()
    # Hit roll 4 against BS 4+ at long range (acc 0); Firepower faces 2 and 1+ammo: three Hits; the
    # ammo symbol's Ammo check (4+) fails on a 3 and puts the profile Out of Ammo.
    type_dice(dialog.runner, "4", "2 1+ammo", complete=False)
    assert "Ammo check (4+)" in dialog.runner.prompt.text()
    type_dice(dialog.runner, "4", "2 1+ammo", "3")
    res = dialog.runner.result
    assert res is not None and res.outcome == "hits=3 ammo=out"
    assert "3 Hits, Out of Ammo" in dialog.runner.result_view.toHtml()
    assert dialog.apply_button.isEnabled()
    dialog.apply_button.click()
    assert session.game.units["b"].has("suppressed")
    assert session.game.units["a"].weapons[0].profiles[0].state == "out_of_ammo"
    assert session.undo_stack.count() == 1
    assert any("Firepower dice" in entry.text for entry in session.game.log)
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_a_passed_ammo_check_keeps_the_autogun_loaded(qtbot: QtBot) -> None:
    session = Session(necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                                 fighter("b", "Mira", 1, 10, 20)))
    dialog = dialog_for(qtbot, session)
    type_dice(dialog.runner, "5", "1+ammo 2", "4")
    assert dialog.runner.result is not None and dialog.runner.result.outcome == "hits=3 ammo=ok"
    assert dialog.apply()
    assert session.game.units["a"].weapons[0].profiles[0].state == "ok"
    assert not dialog.blocked.isHidden()
    assert dialog.blocked.text() == ("Kal is Activated: it has already shot this round, and is Ready again when the "
                                     "round ends.")
    session.end_turn()  # the round ends: Kal is Ready again and shoots with the autogun still loaded
    dialog = dialog_for(qtbot, session)
    assert dialog.blocked.isHidden()
    assert dialog.runner.problem.isHidden() and dialog.runner.roll_button.isEnabled()


def test_the_literal_reading_stays_a_choice_and_empties_the_autogun_as_before(qtbot: QtBot) -> None:
    session = Session(necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                                 fighter("b", "Mira", 1, 10, 20), ammo_trait_reading="always"))
    dialog = dialog_for(qtbot, session)
    assert "always" in dialog.ammo_note.text() and "literally" in dialog.ammo_note.text()
    type_dice(dialog.runner, "4", "2 3")
    assert dialog.runner.result is not None and dialog.runner.result.outcome == "hits=5 ammo=out"
    assert dialog.apply()
    assert session.game.units["a"].weapons[0].profiles[0].state == "out_of_ammo"


def test_two_failed_ammo_checks_jam_every_profile_and_a_miss_suppresses_no_one(qtbot: QtBot) -> None:
    game = necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("b", "Mira", 1, 10, 20))
    session = Session(game)
    dialog = dialog_for(qtbot, session)
    type_dice(dialog.runner, "2", "1+ammo 1+ammo", "2 3")
    assert dialog.runner.result is not None and dialog.runner.result.outcome == "miss ammo=jammed"
    assert dialog.apply()
    assert session.game.units["a"].weapons[0].profiles[0].state == "jammed"
    assert not session.game.units["b"].has("suppressed")


def test_a_typed_face_not_on_the_firepower_die_is_refused(qtbot: QtBot) -> None:
    session = Session(necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                                 fighter("b", "Mira", 1, 10, 20)))
    dialog = dialog_for(qtbot, session)
    runner = dialog.runner
    runner.start_typed()
    runner.entry.setText("5")
    runner.submit_entry()
    runner.entry.setText("4 ammo")
    runner.submit_entry()
    assert not runner.entry_error.isHidden()
    assert runner.result is None


def test_an_out_of_ammo_profile_is_refused_before_any_roll(qtbot: QtBot) -> None:
    session = Session(necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun("out_of_ammo")]),
                                 fighter("b", "Mira", 1, 10, 20)))
    dialog = dialog_for(qtbot, session)
    assert not dialog.blocked.isHidden()
    assert dialog.blocked.text() == "Kal's Autogun is Out of Ammo and cannot fire until a Reload action."
    assert not dialog.runner.roll_button.isEnabled() and not dialog.runner.typed_button.isEnabled()
    assert not dialog.apply_button.isEnabled()


def test_a_jammed_profile_is_refused_before_any_roll_with_a_sentence(qtbot: QtBot) -> None:
    session = Session(necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun("jammed")]),
                                 fighter("b", "Mira", 1, 10, 20)))
    dialog = dialog_for(qtbot, session)
    assert not dialog.blocked.isHidden()
    assert dialog.blocked.text() == "Kal's Autogun is jammed and cannot be used again this battle."
    assert not dialog.runner.roll_button.isEnabled() and not dialog.runner.typed_button.isEnabled()
    assert not dialog.apply_button.isEnabled()


def test_reload_clears_out_of_ammo_on_one_profile_only(qtbot: QtBot) -> None:
    shotgun = Weapon("Shotgun", profiles=[
        WeaponProfile("Solid", {"short_range": 8, "long_range": 16, "acc_short": 1, "acc_long": 0}, [], "out_of_ammo"),
        WeaponProfile("Scatter", {"short_range": 4, "long_range": 8, "acc_short": 2, "acc_long": 0}, [],
                      "out_of_ammo")])
    session = Session(necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[shotgun])))
    section = FighterSection(None, session, "a")
    qtbot.addWidget(section)
    assert section.reload(0, 1)
    section.refresh(session.game.units["a"])
    states = [p.state for p in session.game.units["a"].weapons[0].profiles]
    assert states == ["out_of_ammo", "ok"]
    assert section.badges[(0, 1)].isHidden() and not section.badges[(0, 0)].isHidden()
    session.undo_stack.undo()
    assert session.game.units["a"].weapons[0].profiles[1].state == "out_of_ammo"


def test_condition_toggles_are_undoable(qtbot: QtBot) -> None:
    session = Session(necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()])))
    section = FighterSection(None, session, "a")
    qtbot.addWidget(section)
    for condition in ("suppressed", "engaged", "seriously_injured", "out_of_action"):
        section.toggles[condition].click()
        assert session.game.units["a"].has(condition)
        session.undo_stack.undo()
        assert not session.game.units["a"].has(condition)
    section.level_up.click()
    assert session.game.units["a"].level == 1
    section.refresh(session.game.units["a"])
    assert "BS 4+" in section.stats_label.text() and "Level 1" in section.stats_label.text()


def test_target_priority_needs_a_passed_cool_check_for_another_target(qtbot: QtBot) -> None:
    game = necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                      fighter("near", "Near", 1, 10, 15), fighter("far", "Far", 1, 20, 10),
                      toolkit_target_priority=True)
    session = Session(game)
    before = savefile.game_to_dict(session.game)
    dialog = dialog_for(qtbot, session)
    assert dialog.priority() == ("near",)
    assert dialog.plan is not None and "cool" not in dialog.plan.inputs
    assert dialog.set_target("far")
    assert dialog.plan is not None and dialog.plan.inputs["cool"] == 7
    assert "must first pass a Cool check (7+ on 2D6)" in dialog.facts.text()
    # The Cool check is the attack's first roll; failing it ends the attack before any Hit roll.
    res = type_dice(dialog.runner, "3 2")
    assert res is not None and res.outcome == "cool_failed" and [r[0] for r in res.rolls] == ["Cool check"]
    assert "Cool check failed" in dialog.runner.result_view.toHtml()
    assert dialog.apply()
    assert "closest enemy" in dialog.status.text()
    assert not session.game.units["far"].has("suppressed")
    assert any("Cool check" in entry.text for entry in session.game.log)
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_a_passed_cool_check_unlocks_the_shot_and_is_logged(qtbot: QtBot) -> None:
    game = necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                      fighter("near", "Near", 1, 10, 15), fighter("far", "Far", 1, 20, 10),
                      toolkit_target_priority=True)
    session = Session(game)
    dialog = dialog_for(qtbot, session)
    dialog.set_target("far")
    type_dice(dialog.runner, "4 4", "6", "1 1")
    assert dialog.apply()
    assert session.undo_stack.count() == 1
    assert session.game.units["far"].has("suppressed")
    assert any("Cool check" in entry.text for entry in session.game.log)


def test_an_enemy_out_of_sight_does_not_claim_priority(qtbot: QtBot) -> None:
    game = necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                      fighter("near", "Near", 1, 10, 15), fighter("far", "Far", 1, 20, 10),
                      toolkit_target_priority=True)
    dialog = dialog_for(qtbot, Session(game))
    dialog.set_in_sight("near", False)
    assert dialog.priority() == ("far",)


def test_stray_shots_on_a_miss_hit_models_in_the_corridor_in_one_undo_step(qtbot: QtBot) -> None:
    game = necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                      fighter("b", "Mira", 1, 10, 20), fighter("c", "Bystander", 1, 10.5, 15),
                      fighter("d", "Aside", 1, 14, 15), toolkit_stray_shots=True)
    session = Session(game)
    before = savefile.game_to_dict(session.game)
    dialog = dialog_for(qtbot, session)
    assert dialog.set_target("b")
    assert dialog.plan is not None and dialog.plan.inputs["at_risk"] == "c"
    assert "Stray shots: on a miss, Bystander" in dialog.facts.text()
    type_dice(dialog.runner, "1", "1 2", complete=False)
    assert "Stray shot 1" in dialog.runner.prompt.text() and not dialog.apply_button.isEnabled()
    # three stray shots (the holes the attack would have caused): 2 hits c, 5 passes it, 3 hits c
    res = type_dice(dialog.runner, "1", "1 2", "2", "5", "3")
    assert res is not None and res.outcome == "miss ammo=ok stray:c"
    assert dialog.apply()
    assert session.game.units["c"].has("suppressed") and not session.game.units["b"].has("suppressed")
    assert session.undo_stack.count() == 1
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_walking_fire_offers_enemies_within_three_inches_of_the_target(qtbot: QtBot) -> None:
    game = necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                      fighter("b", "Mira", 1, 10, 20), fighter("c", "Close", 1, 12, 21),
                      fighter("d", "Distant", 1, 18, 20), toolkit_walking_fire=True)
    session = Session(game)
    dialog = dialog_for(qtbot, session)
    type_dice(dialog.runner, "5", "1 1", complete=False)
    box = dialog.runner.choice_box
    assert box.isVisibleTo(dialog) and "Hit 2 of 2" in dialog.runner.prompt.text()
    assert [box.itemText(i) for i in range(box.count())] == ["Mira", "Close"]
    box.setCurrentIndex(1)
    qtbot.mouseClick(dialog.runner.entry_ok, Qt.MouseButton.LeftButton)
    assert dialog.runner.result is not None and dialog.runner.result.values["walking_fire"] == ["b", "c"]
    assert dialog.apply()
    assert session.game.units["b"].has("suppressed") and session.game.units["c"].has("suppressed")
    assert not session.game.units["d"].has("suppressed")


def test_presets_shoot_and_templates_are_not_offered_a_hit_roll(qtbot: QtBot) -> None:
    flamer = preset("necromunda", "specialist_flamer").make("a", "Flamer", 0, 10, 10)
    game = necro_game(flamer, fighter("b", "Mira", 1, 10, 14))
    assert can_shoot(game, flamer)
    dialog = dialog_for(qtbot, Session(game))
    assert not dialog.ref.template
    assert dialog.ref.title == "Stub gun"


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    game = necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]), fighter("b", "Mira", 1, 10, 20))
    session = Session(game)
    win = MainWindow(session, Recovery(session, tmp_path))
    win.feature_host.load()  # normally just after the first paint
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.show()
    qtbot.waitExposed(win)
    return win


def test_window_offers_shoot_with_a_shortcut_no_other_action_uses(window: MainWindow, qtbot: QtBot) -> None:
    entry = window.feature_host.entries["necromunda.shoot"]
    assert entry.shortcut() == QKeySequence(SHOOT_SHORTCUT)
    clashes = [a.text() for a in window.findChildren(type(entry))
               if a is not entry and QKeySequence(SHOOT_SHORTCUT) in a.shortcuts()]
    assert clashes == []
    window.session.select("a")
    assert entry.isEnabled()
    assert SELECTION_KEY in window.map.map_scene.overlays
    window.feature_host.run_unit_action("necromunda.shoot", "a")
    dialogs = window.findChildren(ShootDialog)
    assert dialogs and dialogs[-1].isVisible()
    assert SHOOT_KEY in window.map.map_scene.overlays
    dialogs[-1].close()
    assert SHOOT_KEY not in window.map.map_scene.overlays


def test_fighter_card_section_is_on_the_card(window: MainWindow) -> None:
    sections = window.cards.findChildren(FighterSection)
    assert {s.unit_id for s in sections} >= {"a", "b"}


def test_the_necromunda_demo_opens_with_fighters_that_can_shoot() -> None:
    game = savefile.load(resources_dir() / "demo" / "necromunda.json")
    assert game.ruleset == "necromunda"
    shooters = [u for u in game.units.values() if can_shoot(game, u)]
    assert len(shooters) == len(game.units) >= 10
    assert {u.side for u in shooters} == {0, 1}


@pytest.mark.parametrize("shooter", ["u4", "u11"])
def test_the_demo_autogun_keeps_its_ammo_unless_a_symbol_fails_its_check(qtbot: QtBot, shooter: str) -> None:
    game = savefile.load(resources_dir() / "demo" / "necromunda.json")
    session = Session(game)
    dialog = dialog_for(qtbot, session, shooter)
    assert dialog.shooter.weapons[dialog.ref.weapon].name == "Autogun"
    # One Firepower die: the ammo symbol on one face in six, then an Ammo check failing on 1-3.
    assert "ammo fine 91.7%, Out of Ammo 8.3%" in dialog.summary.text()
    assert "jammed" not in dialog.summary.text()


def test_hits_on_an_engaged_target_are_allocated_at_random_in_the_combat(qtbot: QtBot) -> None:
    game = necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                      fighter("b", "Mira", 1, 10, 20, conditions=["engaged"]),
                      fighter("c", "Brute", 0, 11, 20, conditions=["engaged"]))
    session = Session(game)
    dialog = dialog_for(qtbot, session)
    assert dialog.set_target("b") and dialog.engaged_box.isChecked()
    assert dialog.plan is not None and dialog.plan.inputs["combat"] == "b,c"
    res = type_dice(dialog.runner, "5", "1 1", "2 1")
    assert res is not None and res.outcome == "hits=2 ammo=ok combat:b:1,c:1"
    assert "2 Hits; 1 to Mira, 1 to Brute" in dialog.runner.result_view.toHtml()
    assert dialog.apply()
    assert not session.game.units["b"].has("suppressed")
    assert any("allocated at random" in entry.text for entry in session.game.log)


def test_after_apply_the_dialog_reads_the_new_state(qtbot: QtBot) -> None:
    session = Session(necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                                 fighter("b", "Mira", 1, 10, 20)))
    dialog = dialog_for(qtbot, session)
    type_dice(dialog.runner, "4", "2 1+ammo", "1")
    assert dialog.apply()
    session.end_turn()
    dialog = dialog_for(qtbot, session)
    assert "Out of Ammo" in dialog.blocked.text() and not dialog.blocked.isHidden()


def flamer() -> Weapon:
    """A two-profile weapon: a Template profile and a shooting one."""
    return Weapon("Flamer", "special", profiles=[
        WeaponProfile("Burn", {"strength": 4, "ap": -1, "damage": 1}, ["Template"]),
        WeaponProfile("Torch", dict(AUTOGUN_RF2), []),
    ])


def template_game() -> Game:
    """Kal fires down the table (bearing 180): the Template runs from (10, 10.5) to a round end at (10, 17.5)."""
    return necro_game(
        fighter("a", "Kal", 0, 10, 10, weapons=[flamer()]),
        fighter("b", "Mira", 1, 10, 12, conditions=["engaged"]),
        fighter("e", "Vex", 1, 11.4, 12, conditions=["engaged"]),  # off the Template, in Mira's combat
        fighter("c", "Brute", 0, 10.5, 14),  # a friend under the Template
        fighter("f", "Sly", 1, 10, 16, conditions=["seriously_injured"]),
        Unit("g", "Nyx", "fighter", 1, 10, 17, stats={"bs": 4}, level=1),  # under it, on a walkway above
        fighter("h", "Far", 1, 20, 20),
    )


def template_dialog(qtbot: QtBot, session: Session) -> ShootDialog:
    dialog = dialog_for(qtbot, session)
    assert dialog.refs[0].template and dialog.ref.title == "Flamer (Torch)"
    dialog.profile_box.setCurrentIndex(0)
    assert dialog.set_target("b")
    return dialog


def test_a_template_lists_the_models_it_hits_and_applies_as_one_undo_step(qtbot: QtBot) -> None:
    session = Session(template_game())
    before = savefile.game_to_dict(session.game)
    dialog = template_dialog(qtbot, session)
    assert dialog.is_template and dialog.runner.isHidden() and not dialog.template_group.isHidden()
    assert "not in the documents" in dialog.template_rules.text()
    placement = dialog.template()
    assert placement is not None
    assert placement.hit == ("b", "e", "c", "f")
    assert placement.other_level == ("g",)
    text = dialog.facts.text()
    assert "Vex" in text and "Brute" in text and "Nyx" in text and "Far" not in text
    assert dialog.apply_button.isEnabled()
    dialog.apply_button.click()
    units = session.game.units
    assert units["c"].has("suppressed")
    assert not any(units[k].has("suppressed") for k in ("b", "e", "f", "g", "h"))
    assert session.undo_stack.count() == 1
    assert [entry.text for entry in session.game.log] == ["Kal fires Flamer (Burn) (Template) at Mira",
                                                          "The Template hits Mira, Vex, Brute, Sly"]
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_a_jammed_template_weapon_is_refused_and_apply_is_not_offered(qtbot: QtBot) -> None:
    game = template_game()
    game.units["a"].weapons[0].profiles[0].state = "jammed"
    session = Session(game)
    before = savefile.game_to_dict(session.game)
    dialog = template_dialog(qtbot, session)
    assert not dialog.blocked.isHidden()
    assert dialog.blocked.text() == "Kal's Flamer is jammed and cannot be used again this battle."
    assert not dialog.apply_button.isEnabled()
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert session.undo_stack.count() == 0 and savefile.game_to_dict(session.game) == before


def test_a_template_that_reaches_no_one_on_the_target_level_cannot_be_applied(qtbot: QtBot) -> None:
    session = Session(template_game())
    dialog = template_dialog(qtbot, session)
    assert dialog.set_target("h")
    assert "does not reach" in dialog.blocked.text() and not dialog.blocked.isHidden()
    assert not dialog.apply_button.isEnabled()
    assert not dialog.apply()
    dialog.profile_box.setCurrentIndex(1)
    assert not dialog.runner.isHidden() and dialog.template_group.isHidden()


def test_the_template_is_drawn_on_the_map_while_the_dialog_is_open(qtbot: QtBot, tmp_path: Path) -> None:
    session = Session(template_game())
    win = MainWindow(session, Recovery(session, tmp_path))
    win.feature_host.load()
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    assert can_shoot(session.game, session.game.units["a"])
    dialog = ShootDialog(session, "a", win.map, win)
    qtbot.addWidget(dialog)
    dialog.profile_box.setCurrentIndex(0)
    dialog.set_target("b")
    paths = [i for i in win.map.map_scene.overlays[SHOOT_KEY] if isinstance(i, QGraphicsPathItem)]
    assert paths
    shape = paths[-1].shape()
    assert shape.contains(paths[-1].mapFromScene(10, 17)) and not shape.contains(paths[-1].mapFromScene(13, 12))
    dialog.close()


def ledged(unit: Unit, **ledges: float) -> Unit:
    unit.stats.update(ledges)
    return unit


def test_ledge_distances_on_the_card_are_undoable_and_name_the_ledge(qtbot: QtBot) -> None:
    session = Session(necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()])))
    before = savefile.game_to_dict(session.game)
    card = FighterSection(None, session, "a")
    qtbot.addWidget(card)
    card.ledge_boxes["ledge_1"].setValue(0.3)
    assert session.game.units["a"].stats["ledge_1"] == pytest.approx(0.3)
    assert session.undo_stack.count() == 1
    card.refresh(session.game.units["a"])
    assert "falls from ledge 1" in card.ledge_note.text()
    card.ledge_boxes["ledge_2"].setValue(0.3)
    card.refresh(session.game.units["a"])
    assert "player chooses" in card.ledge_note.text()
    card.ledge_boxes["ledge_2"].setValue(card.ledge_boxes["ledge_2"].minimum())
    assert "ledge_2" not in session.game.units["a"].stats
    assert session.undo_stack.count() == 3
    for _ in range(3):
        session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_a_hit_on_a_fighter_near_a_ledge_flags_the_falling_check_in_one_undo_step(qtbot: QtBot) -> None:
    session = Session(necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                                 ledged(fighter("b", "Mira", 1, 10, 20), ledge_1=0.3, ledge_2=0.5)))
    before = savefile.game_to_dict(session.game)
    dialog = dialog_for(qtbot, session)
    assert dialog.ledge_box.isChecked() and dialog.plan is not None and dialog.plan.inputs["target_near_ledge"] is True
    type_dice(dialog.runner, "4", "2 3")
    assert dialog.apply()
    target = session.game.units["b"]
    assert target.has("suppressed") and target.has("check_falling")
    assert any('must check for falling from ledge 1 (0.3")' in entry.text for entry in session.game.log)
    assert session.undo_stack.count() == 1
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_two_equally_close_ledges_leave_the_choice_to_the_player(qtbot: QtBot) -> None:
    session = Session(necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                                 ledged(fighter("b", "Mira", 1, 10, 20), ledge_1=0.4, ledge_2=0.4)))
    dialog = dialog_for(qtbot, session)
    type_dice(dialog.runner, "4", "2 3")
    assert dialog.apply()
    assert any("ledge 1 (0.4\") and ledge 2 (0.4\") are equally close, the controlling player chooses"
               in entry.text for entry in session.game.log)


def test_a_ledge_further_than_half_an_inch_needs_no_falling_check(qtbot: QtBot) -> None:
    session = Session(necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                                 ledged(fighter("b", "Mira", 1, 10, 20), ledge_1=0.8)))
    dialog = dialog_for(qtbot, session)
    assert not dialog.ledge_box.isChecked()
    type_dice(dialog.runner, "4", "2 3")
    assert dialog.apply()
    assert session.game.units["b"].has("suppressed") and not session.game.units["b"].has("check_falling")


def test_a_template_flags_the_falling_check_for_fighters_near_a_ledge(qtbot: QtBot) -> None:
    game = template_game()
    ledged(game.units["c"], ledge_1=0.5)
    session = Session(game)
    before = savefile.game_to_dict(session.game)
    dialog = template_dialog(qtbot, session)
    assert "Brute \u2013 becomes Suppressed and checks for falling" in dialog.facts.text()
    assert dialog.apply()
    assert session.game.units["c"].has("check_falling") and not session.game.units["f"].has("check_falling")
    assert any('Brute must check for falling from ledge 1 (0.5")' in entry.text for entry in session.game.log)
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_the_card_offers_no_reload_on_a_jammed_weapon(window: MainWindow, qtbot: QtBot) -> None:
    session = window.session
    card = {c.unit_id: c for c in window.cards.findChildren(UnitCard) if c.built}["a"]
    section = card.findChild(FighterSection)
    assert section is not None
    reload_button = section.reload_buttons[(0, 0)]
    assert reload_button.isVisible() and not reload_button.isEnabled()
    session.apply("Autogun jams", [SetProfileState("a", 0, 0, "jammed")], ["Kal's autogun jams"])
    badge = section.badges[(0, 0)]
    assert badge.text() == "Jammed" and badge.isVisible()
    assert "cannot be used again this battle" in badge.toolTip()
    assert not reload_button.isVisible()
    qtbot.mouseClick(reload_button, Qt.MouseButton.LeftButton)
    assert session.game.units["a"].weapons[0].profiles[0].state == "jammed"
    assert section.message.isHidden() and session.undo_stack.count() == 1
    session.undo_stack.undo()
    assert reload_button.isVisible() and badge.isHidden()


def test_reload_on_the_card_clears_out_of_ammo(window: MainWindow, qtbot: QtBot) -> None:
    session = window.session
    session.apply("Autogun runs dry", [SetProfileState("a", 0, 0, "out_of_ammo")], ["Kal's autogun is Out of Ammo"])
    card = {c.unit_id: c for c in window.cards.findChildren(UnitCard) if c.built}["a"]
    section = card.findChild(FighterSection)
    assert section is not None
    reload_button = section.reload_buttons[(0, 0)]
    assert reload_button.isVisible() and reload_button.isEnabled()
    qtbot.mouseClick(reload_button, Qt.MouseButton.LeftButton)
    assert session.game.units["a"].weapons[0].profiles[0].state == "ok"
    assert not reload_button.isEnabled() and section.message.isHidden()
    assert session.game.log[-1].text == "Kal reloads: Autogun is no longer Out of Ammo"
    assert "Reload: profile" not in session.game.log[-2].text


def test_a_fighter_card_lists_each_weapon_once(window: MainWindow) -> None:
    cards = {c.unit_id: c for c in window.cards.findChildren(UnitCard) if c.built}
    card = cards["a"]
    stock = card.findChild(QLabel, "weapons")
    assert stock is not None and stock.isHidden()
    section = card.findChild(FighterSection)
    assert section is not None and section.texts[(0, 0)].text().startswith("Autogun")
    assert section.set_condition("suppressed", True)
    assert stock.isHidden()


def test_a_template_at_another_target_waits_for_the_cool_check(qtbot: QtBot) -> None:
    game = necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[flamer()]),
                      fighter("near", "Near", 1, 14, 10), fighter("far", "Far", 1, 10, 15),
                      toolkit_target_priority=True)
    session = Session(game)
    dialog = dialog_for(qtbot, session)
    dialog.profile_box.setCurrentIndex(0)
    assert dialog.set_target("far") and dialog.is_template
    assert not dialog.runner.isHidden() and not dialog.apply_button.isEnabled()
    type_dice(dialog.runner, "4 4")
    assert dialog.apply_button.isEnabled()
    assert dialog.apply()
    assert session.game.units["far"].has("suppressed") and not session.game.units["near"].has("suppressed")
    assert any("Cool check" in entry.text for entry in session.game.log)


def press_dice(qtbot: QtBot, dialog: ShootDialog, *entries: str) -> None:
    """Type each roll into the dice field and press Enter, as a player does."""
    for text in entries:
        assert dialog.runner.entry.isVisible(), dialog.runner.prompt.text()
        dialog.runner.entry.clear()
        qtbot.keyClicks(dialog.runner.entry, text)
        qtbot.keyClick(dialog.runner.entry, Qt.Key.Key_Return)
        assert dialog.runner.entry_error.isHidden(), dialog.runner.entry_error.text()


def test_one_attack_is_one_step_cool_check_walking_fire_and_stray_shots_with_the_odds_it_applies(
        qtbot: QtBot) -> None:
    game = necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                      fighter("near", "Near", 1, 10, 14),  # the closest enemy: target priority
                      fighter("b", "Mira", 1, 20, 10),  # the chosen target, 10" away: long range
                      fighter("c", "Close", 1, 21, 12),  # within 3" of Mira: walking fire
                      fighter("d", "Bystander", 0, 15, 10.5),  # within 1" of the line of fire: stray shots
                      toolkit_target_priority=True, toolkit_walking_fire=True, toolkit_stray_shots=True)
    session = Session(game)
    before = savefile.game_to_dict(session.game)
    dialog = dialog_for(qtbot, session)
    assert dialog.set_target("b")
    plan = attack_plan(session.game, dialog.choices())
    assert plan.inputs["cool"] == 7 and plan.inputs["walking_candidates"] == "c" and plan.inputs["at_risk"] == "d"
    # The odds shown are those of the one procedure Apply resolves, with the same inputs.
    shown = odds("necro.attack", plan.inputs)
    assert dialog.shown_odds == shown
    assert dialog.runner.odds_plot.rows == grouped(shown, result_label)
    assert dialog.runner.odds_plot.rows[0][0] == "Cool check failed"

    # Cool check 4+4 passes; Hit roll 5; Firepower 1 and 1: two Hits; Hit 2 walks to Close.
    qtbot.mouseClick(dialog.runner.typed_button, Qt.MouseButton.LeftButton)
    press_dice(qtbot, dialog, "4 4", "5", "1 1")
    box = dialog.runner.choice_box
    assert box.isVisible() and "Hit 2 of 2" in dialog.runner.prompt.text()
    box.setCurrentIndex(box.findText("Close"))
    qtbot.mouseClick(dialog.runner.entry_ok, Qt.MouseButton.LeftButton)
    res = dialog.runner.result
    assert res is not None and res.outcome == "hits=2 ammo=ok"
    assert [r[0] for r in res.rolls] == ["Cool check", "Hit roll", "Firepower dice"]
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    units = session.game.units
    assert units["b"].has("suppressed") and units["c"].has("suppressed") and not units["d"].has("suppressed")
    assert session.undo_stack.count() == 1
    after_first = savefile.game_to_dict(session.game)
    session.end_turn()  # Kal has shot this round: the next shot is in the next round
    next_round = savefile.game_to_dict(session.game)
    dialog = dialog_for(qtbot, session)
    assert dialog.set_target("b")

    # The next shot: Cool check again, a miss (natural 1) and three stray shots; the first hits Bystander.
    qtbot.mouseClick(dialog.runner.typed_button, Qt.MouseButton.LeftButton)
    press_dice(qtbot, dialog, "5 3", "1", "1 2", "2", "5", "6")
    res = dialog.runner.result
    assert res is not None and res.outcome == "miss ammo=ok stray:d"
    assert "Miss; stray shots hit Bystander" in dialog.runner.result_view.toHtml()
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert session.game.units["d"].has("suppressed")
    assert session.undo_stack.count() == 3
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == next_round
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == after_first
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


class CountingDice:
    """The app's dice, scripted: each face is handed out once, so a second roll of the same die would show."""

    def __init__(self, faces: list[object]) -> None:
        self.faces = list(faces)

    def roll(self, die: object, count: int, label: str) -> tuple[object, ...]:
        taken, self.faces = self.faces[:count], self.faces[count:]
        assert len(taken) == count, f"{label}: the app's dice were asked for more than the attack rolls"
        return tuple(taken)


def test_roll_for_me_keeps_its_dice_while_the_player_chooses_where_walking_fire_goes(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    dice = CountingDice([5, "2", "1"])  # Hit roll 5, Firepower 2 and 1: three Hits
    monkeypatch.setattr("battletracker.ui.procedure_runner.RandomDice", lambda: dice)
    game = necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                      fighter("b", "Mira", 1, 10, 20), fighter("c", "Close", 1, 12, 21), toolkit_walking_fire=True)
    session = Session(game)
    dialog = dialog_for(qtbot, session)
    qtbot.mouseClick(dialog.runner.roll_button, Qt.MouseButton.LeftButton)
    for answer in ("Close", "Mira"):
        box = dialog.runner.choice_box
        assert box.isVisible() and dialog.runner.result is None
        box.setCurrentIndex(box.findText(answer))
        qtbot.mouseClick(dialog.runner.entry_ok, Qt.MouseButton.LeftButton)
    res = dialog.runner.result
    assert res is not None and res.outcome == "hits=3 ammo=ok"
    assert list(res.rolls) == [("Hit roll", (5,)), ("Firepower dice", ("2", "1"))]
    assert res.values["walking_fire"] == ["b", "c", "b"]
    assert dialog.apply()
    action = session.game.actions[-1]
    assert (action.name, action.choices["walking_fire"], action.dice, action.typed) == (
        "necro.attack", "c,b", (5, "2", "1"), False)
    assert any("- rolls: Hit roll: 5; Firepower dice: 2 1" in entry.text and "dice rolled at the table" not in
               entry.text for entry in session.game.log)
    assert session.game.units["c"].has("suppressed")


def test_the_fighter_cards_changes_are_recorded_actions_that_replay(qtbot: QtBot, tmp_path: Path) -> None:
    session = Session(necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun("out_of_ammo")])))
    card = FighterSection(None, session, "a")
    qtbot.addWidget(card)
    card.show()
    card.refresh(session.game.units["a"])
    names: list[str] = []
    qtbot.mouseClick(card.toggles["suppressed"], Qt.MouseButton.LeftButton)
    names.append(session.game.actions[-1].name)
    qtbot.mouseClick(card.level_up, Qt.MouseButton.LeftButton)
    names.append(session.game.actions[-1].name)
    card.ledge_boxes["ledge_1"].setFocus()
    qtbot.keyClick(card.ledge_boxes["ledge_1"], Qt.Key.Key_Up)
    names.append(session.game.actions[-1].name)
    qtbot.mouseClick(card.reload_buttons[(0, 0)], Qt.MouseButton.LeftButton)
    names.append(session.game.actions[-1].name)
    assert names == ["necro.condition", "necro.level", "necro.ledge", "necro.reload"]
    unit = session.game.units["a"]
    assert unit.has("suppressed") and unit.level == 1 and "ledge_1" in unit.stats
    assert unit.weapons[0].profiles[0].state == "ok"
    path = tmp_path / "card.battle"
    savefile.save(session.game, path)
    replayed, _steps = replay_steps(savefile.load(path))
    assert savefile.game_to_dict(replayed) == savefile.game_to_dict(session.game)


def test_the_card_says_activated_after_a_shot_and_ready_after_end_turn(qtbot: QtBot) -> None:
    session = Session(necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                                 fighter("b", "Mira", 1, 10, 20)))
    card = FighterSection(None, session, "a")
    qtbot.addWidget(card)
    session.changed.connect(lambda _c: card.refresh(session.game.units["a"]))
    card.refresh(session.game.units["a"])
    assert card.activation.text() == "Ready"
    dialog = dialog_for(qtbot, session)
    type_dice(dialog.runner, "4", "2 1")
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    assert card.activation.text() == "Activated"
    session.end_turn()
    assert card.activation.text() == "Ready"


@pytest.mark.qt_log_ignore(NO_RAISE)
def test_the_target_is_chosen_from_the_list_or_clicked_on_the_map(qtbot: QtBot) -> None:
    game = necro_game(fighter("a", "Kal", 0, 10, 10, weapons=[autogun()]),
                      fighter("b", "Mira", 1, 10, 20), fighter("far", "Vex", 1, 10, 30),
                      fighter("friend", "Brak", 0, 20, 10))
    session = Session(game)
    view = shown_map(qtbot, session)
    dialog = ShootDialog(session, "a", view, view)
    dialog.show()
    qtbot.waitExposed(dialog)
    picker = dialog.target_picker
    assert picker.units() == ["b", "far"]                          # the enemies, closest first
    assert dialog.choices()["target"] == "b" and dialog.range_box.value() == pytest.approx(10.0)

    choose_with_keys(qtbot, picker, "far")
    assert dialog.choices()["target"] == "far" and dialog.range_box.value() == pytest.approx(20.0)
    assert dialog.facts.facts() == ("Range 20.0\" — long range.",)
    assert dialog.plan is not None and dialog.plan.inputs["target_id"] == "far"

    click_on_map(qtbot, view, picker, "b", dialog)
    assert dialog.choices()["target"] == "b" and dialog.range_box.value() == pytest.approx(10.0)
    assert dialog.plan is not None and dialog.plan.inputs["target_id"] == "b"

    click_on_map(qtbot, view, picker, "friend", dialog)            # a friend cannot be the target
    assert dialog.status.text() == "Brak is not an enemy fighter still in the fight."
    assert dialog.choices()["target"] == "b"
