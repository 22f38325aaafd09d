"""What the cards call things: kinds, counters, conditions, damage, weapons.

Model keys are snake_case names chosen by whichever procedure set them; a
card must read well for any of them, so unknown keys are turned into words
rather than shown raw. The vehicle damage a ruleset records comes from its
data (`at_fire.toml`, the results with `record = true`), so the card offers
exactly the names the anti-tank procedure writes.
"""

from __future__ import annotations

from battletracker.model.game import Unit
from battletracker.model.game import Weapon
from battletracker.rules.words import KIND_TITLES
from battletracker.rules.words import title

# Conditions a player sets by hand often enough to deserve a menu entry.
COMMON_CONDITIONS = ("pinned", "broken", "suppressed", "out_of_ammo")
VEHICLE_CONDITIONS = ("abandoned",)

# Short names of the weapon stats worth seeing on a card.
STAT_ABBREVIATIONS = {"firepower_dice": "FP", "ap": "AP", "he": "HE"}


def kind_title(unit: Unit) -> str:
    """The card's type line: "Section", or "Vehicle · AFV · open-topped"."""
    parts = [KIND_TITLES.get(unit.kind, title(unit.kind))]
    if unit.vehicle is not None:
        parts.append(title(unit.vehicle.category))
        if unit.vehicle.open_topped:
            parts.append("open-topped")
    return " · ".join(parts)


def _number(value: float) -> str:
    return f"{value:g}"


def weapon_line(weapon: Weapon) -> str:
    """One compact line: name, arc half-angle, range band edges and key stats."""
    parts = [weapon.name]
    if weapon.arc is not None:
        parts.append(f"±{_number(weapon.arc)}°")
    if weapon.ranges:
        parts.append("/".join(_number(r) for r in weapon.ranges) + '"')
    stats = [f"{abbr} {weapon.stats[key]}" for key, abbr in STAT_ABBREVIATIONS.items() if key in weapon.stats]
    if stats:
        parts.append(" ".join(stats))
    troubled = [f"{p.name}: {title(p.state).lower()}" for p in weapon.profiles if p.state != "ok"]
    if troubled:
        parts.append("(" + ", ".join(troubled) + ")")
    return " · ".join(parts)


def ammo_text(weapon: Weapon) -> str:
    """"2/3 rounds", or "2 fuel" when there is no maximum."""
    if weapon.ammo is None:
        return ""
    if weapon.ammo_max is None:
        return f"{weapon.ammo} {weapon.ammo_label}"
    return f"{weapon.ammo}/{weapon.ammo_max} {weapon.ammo_label}"


def armour_text(unit: Unit) -> str:
    if unit.vehicle is None:
        return ""
    faces = " · ".join(f"{face} {dice}" for face, dice in unit.vehicle.armour.items())
    return f"Armour Dice: {faces}"
