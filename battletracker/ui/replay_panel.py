"""The replay: a timeline dock to step through every action of the game, and the read-only banner.

The views need nothing of their own for it: while replaying, the session's
`game` is the state at the replay's step, so the map, the cards and the log
show it as they show the game.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QSlider
from PySide6.QtWidgets import QToolButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.ui.session import Session

BANNER_STYLE = "QFrame#replayBanner { background: #f2c14e; } QFrame#replayBanner QLabel { color: #1d1d1f; }"


class ReplayPanel(QWidget):
    """A slider over the steps (0: the start), step buttons, Continue from here and Back to the game."""

    continue_requested = Signal()
    start_requested = Signal()

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        layout = QVBoxLayout(self)
        self.where = QLabel(self)
        self.where.setObjectName("replay_where")
        self.where.setWordWrap(True)
        self.where.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.where)

        self.start_button = QPushButton("&Replay from the start", self)
        self.start_button.setToolTip("Step through every action of the game, read-only")
        self.start_button.clicked.connect(self.start_requested)
        layout.addWidget(self.start_button, 0, Qt.AlignmentFlag.AlignLeft)

        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setObjectName("replay_slider")
        self.slider.setPageStep(10)
        self.slider.valueChanged.connect(self._slider_moved)
        self.slider.sliderReleased.connect(self._show_dragged_step)
        # While the slider is dragged, the step it is at is shown once the events waiting are handled:
        # several steps passed in one frame make one refresh of the views, not one each.
        self._dragged_to: int | None = None
        self._drag_timer = QTimer(self)
        self._drag_timer.setSingleShot(True)
        self._drag_timer.setInterval(0)
        self._drag_timer.timeout.connect(self._show_dragged_step)

        row = QHBoxLayout()
        self.first_button = self._step_button("|<", "The start, before the first action (Home)", lambda: 0)
        self.back_button = self._step_button("<", "One action back (Left)", lambda: self._step() - 1)
        self.next_button = self._step_button(">", "One action on (Right)", lambda: self._step() + 1)
        self.last_button = self._step_button(">|", "The last action (End)", lambda: self._length())
        row.addWidget(self.first_button)
        row.addWidget(self.back_button)
        row.addWidget(self.slider, 1)
        row.addWidget(self.next_button)
        row.addWidget(self.last_button)
        self.continue_button = QPushButton("&Continue from here...", self)
        self.continue_button.setToolTip("Play on from this step: the later actions are dropped (Undo gives them back)")
        self.continue_button.clicked.connect(self.continue_requested)
        self.back_to_game_button = QPushButton("&Back to the game", self)
        self.back_to_game_button.clicked.connect(session.stop_replay)
        row.addSpacing(12)
        row.addWidget(self.continue_button)
        row.addWidget(self.back_to_game_button)
        layout.addLayout(row)

        session.replay_changed.connect(self.refresh)
        session.changed.connect(lambda _c: self.refresh() if not session.replaying else None)
        self.refresh()

    def _step_button(self, text: str, tip: str, target: object) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.setMinimumWidth(36)
        button.clicked.connect(lambda: self.session.show_step(target()))  # type: ignore[operator]
        return button

    def _slider_moved(self, value: int) -> None:
        if self.slider.isSliderDown():
            self._dragged_to = value
            self._drag_timer.start()
        else:
            self._dragged_to = None
            self.session.show_step(value)

    def _show_dragged_step(self) -> None:
        step, self._dragged_to = self._dragged_to, None
        self._drag_timer.stop()
        if step is not None:
            self.session.show_step(step)

    def _step(self) -> int:
        timeline = self.session.timeline
        return timeline.step if timeline is not None else 0

    def _length(self) -> int:
        timeline = self.session.timeline
        return timeline.length if timeline is not None else 0

    def refresh(self) -> None:
        timeline = self.session.timeline
        replaying = timeline is not None
        for widget in (self.slider, self.first_button, self.back_button, self.next_button, self.last_button,
                       self.continue_button, self.back_to_game_button):
            widget.setEnabled(replaying)
        self.start_button.setVisible(not replaying)
        self.setMaximumHeight(self.sizeHint().height())
        if timeline is None:
            count = len(self.session.game.actions)
            self.where.setText(f"The game has {count} recorded action{'' if count == 1 else 's'}. Replay it to "
                               "see the map, the cards and the log as they were after each one." if count else
                               "Nothing to replay yet: the actions of the game will be here as they are taken.")
            self.start_button.setEnabled(count > 0)
            self.slider.blockSignals(True)
            self.slider.setRange(0, 0)
            self.slider.blockSignals(False)
            return
        step, length = timeline.step, timeline.length
        self.slider.blockSignals(True)
        self.slider.setRange(0, length)
        self.slider.setValue(step)
        self.slider.blockSignals(False)
        what = timeline.title(step) or "the start, before the first action"
        text = f"Step {step} of {length}: {what}"
        if timeline.stopped is not None and step == length:
            text += f"\nThe replay stops here: {timeline.stopped}."
        self.where.setText(text)
        self.first_button.setEnabled(step > 0)
        self.back_button.setEnabled(step > 0)
        self.next_button.setEnabled(step < length)
        self.last_button.setEnabled(step < length)


class ReplayBanner(QFrame):
    """The line above the map while replaying: "Replaying step 12 of 40 - read-only", and Back to the game."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setObjectName("replayBanner")
        self.setStyleSheet(BANNER_STYLE)
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 4, 10, 4)
        self.label = QLabel(self)
        self.label.setObjectName("replay_banner_text")
        row.addWidget(self.label, 1)
        self.back_button = QPushButton("Back to the game", self)
        self.back_button.clicked.connect(session.stop_replay)
        row.addWidget(self.back_button)
        session.replay_changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        if self.session.replaying:
            self.label.setText(f"<b>Replaying {self.session.replay_position()}</b> \u2014 read-only")
