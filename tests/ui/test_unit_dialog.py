"""The unit dialog: presets grouped by army, inline validation, one undo step per OK."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.effects import SpendAmmo
from battletracker.model.game import Game
from battletracker.rules.presets import unit_presets
from battletracker.ui.cards import CardsPanel
from battletracker.ui.session import Session
from battletracker.ui.unit_dialog import PRESET_ROLE
from battletracker.ui.unit_dialog import UnitDialog
from battletracker.ui.unit_dialog import free_spot
from battletracker.ui.unit_dialog import side_facing
from battletracker.ui.unit_dialog import unique_name
from tests.ui.refusals import assert_refusal


@pytest.fixture
def host(qtbot: QtBot) -> Iterator[QWidget]:
    widget = QWidget()
    qtbot.addWidget(widget)
    yield widget


def dialog(qtbot: QtBot, session: Session, unit_id: str | None = None) -> UnitDialog:
    d = UnitDialog(session, unit_id)
    qtbot.addWidget(d)
    return d


def state(session: Session) -> dict[str, object]:
    return savefile.game_to_dict(session.game)


def test_presets_are_grouped_under_headings_that_cannot_be_chosen(qtbot: QtBot, session: Session) -> None:
    d = dialog(qtbot, session)
    model = d.preset.model()
    rows = [(model.index(r, 0).data(), model.index(r, 0).data(PRESET_ROLE)) for r in range(model.rowCount())]
    headings = [text for text, key in rows if key is None]
    assert headings == ["Germany", "United States", "Other"]
    keys = [key for _text, key in rows if key]
    assert keys == [p.key for p in unit_presets("chain_of_command")]
    for row, (_text, key) in enumerate(rows):
        enabled = bool(model.flags(model.index(row, 0)) & Qt.ItemFlag.ItemIsEnabled)
        assert enabled == (key is not None)


def test_adding_from_a_preset_is_one_undo_step_and_undo_removes_it(qtbot: QtBot, session: Session) -> None:
    before = state(session)
    count = len(session.game.units)
    d = dialog(qtbot, session)
    d.select_preset("bazooka_team")
    d.side.setCurrentIndex(1)
    assert d.name.text() == "Bazooka team"
    assert not d.problems()
    d.accept()
    assert d.result() == d.DialogCode.Accepted
    assert len(session.game.units) == count + 1
    added = session.game.unit(d.added_id or "")
    assert added.name == "Bazooka team"
    assert added.side == 1
    assert added.kind == "support_weapon"
    assert added.weapons[0].name == "Bazooka"
    assert (added.weapons[0].ammo, added.weapons[0].ammo_max) == (3, 3)
    assert session.undo_stack.count() == 1
    assert session.selected == added.id
    assert session.game.log[-1].text.startswith("Added Bazooka team (Bazooka team) for United States ")
    session.undo_stack.undo()
    assert state(session) == before


def test_the_added_unit_gets_a_card(qtbot: QtBot, host: QWidget, session: Session) -> None:
    panel = CardsPanel(session, host)
    d = dialog(qtbot, session)
    d.select_preset("sherman")
    d.name.setText("Sherman 'Jumbo'")
    d.accept()
    card = panel.card(d.added_id or "")
    assert card is not None
    assert card.findChild(QLabel, "name").text() == "Sherman 'Jumbo'"
    assert card.findChild(QLabel, "type").text() == "Vehicle · AFV"


def test_defaults_follow_the_side_and_avoid_other_units(qtbot: QtBot, session: Session) -> None:
    session.select("u8")
    d = dialog(qtbot, session)
    assert d.side.currentIndex() == 1
    assert session.game.sides[1].name == "United States"
    assert d.preset_key() == "rifle_squad_us"
    assert d.name.text() == "Rifle squad"
    x, y = d.x_box.value(), d.y_box.value()
    assert (x, y) == free_spot(session.game)
    assert 0 <= x <= 72 and 0 <= y <= 48
    assert d.facing.value() == side_facing(session.game, 1)
    d.side.setCurrentIndex(0)
    assert d.preset_key() == "rifle_section_de"
    assert d.facing.value() == side_facing(session.game, 0)


def test_a_chosen_preset_stays_when_the_side_changes(qtbot: QtBot, session: Session) -> None:
    d = dialog(qtbot, session)
    d.select_preset("sherman")
    d.side.setCurrentIndex(0)
    d.side.setCurrentIndex(1)
    assert d.preset_key() == "sherman"


def test_free_spot_is_the_centre_when_it_is_free_and_keeps_clear_of_units(demo_game: Game) -> None:
    empty = Game(table_width=72.0, table_height=48.0)
    assert free_spot(empty) == (36.0, 24.0)
    x, y = free_spot(demo_game)
    for unit in demo_game.units.values():
        assert (unit.x - x) ** 2 + (unit.y - y) ** 2 >= 9
    marker = demo_game.markers["m1"]
    assert (marker.x - x) ** 2 + (marker.y - y) ** 2 >= 9


def test_side_facing_is_the_circular_mean(demo_game: Game) -> None:
    assert side_facing(demo_game, 0) == 185.0
    assert side_facing(demo_game, 1) == 0.0
    assert side_facing(Game(), 0) == 0.0


def test_unique_name_numbers_repeats(demo_game: Game) -> None:
    assert unique_name(demo_game, "Sniper") == "Sniper 2"
    assert unique_name(demo_game, "Tiger") == "Tiger"


def test_problems_are_shown_inline_and_block_ok(qtbot: QtBot, session: Session) -> None:
    d = dialog(qtbot, session)
    d.name.setText("  ")
    d.x_box.setValue(80.0)
    d.y_box.setValue(-2.0)
    assert d.problems() == [
        "Give the unit a name.",
        'X 80" is off the table (0 to 72").',
        'Y -2" is off the table (0 to 48").',
    ]
    assert_refusal(d.problems_label, "Give the unit a name.")
    assert not d.ok_button.isEnabled()
    d.accept()
    assert session.undo_stack.count() == 0
    d.name.setText("Able")
    d.x_box.setValue(10.0)
    d.y_box.setValue(10.0)
    assert d.ok_button.isEnabled()
    assert not d.problems_label.isVisibleTo(d)


def test_more_figures_or_rounds_than_the_maximum_is_a_problem(qtbot: QtBot, session: Session) -> None:
    d = dialog(qtbot, session, "u4")
    d.figures.setValue(3)
    row = d._ammo_rows[0]
    row.ammo.setValue(4)
    assert d.problems() == [
        "3 figures is more than the unit's full strength of 2.",
        "Panzerschreck: 4 rounds is more than its maximum of 3.",
    ]


def test_editing_the_name_updates_the_card_in_one_undo_step(qtbot: QtBot, host: QWidget, session: Session) -> None:
    panel = CardsPanel(session, host)
    before = state(session)
    d = dialog(qtbot, session, "u7")
    assert d.preset.isHidden()
    assert d.name.text() == "1st Squad"
    d.name.setText("Able Squad")
    d.accept()
    assert session.game.unit("u7").name == "Able Squad"
    card = panel.card("u7")
    assert card is not None
    assert card.findChild(QLabel, "name").text() == "Able Squad"
    assert session.undo_stack.count() == 1
    assert session.game.log[-1].text == "Edited 1st Squad: name 1st Squad -> Able Squad"
    assert list(session.game.units).index("u7") == 6
    session.undo_stack.undo()
    assert state(session) == before
    assert card.findChild(QLabel, "name").text() == "1st Squad"


def test_an_untouched_edit_adds_no_undo_step(qtbot: QtBot, session: Session) -> None:
    session.game.units["u7"].x = 22.04
    d = dialog(qtbot, session, "u7")
    d.accept()
    assert d.result() == d.DialogCode.Accepted
    assert session.undo_stack.count() == 0
    assert session.game.unit("u7").x == 22.04


def test_editing_ammo_maximum_and_armour(qtbot: QtBot, session: Session) -> None:
    session.apply("Fire", [SpendAmmo("u4", 0, 2)])
    d = dialog(qtbot, session, "u4")
    row = d._ammo_rows[0]
    assert (row.ammo.value(), row.maximum.value()) == (1, 3)
    row.maximum.setValue(4)
    d.accept()
    weapon = session.game.unit("u4").weapons[0]
    assert (weapon.ammo, weapon.ammo_max) == (1, 4)
    assert session.game.log[-1].text == "Edited Panzerschreck: Panzerschreck 1/3 -> 1/4 rounds"

    v = dialog(qtbot, session, "u11")
    assert v.vehicle_group.isVisibleTo(v)
    assert {face: box.value() for face, box in v._armour.items()} == {"front": 6, "side": 4, "rear": 3, "top": 2}
    v._armour["side"].setValue(5)
    v.accept()
    vehicle = session.game.unit("u11").vehicle
    assert vehicle is not None
    assert vehicle.armour == {"front": 6, "side": 5, "rear": 3, "top": 2}
    assert "Armour Dice front 6, side 5, rear 3, top 2" in session.game.log[-1].text
    assert session.undo_stack.count() == 3


def test_moving_a_unit_to_the_other_side_moves_its_card(qtbot: QtBot, host: QWidget, session: Session) -> None:
    panel = CardsPanel(session, host)
    d = dialog(qtbot, session, "u3")
    d.side.setCurrentIndex(1)
    d.accept()
    card = panel.card("u3")
    assert card is not None
    order = panel._order
    assert order.index(card) > order.index(panel.headers()[1])
    assert session.game.log[-1].text == "Edited sMG42 team: side Germany -> United States"


def test_a_blank_unit_can_be_a_vehicle(qtbot: QtBot, session: Session) -> None:
    d = dialog(qtbot, session)
    d.select_preset("")
    assert d.name.text() == ""
    d.name.setText("Jeep")
    d.kind.setCurrentIndex(d.kind.findData("vehicle"))
    d.category.setCurrentIndex(d.category.findData("apc"))
    d.open_topped.setChecked(True)
    d.accept()
    unit = session.game.unit(d.added_id or "")
    assert unit.kind == "vehicle" and unit.weapons == []
    assert unit.vehicle is not None and unit.vehicle.category == "apc" and unit.vehicle.open_topped


def test_a_refusal_from_the_game_is_shown_and_the_dialog_stays_open(qtbot: QtBot, session: Session) -> None:
    d = dialog(qtbot, session, "u7")
    d.name.setText("Gone")
    del session.game.units["u7"]
    d.accept()
    assert d.result() != d.DialogCode.Accepted
    assert "Not applied: That unit is no longer on the table (was it removed?)." in d.problems_label.text()
    assert session.undo_stack.count() == 0
