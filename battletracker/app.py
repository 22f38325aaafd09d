"""Start the app: `battletracker [FILE] [--demo] [--light | --dark]`."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

START = time.perf_counter()


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="battletracker", description="A table-side companion for wargames.")
    parser.add_argument("file", nargs="?", type=Path, help="a saved game to open")
    parser.add_argument("--demo", action="store_true", help="open the demo battle")
    scheme = parser.add_mutually_exclusive_group()
    scheme.add_argument("--light", dest="scheme", action="store_const", const="light", help="light palette")
    scheme.add_argument("--dark", dest="scheme", action="store_const", const="dark", help="dark palette")
    return parser.parse_args(argv)


def demo_path() -> Path:
    from battletracker.rules.tables import resources_dir

    return resources_dir() / "demo" / "chain_of_command.json"


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["replay"]:
        from battletracker.rules.replay import main as replay

        return replay(argv[1:])
    args = parse_args(argv)

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from battletracker.model import savefile
    from battletracker.ui.main_window import MainWindow
    from battletracker.ui.recovery import Recovery
    from battletracker.ui.session import Session
    from battletracker.ui.theme import apply_scheme

    app = QApplication.instance() or QApplication([sys.argv[0]])
    assert isinstance(app, QApplication)
    app.setOrganizationName("BattleTracker")
    app.setApplicationName("BattleTracker")
    app.setApplicationDisplayName("BattleTracker")
    apply_scheme(app, args.scheme)

    session = Session(savefile.load(demo_path()))
    window = MainWindow(session, Recovery(session))
    pending = window.recovery.pending()
    if args.file is not None:
        window.open_path(args.file)
    elif not args.demo:
        last = next((Path(p) for p in window.recent_files() if Path(p).exists()), None)
        if last is not None:
            window.open_path(last)
    window.show()

    if os.environ.get("BATTLETRACKER_EXIT_AFTER_PAINT"):
        def report() -> None:
            print(f"painted {time.perf_counter() - START:.4f}", flush=True)
            QTimer.singleShot(0, app.quit)

        window.first_painted.connect(report)
    elif pending is not None:
        game, saved, origin = pending

        def offer() -> None:
            answer = QMessageBox.question(
                window, "Restore unsaved game?",
                f"BattleTracker did not close properly last time. Restore \"{game.title}\" "
                f"as it was at {saved.replace('T', ' ')}?")
            if answer == QMessageBox.StandardButton.Yes:
                session.replace_game(game, origin)
                session.undo_stack.resetClean()
            else:
                window.recovery.discard()

        QTimer.singleShot(0, offer)
    return app.exec()
