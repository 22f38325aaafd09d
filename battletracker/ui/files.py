"""Writing files from the UI: through QSaveFile, so a failed save never leaves a
half-written file and the previous version stays until the new one is complete."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.rules.tables import resources_dir

if TYPE_CHECKING:
    from PySide6.QtCore import QSaveFile

ERRNO_WORDS: dict[int, str] = {
    getattr(errno, name): words
    for name, words in (
        ("ENOSPC", "no space left on the disk"),
        ("EDQUOT", "your disk quota is used up"),
        ("EROFS", "the disk is read-only"),
        ("EACCES", "no permission to write there"),
        ("EPERM", "no permission to write there"),
        ("ENOENT", "the folder does not exist"),
        ("ENOTDIR", "the folder does not exist"),
        ("EIO", "the disk reported a read or write error"),
        ("ENAMETOOLONG", "the file name is too long"),
    )
    if hasattr(errno, name)
}


class SaveError(OSError):
    """Writing failed; the message names the file and the reason, `reason` holds the reason alone."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def describe_errno(code: int | None) -> str | None:
    """The player's words for an OS error number, or None for one without words here."""
    return ERRNO_WORDS.get(code) if code is not None else None


def _probe(folder: Path, needed: int) -> int | None:
    """The error a failed write most likely met, read off the folder.

    QSaveFile keeps no error number (a full disk comes back as "Unknown
    error"), so the folder is looked at: missing, read-only, full, or not
    writable by this user.
    """
    if not folder.is_dir():
        return errno.ENOENT
    try:
        fs = os.statvfs(folder)
    except (OSError, AttributeError):
        fs = None
    if fs is not None:
        if fs.f_flag & os.ST_RDONLY:
            return errno.EROFS
        if fs.f_bavail * fs.f_frsize < needed:
            return errno.ENOSPC
    if not os.access(folder, os.W_OK):
        return errno.EACCES
    return None


def failure_reason(path: Path, handle: QSaveFile, needed: int) -> str:
    """Why writing `needed` bytes to `path` failed, in the player's words."""
    words = describe_errno(_probe(path.parent, needed))
    if words is not None:
        return words
    from PySide6.QtCore import QFileDevice

    if handle.error() == QFileDevice.FileError.PermissionsError:
        return "no permission to write there"
    text = handle.errorString()
    return text if text and text != "Unknown error" else "the system gave no reason"


@contextmanager
def atomic_write(path: Path, needed: int = 0) -> Iterator[QSaveFile]:
    """Yield an open QSaveFile; commit it when the block ends, discard it on error.

    Qt's file classes are loaded with the first save, not before the window's first paint.
    """
    from PySide6.QtCore import QIODevice
    from PySide6.QtCore import QSaveFile

    handle = QSaveFile(str(path))
    if not handle.open(QIODevice.OpenModeFlag.WriteOnly):
        reason = failure_reason(path, handle, needed)
        raise SaveError(f"cannot write {path}: {reason}", reason)
    try:
        yield handle
    except BaseException:
        handle.cancelWriting()
        raise
    if not handle.commit():
        reason = failure_reason(path, handle, needed)
        raise SaveError(f"could not save {path}: {reason}", reason)


def write_bytes(path: Path, data: bytes) -> None:
    with atomic_write(path, len(data)) as handle:
        if handle.write(data) != len(data):
            reason = failure_reason(path, handle, len(data))
            raise SaveError(f"could not save {path}: {reason}", reason)


def fingerprint(data: bytes) -> str:
    """What a file held when it was opened or saved, to notice when someone else changed it."""
    import hashlib  # not needed before the window's first paint

    return hashlib.sha256(data).hexdigest()


def game_file(game: Game, path: Path) -> savefile.Saving:
    """What saving the game at `path` writes: always a file Open accepts (see savefile.to_save)."""
    try:
        return savefile.to_save(game)
    except savefile.SaveFileError as exc:
        raise SaveError(f"could not save {path}: {exc}", str(exc)) from None


def save_game(game: Game, path: Path) -> tuple[str, str | None]:
    """Write the game; returns the fingerprint of what was written and what to say about it beside "Saved"."""
    saving = game_file(game, path)
    write_bytes(path, saving.data)
    return fingerprint(saving.data), saving.note()


def is_shipped(path: Path) -> bool:
    """Whether `path` is one of the app's own files (a demo battle, a table).

    Those open as untitled copies so that saving never overwrites them: the
    next player, or the next start, gets the demo as it was shipped.
    """
    package = Path(__file__).resolve().parents[1]
    try:
        target = path.resolve()
    except OSError:
        return False
    return any(target.is_relative_to(root) for root in (resources_dir().resolve(), package))
