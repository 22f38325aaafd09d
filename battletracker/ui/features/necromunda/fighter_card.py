"""A Necromunda fighter's rows on its card: characteristics, conditions, weapon profiles.

Every change is one undo step through the session: the condition toggles
set or clear a condition, the level steppers replace the unit with its new
level, the ledge distances (what the player measures from the fighter to the
nearest ledges; the map has no heights) are kept in its stats, and Reload
resolves `necro.reload` on an Out of Ammo profile. A jammed weapon cannot be
used again this battle, so its profiles offer no Reload; a refusal the rules
still make is shown on the card, as a sentence, instead of anything changing.

The section stands in for the card's stock weapons line: its profile rows
give every weapon with its ranges, traits and state, so the stock line (a
direct sibling named "weapons") is hidden on each refresh, which the card
runs after updating that line.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDoubleSpinBox
from PySide6.QtWidgets import QGridLayout
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QToolButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from battletracker.model.game import GameError
from battletracker.model.game import Unit
from battletracker.model.game import Weapon
from battletracker.rules import RulesInputError
from battletracker.rules.base import message_of
from battletracker.rules.necromunda import card_actions
from battletracker.rules.necromunda.conditions import CHECK_FALLING
from battletracker.rules.necromunda.conditions import ENGAGED
from battletracker.rules.necromunda.conditions import OUT_OF_ACTION
from battletracker.rules.necromunda.conditions import SERIOUSLY_INJURED
from battletracker.rules.necromunda.conditions import SUPPRESSED
from battletracker.rules.necromunda.table import LEDGE_STATS
from battletracker.rules.necromunda.table import ledge_distances
from battletracker.rules.necromunda.table import ledge_title
from battletracker.rules.necromunda.table import ledges_to_fall_from
from battletracker.rules.necromunda.table import state_of
from battletracker.rules.sequence import acted
from battletracker.ui.cards.flow import FlowLayout
from battletracker.ui.procedure_parts import RefusalBanner
from battletracker.ui.session import Session
from battletracker.ui.text import plain

CONDITION_TITLES = {
    SUPPRESSED: "Suppressed",
    ENGAGED: "Engaged",
    SERIOUSLY_INJURED: "Seriously Injured",
    OUT_OF_ACTION: "Out of Action",
}
NO_LEDGE = -0.1
STATE_BADGES = {"out_of_ammo": ("Out of Ammo", "#b26a00"), "jammed": ("Jammed", "#b3261e")}


def characteristics_text(unit: Unit) -> str:
    """ "BS 4+ · Cool 7+ · Level 0", leaving out what the fighter does not have."""
    parts = [f"{label} {unit.stats[key]}+" for key, label in (("bs", "BS"), ("cool", "Cool"))
             if key in unit.stats]
    parts.append(f"Level {unit.level}")
    return " \u00b7 ".join(parts)


def _num(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def profile_text(weapon: Weapon, profile: int) -> str:
    """The profile as a card line: name, ranges, accuracy and traits."""
    p = weapon.profiles[profile]
    name = weapon.name if len(weapon.profiles) == 1 else f"{weapon.name} \u2013 {p.name}"
    stats = p.stats
    bits = []
    if "short_range" in stats and "long_range" in stats:
        bits.append(f'{_num(stats["short_range"])}"/{_num(stats["long_range"])}"')
    if "acc_short" in stats and "acc_long" in stats:
        bits.append(f'acc {int(stats["acc_short"]):+d}/{int(stats["acc_long"]):+d}')
    line = name + (f" ({', '.join(bits)})" if bits else "")
    if p.traits:
        line += "\n" + ", ".join(p.traits)
    return line


class FighterSection(QWidget):
    """The Necromunda rows on a fighter's card."""

    def __init__(self, parent: QWidget | None, session: Session, unit_id: str) -> None:
        super().__init__(parent)
        self.session = session
        self.unit_id = unit_id
        self._shape: tuple[int, ...] = ()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 0)
        layout.setSpacing(4)

        top = QHBoxLayout()
        self.stats_label = QLabel(self)
        self.stats_label.setObjectName("necro_stats")
        top.addWidget(self.stats_label, 1)
        self.activation = QLabel(self)
        self.activation.setObjectName("necro_activation")
        self.activation.setToolTip("Each fighter activates once a round; End Turn makes every fighter Ready again")
        top.addWidget(self.activation)
        self.level_down = self._small("\u2212", "One level down", "level_down", lambda: self._level(-1))
        self.level_up = self._small("+", "One level up", "level_up", lambda: self._level(+1))
        top.addWidget(self.level_down)
        top.addWidget(self.level_up)
        layout.addLayout(top)

        toggles_box = QWidget(self)
        toggles = FlowLayout(toggles_box, spacing=4, line_spacing=4)
        self.toggles: dict[str, QToolButton] = {}
        for condition, text in [*CONDITION_TITLES.items(), (CHECK_FALLING, "Check falling")]:
            button = QToolButton(toggles_box)
            button.setText(text)
            button.setCheckable(True)
            button.setObjectName(f"toggle_{condition}")
            button.setToolTip(f"Set or clear {text} (one undo step)")
            button.clicked.connect(lambda on, c=condition: self.set_condition(c, on))
            toggles.addWidget(button)
            self.toggles[condition] = button
        layout.addWidget(toggles_box)

        ledges = QHBoxLayout()
        ledges.addWidget(QLabel("Ledges", self))
        self.ledge_boxes: dict[str, QDoubleSpinBox] = {}
        for stat in LEDGE_STATS:
            box = QDoubleSpinBox(self)
            box.setObjectName(stat)
            box.setRange(NO_LEDGE, 24.0)
            box.setDecimals(1)
            box.setSingleStep(0.1)
            box.setSpecialValueText("none")
            box.setSuffix('"')
            box.setKeyboardTracking(False)
            box.setToolTip(f"Distance from the fighter's base to a ledge ({ledge_title(stat)}), as measured on "
                           "the table; within \u00bd\" a ranged Hit that suppresses it means a falling check")
            box.valueChanged.connect(lambda value, key=stat: self.set_ledge(key, value))
            ledges.addWidget(box)
            self.ledge_boxes[stat] = box
        self.ledge_note = QLabel(self)
        self.ledge_note.setObjectName("ledge_note")
        self.ledge_note.setWordWrap(True)
        ledges.addWidget(self.ledge_note, 1)
        layout.addLayout(ledges)

        self.profiles_box = QWidget(self)
        self.profiles_grid = QGridLayout(self.profiles_box)
        self.profiles_grid.setContentsMargins(0, 0, 0, 0)
        self.profiles_grid.setHorizontalSpacing(6)
        self.profiles_grid.setVerticalSpacing(3)
        layout.addWidget(self.profiles_box)
        self.texts: dict[tuple[int, int], QLabel] = {}
        self.badges: dict[tuple[int, int], QLabel] = {}
        self.reload_buttons: dict[tuple[int, int], QPushButton] = {}

        self.message = RefusalBanner(self)
        self.message.setObjectName("necro_message")
        layout.addWidget(self.message)
        unit = session.game.units.get(unit_id)
        if unit is not None:
            self.refresh(unit)

    def _small(self, text: str, tip: str, name: str, slot: object) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.setObjectName(name)
        button.clicked.connect(slot)
        return button

    # -- refresh ---------------------------------------------------------------------
    def refresh(self, unit: Unit) -> None:
        self._hide_stock_weapons()
        self.stats_label.setText(characteristics_text(unit))
        done = acted(self.session.game, unit.id)
        self.activation.setText("Activated" if done else "Ready")
        self.activation.setStyleSheet("color: #5f6368;" if done else "color: #188038; font-weight: bold;")
        self.level_down.setEnabled(unit.level > 0)
        for condition, button in self.toggles.items():
            button.setChecked(unit.has(condition))
        self.toggles[CHECK_FALLING].setVisible(unit.has(CHECK_FALLING))
        distances = dict(ledge_distances(unit))
        for stat, box in self.ledge_boxes.items():
            box.blockSignals(True)
            box.setValue(distances.get(stat, NO_LEDGE))
            box.blockSignals(False)
        falls = ledges_to_fall_from(unit)
        self.ledge_note.setText(
            "" if not falls else
            f"within \u00bd\": falls from {ledge_title(falls[0])}" if len(falls) == 1 else
            "within \u00bd\", equally close: the player chooses the ledge")
        shape = tuple(len(w.profiles) for w in unit.weapons)
        if shape != self._shape:
            self._rebuild(unit)
            self._shape = shape
        for (wi, pi), label in self.texts.items():
            weapon = unit.weapons[wi]
            label.setText(profile_text(weapon, pi))
            state = state_of(weapon, pi)
            badge = self.badges[(wi, pi)]
            if state in STATE_BADGES:
                text, colour = STATE_BADGES[state]
                badge.setText(text)
                badge.setStyleSheet(f"color: white; background: {colour}; padding: 1px 5px; border-radius: 3px;")
                badge.show()
            else:
                badge.hide()
            reload_button = self.reload_buttons[(wi, pi)]
            reload_button.setVisible(state != "jammed")
            reload_button.setEnabled(state == "out_of_ammo")
            reload_button.setToolTip("Reload action: take Out of Ammo off this profile" if state == "out_of_ammo"
                                     else "This profile is not Out of Ammo")
            badge.setToolTip("Jammed: this weapon cannot be used again this battle" if state == "jammed" else "")

    def _hide_stock_weapons(self) -> None:
        parent = self.parentWidget()
        if parent is None:
            return
        stock = parent.findChild(QLabel, "weapons", Qt.FindChildOption.FindDirectChildrenOnly)
        if stock is not None:
            stock.hide()

    def _rebuild(self, unit: Unit) -> None:
        while self.profiles_grid.count():
            item = self.profiles_grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.texts.clear()
        self.badges.clear()
        self.reload_buttons.clear()
        row = 0
        for wi, weapon in enumerate(unit.weapons):
            for pi in range(len(weapon.profiles)):
                key = (wi, pi)
                text = plain(QLabel(self.profiles_box))
                text.setWordWrap(True)
                text.setTextFormat(Qt.TextFormat.PlainText)
                text.setObjectName(f"profile_{wi}_{pi}")
                badge = QLabel(self.profiles_box)
                badge.setObjectName(f"badge_{wi}_{pi}")
                badge.hide()
                button = QPushButton("Reload", self.profiles_box)
                button.setObjectName(f"reload_{wi}_{pi}")
                button.clicked.connect(lambda _=False, w=wi, p=pi: self.reload(w, p))
                text.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
                self.profiles_grid.addWidget(text, row, 0, Qt.AlignmentFlag.AlignTop)
                self.profiles_grid.addWidget(badge, row, 1, Qt.AlignmentFlag.AlignTop)
                self.profiles_grid.addWidget(button, row, 2, Qt.AlignmentFlag.AlignTop)
                self.texts[key], self.badges[key], self.reload_buttons[key] = text, badge, button
                row += 1
        self.profiles_grid.setColumnStretch(0, 1)

    # -- changes ------------------------------------------------------------------------
    def _unit(self) -> Unit | None:
        return self.session.game.units.get(self.unit_id)

    def _say(self, text: str) -> None:
        self.message.set_refusal(text)

    def _act(self, name: str, choices: dict[str, str | int | float | bool], dice: list[int] | None = None) -> bool:
        """The action through the session; a refusal is shown on the card and nothing changes."""
        try:
            self.session.act(name, {"unit": self.unit_id, **choices}, dice)
        except (RulesInputError, GameError) as exc:
            self._say(message_of(exc))
            return False
        self._say("")
        return True

    def set_condition(self, condition: str, present: bool) -> bool:
        if self._unit() is None:
            return False
        return self._act(card_actions.CONDITION, {"condition": condition, "present": present})

    def _level(self, delta: int) -> None:
        unit = self._unit()
        if unit is None or unit.level + delta < 0:
            return
        self._act(card_actions.LEVEL, {"delta": delta})

    def set_ledge(self, stat: str, value: float) -> bool:
        """Record (or with "none", remove) the distance to one ledge, as one undo step."""
        unit = self._unit()
        if unit is None:
            return False
        present = value > NO_LEDGE / 2
        old = unit.stats.get(stat)
        if (old is None and not present) or (present and old == round(value, 1)):
            return False
        return self._act(card_actions.LEDGE, {"ledge": stat, "inches": round(value, 1)} if present
                         else {"ledge": stat})

    def reload(self, weapon: int, profile: int) -> bool:
        """The Reload action on one profile (it rolls no dice); a refusal is shown on the card with its reason."""
        if self._unit() is None:
            return False
        return self._act(card_actions.RELOAD, {"weapon": weapon, "profile": profile}, [])
