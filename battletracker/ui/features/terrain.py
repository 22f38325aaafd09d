"""Terrain in the window's menus: Edit > Draw terrain (one entry per kind of the game's ruleset) and
View > Line of Sight.

The drawing, editing and the ruler themselves are the map's (ui/map/terrain_tools.py),
so they work in any map view; this feature only offers them in the menus.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtWidgets import QMenu

from battletracker.ui.extensions import Feature
from battletracker.ui.extensions import FeatureHost

DRAW_TIP = ("Pick a kind, then click its corners (an area) or points (a line) on the map; Enter or a double-click "
            "finishes, Backspace takes back a point, Esc cancels.")


def fill_draw_menu(host: FeatureHost, menu: QMenu) -> None:
    """The kinds of terrain of the game's ruleset, areas then lines, each starting a drawing."""
    menu.clear()
    tools = host.map.terrain_tools
    kinds = tools.kinds()
    for shape, heading in (("area", "Areas"), ("linear", "Lines")):
        menu.addSection(heading)
        for kind in kinds:
            if kind.shape == shape:
                action = menu.addAction(kind.title, partial(tools.start_drawing, kind.key))
                action.setStatusTip(DRAW_TIP)


def install(host: FeatureHost) -> None:
    edit = host.menu("edit")
    edit.addSeparator()
    draw = edit.addMenu("Draw &terrain")
    draw.setObjectName("menu-draw-terrain")
    draw.setToolTipsVisible(True)
    draw.aboutToShow.connect(lambda: fill_draw_menu(host, draw))
    fill_draw_menu(host, draw)
    host.menu("view").addAction(host.map.terrain_tools.sight_action)


FEATURE = Feature("terrain", window_extensions=(install,), menu_order=1)
