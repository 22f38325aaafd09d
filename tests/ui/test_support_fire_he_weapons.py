"""A player fires the Panzerschreck's and the Panzer IV's H.E. at infantry from the card's menu."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.effects import MoveUnit
from battletracker.ui.features.support_fire import FireDialog
from battletracker.ui.main_window import MainWindow
from battletracker.ui.procedure_runner import ProcedureRunner
from battletracker.ui.session import Session
from battletracker.ui.settings_dialog import SettingsDialog
from tests.ui.dice_entry import type_dice
from tests.ui.labelled import labelled_odds

SCHRECK, TANK, SQUAD = "u4", "u6", "u8"


pytestmark = pytest.mark.usefixtures("germany_ready")


def fire_from_the_card(qtbot: QtBot, session: Session, firer: str) -> FireDialog:
    """Open the firer's card menu and choose Fire..., as a player does; the target is the 2nd Squad."""
    window = MainWindow(session)
    window.feature_host.load()
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.show()
    card = window.cards.card(firer)
    assert card is not None
    actions = {a.objectName(): a for a in card.build_menu(full=True).actions()}
    assert "action_coc.support_fire" in actions, "Fire... is offered on the card"
    actions["action_coc.support_fire"].trigger()
    dialog = window.findChildren(FireDialog)[-1]
    assert dialog.set_target(SQUAD)
    return dialog


def runner_of(dialog: FireDialog) -> ProcedureRunner:
    assert dialog.runner is not None
    return dialog.runner


def test_the_panzerschreck_fires_its_he_at_the_squad_and_spends_a_round(qtbot: QtBot, session: Session) -> None:
    session.apply("Move", [MoveUnit(SCHRECK, 38.0, 19.0, 180.0)])     # 20" from the 2nd Squad: its second band
    before = savefile.game_to_dict(session.game)
    dialog = fire_from_the_card(qtbot, session, SCHRECK)
    assert dialog.weapon.currentText() == "Panzerschreck (H.E.)"
    assert dialog.form.isRowVisible(dialog.quality), "its H.E. hits by the target's quality"
    assert dialog.plan is not None and dialog.plan.procedure == "coc.gun_he"
    facts = dialog.facts.facts()
    assert "4 H.E. dice at Close Range, 1 band out (5+), no Storm of Steel" in facts
    assert "Rounds left: 3 on the card (one is spent)" in facts
    runner = runner_of(dialog)
    assert dict(runner.odds_plot.rows) == labelled_odds("coc.gun_he", dialog.plan.inputs)
    dialog.quality.setCurrentIndex(dialog.quality.findData("green"))
    assert "4 H.E. dice at Close Range, 1 band out (4+), no Storm of Steel" in dialog.facts.facts()
    runner = runner_of(dialog)
    result = type_dice(runner, "6 4 3 1", "6 6")        # no Storm of Steel dice for the 6
    assert result is not None and result.values["hits"] == 2
    assert [label for label, _ in result.rolls] == ["H.E. Firepower Dice", "Effect dice"]
    qtbot.mouseClick(runner.apply_button, Qt.MouseButton.LeftButton)
    assert session.game.unit(SCHRECK).weapons[0].ammo == 2
    assert any("One round spent: 2 left" in entry.text for entry in session.game.log)
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_the_tanks_he_keeps_the_guns_rule(qtbot: QtBot, session: Session) -> None:
    """A vehicle's gun fires H.E. as a gun does (4+, Storm of Steel, cover reduced), as saved games were played."""
    dialog = fire_from_the_card(qtbot, session, TANK)
    dialog.weapon.setCurrentIndex(dialog.weapon.findText("7.5cm KwK 40 (H.E.)"))
    assert not dialog.form.isRowVisible(dialog.quality)
    assert dialog.plan is not None and "firer_kind" not in dialog.plan.inputs
    assert "4 H.E. dice at Close Range (4+), Storm of Steel, cover reduced one level" in dialog.facts.facts()
    runner = runner_of(dialog)
    before = savefile.game_to_dict(session.game)
    result = type_dice(runner, "6 1 1 1", "1", "1")     # the 6 earns a Storm of Steel die
    assert result is not None and [label for label, _ in result.rolls] == [
        "H.E. Firepower Dice", "Storm of Steel dice", "Effect dice"]
    qtbot.mouseClick(runner.apply_button, Qt.MouseButton.LeftButton)
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_the_panzerschrecks_he_has_storm_of_steel_once_the_setting_gives_it(qtbot: QtBot, session: Session) -> None:
    session.apply("Move", [MoveUnit(SCHRECK, 38.0, 19.0, 180.0)])
    dialog = fire_from_the_card(qtbot, session, SCHRECK)
    assert "no Storm of Steel" in " ".join(dialog.facts.facts())
    settings = SettingsDialog(session)
    qtbot.addWidget(settings)
    settings.show()
    texts = [label.text() for label in settings.findChildren(QLabel)]
    assert "Infantry anti-tank weapon H.E. at infantry: Storm of Steel Bonus:" in texts
    assert any("Default - check your rulebook." in t and "Infantry Guns' and Anti-Tank Guns' H.E." in t for t in texts)
    _s, box = settings.editors["infantry_at_he_storm_of_steel"]
    assert isinstance(box, QCheckBox) and not box.isChecked()
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Space)
    assert box.isChecked()
    buttons = settings.findChild(QDialogButtonBox)
    assert buttons is not None
    qtbot.mouseClick(buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    assert session.game.settings == {"infantry_at_he_storm_of_steel": True}
    assert any(", Storm of Steel" in fact for fact in dialog.facts.facts())
    runner = runner_of(dialog)
    result = type_dice(runner, "6 1 1 1", "1", "1")     # now the 6 earns a Storm of Steel die
    assert result is not None and [label for label, _ in result.rolls] == [
        "H.E. Firepower Dice", "Storm of Steel dice", "Effect dice"]
