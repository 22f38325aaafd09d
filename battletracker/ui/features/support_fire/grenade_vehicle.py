"""A grenade tossed into an enemy vehicle (`coc.grenade_into_vehicle`) from a Team beside it.

Offered to a Team on foot with an enemy vehicle within throwing reach. The
table is read by `plan_grenade_into_vehicle` (how the card lets the grenade
work, the Armour Dice of the face the Team sees, the passengers, the throw's
score from the ruleset setting); the dialog, declared here as data, asks what
the map cannot know (the Team's dice, where the throw landed).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

from battletracker.model.game import Game
from battletracker.rules.chain_of_command import shot_actions
from battletracker.rules.chain_of_command.activation import FIRE
from battletracker.rules.chain_of_command.anti_tank_plans import THROWS
from battletracker.rules.chain_of_command.anti_tank_plans import can_throw_into_vehicle
from battletracker.rules.chain_of_command.anti_tank_plans import face_seen
from battletracker.rules.chain_of_command.anti_tank_plans import grenade_modes
from battletracker.rules.chain_of_command.anti_tank_plans import throw_to_hit
from battletracker.rules.chain_of_command.anti_tank_plans import vehicles_in_throw
from battletracker.rules.chain_of_command.fire import MAX_DICE
from battletracker.rules.chain_of_command.fire_plans import small_arms_dice
from battletracker.rules.choices import Choices
from battletracker.rules.targets import centre_to_centre
from battletracker.ui.procedure_parts import ActionForm
from battletracker.ui.procedure_parts import Number
from battletracker.ui.procedure_parts import PlannedActionDialog
from battletracker.ui.procedure_parts import UnitChoice
from battletracker.ui.procedure_parts import WordChoice
from battletracker.ui.procedure_parts import planned_action
from battletracker.ui.procedure_runner import NotOpened
from battletracker.ui.session import Session

if TYPE_CHECKING:
    from battletracker.ui.map.view import MapView

THROW_TITLES = {
    "roll": "Roll the throw (2D6)",
    "in": "The throw landed inside",
    "bullseye": "Landed inside with a Bullseye! (one 6)",
    "missed": "The throw missed",
}
MODE_TITLES = {"open_topped": "Into the open-topped vehicle or Transport", "apc_outside": "At the APC from outside"}


def outcome_label(outcome: str) -> str:
    """A short bar label: the vehicle's Shock, with the passengers' kills and Shock when they take any."""
    parts = dict(p.split("=", 1) for p in outcome.split() if "=" in p)
    if "vehicle_shock" not in parts:
        return outcome
    vehicle = f"{parts['vehicle_shock']} Shock"
    kills, shock = parts.get("kills", "0"), parts.get("shock", "0")
    return vehicle if kills == shock == "0" else f"{kills}k {shock}s, {vehicle}"


def _vehicles(game: Game, choices: Choices) -> Iterable[tuple[str, str]]:
    team = game.unit(str(choices["firer"]))
    return ((v.id, f'{v.name}  -  {centre_to_centre(team, v):.1f}"') for v in vehicles_in_throw(game, team))


def _modes(game: Game, choices: Choices) -> Iterable[tuple[str, str]]:
    vehicle = game.units.get(str(choices["target"]))
    return [(mode, MODE_TITLES[mode]) for mode in grenade_modes(vehicle)] if vehicle and vehicle.vehicle else []


def _face(game: Game, choices: Choices) -> tuple[str, int]:
    vehicle = game.units.get(str(choices["target"]))
    if vehicle is None or vehicle.vehicle is None:
        return "", 0
    return face_seen(game.unit(str(choices["firer"])), vehicle)


def _apc(choices: Choices) -> bool:
    return choices.get("mode") == "apc_outside"


FORM = ActionForm(shot_actions.GRENADE_INTO_VEHICLE, "Grenade into vehicle - {unit}", activation=FIRE, size=(620, 720),
                  group=outcome_label, choices=(
    UnitChoice("target", "&Vehicle", _vehicles, "Click the vehicle the grenade is thrown at",
               empty="No enemy vehicle within throwing reach",
               outside="{name} is not an enemy vehicle within throwing reach of the Team."),
    WordChoice("mode", "&Grenade", _modes, follows=("target",)),
    Number("firepower_dice", "&Dice", lambda game, c: small_arms_dice(game.unit(str(c["firer"]))), most=MAX_DICE,
           suffix=" Firepower Dice", tip="The Team's Firepower Dice; the confined space and any Bullseye! add theirs"),
    WordChoice("throw", "&Throw", lambda _game, _c: ((key, THROW_TITLES[key]) for key in THROWS),
               shown=lambda c: not _apc(c)),
    Number("to_hit", "Throw &needs", lambda game, _c: throw_to_hit(game), least=2, most=12, prefix="2D6 total ",
           suffix="+", shown=lambda c: not _apc(c),
           note="The documents do not give this score: the ruleset setting's value, a default to check against your "
                "rulebook."),
    Number("armour_dice", "&Armour", lambda game, c: _face(game, c)[1], most=MAX_DICE, suffix=" Armour Dice",
           tip=lambda game, c: f"The {_face(game, c)[0]} armour, the face the Team is beside", follows=("target",),
           shown=_apc),
))


class GrenadeIntoVehicleDialog(PlannedActionDialog):
    """Throw a grenade into a vehicle beside the Team: odds first, then one undo step."""
    first_opening = NotOpened("needs a team beside an enemy vehicle; the Fire dialog's runner")

    def __init__(self, session: Session, unit_id: str, map_view: MapView | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(session, FORM, {"firer": unit_id}, map_view, parent)


GRENADE_INTO_VEHICLE = planned_action(
    key="coc.grenade_into_vehicle", title="Grenade into vehicle...", form=FORM, applies=can_throw_into_vehicle,
    rulesets=("chain_of_command",), dialog=GrenadeIntoVehicleDialog,
    tip="Toss a grenade into an open-topped vehicle or Transport beside the Team, or at an APC from outside")
