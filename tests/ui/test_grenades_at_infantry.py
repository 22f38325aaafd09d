"""Grenades at infantry (`coc.grenades_at_infantry`): the throw and the volley with scripted dice, exact odds
that agree with the dice, the plan's refusals in a player's words, the defaults to check, and the dialog from
the Actions menu with the table's dice typed in."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QSpinBox
from pytestqt.qtbot import QtBot

from battletracker.core.dice import ScriptedDice
from battletracker.model import savefile
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import ChangeFigures
from battletracker.model.game import Game
from battletracker.rules import get
from battletracker.rules import resolve
from battletracker.rules.actions import perform
from battletracker.rules.actions import plan
from battletracker.rules.base import Refusal
from battletracker.rules.chain_of_command.fire import hit_effect_faces
from battletracker.rules.chain_of_command.grenades_at_infantry import GRENADES_AT_INFANTRY
from battletracker.rules.replay import replay_steps
from battletracker.rules.tables import resources_dir
from battletracker.rules.tables import ruleset_settings
from battletracker.ui.procedure_parts import PlannedActionDialog
from battletracker.ui.session import Session
from tests.acting import ready
from tests.rules.oddscheck import assert_odds_match_simulation
from tests.ui.windows import shown_window

AT_LIGHT = {"firepower_dice": 3, "to_hit": 4, "cover": "light", "target_id": "t", "target_figures": "6"}


def face(cover: str, effect: str) -> int:
    return hit_effect_faces(cover).index(effect) + 1


def test_a_throw_with_a_bullseye_adds_a_die_and_the_hits_fall_on_the_team() -> None:
    kill, shock = face("light", "kill"), face("light", "shock")
    res = resolve(GRENADES_AT_INFANTRY, AT_LIGHT, ScriptedDice([3, 6, 6, 4, 2, 1, kill, shock, 1]))
    assert list(res.rolls)[:2] == [("Throw", (3, 6)), ("Firepower Dice", (6, 4, 2, 1))]
    assert res.values["bullseye_dice"] == 1 and res.values["hits"] == 2
    assert res.outcome == "kills=1 shock=1"
    assert list(res.effects) == [ChangeFigures("t", -1), ChangeCounter("t", "shock", 1)]
    assert res.log[0] == "Throw 3 and 6 = 9, needing 7: landed"


def test_a_missed_throw_rolls_no_firepower() -> None:
    res = resolve(GRENADES_AT_INFANTRY, AT_LIGHT, ScriptedDice([2, 3]))
    assert res.outcome == "kills=0 shock=0 missed" and list(res.effects) == []
    assert get(GRENADES_AT_INFANTRY).label(res.outcome) == "the throw missed"
    assert [label for label, _ in res.rolls] == ["Throw"]


def test_the_player_may_say_where_the_throw_landed() -> None:
    res = resolve(GRENADES_AT_INFANTRY, {**AT_LIGHT, "throw_hit": True, "bullseye_dice": 1},
                  ScriptedDice([1, 1, 1, 1]))
    assert [label for label, _ in res.rolls] == ["Firepower Dice"] and res.values["dice_rolled"] == 4


@pytest.mark.parametrize("which", ["typical", "largest"])
def test_the_exact_odds_sum_to_one_and_agree_with_the_dice(which: str) -> None:
    inputs = getattr(get(GRENADES_AT_INFANTRY), which)
    assert inputs is not None
    assert_odds_match_simulation(GRENADES_AT_INFANTRY, inputs, runs=1000)


def test_what_the_documents_do_not_state_is_a_default_to_check() -> None:
    settings = {s.key: s for s in ruleset_settings("chain_of_command")}
    storm = settings["grenade_storm_of_steel"]
    assert storm.default is False and storm.check is True and "13.5.1.1" in storm.description


def table() -> Game:
    """The demo, with 1. Gruppe moved up 4" from 1st Squad behind its hedge, ready to act."""
    game = savefile.load(resources_dir() / "demo" / "chain_of_command.json")
    game.unit("u1").x, game.unit("u1").y = 22.0, 34.0
    return ready(game, "u1")


def test_the_plan_reads_the_team_the_target_and_its_cover_from_the_table() -> None:
    p = plan(GRENADES_AT_INFANTRY, table(), {"firer": "u1", "target": "u7"})
    assert p.title == "1. Gruppe throws grenades at 1st Squad"
    assert p.inputs["firepower_dice"] == 7 and p.inputs["cover"] == "light" and p.inputs["target_figures"] == "12"
    assert p.inputs["storm_of_steel"] is False and p.inputs["grenade_throw_to_hit"] == 7
    assert "Light cover: behind Hedge" in p.facts


@pytest.mark.parametrize(("target", "words"), [
    ("u8", '2nd Squad is 16.8" away: grenades are thrown at a Team within 6".'),
    ("u2", "2. Gruppe is on the same side as 1. Gruppe: pick an enemy unit."),
    ("u9", "Sniper is a sniper that has not been spotted: it cannot be targeted (mark it Spotted on its card first)."),
    ("", "Choose the target."),
])
def test_the_plan_refuses_in_a_players_words(target: str, words: str) -> None:
    game = table()
    game.unit("u9").x, game.unit("u9").y = 19.0, 31.0
    with pytest.raises(Refusal) as refused:
        plan(GRENADES_AT_INFANTRY, game, {"firer": "u1", "target": target})
    assert str(refused.value) == words


def test_a_unit_that_has_not_been_activated_cannot_throw() -> None:
    game = savefile.load(resources_dir() / "demo" / "chain_of_command.json")
    game.unit("u1").x, game.unit("u1").y = 22.0, 34.0
    with pytest.raises(Refusal, match="Roll Germany's Command Dice for this Phase first"):
        plan(GRENADES_AT_INFANTRY, game, {"firer": "u1", "target": "u7"})


def test_the_action_replays_as_it_was_thrown() -> None:
    game = table()
    res = perform(game, GRENADES_AT_INFANTRY, {"firer": "u1", "target": "u7"}, [3, 6] + [6] * 8 + [1] * 8,
                  time="2026-12-02T20:00:00")
    game.apply_all(res.effects)
    replayed, _steps = replay_steps(game)
    assert savefile.game_to_dict(replayed) == savefile.game_to_dict(game)


def opened(qtbot: QtBot, tmp_path: Path) -> tuple[Session, PlannedActionDialog]:
    """The demo's window, 1. Gruppe selected, and its Grenades at infantry... entry of the Actions menu chosen."""
    window = shown_window(qtbot, tmp_path, table())
    session = window.session
    session.select("u1")
    window.feature_host.fill_actions_menu()
    entry = window.feature_host.entries[GRENADES_AT_INFANTRY]
    assert entry in window.actions_menu.actions() and entry.text() == "Grenades at infantry..."
    entry.trigger()
    dialog = window.findChild(PlannedActionDialog)
    assert dialog is not None
    qtbot.waitExposed(dialog)
    return session, dialog


def test_the_dialog_from_the_actions_menu_takes_the_tables_dice(qtbot: QtBot, tmp_path: Path) -> None:
    session, dialog = opened(qtbot, tmp_path)
    assert dialog.windowTitle() == "Grenades - 1. Gruppe" and dialog.choices()["target"] == "u7"
    assert dialog.runner.odds_plot.rows and not dialog.refusal.refused()
    dice = dialog.widget("firepower_dice")
    assert isinstance(dice, QSpinBox) and dice.value() == 7
    dice.setFocus()
    qtbot.keyClick(dice, Qt.Key.Key_Down)                                # the Team has lost a figure
    assert dialog.choices()["firepower_dice"] == 6

    runner = dialog.runner
    qtbot.mouseClick(runner.typed_button, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(runner.entry, "2 3")                                 # the throw misses: nothing more to roll
    qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    assert dialog.isVisible() and runner.result is not None, runner.entry_error.text()
    assert runner.result.outcome == "kills=0 shock=0 missed"
    assert runner.odds_plot.quantities is not None, "kills and Shock charted, a missed throw among the no-kills"
    qtbot.mouseClick(runner.apply_button, Qt.MouseButton.LeftButton)
    assert session.undo_stack.count() == 1
    action = session.game.actions[-1]
    assert action.name == GRENADES_AT_INFANTRY and list(action.dice) == [2, 3] and action.typed
    assert action.choices["firepower_dice"] == 6 and runner.locked
    dialog.close()


def test_escape_asks_before_typed_dice_are_lost_and_closes_at_once_once_applied(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _session, dialog = opened(qtbot, tmp_path)
    asked: list[str] = []

    def keep(_parent: object, title: str, *_rest: object) -> QMessageBox.StandardButton:
        asked.append(title)
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", keep)
    finished: list[int] = []
    dialog.finished.connect(finished.append)
    runner = dialog.runner
    qtbot.mouseClick(runner.typed_button, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(runner.entry, "3 6")                                 # the throw lands: the dice are asked next
    qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    qtbot.keyClick(runner.entry, Qt.Key.Key_Escape)
    assert asked == ["Discard the typed dice?"] and finished == [] and dialog.isVisible()
    qtbot.keyClicks(runner.entry, " ".join(["4"] * 8))
    qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    qtbot.keyClicks(runner.entry, " ".join(["1"] * 8))
    qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    assert runner.result is not None, runner.entry_error.text()
    qtbot.mouseClick(runner.apply_button, Qt.MouseButton.LeftButton)
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert len(asked) == 1 and finished == [QDialog.DialogCode.Rejected]
