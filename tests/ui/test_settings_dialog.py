"""Game > Ruleset settings shows fire.toml's to-hit and hit-effect tables, saves a game's changes, names bad ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QSpinBox
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.effects import SetSetting
from battletracker.rules.replay import replay_steps
from battletracker.ui.features.support_fire import FireDialog
from battletracker.ui.session import Session
from battletracker.ui.settings_dialog import FacesEditor
from battletracker.ui.settings_dialog import SettingsDialog
from tests.ui.labelled import labelled_odds
from tests.ui.refusals import assert_refusal

MG, SQUAD = "u3", "u8"


pytestmark = pytest.mark.usefixtures("germany_ready")


def settings_dialog(qtbot: QtBot, session: Session) -> SettingsDialog:
    dialog = SettingsDialog(session)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def press_ok(qtbot: QtBot, dialog: SettingsDialog) -> None:
    box = dialog.findChild(QDialogButtonBox)
    assert box is not None
    qtbot.mouseClick(box.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)


def test_the_fire_tables_are_shown_as_defaults_to_check(qtbot: QtBot, session: Session) -> None:
    dialog = settings_dialog(qtbot, session)
    _s, spin = dialog.editors["to_hit_close_regular"]
    assert isinstance(spin, QSpinBox) and spin.value() == 4 and (spin.minimum(), spin.maximum()) == (2, 6)
    _s, faces = dialog.editors["hit_effect_light"]
    assert isinstance(faces, FacesEditor) and faces.value() == "none none none shock shock kill"
    texts = [label.text() for label in dialog.findChildren(QLabel)]
    assert "Fire: effect of a hit in Light Cover (faces 1 to 6):" in texts
    assert any("Default - check your rulebook." in t and "Roll20" in t and "Light Cover" in t for t in texts)
    assert dialog.error.isHidden()


def test_a_changed_face_is_saved_in_the_game_used_by_the_fire_dialog_and_undone_exactly(
        qtbot: QtBot, session: Session) -> None:
    del session.game.terrain["t5"]   # 2nd Squad in the open: without the demo's stone wall in front of it
    before = savefile.game_to_dict(session.game)
    fire = FireDialog(session, MG)
    qtbot.addWidget(fire)
    assert fire.set_target(SQUAD)
    assert fire.plan is not None and fire.runner is not None
    default_odds = dict(fire.runner.odds_plot.rows)

    dialog = settings_dialog(qtbot, session)
    _s, faces = dialog.editors["hit_effect_open"]
    assert isinstance(faces, FacesEditor)
    faces.combos[0].setFocus()
    qtbot.keyClicks(faces.combos[0], "k")                # face 1: no effect -> kill
    assert faces.value() == "kill none shock shock kill kill"
    press_ok(qtbot, dialog)
    assert session.game.settings == {"hit_effect_open": "kill none shock shock kill kill"}
    assert "Fire: effect of a hit in the Open (faces 1 to 6): kill none shock shock kill kill" in \
        session.game.log[-1].text

    changed = {**fire.plan.inputs, "hit_effect_open": "kill none shock shock kill kill"}
    assert dict(fire.runner.odds_plot.rows) == labelled_odds("coc.tripod_mg", changed) != default_odds
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before
    assert dict(fire.runner.odds_plot.rows) == default_odds


def test_a_value_the_table_cannot_take_is_named_and_the_default_shown(qtbot: QtBot, session: Session) -> None:
    session.apply("From an old file", [SetSetting("hit_effect_light", "none none shok shock kill kill")])
    dialog = settings_dialog(qtbot, session)
    assert_refusal(dialog.error, "Light Cover")
    assert dialog.error.text() == ("Fire: effect of a hit in Light Cover (faces 1 to 6): the game's value result 3 "
                                   "must be one of none, shock, kill, not 'shok'; the default is shown.")
    _s, faces = dialog.editors["hit_effect_light"]
    assert isinstance(faces, FacesEditor) and faces.value() == "none none none shock shock kill"
    fire = FireDialog(session, MG)
    qtbot.addWidget(fire)
    assert fire.set_target(SQUAD) and fire.runner is not None
    assert "Result 3 must be one of none, shock, kill, not 'shok'" in fire.runner.problem.text()
    assert not fire.runner.roll_button.isEnabled()
    press_ok(qtbot, dialog)                               # Ok puts the default shown back
    assert "hit_effect_light" not in session.game.settings
    assert fire.runner.problem.isHidden() and fire.runner.roll_button.isEnabled()


def test_changed_settings_are_one_recorded_action_that_replays(
        qtbot: QtBot, session: Session, tmp_path: Path) -> None:
    dialog = settings_dialog(qtbot, session)
    _s, spin = dialog.editors["to_hit_close_regular"]
    assert isinstance(spin, QSpinBox)
    spin.setFocus()
    qtbot.keyClick(spin, Qt.Key.Key_Up)
    press_ok(qtbot, dialog)
    action = session.game.actions[-1]
    assert action.name == "game.settings" and action.choices == {"to_hit_close_regular": 5}
    assert session.game.settings == {"to_hit_close_regular": 5}
    path = tmp_path / "settings.battle"
    savefile.save(session.game, path)
    replayed, _steps = replay_steps(savefile.load(path))
    assert savefile.game_to_dict(replayed) == savefile.game_to_dict(session.game)


def test_a_choice_is_shown_in_words_and_kept_as_its_key(qtbot: QtBot, session: Session) -> None:
    dialog = settings_dialog(qtbot, session)
    _s, combo = dialog.editors["infantry_at_he_range"]
    assert isinstance(combo, QComboBox)
    assert [combo.itemText(i) for i in range(combo.count())] == ["Minus one per band", "Close effective"]
    texts = [label.text() for label in dialog.findChildren(QLabel)]
    assert not [t for t in texts if "minus_one_per_band" in t or "close_effective" in t or "on_target" in t]
    assert any("(default: Minus one per band)" in t for t in texts)
    assert any("(default: off)" in t for t in texts)
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert combo.currentText() == "Close effective"
    press_ok(qtbot, dialog)
    assert session.game.settings == {"infantry_at_he_range": "close_effective"}
