"""Writing files from the UI: through QSaveFile, so a failed save never leaves a
half-written file and the previous version stays until the new one is complete."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QIODevice, QSaveFile

from battletracker.model import savefile
from battletracker.model.game import Game


class SaveError(OSError):
    """Writing failed; the message names the file and the reason."""


@contextmanager
def atomic_write(path: Path) -> Iterator[QSaveFile]:
    """Yield an open QSaveFile; commit it when the block ends, discard it on error."""
    handle = QSaveFile(str(path))
    if not handle.open(QIODevice.OpenModeFlag.WriteOnly):
        raise SaveError(f"cannot write {path}: {handle.errorString()}")
    try:
        yield handle
    except BaseException:
        handle.cancelWriting()
        raise
    if not handle.commit():
        raise SaveError(f"could not save {path}: {handle.errorString()}")


def write_bytes(path: Path, data: bytes) -> None:
    with atomic_write(path) as handle:
        if handle.write(data) != len(data):
            raise SaveError(f"could not save {path}: {handle.errorString()}")


def save_game(game: Game, path: Path) -> None:
    write_bytes(path, savefile.dumps(game))
