"""In dark mode an unticked box can be seen, in a form and in a list the player ticks.

Fusion draws a box's edge a shade darker than the window, which on the dark palette
is the colour of the box itself: an unticked box in a list (the Necromunda Shoot
dialog's "Tick the enemies within 12" that are not in Line of Sight") vanished.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtCore import QRect
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QStyle
from PySide6.QtWidgets import QStyleOptionButton
from PySide6.QtWidgets import QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from battletracker.model import savefile
from battletracker.rules.tables import resources_dir
from battletracker.ui.features.necromunda.shoot_dialog import ShootDialog
from battletracker.ui.main_window import MainWindow
from battletracker.ui.session import Session
from battletracker.ui.theme import apply_scheme


@pytest.fixture
def dark(qapp: QApplication) -> Iterator[None]:
    style, palette, scheme = qapp.style().name(), qapp.palette(), qapp.styleHints().colorScheme()
    apply_scheme(qapp, "dark")
    yield
    qapp.setStyle(style)
    qapp.setPalette(palette)
    qapp.styleHints().setColorScheme(scheme)


def _edge_contrast(image: QImage, box: QRect) -> int:
    """How far the lightest pixel round the box's edge stands from the box's middle."""
    inside = QColor(image.pixel(box.center())).lightness()
    edge = [QPoint(x, y) for x in range(box.left(), box.right() + 1) for y in (box.top(), box.bottom())]
    edge += [QPoint(x, y) for y in range(box.top(), box.bottom() + 1) for x in (box.left(), box.right())]
    return max(QColor(image.pixel(p)).lightness() for p in edge) - inside


def test_an_unticked_box_in_the_shoot_dialogs_list_shows_in_dark_mode(qtbot: QtBot, dark: None) -> None:
    session = Session(savefile.load(resources_dir() / "demo" / "necromunda.json"))
    window = MainWindow(session)
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.feature_host.load()
    window.show()
    fighter = next(u.id for u in session.game.units.values() if u.side == 0)
    window.feature_host.run_unit_action("necromunda.shoot", fighter)
    dialog = window.findChildren(ShootDialog)[0]
    qtbot.waitExposed(dialog)
    listed = dialog.sight_list
    item = listed.item(0)
    assert item is not None and item.checkState() == Qt.CheckState.Unchecked
    option = QStyleOptionViewItem()
    option.initFrom(listed.viewport())
    option.rect = listed.visualItemRect(item)
    option.features |= QStyleOptionViewItem.ViewItemFeature.HasCheckIndicator
    box = listed.style().subElementRect(QStyle.SubElement.SE_ItemViewItemCheckIndicator, option, listed.viewport())
    image = listed.viewport().grab().toImage()
    assert _edge_contrast(image, box) >= 40
    dialog.close()


def test_an_unticked_box_in_a_form_shows_in_dark_mode(qtbot: QtBot, dark: None) -> None:
    box = QCheckBox("Opportunity fire")
    qtbot.addWidget(box)
    box.show()
    qtbot.waitExposed(box)
    option = QStyleOptionButton()
    box.initStyleOption(option)
    indicator = box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)
    assert _edge_contrast(box.grab().toImage(), indicator) >= 40
