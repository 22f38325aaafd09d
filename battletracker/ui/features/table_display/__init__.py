"""View > Table display...: a second screen for a TV beside the table or a projector above it.

The display (display.py) follows the game through the public game of
rules/table_display.py, so what the rules keep from the opponent never
reaches it; the control strip (controls.py) stays on the laptop, which keeps
the keyboard and the mouse.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from battletracker.ui.extensions import Feature

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog

    from battletracker.ui.extensions import FeatureHost


def install(host: FeatureHost) -> None:
    """Add "Table display..." to the View menu; it opens the control strip, or brings back the open one."""
    action = host.menu("view").addAction("Table display...")
    action.setObjectName("table_display")
    action.setStatusTip("Show the table on a second screen: a TV beside the table, or a projector above it "
                        "drawing arcs and bursts on the cloth at true size")

    shown: list[QDialog] = []   # the control strip while it is open

    def open_controls() -> None:
        from battletracker.ui.features.table_display.controls import DisplayControls

        if not shown:
            controls = DisplayControls(host.session, host.map, host.window())
            controls.finished.connect(lambda _result: shown.clear())
            shown.append(controls)
        shown[0].show()
        shown[0].activateWindow()

    action.triggered.connect(open_controls)


FEATURE = Feature("table_display", window_extensions=(install,), menu_order=2)
