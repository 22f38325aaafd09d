"""After the battle: the File menu's report, map and log exports, and printing the report.

What they write is ui/report_export.py, imported at the first export: the start never needs it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QStandardPaths

from battletracker.model.game import Game
from battletracker.ui.files import SaveError
from battletracker.ui.window_files import safe_file_name

if TYPE_CHECKING:
    from battletracker.ui.main_window import MainWindow


class WindowExport:
    """Asks where, writes, and says in the status bar where it went or why nothing did."""

    def __init__(self, window: MainWindow) -> None:
        self._window = window

    def _export_name(self, caption: str, suffix: str, filters: str) -> tuple[Path | None, str]:
        """A file name the player picked (`suffix` added when none was typed), and the filter chosen."""
        from PySide6.QtWidgets import QFileDialog

        session = self._window.session
        folder = (str(session.path.parent) if session.path is not None else
                  QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation))
        start = str(Path(folder) / f"{safe_file_name(session.game.title)}{suffix}")
        name, chosen = QFileDialog.getSaveFileName(self._window, caption, start, filters)
        if not name:
            return None, chosen
        path = Path(name)
        return (path if path.suffix else path.with_suffix(suffix)), chosen

    def _write_export(self, what: str, path: Path, write: Callable[[Game, Path], None]) -> bool:
        """Write an export; on failure say why, and that whatever was at `path` before is still there."""
        try:
            write(self._window.session.game, path)
        except SaveError as exc:
            self._window.show_error(f"Could not save the {what}",
                                    f"{path} could not be written: {exc.reason}. Any earlier file of that name is "
                                    "kept.")
            return False
        self._window.show_status(f"Saved the {what} to {path}", 5000)
        return True

    def export_report(self) -> bool:
        from battletracker.rules.replay import Cancelled
        from battletracker.ui import report_export
        from battletracker.ui.long_work import LongWork

        path, _ = self._export_name("Export battle report", ".html", "Web page (*.html);;PDF (*.pdf)")
        if path is None:
            return False
        write = report_export.export_report_pdf if path.suffix.lower() == ".pdf" else report_export.export_report_html
        progress = LongWork(self._window, "Exporting the battle report",
                            f"Writing {path.name}: replaying the game and drawing the table at its moments...")
        try:
            return self._write_export("battle report", path, lambda game, to: write(game, to, progress))
        except Cancelled:
            self._window.show_status(f"Exporting {path.name} was cancelled: nothing was written", 8000)
            return False
        finally:
            progress.close()

    def export_map(self) -> bool:
        from battletracker.ui import report_export

        path, _ = self._export_name("Export map", ".png", "PNG picture (*.png);;SVG drawing (*.svg)")
        if path is None:
            return False
        write = report_export.export_map_svg if path.suffix.lower() == ".svg" else report_export.export_map_png
        return self._write_export("map", path, write)

    def export_log(self) -> bool:
        from battletracker.ui import report_export

        path, _ = self._export_name("Export battle log", ".csv", "CSV table (*.csv)")
        if path is None:
            return False
        return self._write_export("battle log", path, report_export.export_log_csv)

    def print_report(self) -> bool:
        from PySide6.QtPrintSupport import QPrintDialog
        from PySide6.QtPrintSupport import QPrinter

        from battletracker.ui import report_export

        printer = QPrinter()
        dialog = QPrintDialog(printer, self._window)
        if dialog.exec() != QPrintDialog.DialogCode.Accepted:
            return False
        from battletracker.rules.replay import Cancelled
        from battletracker.ui.long_work import LongWork

        progress = LongWork(self._window, "Printing the battle report", "Replaying the game and drawing the table at "
                                                                        "its moments...")
        try:
            document = report_export.report_document(self._window.session.game, progress)
        except Cancelled:
            self._window.show_status("Printing the battle report was cancelled", 8000)
            return False
        finally:
            progress.close()
        document.print_(printer)
        return True
