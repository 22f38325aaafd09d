"""A drag that needs an activation choice: the map's menu at the token, one undo step, or the token put back."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.rules.tables import resources_dir
from battletracker.ui.map import MapView
from battletracker.ui.session import Session

GRUPPE = "u1"
# The offscreen platform, popping up a menu.
pytestmark = pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing the keyboard")


@pytest.fixture
def session() -> Session:
    s = Session(savefile.load(resources_dir() / "demo" / "chain_of_command.json"))
    s.act("coc.command_dice", {}, [2, 4, 1, 3, 5])
    return s


@pytest.fixture
def view(qtbot: QtBot, session: Session) -> MapView:
    v = MapView(session)
    qtbot.addWidget(v)
    v.resize(1200, 800)
    v.show()
    qtbot.waitExposed(v)
    return v


def drag(view: MapView, start: tuple[float, float], end: tuple[float, float]) -> None:
    vp = view.viewport()
    a, b = view.mapFromScene(QPointF(*start)), view.mapFromScene(QPointF(*end))
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, a)
    for i in range(1, 7):
        QTest.mouseMove(vp, a + (b - a) * (i / 6))
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, b)


def test_a_drag_asks_how_the_unit_is_activated_and_the_pick_is_one_undo_step(
        qtbot: QtBot, view: MapView, session: Session) -> None:
    unit = session.game.unit(GRUPPE)
    steps = session.undo_stack.count()
    drag(view, (20.0, 10.0), (26.0, 13.0))
    menu = view.choice_menu
    assert menu is not None and menu.isVisible()
    assert (unit.x, unit.y) == (20.0, 10.0), "nothing moves until the way is picked"
    entries = [a for a in menu.actions() if a.objectName().startswith("choice_")]
    assert [a.objectName() for a in entries] == ["choice_dice:2"]
    QTest.mouseClick(menu, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     menu.actionGeometry(entries[0]).center())
    qtbot.waitUntil(lambda: not menu.isVisible())
    QApplication.processEvents()
    assert unit.x == pytest.approx(26.0, abs=0.1) and unit.y == pytest.approx(13.0, abs=0.1)
    assert session.game.sides[0].held_dice == [1, 3, 4]
    assert session.undo_stack.count() == steps + 1
    token = view.token(GRUPPE)
    assert token is not None and (token.x(), token.y()) == (unit.x, unit.y)
    session.undo_stack.undo()
    assert (unit.x, unit.y) == (20.0, 10.0)
    assert unit.activation is None and session.game.sides[0].held_dice == [1, 2, 3, 4]
    QApplication.processEvents()
    assert (token.x(), token.y()) == (20.0, 10.0)


def test_escape_on_the_menu_puts_the_token_back(qtbot: QtBot, view: MapView, session: Session) -> None:
    unit = session.game.unit(GRUPPE)
    steps = session.undo_stack.count()
    drag(view, (20.0, 10.0), (26.0, 13.0))
    menu = view.choice_menu
    assert menu is not None and menu.isVisible()
    token = view.token(GRUPPE)
    assert token is not None and token.x() > 25.0
    QTest.keyClick(menu, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: (token.x(), token.y()) == (20.0, 10.0))
    assert (unit.x, unit.y) == (20.0, 10.0)
    assert session.undo_stack.count() == steps
    assert session.game.sides[0].held_dice == [1, 2, 3, 4]
    # The next drag asks again.
    drag(view, (20.0, 10.0), (24.0, 12.0))
    assert view.choice_menu is not None and view.choice_menu.isVisible()
    view.choice_menu.close()
    qtbot.waitUntil(lambda: (token.x(), token.y()) == (20.0, 10.0))


def test_a_turn_of_the_tripod_mg_asks_too(qtbot: QtBot, view: MapView, session: Session) -> None:
    unit = session.game.unit("u3")
    view.session.select("u3")
    view._act(view.token("u3"), "unit.turn", {"unit": "u3", "facing": 150.0})  # noqa: SLF001 - the gesture's end
    menu = view.choice_menu
    assert menu is not None and menu.isVisible()
    entries = [a for a in menu.actions() if a.objectName().startswith("choice_")]
    assert [a.objectName() for a in entries] == ["choice_dice:1"]
    entries[0].trigger()
    menu.close()
    assert unit.facing == 150.0
    assert session.game.sides[0].held_dice == [2, 3, 4]
