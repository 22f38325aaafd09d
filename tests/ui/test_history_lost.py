"""A game whose action record does not replay opens as saved, without Undo history, and the window says why, once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.effects import add_shock
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery_dialog import RecoveryDialog
from tests.ui.test_files_and_recovery import answer_next_box
from tests.ui.test_files_and_recovery import open_window

PLAYED = Path(__file__).parents[1] / "fixtures" / "played_chain_of_command.battle"
LOST = "opened without its Undo history"


def played() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PLAYED.read_text(encoding="utf-8"))
    return data


def other_dice() -> dict[str, Any]:
    """The second action's Command Dice changed after the game was saved: its replay logs another roll."""
    data = played()
    assert data["history"]["actions"][1]["name"] == "coc.command_dice"
    data["history"]["actions"][1]["dice"] = [6, 6, 6, 6, 6]
    return data


def other_state() -> dict[str, Any]:
    """A unit's Shock changed in the saved state, not by any recorded action."""
    data = played()
    unit = next(u for u in data["game"]["units"] if u["id"] == "u1")
    unit["counters"]["shock"] = 3
    return data


def said_in_the_status_bar(win: MainWindow) -> list[str]:
    said: list[str] = []
    win.statusBar().messageChanged.connect(lambda text: said.append(text) if text else None)
    return said


@pytest.mark.parametrize(("tampered", "why"), [
    (other_dice, "action 2 (coc.command_dice; dice 6 6 6 6 6) differs: the replay logs "),
    (other_state, "all 8 actions replay, but the state differs at game.units[0].counters.shock (replayed 0, saved 3)"),
], ids=["other dice", "other state"])
def test_a_record_that_does_not_replay_opens_without_undo_and_says_why_once(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tampered: Any, why: str) -> None:
    path = tmp_path / "tampered.battle"
    path.write_text(json.dumps(tampered()), encoding="utf-8")
    win = open_window(qtbot, tmp_path / "recovery")
    said = said_in_the_status_bar(win)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *_a, **_k: (str(path), ""))
    win.open_action.trigger()  # File > Open
    assert win.session.path == path
    assert win.session.game == savefile.load(path)  # as saved
    assert win.session.undo_stack.count() == 0 and not win.undo_action.isEnabled()
    [message] = [text for text in said if LOST in text]
    assert message.startswith(f"Demo: the crossroads at Le Hamel {LOST}: {why}"), message
    assert win.statusBar().currentMessage() == message
    # Said once: playing on says nothing more of it.
    win.session.apply("Shock", [add_shock("u1", 1)])
    win.recovery.write_now()
    assert [text for text in said if LOST in text] == [message]


def test_a_record_that_replays_opens_with_undo_and_says_nothing_of_it(qtbot: QtBot, tmp_path: Path) -> None:
    win = open_window(qtbot, tmp_path / "recovery")
    said = said_in_the_status_bar(win)
    assert win.files.open_path(PLAYED)
    assert win.session.undo_stack.count() == 8 and win.session.history_lost is None
    assert said == [f"Opened {PLAYED}"]


def test_a_restored_game_whose_record_does_not_replay_says_so(qtbot: QtBot, tmp_path: Path) -> None:
    (tmp_path / f"recovery-{'a' * 32}.json").write_text(json.dumps(other_dice()), encoding="utf-8")
    win = open_window(qtbot, tmp_path)
    answer_next_box("Yes")
    win.files.offer_recovery()
    assert win.session.game.title == "Demo: the crossroads at Le Hamel" and win.session.modified
    assert win.session.undo_stack.count() == 0
    assert win.statusBar().currentMessage().startswith(f"Demo: the crossroads at Le Hamel {LOST}: action 2 ")


def test_restoring_one_of_several_says_both_what_waits_and_what_was_lost(qtbot: QtBot, tmp_path: Path) -> None:
    (tmp_path / f"recovery-{'a' * 32}.json").write_text(json.dumps(other_dice()), encoding="utf-8")
    waiting = savefile.load(PLAYED)
    waiting.title = "Waiting for later"
    savefile.save(waiting, tmp_path / f"recovery-{'b' * 32}.json")
    win = open_window(qtbot, tmp_path)

    def restore_the_tampered_one() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, RecoveryDialog):
            QTimer.singleShot(20, restore_the_tampered_one)
            return
        row = next(i for i in range(dialog.list.count()) if "Le Hamel" in dialog.list.item(i).text())
        dialog.list.setCurrentRow(row)
        qtbot.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, restore_the_tampered_one)
    win.files.offer_recovery()
    assert win.statusBar().currentMessage().startswith(
        f"1 more unsaved game will be offered at the next start. Demo: the crossroads at Le Hamel {LOST}: "
        "action 2 (coc.command_dice; dice 6 6 6 6 6) differs")
