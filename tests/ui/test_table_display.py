"""View > Table display...: the second screen follows the game at once, shows nothing the rules keep
from the opponent, never takes the laptop's keyboard, and its calibration is kept per screen and table.

With one screen (the offscreen laptop) the display opens as a window on the laptop's screen. The test
of the second screen runs under Xvfb with two X screens (`.ci/run` runs it so, with
BATTLETRACKER_TWO_SCREENS=1, which makes a missing second screen a failure rather than a skip):
`xvfb-run -a -s "-screen 0 1366x768x24 -screen 1 1280x720x24"`. Qt's xcb platform sees Xvfb's
`+xinerama` heads as one screen, so the screens are kept apart."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment_effects import UpdateBombardment
from battletracker.model.game import Game
from battletracker.ui.features.table_display.controls import CalibrationPad
from battletracker.ui.features.table_display.controls import DisplayControls
from battletracker.ui.features.table_display.display import DisplayWindow
from battletracker.ui.features.table_display.shapes import KIND_COLOURS
from battletracker.ui.features.table_display.shapes import SELECTED
from battletracker.ui.main_window import MainWindow
from battletracker.ui.map.items import text_item
from battletracker.ui.map.labels import PixmapLabel
from battletracker.ui.map.labels import chip
from battletracker.ui.session import Session

# The offscreen platform cannot raise a window or pass size hints on: what the laptop's screen does there.
pytestmark = pytest.mark.qt_log_ignore("does not support raise", "does not support propagateSizeHints")

SNIPER = "u9"       # the demo's American sniper, not spotted
MG = "u3"           # the German sMG42: an arc and range bands


@pytest.fixture
def battle(demo_game: Game) -> Game:
    """The demo battle with a rolling bombardment firing, its hidden die not yet revealed."""
    demo_game.bombardments["b1"] = Bombardment("b1", 1, state="firing", x=40.0, y=24.0, phases_left=3,
                                               phases_fired=1, pattern_die=5, direction="left", moves_left=2)
    return demo_game


@pytest.fixture
def window(qtbot: QtBot, battle: Game) -> Iterator[MainWindow]:
    session = Session(battle)
    main = MainWindow(session)
    qtbot.addWidget(main, before_close_func=lambda _w: session.undo_stack.setClean())
    main.show()
    main.feature_host.load()
    main.activateWindow()
    qtbot.waitUntil(main.isActiveWindow)
    yield main


def open_display(qtbot: QtBot, window: MainWindow) -> tuple[DisplayControls, DisplayWindow]:
    entry = next(a for a in window.feature_host.menu("view").actions() if a.objectName() == "table_display")
    assert entry.text() == "Table display..."
    entry.trigger()
    controls = next(c for c in window.findChildren(DisplayControls) if c.isVisible())
    qtbot.waitUntil(lambda: controls.display.isVisible())
    return controls, controls.display


def choose(qtbot: QtBot, box: QComboBox, text: str) -> None:
    """Pick an entry of a drop-down with the keyboard, as a player does."""
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Home)
    while box.currentText() != text:
        before = box.currentIndex()
        qtbot.keyClick(box, Qt.Key.Key_Down)
        assert box.currentIndex() != before, f"no entry {text!r}"


def test_the_display_opens_beside_the_laptop_and_never_takes_its_keyboard(qtbot: QtBot, window: MainWindow) -> None:
    controls, display = open_display(qtbot, window)
    laptop = window.screen()
    if len(QGuiApplication.screens()) < 2:
        assert display.screen() is laptop and not display.isFullScreen(), "one screen: a window on the laptop's"
    assert not display.isActiveWindow() and QGuiApplication.focusWindow() is not display.windowHandle()
    assert display.focusPolicy() == Qt.FocusPolicy.NoFocus and display.tv.focusPolicy() == Qt.FocusPolicy.NoFocus
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.map.setFocus()
    qtbot.keyClick(window.map, Qt.Key.Key_M)
    assert window.map.measure_mode, "the laptop's map still answers its keys"
    assert not display.isActiveWindow()
    controls.findChild(QPushButton, "display_close").click()
    qtbot.waitUntil(lambda: not display.isVisible())


def test_a_move_a_selection_and_a_bombardment_reach_the_display_in_the_same_turn(qtbot: QtBot,
                                                                              window: MainWindow) -> None:
    _controls, display = open_display(qtbot, window)
    session = window.session
    session.act("unit.move", {"unit": MG, "x": 44.0, "y": 16.0})
    QApplication.processEvents()
    token = display.tv.map_scene.tokens[MG]
    assert (token.x(), token.y()) == (44.0, 16.0)
    session.select(MG)
    QApplication.processEvents()
    assert display.tv.map_scene.wedge.isVisible() and display.tv.map_scene.rings.isVisible()
    assert display.tv.map_scene.tokens[MG].selected
    session.apply("Out of Phases", [UpdateBombardment("b1", (("state", "lingering"), ("linger_phases", 1)))])
    QApplication.processEvents()
    assert "area:b1" in display.bombardments.items
    assert display.bombardments.items["area:b1"].pen().style() == Qt.PenStyle.DashLine, "lingering, as on the laptop"


def test_the_projector_draws_the_overlays_on_black(qtbot: QtBot, window: MainWindow) -> None:
    controls, display = open_display(qtbot, window)
    choose(qtbot, controls.mode_box, "Projector above the table")
    assert display.projector.isVisible() and not display.tv.isVisible()
    colours = [s.colour.name() for s in display.projector.shapes]
    assert KIND_COLOURS["high_explosive"].name() in colours and SELECTED.name() not in colours
    window.session.select(MG)
    QApplication.processEvents()
    assert SELECTED.name() in [s.colour.name() for s in display.projector.shapes]
    picture = display.projector.grab().toImage()
    assert picture.pixelColor(2, 2).name() == "#000000", "black where nothing is drawn: no light on the table"


def test_a_dialogs_labels_keep_their_anchor_on_the_display(qtbot: QtBot, window: MainWindow) -> None:
    _controls, display = open_display(qtbot, window)
    laptop = window.map
    palette, font = laptop.map_scene.palette_, laptop.map_scene.label_font
    beside = PixmapLabel(font, (0.0, 1.0), (8.0, -6.0))                # a ruler's reading: up and right of its end
    beside.set_chips([chip('12.0"', palette.measure_text, palette.measure_back)])
    beside.setPos(30.0, 20.0)
    centred = text_item((40.0, 20.0), "Aiming point", font, palette.label_text, palette.label_back)
    laptop.set_overlay("test.labels", [beside, centred])
    QApplication.processEvents()
    copies = display.tv.map_scene.overlays["test.labels"]
    assert all(isinstance(c, PixmapLabel) for c in copies)
    assert [(c.text(), c.anchor, c.shift, (c.scenePos().x(), c.scenePos().y())) for c in copies] == [
        ('12.0"', (0.0, 1.0), (8.0, -6.0), (30.0, 20.0)), ("Aiming point", (0.5, 0.5), (0.0, 0.0), (40.0, 20.0))]
    copy = copies[0]
    assert isinstance(copy, PixmapLabel)
    assert (copy.offset().x(), copy.offset().y()) == (8.0, -copy.size_px[1] - 6.0), "its corner on the point"


def test_no_hidden_information_reaches_the_display_in_either_mode(qtbot: QtBot, window: MainWindow) -> None:
    controls, display = open_display(qtbot, window)
    session = window.session
    scene = display.tv.map_scene
    assert SNIPER not in scene.tokens, "an unspotted sniper's place is the owner's secret"
    assert display.public.game.bombardments["b1"].pattern_die is None
    assert not [k for k in display.bombardments.items if k.startswith("ghost")], "the rolling die not given away"
    session.select(SNIPER)
    QApplication.processEvents()
    assert not scene.wedge.isVisible() and not scene.rings.isVisible()
    choose(qtbot, controls.mode_box, "Projector above the table")
    assert SELECTED.name() not in [s.colour.name() for s in display.projector.shapes]
    assert all(s.dashed is False for s in display.projector.shapes), "no ghost of the rolling bombardment"
    session.act("coc.sniper_spotted", {"unit": SNIPER, "spotted": True})
    QApplication.processEvents()
    assert SNIPER in scene.tokens and SELECTED.name() in [s.colour.name() for s in display.projector.shapes]
    session.apply("The die is revealed", [UpdateBombardment("b1", (("revealed", True),))])
    QApplication.processEvents()
    assert display.public.game.bombardments["b1"].pattern_die == 5
    assert any(s.dashed for s in display.projector.shapes), "revealed: its later places show"


def test_calibration_moves_a_crosshair_by_keys_and_is_kept_per_screen_and_table(qtbot: QtBot,
                                                                                window: MainWindow) -> None:
    controls, display = open_display(qtbot, window)
    choose(qtbot, controls.mode_box, "Projector above the table")
    calibrate = controls.findChild(QPushButton, "display_calibrate")
    qtbot.mouseClick(calibrate, Qt.MouseButton.LeftButton)
    pad = controls.findChild(CalibrationPad)
    assert pad is not None and pad.isVisible() and display.projector.crosshairs == pad.corners
    assert display.pattern_shown and display.projector.pattern
    start = pad.corners[1]
    qtbot.keyClick(pad, Qt.Key.Key_2)
    qtbot.keyClick(pad, Qt.Key.Key_Right)
    qtbot.keyClick(pad, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    assert pad.corners[1] == (start[0] + 10.0, start[1] + 1.0)
    assert display.mapping is not None
    x, y = display.mapping.map((72.0, 0.0))
    assert (x, y) == pytest.approx(pad.corners[1]), "the table's top right corner is drawn under crosshair 2"
    qtbot.mouseClick(calibrate, Qt.MouseButton.LeftButton)
    assert not display.projector.crosshairs and not display.pattern_shown
    keys = [k for k in QSettings().allKeys() if k.startswith("table_display/corners/")]
    assert len(keys) == 1 and keys[0].endswith("/72x48")
    controls.close()
    again, _shown = open_display(qtbot, window)
    assert again.pad.corners[1] == pytest.approx((start[0] + 10.0, start[1] + 1.0), abs=0.01)


def test_with_two_screens_the_display_fills_the_other_one(qtbot: QtBot, window: MainWindow) -> None:
    if len(QGuiApplication.screens()) < 2:
        assert not os.environ.get("BATTLETRACKER_TWO_SCREENS"), "asked to run with two screens, and Qt sees one"
        pytest.skip('needs two screens: run under xvfb-run -a -s "-screen 0 1366x768x24 -screen 1 1280x720x24"')
    controls, display = open_display(qtbot, window)
    other = next(s for s in QGuiApplication.screens() if s is not window.screen())
    qtbot.waitUntil(display.isFullScreen)
    qtbot.waitUntil(lambda: display.geometry() == other.geometry())
    assert display.screen() is other
    window.session.act("unit.move", {"unit": MG, "x": 44.0, "y": 16.0})
    QApplication.processEvents()
    assert display.tv.map_scene.tokens[MG].pos().x() == 44.0
    assert QApplication.activeWindow() in (window, controls), "a laptop window keeps the keyboard"
    assert not display.isActiveWindow() and QGuiApplication.focusWindow() is not display.windowHandle()
