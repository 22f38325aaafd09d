"""Everything bombardments, SOS Fire and buildings make due when a Phase or a Turn ends.

The app's End Phase and End Turn buttons apply these Effects (with their log
lines) together with the clock change as one undo step:

- End Phase: lingering effects count down, and clear when they reach zero
  (the Pinned they hold are lifted, the area and its smoke go); a unit left
  Pinned outside a moved bombardment's area is released once it has no Shock;
  the owner is reminded of a bombardment that was not activated this Phase.
- End Turn (a Turn ends at the end of a Phase, so everything above too): each
  bombardment that has begun loses a Phase of fire, and ends when none are
  left (its effects stay to the end of the following Phase); ranging goes on
  undisturbed; the smoke of buildings that collapsed earlier clears, and
  unstable buildings collapse (buildings.py).
- With `next_side`, reminders for that side's coming Phase are logged:
  compulsory activations, ranging shots, the choice after a deviation, and
  close combats in a smoke barrage.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field

from battletracker.model.bombardment import Bombardment
from battletracker.model.bombardment import BombardmentEvent
from battletracker.model.bombardment_effects import AppendBombardmentEvent
from battletracker.model.bombardment_effects import SetBombardmentPin
from battletracker.model.bombardment_effects import UpdateBombardment
from battletracker.model.effects import AppendLog
from battletracker.model.effects import Effect
from battletracker.model.effects import RemoveMarker
from battletracker.model.effects import SetCondition
from battletracker.model.game import Game
from battletracker.rules.base import counted
from battletracker.rules.chain_of_command.bombardment import PINNED
from battletracker.rules.chain_of_command.bombardment import observer_name
from battletracker.rules.chain_of_command.bombardment import units_in_area
from battletracker.rules.chain_of_command.bombardment_data import data
from battletracker.rules.chain_of_command.buildings import collapse_at_turn_end
from battletracker.rules.chain_of_command.smoke_barrage import smoke_close_combats
from battletracker.rules.log_lines import FIRST_RANGING


@dataclass
class _Plan:
    """One bombardment's changes at this Phase or Turn end, worked out before any Effect is made."""

    b: Bombardment
    state: str
    linger: int
    phases_left: int
    observer_id: str
    released: list[str] = field(default_factory=list)
    events: list[tuple[str, str]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    @property
    def pinned_after(self) -> set[str]:
        if self.state == "cleared":
            return set()
        return set(self.b.pinned) - set(self.released)


def end_phase_effects(game: Game, next_side: int | None = None) -> list[Effect]:
    """What is due at the end of this Phase (the Turn goes on)."""
    return _end(game, turn_end=False, next_side=next_side)


def end_turn_effects(game: Game, next_side: int | None = None) -> list[Effect]:
    """What is due when this Phase ends and the Turn ends with it."""
    return _end(game, turn_end=True, next_side=next_side)


def _end(game: Game, turn_end: bool, next_side: int | None) -> list[Effect]:
    plans = [_plan(game, b, turn_end) for b in game.bombardments.values()]
    effects: list[Effect] = []
    for plan in plans:
        effects.extend(_plan_effects(game, plan))
    held_before = {u for b in game.bombardments.values() if b.state != "cleared" for u in b.pinned}
    held_after = {u for plan in plans for u in plan.pinned_after}
    for unit_id in sorted(held_before - held_after):
        unit = game.units.get(unit_id)
        if unit is not None and unit.has(PINNED):
            effects.append(SetCondition(unit_id, PINNED, False))
            effects.append(_log(game, f"{unit.name} is no longer Pinned"))
    if turn_end:
        effects.extend(collapse_at_turn_end(game))
    effects.extend(_unactivated(game, plans))
    if next_side is not None:
        effects.extend(_reminders(game, plans, next_side))
    return effects


def _plan(game: Game, b: Bombardment, turn_end: bool) -> _Plan:
    plan = _Plan(b, b.state, b.linger_phases, b.phases_left, b.observer_id)
    name = observer_name(game, b)
    if b.state == "lingering":
        plan.linger -= 1
        if plan.linger == 0:
            plan.state = "cleared"
            plan.events.append(("cleared", "Its effects end and its smoke clears"))
            plan.lines.append(f"{name}: its effects end" + (" and its smoke clears" if b.kind != "sos" else ""))
    if b.state in ("ready", "firing", "lingering") and b.kind == "high_explosive" and plan.state != "cleared":
        _release_left_behind(game, plan, ended=b.state == "lingering")
    if turn_end and plan.state in ("ready", "firing"):
        plan.phases_left -= 1
        if plan.phases_left:
            plan.events.append(("turn_end", f"Turn end: one Phase of fire lost, {plan.phases_left} left"))
            plan.lines.append(f"{name}: the Turn end takes a Phase of fire away, {plan.phases_left} left")
        else:
            plan.state = "lingering"
            plan.linger = data().lingering.after_turn_end
            plan.observer_id = ""
            plan.events.append(("ended", "Turn end: no Phases of fire left; the Forward Observer is removed"))
            plan.lines.append(f"{name}: the Turn end takes its last Phase of fire; the Forward Observer is removed "
                              "and its effects stay until the end of the following Phase")
            _release_left_behind(game, plan, ended=True)
    return plan


def _release_left_behind(game: Game, plan: _Plan, ended: bool) -> None:
    """A unit the moving area has left stays Pinned until its Shock is rallied or the bombardment ends."""
    inside = set(units_in_area(game, plan.b))
    for unit_id in plan.b.pinned:
        unit = game.units.get(unit_id)
        if unit_id in plan.released:
            continue
        if unit is None or (unit_id not in inside and (ended or unit.shock == 0)):
            plan.released.append(unit_id)


def _plan_effects(game: Game, plan: _Plan) -> list[Effect]:
    b = plan.b
    effects: list[Effect] = []
    changed = tuple((k, v) for k, v in (("state", plan.state), ("linger_phases", plan.linger),
                                        ("phases_left", plan.phases_left), ("observer_id", plan.observer_id))
                    if getattr(b, k) != v)
    if changed:
        effects.append(UpdateBombardment(b.id, changed))
    for kind, text in plan.events:
        effects.append(AppendBombardmentEvent(b.id, BombardmentEvent(game.turn, game.phase, kind, text, b.x, b.y,
                                                                     b.x, b.y)))
    released = b.pinned if plan.state == "cleared" else plan.released
    effects.extend(SetBombardmentPin(b.id, unit_id, False) for unit_id in released)
    if b.observer_id and not plan.observer_id and b.observer_id in game.markers:
        effects.append(RemoveMarker(b.observer_id))
    effects.extend(_log(game, line) for line in plan.lines)
    return effects


def _unactivated(game: Game, plans: list[_Plan]) -> list[Effect]:
    """A firing bombardment of the side whose Phase this was that did not fire or lose contact in it."""
    out: list[Effect] = []
    for plan in plans:
        b = plan.b
        if b.state != "firing" or b.side != game.active_side:
            continue
        acted = any(e.turn == game.turn and e.phase == game.phase and e.kind in ("fire", "contact_lost")
                    for e in b.history)
        if not acted:
            out.append(_log(game, f"{observer_name(game, b)} was not activated this Phase: without a Command Dice 1 "
                                  "or a Chain of Command point it ends, contact lost"))
    return out


def _reminders(game: Game, plans: list[_Plan], side: int) -> list[Effect]:
    out: list[Effect] = []
    for plan in plans:
        b = plan.b
        if b.side != side:
            continue
        name = observer_name(game, b)
        if plan.state in ("ready", "firing"):
            out.append(_log(game, f"Next Phase: {name} must be activated with a Command Dice 1 or a Chain of "
                                  f"Command point, or contact is lost "
                                  f"({counted(plan.phases_left, 'Phases of fire')} left)"))
        elif plan.state == "ranging" and b.last_ranged is None:
            out.append(_log(game, f"Next Phase: {name}{FIRST_RANGING}"))
        elif plan.state == "ranging":
            plus = b.unobserved_attempts * data().ranging.per_unobserved_attempt
            out.append(_log(game, f"Next Phase: {name} ranges again" + (f" with +{plus}" if plus else "")))
        elif plan.state == "landed":
            out.append(_log(game, f"Next Phase: {name} fires for effect on the landing point, or re-aims"))
    for first, second in smoke_close_combats(game):
        out.append(_log(game, f"Smoke barrage: {game.units[first].name} and {game.units[second].name} are within "
                              f"{data().smoke_close_combat_range:g}\" and fight a Close Combat: no dice for enemy "
                              "movement, and a losing result counts one level worse"))
    return out


def _log(game: Game, text: str) -> AppendLog:
    return AppendLog.now(game, text, "bombardment")
