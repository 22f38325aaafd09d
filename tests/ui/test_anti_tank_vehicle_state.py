"""Results that outlast the shot: Halt and Engage across End Phase, an immobilised APC's passengers."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.ui.cards import CardsPanel
from battletracker.ui.cards import UnitCard
from battletracker.ui.features.anti_tank import AntiTankDialog
from battletracker.ui.session import Session
from tests.acting import ready_unit

PANZER, SHERMAN = "u6", "u11"
HALT_AND_ENGAGE = ["3 4", "5 1 1 1 1 1 1 1 1", "5 1 1 1 1 1", "5"]
WORKED_EXAMPLE = ["6 1", "1 1 2 3 4 4 5 5 6 6", "1 2 3 4 5 6", "4"]
PASSENGERS = "Passengers deploy now within 4\" of the centre of the APC"


pytestmark = pytest.mark.usefixtures("germany_ready")


def fire(qtbot: QtBot, session: Session, dice: list[str]) -> AntiTankDialog:
    dialog = AntiTankDialog(session, ready_unit(session, PANZER))
    qtbot.addWidget(dialog)
    runner = dialog.runner
    runner.start_typed()
    for text in dice:
        runner.entry.setText(text)
        runner.submit_entry()
        assert runner.entry_error.isHidden(), runner.entry_error.text()
    assert runner.apply()
    return dialog


def cards(qtbot: QtBot, session: Session) -> tuple[QWidget, CardsPanel]:
    """The panel inside a plain window, as in a dock; the caller keeps the window alive."""
    host = QWidget()
    qtbot.addWidget(host)
    host.resize(380, 900)
    panel = CardsPanel(session, host)
    panel.resize(380, 900)
    host.show()
    qtbot.waitExposed(host)
    return host, panel


def sherman_card(panel: CardsPanel) -> UnitCard:
    card = panel.card(SHERMAN)
    assert card is not None
    return card


def test_halt_and_engage_not_carried_out_costs_a_shock_and_undoes_cleanly(qtbot: QtBot, session: Session) -> None:
    before = savefile.game_to_dict(session.game)
    dialog = fire(qtbot, session, HALT_AND_ENGAGE)
    assert dialog.runner.result is not None and dialog.runner.result.outcome == "equal:halt_and_engage"
    session.end_phase()
    texts = [entry.text for entry in session.game.log]
    assert any(t.startswith("Next Phase: Sherman 'Lucky' must Halt and Engage") for t in texts)
    sherman = session.game.unit(SHERMAN)
    assert sherman.has("halt_and_engage_this_phase") and sherman.shock == 0
    session.end_phase()
    assert sherman.shock == 1 and sherman.vehicle is not None and sherman.vehicle.damage == []
    assert "Sherman 'Lucky' did not halt and engage the firer: +1 Shock, 1 in all" in [
        entry.text for entry in session.game.log]
    while session.undo_stack.canUndo():
        session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before


def test_halt_and_engage_cleared_from_the_cards_damage_menu_costs_nothing(qtbot: QtBot, session: Session) -> None:
    fire(qtbot, session, HALT_AND_ENGAGE)
    session.end_phase()
    _host, panel = cards(qtbot, session)
    card = sherman_card(panel)
    assert "Halt and engage this phase" in [c.text for c in card.chips.chips()]
    menu = card.build_menu(full=True)
    damage = {a.objectName(): a for a in menu.actions()}
    assert damage["damage_halt_and_engage"].isChecked()
    damage["damage_halt_and_engage"].trigger()
    session.end_phase()
    sherman = session.game.unit(SHERMAN)
    assert sherman.shock == 0 and sherman.conditions == []


def test_an_immobilised_apc_tells_its_passengers_to_deploy(qtbot: QtBot, session: Session) -> None:
    vehicle = session.game.unit(SHERMAN).vehicle
    assert vehicle is not None
    vehicle.category = "apc"
    dialog = fire(qtbot, session, WORKED_EXAMPLE)
    assert dialog.runner.result is not None and dialog.runner.result.outcome == "net2:immobilised"
    assert PASSENGERS in dialog.follow_text.text()
    assert PASSENGERS in [entry.text for entry in session.game.log]
