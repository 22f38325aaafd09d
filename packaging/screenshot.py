"""Take the README screenshot from the real app, under Xvfb:

    xvfb-run -s "-screen 0 1366x768x24" .venv/bin/python packaging/screenshot.py OUT.png [--dark]

Opens the demo battle in the main window, makes a few moves a player would
(Shock on a section, a Panzerschreck round spent, a Phase ended), selects the
tripod MG so its arc and range rings show, and saves the screen.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.ui.features import all_features
from battletracker.ui.main_window import MainWindow
from battletracker.ui.recovery import Recovery
from battletracker.ui.session import Session
from battletracker.ui.theme import apply_scheme


def main() -> None:
    out = Path(sys.argv[1])
    app = QApplication([sys.argv[0]])
    app.setOrganizationName("BattleTrackerScreenshot")
    app.setApplicationName("BattleTrackerScreenshot")
    apply_scheme(app, "dark" if "--dark" in sys.argv else "light")
    session = Session(savefile.load(demo_path()))
    window = MainWindow(session, Recovery(session, Path("/tmp")), features=all_features)
    window.resize(1366, 768)
    window.move(0, 0)
    window.show()
    session.act("unit.shock", {"unit": "u7", "delta": 2})
    session.act("unit.ammo", {"unit": "u4", "weapon": 0})
    session.end_phase()
    session.select("u3")

    def shoot() -> None:
        window.map.fit_table()
        app.processEvents()
        screen = window.screen().grabWindow(0, 0, 0, 1366, 768)
        screen.save(str(out))
        session.undo_stack.setClean()
        app.quit()

    QTimer.singleShot(1500, shoot)
    app.exec()


if __name__ == "__main__":
    main()
