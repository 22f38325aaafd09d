"""Close combat in a Smoke Barrage: who must fight, and on what terms.

Units in a Smoke Barrage fight a Close Combat if within 2" of an enemy; no
dice are added for enemy movement, and any losing result counts one level
worse (bombardment.toml). The close-combat dialog asks `close_combat_terms`;
the End Phase reminders list `smoke_close_combats`.
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.core import geometry
from battletracker.model.bombardment import Bombardment
from battletracker.model.game import Game
from battletracker.rules.chain_of_command.bombardment import covering
from battletracker.rules.chain_of_command.bombardment import units_in_area
from battletracker.rules.chain_of_command.bombardment_data import data


@dataclass(frozen=True)
class SmokeCloseCombat:
    """How a Smoke Barrage changes a close combat, and the barrage that does it."""

    barrage: Bombardment
    enemy_movement_dice: int
    losing_result_levels_worse: int


def close_combat_terms(game: Game, unit_id: str, enemy_id: str) -> SmokeCloseCombat | None:
    """The Smoke Barrage terms for a close combat between these two, or None when neither is in one."""
    for who in (unit_id, enemy_id):
        barrage = covering(game, who, ("smoke",))
        if barrage is not None:
            d = data()
            return SmokeCloseCombat(barrage, d.smoke_enemy_movement_dice, d.smoke_losing_levels_worse)
    return None


def smoke_close_combats(game: Game) -> list[tuple[str, str]]:
    """Pairs of enemy units within 2" of each other where at least one is in an active smoke barrage."""
    smoky: set[str] = set()
    for b in game.bombardments.values():
        if b.kind == "smoke" and b.active:
            smoky.update(units_in_area(game, b))
    if not smoky:
        return []
    units = list(game.units.values())
    reach = data().smoke_close_combat_range + geometry.EPSILON
    pairs: list[tuple[str, str]] = []
    for i, a in enumerate(units):
        for other in units[i + 1:]:
            if (a.id in smoky or other.id in smoky) and a.side != other.side and \
                    geometry.distance((a.x, a.y), (other.x, other.y)) <= reach:
                pairs.append((a.id, other.id))
    return pairs
