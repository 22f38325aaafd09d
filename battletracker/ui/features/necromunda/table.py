"""What the Necromunda dialogs read from the table: fighters, profiles, distances.

Pure functions over the `Game`, with the same geometry the rules and the map
use, so a dialog, the map overlays and the tests agree on who is where.
Fighters taken Out of Action have left the fight: they are never targets,
never at risk of a stray shot and never the closest enemy.
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.core.geometry import distance
from battletracker.model.game import Game, Unit, Weapon
from battletracker.rules.necromunda.conditions import OUT_OF_ACTION
from battletracker.rules.necromunda.profiles import Traits, parse_traits, weapon_jammed
from battletracker.rules.necromunda.targeting import FighterOnTable

RULESET = "necromunda"


@dataclass(frozen=True)
class ProfileRef:
    """One weapon profile of a fighter, by index, with the text a list shows."""

    weapon: int
    profile: int
    title: str
    template: bool


def is_fighter(game: Game, unit: Unit) -> bool:
    """A Necromunda fighter: a fighter, or any unit carrying weapon profiles, in a Necromunda game."""
    return game.ruleset == RULESET and (unit.kind == "fighter" or any(w.profiles for w in unit.weapons))


def in_the_fight(unit: Unit) -> bool:
    return not unit.has(OUT_OF_ACTION)


def profile_refs(unit: Unit) -> list[ProfileRef]:
    """Every profile of every weapon, titled "Weapon (profile)" when the weapon has several."""
    refs: list[ProfileRef] = []
    for wi, weapon in enumerate(unit.weapons):
        for pi, profile in enumerate(weapon.profiles):
            name = weapon.name if len(weapon.profiles) == 1 else f"{weapon.name} ({profile.name})"
            refs.append(ProfileRef(wi, pi, name, traits_of(weapon, pi).template))
    return refs


def traits_of(weapon: Weapon, profile: int) -> Traits:
    """The profile's traits; a malformed trait (typed in the unit dialog) reads as no traits."""
    try:
        return parse_traits(weapon.profiles[profile].traits)
    except ValueError:
        return parse_traits(())


def state_of(weapon: Weapon, profile: int) -> str:
    """The profile's state as the rules read it: a jam on any profile jams the weapon."""
    return "jammed" if weapon_jammed(weapon) else weapon.profiles[profile].state


def enemies_by_distance(game: Game, shooter: Unit) -> list[tuple[Unit, float]]:
    """Enemy fighters still in the fight, closest first."""
    found = [(u, distance((shooter.x, shooter.y), (u.x, u.y))) for u in game.units.values()
             if u.side != shooter.side and in_the_fight(u)]
    found.sort(key=lambda pair: pair[1])
    return found


def fighters_on_table(game: Game, hidden: frozenset[str] = frozenset(),
                      in_range: frozenset[str] | None = None) -> list[FighterOnTable]:
    """Every fighter still in the fight as the targeting rules see it.

    `hidden` are the models the player says are out of Line of Sight; with
    `in_range` given, only those count as within the weapon's range.
    """
    return [FighterOnTable.from_unit(u, in_los=u.id not in hidden,
                                     in_range=in_range is None or u.id in in_range)
            for u in game.units.values() if in_the_fight(u)]
