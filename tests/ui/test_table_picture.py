"""The table picture as a player uses it: View > Table Picture..., load, place by two clicks, fade, hide, undo."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtCore import QPointF
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QImage
from PySide6.QtGui import QPainter
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QFileDialog
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.model.backdrop import LONG_SIDE_PIXELS
from battletracker.model.backdrop import picture_bytes
from battletracker.model.backdrop import picture_size
from battletracker.ui.features.backdrop import BackdropDialog
from battletracker.ui.features.backdrop import TablePointDialog
from battletracker.ui.features.backdrop import read_picture
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session


@pytest.fixture
def window(qtbot: QtBot, session: Session, tmp_path: Path) -> MainWindow:
    win = MainWindow(session, Recovery(session, tmp_path / "recovery"))
    qtbot.addWidget(win, before_close_func=lambda _w: session.undo_stack.setClean())
    win.resize(1366, 768)
    win.show()
    win.feature_host.load()
    qtbot.waitExposed(win)
    return win


def photo(path: Path, width: int = 300, height: int = 200, fmt: str = "PNG") -> Path:
    """A photo-like picture: a green table with a dark wood in its top-left quarter."""
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor("#6f8f4a"))
    painter = QPainter(image)
    painter.fillRect(0, 0, width // 2, height // 2, QColor("#2f4a22"))
    painter.end()
    assert image.save(str(path), fmt)
    return path


def table_photo(path: Path, width: int = 1800, height: int = 1200) -> Path:
    """A photo-like picture of a table taken from above: floor around, felt, a road, woods, houses, speckle."""
    import random

    rng = random.Random(5)
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor("#8a7b66"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    m = width // 30
    painter.fillRect(m, m, width - 2 * m, height - 2 * m, QColor("#7c9a52"))
    for _ in range(6000):
        x, y = rng.randrange(m, width - m), rng.randrange(m, height - m)
        painter.fillRect(x, y, 3, 3, QColor(rng.randrange(90, 140), rng.randrange(120, 170), rng.randrange(60, 95)))
    painter.setPen(QColor("#b9a27a"))
    road = painter.pen()
    road.setWidth(height // 14)
    painter.setPen(road)
    painter.drawLine(m, height // 2, width - m, height // 3)
    painter.setPen(Qt.PenStyle.NoPen)
    for cx, cy, r in ((width // 4, height // 4, height // 7), (width * 3 // 4, height * 2 // 3, height // 6)):
        for _ in range(60):
            dx, dy = rng.uniform(-r, r), rng.uniform(-r, r)
            painter.setBrush(QColor(rng.randrange(30, 60), rng.randrange(70, 100), rng.randrange(25, 45)))
            painter.drawEllipse(int(cx + dx), int(cy + dy), r // 3, r // 3)
    painter.setBrush(QColor("#9a4a3a"))
    for x, y in ((width // 2, height // 5), (width // 2 + height // 9, height // 5 + height // 12)):
        painter.drawRect(x, y, height // 10, height // 14)
    painter.end()
    assert image.save(str(path), "JPEG", 90)
    return path


def open_dialog(window: MainWindow) -> BackdropDialog:
    (entry,) = [a for a in window.feature_host.menu("view").actions() if a.objectName() == "action-table-picture"]
    entry.trigger()
    dialog = window.findChild(BackdropDialog)
    assert dialog is not None and dialog.isVisible()
    return dialog


def load(qtbot: QtBot, dialog: BackdropDialog, monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *_a, **_k: (str(path), ""))
    qtbot.mouseClick(dialog.load_button, Qt.MouseButton.LeftButton)


def click_table(window: MainWindow, x: float, y: float) -> None:
    at: QPoint = window.map.mapFromScene(QPointF(x, y))
    QTest.mouseClick(window.map.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)


def type_point(qtbot: QtBot, dialog: BackdropDialog, across: str, down: str) -> None:
    point = dialog.point_dialog
    assert isinstance(point, TablePointDialog) and point.isVisible()
    for entry, text in ((point.across, across), (point.down, down)):
        entry.selectAll()
        qtbot.keyClicks(entry, text)
    qtbot.keyClick(point.down, Qt.Key.Key_Return)


def test_load_place_fade_hide_undo_save_and_reopen(qtbot: QtBot, window: MainWindow, session: Session,
                                                   monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    dialog = open_dialog(window)
    assert not dialog.place_button.isEnabled()
    steps = session.undo_stack.count()
    load(qtbot, dialog, monkeypatch, photo(tmp_path / "table.png"))
    b = session.game.backdrop
    assert b is not None and (b.name, b.width, b.height) == ("table.png", 300, 200)
    layer = window.map.map_scene.backdrop
    assert layer.shown and layer.item.pixmap().width() == 300
    assert layer.item.cacheMode() == layer.item.CacheMode.DeviceCoordinateCache
    assert session.undo_stack.count() == steps + 1

    # Place it: the photo was taken from the far side, so its top-left corner is the table's bottom-right.
    qtbot.mouseClick(dialog.place_button, Qt.MouseButton.LeftButton)
    assert window.map.picking
    click_table(window, 1.0, 1.0)
    assert dialog.point_dialog is not None and dialog.point_dialog.across.text() == "0"  # the nearest corner
    type_point(qtbot, dialog, "72", "48")
    assert window.map.picking
    click_table(window, 71.0, 47.0)
    type_point(qtbot, dialog, "0", "0")
    b = session.game.backdrop
    assert b is not None and b.rotation == pytest.approx(180.0, abs=2.0)
    assert session.undo_stack.count() == steps + 2
    near_corner = b.placement.to_table((300 / 72, 200 / 48))  # the pixel clicked first
    assert near_corner == pytest.approx((72.0, 48.0), abs=0.3)
    for pixel in ((0.0, 0.0), (300.0, 0.0), (120.0, 170.0)):  # the map draws each pixel where the rules put it
        drawn = layer.item.mapToScene(QPointF(*pixel))
        assert (drawn.x(), drawn.y()) == pytest.approx(b.placement.to_table(pixel))

    dialog.opacity.setValue(30)  # as a release of the slider's handle does
    assert session.game.backdrop.opacity == pytest.approx(0.3)
    assert layer.item.opacity() == pytest.approx(0.3)
    qtbot.mouseClick(dialog.show_box, Qt.MouseButton.LeftButton)
    assert not session.game.backdrop.visible and not layer.shown
    assert session.undo_stack.count() == steps + 4

    path = tmp_path / "with-picture.battle"
    assert window.files.save_to(path)
    for expected in (True, 0.6):
        session.undo_stack.undo()
        b = session.game.backdrop
        assert b is not None and (b.visible if expected is True else b.opacity) == expected
    session.undo_stack.undo()
    assert session.game.backdrop.rotation == 0.0
    session.undo_stack.undo()
    assert session.game.backdrop is None and not layer.shown

    session.undo_stack.setClean()
    assert window.files.open_path(path)
    reopened = session.game.backdrop
    assert reopened is not None and reopened.rotation == pytest.approx(180.0, abs=2.0)
    assert (reopened.opacity, reopened.visible) == (pytest.approx(0.3), False)
    assert session.undo_stack.count() >= 4, "the picture's steps can still be undone after reopening"
    session.undo_stack.undo()
    assert session.game.backdrop.visible and layer.shown


def test_escape_while_placing_changes_nothing(qtbot: QtBot, window: MainWindow, session: Session,
                                             monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    dialog = open_dialog(window)
    load(qtbot, dialog, monkeypatch, photo(tmp_path / "table.png"))
    before = savefile.dumps(session.game)
    qtbot.mouseClick(dialog.place_button, Qt.MouseButton.LeftButton)
    QTest.keyClick(window.map, Qt.Key.Key_Escape)
    assert not window.map.picking and savefile.dumps(session.game) == before
    qtbot.mouseClick(dialog.place_button, Qt.MouseButton.LeftButton)
    click_table(window, 2.0, 2.0)
    point = dialog.point_dialog
    assert point is not None
    qtbot.keyClick(point.across, Qt.Key.Key_Escape)
    assert dialog.point_dialog is None and not window.map.picking
    assert savefile.dumps(session.game) == before
    assert window.map.map_scene.backdrop.item.pos() == QPointF(0.0, 0.0)


def test_a_click_off_the_picture_asks_again(qtbot: QtBot, window: MainWindow, session: Session,
                                            monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    dialog = open_dialog(window)
    load(qtbot, dialog, monkeypatch, photo(tmp_path / "wide.png", 400, 100))  # 72" x 18", from 15" to 33" down
    qtbot.mouseClick(dialog.place_button, Qt.MouseButton.LeftButton)
    click_table(window, 10.0, 5.0)
    assert dialog.point_dialog is None and window.map.picking
    assert window.map.banner.text().startswith("That point is off the picture")
    click_table(window, 10.0, 20.0)
    assert dialog.point_dialog is not None
    qtbot.keyClick(dialog.point_dialog.across, Qt.Key.Key_Escape)
    assert session.game.backdrop is not None and session.game.backdrop.y == pytest.approx(15.0)


def test_the_same_point_twice_is_refused_in_words(qtbot: QtBot, window: MainWindow, session: Session,
                                                 monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    dialog = open_dialog(window)
    load(qtbot, dialog, monkeypatch, photo(tmp_path / "table.png"))
    before = savefile.dumps(session.game)
    qtbot.mouseClick(dialog.place_button, Qt.MouseButton.LeftButton)
    click_table(window, 30.0, 20.0)
    type_point(qtbot, dialog, "0", "0")
    click_table(window, 30.0, 20.0)
    type_point(qtbot, dialog, "72", "48")
    assert dialog.refusal.text().startswith("The two points on the picture are the same point")
    assert savefile.dumps(session.game) == before
    qtbot.mouseClick(dialog.place_button, Qt.MouseButton.LeftButton)
    click_table(window, 2.0, 2.0)
    point = dialog.point_dialog
    assert point is not None
    point.across.selectAll()
    qtbot.keyClicks(point.across, "left")
    qtbot.keyClick(point.across, Qt.Key.Key_Return)
    assert point.isVisible() and point.refusal.text() == "Type the distance across in inches, such as 36 or 12.5."
    qtbot.keyClick(point.across, Qt.Key.Key_Escape)
    assert savefile.dumps(session.game) == before


def test_a_refused_point_shows_its_words_whole(qtbot: QtBot, window: MainWindow,
                                              monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The point dialog grows to show the refusal: no line of it, nor of the question, is cut off."""
    dialog = open_dialog(window)
    load(qtbot, dialog, monkeypatch, photo(tmp_path / "table.png"))
    qtbot.mouseClick(dialog.place_button, Qt.MouseButton.LeftButton)
    click_table(window, 2.0, 2.0)
    point = dialog.point_dialog
    assert point is not None
    point.across.selectAll()
    qtbot.keyClicks(point.across, "left")
    qtbot.keyClick(point.across, Qt.Key.Key_Return)
    QApplication.processEvents()
    assert point.refusal.isVisible()
    assert cut_labels(point) == []
    qtbot.keyClick(point.across, Qt.Key.Key_Escape)


def test_the_picture_dialog_grows_for_a_refusal_and_a_longer_summary(qtbot: QtBot, window: MainWindow,
                                                                      monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    dialog = open_dialog(window)
    load(qtbot, dialog, monkeypatch, photo(tmp_path / "table.png"))
    qtbot.mouseClick(dialog.remove_button, Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    assert dialog.summary.text().startswith("No picture.") and cut_labels(dialog) == []
    text = tmp_path / "notes.png"
    text.write_text("not a picture at all", encoding="utf-8")
    load(qtbot, dialog, monkeypatch, text)
    QApplication.processEvents()
    assert dialog.refusal.isVisible() and cut_labels(dialog) == []


def cut_labels(dialog: QWidget) -> list[str]:
    """Wrapped labels shown shorter than their lines need."""
    return [label.text() for label in dialog.findChildren(QLabel)
            if label.isVisible() and label.wordWrap() and label.height() < label.heightForWidth(label.width())]


def test_files_that_are_no_picture_are_refused_and_nothing_changes(qtbot: QtBot, window: MainWindow,
                                                                   session: Session,
                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    dialog = open_dialog(window)
    text = tmp_path / "notes.png"
    text.write_text("not a picture at all", encoding="utf-8")
    folder = tmp_path / "folder.jpg"
    folder.mkdir()
    before = savefile.dumps(session.game)
    for path, words in ((text, "notes.png is not a picture BattleTracker can read: load a PNG or JPEG file."),
                        (folder, "folder.jpg is not a picture file."),
                        (tmp_path / "gone.png", "gone.png cannot be read: No such file or directory.")):
        load(qtbot, dialog, monkeypatch, path)
        assert dialog.refusal.text() == words
        assert savefile.dumps(session.game) == before
    big = tmp_path / "huge.jpg"
    with big.open("wb") as fh:
        fh.truncate(81 * 1024 * 1024)
    load(qtbot, dialog, monkeypatch, big)
    assert dialog.refusal.text().startswith("huge.jpg is 81 MB: a table picture can be at most 80 MB.")
    assert savefile.dumps(session.game) == before
    load(qtbot, dialog, monkeypatch, photo(tmp_path / "ok.png"))
    assert dialog.refusal.isHidden() and session.game.backdrop is not None


def test_a_large_photo_is_shrunk_to_the_long_side_and_kept_small(tmp_path: Path, qapp: QApplication) -> None:
    image = QImage(3000, 2000, QImage.Format.Format_RGB32)
    for y in range(0, 2000, 40):
        for x in range(0, 3000, 40):
            image.setPixelColor(x, y, QColor((x * 7) % 256, (y * 3) % 256, (x + y) % 256))
    painter = QPainter(image)
    for i in range(300):
        painter.fillRect((i * 97) % 3000, (i * 61) % 2000, 37, 23, QColor((i * 40) % 256, (i * 90) % 256, i % 256))
    painter.end()
    path = tmp_path / "big.jpg"
    assert image.save(str(path), "JPEG", 95)
    data = read_picture(path)
    assert picture_size(data) == (LONG_SIDE_PIXELS, round(LONG_SIDE_PIXELS * 2 / 3))
    assert len(data) < 2 * 1024 * 1024


def test_a_damaged_picture_in_a_game_is_said_and_not_drawn(qtbot: QtBot, window: MainWindow, session: Session,
                                                          tmp_path: Path) -> None:
    data = read_picture(photo(tmp_path / "t.png"))
    cut = data[:40]  # the header says 300 x 200, the pixels are gone
    from battletracker.model.backdrop import picture_text

    session.act("backdrop.set", {"image": picture_text(cut), "name": "cut.png"})
    assert picture_bytes(session.game.backdrop.image) == cut
    assert window.map.map_scene.backdrop.damaged and not window.map.map_scene.backdrop.shown
    assert "damaged" in window.statusBar().currentMessage()


def test_place_by_two_clicks_and_the_distance_measured_between_them(
        qtbot: QtBot, window: MainWindow, session: Session, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    dialog = open_dialog(window)
    assert not dialog.measure_button.isEnabled()
    load(qtbot, dialog, monkeypatch, photo(tmp_path / "table.png"))     # fitted: 0.24" a pixel, from (0, 0)
    before, steps = savefile.dumps(session.game), session.undo_stack.count()
    qtbot.mouseClick(dialog.measure_button, Qt.MouseButton.LeftButton)
    assert window.map.picking and window.map.banner.text().startswith("Click one end of what you measured")
    click_table(window, 12.0, 24.0)                                     # pixel (50, 100)
    assert dialog.point_dialog is None and window.map.picking
    click_table(window, 60.0, 24.0)                                     # pixel (250, 100): 200 pixels on
    asked = dialog.point_dialog
    assert isinstance(asked, TablePointDialog) and asked.distance is not None and asked.isVisible()
    assert (asked.across.text(), asked.down.text()) == ("12", "24")     # where the picture puts it now
    qtbot.keyClicks(asked.distance, "a yard")
    qtbot.keyClick(asked.distance, Qt.Key.Key_Return)
    assert asked.isVisible() and "Type the distance between the two points in inches" in asked.refusal.text()
    assert savefile.dumps(session.game) == before

    asked.distance.selectAll()
    qtbot.keyClicks(asked.distance, '36"')
    for entry, text in ((asked.across, "10"), (asked.down, "20")):
        entry.selectAll()
        qtbot.keyClicks(entry, text)
    qtbot.keyClick(asked.down, Qt.Key.Key_Return)
    b = session.game.backdrop
    assert b is not None and b.rotation == 0.0 and session.undo_stack.count() == steps + 1
    assert b.scale == pytest.approx(0.18, rel=0.02)
    assert math.dist(b.placement.to_table((50.0, 100.0)), b.placement.to_table((250.0, 100.0))) == pytest.approx(
        36.0, abs=0.5)
    assert b.placement.to_table((50.0, 100.0)) == pytest.approx((10.0, 20.0), abs=0.15)
    assert session.game.log[-1].text.startswith('Table picture placed by two points 36" apart, the first at (10", 20")')
    assert dialog.isVisible() and not window.map.picking
    session.undo_stack.undo()
    assert savefile.dumps(session.game) == before


@pytest.mark.parametrize("typed", ["0", "0.2", "-36"])
def test_a_measured_distance_too_short_is_refused_in_place_and_keeps_the_two_clicks(
        qtbot: QtBot, window: MainWindow, session: Session, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        typed: str) -> None:
    """A slip of the keys (0 for 30) is refused where it was typed, naming the least distance, and the player
    types again without clicking both ends on the map once more."""
    dialog = open_dialog(window)
    load(qtbot, dialog, monkeypatch, photo(tmp_path / "table.png"))
    before = savefile.dumps(session.game)
    qtbot.mouseClick(dialog.measure_button, Qt.MouseButton.LeftButton)
    click_table(window, 12.0, 24.0)
    click_table(window, 60.0, 24.0)
    asked = dialog.point_dialog
    assert isinstance(asked, TablePointDialog) and asked.distance is not None
    qtbot.keyClicks(asked.distance, typed)
    qtbot.keyClick(asked.distance, Qt.Key.Key_Return)
    assert dialog.point_dialog is asked and asked.isVisible()
    assert asked.refusal.text() == ('The two points must be at least 0.5" apart on the table: measure between two '
                                    "points far apart, such as the ends of a long wall.")
    assert savefile.dumps(session.game) == before and dialog.refusal.isHidden()
    asked.distance.selectAll()
    qtbot.keyClicks(asked.distance, "36")
    qtbot.keyClick(asked.distance, Qt.Key.Key_Return)
    b = session.game.backdrop
    assert b is not None and math.dist(b.placement.to_table((50.0, 100.0)),
                                       b.placement.to_table((250.0, 100.0))) == pytest.approx(36.0, abs=0.5)
