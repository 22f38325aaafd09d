"""The packaging files agree with each other and with pyproject.toml: one version, one home
page, one app id, one .battle file type (the validators themselves run in .ci/check-desktop)."""

from __future__ import annotations

import configparser
import importlib.util
import os
import pkgutil
import re
import shutil
import subprocess
import sys
import tomllib
import types
import xml.etree.ElementTree as ET
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

import battletracker
from battletracker.rules.tables import resources_dir

ROOT = Path(__file__).resolve().parents[1]
APP_ID = "io.github.battletracker.BattleTracker"
MIME = "{http://www.freedesktop.org/standards/shared-mime-info}"


def pyproject() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return dict(tomllib.load(f)["project"])


def desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keep the keys' case
    parser.read(ROOT / "packaging" / f"{APP_ID}.desktop", encoding="utf-8")
    return parser["Desktop Entry"]


def metainfo() -> ET.Element:
    return ET.parse(ROOT / "packaging" / f"{APP_ID}.metainfo.xml").getroot()


def test_one_home_page_in_the_code_pyproject_and_metainfo() -> None:
    urls = pyproject()["urls"]
    assert isinstance(urls, dict)
    assert urls["Homepage"] == battletracker.HOMEPAGE
    assert all(url.startswith(battletracker.HOMEPAGE) for url in urls.values())
    found = {u.get("type"): u.text for u in metainfo().iter("url")}
    assert found["homepage"] == battletracker.HOMEPAGE
    assert all(url is not None and url.startswith(battletracker.HOMEPAGE) for url in found.values())


def test_the_metainfo_names_this_version_and_licence_and_a_screenshot_url_in_the_repository() -> None:
    project = pyproject()
    root = metainfo()
    assert root.findtext("id") == APP_ID
    assert root.findtext("project_license") == project["license"]
    newest = root.find("releases/release")
    assert newest is not None and newest.get("version") == project["version"]
    image = root.findtext("screenshots/screenshot/image")
    repository = battletracker.HOMEPAGE.replace("https://github.com/", "https://raw.githubusercontent.com/")
    assert image is not None and image.startswith(repository + "/")
    assert (ROOT / image.split("/main/", 1)[1]).is_file()
    assert root.find("developer/name") is not None


def test_the_changelog_has_each_release_of_the_metainfo_newest_first_with_its_date() -> None:
    headings = re.findall(r"^## (\S+) — (\d{4}-\d{2}-\d{2})$", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"),
                          re.MULTILINE)
    releases = [(r.get("version"), r.get("date")) for r in metainfo().iter("release")]
    assert headings == releases
    assert headings[0][0] == pyproject()["version"]


def test_licence_file_is_mit_and_shipped() -> None:
    assert pyproject()["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def test_desktop_entry_icon_launchable_and_file_type_agree() -> None:
    entry = desktop_entry()
    root = metainfo()
    assert root.findtext("launchable") == f"{APP_ID}.desktop"
    assert entry["Icon"] == APP_ID
    mime = ET.parse(ROOT / "packaging" / f"{APP_ID}.mime.xml").getroot().find(f"{MIME}mime-type")
    assert mime is not None
    assert entry["MimeType"] == f"{mime.get('type')};"
    assert root.findtext("provides/mediatype") == mime.get("type")
    glob = mime.find(f"{MIME}glob")
    assert glob is not None and glob.get("pattern") == "*.battle"
    scripts = pyproject()["gui-scripts"]
    assert isinstance(scripts, dict)
    assert entry["Exec"].split()[0] == entry["TryExec"] == root.findtext("provides/binary") == next(iter(scripts))


def test_the_resources_are_the_top_level_folder_found_as_the_package_battletracker_resources() -> None:
    """The editable install maps resources/ into the package, as the wheel and the bundle carry it
    (.ci/smoke-install and packaging/check-bundle.sh check those two), and importlib.resources agrees."""
    folder = resources_dir()
    assert folder == ROOT / "resources"
    assert Path(str(files("battletracker.resources"))) == folder
    for part in ("rulesets/chain_of_command/settings.toml", "demo/necromunda.json", "icons/battletracker.svg",
                 "help/guide.md"):
        assert (folder / part).is_file()
        assert files("battletracker.resources").joinpath(part).is_file()


def test_a_checkout_that_was_never_installed_reads_its_top_level_folder() -> None:
    code = "from battletracker.rules.tables import resources_dir; print(resources_dir())"
    done = subprocess.run([sys.executable, "-S", "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)}, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(ROOT / "resources")


def spec_analysis() -> dict[str, Any]:
    """Run packaging/battletracker.spec as PyInstaller would, with PyInstaller's names stood in for,
    and return what it gives Analysis: the bundle's lists as the build reads them."""
    given: dict[str, Any] = {}
    hooks = types.ModuleType("PyInstaller.utils.hooks")
    hooks.copy_metadata = lambda name: []  # type: ignore[attr-defined]

    class Analysis:
        def __init__(self, scripts: list[str], **options: Any) -> None:
            given.update(options, scripts=scripts)
            self.datas: list[tuple[str, ...]] = []
            self.pure = self.scripts = self.binaries = []

    spec = ROOT / "packaging" / "battletracker.spec"
    names = {"SPECPATH": str(spec.parent), "Analysis": Analysis, "PYZ": lambda *a, **k: None,
             "EXE": lambda *a, **k: None, "COLLECT": lambda *a, **k: None}
    stand_ins = {"PyInstaller": types.ModuleType("PyInstaller"),
                 "PyInstaller.utils": types.ModuleType("PyInstaller.utils"), "PyInstaller.utils.hooks": hooks}
    saved_path = list(sys.path)
    try:
        with pytest.MonkeyPatch.context() as patch:
            for name, module in stand_ins.items():
                patch.setitem(sys.modules, name, module)
            exec(compile(spec.read_text(encoding="utf-8"), str(spec), "exec"), names)
    finally:
        sys.path[:] = saved_path
        sys.modules.pop("bundle_contents", None)
    return given


def test_every_module_of_the_package_is_in_the_bundle() -> None:
    """The registry and the features import modules by name at run time: the spec must name each."""
    hidden = set(spec_analysis()["hiddenimports"])
    found = {"battletracker", *(m.name for m in pkgutil.walk_packages(battletracker.__path__, "battletracker."))}
    assert found - hidden == set()
    assert "battletracker.resources" in hidden
    assert {"battletracker.rules.backdrop_actions", "battletracker.rules.chain_of_command.activation"} <= hidden


def test_a_module_added_to_the_package_joins_the_bundle_without_editing_a_list(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "battletracker", tmp_path / "battletracker", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "battletracker" / "rules" / "grenades_at_infantry.py").write_text('"""A new rule."""\n')
    module = load_bundle_contents()
    assert "battletracker.rules.grenades_at_infantry" in module.package_modules(tmp_path)


def load_bundle_contents() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("bundle_contents", ROOT / "packaging" / "bundle_contents.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_qt_module_the_app_imports_is_left_out_of_the_bundle() -> None:
    """Export map (SVG), Export report (PDF) and Print import QtSvg and QtPrintSupport inside functions."""
    imported = {name for path in (ROOT / "battletracker").rglob("*.py")
                for name in re.findall(r"PySide6\.(Qt\w+)", path.read_text(encoding="utf-8"))}
    excluded = {name.removeprefix("PySide6.") for name in spec_analysis()["excludes"] if name.startswith("PySide6.")}
    assert {"QtSvg", "QtPrintSupport", "QtOpenGLWidgets"} <= imported
    assert imported & excluded == set()
    assert {"QtWebEngineCore", "QtQml", "Qt3DCore"} <= excluded
