"""`battletracker --quit-after-paint`: the check an installation runs, started as a player would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from battletracker.model import savefile
from battletracker.rules.tables import resources_dir

ROOT = Path(__file__).resolve().parents[2]


def app_env(home: Path) -> dict[str, str]:
    return dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / "config"),
                XDG_DATA_HOME=str(home / "data"), QT_QPA_PLATFORM="offscreen",
                PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))


def run_app(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "battletracker", *args, "--quit-after-paint"], env=app_env(home),
                          cwd=home, capture_output=True, text=True, timeout=60)


def test_the_demo_paints_and_quits_with_exit_0(tmp_path: Path) -> None:
    done = run_app("--demo", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("painted ")
    assert "the crossroads at Le Hamel" in done.stdout
    assert "loaded the rules features and the odds plot" in done.stdout


def test_a_saved_battle_file_opens_paints_and_quits(tmp_path: Path) -> None:
    saved = tmp_path / "sump.battle"
    savefile.save(savefile.load(resources_dir() / "demo" / "necromunda.json"), saved)
    done = run_app(str(saved), home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "the Underhive sump" in done.stdout


def test_a_broken_file_exits_1_naming_the_file_and_why_without_a_dialog(tmp_path: Path) -> None:
    broken = tmp_path / "cut.battle"
    broken.write_text('{"format": "battletracker", "version": 1, "game": {', encoding="utf-8")
    done = run_app(str(broken), home=tmp_path)
    assert done.returncode == 1
    assert "painted" not in done.stdout
    assert f"cannot open {broken}" in done.stderr
    assert "cut short or damaged" in done.stderr


def test_a_missing_file_exits_1_naming_it(tmp_path: Path) -> None:
    done = run_app(str(tmp_path / "nowhere.battle"), home=tmp_path)
    assert done.returncode == 1
    assert "nowhere.battle" in done.stderr


def test_an_installation_missing_a_qt_module_the_odds_plot_needs_exits_1(tmp_path: Path) -> None:
    script = ("import sys; sys.modules['PySide6.QtOpenGL'] = None  # as a bundle that left it out\n"
              "from battletracker.app import main; sys.exit(main(['--demo', '--quit-after-paint']))")
    done = subprocess.run([sys.executable, "-c", script], env=app_env(tmp_path), cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "the installation is incomplete" in done.stderr and "QtOpenGL" in done.stderr


def _started(script: str, home: Path) -> subprocess.CompletedProcess[str]:
    """The app started by `script` in a fresh interpreter, as the installed command starts it."""
    return subprocess.run([sys.executable, "-c", script], env=app_env(home), cwd=home, capture_output=True,
                          text=True, timeout=60)


def _command(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "battletracker", *args], env=app_env(home), cwd=home,
                          capture_output=True, text=True, timeout=60)


def test_an_installation_missing_a_rules_package_exits_1_naming_it(tmp_path: Path) -> None:
    script = ("import sys; sys.modules['battletracker.rules.backdrop_actions'] = None  # as a bundle that left it out\n"
              "from battletracker.app import main; sys.exit(main(['--demo', '--quit-after-paint']))")
    done = _started(script, tmp_path)
    assert done.returncode == 1
    assert "painted" in done.stdout and "loaded the rules features" not in done.stdout
    assert "the installation is incomplete: the rules package battletracker.rules.backdrop_actions" in done.stderr


def test_an_installation_missing_a_feature_exits_1_saying_the_features_did_not_load(tmp_path: Path) -> None:
    script = ("import sys; sys.modules['battletracker.ui.features.anti_tank'] = None\n"
              "from battletracker.app import main; sys.exit(main(['--demo', '--quit-after-paint']))")
    done = _started(script, tmp_path)
    assert done.returncode == 1
    assert "the installation is incomplete: the rules features do not load" in done.stderr
    assert "battletracker.ui.features.anti_tank" in done.stderr


def test_version_and_help_name_the_version_and_the_commands(tmp_path: Path) -> None:
    import battletracker

    done = _command("--version", home=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"battletracker {battletracker.version()}\n", "")
    done = _command("--help", home=tmp_path)
    assert done.returncode == 0
    for command in ("open", "replay", "export"):
        assert f"\n    {command} " in done.stdout


def test_replay_from_the_command_line_checks_a_played_game(tmp_path: Path) -> None:
    done = _command("replay", str(ROOT / "tests" / "fixtures" / "played_necromunda.battle"), home=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("All ") and done.stdout.endswith(" actions replay to the saved state.\n")


def test_export_writes_the_report_map_and_log_each_by_its_suffix(tmp_path: Path) -> None:
    game = ROOT / "tests" / "fixtures" / "played_armour_battles.battle"
    outputs = [tmp_path / f"kursk.{suffix}" for suffix in ("html", "pdf", "svg", "png", "csv")]
    done = _command("export", str(game), *map(str, outputs), home=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    html, pdf, svg, png, csv = (out.read_bytes() for out in outputs)
    assert b"<html" in html[:512] and b"Kursk" in html
    assert pdf.startswith(b"%PDF")
    assert b"<svg" in svg[:512]
    assert png.startswith(b"\x89PNG")
    assert csv.splitlines()[0].startswith(b"turn,phase,side")
    assert done.stdout.splitlines()[0] == f"wrote {outputs[0]}: the battle report as a web page"


def test_export_refuses_an_unknown_suffix_or_a_broken_game_and_writes_nothing(tmp_path: Path) -> None:
    game = ROOT / "tests" / "fixtures" / "played_armour_battles.battle"
    page = tmp_path / "report.html"
    done = _command("export", str(game), str(page), str(tmp_path / "report.docx"), home=tmp_path)
    assert done.returncode == 1
    assert "cannot export to " + str(tmp_path / "report.docx") in done.stderr and ".html, .pdf" in done.stderr
    assert not page.exists()
    broken = tmp_path / "cut.battle"
    broken.write_text('{"format": "battletracker", "version": 1, "game": {', encoding="utf-8")
    done = _command("export", str(broken), str(page), home=tmp_path)
    assert done.returncode == 1 and f"cannot open {broken}" in done.stderr
    assert not page.exists()
    done = _command("export", str(game), str(tmp_path / "no folder" / "report.html"), home=tmp_path)
    assert done.returncode == 1 and "cannot write " + str(tmp_path / "no folder" / "report.html") in done.stderr


_FAILING_STEP = """
import sys, warnings
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from battletracker.ui import main_window
from battletracker.ui.gc_pause import top_level_widgets

built = main_window.MainWindow.__init__

def fail() -> None:
    warnings.warn("a warning the table should not lose", UserWarning)
    raise RuntimeError("a step that broke")

def read_box() -> None:
    box = next(w for w in top_level_widgets() if w.objectName() == "unexpected_error")
    print("box: " + box.text().replace(chr(10), " "), flush=True)
    QApplication.instance().exit(3)

def init(self, *args, **kwargs):
    built(self, *args, **kwargs)
    self.first_painted.connect(lambda: QTimer.singleShot(0, fail))
    self.first_painted.connect(lambda: QTimer.singleShot(50, read_box))

main_window.MainWindow.__init__ = init
from battletracker.app import main
raise SystemExit(main(["--demo"]))
"""


def test_an_unexpected_error_is_logged_with_its_trace_said_in_a_box_and_the_window_goes_on(tmp_path: Path) -> None:
    done = _started(_FAILING_STEP, tmp_path)
    assert done.returncode == 3, done.stderr  # the window went on to the box's reader
    log = next((tmp_path / "data").rglob("battletracker.log"))
    text = log.read_text("utf-8")
    assert "INFO battletracker: BattleTracker " in text and " started: Qt " in text
    assert "CRITICAL battletracker: an unexpected error" in text
    assert "Traceback" in text and "RuntimeError: a step that broke" in text
    assert "WARNING py.warnings:" in text and "a warning the table should not lose" in text
    assert "RuntimeError: a step that broke" in done.stderr  # a terminal sees it too
    box = next(line for line in done.stdout.splitlines() if line.startswith("box: "))
    assert "RuntimeError: a step that broke" in box and str(log) in box
