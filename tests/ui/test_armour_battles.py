"""Armour Battles in the app: the document's indirect-fire mission walked through
the dialog with typed dice, refusals before any roll, direct fire, the card's
counters and the range rings on the map."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.bombardment import Building
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.rules.presets import preset
from battletracker.rules.replay import replay_steps
from battletracker.ui.features.armour_battles.card import ArmourBattlesSection
from battletracker.ui.features.armour_battles.direct import DirectFireDialog
from battletracker.ui.features.armour_battles.indirect import IndirectFireDialog
from battletracker.ui.features.armour_battles.overlays import OVERLAY as RINGS
from battletracker.ui.session import Session
from tests.ui.dice_entry import type_dice
from tests.ui.picking import NO_RAISE
from tests.ui.picking import choose_with_keys
from tests.ui.picking import click_on_map
from tests.ui.picking import shown_map


def _unit(game: Game, key: str, unit_id: str, side: int, x: float, y: float) -> None:
    p = preset("armour_battles", key)
    game.units[unit_id] = p.make(unit_id, p.title, side, x, y)


@pytest.fixture
def kursk() -> Session:
    """The document's example: Max's StuH 42, and two infantry units and a T34/43 around the aiming point."""
    game = Game(title="Kursk", ruleset="armour_battles",
                sides=[Side("Germany", "#666666"), Side("Soviet Union", "#aa3333")])
    _unit(game, "stuh_42", "stuh", 0, 30.0, 44.0)
    _unit(game, "rifle_platoon_su", "rifles", 1, 29.0, 20.0)
    _unit(game, "smg_platoon_su", "smgs", 1, 31.5, 21.0)
    _unit(game, "t34_43", "t34", 1, 30.0, 18.0)
    _unit(game, "rifle_platoon_su", "far", 1, 32.01, 20.0)
    game.units["far"].name = "Far rifles"
    return Session(game)


def test_indirect_fire_walks_one_mission_and_undo_restores_the_game(qtbot: QtBot, kursk: Session) -> None:
    before = savefile.game_to_dict(kursk.game)
    dlg = IndirectFireDialog(kursk, "stuh")
    qtbot.addWidget(dlg)
    dlg.los.setChecked(True)
    dlg.set_aim(30.0, 20.0)
    facts = dlg.facts_label.text()
    assert 'Range 24.0" from StuH 42 (close support)' in facts
    assert "FP 7D, halved 4D = 4D at 4+" in facts and "AT 4D, halved 2D = 2D at 4+" in facts
    assert "Rifle platoon, SMG platoon, T34/43." in facts  # "far" is 2.01" away
    assert dlg.refusal_text() == ""

    res = type_dice(dlg.runner,
                    "6 4 3 2", "6 1 1 1",  # rifles: 2 successes, one 6; 1 save, one 6 (artillery needs more)
                    "5 5 1 1", "1 1 1 1",  # smgs: 2 successes; no saves: 2 Disruption
                    "4 2", "5 1 1 1 1")    # t34: 1 success; saved
    assert res is not None and res.values["under"] == ("rifles", "smgs", "t34")
    assert "On target: 1 unit suppressed, 2 take Disruption" in dlg.result_label.text()
    assert dlg.apply()

    game = kursk.game
    assert game.units["rifles"].counters["disruption"] == 1
    assert {"suppressed", "artillery_suppressed"} <= set(game.units["rifles"].conditions)
    assert game.units["smgs"].counters["disruption"] == 2 and game.units["smgs"].conditions == []
    assert game.units["t34"].counters["disruption"] == 0 and game.units["t34"].conditions == []
    assert game.markers == {}
    assert any("Indirect fire by StuH 42" in e.text for e in game.log)
    assert kursk.undo_stack.count() == 1

    kursk.undo_stack.undo()
    assert savefile.game_to_dict(kursk.game) == before
    dlg.reject()


def test_a_6_inch_target_is_refused_with_the_numbers_before_any_roll(qtbot: QtBot, kursk: Session) -> None:
    dlg = IndirectFireDialog(kursk, "stuh")
    qtbot.addWidget(dlg)
    dlg.los.setChecked(True)
    dlg.set_aim(30.0, 38.0)
    assert dlg.refusal_text() == ('The aiming point is 6.0" from StuH 42 (close support), within its short range '
                                  'of 9": indirect fire cannot target anything at short range.')
    assert not dlg.runner.isEnabled()


def test_beyond_doubled_long_range_and_no_observer_are_refused(qtbot: QtBot, kursk: Session) -> None:
    kursk.game.units["stuh"].x, kursk.game.units["stuh"].y = 1.0, 47.0
    dlg = IndirectFireDialog(kursk, "stuh")
    qtbot.addWidget(dlg)
    dlg.los.setChecked(True)
    dlg.set_aim(71.0, 0.0)
    assert 'beyond its indirect fire long range of 72" (long range 36" doubled)' in dlg.refusal_text()
    dlg.set_aim(20.0, 27.0)
    assert dlg.refusal_text() == ""
    dlg.los.setChecked(False)
    assert dlg.refusal_text() == ("Without line of sight to the aiming point another unit must act as "
                                  "Forward Observer.")
    assert not dlg.runner.isEnabled()
    assert not dlg.set_observer("stuh")  # the firer cannot observe for itself
    assert dlg.observer_id is None


def test_an_observed_mission_deviates_on_the_typed_arrow(qtbot: QtBot, kursk: Session) -> None:
    _unit(kursk.game, "rifle_platoon_su", "observer", 0, 30.0, 30.0)
    kursk.game.buildings["barn"] = Building("barn", "Barn", 30.0, 38.0, width=8.0, depth=3.0)  # hides the aim
    dlg = IndirectFireDialog(kursk, "stuh")
    qtbot.addWidget(dlg)
    dlg.set_aim(30.0, 20.0)
    dlg.set_observer("observer")
    assert not dlg.los.isChecked() and dlg.observer_id == "observer" and dlg.refusal_text() == ""
    label = dlg.observer_picker.current_label()
    assert "StuH" not in label and "Rifle platoon" in label
    assert "Within reach if it deviates: Far rifles." in dlg.facts_label.text()
    dlg.arrow_known.setChecked(True)
    dlg.arrow_bearing.setValue(90)
    res = type_dice(dlg.runner, "arrow", "3", "1 1 1 1", "1 1 1 1")  # no hits on the smgs, none on "far"
    assert res is not None and res.values["deviation"] == "arrow"
    assert (res.values["x"], res.values["y"]) == pytest.approx((33.0, 20.0))
    assert res.values["under"] == ("smgs", "far")
    dlg.reject()  # called off before Apply: nothing was placed
    assert kursk.game.markers == {} and kursk.undo_stack.count() == 0


def test_direct_fire_rolls_full_dice_then_the_reaction_as_one_step(qtbot: QtBot, kursk: Session) -> None:
    kursk.game.units["stuh"].y = 32.0  # 12" from the rifles: effective range
    kursk.game.units["rifles"].facing = 180.0  # facing the StuH: a shot at their front
    before = savefile.game_to_dict(kursk.game)
    dlg = DirectFireDialog(kursk, "stuh")
    qtbot.addWidget(dlg)
    dlg.set_target("rifles")
    t = dlg.current
    assert t is not None and not dlg.flank.isChecked()
    assert t.plan_text == "FP 7D = 7D at 4+ against infantry and soft targets."
    type_dice(t.fire, "6 6 5 1 1 1 1")      # 3 successes, two 6s
    type_dice(t.reaction, "6 6 1 1")        # 2 saves matching both 6s: 1 Disruption, not suppressed
    assert dlg.apply()
    rifles = kursk.game.units["rifles"]
    assert rifles.counters["disruption"] == 1 and rifles.conditions == []
    kursk.undo_stack.undo()
    assert savefile.game_to_dict(kursk.game) == before


def test_direct_fire_without_line_of_sight_is_refused(qtbot: QtBot, kursk: Session) -> None:
    dlg = DirectFireDialog(kursk, "stuh")
    qtbot.addWidget(dlg)
    dlg.set_target("rifles")
    assert dlg.flank.isChecked()  # the StuH is behind the rifles, which face up the table
    assert dlg.current is not None and "= 7D at 4+" in dlg.current.plan_text  # 24": long +1, rear -1
    dlg.los.setChecked(False)
    assert dlg.current is not None and dlg.current.refusal.startswith("Direct fire needs a line of sight")
    assert not dlg.apply_button.isEnabled()


def test_card_section_counters_are_undoable(qtbot: QtBot, kursk: Session) -> None:
    section = ArmourBattlesSection(None, kursk, "rifles")  # type: ignore[arg-type]
    qtbot.addWidget(section)
    kursk.changed.connect(lambda _c: section.refresh(kursk.game.unit("rifles")))
    section.refresh(kursk.game.unit("rifles"))
    assert section.dice.text().startswith("FP 6D · AT 1D")
    assert section.ranges.text() == 'Ranges 4/8/16"'
    section.sup_plus.click()
    section.sup_plus.click()
    assert section.suppression.text() == "Suppressed (artillery)"
    assert not section.sup_plus.isEnabled()
    section.dis_plus.click()
    assert section.disruption.text() == "1 of 3"
    kursk.undo_stack.undo()
    kursk.undo_stack.undo()
    assert section.suppression.text() == "Suppressed"
    section.sup_minus.click()
    assert kursk.game.units["rifles"].conditions == []
    stuh = ArmourBattlesSection(None, kursk, "stuh")  # type: ignore[arg-type]
    qtbot.addWidget(stuh)
    stuh.refresh(kursk.game.unit("stuh"))
    assert "indirect 4D/2D" in stuh.dice.text() and 'indirect 9"-72"' in stuh.ranges.text()


def test_selected_unit_shows_its_range_profile_rings(qtbot: QtBot, kursk: Session) -> None:
    from battletracker.ui.main_window import MainWindow

    win = MainWindow(kursk)

    win.feature_host.load()  # normally just after the first paint
    qtbot.addWidget(win, before_close_func=lambda _w: kursk.undo_stack.setClean())
    kursk.select("stuh")
    items = win.map.map_scene.overlays[RINGS]
    assert len(items) == 8  # short, effective, long and indirect long, each labelled
    kursk.select("rifles")
    assert len(win.map.map_scene.overlays[RINGS]) == 6  # no indirect ring for a unit that cannot fire indirectly
    kursk.select(None)
    assert RINGS not in win.map.map_scene.overlays
    assert win.feature_host.entries["ab.indirect_fire"].text() == "&Indirect fire..."


def test_moving_costs_the_halved_dice(qtbot: QtBot, kursk: Session) -> None:
    dlg = IndirectFireDialog(kursk, "stuh")
    qtbot.addWidget(dlg)
    dlg.los.setChecked(True)
    dlg.set_aim(30.0, 20.0)
    dlg.move_box.setCurrentIndex(dlg.move_box.findData("double"))
    assert "FP 7D, halved 4D, -1D moving = 3D at 4+" in dlg.facts_label.text()
    assert "AT 4D, halved 2D, -1D moving = 1D at 4+" in dlg.facts_label.text()
    dlg.move_box.setCurrentIndex(dlg.move_box.findData("triple"))
    assert "FP 7D, halved 4D, -2D moving = 2D at 4+" in dlg.facts_label.text()
    assert "AT 4D, halved 2D, -2D moving = no dice: no effect" in dlg.facts_label.text()


def test_the_action_opens_the_dialog_and_draws_the_burst_on_the_map(qtbot: QtBot, kursk: Session) -> None:
    from battletracker.ui.features.armour_battles.indirect import OVERLAY
    from battletracker.ui.main_window import MainWindow

    win = MainWindow(kursk)

    win.feature_host.load()  # normally just after the first paint
    qtbot.addWidget(win, before_close_func=lambda _w: kursk.undo_stack.setClean())
    win.feature_host.run_unit_action("ab.indirect_fire", "stuh")
    dlg = win.findChild(IndirectFireDialog)
    assert dlg is not None and dlg.isVisible()
    assert len(win.map.map_scene.overlays[OVERLAY]) == 2  # line of fire and the 2" burst at the aiming point
    dlg.reject()
    assert OVERLAY not in win.map.map_scene.overlays


def test_card_counters_are_recorded_actions_that_replay(qtbot: QtBot, kursk: Session, tmp_path: Path) -> None:
    section = ArmourBattlesSection(None, kursk, "rifles")  # type: ignore[arg-type]
    qtbot.addWidget(section)
    kursk.changed.connect(lambda _c: section.refresh(kursk.game.unit("rifles")))
    section.refresh(kursk.game.unit("rifles"))
    qtbot.mouseClick(section.sup_plus, Qt.MouseButton.LeftButton)
    assert kursk.game.actions[-1].name == "ab.suppression"
    qtbot.mouseClick(section.dis_plus, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(section.dis_plus, Qt.MouseButton.LeftButton)
    assert kursk.game.actions[-1].name == "ab.disruption"
    qtbot.mouseClick(section.dis_minus, Qt.MouseButton.LeftButton)
    assert section.disruption.text() == "1 of 3" and section.suppression.text() == "Suppressed"
    path = tmp_path / "kursk.battle"
    savefile.save(kursk.game, path)
    replayed, _steps = replay_steps(savefile.load(path))
    assert savefile.game_to_dict(replayed) == savefile.game_to_dict(kursk.game)


@pytest.mark.qt_log_ignore(NO_RAISE)
def test_direct_fire_target_is_chosen_from_the_list_or_clicked_on_the_map(qtbot: QtBot, kursk: Session) -> None:
    kursk.game.units["stuh"].y = 32.0
    view = shown_map(qtbot, kursk)
    dlg = DirectFireDialog(kursk, "stuh", view, view)
    dlg.show()
    qtbot.waitExposed(dlg)
    picker = dlg.target_picker
    assert picker.units() == ["rifles", "smgs", "t34", "far"]      # every other unit with combat numbers
    assert dlg.choices()["target"] == "rifles"

    choose_with_keys(qtbot, picker, "t34")
    assert dlg.choices()["target"] == "t34"
    assert dlg.current is not None and dlg.current.target_id == "t34" and dlg.current.dice_type == "at"

    click_on_map(qtbot, view, picker, "smgs", dlg)
    assert dlg.choices()["target"] == "smgs"
    assert dlg.current is not None and dlg.current.target_id == "smgs" and dlg.current.dice_type == "fp"

    click_on_map(qtbot, view, picker, "stuh", dlg)                 # the firer itself
    assert dlg.status.text() == "StuH 42 (close support) cannot fire at itself." and dlg.choices()["target"] == "smgs"


@pytest.mark.qt_log_ignore(NO_RAISE)
def test_the_forward_observer_is_chosen_from_the_list_or_clicked_on_the_map(qtbot: QtBot, kursk: Session) -> None:
    _unit(kursk.game, "rifle_platoon_su", "observer", 0, 30.0, 30.0)
    _unit(kursk.game, "t34_43", "panzer", 0, 40.0, 40.0)
    kursk.game.buildings["barn"] = Building("barn", "Barn", 30.0, 38.0, width=8.0, depth=3.0)  # hides the aim
    view = shown_map(qtbot, kursk)
    dlg = IndirectFireDialog(kursk, "stuh", view, view)
    dlg.show()
    qtbot.waitExposed(dlg)
    dlg.set_aim(30.0, 20.0)
    picker = dlg.observer_picker
    assert picker.units() == ["observer", "panzer"]               # the firer's side, not the firer
    assert dlg.observer_id is None and "observer" not in dlg.choices()
    assert dlg.refusal_text().startswith("No Line of Sight: crosses Barn. Without line of sight")

    choose_with_keys(qtbot, picker, "panzer")
    assert dlg.choices()["observer"] == "panzer" and dlg.refusal_text() == ""
    assert dlg.plan is not None and dlg.plan.inputs["observer"] is True

    click_on_map(qtbot, view, picker, "observer", dlg)
    assert dlg.choices()["observer"] == "observer"
    assert any("Forward Observer: Rifle platoon" in fact for fact in dlg.facts_label.facts())

    click_on_map(qtbot, view, picker, "smgs", dlg)                  # the enemy cannot observe
    assert "on the other side" in dlg.refusal_text() and dlg.choices()["observer"] == "observer"

    qtbot.keyClick(picker.combo, Qt.Key.Key_Home)                   # back to no observer
    assert "observer" not in dlg.choices() and dlg.refusal_text().startswith("No Line of Sight: crosses Barn. Without")


@pytest.mark.qt_log_ignore(NO_RAISE)
def test_the_aiming_point_is_clicked_on_the_map(qtbot: QtBot, kursk: Session) -> None:
    view = shown_map(qtbot, kursk)
    dlg = IndirectFireDialog(kursk, "stuh", view, view)
    dlg.show()
    qtbot.waitExposed(dlg)
    dlg.los.setChecked(True)
    qtbot.mouseClick(dlg.pick_aim, Qt.MouseButton.LeftButton)
    assert view.picking and not dlg.isVisible()
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     view.mapFromScene(QPointF(30.0, 20.0)))
    assert not view.picking and dlg.isVisible()
    assert dlg.choices()["x"] == pytest.approx(30.0, abs=0.1) and dlg.choices()["y"] == pytest.approx(20.0, abs=0.1)
    assert dlg.plan is not None and any("Range 24.0\"" in fact for fact in dlg.facts_label.facts())


def test_the_cover_dice_box_says_so_when_no_unit_is_in_reach(qtbot: QtBot, kursk: Session) -> None:
    dlg = IndirectFireDialog(kursk, "stuh")
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.los.setChecked(True)
    dlg.set_aim(10.0, 30.0)
    assert dlg.refusal_text() == ""
    assert dlg.cover_box.isVisible() and dlg.cover_form.rowCount() == 0
    assert dlg.no_cover.isVisible()
    assert dlg.no_cover.text() == "No unit is within reach of this aiming point, so none rolls Cover Dice."

    dlg.set_aim(30.0, 20.0)
    assert not dlg.no_cover.isVisible() and dlg.cover_form.rowCount() == 3
    dlg.set_aim(10.0, 30.0)
    assert dlg.no_cover.isVisible() and dlg.cover_form.rowCount() == 0
    dlg.reject()


def test_two_units_of_one_name_are_told_apart_by_where_they_stand(qtbot: QtBot, kursk: Session) -> None:
    kursk.game.units["smgs"].name = "Rifle platoon"
    dlg = IndirectFireDialog(kursk, "stuh")
    qtbot.addWidget(dlg)
    dlg.los.setChecked(True)
    dlg.set_aim(30.0, 20.0)
    rows = {uid: dlg.cover_form.labelForField(box).text() for uid, box in dlg.cover.items()}
    assert rows["rifles"] == 'Rifle platoon, 2.2" south-west of T34/43'
    assert rows["smgs"] == 'Rifle platoon, 1.1" south-west of Far rifles'
    assert rows["t34"] == "T34/43"
    dlg.reject()


def test_every_alt_letter_of_the_direct_fire_dialog_reaches_one_thing(qtbot: QtBot, kursk: Session) -> None:
    """The fire's and the Reaction Check's dice buttons each take their own Alt+letter: two that share one only
    move the focus between them."""
    import re

    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QAbstractButton
    from PySide6.QtWidgets import QApplication

    dlg = DirectFireDialog(kursk, "stuh")
    qtbot.addWidget(dlg)
    dlg.set_target("rifles")
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # the target's parts rebuilt on the way
    keys: dict[str, list[str]] = {}
    for button in dlg.findChildren(QAbstractButton):
        found = re.search(r"&([^&])", button.text().replace("&&", ""))
        if found and button.isVisibleTo(dlg):  # a hidden button's letter does nothing
            keys.setdefault(found.group(1).lower(), []).append(button.text())
    assert {key: texts for key, texts in keys.items() if len(texts) > 1} == {}


def test_a_cover_dice_box_at_none_says_the_unit_is_in_the_open(qtbot: QtBot, kursk: Session) -> None:
    dlg = IndirectFireDialog(kursk, "stuh")
    qtbot.addWidget(dlg)
    dlg.los.setChecked(True)
    dlg.set_aim(30.0, 20.0)
    box = next(iter(dlg.cover.values()))
    assert box.text() == "0 D: in the open"
    qtbot.keyClick(box, Qt.Key.Key_Up)
    assert box.value() == 1 and box.text() == "1 D"
    dlg.reject()
