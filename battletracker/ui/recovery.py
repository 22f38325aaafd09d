"""Crash recovery: the session's game written to a recovery file after every change.

A clean exit removes the file, so finding it at start means the last run
ended without closing properly and its game can be offered back.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.ui.files import SaveError, write_bytes
from battletracker.ui.session import Session

DEBOUNCE_MS = 200


def data_dir() -> Path:
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    path = Path(location)
    path.mkdir(parents=True, exist_ok=True)
    return path


class Recovery(QObject):
    """Autosaves a session to `<dir>/recovery.json` shortly after each change."""

    def __init__(self, session: Session, directory: Path | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._dir = directory if directory is not None else data_dir()
        self.last_error: str | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.write_now)
        session.changed.connect(self._schedule)

    @property
    def path(self) -> Path:
        return self._dir / "recovery.json"

    @property
    def info_path(self) -> Path:
        return self._dir / "recovery-info.json"

    def _schedule(self, *_: object) -> None:
        if self._session.modified:
            self._timer.start()

    def write_now(self) -> None:
        """Write the recovery file (and where the game came from) at once."""
        self._timer.stop()
        info = {
            "saved": datetime.now().isoformat(timespec="seconds"),
            "path": str(self._session.path) if self._session.path else None,
        }
        try:
            write_bytes(self.path, savefile.dumps(self._session.game))
            write_bytes(self.info_path, json.dumps(info).encode("utf-8"))
            self.last_error = None
        except SaveError as exc:
            self.last_error = str(exc)

    def flush(self) -> None:
        if self._timer.isActive():
            self.write_now()

    def discard(self) -> None:
        """Forget the recovery file: the game was saved or the app closed cleanly."""
        self._timer.stop()
        self.path.unlink(missing_ok=True)
        self.info_path.unlink(missing_ok=True)

    def pending(self) -> tuple[Game, str, Path | None] | None:
        """A recoverable game left by a run that did not close properly, if any.

        Returns the game, when it was written and the file it came from; a
        recovery file that cannot be loaded is set aside, not offered.
        """
        if not self.path.exists():
            return None
        try:
            game = savefile.load(self.path)
        except savefile.SaveFileError:
            self.path.replace(self.path.with_suffix(".broken.json"))
            return None
        saved, origin = "an unknown time", None
        try:
            info = json.loads(self.info_path.read_text(encoding="utf-8"))
            saved = str(info.get("saved") or saved)
            origin = Path(info["path"]) if info.get("path") else None
        except (OSError, ValueError, TypeError):
            pass
        return game, saved, origin
