"""The shipped Armour Battles demo: it loads, offers the close-support actions
for the StuH 42, and the seed's burst over two infantry units and a T34/43
can be fired from it and undone exactly."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.rules.tables import resources_dir
from battletracker.ui.extensions import unit_actions
from battletracker.ui.features.armour_battles.indirect import IndirectFireDialog
from battletracker.ui.session import Session
from tests.ui.dice_entry import type_dice

DEMO = resources_dir() / "demo" / "armour_battles.json"


def test_the_demo_loads_and_offers_indirect_fire_for_the_stuh() -> None:
    game = savefile.load(DEMO)
    assert game.ruleset == "armour_battles" and (game.table_width, game.table_height) == (72.0, 48.0)
    assert {"stuh", "t34", "rifles", "smgs"} <= set(game.units)
    stuh_actions = [a.key for a in unit_actions(game, game.unit("stuh"))]
    assert {"ab.indirect_fire", "ab.direct_fire", "ab.close_assault"} <= set(stuh_actions)
    assert "ab.indirect_fire" not in [a.key for a in unit_actions(game, game.unit("t34"))]


def test_a_mission_from_the_demo_hits_the_seeds_three_units_and_undoes_exactly(qtbot: QtBot) -> None:
    session = Session(savefile.load(DEMO))
    before = savefile.game_to_dict(session.game)
    dlg = IndirectFireDialog(session, "stuh")
    qtbot.addWidget(dlg)
    dlg.los.setChecked(True)
    dlg.set_aim(36.0, 20.0)
    assert dlg.refusal_text() == ""
    assert dlg.plan is not None
    armoured = [bool(dlg.plan.inputs[f"unit{n}_armoured"]) for n in range(1, int(dlg.plan.inputs["units"]) + 1)]
    res = type_dice(dlg.runner, *("1 1" if at else "1 1 1 1" for at in armoured))  # no hits: no Reactions
    assert res is not None and res.values["under"] == ("t34", "rifles", "smgs")
    assert [t["dice_type"] for t in res.values["targets"]] == ["at", "fp", "fp"]
    assert dlg.apply()
    assert "impact1" not in session.game.markers and session.undo_stack.count() == 1
    while session.undo_stack.canUndo():
        session.undo_stack.undo()
    assert savefile.game_to_dict(session.game) == before
