"""The Close assault dialog: a close-support unit's side of a Close Assault, declared as data.

The close-support update treats the unit as a gun, fighting at +2 TN, and it
can never make an overrun attack; both are the procedure's, so ticking
"Overrun attack" shows its refusal before anything is rolled. The roll's
successes are compared with the other side's at the table; the result goes
into the battle log as one undo step (with any effects the procedure gives).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules import Resolution
from battletracker.rules.armour_battles import actions as ab_actions
from battletracker.rules.armour_battles.plans import profile_of
from battletracker.rules.armour_battles.units import is_suppressed
from battletracker.rules.choices import Choices
from battletracker.ui.procedure_parts import ActionForm
from battletracker.ui.procedure_parts import PlannedActionDialog
from battletracker.ui.procedure_parts import UnitChoice
from battletracker.ui.procedure_parts import YesNo
from battletracker.ui.procedure_runner import FirstOpening
from battletracker.ui.session import Session

if TYPE_CHECKING:
    from battletracker.ui.map.view import MapView



def _others(game: Game, choices: Choices) -> list[Unit]:
    return [u for u in game.units.values() if u.id != choices["firer"] and profile_of(u) is not None]


def _opponents(game: Game, choices: Choices) -> Iterable[tuple[str, str]]:
    return ((u.id, u.name) for u in _others(game, choices))


def _first_enemy(game: Game, choices: Choices) -> str | None:
    side = game.unit(str(choices["firer"])).side
    return next((u.id for u in _others(game, choices) if u.side != side), None)


FORM = ActionForm(ab_actions.CLOSE_ASSAULT, "Close assault: {unit}", heading="Close assault: {unit}", size=(900, 780),
                  note="A close-support unit fights a Close Assault as a gun, at +2 TN. Compare its successes with "
                       "the other side's at the table.", choices=(
    UnitChoice("target", "Against", _opponents, "Click the other unit in the assault", empty="No unit to assault",
               default=_first_enemy, outside="{name} has no combat numbers to fight a Close Assault with."),
    YesNo("attacker", "The unit is the attacker"),
    YesNo("first_round", "First round of the assault", True),
    YesNo("suppressed", "The unit is suppressed", lambda game, c: is_suppressed(game.unit(str(c["firer"])))),
    YesNo("overrun", "Overrun attack", tip="Close-support units can never make an overrun attack"),
))


class CloseAssaultDialog(PlannedActionDialog):
    """The declared form, and one part of its own: a result without effects is logged, and Apply says so."""
    first_opening = FirstOpening("armour_battles", 3, "Armour Battles close assault", "ab.close_assault", "stuh")

    def __init__(self, session: Session, unit_id: str, map_view: MapView | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(session, FORM, {"firer": unit_id}, map_view, parent)
        self.runner.apply_button.setToolTip("Into the battle log as one undo step")
        self.runner.resolved.connect(self._resolved)

    def _resolved(self, res: Resolution) -> None:
        self.runner.apply_button.setText("&Apply" if res.effects else "&Log result")
