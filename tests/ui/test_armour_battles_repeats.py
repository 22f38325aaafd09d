"""The Armour Battles dialogs on the shipped demo offer no Roll or Apply for fire the plan refuses: a second
fire by a unit that has activated this Turn, fire outside its side's activation that is not opportunity fire,
and a unit that has dispersed. Every step is a press of the dialog's own buttons."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton
from PySide6.QtWidgets import QCheckBox
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.rules.sequence import acted
from battletracker.rules.tables import resources_dir
from battletracker.ui.features.armour_battles.assault import CloseAssaultDialog
from battletracker.ui.features.armour_battles.direct import DirectFireDialog
from battletracker.ui.features.armour_battles.indirect import IndirectFireDialog
from battletracker.ui.session import Session

STUH = "StuH 42 (close support)"


def demo() -> Session:
    return Session(savefile.load(resources_dir() / "demo" / "armour_battles.json"))


def press(qtbot: QtBot, button: QAbstractButton) -> None:
    """A click where the player clicks: a tick box on its box (its middle may be past its words), a button anywhere."""
    where = QPoint(6, button.height() // 2) if isinstance(button, QCheckBox) else QPoint()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=where)


def offered(button: QAbstractButton) -> bool:
    """Whether the player can press the button: enabled itself and inside enabled widgets."""
    return button.isEnabled()


def direct(qtbot: QtBot, session: Session) -> DirectFireDialog:
    dlg = DirectFireDialog(session, "stuh")
    qtbot.addWidget(dlg)
    dlg.show()
    assert dlg.set_target("t34")
    return dlg


def test_after_one_direct_fire_a_second_is_refused_until_end_turn(qtbot: QtBot) -> None:
    session = demo()
    first = direct(qtbot, session)
    t = first.current
    assert t is not None and not t.refusal
    press(qtbot, t.fire.roll_button)
    press(qtbot, t.reaction.roll_button)
    assert offered(first.apply_button)
    press(qtbot, first.apply_button)
    assert first.applied and acted(session.game, "stuh")

    second = direct(qtbot, session)
    t = second.current
    assert t is not None
    assert t.refusal == (f"{STUH} has already activated this Turn (Turn 1): each unit activates once a Turn, "
                         "and it is ready again when the Turn ends.")
    assert not offered(t.fire.roll_button) and not offered(t.fire.typed_button)
    press(qtbot, t.fire.roll_button)
    assert t.fire.result is None and not offered(second.apply_button)
    steps = session.undo_stack.count()
    press(qtbot, second.apply_button)
    assert session.undo_stack.count() == steps

    mission = IndirectFireDialog(session, "stuh")
    qtbot.addWidget(mission)
    mission.set_aim(35.5, 19.0)
    assert mission.refusal_text().startswith(f"{STUH} has already activated this Turn")
    assert not offered(mission.runner.roll_button) and not offered(mission.runner.apply_button)

    session.end_turn()
    third = direct(qtbot, session)
    assert third.current is not None and not third.current.refusal
    assert offered(third.current.fire.roll_button)


def test_in_the_other_sides_activation_only_opportunity_fire_is_offered(qtbot: QtBot) -> None:
    session = demo()
    session.end_phase()
    mission = IndirectFireDialog(session, "stuh")
    qtbot.addWidget(mission)
    mission.show()
    mission.set_aim(35.5, 19.0)
    assert mission.refusal_text() == (f"The side activating now is Soviet Union: {STUH} can fire now only as "
                                      "opportunity fire, with a direct line of sight to the target.")
    assert not offered(mission.runner.roll_button)
    press(qtbot, mission.opportunity)
    assert mission.opportunity.isChecked() and mission.refusal_text() == ""
    press(qtbot, mission.runner.roll_button)
    assert mission.runner.result is not None and offered(mission.runner.apply_button)
    press(qtbot, mission.runner.apply_button)
    assert mission.applied and not acted(session.game, "stuh")  # opportunity fire is no activation


def test_a_dispersed_unit_is_offered_no_roll_in_any_dialog(qtbot: QtBot) -> None:
    session = demo()
    session.act("unit.condition", {"unit": "stuh", "condition": "dispersed"})
    fire = direct(qtbot, session)
    assert fire.current is not None and fire.current.refusal == f"{STUH} has dispersed and cannot fire."
    assert not offered(fire.current.fire.roll_button) and not offered(fire.apply_button)
    assault = CloseAssaultDialog(session, "stuh")
    qtbot.addWidget(assault)
    assault.show()
    assert assault.choose("target", "t34")
    assert assault.refusal.text() == f"{STUH} has dispersed and cannot fight a Close Assault."
    assert not offered(assault.runner.roll_button) and not offered(assault.runner.apply_button)
    press(qtbot, assault.runner.roll_button)
    assert assault.runner.result is None
