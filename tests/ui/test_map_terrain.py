"""Terrain on the map, played with the mouse and keys: drawing, editing, the targets' marks, the sight ruler."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.terrain import TerrainPiece
from battletracker.rules.terrain_actions import terrain_choice
from battletracker.ui.map import MapView
from battletracker.ui.map.terrain_items import Rect
from battletracker.ui.map.terrain_items import TerrainItem
from battletracker.ui.session import Session
from tests.ui import test_map
from tests.ui.test_map import drag
from tests.ui.test_map import vp_point

WOOD_CORNERS = [(30.0, 15.0), (44.0, 15.0), (44.0, 22.0), (30.0, 22.0)]


# The small battle on a shown map, as tests/ui/test_map.py sets it up.
session = test_map.session
view = test_map.view


def click(view: MapView, x: float, y: float, button: Qt.MouseButton = Qt.MouseButton.LeftButton) -> None:
    QTest.mouseClick(view.viewport(), button, Qt.KeyboardModifier.NoModifier, vp_point(view, x, y))


def draw_wood(view: MapView) -> None:
    view.terrain_tools.start_drawing("woods")
    for x, y in WOOD_CORNERS:
        click(view, x, y)
    QTest.keyClick(view, Qt.Key.Key_Return)


def close_to(points: list[tuple[float, float]], expected: list[tuple[float, float]]) -> bool:
    return len(points) == len(expected) and all(
        abs(a[0] - b[0]) < 0.15 and abs(a[1] - b[1]) < 0.15 for a, b in zip(points, expected, strict=True))


def put_wood(session: Session) -> TerrainPiece:
    piece = TerrainPiece("ter1", "Copse", "woods", "area", list(WOOD_CORNERS))
    session.act("terrain.add", {"piece": terrain_choice(piece)})
    return piece


def test_drawing_a_wood_is_one_undo_step(view: MapView, session: Session) -> None:
    steps = session.undo_stack.count()
    draw_wood(view)
    [piece] = session.game.terrain.values()
    assert (piece.kind, piece.shape, piece.name) == ("woods", "area", "Woods 1")
    assert close_to(piece.points, WOOD_CORNERS)
    assert session.undo_stack.count() == steps + 1
    assert isinstance(view.map_scene.terrain.items[piece.id], TerrainItem)
    assert not view.terrain_tools.drawing
    session.undo_stack.undo()
    assert session.game.terrain == {}
    assert view.map_scene.terrain.items == {}


def test_a_hedge_is_finished_with_a_double_click_and_backspace_takes_back_a_point(view: MapView,
                                                                                    session: Session) -> None:
    view.terrain_tools.start_drawing("hedge")
    click(view, 10.0, 30.0)
    click(view, 20.0, 30.0)
    click(view, 22.0, 40.0)            # a point too many
    QTest.keyClick(view, Qt.Key.Key_Backspace)
    QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                      vp_point(view, 30.0, 32.0))
    [piece] = session.game.terrain.values()
    assert (piece.kind, piece.shape) == ("hedge", "linear")
    assert close_to(piece.points, [(10.0, 30.0), (20.0, 30.0), (30.0, 32.0)])
    session.undo_stack.undo()
    assert session.game.terrain == {}


def test_escape_cancels_a_drawing_with_nothing_applied(view: MapView, session: Session) -> None:
    steps = session.undo_stack.count()
    view.terrain_tools.start_drawing("woods")
    click(view, 30.0, 15.0)
    click(view, 44.0, 15.0)
    QTest.keyClick(view, Qt.Key.Key_Escape)
    assert not view.terrain_tools.drawing
    assert session.game.terrain == {} and session.undo_stack.count() == steps
    click(view, 20.0, 40.0)            # the next click is an ordinary click again
    assert session.game.terrain == {}


def finish_refused(view: MapView, qtbot: QtBot, words: str) -> None:
    """Enter on a shape the rules refuse: their words on the map's banner, with how to go on, and nothing drawn."""
    with qtbot.waitSignal(view.refused) as refused:
        QTest.keyClick(view, Qt.Key.Key_Return)
    assert refused.args == [words]
    banner = view.banner.text()
    assert view.banner.isVisible() and banner.startswith(words), banner
    assert "Backspace takes back a point" in banner and "Esc cancels" in banner
    assert view.banner.geometry().left() >= 0 and view.banner.geometry().right() <= view.viewport().width()
    assert view.terrain_tools.drawing and view.terrain_tools.sketch.isVisible()


def test_too_few_corners_are_refused_in_the_rules_words_and_the_corners_clicked_stay(view: MapView, session: Session,
                                                                                     qtbot: QtBot) -> None:
    steps = session.undo_stack.count()
    view.terrain_tools.start_drawing("woods")
    click(view, 30.0, 15.0)
    click(view, 44.0, 15.0)
    finish_refused(view, qtbot, "That terrain piece cannot be put on the table: Woods 1: an area needs at least 3 "
                                "corners, not 2.")
    assert session.game.terrain == {} and session.undo_stack.count() == steps
    assert close_to(view.terrain_tools.points, WOOD_CORNERS[:2])
    click(view, 44.0, 22.0)            # the corner missing, and the banner says how to draw again
    assert view.banner.text().startswith("Woods: click its corners")
    QTest.keyClick(view, Qt.Key.Key_Return)
    [piece] = session.game.terrain.values()
    assert close_to(piece.points, WOOD_CORNERS[:3]) and session.undo_stack.count() == steps + 1
    assert not view.terrain_tools.drawing and not view.banner.isVisible()


def test_corners_in_one_line_are_refused_and_backspace_takes_the_last_one_back(view: MapView, session: Session,
                                                                               qtbot: QtBot) -> None:
    view.terrain_tools.start_drawing("woods")
    for x in (30.0, 44.0, 37.0):       # along one row of the screen: no inside
        click(view, x, 15.0)
    finish_refused(view, qtbot, "That terrain piece cannot be put on the table: Woods 1: its corners are all in "
                                "one line; an area needs 3 corners that are not in a line.")
    assert len(view.terrain_tools.points) == 3 and session.game.terrain == {}
    QTest.keyClick(view, Qt.Key.Key_Backspace)
    click(view, 37.0, 22.0)
    QTest.keyClick(view, Qt.Key.Key_Return)
    [piece] = session.game.terrain.values()
    assert close_to(piece.points, [(30.0, 15.0), (44.0, 15.0), (37.0, 22.0)])


def test_escape_after_a_refusal_cancels_with_nothing_applied(view: MapView, session: Session, qtbot: QtBot) -> None:
    steps = session.undo_stack.count()
    view.terrain_tools.start_drawing("woods")
    click(view, 30.0, 15.0)
    finish_refused(view, qtbot, "That terrain piece cannot be put on the table: Woods 1: an area needs at least 3 "
                                "corners, not 1.")
    QTest.keyClick(view, Qt.Key.Key_Escape)
    assert not view.terrain_tools.drawing and not view.terrain_tools.sketch.isVisible()
    assert not view.banner.isVisible()
    assert session.game.terrain == {} and session.undo_stack.count() == steps


def test_a_double_click_on_the_only_point_of_a_hedge_keeps_it_for_the_next(view: MapView, session: Session,
                                                                           qtbot: QtBot) -> None:
    view.terrain_tools.start_drawing("hedge")
    click(view, 10.0, 30.0)
    with qtbot.waitSignal(view.refused) as refused:
        QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                          vp_point(view, 10.0, 30.0))
    assert refused.args == ["That terrain piece cannot be put on the table: Hedge 1: a line needs at least 2 "
                            "points, not 1."]
    assert view.terrain_tools.drawing and close_to(view.terrain_tools.points, [(10.0, 30.0)])
    QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                      vp_point(view, 20.0, 30.0))
    [piece] = session.game.terrain.values()
    assert close_to(piece.points, [(10.0, 30.0), (20.0, 30.0)])


def test_dragging_a_piece_moves_it_in_one_undo_step(view: MapView, session: Session) -> None:
    put_wood(session)
    steps = session.undo_stack.count()
    drag(view, vp_point(view, 33.0, 20.0), vp_point(view, 43.0, 25.0))
    moved = session.game.terrain["ter1"].points
    assert close_to(moved, [(x + 10.0, y + 5.0) for x, y in WOOD_CORNERS])
    assert session.undo_stack.count() == steps + 1
    session.undo_stack.undo()
    assert session.game.terrain["ter1"].points == WOOD_CORNERS
    assert view.map_scene.terrain.items["ter1"].points == WOOD_CORNERS


def test_dragging_a_corner_of_the_selected_piece_reshapes_it(view: MapView, session: Session) -> None:
    put_wood(session)
    click(view, 33.0, 20.0)
    assert view.map_scene.terrain.selected == "ter1"
    steps = session.undo_stack.count()
    drag(view, vp_point(view, 44.0, 22.0), vp_point(view, 48.0, 26.0))
    assert close_to(session.game.terrain["ter1"].points, [(30.0, 15.0), (44.0, 15.0), (48.0, 26.0), (30.0, 22.0)])
    assert session.undo_stack.count() == steps + 1


def _choose_in_menu(qtbot: QtBot, text: str) -> list[str]:
    """Click the entry `text` of the menu about to open (as a player would); returns the entries seen."""
    seen: list[str] = []

    def pick() -> None:
        menu = QApplication.activePopupWidget()
        assert isinstance(menu, QMenu)
        seen.extend(a.text() for a in menu.actions())
        [action] = [a for a in menu.actions() if a.text() == text]
        QTest.mouseClick(menu, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         menu.actionGeometry(action).center())

    QTimer.singleShot(150, pick)
    return seen


@pytest.mark.qt_log_ignore("This plugin does not support raise", "does not support grabbing the keyboard")
def test_removing_a_piece_from_its_right_click_menu(view: MapView, session: Session, qtbot: QtBot) -> None:
    put_wood(session)
    seen = _choose_in_menu(qtbot, "Remove Copse")
    click(view, 33.0, 20.0, Qt.MouseButton.RightButton)
    assert "Rename..." in seen and "Kind" in seen and "Cover" in seen
    assert session.game.terrain == {}
    session.undo_stack.undo()
    assert list(session.game.terrain) == ["ter1"]


def test_delete_removes_the_selected_piece_and_escape_only_lets_it_go(view: MapView, session: Session) -> None:
    put_wood(session)
    click(view, 33.0, 20.0)
    QTest.keyClick(view, Qt.Key.Key_Escape)
    assert view.map_scene.terrain.selected is None
    QTest.keyClick(view, Qt.Key.Key_Delete)
    assert list(session.game.terrain) == ["ter1"]
    click(view, 33.0, 20.0)
    QTest.keyClick(view, Qt.Key.Key_Delete)
    assert session.game.terrain == {}


def test_clicking_a_unit_in_a_wood_selects_the_unit_not_the_wood(view: MapView, session: Session) -> None:
    put_wood(session)
    session.act("unit.move", {"unit": "s1", "x": 37.0, "y": 18.0})
    click(view, 33.0, 20.0)
    click(view, 37.0, 18.0)
    assert session.selected == "s1" and view.map_scene.terrain.selected is None


def test_the_cover_menu_overrides_the_kind(view: MapView, session: Session) -> None:
    put_wood(session)
    menu = view.terrain_tools.piece_menu("ter1")
    [cover] = [a.menu() for a in menu.actions() if a.text() == "Cover"]
    [hard] = [a for a in cover.actions() if a.text() == "Hard"]
    hard.trigger()
    assert session.game.terrain["ter1"].cover == "hard"


def test_drawn_terrain_is_saved_and_opened_again(view: MapView, session: Session, tmp_path: Path) -> None:
    draw_wood(view)
    view.terrain_tools.start_drawing("wall")
    click(view, 5.0, 5.0)
    click(view, 5.0, 20.0)
    QTest.keyClick(view, Qt.Key.Key_Enter)
    path = tmp_path / "table.json"
    savefile.save(session.game, path)
    opened = savefile.load(path)
    assert [(p.kind, p.shape) for p in opened.terrain.values()] == [("woods", "area"), ("wall", "linear")]
    assert opened.terrain == session.game.terrain
    reopened = Session(opened)
    other = MapView(reopened)
    assert set(other.map_scene.terrain.items) == set(opened.terrain)


def test_a_wood_drawn_between_two_units_marks_the_target_unseen(view: MapView, session: Session) -> None:
    session.select("mg")                       # the sMG42 at (36, 10), the 1st Squad at (38, 26) in its arc
    marks = view.map_scene.target_marks
    reading = marks.reading("s1")
    assert reading is not None and reading.sight.clear and reading.letter == ""
    assert "s1" not in marks.marks or not marks.marks["s1"].isVisible()
    draw_wood(view)
    session.select("mg")
    reading = marks.reading("s1")
    assert reading is not None and not reading.sight.clear
    assert reading.sight.reason == 'No Line of Sight: more than 4" through Woods 1'
    assert marks.marks["s1"].isVisible()
    assert "Woods 1" in marks.marks["s1"].toolTip()
    session.undo_stack.undo()
    assert marks.reading("s1") is not None and marks.reading("s1").sight.clear  # type: ignore[union-attr]
    assert not marks.marks["s1"].isVisible()


def test_a_target_standing_in_crops_is_marked_with_its_cover(view: MapView, session: Session) -> None:
    crops = TerrainPiece("ter1", "Wheat", "crops", "area", [(35.0, 24.0), (41.0, 24.0), (41.0, 28.0), (35.0, 28.0)])
    session.act("terrain.add", {"piece": terrain_choice(crops)})
    session.select("mg")
    reading = view.map_scene.target_marks.reading("s1")
    assert reading is not None and reading.sight.clear and reading.letter == "L"
    assert reading.sentence() == "Line of Sight clear. Light cover: in Wheat."


def test_the_sight_ruler_reads_what_blocks_it(view: MapView, session: Session) -> None:
    put_wood(session)
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_L)
    assert view.terrain_tools.sight_mode
    drag(view, vp_point(view, 36.0, 10.0), vp_point(view, 38.0, 26.0))
    ruler = view.terrain_tools.ruler
    assert ruler.isVisible() and ruler.blocked
    assert view.terrain_tools.sight_text == '16.1" | No Line of Sight: more than 4" through Copse'
    assert session.game.units["mg"].x == 36.0          # the drag moved nothing
    drag(view, vp_point(view, 36.0, 10.0), vp_point(view, 20.0, 20.0))
    assert not ruler.blocked and view.terrain_tools.sight_text.endswith("Line of Sight clear")
    QTest.keyClick(view, Qt.Key.Key_Escape)
    assert not ruler.isVisible()
    QTest.keyClick(view, Qt.Key.Key_Escape)
    assert not view.terrain_tools.sight_mode


def test_the_sight_ruler_names_cover_at_its_end(view: MapView, session: Session) -> None:
    put_wood(session)
    view.terrain_tools.set_sight_mode(True)
    drag(view, vp_point(view, 36.0, 10.0), vp_point(view, 36.0, 16.0))
    assert view.terrain_tools.sight_text == '6.0" | Line of Sight clear | Light cover at the end: in Copse'


def test_a_unit_standing_on_a_walls_middle_leaves_the_walls_name_readable(view: MapView, session: Session) -> None:
    unit = next(iter(session.game.units.values()))
    wall = TerrainPiece("wall9", "Stone wall", "wall", "linear", [(unit.x - 6.0, unit.y), (unit.x + 6.0, unit.y)])
    session.act("terrain.add", {"piece": terrain_choice(wall)})
    scene = view.map_scene
    scene.layout_labels()
    scale = view.transform().m11()
    name = scene.terrain.items["wall9"].label_rect(scale)
    token = scene.tokens[unit.id]
    half_w, half_h = token.extent()
    body = (unit.x * scale - half_w * scale, unit.y * scale - half_h * scale,
            unit.x * scale + half_w * scale, unit.y * scale + half_h * scale)
    assert not (name[0] < body[2] and body[0] < name[2] and name[1] < body[3] and body[1] < name[3])


def test_the_walls_name_follows_the_unit_on_and_off_its_middle(view: MapView, session: Session) -> None:
    unit = next(iter(session.game.units.values()))
    x, y = unit.x, unit.y
    wall = TerrainPiece("wall9", "Stone wall", "wall", "linear", [(x - 6.0, y + 20.0), (x + 6.0, y + 20.0)])
    session.act("terrain.add", {"piece": terrain_choice(wall)})
    label = view.map_scene.terrain.items["wall9"].label
    assert (label.x(), label.y()) == pytest.approx((x, y + 20.0))
    session.act("unit.move", {"unit": unit.id, "x": x, "y": y + 20.0})
    assert (label.x(), label.y()) != pytest.approx((x, y + 20.0))
    session.act("unit.move", {"unit": unit.id, "x": x, "y": y})
    assert (label.x(), label.y()) == pytest.approx((x, y + 20.0))


def test_a_change_that_moves_nothing_places_no_terrain_name_again(view: MapView, session: Session,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from battletracker.ui.map import terrain_items

    unit = next(iter(session.game.units.values()))
    wall = TerrainPiece("wall9", "Stone wall", "wall", "linear", [(unit.x - 6.0, unit.y), (unit.x + 6.0, unit.y)])
    session.act("terrain.add", {"piece": terrain_choice(wall)})
    placed: list[Rect] = []
    original = terrain_items._covered
    monkeypatch.setattr(terrain_items, "_covered", lambda a, avoid: placed.append(a) or original(a, avoid))
    session.act("unit.shock", {"unit": unit.id, "delta": 1})
    assert placed == []
    far = max(session.game.units.values(), key=lambda u: abs(u.x - unit.x) + abs(u.y - unit.y))
    session.act("unit.move", {"unit": far.id, "x": far.x + 1.0, "y": far.y})  # nowhere near the wall's name
    assert placed == []
    session.act("unit.move", {"unit": unit.id, "x": unit.x + 1.0, "y": unit.y})
    assert placed
