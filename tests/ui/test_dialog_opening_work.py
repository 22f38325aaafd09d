"""Opening a procedure dialog computes its plan and odds once, after its defaults are set: each draw costs time."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.rules.tables import resources_dir
from battletracker.ui.odds_plot import OddsPlot
from battletracker.ui.session import Session
from tests.acting import ready_side


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[OddsPlot]]:
    """Every odds plot given a distribution, once per time."""
    calls: list[OddsPlot] = []
    original = OddsPlot.set_distribution

    def counting(self: OddsPlot, *args: object, **kwargs: object) -> None:
        calls.append(self)
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(OddsPlot, "set_distribution", counting)
    yield calls


def demo_session(name: str) -> Session:
    game = savefile.load(resources_dir() / "demo" / f"{name}.json")
    return Session(ready_side(game) if name == "chain_of_command" else game)


def test_the_necromunda_shoot_dialog_draws_its_odds_once_as_it_opens(qtbot: QtBot, drawn: list[OddsPlot]) -> None:
    from battletracker.ui.features.necromunda.shoot_dialog import ShootDialog

    session = demo_session("necromunda")
    dialog = ShootDialog(session, "u1")
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.target is not None and dialog.shown_odds is not None, "it opens at a target with its odds"
    assert drawn == [dialog.runner.odds_plot]


def test_the_anti_tank_dialog_draws_its_odds_once_in_reading_order(qtbot: QtBot, drawn: list[OddsPlot]) -> None:
    from battletracker.rules import odds
    from battletracker.rules.chain_of_command.anti_tank_plans import group_label
    from battletracker.rules.chain_of_command.anti_tank_plans import in_group_order
    from battletracker.ui.features.anti_tank import AntiTankDialog
    from battletracker.ui.odds_plot import grouped

    session = demo_session("chain_of_command")
    dialog = AntiTankDialog(session, "u4")
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.shot is not None, "it opens at a target with its odds"
    assert drawn == [dialog.runner.odds_plot]
    shown = grouped(in_group_order(odds(dialog.shot.procedure, dialog.shot.inputs)), group_label)
    assert dialog.runner.odds_plot.rows == shown, "miss first, +3 last, as the rules read"


def test_the_fire_dialog_draws_its_odds_once_as_it_opens(qtbot: QtBot, drawn: list[OddsPlot]) -> None:
    from battletracker.ui.features.support_fire.dialog import FireDialog

    dialog = FireDialog(demo_session("chain_of_command"), "u1")
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.plan is not None and dialog.runner is not None, "it opens at a target with its odds"
    assert drawn == [dialog.runner.odds_plot]


def test_the_phase_of_fire_dialog_draws_its_odds_once_as_it_opens(qtbot: QtBot, drawn: list[OddsPlot]) -> None:
    from battletracker.ui.features.bombardments.dialogs import PhaseDialog

    session = Session(savefile.load(resources_dir() / "demo" / "chain_of_command.json"))
    session.act("coc.new_bombardment", {"side": 0, "kind": "high_explosive", "phases": 3, "x": 24.0, "y": 38.0,
                                        "observer_x": 30.0, "observer_y": 20.0})
    bid = next(iter(session.game.bombardments))
    session.act("coc.command_dice", {}, [1, 2, 3, 4, 4])
    session.act("coc.ranging_shot", {"bombardment": bid}, [4, 4], typed=True)
    session.act("coc.hidden_die", {"bombardment": bid, "face": 2})
    dialog = PhaseDialog(session, bid)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.runner.odds_plot.rows, "it opens with the odds of the whole area"
    assert drawn == [dialog.runner.odds_plot]
