"""The Close assault dialog: a close-support unit's side of a Close Assault.

The close-support update treats the unit as a gun, fighting at +2 TN, and it
can never make an overrun attack; both are the procedure's, so ticking
"Overrun attack" shows its refusal before anything is rolled. The roll's
successes are compared with the other side's at the table; the result goes
into the battle log as one undo step (with any effects the procedure gives).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from battletracker.rules import Resolution, RulesInputError
from battletracker.rules.armour_battles import actions as ab_actions
from battletracker.rules.armour_battles.close_assault import NAME
from battletracker.rules.armour_battles.plans import AbPlan, close_assault, profile_of
from battletracker.rules.armour_battles.units import is_suppressed
from battletracker.rules.base import message_of
from battletracker.rules.tables import TableError
from battletracker.ui.procedure_parts import FactsPanel, RefusalBanner, TargetPicker
from battletracker.ui.procedure_runner import FirstOpening, ProcedureDialog, ProcedureRunner
from battletracker.ui.session import Session

if TYPE_CHECKING:
    from battletracker.ui.map.view import MapView


class CloseAssaultDialog(ProcedureDialog):
    first_opening = FirstOpening("armour_battles", 3, "Armour Battles close assault", "ab.close_assault", "stuh")

    def __init__(self, session: Session, unit_id: str, map_view: MapView | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.unit_id = unit_id
        self.map_view = map_view
        unit = session.game.unit(unit_id)
        self.unit_name = unit.name
        self.setWindowTitle(f"Close assault: {unit.name}")
        self.setMinimumSize(900, 780)

        self.opponent_picker = TargetPicker(map_view, f"Click the unit in the assault with {unit.name}",
                                            "Click the other unit in the assault on the map (Esc cancels)", self,
                                            empty="No unit to assault")
        others = [other for other in session.game.units.values()
                  if other.id != unit_id and profile_of(other) is not None]
        self.opponent_picker.set_units((other.id, other.name) for other in others)
        enemy = next((other.id for other in others if other.side != unit.side), None)
        if enemy is not None:
            self.opponent_picker.select(enemy)
        self.facts = FactsPanel(self)
        self.attacker = QCheckBox(f"{unit.name} is the attacker", self)
        self.first_round = QCheckBox("First round of the assault", self)
        self.first_round.setChecked(True)
        self.suppressed = QCheckBox(f"{unit.name} is suppressed", self)
        self.suppressed.setChecked(is_suppressed(unit))
        self.overrun = QCheckBox("Overrun attack", self)
        self.overrun.setToolTip("Close-support units can never make an overrun attack")
        note = QLabel("A close-support unit fights a Close Assault as a gun, at +2 TN. Compare its successes "
                      "with the other side's at the table.", self)
        note.setWordWrap(True)

        box = QGroupBox("The assault", self)
        form = QFormLayout(box)
        form.addRow(note)
        form.addRow("Against", self.opponent_picker)
        form.addRow("From the table", self.facts)
        form.addRow(self.attacker)
        form.addRow(self.first_round)
        form.addRow(self.suppressed)
        form.addRow(self.overrun)

        self.plan: AbPlan | None = None
        self.refusal = RefusalBanner(self)
        self.runner = ProcedureRunner(session, NAME, f"Close assault: {unit.name}", self)
        self.runner.apply_button.setToolTip("Into the battle log as one undo step")
        close = self.close_buttons()
        layout = QVBoxLayout(self)
        layout.addWidget(box)
        layout.addWidget(self.refusal)
        layout.addWidget(self.runner, 1)
        layout.addWidget(close)

        self.opponent_picker.chosen.connect(lambda _unit_id: self._update())
        self.opponent_picker.outside.connect(self._refuse_opponent)
        for tick in (self.attacker, self.first_round, self.suppressed, self.overrun):
            tick.toggled.connect(self._update)
        self.runner.resolved.connect(self._resolved)
        self.runner.applied.connect(self._applied)
        self.finished.connect(self._closed)
        self._update()

    @property
    def opponent_id(self) -> str | None:
        return self.opponent_picker.current()

    def set_opponent(self, unit_id: str) -> bool:
        """Fight `unit_id` if it is a unit with combat numbers other than this one."""
        return self.opponent_picker.select(unit_id)

    def _refuse_opponent(self, unit_id: str) -> None:
        """Say why the unit clicked on the map cannot be in the assault."""
        unit = self.session.game.units.get(unit_id)
        if unit_id == self.unit_id:
            self.refusal.show_refusal(f"{self.unit_name} cannot assault itself.")
        elif unit is not None:
            self.refusal.show_refusal(f"{unit.name} has no combat numbers to fight a Close Assault with.")

    def choices(self) -> dict[str, str | bool]:
        """What the player picked: the opponent and the ticks."""
        return {"firer": self.unit_id, "target": self.opponent_id or "", "attacker": self.attacker.isChecked(),
                "first_round": self.first_round.isChecked(), "suppressed": self.suppressed.isChecked(),
                "overrun": self.overrun.isChecked()}

    def _update(self) -> None:
        self.plan = None
        if self.opponent_id is None:
            self.facts.set_note("No unit to assault")
            self.runner.setEnabled(False)
            return
        self.runner.title = f"Close assault: {self.unit_name} against {self.opponent_picker.current_label()}"
        try:
            self.plan = close_assault(self.session.game, self.choices())
        except (RulesInputError, TableError) as exc:
            self.facts.set_facts(())
            self.refusal.show_refusal(message_of(exc))
            self.runner.setEnabled(False)
            self.runner.odds_plot.hide()
            return
        self.refusal.clear()
        self.facts.set_facts(self.plan.facts)
        self.runner.setEnabled(True)
        self.runner.set_action(ab_actions.CLOSE_ASSAULT, self.choices())
        self.runner.odds_plot.setVisible(self.runner.set_inputs(self.plan.inputs))

    def refusal_text(self) -> str:
        if not self.refusal.isHidden():
            return self.refusal.text()
        return "" if self.runner.problem.isHidden() else self.runner.problem.text()

    def _resolved(self, res: Resolution) -> None:
        """With effects the result is applied; without, it is only logged."""
        self.runner.apply_button.setText("&Apply" if res.effects else "&Log result")

    def _applied(self, _res: Resolution) -> None:
        for w in (self.opponent_picker, self.attacker, self.first_round, self.suppressed,
                  self.overrun, self.runner.roll_button, self.runner.typed_button):
            w.setEnabled(False)

    def _closed(self, _result: int) -> None:
        if self.map_view is not None and self.map_view.picking:
            self.map_view.cancel_pick()
