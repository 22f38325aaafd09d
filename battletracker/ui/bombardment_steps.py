"""A bombardment's next steps as another dock starts them: the This Phase dock's bombardment buttons.

A feature may not import another (tests/test_layers.py), yet This Phase's
"Fire this Phase..." must open the very dialog the Bombardments dock opens,
which replaces any the dock has open. So the Bombardments feature offers its
panel here, once per window, and This Phase asks for it when a button is
clicked; mypy checks that the panel has every step This Phase calls.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QObject
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget


class BombardmentSteps(Protocol):
    """What a side does next with its bombardments, each opened or applied as the Bombardments dock does it."""

    def open_new(self) -> object:
        """The new bombardment's side, rounds and Phases, then its aiming point and Forward Observer on the map."""

    def open_ranging(self, bombardment_id: str) -> object:
        """The ranging shot's dialog."""

    def fire_for_effect(self, bombardment_id: str) -> object:
        """Fire for effect where the ranging shot landed (one undo step; a refusal shows in the dock)."""

    def start_re_aim(self, bombardment_id: str) -> object:
        """Ask the map for the new aiming point."""

    def open_pattern(self, bombardment_id: str) -> object:
        """The hidden die's dialog, for a barrage's pattern."""

    def open_phase(self, bombardment_id: str) -> object:
        """This Phase's fire: its activation and what it hits."""


class _Offered(QObject):
    """The window's child holding its steps: found from the window, and gone with it."""

    def __init__(self, window: QWidget, steps: BombardmentSteps) -> None:
        super().__init__(window)
        self.steps = steps


def offer_steps(window: QWidget, steps: BombardmentSteps) -> None:
    """Make `steps` the ones another dock of `window` starts (the last offered replaces the one before)."""
    held = window.findChild(_Offered, options=Qt.FindChildOption.FindDirectChildrenOnly)
    if held is None:
        _Offered(window, steps)
    else:
        held.steps = steps


def steps_of(window: QWidget) -> BombardmentSteps | None:
    """The steps offered in `window`; None before the Bombardments feature has made its panel."""
    held = window.findChild(_Offered, options=Qt.FindChildOption.FindDirectChildrenOnly)
    return held.steps if held is not None else None
