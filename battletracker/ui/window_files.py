"""The main window's games on disk: new, open, save, the recent and demo menus, and crash recovery."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QStandardPaths
from PySide6.QtCore import Qt

from battletracker.model import savefile
from battletracker.rules.base import message_of
from battletracker.rules.tables import resources_dir
from battletracker.ui.ask import ask
from battletracker.ui.files import SaveError
from battletracker.ui.files import fingerprint
from battletracker.ui.files import save_game
from battletracker.ui.recovery import Orphan
from battletracker.ui.text import literal

if TYPE_CHECKING:
    from battletracker.ui.main_window import MainWindow

FILE_FILTER = "BattleTracker games (*.battle *.json);;All files (*)"
MAX_RECENT = 8
OPENING_AT_START = "start/opening"
"""The setting naming the game a start is opening, until its first paint: there after a start that crashed."""


def safe_file_name(title: str) -> str:
    """A file name from a game title that every desktop system accepts."""
    cleaned = "".join("-" if c in '<>:"/\\|?*' or ord(c) < 32 else c for c in title).strip(" .")
    return cleaned or "battle"


class WindowFiles:
    """Every way a game comes into the window or goes to disk, and the asking before one is lost.

    The window's File menu, its closing and app.py's start call these; the window keeps
    `open_path`, `save`, `save_to`, `offer_recovery`, `reopen_last` and `recent_files` as its own names.
    """

    def __init__(self, window: MainWindow) -> None:
        self._window = window

    def maybe_save(self) -> bool:
        """Ask before losing changes; False means the player cancelled."""
        from PySide6.QtWidgets import QMessageBox

        session = self._window.session
        if not session.modified:
            return True
        answer = QMessageBox.warning(
            self._window, "Unsaved changes", literal(f"Save the changes to \"{session.game.title}\"?"),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_game(self) -> None:
        if not self.maybe_save():
            return
        from battletracker.ui.new_game_dialog import NewGameDialog

        dialog = NewGameDialog(self._window)
        if dialog.exec():
            self._window.session.replace_game(dialog.game(), None)
            self._window.map.fit_table()

    def open_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        if not self.maybe_save():
            return
        path = self._window.session.path
        start = str(path.parent) if path else ""
        name, _ = QFileDialog.getOpenFileName(self._window, "Open game", start, FILE_FILTER)
        if name:
            self.open_path(Path(name))

    def open_path(self, path: Path) -> bool:
        """Open a save file; a broken one is refused with its reason and the game stays.

        A long game's replay shows its progress, with Cancel, after a second.
        """
        from battletracker.rules.replay import Cancelled
        from battletracker.ui.long_work import LongWork

        window, session = self._window, self._window.session
        progress = LongWork(window, "Opening a game", f"Opening {path.name}: replaying its actions to offer Undo "
                                                      "again...")
        try:
            session.open(path, progress)
        except savefile.SaveFileError as exc:
            window.show_error("Cannot open game", f"{path.name} was not opened:\n\n{message_of(exc)}")
            return False
        except Cancelled:
            window.show_status(f"Opening {path.name} was cancelled: the game on screen is as it was", 8000)
            return False
        finally:
            progress.close()
        self._remember(path)
        window.map.fit_table()
        if session.history_lost is not None:
            return True  # the status bar says it opened without its Undo history, and why: that matters more
        if session.path is None:
            window.show_status(f"Opened a copy of {path.name}, which comes with BattleTracker: "
                               "Save asks where to keep your game", 10000)
        else:
            window.show_status(f"Opened {path}", 5000)
        return True

    def save(self) -> bool:
        if self._window.session.path is None:
            return self.save_as()
        return self.save_to(self._window.session.path)

    def save_as(self) -> bool:
        from PySide6.QtWidgets import QFileDialog

        session = self._window.session
        if session.path is not None:
            start = str(session.path)
        else:
            folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
            start = str(Path(folder) / f"{safe_file_name(session.game.title)}.battle")
        name, _ = QFileDialog.getSaveFileName(self._window, "Save game as", start, FILE_FILTER)
        if not name:
            return False
        return self.save_to(Path(name))

    def save_to(self, path: Path) -> bool:
        from PySide6.QtWidgets import QMessageBox

        window, session = self._window, self._window.session
        if self._changed_on_disk(path):
            save_as, overwrite = 0, 1
            answer = ask(window, QMessageBox.Icon.Warning, "File changed on disk",
                         f"{path.name} has changed on disk since you opened or last saved it, perhaps "
                         "in another BattleTracker window. Saving here would overwrite those changes.",
                         [("Save &As...", QMessageBox.ButtonRole.AcceptRole),
                          ("&Overwrite", QMessageBox.ButtonRole.DestructiveRole)])
            if answer == save_as:
                return self.save_as()
            if answer != overwrite:
                return False
        try:
            written, note = save_game(session.live_game, path)
        except SaveError as exc:
            window.show_error("Cannot save game", message_of(exc))
            return False
        session.mark_saved(path, written)
        window.recovery.discard()
        self._remember(path)
        if note is None:
            window.show_status(f"Saved {path}", 5000)
        else:
            window.show_status(f"Saved {path}: {note}", 30000)
        return True

    def _changed_on_disk(self, path: Path) -> bool:
        """Whether `path` is the game's own file and someone else wrote to it since it was opened or saved."""
        session = self._window.session
        known = session.disk_fingerprint
        if known is None or path != session.path or not path.exists():
            return False
        try:
            return fingerprint(savefile.read_file(path)) != known
        except savefile.SaveFileError:
            return True

    # -- crash recovery ------------------------------------------------------------------
    def offer_recovery(self) -> None:
        """Offer back every game left unsaved by a run that did not close properly."""
        from PySide6.QtWidgets import QMessageBox

        window, recovery = self._window, self._window.recovery
        orphans = recovery.orphans()
        if len(orphans) == 1:
            orphan = orphans[0]
            box = QMessageBox(QMessageBox.Icon.Question, "Restore unsaved game?",
                              f"BattleTracker did not close properly last time. Restore {orphan.label()}?",
                              QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, window)
            box.setTextFormat(Qt.TextFormat.PlainText)
            if box.exec() == QMessageBox.StandardButton.Yes:
                self.restore(orphan)
            else:
                recovery.drop(orphan)
        elif orphans:
            from battletracker.ui.recovery_dialog import RecoveryDialog

            dialog = RecoveryDialog(orphans, window)
            dialog.exec()
            for orphan in dialog.discarded:
                recovery.drop(orphan)
            later = [o for o in orphans if o is not dialog.chosen and o not in dialog.discarded]
            for orphan in later:
                recovery.release(orphan)
            if dialog.chosen is not None:
                self.restore(dialog.chosen)
            if later:
                more = (f"{len(later)} more unsaved game{'s' if len(later) > 1 else ''} will be offered at the next "
                        "start.")
                lost = self._history_lost_words() if dialog.chosen is not None else None
                window.show_status(f"{more} {lost}" if lost else more, 0)

    def _history_lost_words(self) -> str | None:
        """That the game just opened has no Undo history and why, or None when it has it (or never had any)."""
        session = self._window.session
        lost = session.history_lost
        return f"{session.game.title} opened without its Undo history: {lost}" if lost is not None else None

    def say_history_lost(self) -> None:
        """Say it once, as the game opens: a game whose record does not replay opens as saved, without Undo history."""
        words = self._history_lost_words()
        if words is not None:
            import logging

            logging.getLogger("battletracker").info(words)
            self._window.show_status(words, 0)

    def restore(self, orphan: Orphan) -> None:
        """Put a recovered game in this window, unsaved, with the file it came from."""
        window, session = self._window, self._window.session
        if not self.maybe_save():
            window.recovery.release(orphan)
            return
        session.replace_game(orphan.game, orphan.origin)
        session.disk_fingerprint = orphan.origin_fingerprint
        session.undo_stack.resetClean()
        window.recovery.take(orphan)
        window.map.fit_table()

    # -- the recent and demo games ---------------------------------------------------------
    def _remember(self, path: Path) -> None:
        recent = [p for p in self.recent_files() if p != str(path)]
        recent.insert(0, str(path))
        self._window.settings.setValue("recent_files", recent[:MAX_RECENT])

    def reopen_last(self) -> None:
        """Open the last game played, unless the last start stopped while opening it.

        A start that never reached its first paint may have been killed by that
        very file; opening it again at every start would crash every start, so
        the player is told and opens it from File > Open Recent if they wish.
        """
        from PySide6.QtCore import QTimer

        window, settings = self._window, self._window.settings
        last = next((Path(p) for p in self.recent_files() if Path(p).exists()), None)
        if last is None:
            return
        if settings.value(OPENING_AT_START, "") == str(last):
            settings.remove(OPENING_AT_START)
            window.show_status(f"{last.name} was not opened again: the last start stopped while opening it. "
                               "Open it from File > Open Recent if you wish.", 30000)
            return
        settings.setValue(OPENING_AT_START, str(last))
        settings.sync()  # on disk before the paint that may not return
        window.first_painted.connect(lambda: QTimer.singleShot(0, lambda: settings.remove(OPENING_AT_START)))
        self.open_path(last)

    def recent_files(self) -> list[str]:
        value = self._window.settings.value("recent_files", [])
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    def fill_recent(self) -> None:
        menu = self._window.recent_menu
        menu.clear()
        files = self.recent_files()
        if not files:
            menu.addAction("(none)").setEnabled(False)
        for name in files:
            entry = menu.addAction(name)
            entry.triggered.connect(lambda _checked=False, n=name: self._open_recent(Path(n)))

    def _open_recent(self, path: Path) -> None:
        if self.maybe_save():
            self.open_path(path)

    def fill_demos(self) -> None:
        """The demo battles shipped with the app, one a ruleset; each opens as an untitled copy (`open_path`)."""
        from battletracker.ui.new_game_dialog import RULESETS

        menu = self._window.demo_menu
        menu.clear()
        shipped = {path.stem: path for path in (resources_dir() / "demo").glob("*.json")}
        for stem in sorted(shipped, key=lambda s: (list(RULESETS).index(s) if s in RULESETS else len(RULESETS), s)):
            title = RULESETS[stem][0] if stem in RULESETS else stem.replace("_", " ").capitalize()
            entry = menu.addAction(title)
            entry.setObjectName(f"demo_{stem}")
            entry.triggered.connect(lambda _checked=False, p=shipped[stem]: self._open_recent(p))
