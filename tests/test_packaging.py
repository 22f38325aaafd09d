"""The packaging files agree with each other and with pyproject.toml: one version, one home
page, one app id, one .battle file type (the validators themselves run in .ci/check-desktop)."""

from __future__ import annotations

import configparser
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

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


def test_the_resources_are_read_from_inside_the_package() -> None:
    """So the wheel and the bundle carry them with the code (.ci/smoke-install lists the wheel's)."""
    folder = resources_dir()
    assert folder == Path(battletracker.__file__).resolve().parent / "resources"
    for part in ("rulesets/chain_of_command/settings.toml", "demo/necromunda.json", "icons/battletracker.svg"):
        assert (folder / part).is_file()
