"""The changes a card makes, each as one undo step with a log line that reads well.

Builders only describe the change; the session applies it (and refuses it
with a GameError, for example Shock below zero or no rounds left). The log
lines carry the before and after values so the battle log reads on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from battletracker.model.effects import (
    ChangeCounter,
    ChangeFigures,
    ChangeSide,
    Effect,
    RemoveUnit,
    SetCondition,
    SetDamage,
    SpendAmmo,
)
from battletracker.model.game import OUT_OF_PLAY, GameError, Side, Unit
from battletracker.rules.resupply import resupply_refusal
from battletracker.ui.cards.names import KIND_TITLES, title


@dataclass(frozen=True)
class Edit:
    """One undo step: its name in the history, its effects and its log lines."""

    text: str
    effects: tuple[Effect, ...]
    log: tuple[str, ...]


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def change_counter(unit: Unit, counter: str, delta: int) -> Edit:
    """Shock, suppression and the like; the log shows "Shock on 1st Squad: 1 -> 2"."""
    now = unit.counters.get(counter, 0)
    name = title(counter)
    return Edit(
        f"{name} {_signed(delta)} on {unit.name}",
        (ChangeCounter(unit.id, counter, delta),),
        (f"{name} on {unit.name}: {now} -> {now + delta}",),
    )


def change_figures(unit: Unit, delta: int) -> Edit:
    after = unit.figures + delta
    return Edit(
        f"Figures {_signed(delta)} on {unit.name}",
        (ChangeFigures(unit.id, delta),),
        (f"Figures of {unit.name}: {unit.figures} -> {after} of {unit.figures_max}",),
    )


def out_of_play_follows(edit: Edit, unit: Unit, figures_after: int) -> Edit:
    """A Chain of Command unit taken to no figures goes out of play with them; one given a figure back returns."""
    if figures_after == 0 and unit.in_play:
        return Edit(edit.text, (*edit.effects, SetCondition(unit.id, OUT_OF_PLAY)),
                    (*edit.log, f"{unit.name} has no figures left: out of play. Its side takes a Force Morale Test"))
    if figures_after > 0 and not unit.in_play:
        return Edit(edit.text, (*edit.effects, SetCondition(unit.id, OUT_OF_PLAY, False)),
                    (*edit.log, f"{unit.name} is back in play"))
    return edit


def spend_ammo(unit: Unit, weapon_index: int, rounds: int = 1) -> Edit:
    weapon = unit.weapon(weapon_index)
    now = weapon.ammo if weapon.ammo is not None else 0
    return Edit(
        f"{weapon.name} ({unit.name}): spend {rounds} {weapon.ammo_label}",
        (SpendAmmo(unit.id, weapon_index, rounds),),
        (f"{weapon.name} ({unit.name}): {now} -> {now - rounds} {weapon.ammo_label}",),
    )


def refill_ammo(unit: Unit, weapon_index: int) -> Edit:
    """Back to the weapon's maximum; a weapon that is already full is refused by the model.

    Flamethrower fuel is never resupplied: asking is refused with the reason.
    """
    weapon = unit.weapon(weapon_index)
    refusal = resupply_refusal(weapon)
    if refusal is not None:
        raise GameError(refusal[0].upper() + refusal[1:])
    now = weapon.ammo if weapon.ammo is not None else 0
    full = weapon.ammo_max if weapon.ammo_max is not None else now
    return Edit(
        f"{weapon.name} ({unit.name}): refill",
        (SpendAmmo(unit.id, weapon_index, now - full),),
        (f"{weapon.name} ({unit.name}) refilled: {now} -> {full} {weapon.ammo_label}",),
    )


def set_condition(unit: Unit, condition: str, present: bool) -> Edit:
    words = title(condition).lower()
    line = f"{unit.name} is now {words}" if present else f"{unit.name} is no longer {words}"
    return Edit(
        f"{title(condition)} {'on' if present else 'off'}: {unit.name}",
        (SetCondition(unit.id, condition, present),),
        (line,),
    )


def set_damage(unit: Unit, damage: str, damage_title: str, present: bool) -> Edit:
    line = f"{unit.name}: {damage_title} recorded" if present else f"{unit.name}: {damage_title} repaired"
    return Edit(
        f"{damage_title} {'on' if present else 'off'}: {unit.name}",
        (SetDamage(unit.id, damage, present),),
        (line,),
    )


def remove_unit(unit: Unit, side_name: str) -> Edit:
    kind = KIND_TITLES.get(unit.kind, title(unit.kind))
    return Edit(
        f"Remove {unit.name}",
        (RemoveUnit(unit.id),),
        (f"Removed {unit.name} ({kind}, {side_name}) from the table",),
    )


SIDE_FIELDS = {"force_morale": "Force Morale", "coc_points": "Chain of Command points"}


def change_side_value(index: int, side: Side, field: str, delta: int) -> Edit:
    """Force Morale or Chain of Command points up or down; never below zero (the model refuses)."""
    name = SIDE_FIELDS[field]
    now: int = getattr(side, field)
    changed = replace(side)
    setattr(changed, field, now + delta)
    return Edit(
        f"{name} {_signed(delta)} for {side.name}",
        (ChangeSide(index, changed),),
        (f"{name} of {side.name}: {now} -> {now + delta}",),
    )
