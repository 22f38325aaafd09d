"""Opening a saved game checks its settings against its ruleset, as Ruleset settings would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.rules import saved_games
from battletracker.rules.replay import replay


def _with_settings(tmp_path: Path, settings: dict) -> Path:
    doc = savefile.game_to_dict(savefile.load(demo_path()))
    doc["game"]["settings"] = settings
    doc.pop("history", None)
    path = tmp_path / "game.battle"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.mark.parametrize(("settings", "said"), [
    ({"bombardment_area_shape": 7}, "must be one of rectangle, circle, not 7"),
    ({"bombardment_phases": 60}, "must be at most 6, not 60"),
    ({"bombardment_phases": "four"}, "must be a whole number, not 'four'"),
])
def test_a_setting_its_ruleset_cannot_use_is_refused_at_load_naming_it(tmp_path: Path, settings: dict,
                                                                         said: str) -> None:
    path = _with_settings(tmp_path, settings)
    savefile.load(path)  # the shape of a game: the model alone takes it
    with pytest.raises(savefile.SaveFileError) as refused:
        saved_games.load(path)
    key = next(iter(settings))
    assert str(refused.value).startswith(f"game.settings.{key}: the setting \u201cMedium Mortar bombardment")
    assert said in str(refused.value)


def test_good_and_unknown_settings_open(tmp_path: Path) -> None:
    path = _with_settings(tmp_path, {"bombardment_area_shape": "circle", "a_later_versions_setting": 3})
    assert saved_games.load(path).settings["bombardment_area_shape"] == "circle"


def test_replay_refuses_the_file_with_the_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert replay(_with_settings(tmp_path, {"bombardment_area_shape": 7})) == 2
    assert "bombardment_area_shape" in capsys.readouterr().err
