"""Grenades at infantry (`coc.grenades_at_infantry`): a Team's grenades thrown at an enemy Team within reach.

Declared as data: the plan (rules/chain_of_command/grenades_at_infantry.py)
reads the table and refuses what the rules forbid; this names the choices a
player makes in the dialog, and the unit action that opens it.
"""

from __future__ import annotations

from battletracker.rules.chain_of_command.activation import FIRE
from battletracker.rules.chain_of_command.anti_tank_plans import throw_to_hit
from battletracker.rules.chain_of_command.fire import MAX_DICE
from battletracker.rules.chain_of_command.fire import QUALITIES
from battletracker.rules.chain_of_command.fire import cover_levels
from battletracker.rules.chain_of_command.fire_plans import small_arms_dice
from battletracker.rules.chain_of_command.grenades_at_infantry import GRENADES_AT_INFANTRY
from battletracker.rules.chain_of_command.grenades_at_infantry import can_throw_grenades
from battletracker.rules.chain_of_command.grenades_at_infantry import teams_in_throw
from battletracker.ui.extensions import Feature
from battletracker.ui.procedure_parts import ActionForm
from battletracker.ui.procedure_parts import Number
from battletracker.ui.procedure_parts import UnitChoice
from battletracker.ui.procedure_parts import WordChoice
from battletracker.ui.procedure_parts import planned_action

THROWS = (("roll", "Roll the throw (2D6)"), ("in", "The throw landed"),
          ("bullseye", "Landed with a Bullseye! (one 6)"), ("missed", "The throw missed"))

FORM = ActionForm(GRENADES_AT_INFANTRY, "Grenades - {unit}", activation=FIRE, size=(600, 680), choices=(
    UnitChoice("target", "&Target", lambda game, c: ((u.id, u.name) for u in teams_in_throw(game, str(c["firer"]))),
               "Click the Team the grenades are thrown at", empty="No enemy Team within throwing reach"),
    Number("firepower_dice", "&Dice", lambda game, c: small_arms_dice(game.unit(str(c["firer"]))), most=MAX_DICE,
           suffix=" Firepower Dice", tip="The Team's Firepower Dice; a Bullseye! adds its own"),
    WordChoice("throw", "T&hrow", lambda _game, _c: THROWS),
    Number("to_hit", "Throw &needs", lambda game, _c: throw_to_hit(game), least=2, most=12, prefix="2D6 total ",
           suffix="+", note="The documents do not give this score: the ruleset setting's value, a default to check "
                            "against your rulebook."),
    WordChoice("cover", "&Cover", lambda _game, _c: [("", "As the table reads it"),
                                                     *((c, c.replace("_", " ").capitalize()) for c in cover_levels())]),
    WordChoice("target_quality", "Target &quality", lambda _game, _c: [("", "The target's own"),
                                                                        *((q, q.capitalize()) for q in QUALITIES)]),
))

FEATURE = Feature("coc.grenades", unit_actions=(planned_action(
    key=GRENADES_AT_INFANTRY, title="Grenades at infantry...", form=FORM, applies=can_throw_grenades,
    rulesets=("chain_of_command",),
    tip="Throw the Team's grenades at an enemy Team close by, with the exact odds before the throw"),))
