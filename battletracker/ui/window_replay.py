"""The main window's replay: the Replay dock's timeline, the banner above the map, and the window read-only meanwhile.

ui/replay_panel.py is imported when the dock first shows or a replay starts, not at the start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction

from battletracker.model.game import GameError
from battletracker.ui.ask import ask

if TYPE_CHECKING:
    from battletracker.ui.main_window import MainWindow
    from battletracker.ui.replay_panel import ReplayBanner
    from battletracker.ui.replay_panel import ReplayPanel


class WindowReplay:
    """Starts a replay, steps it from the keyboard and continues the game from a step.

    The Replay dock and the banner's toolbar are the window's layout; what they hold is made here, when
    first needed. The window turns its own editing off while replaying and calls `follow` for the rest.
    """

    def __init__(self, window: MainWindow) -> None:
        self._window = window
        self._panel: ReplayPanel | None = None
        self._banner: ReplayBanner | None = None
        session = window.session
        self.keys: list[QAction] = [
            window.make_action("Replay: Back", lambda: self._step_by(-1), "Left"),
            window.make_action("Replay: Next", lambda: self._step_by(1), "Right"),
            window.make_action("Replay: Start", lambda: session.show_step(0), "Home"),
            window.make_action("Replay: End", lambda: self._step_by(10**9), "End"),
        ]
        """The arrow keys, Home and End, working only while a replay is on."""
        for entry in self.keys:
            entry.setEnabled(False)
            window.addAction(entry)

    @property
    def panel(self) -> ReplayPanel:
        """The Replay dock's timeline, made the first time the dock shows or a replay starts."""
        if self._panel is None:
            from battletracker.ui.replay_panel import ReplayPanel

            dock = self._window.replay_dock
            self._panel = ReplayPanel(self._window.session, self._window)
            self._panel.start_requested.connect(self.start)
            self._panel.continue_requested.connect(self.continue_from_here)
            placeholder = dock.widget()
            dock.setWidget(self._panel)
            self._panel.show()  # now, not on the next round: a replay starting puts the focus in it
            placeholder.deleteLater()
        return self._panel

    @property
    def banner(self) -> ReplayBanner:
        """The read-only line above the map, made when the first replay starts."""
        if self._banner is None:
            self._banner = self._make_banner()
        return self._banner

    def _make_banner(self) -> ReplayBanner:
        from battletracker.ui.replay_panel import ReplayBanner

        banner = ReplayBanner(self._window.session, self._window)
        self._window.banner_bar.addWidget(banner)
        return banner

    def start(self) -> None:
        """Show the game at its start, read-only, with the Replay dock to step through it."""
        window = self._window
        try:
            window.session.start_replay()
        except GameError as exc:
            window.show_status(f"Cannot replay: {exc}", 8000)
            return
        window.statusBar().clearMessage()  # said of the game being played, not of the replay's steps
        window.replay_dock.show()
        window.replay_dock.raise_()
        self.panel.slider.setFocus()

    def _step_by(self, steps: int) -> None:
        timeline = self._window.session.timeline
        if timeline is not None:
            self._window.session.show_step(timeline.step + steps)

    def continue_from_here(self) -> None:
        """After the player confirms, play on from the replay's step (one undo step gives the rest back)."""
        from PySide6.QtWidgets import QMessageBox

        window, session = self._window, self._window.session
        timeline = session.timeline
        if timeline is None:
            return
        later = len(session.live_game.actions) - timeline.step
        if later == 0:
            session.stop_replay()
            window.show_status("This is the last action: back to the game, nothing dropped", 5000)
            return
        answer = ask(window, QMessageBox.Icon.Question, "Continue from here?",
                     f"Play on from step {timeline.step}: the {later} later action{'s' if later != 1 else ''} "
                     "will be dropped from the game. Undo gives them back.",
                     [("&Continue from here", QMessageBox.ButtonRole.AcceptRole)])
        if answer is None:
            return
        try:
            session.continue_from_here()
        except GameError as exc:
            window.show_error("Cannot continue from here", str(exc))

    def follow(self, replaying: bool) -> None:
        """The banner above the map and the stepping keys, on while replaying and off when leaving."""
        if replaying and self._banner is None:
            self._banner = self._make_banner()
        self._window.banner_bar.setVisible(replaying)
        for entry in self.keys:
            entry.setEnabled(replaying)
