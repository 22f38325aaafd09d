"""Every dialog and panel fits a 1366x768 laptop screen, and nothing in it is cut off.

The window is opened at 1366x768 with 1366x700 of the screen free (a task bar or
panel takes the rest); each dialog is opened the way a player opens it, from the
window's menus, a unit's actions or the Bombardments dock, and must open, and be
able to shrink, within that room, with every one-line label shown whole.

Set BT_SCREENSHOTS to a folder to save a picture of the screen with each dialog
open (run under `xvfb-run -a -s "-screen 0 1366x768x24"`), in the palette BT_SCHEME
names (light or dark).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtCore import QRect
from PySide6.QtCore import QSize
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QAbstractScrollArea
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QScrollArea
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.rules.tables import resources_dir
from battletracker.ui import fit
from battletracker.ui.extensions import all_unit_actions
from battletracker.ui.extensions import unit_action
from battletracker.ui.gc_pause import top_level_widgets
from battletracker.ui.main_window import MainWindow
from battletracker.ui.session import Session

SCREEN = QSize(1366, 768)
ROOM = QSize(1366, 700)
DEMOS = ("chain_of_command", "armour_battles", "necromunda")


@pytest.fixture(autouse=True)
def laptop_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """The free part of a 1366x768 screen, whatever screen the tests run on."""
    monkeypatch.setattr(fit, "available_geometry", lambda _widget=None: QRect(QPoint(0, 0), ROOM))


def open_window(qtbot: QtBot, demo: str) -> MainWindow:
    if os.environ.get("BT_SCREENSHOTS"):
        from battletracker.ui.theme import apply_scheme

        apply_scheme(QApplication.instance(), os.environ.get("BT_SCHEME"))  # type: ignore[arg-type]
    session = Session(savefile.load(resources_dir() / "demo" / f"{demo}.json"))
    window = MainWindow(session)
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.show()
    window.showNormal()
    window.resize(SCREEN)
    window.feature_host.load()
    qtbot.waitExposed(window)
    return window


def clipped_labels(widget: QWidget) -> list[str]:
    """One-line labels shown narrower than their text."""
    return [f"{label.text()!r}: {label.width()} < {label.sizeHint().width()}"
            for label in widget.findChildren(QLabel)
            if label.isVisibleTo(widget) and not label.wordWrap() and label.text()
            and label.sizeHint().width() > label.width()]


def fits(dialog: QWidget) -> None:
    """The dialog opens, and can be made, within the free part of the screen; no label is cut off."""
    QApplication.processEvents()
    name = dialog.windowTitle() or type(dialog).__name__
    frame = dialog.frameGeometry().size()
    assert frame.width() <= ROOM.width() and frame.height() <= ROOM.height(), f"{name} opens at {frame}"
    for what, size in (("size hint", dialog.sizeHint()), ("minimum size", dialog.minimumSize()),
                       ("smallest layout", dialog.minimumSizeHint())):
        assert size.width() <= ROOM.width() and size.height() <= ROOM.height(), f"{name}'s {what} is {size}"
    layout = dialog.layout()
    if layout is not None:
        smallest = layout.totalMinimumSize()
        assert frame.width() >= smallest.width() and frame.height() >= smallest.height(), f"{name} squeezed"
    assert clipped_labels(dialog) == [], name
    sideways = [type(area).__name__ for area in dialog.findChildren(QAbstractScrollArea)
                if area.isVisibleTo(dialog) and area.horizontalScrollBar().isVisibleTo(dialog)]
    assert sideways == [], f"{name} scrolls sideways"
    shot(dialog, name)


def shot(dialog: QWidget, name: str) -> None:
    folder = os.environ.get("BT_SCREENSHOTS")
    if folder:
        screen = QApplication.primaryScreen()
        QApplication.processEvents()
        screen.grabWindow(0).save(str(Path(folder) / f"{name.replace('/', '-').replace(' ', '_')}.png"))


def new_dialogs(action: Callable[[], object]) -> list[QDialog]:
    """The dialogs that a non-blocking action leaves open."""
    before = set(top_level_widgets())
    action()
    QApplication.processEvents()
    return [w for w in top_level_widgets()
            if w not in before and isinstance(w, QDialog) and w.isVisible()]


def check_modal(action: Callable[[], object], check: Callable[[QDialog], None] = fits) -> None:
    """Run an action that blocks on a modal dialog: check the dialog, then cancel it.

    `look` calls itself through a timer, so it and what it holds are a reference cycle, freed
    only by a collection; it keeps the dialog's title, never the dialog, which Python owns once
    it has run (gc_pause.py says what a collection deleting it can do).
    """
    seen: list[str] = []

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QDialog):
            QTimer.singleShot(20, look)
            return
        seen.append(dialog.windowTitle())
        try:
            check(dialog)
        finally:
            dialog.reject()
    QTimer.singleShot(0, look)
    action()
    assert seen, "no dialog opened"


def close_all(dialogs: list[QDialog]) -> None:
    for dialog in dialogs:
        dialog.done(0)
    QApplication.processEvents()


@pytest.fixture
def windows(qtbot: QtBot) -> Iterator[dict[str, MainWindow]]:
    yield {demo: open_window(qtbot, demo) for demo in DEMOS}


@pytest.mark.parametrize("demo", DEMOS)
def test_every_unit_action_dialog_fits(qtbot: QtBot, demo: str) -> None:
    window = open_window(qtbot, demo)
    game = window.session.game
    opened = 0
    for action in all_unit_actions():
        unit = next((u for u in game.units.values() if action.available(game, u)), None)
        if unit is None:
            continue
        dialogs = new_dialogs(lambda a=action.key, u=unit.id: window.feature_host.run_unit_action(a, u))
        for dialog in dialogs:
            fits(dialog)
            opened += 1
        close_all(dialogs)
    assert opened >= {"chain_of_command": 2, "armour_battles": 3, "necromunda": 1}[demo]


def test_grenade_dialogs_fit_even_with_no_vehicle_near(qtbot: QtBot) -> None:
    """The demo puts no vehicle within a grenade's reach; the dialogs open all the same and say so."""
    window = open_window(qtbot, "chain_of_command")
    for key in ("coc.at_grenade", "coc.grenade_into_vehicle"):
        dialogs = new_dialogs(lambda k=key: unit_action(k).run(window.feature_host, "u1"))
        assert dialogs, key
        fits(dialogs[0])
        close_all(dialogs)


def test_the_window_opens_large_on_a_laptop(qtbot: QtBot) -> None:
    session = Session(savefile.load(resources_dir() / "demo" / "chain_of_command.json"))
    window = MainWindow(session)
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    size = window.size()
    assert window.isMaximized() or (ROOM.width() * 0.85 <= size.width() <= ROOM.width()
                                    and ROOM.height() * 0.85 <= size.height() <= ROOM.height()), size
    assert window.minimumSize().width() <= ROOM.width() and window.minimumSize().height() <= ROOM.height()


def test_menu_dialogs_fit(qtbot: QtBot) -> None:
    window = open_window(qtbot, "chain_of_command")
    dialogs = new_dialogs(window.dice_action.trigger)
    assert dialogs
    fits(dialogs[0])
    close_all(dialogs)

    def settings(dialog: QDialog) -> None:
        fits(dialog)
        for area in dialog.findChildren(QScrollArea):
            assert not area.horizontalScrollBar().isVisible()
    check_modal(window.settings_action.trigger, settings)
    check_modal(window.new_action.trigger)
    window.session.select(next(iter(window.session.game.units)))
    for action in (window.add_unit_action, window.edit_unit_action):
        dialogs = new_dialogs(action.trigger)
        assert dialogs
        fits(dialogs[0])
        close_all(dialogs)
    dialogs = new_dialogs(window.guide_action.trigger)
    assert dialogs
    fits(dialogs[0])
    close_all(dialogs)

    def about(box: QDialog) -> None:
        frame = box.frameGeometry().size()
        assert frame.width() <= ROOM.width() and frame.height() <= ROOM.height()
        shot(box, "About")
    check_modal(lambda: window.about(), about)


def test_arsenal_and_recovery_list_fit(qtbot: QtBot) -> None:
    from battletracker.ui.features.anti_tank import open_arsenal
    from battletracker.ui.recovery import Orphan
    from battletracker.ui.recovery_dialog import RecoveryDialog

    window = open_window(qtbot, "chain_of_command")
    dialogs = new_dialogs(lambda: open_arsenal(window))
    assert dialogs
    fits(dialogs[0])
    close_all(dialogs)
    from datetime import datetime

    from PySide6.QtCore import QLockFile

    orphans = [Orphan(f"-{n}", window.session.game, datetime(2026, 11, 30, 20, n), None, None,
                      QLockFile(str(Path(os.environ["HOME"]) / f"lock{n}"))) for n in range(3)]
    check_modal(lambda: RecoveryDialog(orphans, window).exec())


def test_bombardment_dialogs_fit(qtbot: QtBot) -> None:
    from battletracker.ui.features.bombardments import BombardmentsPanel

    window = open_window(qtbot, "chain_of_command")
    panel = window.findChild(BombardmentsPanel)
    assert panel is not None
    for button in (panel.new_button, panel.sos_button, panel.building_button):
        dialogs = new_dialogs(button.click)
        assert dialogs
        fits(dialogs[0])
        close_all(dialogs)
    assert panel.place_bombardment(0, "high_explosive", 3, (24.0, 38.0), (30.0, 20.0))
    (bid,) = window.session.game.bombardments
    for opener in (panel.open_ranging, panel.open_pattern, panel.open_phase):
        dialogs = new_dialogs(lambda o=opener: o(bid))
        assert dialogs
        fits(dialogs[0])
        close_all(dialogs)
    dialogs = new_dialogs(lambda: panel.create_sos(0, (22.0, 38.0)))
    assert dialogs
    fits(dialogs[0])
    close_all(dialogs)


def test_the_units_dock_keeps_the_sides_row_readable(qtbot: QtBot) -> None:
    window = open_window(qtbot, "chain_of_command")
    from battletracker.ui.cards.header import SideHeader

    headers = window.cards.findChildren(SideHeader)
    assert headers
    for width in (330, 260, 230):
        window.resizeDocks([window.cards_dock], [width], Qt.Orientation.Horizontal)
        QApplication.processEvents()
        for header in headers:
            assert header.height() >= header.minimumSizeHint().height(), header.height()
            assert header.height() >= header.heightForWidth(header.width()), header.height()
            for row in header.findChildren(QWidget):
                layout = row.layout()
                if row.isVisibleTo(header) and layout is not None:
                    need = layout.heightForWidth(row.width()) if layout.hasHeightForWidth() \
                        else layout.minimumSize().height()
                    assert row.height() >= need, (width, row.height(), need)
        assert clipped_labels(header) == []


def test_a_dialog_steps_aside_while_picking_on_the_map(qtbot: QtBot) -> None:
    from battletracker.ui.features.armour_battles.indirect import IndirectFireDialog

    window = open_window(qtbot, "armour_battles")
    dialogs = new_dialogs(lambda: window.feature_host.run_unit_action("ab.indirect_fire", "stuh"))
    (dialog,) = [d for d in dialogs if isinstance(d, IndirectFireDialog)]
    place = dialog.pos()
    qtbot.mouseClick(dialog.pick_aim, Qt.MouseButton.LeftButton)
    assert window.map.picking and not dialog.isVisible()
    qtbot.keyClick(window.map, Qt.Key.Key_Escape)
    assert not window.map.picking and dialog.isVisible() and dialog.pos() == place


def shown_whole(widget: QWidget, dialog: QWidget) -> bool:
    """`widget` lies wholly inside every scroll area around it in `dialog`, so nothing of it needs scrolling to."""
    parent = widget.parentWidget()
    while parent is not None and parent is not dialog:
        if isinstance(parent, QAbstractScrollArea):
            viewport = parent.viewport()
            top_left = widget.mapTo(viewport, QPoint(0, 0))
            if not viewport.rect().contains(QRect(top_left, widget.size())):
                return False
        parent = parent.parentWidget()
    return True


def test_the_shoot_dialogs_apply_stays_in_reach_after_the_roll(qtbot: QtBot) -> None:
    """Beside the map the columns go one above the other and scroll; Apply and Close stay below them."""
    from battletracker.ui.features.necromunda.shoot_dialog import ShootDialog

    window = open_window(qtbot, "necromunda")
    shooter = next(u.id for u in window.session.game.units.values() if unit_action("necromunda.shoot").available(
        window.session.game, u))
    dialogs = new_dialogs(lambda: window.feature_host.run_unit_action("necromunda.shoot", shooter))
    (dialog,) = [d for d in dialogs if isinstance(d, ShootDialog)]
    fits(dialog)
    qtbot.mouseClick(dialog.runner.roll_button, Qt.MouseButton.LeftButton)
    assert dialog.apply_button.isEnabled()
    room = QRect(QPoint(0, 0), ROOM)
    assert room.contains(QRect(dialog.apply_button.mapToGlobal(QPoint(0, 0)), dialog.apply_button.size()))
    assert shown_whole(dialog.apply_button, dialog), "Apply scrolls with the result"
    for area in dialog.findChildren(QScrollArea):
        inner = area.widget()
        assert inner is None or inner.width() <= area.viewport().width(), "a column is cut at its side"
    qtbot.mouseClick(dialog.apply_button, Qt.MouseButton.LeftButton)
    close_all(dialogs)


def test_the_table_picture_dialogs_fit(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtCore import QPointF
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QFileDialog

    from battletracker.ui.features.backdrop import BackdropDialog
    from tests.ui.test_table_picture import table_photo

    window = open_window(qtbot, "chain_of_command")
    (entry,) = [a for a in window.feature_host.menu("view").actions() if a.objectName() == "action-table-picture"]
    dialogs = new_dialogs(entry.trigger)
    assert len(dialogs) == 1 and isinstance(dialogs[0], BackdropDialog)
    dialog = dialogs[0]
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *_a, **_k: (str(table_photo(tmp_path / "table.jpg")), ""))
    qtbot.mouseClick(dialog.load_button, Qt.MouseButton.LeftButton)
    assert window.session.game.backdrop is not None
    fits(dialog)
    qtbot.mouseClick(dialog.place_button, Qt.MouseButton.LeftButton)
    QTest.mouseClick(window.map.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     window.map.mapFromScene(QPointF(2.0, 2.0)))
    assert dialog.point_dialog is not None
    fits(dialog.point_dialog)
    dialog.point_dialog.reject()
    close_all([dialog])


def test_the_command_dice_dialog_keeps_its_width_when_it_scrolls(qtbot: QtBot) -> None:
    """Too tall for the laptop, the dialog scrolls, but opens as wide as made: the odds' words are not squeezed."""
    from battletracker.ui.features.this_phase import CommandDiceDialog
    from battletracker.ui.features.this_phase import ThisPhasePanel

    window = open_window(qtbot, "chain_of_command")
    panel = window.findChild(ThisPhasePanel)
    assert panel is not None
    dialogs = new_dialogs(lambda: qtbot.mouseClick(panel.buttons["roll"], Qt.MouseButton.LeftButton))
    assert [type(d) for d in dialogs] == [CommandDiceDialog]
    fits(dialogs[0])
    assert dialogs[0].width() >= 520
    close_all(dialogs)
