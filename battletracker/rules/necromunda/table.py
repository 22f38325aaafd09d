"""What the Necromunda rules read from the table: fighters, profiles, distances.

Pure functions over the `Game`, with the same geometry the rules and the map
use, so a dialog, the map overlays and the tests agree on who is where.
Fighters taken Out of Action have left the fight: they are never targets,
never at risk of a stray shot and never the closest enemy.

The map has no terrain heights, so ledges are what the player measures at
the table: up to two distances, in inches from the fighter's base to the
nearest ledges, kept in the fighter's stats (`LEDGE_STATS`).
"""

from __future__ import annotations

from dataclasses import dataclass

from battletracker.core.geometry import distance
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.model.game import Weapon
from battletracker.rules.necromunda.conditions import OUT_OF_ACTION
from battletracker.rules.necromunda.conditions import ledge_to_fall_from
from battletracker.rules.necromunda.profiles import Traits
from battletracker.rules.necromunda.profiles import parse_traits
from battletracker.rules.necromunda.profiles import weapon_jammed
from battletracker.rules.necromunda.targeting import FighterOnTable

RULESET = "necromunda"
LEDGE_STATS = ("ledge_1", "ledge_2")


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


def profile_ranges(unit: Unit, weapon: int, profile: int) -> tuple[float, float] | None:
    """Short and long range of a profile, None when it has none (a Template)."""
    stats = unit.weapons[weapon].profiles[profile].stats
    short, long = stats.get("short_range"), stats.get("long_range")
    if isinstance(short, int | float) and isinstance(long, int | float) and not isinstance(short, bool):
        return float(short), float(long)
    return None


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


def ledge_title(stat: str) -> str:
    """ "ledge 1" for "ledge_1"."""
    return stat.replace("_", " ")


def ledge_distances(unit: Unit) -> list[tuple[str, float]]:
    """The ledges the player measured for the fighter, as (stat, inches); a missing or negative one is none."""
    found = []
    for stat in LEDGE_STATS:
        value = unit.stats.get(stat)
        if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
            found.append((stat, float(value)))
    return found


def ledges_to_fall_from(unit: Unit) -> tuple[str, ...]:
    """The ledge the fighter would fall from: the closer within 1/2", both when equally close."""
    return ledge_to_fall_from(ledge_distances(unit))


def near_ledge(unit: Unit) -> bool:
    """Within 1/2" of a ledge: a ranged Hit that suppresses or seriously injures it means a falling check."""
    return bool(ledges_to_fall_from(unit))


def falling_text(unit: Unit) -> str:
    """The log's line for a fighter flagged to check for falling, naming the ledge or the choice."""
    ledges = ledges_to_fall_from(unit)
    distances = dict(ledge_distances(unit))
    named = [f'{ledge_title(k)} ({distances[k]:g}")' for k in ledges]
    if len(named) > 1:
        return (f"{unit.name} must check for falling: {' and '.join(named)} are equally close, "
                f"the controlling player chooses which")
    if named:
        return f"{unit.name} must check for falling from {named[0]}"
    return f"{unit.name} must check for falling"
