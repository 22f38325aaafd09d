"""Bombardments in the window: the Bombardments dock and the map layer (Chain of Command games).

The dock lists every Forward Observer and SOS Fire with its next step; the
layer draws aiming points, ranging shots, areas, smoke and damaged buildings.
Both follow the session, so End Phase / End Turn (which apply phase_end's
Effects) and undo show at once. The dock is hidden in other rulesets.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget

from battletracker.rules.chain_of_command.bombardment_data import RULESET
from battletracker.ui.bombardment_steps import offer_steps
from battletracker.ui.extensions import Feature
from battletracker.ui.extensions import FeatureHost
from battletracker.ui.features.bombardments.buildings import ENTER_BUILDING
from battletracker.ui.features.bombardments.buildings import LEAVE_BUILDING
from battletracker.ui.features.bombardments.panel import BombardmentsPanel
from battletracker.ui.map.bombardments import BombardmentLayer

__all__ = ["FEATURE", "BombardmentLayer", "BombardmentsPanel", "install"]


def install(host: FeatureHost) -> None:
    """The dock; its panel and the map layer are made the first time a Chain of Command game is open."""
    dock = QDockWidget("Bombardments", host.window())
    dock.setObjectName("dock-bombardments")
    host.add_dock(dock, Qt.DockWidgetArea.RightDockWidgetArea, tabify_with="log")

    def follow_ruleset() -> None:
        shown = host.session.game.ruleset == RULESET
        if shown and not isinstance(dock.widget(), BombardmentsPanel):
            panel = BombardmentsPanel(host.session, host.map, host.window())
            panel.layer = BombardmentLayer(host.session, host.map, panel)
            dock.setWidget(panel)
            offer_steps(host.window(), panel)  # the This Phase dock's bombardment buttons start these steps
        dock.toggleViewAction().setVisible(shown)
        dock.setVisible(shown)

    host.session.game_replaced.connect(follow_ruleset)
    follow_ruleset()


FEATURE = Feature("coc.bombardments", unit_actions=(ENTER_BUILDING, LEAVE_BUILDING), window_extensions=(install,))
