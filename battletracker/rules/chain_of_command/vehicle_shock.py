"""Shock on vehicles (Section 16.3 as the documents quote it).

Shared by every procedure that puts Shock on an AFV or APC: anti-tank fire,
grenades and flamethrowers, bombardments and SOS fire.
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.model.effects import Effect
from battletracker.model.effects import SetCondition
from battletracker.model.effects import add_shock

ABANDONED_AT = 4


def shock_added(base: int, immobilised: bool) -> int:
    """Shock actually added: an immobilised vehicle suffers any later Shock doubled."""
    return base * 2 if immobilised else base


def sixes_that_abandon(immobilised: bool) -> int:
    """The fewest results (6s) whose Shock alone abandons any vehicle: four, or two once Shock is doubled."""
    return -(-ABANDONED_AT // shock_added(1, immobilised))


ABANDONING_SHOCK = f"{ABANDONED_AT}+"
"""The value of `vehicle_shock` in an outcome key once the added Shock alone abandons the vehicle: a player
reads "4 or more Shock on the vehicle", and 4 and 40 end the same way, so the key does not tell them apart."""


def shock_key_value(base: int, immobilised: bool) -> str:
    """The added Shock as an outcome key names it: exact below `ABANDONED_AT`, `ABANDONING_SHOCK` from there."""
    added = shock_added(base, immobilised)
    return ABANDONING_SHOCK if added >= ABANDONED_AT else str(added)


def abandoned(total_shock: int) -> bool:
    """Four or more Shock and the crew abandon the vehicle."""
    return total_shock >= ABANDONED_AT


def firepower_after_shock(firepower_dice: int, shock: int) -> int:
    """An armoured vehicle firing MGs or H.E. loses one Firepower Die per Shock."""
    return max(0, firepower_dice - shock)


ABANDONED = "abandoned"


@dataclass(frozen=True)
class VehicleShock:
    """Shock from one result on a vehicle: as the table gives it, as it lands, and where it leaves the crew."""

    base: int
    added: int
    before: int
    total: int

    @property
    def doubled(self) -> bool:
        return self.added != self.base

    @property
    def abandoned(self) -> bool:
        return abandoned(self.total)

    @property
    def newly_abandoned(self) -> bool:
        return self.abandoned and not abandoned(self.before)


def take_shock(current: int, base: int, immobilised: bool) -> VehicleShock:
    """The Shock a result puts on a vehicle that already has `current`, doubled if it is immobilised."""
    added = shock_added(base, immobilised)
    return VehicleShock(base=base, added=added, before=current, total=current + added)


def shock_effects(unit_id: str, shock: VehicleShock) -> list[Effect]:
    """The Shock counter change and, at four or more, the "abandoned" condition.

    The condition goes with any Shock that leaves the vehicle at four or more
    (setting a condition already present changes nothing), so a card whose
    Shock was edited by hand still ends up marked abandoned.
    """
    if not shock.added:
        return []
    effects: list[Effect] = [add_shock(unit_id, shock.added)]
    if shock.abandoned:
        effects.append(SetCondition(unit_id, ABANDONED))
    return effects
