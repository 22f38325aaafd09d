"""A close-support unit's Close assault from its unit action: a gun at +2 TN,
the overrun attack refused with the reason before anything is rolled, and the
result logged as one undo step that undo takes back exactly."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.rules.presets import preset
from battletracker.ui.features.armour_battles.assault import CloseAssaultDialog
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
def melee() -> Session:
    game = Game(title="Assault", ruleset="armour_battles",
                sides=[Side("Germany", "#666666"), Side("Soviet Union", "#aa3333")])
    _unit(game, "stuh_42", "stuh", 0, 30.0, 30.0)
    _unit(game, "rifle_platoon_su", "rifles", 1, 30.0, 28.0)
    _unit(game, "t34_43", "t34", 1, 33.0, 28.0)
    return Session(game)


def test_fights_as_a_gun_at_plus_two_and_logs_the_result_as_one_undo_step(qtbot: QtBot, melee: Session) -> None:
    before = savefile.game_to_dict(melee.game)
    dlg = CloseAssaultDialog(melee, "stuh")
    qtbot.addWidget(dlg)
    assert dlg.choices()["target"] == "rifles"
    assert dlg.facts.facts()[1] == "FP 7D as a gun (+2 TN) = 7D at 6+."
    dlg.widget("attacker").setChecked(True)  # the attacker's first round: -1 TN
    assert dlg.facts.facts()[1] == "FP 7D as a gun (+2 TN) = 7D at 5+."
    assert dlg.refusal.text() == ""
    shown = [label for label, _p in dlg.runner.odds_plot.rows]
    assert shown[:3] == ["no successes", "1 success", "2 successes"]
    type_dice(dlg.runner, "6 5 5 4 3 2 1")
    res = dlg.runner.result
    assert res is not None and res.outcome == "successes=3" and list(res.effects) == []
    assert res.values["tn"] == 5 and res.values["sixes"] == 1
    assert dlg.runner.apply_button.text() == "&Log result"
    assert dlg.runner.apply()
    log = [e.text for e in melee.game.log]
    assert any("Close assault: StuH 42" in t and "against" in t and "6 5 5 4 3 2 1" in t for t in log)
    assert any("Close assault as a gun (+2 TN): FP 7D needing 5+" in t and "3 successes" in t for t in log)
    assert not dlg.widget("overrun").isEnabled() and not dlg.runner.roll_button.isEnabled()
    melee.undo_stack.undo()
    assert savefile.game_to_dict(melee.game) == before


def test_against_armour_it_rolls_at_dice(qtbot: QtBot, melee: Session) -> None:
    dlg = CloseAssaultDialog(melee, "stuh")
    qtbot.addWidget(dlg)
    dlg.choose("target", "t34")
    assert dlg.plan is not None and dlg.plan.inputs["dice_type"] == "at"
    assert dlg.facts.facts()[1] == "AT 4D as a gun (+2 TN) = 4D at 6+."
    dlg.widget("suppressed").setChecked(True)  # 5+ suppressed, +2 as a gun: 7+ slides to 6+ with a die fewer
    assert "= 3D at 6+" in dlg.facts.facts()[1] and "slides -1D" in dlg.facts.facts()[1]


def test_an_overrun_attack_is_refused_before_anything_is_rolled(qtbot: QtBot, melee: Session) -> None:
    before = savefile.game_to_dict(melee.game)
    dlg = CloseAssaultDialog(melee, "stuh")
    qtbot.addWidget(dlg)
    dlg.widget("overrun").setChecked(True)
    assert dlg.refusal.text() == "Close-support units can never make an overrun attack."
    assert not dlg.runner.roll_button.isEnabled() and not dlg.runner.typed_button.isEnabled()
    assert dlg.runner.result is None and dlg.runner.isHidden()
    assert savefile.game_to_dict(melee.game) == before
    dlg.widget("overrun").setChecked(False)
    assert dlg.refusal.text() == "" and dlg.runner.roll_button.isEnabled()
    assert not dlg.runner.isHidden()


def test_the_action_is_offered_for_close_support_units_only(qtbot: QtBot, melee: Session) -> None:
    from battletracker.ui.extensions import unit_actions
    from battletracker.ui.main_window import MainWindow

    win = MainWindow(melee)
    win.feature_host.load()
    qtbot.addWidget(win, before_close_func=lambda _w: melee.undo_stack.setClean())
    assert "ab.close_assault" in [a.key for a in unit_actions(melee.game, melee.game.unit("stuh"))]
    assert "ab.close_assault" not in [a.key for a in unit_actions(melee.game, melee.game.unit("t34"))]
    win.feature_host.run_unit_action("ab.close_assault", "stuh")
    dlg = win.findChild(CloseAssaultDialog)
    assert dlg is not None and dlg.isVisible()
    dlg.reject()


@pytest.mark.qt_log_ignore(NO_RAISE)
def test_the_opponent_is_chosen_from_the_list_or_clicked_on_the_map(qtbot: QtBot, melee: Session) -> None:
    view = shown_map(qtbot, melee)
    dlg = CloseAssaultDialog(melee, "stuh", view, view)
    dlg.show()
    qtbot.waitExposed(dlg)
    picker = dlg.widget("target")
    assert picker.units() == ["rifles", "t34"] and dlg.choices()["target"] == "rifles"

    choose_with_keys(qtbot, picker, "t34")
    assert dlg.choices()["target"] == "t34"
    assert dlg.plan is not None and dlg.plan.inputs["dice_type"] == "at"
    assert dlg.runner.title == "Close assault: StuH 42 (close support) against T34/43"

    click_on_map(qtbot, view, picker, "rifles", dlg)
    assert dlg.choices()["target"] == "rifles"
    assert dlg.plan is not None and dlg.plan.inputs["dice_type"] == "fp"

    click_on_map(qtbot, view, picker, "stuh", dlg)                 # the unit itself
    assert dlg.refusal.text() == "StuH 42 (close support) cannot pick itself as the unit it fights."
    assert dlg.choices()["target"] == "rifles"
