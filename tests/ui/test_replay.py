"""Replaying a game: the window shows each step read-only, and Continue from here branches as one undo step."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtCore import Qt
from PySide6.QtGui import QTransform
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QListView
from PySide6.QtWidgets import QStyledItemDelegate
from PySide6.QtWidgets import QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.model.game import GameError
from battletracker.rules.replay import replay_steps
from battletracker.rules.replay import start_of
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import ReadOnlyError
from battletracker.ui.session import Session
from tests.ui.test_cards import button
from tests.ui.test_cards import card_of
from tests.ui.test_cards import click
from tests.ui.test_cards import label
from tests.ui.test_files_and_recovery import answer_next_box

PLAY = [
    ("unit.shock", {"unit": "u1", "delta": 2}, None),
    ("dice.pool", {"dice": 2, "target": 4}, [5, 2]),
    ("unit.move", {"unit": "u7", "x": 30.0, "y": 20.0}, None),
    ("clock.end_phase", {}, None),
    ("unit.shock", {"unit": "u7", "delta": 1}, None),
    ("clock.end_phase", {}, None),
]


def play(session: Session) -> None:
    for name, choices, dice in PLAY:
        session.act(name, choices, dice)


def headless_states(game: Game) -> list[dict[str, object]]:
    _end, steps = replay_steps(game)
    current = start_of(game)
    states = [savefile.game_to_dict(current)]
    for step in steps:
        current.apply_all(step.effects)
        states.append(savefile.game_to_dict(current))
    return states


def test_the_session_shows_each_step_read_only_and_back_to_the_game_restores_it(session: Session) -> None:
    play(session)
    live = savefile.game_to_dict(session.game)
    states = headless_states(session.game)
    session.start_replay()
    assert session.replaying and session.replay_position() == "step 0 of 6"
    for k in [*range(7), *reversed(range(7))]:
        session.show_step(k)
        assert savefile.game_to_dict(session.game) == states[k], k
    session.show_step(3)
    with pytest.raises(ReadOnlyError, match=r"read-only while you replay it \(step 3 of 6\)"):
        session.act("unit.shock", {"unit": "u1", "delta": 1})
    with pytest.raises(ReadOnlyError):
        session.apply("Shock", [])
    assert savefile.game_to_dict(session.live_game) == live
    session.stop_replay()
    assert not session.replaying and savefile.game_to_dict(session.game) == live


def test_continue_from_here_is_one_undo_step_that_gives_back_the_full_game(session: Session) -> None:
    play(session)
    live = savefile.game_to_dict(session.game)
    states = headless_states(session.game)
    session.start_replay()
    session.show_step(2)
    session.continue_from_here()
    assert not session.replaying
    assert savefile.game_to_dict(session.game) == states[2]
    assert len(session.game.actions) == 2
    assert session.undo_stack.text(session.undo_stack.index() - 1) == (
        "Continue from step 2 of 6 (4 later actions dropped)")
    session.act("unit.shock", {"unit": "u5", "delta": 1})
    session.undo_stack.undo()
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == live
    session.undo_stack.redo()
    assert savefile.game_to_dict(session.game) == states[2]


def test_a_game_without_actions_has_nothing_to_replay(session: Session) -> None:
    with pytest.raises(GameError, match="nothing to replay yet"):
        session.start_replay()
    assert not session.replaying


@pytest.fixture
def window(qtbot: QtBot, session: Session, tmp_path: Path) -> MainWindow:
    win = MainWindow(session, Recovery(session, tmp_path))
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.resize(1366, 768)
    win.show()
    qtbot.waitExposed(win)
    win.feature_host.load()
    return win


def key(qtbot: QtBot, win: MainWindow, which: Qt.Key) -> None:
    """A key pressed with the map in focus: the replay's shortcuts are the window's."""
    win.map.setFocus()
    qtbot.keyClick(win.map, which)


def test_the_replay_dock_opened_from_the_view_menu_offers_to_replay_the_game(qtbot: QtBot, window: MainWindow) -> None:
    """The dock's timeline is made when it first shows: opened from View, it is there and working."""
    play(window.session)
    window.replay_dock.toggleViewAction().trigger()
    qtbot.waitUntil(window.replay_dock.isVisible)
    panel = window.replay_dock.widget()
    assert panel is window.replay.panel
    assert panel.where.text().startswith("The game has 6 recorded actions.")
    qtbot.waitUntil(lambda: panel.start_button.height() > 0)  # laid out in the dock
    qtbot.mouseClick(panel.start_button, Qt.MouseButton.LeftButton)
    assert window.session.replaying and window.banner_bar.isVisible()
    assert "Replaying step 0 of 6" in window.replay.banner.label.text()


def test_stepping_with_the_slider_buttons_and_keys_shows_each_replayed_state(qtbot: QtBot, window: MainWindow) -> None:
    session = window.session
    play(session)
    states = headless_states(session.game)
    window.replay_action.trigger()
    panel = window.replay.panel
    assert window.replay_dock.isVisible() and window.banner_bar.isVisible()
    assert panel.where.text() == "Step 0 of 6: the start, before the first action"
    assert "Replaying step 0 of 6" in window.replay.banner.label.text()
    assert "read-only" in window.replay.banner.label.text()
    for k in range(1, 7):
        key(qtbot, window, Qt.Key.Key_Right)
        assert savefile.game_to_dict(session.game) == states[k], k
        assert panel.slider.value() == k
    assert panel.where.text() == "Step 6 of 6: End of Turn 1 Phase 2"
    key(qtbot, window, Qt.Key.Key_Home)
    assert savefile.game_to_dict(session.game) == states[0]
    key(qtbot, window, Qt.Key.Key_End)
    assert savefile.game_to_dict(session.game) == states[6]
    qtbot.mouseClick(panel.back_button, Qt.MouseButton.LeftButton)
    assert savefile.game_to_dict(session.game) == states[5]
    panel.slider.setValue(1)
    assert savefile.game_to_dict(session.game) == states[1]
    assert session.game.unit("u1").shock == 2
    log_view = window.log.findChild(QListView)
    assert log_view is not None
    assert log_view.model().rowCount() == len(session.game.log) < len(session.live_game.log)


def test_the_window_is_read_only_while_replaying_and_says_why(qtbot: QtBot, window: MainWindow) -> None:
    session = window.session
    play(session)
    window.replay_action.trigger()
    session.show_step(2)
    before = savefile.game_to_dict(session.game)
    shock = button(card_of(window.cards, "u7"), "plus_shock")
    click(qtbot, shock)
    assert savefile.game_to_dict(session.game) == before
    assert len(session.live_game.actions) == 6
    assert window.cards.notice.text().startswith("Not applied: the game is read-only while you replay it (step 2")
    for entry in (window.end_phase_action, window.end_turn_action, window.add_unit_action, window.dice_action,
                  window.undo_action, window.undo_button_action):
        assert not entry.isEnabled(), entry.text()
    assert not any(e.isEnabled() for e in window.feature_host.entries.values())
    assert not window.history_dock.widget().isEnabled() and not window.cards.add_button.isEnabled()
    qtbot.mouseClick(window.replay.banner.back_button, Qt.MouseButton.LeftButton)
    assert not session.replaying and not window.banner_bar.isVisible()
    assert window.end_phase_action.isEnabled() and window.undo_action.isEnabled()
    assert window.history_dock.widget().isEnabled()
    assert window.cards.add_button.isEnabled()
    assert len(session.game.actions) == 6


def test_continue_from_here_after_confirming_then_undo_gives_back_the_full_game(qtbot: QtBot,
                                                                              window: MainWindow) -> None:
    session = window.session
    play(session)
    live = savefile.game_to_dict(session.game)
    states = headless_states(session.game)
    window.replay_action.trigger()
    session.show_step(3)
    said = answer_next_box("Cancel")
    qtbot.mouseClick(window.replay.panel.continue_button, Qt.MouseButton.LeftButton)
    assert said and "the 3 later actions will be dropped" in said[0]
    assert session.replaying
    answer_next_box("Continue from here")
    qtbot.mouseClick(window.replay.panel.continue_button, Qt.MouseButton.LeftButton)
    assert not session.replaying
    assert savefile.game_to_dict(session.game) == states[3]
    assert window.end_phase_action.isEnabled()
    window.undo_action.trigger()
    assert savefile.game_to_dict(session.game) == live


def test_a_saved_and_reopened_game_replays(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    session = window.session
    play(session)
    states = headless_states(session.game)
    path = tmp_path / "battle.battle"
    assert window.files.save_to(path)
    window.files.open_path(path)
    window.replay_action.trigger()
    assert session.replaying
    for k in range(7):
        session.show_step(k)
        assert savefile.game_to_dict(session.game) == states[k], k
    session.show_step(4)
    answer_next_box("Continue from here")
    qtbot.mouseClick(window.replay.panel.continue_button, Qt.MouseButton.LeftButton)
    assert savefile.game_to_dict(session.game) == states[4]
    window.undo_action.trigger()
    assert savefile.game_to_dict(session.game) == states[6]


def test_saving_while_replaying_writes_the_game_itself(window: MainWindow, tmp_path: Path) -> None:
    session = window.session
    play(session)
    window.replay_action.trigger()
    session.show_step(1)
    path = tmp_path / "battle.battle"
    assert window.files.save_to(path)
    assert savefile.load(path) == session.live_game


def test_after_a_long_jump_the_cards_show_the_step(qtbot: QtBot, window: MainWindow) -> None:
    session = window.session
    for i in range(60):
        session.act("unit.shock", {"unit": "u7", "delta": 1 if i % 2 == 0 else -1})
        session.act("unit.move", {"unit": "u7", "x": 10.0 + i % 7, "y": 20.0})
    states = headless_states(session.game)
    window.replay_action.trigger()
    shock = label(card_of(window.cards, "u7"), "value_shock")
    for k in (120, 1, 99, 51, 2, 77):
        window.replay.panel.slider.setValue(k)
        assert savefile.game_to_dict(session.game) == states[k], k
        assert shock.text() == str(session.game.unit("u7").shock), k
    for k, shown in ((5, "1"), (116, "0"), (29, "1"), (76, "0")):
        window.replay.panel.slider.setValue(k)
        assert shock.text() == shown, k


def test_a_unit_selected_in_the_replay_is_unselected_where_it_is_not_on_the_table(window: MainWindow) -> None:
    session = window.session
    play(session)
    session.act("unit.remove", {"unit": "u7"})
    window.replay_action.trigger()
    session.select("u7")
    assert session.selected == "u7"
    session.show_step(7)
    assert session.selected is None and "u7" not in session.game.units
    session.show_step(2)
    session.select("u7")
    session.stop_replay()
    assert session.selected is None


def test_continue_from_the_last_step_is_back_to_the_game_without_asking(qtbot: QtBot, window: MainWindow) -> None:
    session = window.session
    play(session)
    steps = session.undo_stack.count()
    window.replay_action.trigger()
    qtbot.keyClick(window.map, Qt.Key.Key_End)
    qtbot.mouseClick(window.replay.panel.continue_button, Qt.MouseButton.LeftButton)
    assert not session.replaying
    assert session.undo_stack.count() == steps and len(session.game.actions) == 6
    assert "nothing dropped" in window.statusBar().currentMessage()


def test_a_starred_line_does_not_stop_continuing_from_an_earlier_step(session: Session) -> None:
    play(session)
    states = headless_states(session.game)
    session.star_log([len(session.game.log) - 1], True)
    starred = savefile.game_to_dict(session.game)
    session.start_replay()
    session.show_step(2)
    session.continue_from_here()
    assert savefile.game_to_dict(session.game) == states[2]
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == starred


def shown(win: MainWindow) -> dict[str, object]:
    """What the window shows of the game: each token's place, facing, pictures and labels, the log's lines,
    the filled-in cards' values and the clock."""
    QApplication.processEvents()
    scene = win.map.map_scene
    tokens = {unit_id: (t.x(), t.y(), t.facing, t.label.pos(), t.badges.pos(), t.body.pixmap().toImage(),
                        t.badges.pixmap().toImage(), t.label.pixmap().toImage())
              for unit_id, t in scene.tokens.items()}
    model = win.log.model
    log = [model.data(model.index(row)) for row in range(model.rowCount())]
    cards = {}
    for unit_id in win.session.game.units:
        card = card_of(win.cards, unit_id)
        card.ensure_current()
        if card.built:
            cards[unit_id] = {found.objectName(): found.text() for found in card.findChildren(QLabel)
                              if found.objectName().startswith("value_")}
    return {"tokens": tokens, "log": log, "cards": cards, "clock": win.clock_label.text()}


def test_after_steps_and_jumps_the_window_shows_what_a_fresh_window_on_that_step_shows(
        qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    session = window.session
    units = list(session.game.units)
    for i in range(80):
        unit = units[i % len(units)]
        if i % 4 == 3:
            session.end_phase()
        elif i % 2:
            session.act("unit.move", {"unit": unit, "x": 5.0 + i % 50, "y": 4.0 + i % 30})
        else:
            session.act("unit.shock", {"unit": unit, "delta": 1})
    window.replay_action.trigger()
    scale = window.map.scale_factor  # with the replay's dock open
    qtbot.waitUntil(lambda: all(t._zoom[0] == scale for t in window.map.map_scene.tokens.values()))
    for k in (80, 3, 57, 31, 0, 44):
        window.replay.panel.slider.setValue(k)
        fresh_session = Session(copy.deepcopy(session.game))
        fresh = MainWindow(fresh_session, Recovery(fresh_session, tmp_path / str(k)))
        qtbot.addWidget(fresh, before_close_func=lambda _w, s=fresh_session: s.undo_stack.setClean())
        fresh.resize(1366, 768)
        fresh.show()
        qtbot.waitExposed(fresh)
        fresh.map.setTransform(QTransform.fromScale(scale, scale))
        fresh.map.map_scene.layout_labels()  # as when its zoom settles
        now, expected = shown(window), shown(fresh)
        for part in ("log", "cards", "clock"):
            assert now[part] == expected[part], (k, part)
        tokens, fresh_tokens = now["tokens"], expected["tokens"]
        assert isinstance(tokens, dict) and isinstance(fresh_tokens, dict)
        assert tokens.keys() == fresh_tokens.keys(), k
        for unit_id, token in tokens.items():
            assert token == fresh_tokens[unit_id], (k, unit_id)
        fresh.close()


def test_the_log_keeps_its_newest_line_in_view_as_the_replay_steps_on_and_back(qtbot: QtBot,
                                                                              window: MainWindow) -> None:
    session = window.session
    for i in range(160):
        session.act("unit.shock", {"unit": "u7", "delta": 1 if i % 2 == 0 else -1})
    window.replay_action.trigger()
    view = window.log.view

    def newest_in_view() -> bool:
        model = view.model()
        return view.viewport().rect().contains(view.visualRect(model.index(model.rowCount() - 1, 0)))

    for k in (*range(100, 131), 40, 150, 149, 148):
        window.replay.panel.slider.setValue(k)
        QApplication.processEvents()
    qtbot.waitUntil(lambda: view.verticalScrollBar().maximum() > 0 and newest_in_view(), timeout=2000)
    view.verticalScrollBar().setValue(0)  # the player scrolls up to read the first lines
    window.replay.panel.slider.setValue(147)
    qtbot.wait(100)
    assert view.verticalScrollBar().value() == 0


def test_steps_the_dragged_slider_passes_in_one_frame_make_one_refresh(qtbot: QtBot, window: MainWindow,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    session = window.session
    play(session)
    states = headless_states(session.game)
    window.replay_action.trigger()
    shown: list[int] = []
    show_step = session.show_step
    monkeypatch.setattr(session, "show_step", lambda step: (shown.append(step), show_step(step)))
    slider = window.replay.panel.slider
    slider.setSliderDown(True)
    for k in (1, 2, 3, 4):
        slider.setValue(k)
    assert shown == [] and session.timeline is not None and session.timeline.step == 0
    QApplication.processEvents()
    assert shown == [4] and savefile.game_to_dict(session.game) == states[4]
    slider.setValue(6)
    slider.setSliderDown(False)  # released: the step it was let go at is shown at once
    assert shown == [4, 6] and savefile.game_to_dict(session.game) == states[6]
    QApplication.processEvents()
    slider.setValue(2)  # a click or a key on the slider: shown at once
    assert shown == [4, 6, 2] and savefile.game_to_dict(session.game) == states[2]


def test_a_replayed_clock_line_in_the_log_is_bold_with_its_time_as_tip(window: MainWindow) -> None:
    session = window.session
    play(session)
    window.replay_action.trigger()
    session.show_step(4)
    model = window.log.model
    rows = [model.index(row, 0) for row in range(model.rowCount())]
    clock = [i for i in rows if session.game.log[i.row()].kind == "clock"]
    assert clock and all(model.data(i, Qt.ItemDataRole.FontRole).bold() for i in clock)
    others = [i for i in rows if session.game.log[i.row()].kind != "clock"]
    assert all(model.data(i, Qt.ItemDataRole.FontRole) is None for i in others)
    entry = session.game.log[clock[-1].row()]
    assert entry.time in str(model.data(clock[-1], Qt.ItemDataRole.ToolTipRole))
    assert model.data(clock[-1], Qt.ItemDataRole.DecorationRole) is None


def test_the_log_keeps_each_lines_size_for_its_text_and_width(window: MainWindow) -> None:
    session = window.session
    play(session)
    window.replay_action.trigger()
    session.show_step(6)
    view = window.log.view
    kept, plain = view.itemDelegate(), QStyledItemDelegate()
    model = view.model()
    heights: dict[int, list[int]] = {}
    for width in (90, 400, 90):
        option = QStyleOptionViewItem()
        option.rect = QRect(0, 0, width, 20)
        option.font = view.font()
        option.features |= QStyleOptionViewItem.ViewItemFeature.WrapText
        for row in range(model.rowCount()):
            index = model.index(row, 0)
            assert kept.sizeHint(option, index) == plain.sizeHint(option, index), (width, row)
        heights[width] = [kept.sizeHint(option, model.index(row, 0)).height() for row in range(model.rowCount())]
    assert heights[90] != heights[400]  # narrower, the lines wrap: a size is kept for its width
