"""The player's own arsenal: added in the Arsenal dialog, fired by name in coc.at_fire, kept across a restart."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from pytestqt.qtbot import QtBot

from battletracker.core.dice import ScriptedDice
from battletracker.rules import RulesInputError
from battletracker.rules import resolve
from battletracker.rules.chain_of_command.arsenal import arsenal
from battletracker.rules.chain_of_command.arsenal import set_user_arsenal
from battletracker.rules.chain_of_command.arsenal import user_arsenal_entries
from battletracker.rules.tables import TableError
from battletracker.ui.features.anti_tank import ArsenalDialog
from battletracker.ui.features.anti_tank import load_user_arsenal
from battletracker.ui.features.anti_tank import save_user_arsenal
from battletracker.ui.features.anti_tank import user_arsenal_path
from battletracker.ui.main_window import MainWindow
from battletracker.ui.session import Session
from tests.ui.refusals import assert_refusal

SHOT = {"armour_dice": 6, "location": "front", "visibility": "open", "target": "afv", "range": 10.0}


pytestmark = pytest.mark.usefixtures("germany_ready")


@pytest.fixture(autouse=True)
def _own_arsenal_cleared() -> Iterator[None]:
    """Each test starts and ends with no player entries and no file in the test-mode data folder."""
    path = user_arsenal_path()
    assert ".qttest" in str(path) or "BattleTrackerTests" in str(path)
    path.unlink(missing_ok=True)
    set_user_arsenal({})
    yield
    path.unlink(missing_ok=True)
    for aside in path.parent.glob(f"{path.name}.damaged-*"):
        aside.unlink()
    set_user_arsenal({})


def fill_weapon(dialog: ArsenalDialog, name: str, ap: str, bands: str, rounds: str = "") -> None:
    dialog.start_new("weapons")
    dialog.name_edit.setText(name)
    dialog.nation_edit.setText("Soviet Union")
    dialog.kind_box.setCurrentIndex(dialog.kind_box.findData("infantry_at"))
    dialog.bands_edit.setText(bands)
    dialog.ap_edit.setText(ap)
    dialog.he_edit.setText("2")
    dialog.rounds_edit.setText(rounds)


def test_a_weapon_added_in_the_dialog_fires_by_name_and_survives_a_restart(qtbot: QtBot) -> None:
    dialog = ArsenalDialog()
    qtbot.addWidget(dialog)
    fill_weapon(dialog, "RPG-43 launcher", "7, 5", "6, 12", rounds="2")
    assert dialog.save_entry(), dialog.error.text()
    assert dialog.item_for("weapons", "RPG-43 launcher") is not None
    assert user_arsenal_path().exists()

    # 10" is the second band: five Strike Dice, none penetrating; no saves either, so 1 on the Equal table.
    res = resolve("coc.at_fire", {**SHOT, "weapon": "RPG-43 launcher", "rounds_left": 2},
                  ScriptedDice([5, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]))
    assert res.outcome == "equal:reverse" and res.values["modifier"] == -1
    assert res.rolls[1][1] == (1, 1, 1, 1, 1)
    assert any("One round spent: 1 left." in line for line in res.log)

    set_user_arsenal({})  # the app closes; its next start reads the file again
    assert arsenal().weapon("RPG-43 launcher") is None
    assert load_user_arsenal() is None
    weapon = arsenal().weapon("rpg-43 launcher")
    assert weapon is not None and weapon.ap == (7, 5) and weapon.bands == (6.0, 12.0) and weapon.rounds == 2
    with pytest.raises(RulesInputError, match="cannot fire beyond 12\""):
        resolve("coc.at_fire", {**SHOT, "weapon": "RPG-43 launcher", "range": 13.0, "rounds_left": 2},
                ScriptedDice([]))


def test_a_bad_entry_is_refused_with_a_message_naming_the_field(qtbot: QtBot) -> None:
    dialog = ArsenalDialog()
    qtbot.addWidget(dialog)
    fill_weapon(dialog, "Broken launcher", "7, 5", "12, 6")
    assert not dialog.save_entry()
    assert dialog.error.isVisibleTo(dialog)
    assert "Broken launcher" in dialog.error.text() and "key 'bands'" in dialog.error.text()
    fill_weapon(dialog, "Broken launcher", "seven", "6")
    assert not dialog.save_entry() and "key 'ap'" in dialog.error.text()
    assert user_arsenal_entries()["weapons"] == {} and not user_arsenal_path().exists()
    with pytest.raises(TableError, match="armour.*key 'top'"):
        save_user_arsenal({"vehicles": {"T-34": {"nation": "Soviet Union", "category": "afv",
                                                 "armour": {"front": 7, "side": 5, "rear": 3}}}})


def test_a_vehicle_with_its_own_gun_and_a_grenade(qtbot: QtBot) -> None:
    dialog = ArsenalDialog()
    qtbot.addWidget(dialog)
    dialog.start_new("weapons")
    dialog.name_edit.setText("76mm F-34")
    dialog.nation_edit.setText("Soviet Union")
    dialog.kind_box.setCurrentIndex(dialog.kind_box.findData("tank_gun"))
    dialog.ap_edit.setText("7")
    dialog.he_edit.setText("4")
    assert dialog.save_entry(), dialog.error.text()
    dialog.start_new("vehicles")
    dialog.name_edit.setText("T-34/76")
    dialog.nation_edit.setText("Soviet Union")
    for face, value in zip(("front", "side", "rear", "top"), "6532", strict=True):
        dialog.armour_edits[face].setText(value)
    dialog.weapons_edit.setText("76mm F-34")
    assert dialog.save_entry(), dialog.error.text()
    dialog.start_new("grenades")
    dialog.name_edit.setText("RPG-40")
    dialog.nation_edit.setText("Soviet Union")
    dialog.ap_edit.setText("5")
    assert dialog.save_entry(), dialog.error.text()
    t34 = arsenal().vehicle("T-34/76")
    assert t34 is not None and t34.armour["front"] == 6
    gun = arsenal().weapon("T-34/76")
    assert gun is not None and gun.name == "76mm F-34" and gun.close_range_only
    grenade = arsenal().grenade("RPG-40")
    assert grenade is not None and grenade.ap == 5
    dialog.grab().save("/tmp/arsenal_dialog.png")
    assert dialog.remove_entry()
    assert arsenal().grenade("RPG-40") is None


def test_game_menu_offers_the_arsenal(qtbot: QtBot, session: Session) -> None:
    save_user_arsenal({"grenades": {"RPG-40": {"nations": ["Soviet Union"], "ap": 5}}})
    set_user_arsenal({})
    window = MainWindow(session)
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.feature_host.load()  # normally just after the first paint
    assert arsenal().grenade("RPG-40") is not None
    entries = [a for a in window.findChildren(QAction) if a.objectName() == "action-arsenal"]
    assert len(entries) == 1 and entries[0].text() == "&Arsenal\u2026"
    entries[0].trigger()
    dialog = window.findChild(ArsenalDialog)
    assert dialog is not None and dialog.isVisible() and dialog.item_for("grenades", "RPG-40") is not None
    dialog.close()


def test_a_broken_file_is_reported_not_loaded(tmp_path: Path) -> None:
    path = tmp_path / "arsenal.json"
    path.write_text('{"weapons": {"X": {"kind": "tank_gun"}}}', encoding="utf-8")
    problem = load_user_arsenal(path)
    assert problem is not None and "arsenal.json" in problem and "key 'ap': missing" in problem
    assert arsenal().weapon("X") is None


LONG_NUMBER = "9" * 5000  # past the 4,300 digits Python's int() reads from text


def _arsenal_from_the_menu(qtbot: QtBot, session: Session) -> ArsenalDialog:
    window = MainWindow(session)
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.feature_host.load()  # normally just after the first paint
    (entry,) = [a for a in window.findChildren(QAction) if a.objectName() == "action-arsenal"]
    entry.trigger()
    dialog = window.findChild(ArsenalDialog)
    assert dialog is not None and dialog.isVisible()
    return dialog


@pytest.mark.parametrize(("field", "text", "named"), [
    ("bands", "nan, 12", "key 'bands'"),
    ("bands", "6, inf", "key 'bands'"),
    ("bands", "6, 1e999", "key 'bands'"),
    ("bands", f"6, {LONG_NUMBER}", "key 'bands'"),
    ("bands", "6, 5000", "at most 1000"),
    ("ap", f"7, {LONG_NUMBER}", "key 'ap'"),
    ("rounds", LONG_NUMBER, "key 'rounds'"),
    ("he", "nan", "key 'he'"),
])
def test_typed_numbers_that_are_no_figures_are_refused_by_name(qtbot: QtBot, session: Session, field: str,
                                                                text: str, named: str) -> None:
    dialog = _arsenal_from_the_menu(qtbot, session)
    fill_weapon(dialog, "Big gun", "7, 5", "6, 12", rounds="2")
    edit = {"bands": dialog.bands_edit, "ap": dialog.ap_edit, "rounds": dialog.rounds_edit,
            "he": dialog.he_edit}[field]
    edit.clear()
    qtbot.keyClicks(edit, text)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert_refusal(dialog.error, named)
    assert len(dialog.error.text()) < 200
    assert "Big gun" not in user_arsenal_entries()["weapons"] and not user_arsenal_path().exists()
    dialog.close()


def test_the_saved_arsenal_is_standard_json(qtbot: QtBot, session: Session) -> None:
    dialog = _arsenal_from_the_menu(qtbot, session)
    fill_weapon(dialog, "Long gun", "7, 5", "6.5, 1000")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert dialog.error.isHidden(), dialog.error.text()
    text = user_arsenal_path().read_text(encoding="utf-8")
    assert json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard JSON: {c}"))
    dialog.close()


@pytest.mark.parametrize("bands", [[6, float("nan")], [6, float("inf")], [6, 10**400], [0, 6]])
def test_a_file_with_impossible_band_edges_is_refused(tmp_path: Path, bands: list[float]) -> None:
    path = tmp_path / "arsenal.json"
    weapon = {"nation": "X", "kind": "infantry_at", "bands": bands, "ap": [7, 5]}
    path.write_text(json.dumps({"weapons": {"X": weapon}}), encoding="utf-8")
    problem = load_user_arsenal(path)
    assert problem is not None and "key 'bands'" in problem and len(problem.replace(str(tmp_path), "")) < 300
    assert arsenal().weapon("X") is None


# -- a damaged arsenal.json --------------------------------------------------------------------------------------------


def _window_with_features(qtbot: QtBot, session: Session) -> MainWindow:
    window = MainWindow(session)
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.feature_host.load()  # normally just after the first paint
    return window


@pytest.mark.parametrize(("content", "why"), [
    ("[" * 100_000, "(it is nested too deeply to read)"),
    ("{not json", "(it is not valid JSON: Expecting property name enclosed in double quotes at line 1, column 2)"),
    ('["RPG-43"]', "(it must hold a table of weapons, vehicles and grenades)"),
    ('{"weapons": {"X": {"kind": "tank_gun"}}}', "key 'ap': missing"),
    ('{"weapons": {}, "notes": "' + "x" * 1_000_000 + '"}', "(it is larger than 1 MB, far more than any arsenal)"),
], ids=["nested", "not JSON", "not a table", "an entry refused", "too large"])
def test_a_damaged_arsenal_is_moved_aside_said_once_and_the_features_load(qtbot: QtBot, session: Session,
                                                                           content: str, why: str) -> None:
    path = user_arsenal_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    window = _window_with_features(qtbot, session)
    assert window.feature_host.error is None
    assert "coc.anti_tank_fire" in window.feature_host.entries
    assert [a for a in window.findChildren(QAction) if a.objectName() == "action-arsenal"]
    assert arsenal().weapon("7.5cm KwK 40") is not None  # the built-in arsenal
    [aside] = path.parent.glob("arsenal.json.damaged-*")
    assert aside.read_text(encoding="utf-8") == content and not path.exists()
    said = window.statusBar().currentMessage()
    assert said.startswith(f"Your arsenal {path} was not loaded ") and why in said
    assert f"it was moved aside as {aside.name}. The built-in arsenal is loaded." in said

    # The next start says nothing more, and an entry saved now keeps the damaged file as it was.
    later = _window_with_features(qtbot, Session(session.game))
    assert "arsenal" not in later.statusBar().currentMessage()
    later.findChild(QAction, "action-arsenal").trigger()
    dialog = later.findChild(ArsenalDialog)
    assert dialog is not None
    fill_weapon(dialog, "RPG-43 launcher", "7, 5", "6, 12")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert dialog.error.isHidden(), dialog.error.text()
    assert list(user_arsenal_entries()["weapons"]) == ["RPG-43 launcher"]
    assert aside.read_text(encoding="utf-8") == content
    dialog.close()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX pipes")
def test_an_arsenal_that_is_no_plain_file_is_moved_aside_unread(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe" / "arsenal.json"
    pipe.parent.mkdir()
    os.mkfifo(pipe)  # reading it would wait for ever
    folder = tmp_path / "folder" / "arsenal.json"
    folder.mkdir(parents=True)
    for path in (pipe, folder):
        problem = load_user_arsenal(path)
        assert problem is not None and "(it is not a plain file)" in problem
        [aside] = path.parent.glob("arsenal.json.damaged-*")
        assert not path.exists() and aside.name in problem


def test_a_file_set_aside_never_replaces_one_set_aside_before(tmp_path: Path) -> None:
    path = tmp_path / "arsenal.json"
    for text in ("{first", "{second", "{third"):
        path.write_text(text, encoding="utf-8")
        assert load_user_arsenal(path) is not None
    assert sorted(p.read_text(encoding="utf-8") for p in tmp_path.glob("arsenal.json.damaged-*")) == [
        "{first", "{second", "{third"]
