"""Ruleset tables and settings: every problem names the file, the table and the key."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from battletracker.rules import tables
from battletracker.rules.tables import Setting
from battletracker.rules.tables import TableError
from battletracker.rules.tables import resources_dir
from battletracker.rules.tables import ruleset_file
from battletracker.rules.tables import ruleset_settings
from battletracker.rules.tables import ruleset_table
from battletracker.rules.tables import setting

GOOD = """
[guns]
name = "6pdr"
dice = 3
range = 48.5
short = 12
open_topped = false
faces = ["front", "side"]
note = "x"
bad_int = "three"
a_bool_int = true
not_finite = nan
too_big = inf

[guns.crew]
size = 4

[guns.ammo]
he = 10
"""

SETTINGS = """
[extra_dice]
title = "Extra dice per 6"
default = 1
minimum = 0
maximum = 3
check = true
description = "A default to check against your rulebook."

[chains]
title = "Extra dice earn more"
default = false
check = true
description = "Whether 6s on extra dice earn more."

[cover]
title = "Cover"
default = "light"
choices = ["none", "light", "hard"]
check = false
description = "The cover used when none is given."

[label]
title = "Label"
default = "Bren"
check = false
description = "Free text."
"""


@pytest.fixture
def resources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A throwaway resources folder with one ruleset, `testrules`."""
    folder = tmp_path / "rulesets" / "testrules"
    folder.mkdir(parents=True)
    (folder / "weapons.toml").write_text(GOOD, encoding="utf-8")
    (folder / "settings.toml").write_text(SETTINGS, encoding="utf-8")
    monkeypatch.setenv("BATTLETRACKER_RESOURCES", str(tmp_path))
    tables.clear_cache()
    yield folder
    monkeypatch.delenv("BATTLETRACKER_RESOURCES")
    tables.clear_cache()


def message(call: object) -> str:
    assert callable(call)
    with pytest.raises(TableError) as caught:
        call()
    return str(caught.value)


def test_the_resources_folder_can_be_pointed_elsewhere(resources: Path) -> None:
    assert resources_dir() == resources.parent.parent


def test_typed_getters_read_good_values(resources: Path) -> None:
    guns = ruleset_table("testrules", "weapons", "guns")
    assert guns.str("name") == "6pdr"
    assert guns.int("dice", minimum=1, maximum=6) == 3
    assert guns.float("range", minimum=0) == 48.5
    assert guns.float("short") == 12.0
    assert guns.bool("open_topped") is False
    assert guns.list("faces") == ["front", "side"]
    assert guns.str("note", choices=("x", "y")) == "x"
    assert guns.table("crew").int("size") == 4
    assert [name for name, _ in guns.tables()] == ["crew", "ammo"]
    assert guns.keys()[:3] == ["name", "dice", "range"]
    assert ruleset_file("testrules", "weapons").table("guns").str("name") == "6pdr"


def test_a_missing_key_names_file_table_and_key(resources: Path) -> None:
    guns = ruleset_table("testrules", "weapons", "guns")
    expected = "testrules/weapons.toml: table 'guns': key 'penetration': missing"
    assert message(lambda: guns.int("penetration")) == expected


@pytest.mark.parametrize(("getter", "key", "expected"), [
    ("int", "bad_int", "key 'bad_int': must be a whole number, not 'three'"),
    ("int", "a_bool_int", "key 'a_bool_int': must be a whole number, not True"),
    ("int", "range", "key 'range': must be a whole number, not 48.5"),
    ("float", "name", "key 'name': must be a number, not '6pdr'"),
    ("float", "open_topped", "key 'open_topped': must be a number, not False"),
    ("float", "not_finite", "key 'not_finite': must be a finite number"),
    ("float", "too_big", "key 'too_big': must be a finite number"),
    ("str", "dice", "key 'dice': must be text, not 3"),
    ("bool", "note", "key 'note': must be true or false, not 'x'"),
    ("list", "note", "key 'note': must be a list, not 'x'"),
    ("table", "note", "key 'note': must be a table"),
])
def test_a_wrong_type_names_file_table_and_key(resources: Path, getter: str, key: str, expected: str) -> None:
    guns = ruleset_table("testrules", "weapons", "guns")
    text = message(lambda: getattr(guns, getter)(key))
    assert text.startswith("testrules/weapons.toml: table 'guns': ")
    assert expected in text


def test_out_of_range_values_name_the_bounds(resources: Path) -> None:
    guns = ruleset_table("testrules", "weapons", "guns")
    assert "key 'dice': must be at least 4, not 3" in message(lambda: guns.int("dice", minimum=4))
    assert "key 'dice': must be at most 2, not 3" in message(lambda: guns.int("dice", maximum=2))
    assert "key 'range': must be at least 50, not 48.5" in message(lambda: guns.float("range", minimum=50))
    assert "key 'note': must be one of a, b, not 'x'" in message(lambda: guns.str("note", choices=("a", "b")))


def test_nested_tables_name_their_path(resources: Path) -> None:
    crew = ruleset_table("testrules", "weapons", "guns").table("crew")
    text = message(lambda: crew.int("drivers"))
    assert "testrules/weapons.toml" in text and "guns" in text and "crew" in text and "'drivers': missing" in text


def test_a_missing_table_file_or_ruleset_is_named(resources: Path) -> None:
    assert message(lambda: ruleset_table("testrules", "weapons", "mortars")) == (
        "testrules/weapons.toml: table 'mortars': missing")
    assert message(lambda: ruleset_table("testrules", "weapons", "short")) == (
        "testrules/weapons.toml: table 'short': missing")
    assert message(lambda: ruleset_file("testrules", "vehicles")) == "testrules/vehicles.toml: missing"
    assert "no ruleset data folder for 'nope'" in message(lambda: ruleset_file("nope", "x"))


def test_broken_toml_names_the_file_and_the_line(resources: Path) -> None:
    (resources / "broken.toml").write_text("[guns]\nname = \"6pdr\"\ndice = = 3\n", encoding="utf-8")
    tables.clear_cache()
    text = message(lambda: ruleset_file("testrules", "weapons"))
    assert text.startswith("testrules/broken.toml: ")
    assert "line 3" in text


def test_a_file_that_is_not_utf8_is_named(resources: Path) -> None:
    (resources / "latin.toml").write_bytes(b"name = \"Sch\xfcrzen\"\n")
    tables.clear_cache()
    assert message(lambda: ruleset_file("testrules", "weapons")).startswith("testrules/latin.toml: cannot be read")


def test_clear_cache_rereads_the_files(resources: Path) -> None:
    assert ruleset_table("testrules", "weapons", "guns").int("dice") == 3
    (resources / "weapons.toml").write_text(GOOD.replace("dice = 3", "dice = 5"), encoding="utf-8")
    assert ruleset_table("testrules", "weapons", "guns").int("dice") == 3
    tables.clear_cache()
    assert ruleset_table("testrules", "weapons", "guns").int("dice") == 5


# -- settings ------------------------------------------------------------------------------


def test_settings_are_read_with_their_bounds(resources: Path) -> None:
    found = {s.key: s for s in ruleset_settings("testrules")}
    assert list(found) == ["extra_dice", "chains", "cover", "label"]
    extra = found["extra_dice"]
    assert extra == Setting("testrules", "extra_dice", "Extra dice per 6", 1,
                            "A default to check against your rulebook.", True, 0, 3)
    assert found["cover"].choices == ("none", "light", "hard")
    assert found["cover"].check is False


def test_setting_gives_the_default_or_a_valid_override(resources: Path) -> None:
    assert setting("testrules", "extra_dice") == 1
    assert setting("testrules", "extra_dice", {"extra_dice": 3}) == 3
    assert setting("testrules", "extra_dice", {"other": 3}) == 1
    assert setting("testrules", "chains", {"chains": True}) is True
    assert setting("testrules", "cover", {"cover": "hard"}) == "hard"
    assert setting("testrules", "label", {"label": "MG 34"}) == "MG 34"


@pytest.mark.parametrize(("key", "value", "expected"), [
    ("extra_dice", 4, "setting extra_dice: must be at most 3, not 4"),
    ("extra_dice", -1, "setting extra_dice: must be at least 0, not -1"),
    ("extra_dice", "2", "setting extra_dice: must be a whole number, not '2'"),
    ("extra_dice", True, "setting extra_dice: must be a whole number, not True"),
    ("extra_dice", 1.5, "setting extra_dice: must be a whole number, not 1.5"),
    ("chains", 1, "setting chains: must be true or false, not 1"),
    ("chains", "yes", "setting chains: must be true or false, not 'yes'"),
    ("cover", "dense", "setting cover: must be one of none, light, hard, not 'dense'"),
    ("cover", 2, "setting cover: must be one of none, light, hard, not 2"),
    ("label", 2, "setting label: must be text, not 2"),
])
def test_invalid_overrides_are_refused_naming_the_setting(resources: Path, key: str, value: object,
                                                          expected: str) -> None:
    assert message(lambda: setting("testrules", key, {key: value})) == expected  # type: ignore[dict-item]


def test_an_unknown_setting_is_refused_naming_the_file(resources: Path) -> None:
    assert message(lambda: setting("testrules", "morale")) == "testrules/settings.toml: no setting 'morale'"


def test_a_ruleset_without_settings_has_none(resources: Path) -> None:
    (resources / "settings.toml").unlink()
    tables.clear_cache()
    assert ruleset_settings("testrules") == ()


@pytest.mark.parametrize(("edit", "expected"), [
    (("title = \"Extra dice per 6\"\n", ""), ["testrules/settings.toml", "extra_dice", "'title': missing"]),
    (("check = true\ndescription = \"A default", "check = \"yes\"\ndescription = \"A default"),
     ["testrules/settings.toml", "extra_dice", "'check': must be true or false"]),
    (("default = 1\n", "default = 1.5\n"),
     ["testrules/settings.toml", "extra_dice", "'default': must be a whole number, text or true/false"]),
    (("default = 1\n", "default = 5\n"), ["testrules/settings.toml", "extra_dice", "must be at most 3, not 5"]),
    (("default = \"light\"", "default = \"dense\""),
     ["testrules/settings.toml", "cover", "must be one of none, light, hard, not 'dense'"]),
    (("minimum = 0\n", "minimum = \"none\"\n"), ["testrules/settings.toml", "extra_dice", "'minimum': must be"]),
])
def test_a_broken_settings_file_names_file_table_and_key(resources: Path, edit: tuple[str, str],
                                                         expected: list[str]) -> None:
    old, new = edit
    assert old in SETTINGS
    (resources / "settings.toml").write_text(SETTINGS.replace(old, new, 1), encoding="utf-8")
    tables.clear_cache()
    text = message(lambda: ruleset_settings("testrules"))
    for part in expected:
        assert part in text


# -- the shipped data ------------------------------------------------------------------------


def test_every_shipped_ruleset_file_parses_and_its_settings_validate() -> None:
    tables.clear_cache()
    folder = resources_dir() / "rulesets"
    for ruleset in sorted(p.name for p in folder.iterdir() if p.is_dir()):
        for path in sorted((folder / ruleset).glob("*.toml")):
            assert ruleset_file(ruleset, path.stem).data is not None
        for s in ruleset_settings(ruleset):
            assert s.validate(s.default) == s.default
            assert s.title and s.description


# -- settings that are entries of another table ----------------------------------------------

ROW_SETTINGS = """
[crew_size]
title = "Crew"
default_from = "weapons.guns.crew.size"
minimum = 1
maximum = 9
check = true
description = "The gun's crew, from weapons.toml."

[faces]
title = "Faces"
default_from = "weapons.guns.faces"
choices = ["front", "side", "rear"]
length = 2
check = true
description = "Two faces, from weapons.toml."
"""


def test_a_setting_takes_its_default_from_another_table_and_a_row_as_words(resources: Path) -> None:
    (resources / "settings.toml").write_text(ROW_SETTINGS, encoding="utf-8")
    tables.clear_cache()
    crew, faces = ruleset_settings("testrules")
    assert crew.default == 4 and (crew.minimum, crew.maximum) == (1, 9)
    assert faces.default == "front side" and faces.length == 2
    assert setting("testrules", "faces", {"faces": "rear rear"}) == "rear rear"


@pytest.mark.parametrize(("value", "expected"), [
    ("rear", "setting faces: must list 2 results separated by spaces, each one of front, side, rear, not 'rear'"),
    ("front top", "setting faces: result 2 must be one of front, side, rear, not 'top'"),
    (3, "setting faces: must list 2 results separated by spaces, each one of front, side, rear, not 3"),
])
def test_a_row_setting_names_the_result_that_is_wrong(resources: Path, value: object, expected: str) -> None:
    (resources / "settings.toml").write_text(ROW_SETTINGS, encoding="utf-8")
    tables.clear_cache()
    assert message(lambda: setting("testrules", "faces", {"faces": value})) == expected  # type: ignore[dict-item]
    (faces,) = [s for s in ruleset_settings("testrules") if s.key == "faces"]
    assert faces.problem(value) == expected.removeprefix("setting faces: ")  # type: ignore[arg-type]


@pytest.mark.parametrize(("edit", "expected"), [
    (("weapons.guns.crew.size", "weapons.guns"), "'default_from': must name a file, its table and a key"),
    (("weapons.guns.crew.size", "weapons.guns.crew.cook"), "weapons.toml: table 'guns'.crew: key 'cook': missing"),
    (("weapons.guns.faces", "weapons.guns.note"), "'default': must list 2 results"),
])
def test_a_broken_default_from_is_named(resources: Path, edit: tuple[str, str], expected: str) -> None:
    (resources / "settings.toml").write_text(ROW_SETTINGS.replace(*edit), encoding="utf-8")
    tables.clear_cache()
    assert expected in message(lambda: ruleset_settings("testrules"))
