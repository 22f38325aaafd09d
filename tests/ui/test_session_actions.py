"""Session.act: the real buttons, drags and End Phase are one undo step each, one `changed` signal per step,
and the actions they record survive saving and reopening with their undo history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolBar
from PySide6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.actions import UNTRACKED
from battletracker.model.effects import Changes
from battletracker.model.effects import Effect
from battletracker.model.effects import add_shock
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules import Refusal
from battletracker.ui.main_window import MainWindow
from battletracker.ui.map import MapView
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session
from tests.ui.test_cards import button
from tests.ui.test_cards import card_of
from tests.ui.test_cards import click
from tests.ui.test_cards import label
from tests.ui.test_cards import show_panel
from tests.ui.test_map import drag
from tests.ui.test_map import small_battle
from tests.ui.test_map import vp_point


def record(session: Session) -> list[Changes]:
    seen: list[Changes] = []
    session.changed.connect(seen.append)
    return seen


def test_a_plus_button_is_one_step_with_one_signal_on_press_undo_and_redo(qtbot: QtBot, session: Session) -> None:
    host, panel = show_panel(qtbot, session)
    seen = record(session)
    click(qtbot, button(card_of(panel, "u7"), "plus_shock"))
    assert seen == [Changes(units=frozenset({"u7"}), log=True, history=True)]
    assert session.undo_stack.count() == 1
    action = session.game.actions[-1]
    assert (action.name, dict(action.choices)) == ("unit.counter", {"unit": "u7", "counter": "shock", "delta": 1})
    session.undo_stack.undo()
    assert len(seen) == 2 and seen[1] == seen[0]
    assert session.game.actions == [] and session.game.unit("u7").shock == 0
    session.undo_stack.redo()
    assert len(seen) == 3
    assert session.game.actions == [action]
    del host


def test_figures_minus_and_condition_buttons_record_their_actions(qtbot: QtBot, session: Session) -> None:
    host, panel = show_panel(qtbot, session)
    card = card_of(panel, "u7")
    seen = record(session)
    figures = session.game.unit("u7").figures
    click(qtbot, button(card, "minus_figures"))
    assert card.set_condition("pinned", True)
    assert session.game.unit("u7").figures == figures - 1 and session.game.unit("u7").has("pinned")
    assert [a.name for a in session.game.actions] == ["unit.figures", "unit.condition"]
    assert len(seen) == 2
    del host


def test_side_header_and_damage_menu_record_their_actions(qtbot: QtBot, session: Session) -> None:
    host, panel = show_panel(qtbot, session)
    seen = record(session)
    header = panel.headers()[0]
    minus = header.findChild(QToolButton, "minus_force_morale")
    assert minus is not None
    click(qtbot, minus)
    menu = card_of(panel, "u11").build_menu(full=True)
    next(a for a in menu.actions() if a.objectName() == "damage_immobilised").trigger()
    assert [(a.name, dict(a.choices)) for a in session.game.actions] == [
        ("side.change", {"side": 0, "value": "force_morale", "delta": -1}),
        ("unit.damage", {"unit": "u11", "damage": "immobilised", "present": True}),
    ]
    assert len(seen) == 2
    del host


def test_end_phase_is_one_step_with_one_signal_carrying_the_clock(qtbot: QtBot, session: Session,
                                                                  tmp_path: Path) -> None:
    window = MainWindow(session, Recovery(session, tmp_path))
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.show()
    qtbot.waitExposed(window)
    toolbar = window.findChild(QToolBar, "toolbar-main")
    assert toolbar is not None
    end_phase = toolbar.widgetForAction(window.end_phase_action)
    assert isinstance(end_phase, QToolButton)
    seen = record(session)
    qtbot.mouseClick(end_phase, Qt.MouseButton.LeftButton)
    assert len(seen) == 1 and seen[0].clock and seen[0].log
    assert "Phase <b>2</b>" in window.clock_label.text()
    assert session.game.actions[-1].name == "clock.end_phase"
    window.undo_action.trigger()
    assert len(seen) == 2 and seen[1].clock
    assert "Phase <b>1</b>" in window.clock_label.text()
    assert session.game.actions == []


def test_a_drag_on_the_map_is_the_move_action(qtbot: QtBot) -> None:
    session = Session(small_battle())
    view = MapView(session)
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    qtbot.waitExposed(view)
    seen = record(session)
    drag(view, vp_point(view, 20.0, 10.0), vp_point(view, 26.0, 13.0))
    assert len(seen) == 1 and seen[0].units == frozenset({"g1"})
    action = session.game.actions[-1]
    assert action.name == "unit.move" and action.choices["unit"] == "g1"
    assert action.choices["x"] == pytest.approx(26.0, abs=0.1)
    assert session.game.log[-1].text.startswith("1. Gruppe moved ")


def test_act_refuses_in_a_players_words_and_changes_nothing(session: Session) -> None:
    before = savefile.game_to_dict(session.game)
    with pytest.raises(Refusal, match="That unit is no longer on the table"):
        session.act("unit.shock", {"unit": "u99", "delta": 1})
    assert savefile.game_to_dict(session.game) == before
    assert session.undo_stack.count() == 0


def test_act_with_the_tables_dice_uses_and_records_them(session: Session) -> None:
    result = session.act("dice.pool", {"dice": 3, "target": 4}, [4, 1, 6])
    assert result.values == {"successes": 2}
    assert session.game.actions[-1].dice == (4, 1, 6)
    assert session.game.log[-2].text == "Dice pool - rolls: 3D6: 4 1 6"


def test_reopening_a_game_offers_its_undo_history_again(tmp_path: Path, demo_game: Game) -> None:
    first = Session(demo_game)
    start = savefile.game_to_dict(first.game)
    first.act("unit.shock", {"unit": "u1", "delta": 2})
    first.act("dice.pool", {"dice": 2, "target": 4})
    first.act("clock.end_phase", {})
    path = tmp_path / "battle.json"
    savefile.save(first.game, path)

    again = Session(Game())
    again.open(path)
    assert again.game == first.game
    assert not again.modified
    assert [again.undo_stack.text(i) for i in range(again.undo_stack.count())] == [
        "Shock +2 on 1. Gruppe", "Dice pool", "End of Turn 1 Phase 1"]
    for _ in range(3):
        again.undo_stack.undo()
    assert savefile.game_to_dict(again.game) == start
    again.undo_stack.redo()
    assert again.game.unit("u1").shock == 2 and len(again.game.actions) == 1
    started = Session(savefile.load(path))
    assert started.undo_stack.count() == 3 and not started.modified


def test_a_game_with_a_step_no_action_records_reopens_without_undo_but_keeps_its_actions(
        tmp_path: Path, demo_game: Game) -> None:
    first = Session(demo_game)
    first.act("unit.shock", {"unit": "u1", "delta": 1})
    first.apply("Shock", [add_shock("u2", 1)])
    path = tmp_path / "battle.json"
    savefile.save(first.game, path)
    again = Session(Game())
    again.open(path)
    assert again.game == first.game
    assert [a.name for a in again.game.actions] == ["unit.shock", UNTRACKED]
    assert again.undo_stack.count() == 0


def test_the_cards_follow_a_reopened_history(qtbot: QtBot, tmp_path: Path, demo_game: Game) -> None:
    first = Session(demo_game)
    first.act("unit.shock", {"unit": "u7", "delta": 2})
    path = tmp_path / "battle.json"
    savefile.save(first.game, path)
    session = Session(Game())
    host, panel = show_panel(qtbot, session)
    session.open(path)
    assert label(card_of(panel, "u7"), "value_shock").text() == "2"
    session.undo_stack.undo()
    assert label(card_of(panel, "u7"), "value_shock").text() == "0"
    del host


def test_the_unit_dialogs_add_and_apply_buttons_record_unit_add_and_unit_edit(qtbot: QtBot, session: Session) -> None:
    from battletracker.ui.unit_dialog import UnitDialog

    add = UnitDialog(session, None)
    qtbot.addWidget(add)
    add.select_preset("bazooka_team")
    seen = record(session)
    qtbot.mouseClick(add.ok_button, Qt.MouseButton.LeftButton)
    added = add.added_id
    assert added is not None and added in session.game.units
    edit = UnitDialog(session, added)
    qtbot.addWidget(edit)
    edit.name.setText("Bazooka 2")
    qtbot.mouseClick(edit.ok_button, Qt.MouseButton.LeftButton)
    assert [a.name for a in session.game.actions] == ["unit.add", "unit.edit"]
    assert session.game.actions[0].choices["what"] == "Bazooka team"
    assert session.game.log[-1].text == "Edited Bazooka team: name Bazooka team -> Bazooka 2"
    assert len(seen) == 2 and all(c.roster for c in seen)


def _long_game(demo: Game, actions: int) -> Game:
    """The demo played for `actions` actions: Shock, moves, dice pools and Phase ends, as a Session records them."""
    session = Session(demo)
    ids = list(demo.units)
    for i in range(actions):
        unit = ids[i % len(ids)]
        kind = i % 5
        if kind == 4:
            session.act("clock.end_phase", {})
        elif kind == 3:
            session.act("dice.pool", {"dice": 3, "target": 4}, [(i % 6) + 1, 6, 2])
        elif kind in (1, 2):
            session.act("unit.move", {"unit": unit, "x": 5.0 + i % 40, "y": 3.0 + i % 30})
        else:
            session.act("unit.shock", {"unit": unit, "delta": 1})
    return session.game


def test_a_long_game_reopens_with_every_step_undoable_and_redoable_exactly(tmp_path: Path, demo_game: Game) -> None:
    start = savefile.game_to_dict(demo_game)
    played = _long_game(demo_game, 120)
    end = savefile.game_to_dict(played)
    path = tmp_path / "long.battle"
    savefile.save(played, path)
    session = Session(Game())
    session.open(path)
    assert session.undo_stack.count() == 120 and not session.modified
    assert savefile.game_to_dict(session.game) == end
    for _ in range(120):
        session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == start
    for _ in range(120):
        session.undo_stack.redo()
    assert savefile.game_to_dict(session.game) == end and not session.modified


def test_reopening_applies_each_recorded_step_once(tmp_path: Path, demo_game: Game,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The undo history comes back from one replay: its steps keep what the replay applied, nothing is redone."""
    path = tmp_path / "long.battle"
    savefile.save(_long_game(demo_game, 40), path)
    applied: list[int] = []
    apply_all = Game.apply_all

    def counting(game: Game, effects: list[Effect]) -> list[Effect]:
        applied.append(len(effects))
        return apply_all(game, effects)

    monkeypatch.setattr(Game, "apply_all", counting)
    session = Session(Game())
    session.open(path)
    assert session.undo_stack.count() == 40
    assert len(applied) == 40


def test_changing_a_sides_force_morale_copies_no_unit_and_redraws_everything(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check and the step keep a copy of the sides only (not of every unit); the views still redraw all."""
    from battletracker.model import game as model_game

    copied: list[object] = []
    copy_record = model_game._copied

    def counting(value: object) -> object:
        copied.append(value)
        return copy_record(value)

    monkeypatch.setattr(model_game, "_copied", counting)
    seen = record(session)
    before = session.game.sides[0].force_morale
    session.act("side.change", {"side": 0, "value": "force_morale", "delta": -1})
    assert session.game.sides[0].force_morale == before - 1
    assert not any(isinstance(value, Unit) for value in copied)
    assert seen and seen[0].everything
    session.undo_stack.undo()
    assert session.game.sides[0].force_morale == before


@pytest.mark.parametrize("newer_keys", [False, True])
def test_a_start_written_without_defaults_or_with_unknown_lists_reopens_with_undo_and_saves_again(
        tmp_path: Path, newer_keys: bool) -> None:
    """An older or hand-written start (values left at their defaults, names unsorted, keys of a newer version)
    replays like the start it means, so its undo history comes back, and the game saves and loads again."""
    from tests.rules.test_replay import played

    game = played()
    doc = json.loads(savefile.dumps(game))
    for unit in doc["history"]["start"]["units"]:
        for key, default in (("notes", ""), ("level", 0), ("acted", None), ("stats", {})):
            if unit.get(key) == default:
                del unit[key]
        if float(unit["facing"]).is_integer():
            unit["facing"] = unit["facing"] + 360
        unit["conditions"] = sorted(unit["conditions"], reverse=True)
        if newer_keys:
            unit["from_a_newer_version"] = [{"kept": False}]
    path = tmp_path / "older.battle"
    path.write_text(json.dumps(doc), encoding="utf-8")
    session = Session(Game())
    session.open(path)
    assert session.undo_stack.count() == len(game.actions)
    assert savefile.game_to_dict(session.game) == savefile.game_to_dict(game)
    loaded = savefile.load(path)
    assert savefile.loads(savefile.dumps(loaded)) == loaded
    for _ in game.actions:
        session.undo_stack.undo()
    assert savefile.game_to_dict(session.game)["game"] == game.start


def test_a_game_saved_with_the_old_command_dice_wording_reopens_with_undo_and_redo(tmp_path: Path) -> None:
    """Its lines stay as saved, undo and redo give them back exactly, and the next roll is worded the new way."""
    from tests.rules.test_log_wording import OLD_SAVE

    path = tmp_path / "older.battle"
    path.write_bytes(OLD_SAVE.read_bytes())
    saved = savefile.load(path)
    session = Session(Game())
    session.open(path)
    assert session.undo_stack.count() == 4 and not session.modified
    assert session.game == saved
    for _ in range(4):
        session.undo_stack.undo()
    assert savefile.game_to_dict(session.game)["game"] == saved.start
    for _ in range(4):
        session.undo_stack.redo()
    assert session.game == saved and not session.modified
    assert session.game.log[0].text == ("Germany: Command Dice (dice rolled at the table) - rolls: "
                                        "Command Dice: 6 5 3 1 1")
    session.act("clock.end_phase", {})
    session.act("coc.command_dice", {}, [2, 2, 3, 4, 5], typed=True)
    assert [e.text for e in session.game.log if "- rolls: " in e.text][-1] == \
        "Germany: Command Dice (dice rolled at the table) - rolls: 2 2 3 4 5"
