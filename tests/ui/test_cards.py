"""Unit cards: every button is one undo step through the session, refusals change nothing."""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QToolButton
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.effects import ChangeCounter
from battletracker.model.effects import SetCondition
from battletracker.model.effects import add_shock
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.model.game import Weapon
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import plan
from battletracker.rules.chain_of_command import bombardment as bm
from battletracker.ui.cards import CardsPanel
from battletracker.ui.cards import UnitCard
from battletracker.ui.cards.panel import KEEP_BUILT
from battletracker.ui.session import Session
from tests.ui.refusals import assert_refusal


def show_panel(qtbot: QtBot, session: Session, height: int = 900) -> tuple[QWidget, CardsPanel]:
    """The panel inside a plain window, as in a dock (the offscreen platform warns about top-level size hints)."""
    host = QWidget()
    qtbot.addWidget(host)
    host.resize(380, height)
    widget = CardsPanel(session, host)
    widget.resize(380, height)
    host.show()
    qtbot.waitExposed(host)
    return host, widget


@pytest.fixture
def panel(qtbot: QtBot, session: Session) -> Iterator[CardsPanel]:
    host, widget = show_panel(qtbot, session)
    yield widget
    del host


def card_of(panel: CardsPanel, unit_id: str) -> UnitCard:
    card = panel.card(unit_id)
    assert card is not None
    return card


def button(card: UnitCard, name: str) -> QToolButton:
    found = card.findChild(QToolButton, name)
    assert found is not None, name
    return found


def label(card: UnitCard, name: str) -> QLabel:
    found = card.findChild(QLabel, name)
    assert found is not None, name
    return found


def click(qtbot: QtBot, widget: QToolButton) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def state(session: Session) -> dict[str, object]:
    return savefile.game_to_dict(session.game)


def test_shock_plus_changes_model_card_and_log_and_undo_restores_all(
        qtbot: QtBot, panel: CardsPanel, session: Session) -> None:
    before = state(session)
    card = card_of(panel, "u7")
    assert label(card, "value_shock").text() == "0"
    click(qtbot, button(card, "plus_shock"))
    click(qtbot, button(card, "plus_shock"))
    assert session.game.unit("u7").shock == 2
    assert label(card, "value_shock").text() == "2"
    assert session.game.log[-1].text == "Shock on 1st Squad: 1 -> 2"
    assert session.undo_stack.count() == 2
    session.undo_stack.undo()
    session.undo_stack.undo()
    assert state(session) == before
    assert label(card, "value_shock").text() == "0"


def test_shock_below_zero_is_refused_with_a_notice(qtbot: QtBot, panel: CardsPanel, session: Session) -> None:
    before = state(session)
    card = card_of(panel, "u7")
    with qtbot.waitSignal(panel.status_message) as signal:
        click(qtbot, button(card, "minus_shock"))
    assert "cannot remove 1" in signal.args[0]
    assert_refusal(panel.notice, "1st Squad has 0 shock")
    assert state(session) == before
    assert session.undo_stack.count() == 0


def test_spending_ammo_to_zero_then_again_is_refused_and_changes_nothing(
        qtbot: QtBot, panel: CardsPanel, session: Session) -> None:
    card = card_of(panel, "u4")
    assert label(card, "ammo_0").text() == "3/3 rounds"
    for _ in range(3):
        click(qtbot, button(card, "spend_0"))
    assert session.game.unit("u4").weapons[0].ammo == 0
    assert label(card, "ammo_0").text().startswith("0/3 rounds")
    assert session.game.log[-1].text == "Panzerschreck (Panzerschreck): 1 -> 0 rounds"
    after_three = state(session)
    with qtbot.waitSignal(panel.status_message) as signal:
        click(qtbot, button(card, "spend_0"))
    assert "no rounds left" in signal.args[0]
    assert "no rounds left" in panel.notice.text()
    assert state(session) == after_three
    assert session.undo_stack.count() == 3


def test_refill_puts_the_weapon_back_to_its_maximum_in_one_step(
        qtbot: QtBot, panel: CardsPanel, session: Session) -> None:
    card = card_of(panel, "u4")
    click(qtbot, button(card, "spend_0"))
    click(qtbot, button(card, "spend_0"))
    click(qtbot, button(card, "refill_0"))
    assert session.game.unit("u4").weapons[0].ammo == 3
    assert session.game.log[-1].text == "Panzerschreck (Panzerschreck) refilled: 1 -> 3 rounds"
    session.undo_stack.undo()
    assert session.game.unit("u4").weapons[0].ammo == 1
    assert label(card, "ammo_0").text() == "1/3 rounds"


def test_flamethrower_fuel_is_never_offered_a_refill_and_refused_if_asked(qtbot: QtBot, session: Session) -> None:
    """Flamethrowers "have fuel for three Phases of fire which cannot be resupplied"."""
    session.game.units["ft"] = Unit("ft", "Flamethrower", "team", 0, 20.0, 20.0, figures=2, figures_max=2,
                                    weapons=[Weapon("Flammenwerfer", "flamethrower", 45.0, [12.0], ammo=3,
                                                    ammo_max=3, ammo_label="fuel")])
    host, panel = show_panel(qtbot, session)
    card = card_of(panel, "ft")
    click(qtbot, button(card, "spend_0"))
    assert label(card, "ammo_0").text() == "2/3 fuel"
    assert card.findChild(QToolButton, "refill_0") is None
    assert card_of(panel, "u4").findChild(QToolButton, "refill_0") is not None
    before = state(session)
    with qtbot.waitSignal(panel.status_message) as signal:
        card._refill(0)
    assert "Flammenwerfer's fuel cannot be resupplied" in signal.args[0]
    assert state(session) == before and session.undo_stack.count() == 1
    with pytest.raises(Refusal, match="cannot be resupplied"):
        plan("unit.ammo", session.game, {"unit": "ft", "weapon": 0, "refill": True})
    del host


def test_rallying_the_last_shock_of_a_unit_left_behind_by_a_bombardment_unpins_it(
        qtbot: QtBot, session: Session) -> None:
    """It "remains Pinned until all Shock is rallied from it or the Bombardment ends"."""
    game = session.game
    game.apply_all(bm.new_bombardment(game, 0, (5.0, 5.0), (60.0, 5.0)))
    b = game.bombardments["b1"]
    b.state, b.pattern_die, b.phases_fired, b.pinned = "firing", 1, 1, ["u7"]
    game.units["u7"].conditions = ["pinned"]
    game.units["u7"].counters["shock"] = 2
    host, panel = show_panel(qtbot, session)
    card = card_of(panel, "u7")
    before = state(session)
    click(qtbot, button(card, "minus_shock"))
    assert game.unit("u7").has("pinned"), "one Shock left"
    click(qtbot, button(card, "minus_shock"))
    assert not game.unit("u7").has("pinned") and b.pinned == []
    assert game.log[-1].text == "1st Squad has rallied all its Shock outside the bombardment: no longer Pinned"
    session.undo_stack.undo()
    session.undo_stack.undo()
    assert state(session) == before
    del host


def test_a_unit_taken_to_no_figures_on_its_card_is_out_of_play_until_given_one_back(
        qtbot: QtBot, panel: CardsPanel, session: Session) -> None:
    before = state(session)
    card = card_of(panel, "u10")
    click(qtbot, button(card, "minus_figures"))
    leader = session.game.unit("u10")
    assert leader.figures == 0 and not leader.in_play and session.undo_stack.count() == 1
    assert session.game.log[-1].text == "Lt. Hayes has no figures left: out of play. Its side takes a Force Morale Test"
    click(qtbot, button(card, "plus_figures"))
    assert leader.figures == 1 and leader.in_play
    session.undo_stack.undo()
    session.undo_stack.undo()
    assert state(session) == before


def test_weapons_without_limited_ammo_have_no_ammo_row(panel: CardsPanel) -> None:
    card = card_of(panel, "u7")
    assert card.findChild(QToolButton, "spend_0") is None
    assert "M1 Garands" in label(card, "weapons").text()
    assert "BAR" in label(card, "weapons").text()


def test_figures_buttons_keep_within_full_strength(qtbot: QtBot, panel: CardsPanel, session: Session) -> None:
    card = card_of(panel, "u7")
    click(qtbot, button(card, "minus_figures"))
    assert label(card, "value_figures").text() == "11/12"
    assert session.game.log[-1].text == "Figures of 1st Squad: 12 -> 11 of 12"
    click(qtbot, button(card, "plus_figures"))
    click(qtbot, button(card, "plus_figures"))
    assert "cannot have more than 12 figures" in panel.notice.text()
    assert session.game.unit("u7").figures == 12


def test_other_counters_show_when_not_zero_and_step_like_shock(
        qtbot: QtBot, panel: CardsPanel, session: Session) -> None:
    card = card_of(panel, "u8")
    assert card.findChild(QToolButton, "plus_suppression") is None
    session.apply("Suppression", [ChangeCounter("u8", "suppression", 2)])
    click(qtbot, button(card, "minus_suppression"))
    assert session.game.unit("u8").counters["suppression"] == 1
    assert session.game.log[-1].text == "Suppression on 2nd Squad: 2 -> 1"
    click(qtbot, button(card, "minus_suppression"))
    qtbot.waitUntil(lambda: card.findChild(QToolButton, "plus_suppression") is None)


def test_condition_menu_toggles_conditions_as_undo_steps(panel: CardsPanel, session: Session) -> None:
    card = card_of(panel, "u7")
    menu = card.build_menu(full=False)
    names = [a.objectName() for a in menu.actions() if a.isCheckable()]
    assert names == ["condition_pinned", "condition_broken", "condition_suppressed", "condition_out_of_ammo"]
    pinned = next(a for a in menu.actions() if a.objectName() == "condition_pinned")
    pinned.trigger()
    assert session.game.unit("u7").conditions == ["pinned"]
    assert [c.text for c in card.chips.chips()] == ["Pinned"]
    assert card.chips.isVisibleTo(card)
    assert session.game.log[-1].text == "1st Squad is now Pinned"
    menu = card.build_menu(full=False)
    pinned = next(a for a in menu.actions() if a.objectName() == "condition_pinned")
    assert pinned.isChecked()
    pinned.trigger()
    assert session.game.unit("u7").conditions == []
    assert session.game.log[-1].text == "1st Squad is no longer Pinned"
    assert not card.chips.isVisibleTo(card)
    session.undo_stack.undo()
    assert [c.text for c in card.chips.chips()] == ["Pinned"]


def test_vehicle_card_shows_armour_and_damage_from_the_ruleset(panel: CardsPanel, session: Session) -> None:
    card = card_of(panel, "u11")
    assert label(card, "type").text() == "Vehicle · AFV"
    assert label(card, "armour").text() == "Armour Dice: front 6 · side 4 · rear 3 · top 2"
    menu = card.build_menu(full=True)
    damage = {a.objectName(): a for a in menu.actions() if a.objectName().startswith("damage_")}
    assert {"damage_engine_damage", "damage_immobilised", "damage_destroyed"} <= set(damage)
    assert "condition_abandoned" in [a.objectName() for a in menu.actions()]
    damage["damage_engine_damage"].trigger()
    assert session.game.unit("u11").vehicle is not None
    assert session.game.unit("u11").vehicle.damage == ["engine_damage"]
    assert [c.text for c in card.chips.chips()] == ["Engine Damage"]
    assert card.chips.chips()[0].tip.startswith("This vehicle cannot move Flat Out")
    assert session.game.log[-1].text == "Sherman 'Lucky': Engine Damage recorded"
    session.undo_stack.undo()
    assert card.chips.chips() == []


def test_unknown_conditions_read_as_words_and_can_be_cleared(panel: CardsPanel, session: Session) -> None:
    session.apply("Falling", [SetCondition("u9", "check_falling"), SetCondition("u9", "gone_to_ground")])
    card = card_of(panel, "u9")
    assert [c.text for c in card.chips.chips()] == ["Check falling", "Gone to ground"]
    menu = card.build_menu(full=False)
    gone = next(a for a in menu.actions() if a.objectName() == "condition_gone_to_ground")
    assert gone.isChecked()
    gone.trigger()
    assert session.game.unit("u9").conditions == ["check_falling"]


def test_clicking_a_card_selects_the_unit_and_selecting_highlights_the_card(
        qtbot: QtBot, panel: CardsPanel, session: Session) -> None:
    card = card_of(panel, "u2")
    qtbot.mouseClick(card, Qt.MouseButton.LeftButton, pos=QPoint(card.width() // 2, 4))
    assert session.selected == "u2"
    assert card.selected
    session.select("u11")
    assert not card.selected
    assert card_of(panel, "u11").selected
    session.select(None)
    assert not card_of(panel, "u11").selected


def test_selecting_a_unit_scrolls_its_card_into_view(qtbot: QtBot, panel: CardsPanel, session: Session) -> None:
    panel.parentWidget().resize(380, 260)
    panel.resize(380, 260)
    far = card_of(panel, "u11")
    qtbot.waitUntil(lambda: far.visibleRegion().isEmpty())
    session.select("u11")
    qtbot.waitUntil(lambda: not far.visibleRegion().isEmpty())
    top = far.mapTo(panel.scroll_area.viewport(), QPoint(0, 0)).y()
    assert top >= 0 and top + far.height() <= panel.scroll_area.viewport().height()


def test_selecting_a_unit_on_a_folded_side_unfolds_it(qtbot: QtBot, panel: CardsPanel, session: Session) -> None:
    header = panel.headers()[1]
    qtbot.mouseClick(header, Qt.MouseButton.LeftButton, pos=QPoint(40, 16))
    assert header.is_folded
    assert not card_of(panel, "u7").isVisibleTo(panel)
    session.select("u7")
    assert not header.is_folded
    assert card_of(panel, "u7").isVisibleTo(panel)


def test_only_the_touched_cards_update(monkeypatch: pytest.MonkeyPatch, panel: CardsPanel, session: Session) -> None:
    for unit_id in session.game.units:
        panel.card(unit_id)
    updated: list[str] = []
    original = UnitCard._update

    def spy(self: UnitCard, unit: Unit) -> None:
        updated.append(self.unit_id)
        original(self, unit)

    monkeypatch.setattr(UnitCard, "_update", spy)
    session.apply("Shock", [add_shock("u3", 1)])
    assert updated == ["u3"]


def test_remove_asks_then_is_one_undo_step_that_puts_the_unit_back_in_place(
        monkeypatch: pytest.MonkeyPatch, qtbot: QtBot, panel: CardsPanel, session: Session) -> None:
    before = state(session)
    order = list(session.game.units)
    asked: list[str] = []

    def answer(*args: object) -> QMessageBox.StandardButton:
        asked.append(str(args[2]))
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", answer)
    card = card_of(panel, "u3")
    remove = next(a for a in card.build_menu(full=True).actions() if a.objectName() == "remove")
    remove.trigger()
    assert "Remove sMG42 team" in asked[0]
    assert "u3" not in session.game.units
    assert panel.card("u3") is None
    assert session.undo_stack.count() == 1
    assert session.game.log[-1].text == "Removed sMG42 team (Support weapon, Germany) from the table"
    session.undo_stack.undo()
    assert list(session.game.units) == order
    assert state(session) == before
    restored = card_of(panel, "u3")
    assert label(restored, "name").text() == "sMG42 team"
    assert panel._order.index(restored) == panel._order.index(card_of(panel, "u2")) + 1


def test_remove_cancelled_changes_nothing(monkeypatch: pytest.MonkeyPatch, panel: CardsPanel,
                                          session: Session) -> None:
    monkeypatch.setattr(QMessageBox, "question", lambda *a: QMessageBox.StandardButton.No)
    panel.remove_unit("u3")
    assert "u3" in session.game.units
    assert session.undo_stack.count() == 0


def test_side_headers_show_and_step_force_morale_and_coc_points(
        qtbot: QtBot, panel: CardsPanel, session: Session) -> None:
    header = panel.headers()[0]
    value = header.findChild(QLabel, "value_force_morale")
    assert header.findChild(QLabel, "side_name").text() == "Germany"
    assert value.text() == "9"
    assert header.findChild(QLabel, "value_coc_points").text() == "1"
    assert header.findChild(QLabel, "side_count").text() == "6 units"
    click(qtbot, header.findChild(QToolButton, "plus_force_morale"))
    assert session.game.sides[0].force_morale == 10
    assert session.game.log[-1].text == "Force Morale of Germany: 9 -> 10"
    assert header.findChild(QLabel, "value_force_morale").text() == "10"
    minus_coc = header.findChild(QToolButton, "minus_coc_points")
    click(qtbot, minus_coc)
    click(qtbot, minus_coc)
    assert session.game.sides[0].coc_points == 0
    assert "cannot be negative" in panel.notice.text()
    session.undo_stack.undo()
    session.undo_stack.undo()
    assert header.findChild(QLabel, "value_force_morale").text() == "9"


def test_filter_hides_cards_whose_names_do_not_match(qtbot: QtBot, panel: CardsPanel) -> None:
    qtbot.keyClicks(panel.filter, "squad")
    shown = {u for u in ("u1", "u7", "u8", "u11") if card_of(panel, u).isVisibleTo(panel)}
    assert shown == {"u7", "u8"}
    panel.filter.clear()
    assert card_of(panel, "u1").isVisibleTo(panel)


def test_a_new_game_rebuilds_every_card(panel: CardsPanel, session: Session, demo_game: Game) -> None:
    other = copy.deepcopy(demo_game)
    other.units = {k: v for k, v in other.units.items() if v.side == 1}
    other.units["u7"].name = "Able Squad"
    session.replace_game(other, None)
    assert panel.card("u1") is None
    assert label(card_of(panel, "u7"), "name").text() == "Able Squad"
    assert panel.headers()[0].findChild(QLabel, "side_count").text() == "0 units"


def _big_game(demo: Game, n: int) -> Game:
    game = copy.deepcopy(demo)
    template = game.units["u4"]
    game.units = {}
    for i in range(n):
        unit = copy.deepcopy(template)
        unit.id = f"u{i + 1}"
        unit.name = f"Team {i + 1}"
        unit.side = i % 2
        game.units[unit.id] = unit
    return game


def test_the_cards_in_view_are_filled_in_first_and_those_just_below_on_the_next_round(
        qtbot: QtBot, session: Session) -> None:
    """The window's first paint waits only for the cards the player sees; the ones below come next."""
    host = QWidget()
    qtbot.addWidget(host)
    host.resize(380, 500)
    widget = CardsPanel(session, host)
    widget.resize(380, 500)
    host.show()
    widget._realise_timer.stop()
    widget._realise()
    height = widget.scroll_area.viewport().height()
    cards = [w for w in widget._order if isinstance(w, UnitCard)]
    in_view = [c for c in cards if c.geometry().top() < height]
    below = [c for c in cards if c.geometry().top() >= height]
    assert in_view and below
    assert all(c.built for c in in_view)
    assert not any(c.built for c in below), [c.unit_id for c in below if c.built]
    near = [c for c in below if c.geometry().top() < height + height // 2]
    assert near
    qtbot.waitUntil(lambda: all(c.built for c in near))


def test_five_hundred_units_fill_in_only_the_cards_in_view(
        qtbot: QtBot, session: Session, demo_game: Game) -> None:
    session.replace_game(_big_game(demo_game, 500), None)
    _host, widget = show_panel(qtbot, session)
    qtbot.wait(50)
    built = [c for c in widget._cards.values() if c.built]
    assert 0 < len(built) < 40
    session.select("u499")
    qtbot.waitUntil(lambda: not widget._cards["u499"].visibleRegion().isEmpty())
    assert sum(c.built for c in widget._cards.values()) < 80
    session.apply("Shock", [add_shock("u250", 1)])
    assert not widget._cards["u250"].built or label(widget._cards["u250"], "value_shock").text() == "1"
    assert label(card_of(widget, "u250"), "value_shock").text() == "1"



def test_cards_far_out_of_view_are_emptied_and_refill_with_current_values(
        qtbot: QtBot, session: Session, demo_game: Game) -> None:
    session.replace_game(_big_game(demo_game, 500), None)
    _host, widget = show_panel(qtbot, session)
    first = card_of(widget, "u1")
    bar = widget.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    for value in range(0, bar.maximum() + 1, max(1, bar.maximum() // 40)):
        bar.setValue(value)
        qtbot.wait(1)
    qtbot.waitUntil(lambda: not first.built)
    assert sum(c.built for c in widget._cards.values()) <= KEEP_BUILT + 20
    height = first.height()
    session.apply("Shock", [add_shock("u1", 3)])
    assert first.height() == height
    bar.setValue(0)
    qtbot.waitUntil(lambda: first.built)
    assert label(first, "value_shock").text() == "3"


@pytest.mark.qt_log_ignore("does not support propagateSizeHints")  # the offscreen platform, on showing a dialog
def test_double_click_opens_the_edit_dialog_for_that_unit(qtbot: QtBot, panel: CardsPanel) -> None:
    from battletracker.ui.unit_dialog import UnitDialog

    card = card_of(panel, "u8")
    qtbot.mouseDClick(card, Qt.MouseButton.LeftButton, pos=QPoint(card.width() // 2, 4))
    dialog = panel.findChild(UnitDialog)
    assert dialog is not None
    assert dialog.unit_id == "u8"
    assert dialog.name.text() == "2nd Squad"
    assert dialog.isModal()
    dialog.reject()


def test_other_rulesets_show_no_shock_or_chain_of_command_points(qtbot: QtBot) -> None:
    from battletracker.rules.tables import resources_dir

    session = Session(savefile.load(resources_dir() / "demo" / "armour_battles.json"))
    _host, panel = show_panel(qtbot, session)
    unit_id = next(iter(session.game.units))
    card = card_of(panel, unit_id)
    assert card.findChild(QLabel, "value_shock") is None
    assert card.findChild(QLabel, "value_figures") is not None
    assert all(not header.values_box.isVisibleTo(header) for header in panel.headers())


# -- cards built again after the features install ------------------------------------------------------------

def _in_view(panel: CardsPanel) -> list[UnitCard]:
    bar = panel.scroll_area.verticalScrollBar()
    height = panel.scroll_area.viewport().height()
    return [c for c in panel._order if isinstance(c, UnitCard) and not c.isHidden()
            and c.geometry().top() <= bar.value() + height and c.geometry().bottom() >= bar.value()]


def _settle(qtbot: QtBot, panel: CardsPanel) -> None:
    qtbot.wait(20)
    qtbot.waitUntil(lambda: not panel._realise_timer.isActive(), timeout=5000)
    qtbot.wait(20)


def _installed_with_cards_left_behind(qtbot: QtBot, session: Session,
                                      demo_game: Game) -> tuple[QWidget, CardsPanel]:
    """A long roster scrolled three screens down, then the features install: the cards filled in above wait
    to be built again until they come back into view."""
    session.replace_game(_big_game(demo_game, 200), None)
    host, panel = show_panel(qtbot, session, height=500)
    bar = panel.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    _settle(qtbot, panel)
    bar.setValue(bar.value() + 3 * panel.scroll_area.viewport().height())
    _settle(qtbot, panel)
    panel.sections_added()
    _settle(qtbot, panel)
    assert panel._stale and not panel._stale & set(_in_view(panel)), "those in view built again, the rest waiting"
    return host, panel


def test_cards_filled_in_for_the_first_time_are_never_sliced_while_others_wait(
        qtbot: QtBot, session: Session, demo_game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    from battletracker.ui.cards import panel as panel_module

    _host, panel = _installed_with_cards_left_behind(qtbot, session, demo_game)
    bar = panel.scroll_area.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    panel._realise_timer.stop()
    fresh = [c for c in _in_view(panel) if not c.built]
    assert len(fresh) > 1
    monkeypatch.setattr(panel_module, "REFILL_SLICE_S", 0.0)
    panel._realise()
    assert all(c.built for c in fresh), f"{sum(c.built for c in fresh)} of {len(fresh)} filled in in one turn"


def test_an_update_of_every_card_in_view_is_not_sliced_while_others_wait(
        qtbot: QtBot, session: Session, demo_game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    from battletracker.ui.cards import panel as panel_module

    _host, panel = _installed_with_cards_left_behind(qtbot, session, demo_game)
    shown = _in_view(panel)[0].unit_id
    session.act("unit.shock", {"unit": shown, "delta": 1})
    monkeypatch.setattr(panel_module, "REFILL_SLICE_S", 0.0)
    session.start_replay()  # every card is shown again at the game's start
    panel._realise_timer.stop()
    panel._realise()
    assert not [c.unit_id for c in _in_view(panel) if c._dirty], "every card in view up to date in one turn"
    assert label(card_of(panel, shown), "value_shock").text() == "0", "the replay's first step"
    session.stop_replay()


def test_a_change_to_a_card_waiting_out_of_view_updates_it_without_building_it(
        qtbot: QtBot, session: Session, demo_game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    _host, panel = _installed_with_cards_left_behind(qtbot, session, demo_game)
    far = next(iter(panel._stale))
    builds: list[str] = []
    build = UnitCard._build

    def counted(card: UnitCard) -> None:
        builds.append(card.unit_id)
        build(card)

    monkeypatch.setattr(UnitCard, "_build", counted)
    session.apply("Shock", [add_shock(far.unit_id, 1)])
    assert builds == [] and far in panel._stale, "built again only once it is in view"
    assert label(far, "value_shock").text() == str(session.game.unit(far.unit_id).shock)
    far_y = far.geometry().top()
    panel.scroll_area.verticalScrollBar().setValue(far_y)
    _settle(qtbot, panel)
    assert builds.count(far.unit_id) == 1 and far not in panel._stale


def test_a_card_filtered_out_when_the_features_install_is_built_again_once_shown(
        qtbot: QtBot, session: Session) -> None:
    _host, panel = show_panel(qtbot, session)
    _settle(qtbot, panel)
    qtbot.keyClicks(panel.filter, "no such unit")
    _settle(qtbot, panel)
    panel.sections_added()
    _settle(qtbot, panel)
    assert panel._stale, "filled in before, hidden now: left to build again"
    qtbot.keyClick(panel.filter, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(panel.filter, Qt.Key.Key_Backspace)
    assert panel.filter.text() == ""
    _settle(qtbot, panel)
    assert not panel._stale & set(_in_view(panel))
