"""Start the app: `battletracker [FILE] [--demo] [--light | --dark] [--quit-after-paint]`."""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

START = time.perf_counter()


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="battletracker", description="A table-side companion for wargames.")
    parser.add_argument("file", nargs="?", type=Path, help="a saved game to open")
    parser.add_argument("--demo", action="store_true", help="open the demo battle")
    scheme = parser.add_mutually_exclusive_group()
    scheme.add_argument("--light", dest="scheme", action="store_const", const="light", help="light palette")
    scheme.add_argument("--dark", dest="scheme", action="store_const", const="dark", help="dark palette")
    parser.add_argument("--quit-after-paint", action="store_true",
                        help="open the demo or FILE, quit once the window has painted, and exit 1 "
                             "with the reason if it cannot be opened (checks an installation)")
    return parser.parse_args(argv)


def demo_path() -> Path:
    from battletracker.rules.tables import resources_dir

    return resources_dir() / "demo" / "chain_of_command.json"


def check_odds_plot(parent: QWidget) -> None:
    """Draw an odds plot off screen: pyqtgraph, numpy and the Qt modules they need are there."""
    from fractions import Fraction

    from battletracker.core.odds import Distribution
    from battletracker.ui.odds_plot import OddsPlot

    plot = OddsPlot(parent)
    plot.set_distribution(Distribution({"hit": Fraction(1, 3), "miss": Fraction(2, 3)}))
    plot.deleteLater()


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["replay"]:
        from battletracker.rules.replay import main as replay

        return replay(argv[1:])
    args = parse_args(argv)
    # The start builds thousands of long-lived objects (classes, enums, the game); the cyclic
    # collector would walk them again and again before the first paint and free none.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _start(args, collecting)
    finally:
        if collecting:
            gc.enable()


def _resume_collecting(collecting: bool) -> None:
    """After the first paint: what the start built stays for good (frozen out of collections); collect again."""
    if collecting and not gc.isenabled():
        gc.freeze()
        gc.enable()


def _start(args: argparse.Namespace, collecting: bool) -> int:
    from battletracker.model import savefile

    # The demo is the window's first game. A check that must not stop at a dialog
    # also reads the file first, to exit with the reason open_path would show.
    checked = [demo_path()] + ([args.file] if args.quit_after_paint and args.file is not None else [])
    games = []
    for path in checked:
        try:
            games.append(savefile.load(path))
        except savefile.SaveFileError as exc:
            print(f"battletracker: cannot open {path}: {exc}", file=sys.stderr)
            return 1

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from battletracker.ui.features import all_features
    from battletracker.ui.main_window import MainWindow
    from battletracker.ui.recovery import Recovery
    from battletracker.ui.session import Session
    from battletracker.ui.theme import apply_scheme

    existing = QApplication.instance()
    # Fusion chosen on the command line costs nothing; chosen with setStyle, Python wraps the style
    # object and builds its hundreds of enum members before the first paint.
    app = existing or QApplication([sys.argv[0], "-style", "Fusion"])
    assert isinstance(app, QApplication)
    app.setOrganizationName("BattleTracker")
    app.setApplicationName("BattleTracker")
    app.setApplicationDisplayName("BattleTracker")
    app.setDesktopFileName("io.github.battletracker.BattleTracker")  # the taskbar finds the entry's icon
    apply_scheme(app, args.scheme, set_style=existing is not None)

    session = Session(games[0])
    # The rules features: an explicit list, imported and added just after the first paint.
    window = MainWindow(session, Recovery(session), features=all_features)
    if args.file is not None:
        window.open_path(args.file)
    elif not args.demo and not args.quit_after_paint:
        last = next((Path(p) for p in window.recent_files() if Path(p).exists()), None)
        if last is not None:
            window.open_path(last)
    window.first_painted.connect(lambda: _resume_collecting(collecting))
    window.show()

    if args.quit_after_paint:
        def finish() -> None:
            """Load what the first paint leaves for later, so an installation missing any part fails."""
            try:
                window.load_features()
                check_odds_plot(window)
            except Exception as exc:
                print(f"battletracker: the installation is incomplete: {exc!r}", file=sys.stderr)
                app.exit(1)
            else:
                print("loaded the rules features and the odds plot", flush=True)
                app.quit()

        def report() -> None:
            print(f"painted {time.perf_counter() - START:.4f} s: {session.game.title}", flush=True)
            QTimer.singleShot(0, finish)

        window.first_painted.connect(report)
    else:
        # Asked over the painted window, which fits the question to the screen from its first paint.
        window.first_painted.connect(lambda: QTimer.singleShot(0, window.offer_recovery))
    return app.exec()
