"""Crash recovery: each open game written to its own recovery file shortly after every change.

Every window keeps its game in `recovery-<key>.json` beside a note
`recovery-<key>-info.json` (when it was written, the file it came from and
what that file held), and holds `recovery-<key>.lock` with a QLockFile from
its first recovery file for as long as it lives. A saved game, a game undone
back to its saved state, a game put away by New or Open and a clean exit
leave no recovery file. So a
recovery file whose lock nobody holds was left by a run that ended without
closing: an orphan, offered back at the next start unless it only repeats
the file on disk. A lock naming a process that is not the BattleTracker
that took it (its PID since reused) is nobody's. `recovery.json` with `recovery-info.json` is the single
recovery file of older versions, found the same way.

Paths of recovery files are only ever built from the folder's own entries
whose names match the pattern below; the notes name no recovery file. The
one path a note holds, the game's own file, is taken only when it is absolute
and is missing or holds a BattleTracker game, so a damaged or foreign note
can never make the app read anything else or save over it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QLockFile
from PySide6.QtCore import QObject
from PySide6.QtCore import QStandardPaths
from PySide6.QtCore import QTimer
from PySide6.QtCore import Signal

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules import saved_games
from battletracker.ui.files import SaveError
from battletracker.ui.files import describe_errno
from battletracker.ui.files import game_file
from battletracker.ui.files import write_bytes
from battletracker.ui.session import Session

if TYPE_CHECKING:
    from datetime import datetime  # loaded by the first write or the first recovery file read

DEBOUNCE_MS = 200
MAX_WAIT_MS = 1500
"""However steadily the player keeps changing the game, a change is on disk within 2 s."""

RECOVERY_NAME = re.compile(r"recovery(-[0-9a-f]{32})?\.(json|lock)")
NOTE_BYTES = 64 * 1024
"""A note is about 200 bytes: a larger file is no note, and is set aside unread."""
PYTHON_OPTIONS_WITH_VALUES = ("-X", "-W", "--check-hash-based-pycs")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def data_dir() -> Path:
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(location)


@dataclass(eq=False)
class Orphan:
    """A recovery file left by a run that did not close properly; each one is itself (compared by identity)."""

    suffix: str  # "-<key>", or "" for an older version's recovery.json
    game: Game
    saved: datetime  # with its offset from UTC, so any two compare
    origin: Path | None
    origin_fingerprint: str | None
    lock: QLockFile
    origin_problem: str | None = None  # why the file the note names cannot be the game's file, in words

    def label(self, seconds: bool = False) -> str:
        """Title, file, Turn, Phase and when it was saved; `seconds` tells apart two saved in the same minute."""
        if self.origin is not None:
            where = self.origin.name
        elif self.origin_problem is not None:
            where = f"its file cannot be used: {self.origin_problem}"
        else:
            where = "never saved"
        return (f"{self.game.title} ({where}): Turn {self.game.turn}, Phase {self.game.phase}, "
                f"autosaved {when_saved(self.saved, seconds=seconds)}")


def when_saved(saved: datetime, now: datetime | None = None, seconds: bool = False) -> str:
    """A time as a player reads it, in local time: "today 14:05", "yesterday 21:30" or "30 Nov 2026 10:00".

    Month names are English whatever the system's language, as every other word of the app is.
    """
    from datetime import datetime
    from datetime import timedelta

    local = saved.astimezone()
    today = (now if now is not None else datetime.now()).astimezone().date()
    clock = local.strftime("%H:%M:%S" if seconds else "%H:%M")
    if local.date() == today:
        return f"today {clock}"
    if local.date() == today - timedelta(days=1):
        return f"yesterday {clock}"
    return f"{local.day} {MONTHS[local.month - 1]} {local.year} {clock}"


class Recovery(QObject):
    """Autosaves one session to its own recovery file in a folder shared by every window."""

    status = Signal(str, int)  # a message for the status bar and how long to show it (0: until replaced)

    def __init__(self, session: Session, directory: Path | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._dir = directory if directory is not None else data_dir()
        with contextlib.suppress(OSError):  # a folder that cannot be made is said when autosave first fails
            self._dir.mkdir(parents=True, exist_ok=True)
        self._suffix = f"-{os.urandom(16).hex()}"  # unique to this window, as a uuid4 would be
        self._lock = QLockFile(str(self._file(self._suffix, ".lock")))
        self._lock.setStaleLockTime(0)
        self.last_error: str | None = None
        self.near_full = False  # the game's file is near the largest a save may be: said once as it gets there
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.write_now)
        self._deadline = QTimer(self)
        self._deadline.setSingleShot(True)
        self._deadline.setInterval(MAX_WAIT_MS)
        self._deadline.timeout.connect(self.write_now)
        session.changed.connect(self._schedule)
        session.game_replaced.connect(self.discard)
        session.modified_changed.connect(self._on_modified_changed)

    def _file(self, suffix: str, ending: str) -> Path:
        return self._dir / f"recovery{suffix}{ending}"

    @property
    def path(self) -> Path:
        return self._file(self._suffix, ".json")

    @property
    def info_path(self) -> Path:
        return self._file(self._suffix, "-info.json")

    # -- autosave -----------------------------------------------------------------------
    def _schedule(self, *_: object) -> None:
        if not self._session.modified:
            # Undone back to what was saved: there is nothing to recover.
            self.discard()
            return
        self._timer.start()
        if not self._deadline.isActive():
            self._deadline.start()

    def _on_modified_changed(self, modified: bool) -> None:
        if not modified:
            self.discard()

    def write_now(self) -> None:
        """Write the recovery file (and where the game came from) at once."""
        self._timer.stop()
        self._deadline.stop()
        if not self._session.modified:
            self.discard()
            return
        from datetime import datetime

        path = self._session.path
        info = {
            "saved": datetime.now().astimezone().isoformat(timespec="seconds"),  # with its offset from UTC
            "path": str(path.absolute()) if path is not None else None,
            "fingerprint": self._session.disk_fingerprint,
        }
        if not self._lock.isLocked():
            self._lock.tryLock(0)  # taken with the first recovery file, not at start: it costs about a millisecond
        try:
            saving = game_file(self._session.live_game, self.path)
            write_bytes(self.path, saving.data)
            write_bytes(self.info_path, json.dumps(info).encode("utf-8"))
        except SaveError as exc:
            if self.last_error != exc.reason:
                self.status.emit(f"Autosave failed: {exc.reason} ({self._dir}). Until it works again a crash "
                                 "would lose your latest changes; use Save.", 0)
            self.last_error = exc.reason
            return
        if self.last_error is not None:
            self.status.emit("Autosave works again: your changes are kept in case of a crash.", 8000)
        self.last_error = None
        note = saving.note()
        if note is not None and not self.near_full:
            self.status.emit(f"Autosaved: {note}", 0)
        self.near_full = note is not None

    def discard(self) -> None:
        """Forget this window's recovery file: the game was saved, put away, or is as saved."""
        self._timer.stop()
        self._deadline.stop()
        _unlink(self.path, self.info_path)

    def close(self) -> None:
        """A clean exit: no recovery file and no lock left behind."""
        self.discard()
        self._lock.unlock()

    # -- after a crash ----------------------------------------------------------------------
    def orphans(self) -> list[Orphan]:
        """Recovery files no live window holds, oldest first, each locked until taken, discarded or released.

        A file that cannot be loaded is set aside as `.broken.json`; one whose
        game is the same as its file on disk is removed, as there is nothing
        to restore. A note that cannot be read is set aside too, and said once.
        """
        found: list[Orphan] = []
        try:
            entries = sorted(self._dir.iterdir())
        except OSError:
            return found
        for entry in entries:
            match = RECOVERY_NAME.fullmatch(entry.name)
            if match is None or not entry.is_file():
                continue
            suffix, kind = match.group(1) or "", match.group(2)
            if suffix == self._suffix or (kind == "lock" and self._file(suffix, ".json").exists()):
                continue  # this window's own, or seen with its recovery file
            lock = QLockFile(str(self._file(suffix, ".lock")))
            lock.setStaleLockTime(0)  # stale only when its process is gone, however long a window stays open
            if not lock.tryLock(0) and not _taken_from_another_program(lock, self._file(suffix, ".lock")):
                continue  # a live window's game
            if kind == "lock":  # left by a run that ended with nothing unsaved: now cleared
                lock.unlock()
                continue
            try:
                orphan = self._orphan(suffix, lock)
            except OSError as exc:
                self.status.emit(f"A recovery file could not be read: {exc.strerror or exc} ({entry}).", 0)
                orphan = None
            if orphan is None:
                lock.unlock()
            else:
                found.append(orphan)
        found.sort(key=lambda o: o.saved)
        return found

    def _orphan(self, suffix: str, lock: QLockFile) -> Orphan | None:
        path = self._file(suffix, ".json")
        try:
            game = saved_games.load(path)
        except savefile.SaveFileError:
            aside = self._file(suffix, ".broken.json")
            path.replace(aside)
            self.status.emit(f"A damaged recovery file was set aside as {aside}.", 0)
            return None
        from datetime import datetime

        saved = datetime.fromtimestamp(path.stat().st_mtime).astimezone()
        origin: Path | None = None
        origin_fingerprint: str | None = None
        info_path = self._file(suffix, "-info.json")
        if info_path.exists():
            try:
                noted, origin, origin_fingerprint = _read_note(info_path)
            except (OSError, ValueError, OverflowError, RecursionError):  # RecursionError: nested too deeply
                origin, origin_fingerprint = None, None
                aside = self._file(suffix, "-info.broken.json")
                info_path.replace(aside)
                self.status.emit(f"A damaged recovery note was set aside as {aside}; its game is still offered, "
                                 "without the file it came from.", 0)
            else:
                saved = noted if noted is not None else saved
        orphan = Orphan(suffix, game, saved, origin, origin_fingerprint, lock)
        if origin is None:
            return orphan
        try:
            os.stat(origin)
        except (FileNotFoundError, NotADirectoryError):
            return orphan  # gone since: saving the restored game makes it again
        except (OSError, ValueError) as exc:  # a name too long for the system, or one no file can have
            # Kept as the game's file, it would fail at every save: the game is offered as never saved.
            orphan.origin, orphan.origin_fingerprint = None, None
            orphan.origin_problem = _refusal(exc)
            return orphan
        try:
            on_disk = saved_games.load(origin)
        except savefile.SaveFileError:
            # Not a game file (any more): the restored game must never be saved over it.
            orphan.origin, orphan.origin_fingerprint = None, None
        else:
            if on_disk == game:
                self._remove(orphan)
                return None
        return orphan

    def _remove(self, orphan: Orphan) -> None:
        _unlink(self._file(orphan.suffix, ".json"), self._file(orphan.suffix, "-info.json"))
        orphan.lock.unlock()

    def take(self, orphan: Orphan) -> None:
        """The orphan's game now lives in this window: keep it under this window's key, drop the orphan."""
        self.write_now()
        self._remove(orphan)

    def drop(self, orphan: Orphan) -> None:
        """The player discarded the orphan's game."""
        self._remove(orphan)

    @staticmethod
    def release(orphan: Orphan) -> None:
        """Leave the orphan for the next start."""
        orphan.lock.unlock()


def _unlink(*paths: Path) -> None:
    """Remove recovery files; one that cannot be removed is left, never a reason for a save or exit to fail."""
    for path in paths:
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)


def _refusal(exc: OSError | ValueError) -> str:
    """Why the system refuses a file's name, in words."""
    if isinstance(exc, OSError):
        return describe_errno(exc.errno) or exc.strerror or "the system cannot reach it"
    return "its name holds characters no file name can"


def _read_note(path: Path) -> tuple[datetime | None, Path | None, str | None]:
    """A recovery note's time, the game's own file and what that file held; ValueError when it is no such note.

    Only a plain file of a note's size is read, so a note can neither stall the start nor fill the memory.
    """
    info = path.stat()
    if not stat.S_ISREG(info.st_mode) or info.st_size > NOTE_BYTES:
        raise ValueError("not a note")
    note = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(note, dict):
        raise ValueError("not an object")
    saved = _text(note, "saved")
    origin_text = _text(note, "path")
    origin = Path(origin_text) if origin_text else None
    if origin is not None and not origin.is_absolute():
        raise ValueError("not an absolute path")
    return (_local_time(saved) if saved else None), origin, _text(note, "fingerprint")


def _local_time(text: str) -> datetime:
    """A note's time in local time, with its offset from UTC, so that the times of any two notes compare.

    A time without an offset is read as local time: earlier versions wrote the
    local clock's time without its offset, and the computer that reads a note
    is nearly always the one that wrote it, so reading it as UTC would move
    every older note by the local offset. Notes now carry their offset.
    """
    from datetime import datetime

    return datetime.fromisoformat(text).astimezone()  # a naive time is taken as local time by astimezone


# -- locks left by a process that has ended, its PID now another program's ---------------------------


def _taken_from_another_program(lock: QLockFile, path: Path) -> bool:
    """Take a lock that Qt counts as held but that names a process that is not the BattleTracker that took it.

    Qt holds a lock while a process with its PID runs whose executable has the
    name the lock gives (python3.11 for every Python program), so a PID reused
    by another program would hide the orphan until that program ends. Qt
    removes a lock only when nobody holds its native lock (every live
    QLockFile keeps one), so a BattleTracker mistaken for another program
    keeps its lock and its game.
    """
    if not _held_by_another_program(lock, path):
        return False
    return lock.removeStaleLockFile() and lock.tryLock(0)


def _held_by_another_program(lock: QLockFile, path: Path) -> bool:
    """Whether the process a lock names on this computer is not BattleTracker, or started after the lock was taken.

    Read from /proc on Linux; elsewhere Qt's own check stands (the lock is left as held).
    """
    from PySide6.QtCore import QSysInfo

    pid, host, _program = lock.getLockInfo()
    if pid <= 0 or pid == os.getpid() or (host and host != QSysInfo.machineHostName()):
        return False  # no lock to read, this very process, or another computer's: Qt's word stands
    process = _process(pid)
    if process is None:
        return False
    argv, started = process
    try:
        taken = path.stat().st_mtime
    except OSError:
        return False
    return not runs_battletracker(argv) or (started is not None and started > taken + 2)  # /proc counts whole seconds


def _process(pid: int) -> tuple[list[str], float | None] | None:
    """A process's command line and when it started (seconds since the epoch); None where /proc cannot tell.

    A process gone since Qt looked has an empty command line.
    """
    proc = Path("/proc")
    if not (proc / "self" / "cmdline").exists():
        return None
    try:
        argv = [os.fsdecode(a) for a in (proc / str(pid) / "cmdline").read_bytes().split(b"\0") if a]
        ticks = int((proc / str(pid) / "stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()[19])
        boot = next((int(line.split()[1]) for line in (proc / "stat").read_text(encoding="utf-8").splitlines()
                     if line.startswith("btime ")), None)
    except FileNotFoundError:
        return [], None
    except (OSError, ValueError, IndexError):
        return None
    return argv, (boot + ticks / os.sysconf("SC_CLK_TCK") if boot is not None else None)


def runs_battletracker(argv: Sequence[str]) -> bool:
    """Whether a command line starts BattleTracker: its bundle, its `battletracker` script or `python -m battletracker`.

    Read strictly: a BattleTracker started some other way is taken for another
    program, and then only loses a lock that nobody holds any more (Qt keeps a
    held lock, see `_taken_from_another_program`).
    """
    if not argv:
        return False
    if Path(argv[0]).stem.casefold() == "battletracker":
        return True
    args = iter(argv[1:])
    for arg in args:
        if arg == "-m":
            return next(args, "").split(".")[0] == "battletracker"
        if arg == "-c":
            return False
        if arg in PYTHON_OPTIONS_WITH_VALUES:
            next(args, None)
        elif not arg.startswith("-"):
            return Path(arg).stem.casefold() == "battletracker"  # the script the interpreter runs
    return False


def _text(info: dict[str, object], key: str) -> str | None:
    value = info.get(key)
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{key} is not text")
    return value
