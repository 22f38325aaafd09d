"""The indirect fire dialog says what a unit's Cover Dice are, and what "0 D" means, where it asks for them."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from battletracker.ui.features.armour_battles.indirect import IndirectFireDialog
from tests.ui.test_armour_battles_mission import _table
from tests.ui.test_armour_battles_mission import _type_into
from tests.ui.test_fits_laptop_screen import clipped_labels


def test_the_cover_dice_box_says_what_cover_dice_are_and_that_0_d_is_in_the_open(qtbot: QtBot) -> None:
    session = _table()
    dlg = IndirectFireDialog(session, "stuh")
    qtbot.addWidget(dlg)
    dlg.show()
    note = dlg.findChild(QLabel, "ab_cover_note")
    assert note is not None and note.wordWrap()
    _type_into(qtbot, dlg.aim_x, "30")
    _type_into(qtbot, dlg.aim_y, "20")
    assert dlg.cover and note.isVisible()
    assert all(box.text() == "0 D: in the open" for box in dlg.cover.values())
    assert note.text() == ("Cover Dice are extra dice a unit in cover adds to its Reaction Check, rolled with its "
                           "Reaction Dice. The rules we have give no numbers: by default 1 in light cover, 2 in heavy "
                           "(to check). Set each unit's from its cover at the table; 0 D means no Cover Dice: the unit "
                           "is in the open.")
    assert clipped_labels(dlg) == []
    session.act("game.settings", {"cover_against_indirect": False})
    again = IndirectFireDialog(session, "stuh")
    qtbot.addWidget(again)
    note = again.findChild(QLabel, "ab_cover_note")
    assert note is not None and note.text().endswith(
        "This game's Ruleset settings count no Cover Dice against indirect fire.")
