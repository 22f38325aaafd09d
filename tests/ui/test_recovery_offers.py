"""Crash recovery against damaged notes and stray locks: every orphan is offered, each row says when it was saved."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC
from datetime import datetime
from datetime import timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import QLockFile
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.model.effects import add_shock
from battletracker.ui.recovery import Recovery
from battletracker.ui.recovery import runs_battletracker
from battletracker.ui.recovery import when_saved
from battletracker.ui.recovery_dialog import RecoveryDialog
from battletracker.ui.session import Session
from tests.ui.test_files_and_recovery import answer_next_box
from tests.ui.test_files_and_recovery import open_window

HAS_PROC = Path("/proc/self/cmdline").exists()


@pytest.fixture
def two_hours_east(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Local time is UTC+2 all year, whatever the machine's zone, so that local and UTC times differ."""
    monkeypatch.setenv("TZ", "XYZ-2")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def leave_orphan(folder: Path, key: str, title: str, note: dict[str, object] | str | None) -> None:
    """A recovery file (and its note) as a run that crashed leaves them; `key` is one hex digit, repeated."""
    game = savefile.load(demo_path())
    game.title = title
    savefile.save(game, folder / f"recovery-{key * 32}.json")
    if note is not None:
        text = note if isinstance(note, str) else json.dumps(note)
        (folder / f"recovery-{key * 32}-info.json").write_text(text, encoding="utf-8")


def rows_then(qtbot: QtBot, button: str) -> list[str]:
    """Read the rows of the next recovery list, then click `button` (on the first row) as the player would."""
    rows: list[str] = []

    def act() -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, QMessageBox):  # one game offered where a list was expected: say so, and stop
            rows.append(f"only asked: {dialog.text()}")
            dialog.reject()
            return
        if not isinstance(dialog, RecoveryDialog):
            QTimer.singleShot(20, act)
            return
        rows.extend(dialog.list.item(i).text() for i in range(dialog.list.count()))
        clicked = {"Restore": dialog.restore_button, "Later": dialog.later_button}[button]
        qtbot.mouseClick(clicked, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, act)
    return rows


# -- the notes' times ----------------------------------------------------------------------------


@pytest.mark.usefixtures("two_hours_east")
def test_notes_with_and_without_an_offset_are_all_offered_latest_first(qtbot: QtBot, tmp_path: Path) -> None:
    # An older version wrote its local time without an offset: 10:00 here is 08:00 UTC, before 09:30 UTC.
    leave_orphan(tmp_path, "a", "Older note", {"saved": "2020-05-01T10:00:00", "path": None})
    leave_orphan(tmp_path, "b", "Newer note", {"saved": "2020-05-01T09:30:00+00:00", "path": None})
    win = open_window(qtbot, tmp_path)
    rows = rows_then(qtbot, "Later")
    win.files.offer_recovery()
    assert rows == ["Newer note (never saved): Turn 1, Phase 1, autosaved 1 May 2020 11:30",
                    "Older note (never saved): Turn 1, Phase 1, autosaved 1 May 2020 10:00"]
    assert "2 more unsaved games will be offered at the next start" in win.statusBar().currentMessage()


def test_a_note_is_written_with_its_offset_from_utc(session: Session, tmp_path: Path) -> None:
    recovery = Recovery(session, tmp_path)
    session.apply("Shock", [add_shock("u1", 1)])
    recovery.write_now()
    saved = datetime.fromisoformat(json.loads(recovery.info_path.read_text(encoding="utf-8"))["saved"])
    assert saved.utcoffset() is not None
    assert abs(saved - datetime.now(UTC)) < timedelta(minutes=1)
    recovery.close()


@pytest.mark.parametrize(("origin", "words"), [
    ("/" + "x" * 300 + "/battle.battle", "the file name is too long"),
    ("/tmp/battle\u0000.battle", "its name holds characters no file name can"),
])
def test_a_note_naming_a_file_the_system_refuses_offers_the_game_without_it(
        qtbot: QtBot, tmp_path: Path, origin: str, words: str) -> None:
    leave_orphan(tmp_path, "c", "Far away", {"saved": "2020-05-01T10:00:00+00:00", "path": origin})
    leave_orphan(tmp_path, "d", "Close by", {"saved": "2020-05-01T09:00:00+00:00", "path": None})
    win = open_window(qtbot, tmp_path)
    rows = rows_then(qtbot, "Restore")
    win.files.offer_recovery()
    assert len(rows) == 2 and rows[0].startswith(f"Far away (its file cannot be used: {words}): Turn 1")
    assert win.session.game.title == "Far away" and win.session.path is None and win.session.modified
    assert not (tmp_path / f"recovery-{'c' * 32}.json").exists()  # restored: now this window's
    assert (tmp_path / f"recovery-{'d' * 32}.json").exists()  # offered again at the next start


@pytest.mark.usefixtures("two_hours_east")
def test_one_damaged_note_never_stops_the_others_being_offered(qtbot: QtBot, tmp_path: Path) -> None:
    damaged = {
        "1": "[" * 100_000,  # nested too deeply for the JSON reader
        "2": json.dumps({"saved": "2020-05-01T10:00:00", "padding": "x" * 100_000}),  # no note is that large
        "3": json.dumps({"saved": "9999-12-31T23:59:59-12:00"}),  # past the last time there is
        "4": json.dumps({"saved": "0001-01-01T00:00:00"}),  # before the first
    }
    for key, note in damaged.items():
        leave_orphan(tmp_path, key, f"Damaged note {key}", note)
    leave_orphan(tmp_path, "5", "A pipe for a note", None)
    os.mkfifo(tmp_path / f"recovery-{'5' * 32}-info.json")  # reading it would wait for ever
    leave_orphan(tmp_path, "6", "Good note", {"saved": "2020-05-01T10:00:00+00:00", "path": None})
    win = open_window(qtbot, tmp_path)
    said: list[str] = []
    win.recovery.status.connect(lambda text, _timeout: said.append(text))
    rows = rows_then(qtbot, "Later")
    win.files.offer_recovery()
    assert sorted(row.split(" (")[0] for row in rows) == [
        "A pipe for a note", *(f"Damaged note {key}" for key in damaged), "Good note"]
    assert len(said) == 5 and all("damaged recovery note was set aside" in text for text in said)
    assert (tmp_path / f"recovery-{'1' * 32}-info.broken.json").read_text(encoding="utf-8") == damaged["1"]
    assert sorted(p.name[9:10] for p in tmp_path.glob("recovery-*-info.broken.json")) == ["1", "2", "3", "4", "5"]
    assert (tmp_path / f"recovery-{'6' * 32}-info.json").exists()


# -- telling two orphans apart --------------------------------------------------------------------


@pytest.mark.usefixtures("two_hours_east")
def test_when_saved_reads_as_a_player_says_it() -> None:
    now = datetime(2026, 12, 2, 18, 0, tzinfo=UTC)  # 20:00 here
    assert when_saved(datetime(2026, 12, 2, 12, 5, tzinfo=UTC), now) == "today 14:05"
    assert when_saved(datetime(2026, 12, 1, 19, 30, 7, tzinfo=UTC), now) == "yesterday 21:30"
    assert when_saved(datetime(2026, 12, 1, 19, 30, 7, tzinfo=UTC), now, seconds=True) == "yesterday 21:30:07"
    assert when_saved(datetime(2026, 11, 30, 8, 0, tzinfo=UTC), now) == "30 Nov 2026 10:00"
    assert when_saved(datetime(2026, 12, 1, 23, 0, tzinfo=UTC), now) == "today 01:00"  # local midnight


@pytest.mark.usefixtures("two_hours_east")
def test_two_orphans_of_the_same_game_say_when_each_was_saved(qtbot: QtBot, tmp_path: Path) -> None:
    now = datetime.now().astimezone()
    leave_orphan(tmp_path, "a", "Same battle", {"saved": now.isoformat(timespec="seconds")})
    leave_orphan(tmp_path, "b", "Same battle", {"saved": (now - timedelta(days=1)).isoformat(timespec="seconds")})
    # Two crashes of the same game in the same minute: the seconds tell them apart.
    leave_orphan(tmp_path, "c", "Same battle", {"saved": "2020-05-01T10:00:05+02:00"})
    leave_orphan(tmp_path, "d", "Same battle", {"saved": "2020-05-01T10:00:40+02:00"})
    win = open_window(qtbot, tmp_path)
    rows = rows_then(qtbot, "Later")
    win.files.offer_recovery()
    start = "Same battle (never saved): Turn 1, Phase 1, autosaved"
    assert rows == [f"{start} today {now:%H:%M}", f"{start} yesterday {now:%H:%M}",
                    f"{start} 1 May 2020 10:00:40", f"{start} 1 May 2020 10:00:05"]


# -- locks naming a process that is not the BattleTracker that took them -------------------------------


def program_of(pid: int) -> bytes:
    return os.fsencode(Path(os.readlink(f"/proc/{pid}/exe")).name)


def lock_naming(path: Path, pid: int) -> None:
    """Write a lock at `path` exactly as Qt writes one, but naming process `pid` and its program."""
    mine = QLockFile(str(path))
    assert mine.tryLock(0)
    lines = path.read_bytes().split(b"\n")  # pid, program, host name, machine id, boot id
    mine.unlock()
    lines[0], lines[1] = str(pid).encode(), program_of(pid)
    path.write_bytes(b"\n".join(lines))
    held = QLockFile(str(path))
    held.setStaleLockTime(0)
    assert not held.tryLock(0)  # Qt alone counts it as held: its process runs the program it names


@pytest.fixture
def running() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Processes a test starts; each is ended after the test."""
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        process.kill()
        process.communicate(timeout=10)  # reaped, its pipes closed


@pytest.mark.skipif(not HAS_PROC, reason="reads processes from /proc")
@pytest.mark.parametrize("program", [["sleep", "30"], [sys.executable, "-c", "import time; time.sleep(30)"]],
                         ids=["sleep", "another Python program"])
def test_a_lock_naming_a_process_that_is_not_battletracker_hides_nothing(
        qtbot: QtBot, tmp_path: Path, running: list[subprocess.Popen[bytes]], program: list[str]) -> None:
    leave_orphan(tmp_path, "a", "Left by a crash", {"saved": "2020-05-01T10:00:00+00:00", "path": None})
    stranger = subprocess.Popen(program)
    running.append(stranger)
    lock_naming(tmp_path / f"recovery-{'a' * 32}.lock", stranger.pid)
    win = open_window(qtbot, tmp_path)
    said = answer_next_box("Yes")
    win.files.offer_recovery()
    assert "Restore Left by a crash (never saved)" in said[0]
    assert win.session.game.title == "Left by a crash"
    assert stranger.poll() is None  # left running
    assert not (tmp_path / f"recovery-{'a' * 32}.lock").exists()


HOLDING_RUN = """
import sys
from pathlib import Path
from PySide6.QtWidgets import QApplication, QMessageBox
from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.model.effects import add_shock
from battletracker.model.effects import add_shock
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session

app = QApplication([])
game = savefile.load(demo_path())
game.title = "Still open elsewhere"
session = Session(game)
recovery = Recovery(session, Path(sys.argv[1]))
session.apply("Shock", [add_shock("u1", 1)])
recovery.write_now()
print("written", flush=True)
sys.stdin.read()
"""


@pytest.mark.skipif(not HAS_PROC, reason="reads processes from /proc")
@pytest.mark.parametrize("as_battletracker", [True, False], ids=["battletracker script", "python -c"])
def test_a_live_window_keeps_its_game_however_it_was_started(
        qtbot: QtBot, tmp_path: Path, running: list[subprocess.Popen[bytes]], as_battletracker: bool) -> None:
    """Taken for another program (python -c) or not, a running BattleTracker's lock is held, its game not offered."""
    folder = tmp_path / "recovery"
    folder.mkdir()
    script = tmp_path / "battletracker.py"
    script.write_text(HOLDING_RUN, encoding="utf-8")
    argv = [sys.executable, "-P", str(script)] if as_battletracker else [sys.executable, "-c", HOLDING_RUN]
    assert runs_battletracker(argv) is as_battletracker
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parents[2]), *sys.path])}
    holder = subprocess.Popen([*argv, str(folder)], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    running.append(holder)
    assert holder.stdout is not None and holder.stdout.readline() == b"written\n"
    assert Recovery(Session(savefile.load(demo_path())), folder).orphans() == []
    assert len(list(folder.glob("recovery-*.lock"))) == 1 and len(list(folder.glob("recovery-*.json"))) == 2
    holder.kill()  # now it crashed: its game is offered
    holder.wait(timeout=10)
    [orphan] = Recovery(Session(savefile.load(demo_path())), folder).orphans()
    assert orphan.game.title == "Still open elsewhere"
    Recovery.release(orphan)


@pytest.mark.skipif(not HAS_PROC, reason="reads processes from /proc")
def test_a_lock_naming_a_battletracker_started_after_it_was_taken_hides_nothing(
        qtbot: QtBot, tmp_path: Path, running: list[subprocess.Popen[bytes]]) -> None:
    """The PID came back to another BattleTracker: the one that took the lock had ended before it started."""
    leave_orphan(tmp_path, "a", "Left by a crash", {"saved": "2020-05-01T10:00:00+00:00", "path": None})
    script = tmp_path / "battletracker.py"
    script.write_text("import time\ntime.sleep(30)\n", encoding="utf-8")
    later = subprocess.Popen([sys.executable, "-P", str(script)])
    running.append(later)
    lock = tmp_path / f"recovery-{'a' * 32}.lock"
    lock_naming(lock, later.pid)
    an_hour_ago = time.time() - 3600
    os.utime(lock, (an_hour_ago, an_hour_ago))  # taken before that process started
    [orphan] = Recovery(Session(savefile.load(demo_path())), tmp_path).orphans()
    assert orphan.game.title == "Left by a crash"
    Recovery.release(orphan)
    assert later.poll() is None


@pytest.mark.parametrize(("argv", "ours"), [
    (["/opt/BattleTracker/BattleTracker", "game.battle"], True),
    (["/home/p/.venv/bin/python3.11", "/home/p/.venv/bin/battletracker", "--demo"], True),
    (["python3", "-X", "dev", "-m", "battletracker"], True),
    (["python3", "-m", "battletracker.app"], True),
    (["python3", "-m", "pytest", "tests"], False),
    (["python3", "-c", "import battletracker"], False),
    (["python3", "/home/p/other.py"], False),
    (["sleep", "30"], False),
    ([], False),
])
def test_what_counts_as_battletracker_in_a_command_line(argv: list[str], ours: bool) -> None:
    assert runs_battletracker(argv) is ours
