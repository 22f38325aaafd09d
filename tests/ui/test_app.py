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
