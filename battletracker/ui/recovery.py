"""Crash recovery: each open game written to its own recovery file shortly after every change.

Every window keeps its game in `recovery-<key>.json` beside a note
`recovery-<key>-info.json` (when it was written, the file it came from and
what that file held), and holds `recovery-<key>.lock` with a QLockFile from
its first recovery file for as long as it lives. A saved game, a game undone
back to its saved state, a game put away by New or Open and a clean exit
leave no recovery file. So a
recovery file whose lock nobody holds was left by a run that ended without
closing: an orphan, offered back at the next start unless it only repeats
the file on disk. `recovery.json` with `recovery-info.json` is the single
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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QLockFile, QObject, QStandardPaths, QTimer, Signal

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules import saved_games
from battletracker.ui.files import SaveError, game_file, write_bytes
from battletracker.ui.session import Session

if TYPE_CHECKING:
    from datetime import datetime  # loaded by the first write or the first recovery file read

DEBOUNCE_MS = 200
MAX_WAIT_MS = 1500
"""However steadily the player keeps changing the game, a change is on disk within 2 s."""

RECOVERY_NAME = re.compile(r"recovery(-[0-9a-f]{32})?\.(json|lock)")


def data_dir() -> Path:
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(location)


@dataclass(eq=False)
class Orphan:
    """A recovery file left by a run that did not close properly; each one is itself (compared by identity)."""

    suffix: str  # "-<key>", or "" for an older version's recovery.json
    game: Game
    saved: datetime
    origin: Path | None
    origin_fingerprint: str | None
    lock: QLockFile

    def label(self) -> str:
        where = self.origin.name if self.origin is not None else "never saved"
        return (f"{self.game.title} ({where}): Turn {self.game.turn}, Phase {self.game.phase}, "
                f"autosaved {self.saved.strftime('%Y-%m-%d %H:%M')}")


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
            "saved": datetime.now().isoformat(timespec="seconds"),
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
            if not lock.tryLock(0):
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

        saved = datetime.fromtimestamp(path.stat().st_mtime)
        origin: Path | None = None
        origin_fingerprint: str | None = None
        info_path = self._file(suffix, "-info.json")
        if info_path.exists():
            try:
                info = json.loads(info_path.read_text(encoding="utf-8"))
                if not isinstance(info, dict):
                    raise ValueError("not an object")
                saved = datetime.fromisoformat(_text(info, "saved") or saved.isoformat())
                origin_text = _text(info, "path")
                origin = Path(origin_text) if origin_text else None
                if origin is not None and not origin.is_absolute():
                    raise ValueError("not an absolute path")
                origin_fingerprint = _text(info, "fingerprint")
            except (OSError, ValueError):
                origin, origin_fingerprint = None, None
                aside = self._file(suffix, "-info.broken.json")
                info_path.replace(aside)
                self.status.emit(f"A damaged recovery note was set aside as {aside}; its game is still offered, "
                                 "without the file it came from.", 0)
        orphan = Orphan(suffix, game, saved, origin, origin_fingerprint, lock)
        if origin is not None and origin.exists():
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


def _text(info: dict[str, object], key: str) -> str | None:
    value = info.get(key)
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{key} is not text")
    return value
