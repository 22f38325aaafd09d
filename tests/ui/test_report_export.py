"""Exports are written whole or not at all: a full disk, a failed drawing, a write the system refuses or a
process killed half way leaves the earlier file at that name as it was, and the player is told why."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtGui import QPainter
from PySide6.QtGui import QTextDocument
from PySide6.QtGui import QTextDocumentFragment
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.ui import report_export
from battletracker.ui.files import SaveError
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session
from tests.ui.test_app import ROOT
from tests.ui.test_app import app_env
from tests.ui.test_files_and_recovery import answer_next_box
from tests.ui.test_files_and_recovery import failing_writes

FIXTURES = ROOT / "tests" / "fixtures"

EXPORTS = [("export_report_action", "report.html"), ("export_report_action", "report.pdf"),
           ("export_map_action", "map.png"), ("export_map_action", "map.svg"), ("export_log_action", "log.csv")]
"""Each export the File menu offers: its action and a file name whose suffix picks the format."""

WRITERS: dict[str, Callable[[Game, Path], None]] = {
    ".html": report_export.export_report_html, ".pdf": report_export.export_report_pdf,
    ".png": report_export.export_map_png, ".svg": report_export.export_map_svg, ".csv": report_export.export_log_csv}


@pytest.fixture
def window(qtbot: QtBot, session: Session, tmp_path: Path) -> MainWindow:
    win = MainWindow(session, Recovery(session, tmp_path / "recovery"))
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.show()
    qtbot.waitExposed(win)
    return win


def export(window: MainWindow, monkeypatch: pytest.MonkeyPatch, action: str, path: Path) -> None:
    """The player picks File > Export... and gives `path` as the file name."""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(path), ""))
    getattr(window, action).trigger()


@pytest.mark.skipif(not hasattr(os, "statvfs"), reason="POSIX disks")
@pytest.mark.parametrize(("action", "name"), EXPORTS)
def test_an_export_to_a_full_disk_keeps_the_earlier_file_and_says_why(window: MainWindow, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch,
                                                                     action: str, name: str) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    path = folder / name
    export(window, monkeypatch, action, path)
    earlier = path.read_bytes()
    window.session.act("unit.move", {"unit": "u7", "x": 20.0, "y": 20.0})
    window.statusBar().clearMessage()  # "Saved ..." of the export just made

    with monkeypatch.context() as disk:
        failing_writes(disk)  # every write fails and the disk has no space left
        said = answer_next_box("OK")
        export(window, monkeypatch, action, path)
    assert [QTextDocumentFragment.fromHtml(text).toPlainText() for text in said] == [
        f"{path} could not be written: no space left on the disk. Any earlier file of that name is kept."]
    assert path.read_bytes() == earlier
    assert [p.name for p in folder.iterdir()] == [name]  # no half-written file beside it
    assert not window.statusBar().currentMessage().startswith("Saved")

    export(window, monkeypatch, action, path)  # space again: the new export replaces the earlier one
    assert window.statusBar().currentMessage().startswith("Saved the ")
    assert path.read_bytes() != earlier
    assert [p.name for p in folder.iterdir()] == [name]


def _png_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QImage, "save", lambda *_a: False)


def _svg_painter_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    end = QPainter.end
    monkeypatch.setattr(QPainter, "end", lambda painter: end(painter) and False)


def _pdf_printing_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QTextDocument, "print_", lambda _document, _printer: None)  # as when its painter cannot start


@pytest.mark.parametrize(("name", "fail", "reason"), [
    ("map.png", _png_fails, "the picture could not be made"),
    ("map.svg", _svg_painter_fails, "the map could not be drawn"),
    ("report.pdf", _pdf_printing_fails, "the PDF writer did not finish the report"),
    ("report.html", _png_fails, "the picture could not be made"),
])
def test_a_drawing_qt_could_not_finish_is_not_written(session: Session, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch, name: str,
                                                      fail: Callable[[pytest.MonkeyPatch], None], reason: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"the earlier export")
    fail(monkeypatch)
    with pytest.raises(SaveError, match=f"^could not save {path}: {reason}$") as raised:
        WRITERS[path.suffix](session.game, path)
    assert raised.value.reason == reason
    assert path.read_bytes() == b"the earlier export"
    assert [p.name for p in tmp_path.iterdir()] == [name]


LIMITED_EXPORT = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead of ending the run
resource.setrlimit(resource.RLIMIT_FSIZE, (512, 512))
from battletracker.app import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="POSIX file size limits")
@pytest.mark.parametrize("suffix", sorted(WRITERS))
def test_an_export_the_system_will_not_write_in_full_keeps_the_earlier_file(tmp_path: Path, suffix: str) -> None:
    """The command line export run with a file size limit of 512 bytes: the system refuses the rest of every write."""
    path = tmp_path / f"battle{suffix}"
    WRITERS[suffix](savefile.load(FIXTURES / "played_armour_battles.battle"), path)
    earlier = path.read_bytes()
    assert len(earlier) > 512
    env = dict(app_env(tmp_path), PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-c", LIMITED_EXPORT, "export",
                           str(FIXTURES / "played_chain_of_command.battle"), str(path)],
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith(f"battletracker: cannot write {path}: ")
    assert done.stderr.endswith("; any earlier file of that name is kept\n")
    assert path.read_bytes() == earlier
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == [path.name]


HELD_EXPORT = """
import os, sys, time
from PySide6.QtCore import QSaveFile
from battletracker.app import main

write = QSaveFile.write

def write_half_and_wait(handle, data):
    write(handle, data[:len(data) // 2])
    handle.flush()
    print("half written", os.fstat(handle.handle()).st_size, "of", len(data), flush=True)
    time.sleep(60)

QSaveFile.write = write_half_and_wait
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")
@pytest.mark.parametrize("suffix", [".pdf", ".html"])
def test_an_export_killed_half_way_leaves_the_earlier_file_whole(tmp_path: Path, suffix: str) -> None:
    """kill -9 while the report is half on the disk: the earlier report is still there, every byte of it."""
    path = tmp_path / f"report{suffix}"
    WRITERS[suffix](savefile.load(FIXTURES / "played_armour_battles.battle"), path)
    earlier = path.read_bytes()
    run = subprocess.Popen([sys.executable, "-c", HELD_EXPORT, "export", str(FIXTURES / "played_necromunda.battle"),
                            str(path)], env=app_env(tmp_path), cwd=tmp_path, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    try:
        assert run.stdout is not None
        line = run.stdout.readline()
        assert line.startswith("half written "), line + (run.stderr.read() if run.stderr else "")
        written, size = map(int, line.split()[2::2])
        assert written == size // 2 > 0  # the new report, half of it on the disk
        assert path.read_bytes() == earlier
    finally:
        os.kill(run.pid, signal.SIGKILL)
        run.communicate(timeout=60)
    assert run.returncode == -signal.SIGKILL
    assert path.read_bytes() == earlier
    assert [p.name for p in tmp_path.iterdir() if p.is_file()] == [path.name]  # and nothing half-written beside it
