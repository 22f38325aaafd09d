"""Saving through QSaveFile, failure paths included, and crash recovery with several windows."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSaveFile
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QFileDialog
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.model.effects import add_shock
from battletracker.ui import files
from battletracker.ui.files import SaveError
from battletracker.ui.files import atomic_write
from battletracker.ui.files import save_game
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session


def recovery_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("recovery*.json"))


def crash(recovery: Recovery) -> None:
    """The run ends without closing: nothing more is written and its lock is no longer held."""
    recovery._timer.stop()
    recovery._deadline.stop()
    recovery._session.changed.disconnect(recovery._schedule)
    recovery._lock.unlock()


def open_window(qtbot: QtBot, folder: Path, game_path: Path | None = None) -> MainWindow:
    session = Session(savefile.load(demo_path()))
    win = MainWindow(session, Recovery(session, folder))
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    if game_path is not None:
        assert win.files.open_path(game_path)
    return win


def answer_next_box(button: str) -> list[str]:
    """Click `button` in the next modal box or dialog, as the player would; returns what the box said."""
    seen: list[str] = []

    def click() -> None:
        box = QApplication.activeModalWidget()
        if box is None:
            QTimer.singleShot(20, click)
            return
        seen.append(box.text() if isinstance(box, QMessageBox) else box.windowTitle())
        target = next(b for b in box.findChildren(QPushButton) if b.text().replace("&", "") == button)
        target.click()

    QTimer.singleShot(0, click)
    return seen


# -- writing files ---------------------------------------------------------------------------


def test_save_game_round_trips(session: Session, tmp_path: Path) -> None:
    target = tmp_path / "game.battle"
    save_game(session.game, target)
    assert savefile.load(target) == session.game


def test_error_inside_the_block_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "game.battle"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), atomic_write(target) as handle:
        handle.write(b"new, half written")
        raise RuntimeError("interrupted")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["game.battle"]


def test_missing_folder_is_a_clear_error(tmp_path: Path, session: Session) -> None:
    with pytest.raises(SaveError, match="nowhere.*the folder does not exist"):
        save_game(session.game, tmp_path / "nowhere" / "game.battle")


def test_failed_commit_keeps_the_old_file(tmp_path: Path, session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "game.battle"
    target.write_bytes(b"old")
    monkeypatch.setattr(QSaveFile, "commit", lambda self: (self.cancelWriting(), False)[1])
    with pytest.raises(SaveError, match="could not save"):
        save_game(session.game, target)
    assert target.read_bytes() == b"old"


class FullDisk:
    """os.statvfs of a disk with no space left (or a read-only one); a full disk cannot be made as root."""

    def __init__(self, real: Callable[[Any], os.statvfs_result], read_only: bool = False) -> None:
        self.real = real
        self.read_only = read_only

    def __call__(self, path: Any) -> os.statvfs_result:
        fs = list(self.real(path))
        fs[4] = 0  # f_bavail
        if self.read_only:
            fs[8] |= os.ST_RDONLY  # f_flag
        return os.statvfs_result(fs)


def failing_writes(monkeypatch: pytest.MonkeyPatch, read_only: bool = False) -> None:
    monkeypatch.setattr(QSaveFile, "write", lambda self, data: -1)
    monkeypatch.setattr(files.os, "statvfs", FullDisk(os.statvfs, read_only))


@pytest.mark.skipif(not hasattr(os, "statvfs"), reason="POSIX disks")
@pytest.mark.parametrize(("read_only", "words"), [(False, "no space left on the disk"),
                                                  (True, "the disk is read-only")])
def test_a_failed_save_names_the_real_cause(tmp_path: Path, session: Session, monkeypatch: pytest.MonkeyPatch,
                                            read_only: bool, words: str) -> None:
    target = tmp_path / "game.battle"
    target.write_bytes(b"old")
    failing_writes(monkeypatch, read_only)
    with pytest.raises(SaveError, match=f"could not save {target}: {words}$"):
        save_game(session.game, target)
    assert target.read_bytes() == b"old"


def test_os_errors_have_words() -> None:
    import errno

    assert files.describe_errno(errno.ENOSPC) == "no space left on the disk"
    assert files.describe_errno(errno.EROFS) == "the disk is read-only"
    assert files.describe_errno(errno.EACCES) == "no permission to write there"
    assert files.describe_errno(None) is None


# -- autosave -------------------------------------------------------------------------------


def test_recovery_writes_after_a_change_and_offers_it_back(qtbot: QtBot, session: Session, tmp_path: Path) -> None:
    recovery = Recovery(session, tmp_path)
    assert recovery.orphans() == []
    session.apply("Shock", [add_shock("u1", 3)])
    qtbot.waitUntil(recovery.path.exists, timeout=2000)
    crash(recovery)
    [orphan] = Recovery(Session(savefile.load(demo_path())), tmp_path).orphans()
    assert orphan.game.unit("u1").shock == 3
    assert orphan.origin is None
    assert "Demo" in orphan.label() and "Turn 1, Phase 1" in orphan.label()


def test_broken_recovery_file_is_set_aside(session: Session, tmp_path: Path) -> None:
    (tmp_path / "recovery.json").write_bytes(b"{not json")
    assert Recovery(session, tmp_path).orphans() == []
    assert (tmp_path / "recovery.broken.json").exists()


def test_autosave_is_not_starved_by_steady_changes(qtbot: QtBot, session: Session, tmp_path: Path) -> None:
    """A player clicking every 100 ms still has the game on disk within 2 s."""
    recovery = Recovery(session, tmp_path)
    clicks = QTimer()
    clicks.setInterval(100)
    clicks.timeout.connect(lambda: session.apply("Shock", [add_shock("u1", 1)]))
    session.apply("Shock", [add_shock("u1", 1)])
    first_change = time.monotonic()
    clicks.start()
    try:
        qtbot.waitUntil(recovery.path.exists, timeout=2500)
    finally:
        clicks.stop()
    assert time.monotonic() - first_change < 2.0


@pytest.mark.skipif(not hasattr(os, "statvfs"), reason="POSIX disks")
def test_autosave_failure_is_said_once_with_its_cause_and_so_is_the_recovery(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    win = open_window(qtbot, tmp_path)
    said: list[str] = []
    win.recovery.status.connect(lambda text, _timeout: said.append(text))
    with monkeypatch.context() as patch:
        failing_writes(patch)
        for shock in (1, 2):
            win.session.apply("Shock", [add_shock("u1", shock)])
            win.recovery.write_now()
        assert len(said) == 1
        assert "Autosave failed: no space left on the disk" in said[0]
        assert win.statusBar().currentMessage() == said[0]
        assert not win.recovery.path.exists()
    win.session.apply("Shock", [add_shock("u1", 1)])
    win.recovery.write_now()
    assert len(said) == 2 and said[1].startswith("Autosave works again")
    assert win.recovery.path.exists()


# -- two windows ----------------------------------------------------------------------------


def test_two_windows_keep_their_own_recovery_files(qtbot: QtBot, tmp_path: Path) -> None:
    folder = tmp_path / "recovery"
    folder.mkdir()
    game_file = tmp_path / "a.battle"
    savefile.save(savefile.load(demo_path()), game_file)
    a = open_window(qtbot, folder, game_file)
    b = open_window(qtbot, folder)
    a.session.apply("Shock A", [add_shock("u1", 1)])
    b.session.apply("Shock B", [add_shock("u2", 3)])
    a.recovery.write_now()
    b.recovery.write_now()
    assert a.recovery.path != b.recovery.path
    assert len(recovery_files(folder)) == 4  # a game and a note each
    a.session.apply("Shock A again", [add_shock("u1", 1)])
    a.recovery.write_now()
    assert savefile.load(b.recovery.path) == b.session.game
    assert savefile.load(a.recovery.path) == a.session.game
    # A third window starting now is not offered the games of the two live ones.
    assert Recovery(Session(savefile.load(demo_path())), folder).orphans() == []
    assert a.files.save()
    assert not a.recovery.path.exists()
    assert savefile.load(b.recovery.path) == b.session.game
    answer_next_box("Discard")
    b.close()
    assert recovery_files(folder) == []


def test_saving_over_a_file_another_window_changed_offers_save_as(qtbot: QtBot, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    game_file = tmp_path / "shared.battle"
    savefile.save(savefile.load(demo_path()), game_file)
    a = open_window(qtbot, tmp_path / "rec", game_file)
    b = open_window(qtbot, tmp_path / "rec", game_file)
    b.session.apply("Shock B", [add_shock("u2", 3)])
    assert b.files.save()
    a.session.apply("Shock A", [add_shock("u1", 1)])
    elsewhere = tmp_path / "mine.battle"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(elsewhere), ""))
    said = answer_next_box("Save As...")
    assert a.files.save()
    assert said and "shared.battle has changed on disk" in said[0]
    assert savefile.load(game_file).unit("u2").shock == b.session.game.unit("u2").shock  # B's save kept
    assert savefile.load(elsewhere) == a.session.game
    assert a.session.path == elsewhere
    # Saving again where nobody else wrote goes straight through.
    a.session.apply("Shock A", [add_shock("u1", 1)])
    assert a.files.save()


def test_cancel_at_the_changed_file_warning_saves_nothing(qtbot: QtBot, tmp_path: Path) -> None:
    game_file = tmp_path / "shared.battle"
    savefile.save(savefile.load(demo_path()), game_file)
    a = open_window(qtbot, tmp_path / "rec", game_file)
    savefile.save(savefile.load(demo_path()), game_file)  # the same game, written again: same bytes
    a.session.apply("Shock A", [add_shock("u1", 1)])
    assert a.files.save()  # unchanged bytes are not a conflict
    other = savefile.load(game_file)
    other.title = "Someone else's"
    savefile.save(other, game_file)
    a.session.apply("Shock A", [add_shock("u1", 1)])
    answer_next_box("Cancel")
    assert not a.files.save()
    assert savefile.load(game_file).title == "Someone else's"
    assert a.session.modified


CRASHING_RUN = """
import os, sys
from pathlib import Path
from PySide6.QtWidgets import QApplication
from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.model.effects import add_shock
from battletracker.model.effects import SetClock
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session

app = QApplication([])
folder = Path(sys.argv[1])
kept = []
for i, title in enumerate(("First crashed battle", "Second crashed battle")):
    game = savefile.load(demo_path())
    game.title = title
    session = Session(game)
    recovery = Recovery(session, folder)
    session.apply("Shock", [add_shock("u1", i + 1)])
    session.apply("Clock", [SetClock(i + 2, 1, 0)])
    recovery.write_now()
    kept.append((session, recovery))
print("written", flush=True)
os._exit(9)
"""


def test_after_a_crash_every_orphan_is_offered_in_a_list(qtbot: QtBot, tmp_path: Path) -> None:
    folder = tmp_path / "recovery"
    folder.mkdir()
    run_and_crash(CRASHING_RUN, folder)
    assert len(list(folder.glob("recovery-*.lock"))) == 2  # left behind by the dead process

    win = open_window(qtbot, folder)
    shown: list[list[str]] = []

    def pick_second() -> None:
        from battletracker.ui.recovery_dialog import RecoveryDialog

        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, RecoveryDialog):
            QTimer.singleShot(20, pick_second)
            return
        shown.append([dialog.list.item(i).text() for i in range(dialog.list.count())])
        row = next(i for i in range(dialog.list.count()) if "Second" in dialog.list.item(i).text())
        dialog.list.setCurrentRow(row)
        qtbot.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, pick_second)
    win.files.offer_recovery()
    assert len(shown[0]) == 2
    assert any("First crashed battle (never saved): Turn 2, Phase 1, autosaved" in t for t in shown[0])
    assert any("Second crashed battle (never saved): Turn 3, Phase 1, autosaved" in t for t in shown[0])
    assert win.session.game.title == "Second crashed battle"
    assert win.session.game.unit("u1").shock == 2
    assert win.session.modified and win.isWindowModified()
    assert "1 more unsaved game will be offered at the next start" in win.statusBar().currentMessage()
    # The restored game is now this window's; the other one waits for the next start.
    assert savefile.load(win.recovery.path) == win.session.game
    [left] = Recovery(Session(savefile.load(demo_path())), folder).orphans()
    assert left.game.title == "First crashed battle"


# -- damaged notes and stale offers -------------------------------------------------------------


@pytest.mark.parametrize("note", ["null", "[]", '"x"', "{not json", '{"saved": 5}', '{"path": ["a"]}',
                                  '{"path": "relative/game.battle"}', '{"saved": "yesterday"}'])
def test_a_damaged_recovery_note_is_set_aside_and_the_game_still_offered(qtbot: QtBot, tmp_path: Path,
                                                                           note: str) -> None:
    game = savefile.load(demo_path())
    game.title = "Left behind"
    savefile.save(game, tmp_path / "recovery.json")  # as an older version left it
    (tmp_path / "recovery-info.json").write_text(note, encoding="utf-8")
    win = open_window(qtbot, tmp_path)
    said: list[str] = []
    win.recovery.status.connect(lambda text, _timeout: said.append(text))
    answer_next_box("No")
    win.files.offer_recovery()
    assert len(said) == 1 and "damaged recovery note was set aside" in said[0]
    assert win.statusBar().currentMessage() == said[0]
    assert (tmp_path / "recovery-info.broken.json").read_text(encoding="utf-8") == note
    assert recovery_files(tmp_path) == ["recovery-info.broken.json"]


def test_a_legacy_recovery_with_a_good_note_is_offered_with_its_file(qtbot: QtBot, tmp_path: Path) -> None:
    origin = tmp_path / "battle.battle"
    savefile.save(savefile.load(demo_path()), origin)
    game = savefile.load(demo_path())
    game.title = "Changed since"
    savefile.save(game, tmp_path / "recovery.json")
    (tmp_path / "recovery-info.json").write_text(json.dumps({"saved": "2026-11-30T10:00:00", "path": str(origin)}))
    win = open_window(qtbot, tmp_path)
    said = answer_next_box("Yes")
    win.files.offer_recovery()
    assert "Changed since (battle.battle): Turn 1, Phase 1, autosaved 30 Nov 2026 10:00" in said[0]
    assert win.session.game.title == "Changed since" and win.session.path == origin
    assert not (tmp_path / "recovery.json").exists()


def test_a_game_put_away_by_open_leaves_nothing_to_offer(qtbot: QtBot, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "recovery"
    folder.mkdir()
    other = tmp_path / "other.battle"
    savefile.save(savefile.load(demo_path()), other)
    win = open_window(qtbot, folder)
    win.session.apply("Shock", [add_shock("u1", 1)])
    win.recovery.write_now()
    assert win.recovery.path.exists()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *_a, **_k: (str(other), ""))
    answer_next_box("Discard")
    win.open_action.trigger()  # File > Open, and "Discard" the changes
    assert win.session.path == other
    assert recovery_files(folder) == []


def test_undoing_back_to_the_saved_game_leaves_nothing_to_offer(qtbot: QtBot, tmp_path: Path) -> None:
    game_file = tmp_path / "game.battle"
    savefile.save(savefile.load(demo_path()), game_file)
    win = open_window(qtbot, tmp_path / "rec", game_file)
    win.session.apply("Shock", [add_shock("u1", 1)])
    win.recovery.write_now()
    assert win.recovery.path.exists()
    win.undo_action.trigger()
    assert not win.recovery.path.exists() and not win.recovery.info_path.exists()


def test_a_recovery_that_repeats_its_file_on_disk_is_not_offered(session: Session, tmp_path: Path) -> None:
    origin = tmp_path / "battle.battle"
    savefile.save(session.game, origin)
    savefile.save(session.game, tmp_path / "recovery.json")
    (tmp_path / "recovery-info.json").write_text(json.dumps({"saved": "2026-11-30T10:00:00", "path": str(origin)}))
    assert Recovery(Session(savefile.load(demo_path())), tmp_path).orphans() == []
    assert recovery_files(tmp_path) == []


def test_a_note_naming_a_file_that_is_not_a_game_never_gets_it_overwritten(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    victim = tmp_path / "notes.txt"
    victim.write_text("my own notes", encoding="utf-8")
    savefile.save(savefile.load(demo_path()), tmp_path / "recovery.json")
    (tmp_path / "recovery-info.json").write_text(json.dumps({"saved": "2026-11-30T10:00:00", "path": str(victim)}))
    win = open_window(qtbot, tmp_path)
    said = answer_next_box("Yes")
    win.files.offer_recovery()
    assert "(never saved)" in said[0]
    assert win.session.path is None
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: ("", ""))
    assert not win.files.save()  # asks where, like any new game
    assert victim.read_text(encoding="utf-8") == "my own notes"


def test_a_recovery_folder_that_cannot_be_made_does_not_stop_the_window(qtbot: QtBot, tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    win = open_window(qtbot, blocker / "BattleTracker")
    win.files.offer_recovery()
    said: list[str] = []
    win.recovery.status.connect(lambda text, _timeout: said.append(text))
    win.session.apply("Shock", [add_shock("u1", 1)])
    win.recovery.write_now()
    assert said and "Autosave failed: the folder does not exist" in said[0]
    answer_next_box("Discard")
    win.close()



def run_and_crash(script: str, folder: Path) -> None:
    """Run `script` in another process that dies without closing (exit code 9), as after kill -9."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[2]), *sys.path])}
    run = subprocess.run([sys.executable, "-c", script, str(folder)], env=env, capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 9 and "written" in run.stdout, run.stderr


def test_a_lock_left_by_a_crash_with_nothing_unsaved_is_cleared(qtbot: QtBot, tmp_path: Path) -> None:
    undone = CRASHING_RUN.replace("    recovery.write_now()\n",
                                  "    recovery.write_now()\n    session.undo_stack.setIndex(0)\n")
    run_and_crash(undone, tmp_path)
    assert len(list(tmp_path.glob("recovery-*.lock"))) == 2
    assert recovery_files(tmp_path) == []
    assert Recovery(Session(savefile.load(demo_path())), tmp_path).orphans() == []
    assert list(tmp_path.glob("recovery*")) == []


def test_the_list_discards_one_and_keeps_the_other_for_later(qtbot: QtBot, tmp_path: Path) -> None:
    for key, title in (("a" * 32, "Keep for later"), ("b" * 32, "Throw away")):
        game = savefile.load(demo_path())
        game.title = title
        savefile.save(game, tmp_path / f"recovery-{key}.json")
    win = open_window(qtbot, tmp_path)

    def discard_then_later() -> None:
        from battletracker.ui.recovery_dialog import RecoveryDialog

        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, RecoveryDialog):
            QTimer.singleShot(20, discard_then_later)
            return
        row = next(i for i in range(dialog.list.count()) if "Throw away" in dialog.list.item(i).text())
        dialog.list.setCurrentRow(row)
        qtbot.mouseClick(dialog.discard_button, Qt.MouseButton.LeftButton)
        assert dialog.list.count() == 1
        qtbot.mouseClick(dialog.later_button, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, discard_then_later)
    win.files.offer_recovery()
    assert win.session.game.title.startswith("Demo")
    assert recovery_files(tmp_path) == [f"recovery-{'a' * 32}.json"]
    [left] = Recovery(Session(savefile.load(demo_path())), tmp_path).orphans()
    assert left.game.title == "Keep for later"
