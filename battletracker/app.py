"""Start the app, or use a saved game from the command line: `battletracker --help` lists the commands.

`battletracker [FILE]` is `battletracker open [FILE]`, so a file manager or the
desktop entry can hand the app a file as every desktop app is handed one.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication
    from PySide6.QtWidgets import QWidget

    from battletracker.model.game import Game
    from battletracker.ui.main_window import MainWindow

START = time.perf_counter()

COMMANDS = ("open", "replay", "export")
"""The subcommands; anything else first on the command line is what `open` takes."""

EXPORTS = {".html": "the battle report as a web page", ".pdf": "the battle report as a PDF",
           ".svg": "the map as an SVG drawing", ".png": "the map as a PNG picture",
           ".csv": "the log as a spreadsheet (CSV)"}
"""What `export` writes, chosen by each output's file name suffix."""


class _Version(argparse.Action):
    """`--version`: read only when asked for, as reading the installed metadata costs the start time."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from battletracker import version

        print(f"battletracker {version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    palette = argparse.ArgumentParser(add_help=False)
    scheme = palette.add_mutually_exclusive_group()
    scheme.add_argument("--light", dest="scheme", action="store_const", const="light", help="light palette")
    scheme.add_argument("--dark", dest="scheme", action="store_const", const="dark", help="dark palette")
    parser = argparse.ArgumentParser(
        prog="battletracker", description="A table-side companion for miniatures wargames.",
        epilog="With no command, the arguments are those of `open`: `battletracker game.battle` opens the game.")
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    commands = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND")
    opening = commands.add_parser(
        "open", parents=[palette], help="open FILE, the demo or the last game in the window (the default)",
        description="Open the window on FILE, on the demo battle, or on the last game played.")
    opening.add_argument("file", nargs="?", type=Path, help="a saved game to open")
    opening.add_argument("--demo", action="store_true", help="open the demo battle")
    opening.add_argument("--quit-after-paint", action="store_true",
                         help="open the demo or FILE, load everything the window uses, quit, and exit 1 "
                              "saying what failed if anything did (checks an installation)")
    replaying = commands.add_parser(
        "replay", help="check that a saved game's actions replay to its saved state",
        description="Play a saved game's actions again from its recorded start and compare the result with "
                    "the saved state. Exits 0 when they agree, 1 when they differ, 2 when FILE cannot be read.")
    replaying.add_argument("file", type=Path, help="a saved game")
    exporting = commands.add_parser(
        "export", parents=[palette], help="write a saved game's report, map or log to files",
        description="Write a saved game's battle report, map or log, each OUTPUT chosen by its suffix: "
                    + "; ".join(f"{suffix} {what}" for suffix, what in EXPORTS.items()) + ".")
    exporting.add_argument("file", type=Path, help="a saved game")
    exporting.add_argument("outputs", nargs="+", type=Path, metavar="OUTPUT", help="a file to write")
    return parser


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    argv = list(argv)
    if not argv or argv[0] not in (*COMMANDS, "-h", "--help", "--version"):
        argv.insert(0, "open")
    return build_parser().parse_args(argv)


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


def installation_failure(window: MainWindow) -> str | None:
    """What of the installation does not load, in words, or None: every rules package, the window's
    features, the odds plot, and the resources where the import system says they are."""
    import importlib
    from importlib.resources import files

    from battletracker.rules import ruleset_packages
    from battletracker.rules.tables import resources_dir

    for package in ruleset_packages():
        try:
            importlib.import_module(package)
        except Exception as exc:  # noqa: BLE001 - any failure to import is the answer
            return f"the rules package {package} does not load: {exc!r}"
    window.feature_host.load()
    if window.feature_host.error is not None:
        return f"the rules features do not load: {window.feature_host.error!r}"
    try:
        check_odds_plot(window)
    except Exception as exc:  # noqa: BLE001
        return f"the odds plot cannot be drawn: {exc!r}"
    found = Path(str(files("battletracker.resources")))
    if found.resolve() != resources_dir().resolve() or not (found / "rulesets").is_dir():
        return f"the resources are not where the import system finds them ({found}, not {resources_dir()})"
    return None


def discovered_modules() -> list[str]:
    """The modules of the ruleset packages and the features loaded, in name order: those the app finds by walking
    its packages at run time. An installation lacking one loads without an error, so packaging/check-bundle.sh
    compares this list with the checkout's files."""
    walked = ("battletracker.rules.", "battletracker.ui.features.")
    return sorted(name for name in sys.modules if name.startswith(walked))


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.command == "replay":
        from battletracker.rules.replay import replay

        return replay(args.file)
    if args.command == "export":
        return export(args.file, args.outputs, args.scheme)
    # The start builds thousands of long-lived objects (classes, enums, the game); the cyclic
    # collector would walk them again and again before the first paint and free none.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _start(args, collecting)
    finally:
        if collecting:
            gc.enable()


def _application(scheme: str | None, remembered: bool = False) -> QApplication:
    """The one QApplication, named so its settings, data folder and taskbar entry are BattleTracker's.

    With `remembered`, a start given no palette takes the one last chosen in View > Colours (an export keeps
    to its command line).
    """
    from PySide6.QtWidgets import QApplication

    from battletracker.ui.theme import apply_scheme
    from battletracker.ui.theme import chosen_scheme

    existing = QApplication.instance()
    # Fusion chosen on the command line costs nothing; chosen with setStyle, Python wraps the style
    # object and builds its hundreds of enum members before the first paint.
    app = existing or QApplication([sys.argv[0], "-style", "Fusion"])
    assert isinstance(app, QApplication)
    app.setOrganizationName("BattleTracker")
    app.setApplicationName("BattleTracker")
    app.setApplicationDisplayName("BattleTracker")
    app.setDesktopFileName("io.github.battletracker.BattleTracker")  # the taskbar finds the entry's icon
    apply_scheme(app, scheme or (chosen_scheme() if remembered else None), set_style=existing is not None)
    return app


def export(path: Path, outputs: Sequence[Path], scheme: str | None) -> int:
    """`export FILE OUTPUT...`: 0 when every output is written; 1, having written nothing, when a suffix is
    unknown or FILE cannot be read; 1 naming the output and the cause when one cannot be written (the outputs
    before it are written, and a file already at its name is kept whole)."""
    from battletracker.model import savefile
    from battletracker.rules import saved_games

    unknown = [str(out) for out in outputs if out.suffix.lower() not in EXPORTS]
    if unknown:
        print(f"battletracker: cannot export to {', '.join(unknown)}: the name must end in "
              f"{', '.join(EXPORTS)}", file=sys.stderr)
        return 1
    try:
        game = saved_games.load(path)
    except savefile.SaveFileError as exc:
        print(f"battletracker: cannot open {path}: {exc}", file=sys.stderr)
        return 1
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # an export draws off screen: no window, no display
    _application(scheme)
    from battletracker.ui.files import SaveError

    for out in outputs:
        try:
            _write_export(game, out)
        except SaveError as exc:
            print(f"battletracker: cannot write {out}: {exc.reason}; any earlier file of that name is kept",
                  file=sys.stderr)
            return 1
        print(f"wrote {out}: {EXPORTS[out.suffix.lower()]}", flush=True)
    return 0


def _write_export(game: Game, out: Path) -> None:
    from battletracker.ui import report_export

    write = {".html": report_export.export_report_html, ".pdf": report_export.export_report_pdf,
             ".svg": report_export.export_map_svg, ".png": report_export.export_map_png,
             ".csv": report_export.export_log_csv}[out.suffix.lower()]
    write(game, out)


def _resume_collecting(collecting: bool) -> None:
    """After the first paint: what the start built stays for good (frozen out of collections); collect again."""
    if collecting and not gc.isenabled():
        gc.freeze()
        gc.enable()


def _start(args: argparse.Namespace, collecting: bool) -> int:
    from battletracker.model import savefile
    from battletracker.rules import saved_games

    # The demo is the window's first game. A check that must not stop at a dialog
    # also reads the file first, to exit with the reason open_path would show.
    checked = [demo_path()] + ([args.file] if args.quit_after_paint and args.file is not None else [])
    games = []
    for path in checked:
        try:
            games.append(saved_games.load(path))
        except savefile.SaveFileError as exc:
            print(f"battletracker: cannot open {path}: {exc}", file=sys.stderr)
            return 1

    from PySide6.QtCore import QTimer

    from battletracker.ui.app_log import note_start
    from battletracker.ui.app_log import start_logging
    from battletracker.ui.features import all_features
    from battletracker.ui.main_window import MainWindow
    from battletracker.ui.recovery import Recovery
    from battletracker.ui.session import Session

    app = _application(args.scheme, remembered=True)
    start_logging()

    session = Session(games[0])
    # The rules features: an explicit list, imported and added just after the first paint.
    window = MainWindow(session, Recovery(session), features=all_features)
    if args.file is not None:
        window.files.open_path(args.file)
    elif not args.demo and not args.quit_after_paint:
        window.files.reopen_last()
    window.first_painted.connect(lambda: _resume_collecting(collecting))
    window.first_painted.connect(lambda: QTimer.singleShot(0, note_start))
    window.show()

    if args.quit_after_paint:
        def finish() -> None:
            """Load what the first paint leaves for later, so an installation missing any part fails."""
            failure = installation_failure(window)
            if failure is not None:
                print(f"battletracker: the installation is incomplete: {failure}", file=sys.stderr)
                app.exit(1)
            else:
                print("loaded the rules features and the odds plot", flush=True)
                print(f"discovered: {' '.join(discovered_modules())}", flush=True)
                app.quit()

        def report() -> None:
            print(f"painted {time.perf_counter() - START:.4f} s: {session.game.title}", flush=True)
            QTimer.singleShot(0, finish)

        window.first_painted.connect(report)
    else:
        # Asked over the painted window, which fits the question to the screen from its first paint.
        window.first_painted.connect(lambda: QTimer.singleShot(0, window.files.offer_recovery))
    return app.exec()
