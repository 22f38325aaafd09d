"""The Force Morale Tests a step calls for, read from what it did to the units, whichever action it was.

Registered as a consequence of every Chain of Command step
(rules/consequences.py): the step's effects are applied to the game, what
they did to each unit they touch is compared with the unit before, and a
Force Morale Test goes on the unit's side's agenda for each of:

- a unit losing its last figure (fire, H.E., a bombardment, SOS fire, a
  flamethrower, grenades, a sniper or a player's "figures -1"): a Team lost,
  a Section wiped out, a Support Team killed (support weapons, guns and
  snipers), a Junior or Senior Leader killed;
- a Leader on foot newly marked `wounded`;
- a vehicle's newly recorded damage whose result names a test in
  at_fire.toml (Commander Wounded, AFV Destroyed, AFV Explodes with its +1,
  APC Destroyed or Explodes), and a vehicle newly abandoned where at_fire.toml
  names a test for it (an AFV). A vehicle already knocked out (destroyed,
  exploded or abandoned) calls for none again; an AFV that explodes calls for
  its one test, not another for its Leader.

A unit taken off the table (a sniper contacted) calls for none: only its
loss does. A step that already queues its own test (fire that kills a
spotted sniper, an anti-tank result that queues the tests it names) keeps
its own: none is queued again for the same unit, or for the same side and
event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from battletracker.model.effects import Effect
from battletracker.model.game import AgendaItem
from battletracker.model.game import Game
from battletracker.model.game import Unit
from battletracker.model.sequence_effects import FORCE_MORALE_TEST
from battletracker.model.sequence_effects import AddAgendaItem
from battletracker.model.sequence_effects import QueueForceMoraleTest
from battletracker.model.sequence_effects import agenda_id
from battletracker.rules.chain_of_command.activation import rank
from battletracker.rules.chain_of_command.damage import damage_result
from battletracker.rules.chain_of_command.damage import damage_tables
from battletracker.rules.chain_of_command.force_morale import RULESET
from battletracker.rules.chain_of_command.force_morale import event_named
from battletracker.rules.chain_of_command.force_morale import events
from battletracker.rules.chain_of_command.vehicle_shock import ABANDONED
from battletracker.rules.consequences import compare
from battletracker.rules.consequences import on_consequences
from battletracker.rules.sequence import side_name

WOUNDED = "wounded"
LOST_EVENTS = {"team": "team_lost", "section": "section_wiped_out", "support_weapon": "support_killed",
               "gun": "support_killed", "sniper": "sniper_killed"}
"""The event of a unit losing its last figure, by its kind (Leaders: junior_/senior_leader_killed)."""


@dataclass(frozen=True)
class Seen:
    """What the tests read of a unit: its figures, whether it is in play, its conditions and vehicle damage."""

    figures: int
    in_play: bool
    conditions: frozenset[str]
    damage: tuple[str, ...]

    @staticmethod
    def of(unit: Unit) -> Seen:
        return Seen(unit.figures, unit.in_play, frozenset(unit.conditions),
                    tuple(unit.vehicle.damage) if unit.vehicle is not None else ())


@dataclass(frozen=True)
class After:
    """The touched units after the step, the agenda's ids and the clock (copies, read from the game)."""

    units: dict[str, Seen]
    agenda: tuple[str, ...]
    turn: int
    phase: int


def _knocked_out(unit: Unit, seen: Seen) -> bool:
    if unit.vehicle is None:
        return False
    tables = damage_tables().results
    wrecked = any(r.wreck for r in (tables.get((unit.vehicle.category, d)) for d in seen.damage) if r is not None)
    return wrecked or ABANDONED in seen.conditions


def unit_events(unit: Unit, before: Seen, after: Seen) -> list[str]:
    """The events (force_morale.toml keys) of what a step did to `unit`, in the order the rules read them."""
    if unit.vehicle is not None:
        if _knocked_out(unit, before):
            return []
        category = unit.vehicle.category
        named = [damage_result(category, d).force_morale_test for d in after.damage if d not in before.damage]
        if ABANDONED in after.conditions and ABANDONED not in before.conditions:
            named.append(damage_tables().abandoned_force_morale_test[category])
        found = [event_named(words) for words in named if words]
        if any(e is not None and e.modifier for e in found):  # it exploded: one test, none for its Leader
            found = [e for e in found if e is not None and e.modifier]
        return [e.key for e in found if e is not None]
    if not before.in_play or before.figures <= 0:
        return []
    grade = rank(unit) if unit.kind == "leader" else "junior"
    if after.figures <= 0:
        event = f"{grade}_leader_killed" if unit.kind == "leader" else LOST_EVENTS.get(unit.kind, "team_lost")
        return [event]
    if unit.kind == "leader" and WOUNDED in after.conditions and WOUNDED not in before.conditions:
        return ["senior_leader_wounded" if grade == "senior" else "leader_wounded"]
    return []


def _touched(game: Game, effects: Sequence[Effect]) -> list[str]:
    """The ids of the units the effects may change, in the roster's order."""
    ids: set[str] = set()
    for effect in effects:
        writes = effect.writes
        if writes.everything:
            return list(game.units)
        ids.update(writes.units)
    return [u for u in game.units if u in ids]


def _queued(game: Game, effects: Sequence[Effect]) -> tuple[set[str], set[tuple[int, str]]]:
    """The units and the (side, event) pairs the step's own effects already queue a test for."""
    units: set[str] = set()
    pairs: set[tuple[int, str]] = set()
    for effect in effects:
        if isinstance(effect, QueueForceMoraleTest):
            units.add(effect.unit_id)
            if effect.unit_id in game.units:
                pairs.add((game.units[effect.unit_id].side, effect.event))
        elif isinstance(effect, AddAgendaItem) and effect.item.kind == FORCE_MORALE_TEST:
            pairs.add((effect.side, effect.item.event))
    return units, pairs


def morale_tests(game: Game, effects: Sequence[Effect]) -> list[Effect]:
    """The Force Morale Tests the step of `effects` calls for that it does not queue itself."""
    ids = _touched(game, effects)
    if not ids:
        return []
    before = {u: Seen.of(game.units[u]) for u in ids}

    def look(g: Game) -> After:
        return After({u: Seen.of(g.units[u]) for u in ids if u in g.units},
                     tuple(i.id for side in g.sides for i in side.agenda), g.turn, g.phase)

    after = compare(game, effects, look)
    if after is None:
        return []
    units, pairs = _queued(game, effects)
    taken = list(after.agenda)
    out: list[Effect] = []
    for u in ids:
        if u in units or u not in after.units:
            continue
        unit = game.units[u]
        for key in unit_events(unit, before[u], after.units[u]):
            if (unit.side, key) in pairs:
                continue
            item_id = agenda_id(game, taken)
            taken.append(item_id)
            text = f"{side_name(game, unit.side)}: Force Morale Test, {unit.name}: {events()[key].title}"
            out.append(AddAgendaItem(unit.side, AgendaItem(item_id, FORCE_MORALE_TEST, key, text, after.turn,
                                                           after.phase)))
    return out


on_consequences(RULESET, morale_tests)
