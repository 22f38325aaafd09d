"""A whole indirect fire mission played in the real dialog as a player does:
choices typed and clicked, the odds shown are exactly those of
ab.indirect_mission for the plan's inputs, the table's dice typed with Enter,
one Apply, and one undo step restores the game exactly."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractSpinBox
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.bombardment import Building
from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.rules import odds
from battletracker.rules.armour_battles.mission import NAME
from battletracker.rules.armour_battles.mission import label
from battletracker.rules.presets import preset
from battletracker.ui.features.armour_battles.indirect import IndirectFireDialog
from battletracker.ui.odds_plot import grouped
from battletracker.ui.session import Session


def _table() -> Session:
    game = Game(title="Kursk", ruleset="armour_battles",
                sides=[Side("Germany", "#666666"), Side("Soviet Union", "#aa3333")])
    for key, uid, side, x, y in (("stuh_42", "stuh", 0, 30.0, 44.0), ("rifle_platoon_su", "observer", 0, 30.0, 30.0),
                                 ("rifle_platoon_su", "rifles", 1, 29.0, 20.0),
                                 ("smg_platoon_su", "smgs", 1, 31.5, 21.0), ("t34_43", "t34", 1, 30.0, 18.0),
                                 ("rifle_platoon_su", "far", 1, 32.01, 20.0)):
        p = preset("armour_battles", key)
        game.units[uid] = p.make(uid, p.title, side, x, y)
    return Session(game)


def _type_into(qtbot: QtBot, box: QAbstractSpinBox, text: str) -> None:
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, text)
    qtbot.keyClick(box, Qt.Key.Key_Return)


def _click(qtbot: QtBot, widget: QWidget) -> None:
    assert widget.isEnabled(), widget
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def _enter(qtbot: QtBot, dlg: IndirectFireDialog, text: str) -> None:
    runner = dlg.runner
    assert runner.entry.isVisible(), f"no roll asked for {text!r}"
    runner.entry.clear()
    qtbot.keyClicks(runner.entry, text)
    qtbot.keyClick(runner.entry, Qt.Key.Key_Return)
    assert runner.entry_error.isHidden(), runner.entry_error.text()


def test_an_observed_mission_that_deviates_onto_two_units_is_one_undo_step(qtbot: QtBot) -> None:
    session = _table()
    session.game.buildings["barn"] = Building("barn", "Barn", 30.0, 38.0, width=8.0, depth=3.0)  # hides the aim
    before = savefile.game_to_dict(session.game)
    dlg = IndirectFireDialog(session, "stuh")
    qtbot.addWidget(dlg)
    dlg.show()
    _type_into(qtbot, dlg.aim_x, "30")
    _type_into(qtbot, dlg.aim_y, "20")
    dlg.set_observer("observer")  # what a click on the observer's token does
    _click(qtbot, dlg.arrow_known)
    _type_into(qtbot, dlg.arrow_bearing, "90")
    dlg.cover["far"].setValue(1)
    assert dlg.refusal_text() == ""
    assert dlg.plan is not None and dlg.plan.inputs["unit4_cover_dice"] == 1

    table = dlg.runner.odds_plot.table
    shown = [(table.item(row, 0).text(), table.item(row, 1).toolTip().removeprefix("Exactly "))
             for row in range(table.rowCount())]
    exact = grouped(odds(NAME, dlg.plan.inputs), label)
    assert shown == [(text, str(p)) for text, p in exact]
    assert shown[0][0].startswith("On target") and all("=" not in text for text, _p in shown)

    _click(qtbot, dlg.runner.typed_button)
    for dice in ("arrow", "3",               # deviates 3" to the right
                 "1 1 1 1",                  # SMG platoon: no hits, no Reaction Check
                 "6 6 2 2", "6 1 1 1 1",     # far: 2 hits, two 6s; Reaction with its Cover Die: one 6
                 "4"):                       # forced back 6" + 1D" for the one 6 it did not match
        _enter(qtbot, dlg, dice)
    res = dlg.runner.result
    assert res is not None and res.values["under"] == ("smgs", "far")
    assert "Deviates: 1 unit suppressed, 1 takes Disruption" in dlg.result_label.text()
    assert dlg.runner.result_view.toPlainText().startswith("Deviates: 1 unit suppressed, 1 takes Disruption")
    _click(qtbot, dlg.runner.apply_button)

    game = session.game
    assert game.units["far"].counters["disruption"] == 1 and "artillery_suppressed" in game.units["far"].conditions
    assert game.units["smgs"].counters["disruption"] == 0 and game.markers == {}
    assert session.undo_stack.count() == 1 and not dlg.runner.roll_button.isEnabled()
    session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before
    dlg.reject()
