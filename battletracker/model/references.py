"""What in a game refers to a unit, so a unit leaves the table with nothing left pointing at it.

A unit's id is named elsewhere in the game: in a bombardment's (or SOS
Fire's) list of units it holds Pinned, in a building's occupants, in the
`embarked_in` stat of the passengers a vehicle carries, and in a marker's
data entry ending in `_id`. Removing the unit clears each of these in the same
undo step, with Effects whose inverses put them back exactly; the unit's own
stats (its own `embarked_in`) leave and come back with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from battletracker.model.bombardment_effects import SetBombardmentPin
from battletracker.model.bombardment_effects import SetOccupant
from battletracker.model.effects import Effect
from battletracker.model.effects import RemoveUnit
from battletracker.model.effects import SetMarkerData
from battletracker.model.effects import SetUnitStat
from battletracker.model.game import Game

EMBARKED_IN = "embarked_in"
"""The stat naming the vehicle a passenger is carried in."""

ID_SUFFIX = "_id"
"""A marker data entry whose key ends so holds an id; when it is a unit's id, it refers to that unit."""


def references_to(game: Game, unit_id: str) -> list[Effect]:
    """Effects that clear every reference to the unit, other than the unit's own record."""
    effects: list[Effect] = []
    for b in game.bombardments.values():
        if unit_id in b.pinned:
            effects.append(SetBombardmentPin(b.id, unit_id, False))
    for building in game.buildings.values():
        if unit_id in building.occupants:
            effects.append(SetOccupant(building.id, unit_id, False))
    for unit in game.units.values():
        if unit.id != unit_id and unit.stats.get(EMBARKED_IN) == unit_id:
            effects.append(SetUnitStat(unit.id, EMBARKED_IN, None))
    for marker in game.markers.values():
        for key, value in marker.data.items():
            if key.endswith(ID_SUFFIX) and value == unit_id:
                effects.append(SetMarkerData(marker.id, key, None))
    return effects


def remove_unit(game: Game, unit_id: str) -> list[Effect]:
    """Take a unit off the table and everything that names it, as one undo step."""
    return [*references_to(game, unit_id), RemoveUnit(unit_id)]


def with_references_cleared(game: Game, effects: Sequence[Effect]) -> list[Effect]:
    """`effects` with each RemoveUnit preceded by what clears the references to its unit.

    A procedure that takes a unit off the table (a sniper lost, say) does not
    see the game, so the session completes its effects here. References are
    read from the game as it is before any of the effects.
    """
    out: list[Effect] = []
    for effect in effects:
        if isinstance(effect, RemoveUnit):
            out.extend(references_to(game, effect.unit_id))
        out.append(effect)
    return out
