"""Shock on a vehicle from the 6s of infantry weapons: flamethrowers and grenades into vehicles.

Each 6 (or each net penetrating hit, for a grenade against an APC from
outside) is one Shock, doubled once the vehicle is immobilised; four Shock
and the crew abandon it (vehicle_shock.py). The app passes what the card
shows (`vehicle_current_shock`, `vehicle_immobilised`); given `vehicle_id`
the Resolution carries the Shock and, at four or more, the "abandoned"
condition. Its outcome key names the added Shock up to `vehicle_shock=4+`.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import replace

from battletracker.model.effects import Effect
from battletracker.rules.base import InputReader
from battletracker.rules.chain_of_command.fire import read_id
from battletracker.rules.chain_of_command.vehicle_shock import shock_added
from battletracker.rules.chain_of_command.vehicle_shock import shock_effects
from battletracker.rules.chain_of_command.vehicle_shock import shock_key_value
from battletracker.rules.chain_of_command.vehicle_shock import sixes_that_abandon
from battletracker.rules.chain_of_command.vehicle_shock import take_shock


@dataclass(frozen=True)
class VehicleTarget:
    """The vehicle that takes Shock, as its card shows it."""

    vehicle_id: str | None = None
    current_shock: int = 0
    immobilised: bool = False

    def shock_added(self, base: int) -> int:
        return shock_added(base, self.immobilised)

    @property
    def sixes_cap(self) -> int:
        """Counts of 6s an outcome key tells apart: every count from here on abandons the vehicle alike."""
        return sixes_that_abandon(self.immobilised)

    def key(self, base: int) -> str:
        """` vehicle_shock=V` for an outcome key, "4+" once the added Shock alone abandons the vehicle.

        Values and effects keep the exact Shock; the key (and so the odds)
        stops where more Shock changes nothing, so 480 Storm of Steel dice
        do not split the odds into a key per count of 6s.
        """
        return f" vehicle_shock={shock_key_value(base, self.immobilised)}"

    def for_odds(self) -> VehicleTarget:
        """Only immobilisation changes the outcome keys; the rest would only split the odds cache."""
        return replace(self, vehicle_id=None, current_shock=0)

    def values(self, base: int) -> dict[str, object]:
        shock = take_shock(self.current_shock, base, self.immobilised)
        return {"vehicle_shock": shock.added, "vehicle_total_shock": shock.total,
                "vehicle_abandoned": shock.abandoned}

    def describe(self, base: int) -> list[str]:
        shock = take_shock(self.current_shock, base, self.immobilised)
        lines = [f"{shock.added} Shock on the vehicle" + (" (doubled: immobilised)" if shock.doubled else "")]
        if shock.newly_abandoned:
            lines.append(f"The vehicle has {shock.total} Shock and is abandoned: take a Force Morale Test")
        return lines

    def effects(self, base: int) -> list[Effect]:
        if self.vehicle_id is None:
            return []
        return shock_effects(self.vehicle_id, take_shock(self.current_shock, base, self.immobilised))


def read_vehicle_target(r: InputReader) -> VehicleTarget:
    return VehicleTarget(
        vehicle_id=read_id(r, "vehicle_id"),
        current_shock=r.int("vehicle_current_shock", 0, minimum=0),
        immobilised=r.bool("vehicle_immobilised"),
    )
