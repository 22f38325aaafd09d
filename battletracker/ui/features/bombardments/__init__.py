"""Bombardments in the window: the Bombardments dock and the map layer (Chain of Command games).

The dock lists every Forward Observer and SOS Fire with its next step; the
layer draws aiming points, ranging shots, areas, smoke and damaged buildings.
Both follow the session, so End Phase / End Turn (which apply phase_end's
Effects) and undo show at once. The dock is hidden in other rulesets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMenu

from battletracker.rules.chain_of_command.bombardment_data import RULESET
from battletracker.ui.extensions import register_window_extension
from battletracker.ui.features.bombardments.map_layer import BombardmentLayer
from battletracker.ui.features.bombardments.panel import BombardmentsPanel

if TYPE_CHECKING:
    from battletracker.ui.main_window import MainWindow

__all__ = ["BombardmentLayer", "BombardmentsPanel", "install"]


def install(window: MainWindow) -> None:
    panel = BombardmentsPanel(window.session, window.map, window)
    panel.layer = BombardmentLayer(window.session, window.map, panel)
    dock = QDockWidget("Bombardments", window)
    dock.setObjectName("dock-bombardments")
    dock.setWidget(panel)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.tabifyDockWidget(window.history_dock, dock)
    window.log_dock.raise_()
    for action in window.menuBar().actions():
        menu = action.menu()
        if action.text() == "&View" and isinstance(menu, QMenu):
            menu.addAction(dock.toggleViewAction())

    def follow_ruleset() -> None:
        dock.toggleViewAction().setVisible(window.session.game.ruleset == RULESET)
        dock.setVisible(window.session.game.ruleset == RULESET)

    window.session.game_replaced.connect(follow_ruleset)
    follow_ruleset()


register_window_extension(install)
