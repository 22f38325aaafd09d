"""Vehicle damage that lasts for the vehicle's next active Phase (Section 16.2).

Halt and Engage, Commander Stunned and MG Suppressed hold only for the next
Phase of the side that owns the vehicle. The anti-tank procedures record them
as vehicle damage when they happen; End Phase and End Turn do the rest:

- When a Phase ends and the next one belongs to the owner (`next_side`), each
  such result still recorded is reminded in the log and marked as in force
  with the condition `<result>_this_phase` (the card shows it as a badge).
- When a Phase ends, every result marked in force is over: it is cleared with
  its mark. A Halt and Engage still recorded then was not carried out, so
  the AFV takes +1 Shock, doubled if it is immobilised, and is abandoned at
  four (`vehicle_shock.shock_effects`). The player clears Halt and Engage from
  the card's damage menu once the AFV has fired or gone on Overwatch.

The mark, rather than the side whose Phase is ending, says which Phase is the
"next" one: a result inflicted during the owner's own Phase (an interrupt, an
ambush) is not cleared at the end of that Phase but lasts through the next.
"""

from __future__ import annotations

from battletracker.model.effects import AppendLog
from battletracker.model.effects import Effect
from battletracker.model.effects import SetCondition
from battletracker.model.effects import SetDamage
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.rules.chain_of_command.damage import damage_result
from battletracker.rules.chain_of_command.vehicle_shock import shock_effects
from battletracker.rules.chain_of_command.vehicle_shock import take_shock

NEXT_PHASE_RESULTS = ("halt_and_engage", "commander_stunned", "mg_suppressed")
HALT_AND_ENGAGE = "halt_and_engage"
IMMOBILISED = "immobilised"
NOT_DONE_SHOCK = 1


def in_force(result: str) -> str:
    """The condition marking a next-phase result as in force during the owner's current Phase."""
    return f"{result}_this_phase"


def vehicle_phase_effects(game: Game, next_side: int | None) -> list[Effect]:
    """What next-phase damage makes due at the end of this Phase, ending marks before starting new ones."""
    effects: list[Effect] = []
    for unit in game.units.values():
        if unit.vehicle is not None:
            effects.extend(_phase_over(game, unit))
    if next_side is not None:
        for unit in game.units.values():
            if unit.vehicle is not None and unit.side == next_side:
                effects.extend(_phase_starts(game, unit))
    return effects


def _results(unit: Unit) -> list[str]:
    assert unit.vehicle is not None
    return [r for r in NEXT_PHASE_RESULTS if r in unit.vehicle.damage]


def _phase_over(game: Game, unit: Unit) -> list[Effect]:
    assert unit.vehicle is not None
    effects: list[Effect] = []
    for result in NEXT_PHASE_RESULTS:
        if not unit.has(in_force(result)):
            continue
        effects.append(SetCondition(unit.id, in_force(result), False))
        if result not in unit.vehicle.damage:
            continue
        effects.append(SetDamage(unit.id, result, False))
        title = damage_result(unit.vehicle.category, result).title
        if result == HALT_AND_ENGAGE:
            shock = take_shock(unit.shock, NOT_DONE_SHOCK, IMMOBILISED in unit.vehicle.damage)
            effects.extend(shock_effects(unit.id, shock))
            doubled = " (doubled: it is immobilised)" if shock.doubled else ""
            abandoned = "; the crew abandon it" if shock.newly_abandoned else ""
            effects.append(_log(game, f"{unit.name} did not {title.lower()}: +{shock.added} Shock{doubled}, "
                                      f"{shock.total} in all{abandoned}"))
        else:
            effects.append(_log(game, f"{unit.name}: {title} is over"))
    return effects


def _phase_starts(game: Game, unit: Unit) -> list[Effect]:
    assert unit.vehicle is not None
    effects: list[Effect] = []
    for result in _results(unit):
        if unit.has(in_force(result)):
            continue
        meaning = damage_result(unit.vehicle.category, result)
        effects.append(SetCondition(unit.id, in_force(result)))
        if result == HALT_AND_ENGAGE:
            text = (f"Next Phase: {unit.name} must Halt and Engage as a Compulsory Activation before other Command "
                    "Dice (a 3 activates its Leader, a 1 its Gunner): no movement, fire on the unit that caused it "
                    "or go on Overwatch; clear it on the card once done, or it takes +1 Shock at the end of the Phase")
        else:
            text = f"Next Phase: {unit.name} - {meaning.title}: " + "; ".join(meaning.consequences)
        effects.append(_log(game, text))
    return effects


def _log(game: Game, text: str) -> AppendLog:
    return AppendLog.now(game, text, "vehicle")
