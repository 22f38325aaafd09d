"""What the game's keys are called in a player's words: kinds, counters, conditions.

Model keys are snake_case names chosen by whichever procedure set them; the
log and the cards must read well for any of them, so unknown keys are turned
into words rather than shown raw.
"""

from __future__ import annotations

KIND_TITLES = {
    "team": "Team",
    "section": "Section",
    "leader": "Leader",
    "support_weapon": "Support weapon",
    "sniper": "Sniper",
    "gun": "Gun",
    "vehicle": "Vehicle",
    "fighter": "Fighter",
}

TITLES = {
    "out_of_ammo": "Out of ammo",
    "sniper_shots": "Sniper shots",
    "check_falling": "Check falling",
    "afv": "AFV",
    "apc": "APC",
}


def title(key: str) -> str:
    """A model key as words: "out_of_ammo" -> "Out of ammo"."""
    if key in TITLES:
        return TITLES[key]
    words = key.replace("_", " ").strip()
    return words[:1].upper() + words[1:] if words else key
