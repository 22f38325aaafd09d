"""What the Armour Battles dialogs and the card share for display. Reading the
table (a unit's combat numbers, the game's settings, the dice a shot rolls,
the map's Line of Sight) is in `rules.armour_battles.plans`."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QWidget

from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.armour_battles.data import RULESET
from battletracker.rules.armour_battles.data import indirect_fire_rules
from battletracker.rules.armour_battles.plans import profile_of
from battletracker.rules.terrain import SightReading
from battletracker.ui.text import as_typed

IN_THE_OPEN = "0 D: in the open"
"""What a Cover Dice box shows at none: a unit in the open adds no Cover Dice to its Reaction Check."""

MOVE_TITLES = {"single": "Single move", "double": "Double move", "triple": "Triple move"}


def is_armour_battles(game: Game) -> bool:
    return game.ruleset == RULESET


def is_close_support(game: Game, unit: Unit) -> bool:
    profile = profile_of(unit)
    return profile is not None and profile.close_support


def burst_radius() -> float:
    return indirect_fire_rules().burst_radius


def indirect_multiplier() -> int:
    return indirect_fire_rules().long_range_multiplier


class MapSight:
    """A Line-of-Sight tick that starts at the map's reading and follows it until the player sets it otherwise.

    While the tick differs from the map a short reason box shows; the plan
    logs the player's word with that reason (`los`, `los_reason`).
    """

    def __init__(self, box: QCheckBox, parent: QWidget) -> None:
        self.box = box
        self.reason = QLineEdit(parent)
        self.reason.setPlaceholderText("why, if not the map's (logged)")
        self.reason.hide()
        self.map: bool | None = None
        box.toggled.connect(lambda _on: self._show())

    def follow(self, reading: SightReading) -> None:
        """The plan's reading of the map (`map_sight`): the tick takes it unless the player has changed it."""
        if self.map is None or self.box.isChecked() == self.map:
            self.box.blockSignals(True)
            self.box.setChecked(reading.clear)
            self.box.blockSignals(False)
        self.map = reading.clear
        self.box.setToolTip(as_typed(f"From the map: {reading.reason}"))
        self._show()

    def _show(self) -> None:
        self.reason.setVisible(self.map is not None and self.box.isChecked() != self.map)

    def choices(self) -> dict[str, str | bool]:
        picked: dict[str, str | bool] = {"los": self.box.isChecked()}
        if self.map is not None and self.box.isChecked() != self.map and self.reason.text().strip():
            picked["los_reason"] = self.reason.text().strip()
        return picked
