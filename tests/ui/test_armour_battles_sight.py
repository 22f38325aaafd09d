"""The Armour Battles fire dialogs tick Line of Sight from the map, and log the player's word over it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battletracker.model.bombardment import Building
from battletracker.model.bombardment_effects import AddBuilding
from battletracker.ui.features.armour_battles.direct import DirectFireDialog
from battletracker.ui.features.armour_battles.indirect import IndirectFireDialog
from battletracker.ui.session import Session
from tests.ui.dice_entry import type_dice
from tests.ui.test_armour_battles import kursk

__all__ = ["kursk"]
BARN = Building("barn", "Barn", 30.0, 38.0, width=8.0, depth=3.0)   # between the StuH (30, 44) and (30, 20)


def test_a_building_unticks_indirect_sight_and_asks_for_an_observer(qtbot: QtBot, kursk: Session) -> None:  # noqa: F811
    dlg = IndirectFireDialog(kursk, "stuh")
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.set_aim(30.0, 20.0)
    assert dlg.los.isChecked() and dlg.refusal_text() == ""
    kursk.apply("Barn", [AddBuilding(BARN)])
    dlg.set_aim(30.0, 20.0)
    assert not dlg.los.isChecked() and dlg.los.toolTip() == "From the map: No Line of Sight: crosses Barn"
    assert dlg.refusal_text().startswith("No Line of Sight: crosses Barn. Without line of sight to the aiming point")
    qtbot.mouseClick(dlg.los, Qt.MouseButton.LeftButton)
    assert dlg.sight.reason.isVisible()
    qtbot.keyClicks(dlg.sight.reason, "from the ridge")
    line = "Line of Sight given (player: 'from the ridge'; the map: No Line of Sight: crosses Barn)"
    assert dlg.refusal_text() == "" and dlg.plan is not None and line in dlg.plan.facts


def test_direct_fire_through_a_building_is_refused_until_the_player_gives_sight(
        qtbot: QtBot, kursk: Session) -> None:  # noqa: F811
    kursk.game.units["stuh"].y = 32.0   # 12" from the rifles
    kursk.apply("Barn", [AddBuilding(Building("barn", "Barn", 29.5, 26.0, width=8.0, depth=3.0))])
    dlg = DirectFireDialog(kursk, "stuh")
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.set_target("rifles")
    assert not dlg.los.isChecked() and dlg.current is not None
    assert dlg.current.refusal.startswith("No Line of Sight: crosses Barn. Direct fire needs a line of sight")
    dlg.los.setFocus()
    qtbot.keyClick(dlg.los, Qt.Key.Key_Space)
    qtbot.keyClicks(dlg.sight.reason, "over the roof")
    qtbot.keyClick(dlg.sight.reason, Qt.Key.Key_Return)
    t = dlg.current
    assert t is not None and not t.refusal
    type_dice(t.fire, "1 1 1 1 1 1 1")
    assert dlg.apply()
    assert kursk.game.log[-1].text == ("Line of Sight given (player: 'over the roof'; the map: No Line of Sight: "
                                       "crosses Barn)")
