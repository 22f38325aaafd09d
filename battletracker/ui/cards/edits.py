"""The card changes not yet named actions (vehicle damage, a side's values), each as one undo step.

Builders only describe the change; the session applies it (and refuses it
with a GameError, for example Force Morale below zero). The log lines carry
the before and after values so the battle log reads on its own. Counters,
figures, ammo, conditions and removing a unit are actions (rules/table_actions.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from battletracker.model.effects import ChangeSide, Effect, SetDamage
from battletracker.model.game import Side, Unit


@dataclass(frozen=True)
class Edit:
    """One undo step: its name in the history, its effects and its log lines."""

    text: str
    effects: tuple[Effect, ...]
    log: tuple[str, ...]


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def set_damage(unit: Unit, damage: str, damage_title: str, present: bool) -> Edit:
    line = f"{unit.name}: {damage_title} recorded" if present else f"{unit.name}: {damage_title} repaired"
    return Edit(
        f"{damage_title} {'on' if present else 'off'}: {unit.name}",
        (SetDamage(unit.id, damage, present),),
        (line,),
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
