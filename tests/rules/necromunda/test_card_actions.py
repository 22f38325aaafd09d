"""A fighter card's actions: conditions, level, ledges and Reload, each refused in words when it changes nothing."""

from __future__ import annotations

import pytest

from battletracker.model.game import Game
from battletracker.model.game import Side
from battletracker.model.game import Unit
from battletracker.model.game import Weapon
from battletracker.model.game import WeaponProfile
from battletracker.rules.actions import Refusal
from battletracker.rules.actions import perform
from battletracker.rules.actions import plan
from battletracker.rules.base import RulesInputError
from battletracker.rules.necromunda.card_actions import CONDITION
from battletracker.rules.necromunda.card_actions import LEDGE
from battletracker.rules.necromunda.card_actions import LEVEL
from battletracker.rules.necromunda.card_actions import RELOAD


def game_with(state: str = "out_of_ammo") -> Game:
    gun = Weapon("Autogun", profiles=[WeaponProfile("Autogun", {"short_range": 8, "long_range": 24}, [], state)])
    game = Game(title="Underhive", ruleset="necromunda", sides=[Side("G", "#111111"), Side("E", "#222222")])
    game.units["a"] = Unit("a", "Kal", "fighter", 0, 10.0, 10.0, weapons=[gun])
    return game


def do(game: Game, name: str, choices: dict[str, object]) -> None:
    game.apply_all(perform(game, name, choices).effects)  # type: ignore[arg-type]


def test_condition_level_and_ledge_change_the_fighter_and_say_so() -> None:
    game = game_with()
    do(game, CONDITION, {"unit": "a", "condition": "engaged", "present": True})
    assert game.units["a"].has("engaged") and game.log[-1].text == "Kal is now Engaged"
    with pytest.raises(Refusal, match="already Engaged"):
        plan(CONDITION, game, {"unit": "a", "condition": "engaged", "present": True})
    with pytest.raises(Refusal, match="on the ground already"):
        plan(LEVEL, game, {"unit": "a", "delta": -1})
    do(game, LEVEL, {"unit": "a", "delta": 1})
    assert game.units["a"].level == 1 and game.log[-1].text == "Kal moves from level 0 to level 1"
    do(game, LEDGE, {"unit": "a", "ledge": "ledge_2", "inches": 0.44})
    assert game.units["a"].stats["ledge_2"] == 0.4 and game.log[-1].text == 'Kal is 0.4" from a ledge (ledge 2)'
    do(game, LEDGE, {"unit": "a", "ledge": "ledge_2"})
    assert "ledge_2" not in game.units["a"].stats
    with pytest.raises(Refusal, match="no distance to ledge 2"):
        plan(LEDGE, game, {"unit": "a", "ledge": "ledge_2"})


def test_reload_clears_out_of_ammo_and_a_loaded_profile_is_refused() -> None:
    game = game_with()
    do(game, RELOAD, {"unit": "a", "weapon": 0, "profile": 0})
    assert game.units["a"].weapons[0].profiles[0].state == "ok" and game.actions[-1].name == RELOAD
    assert [entry.text for entry in game.log] == ["Kal reloads: Autogun is no longer Out of Ammo"], \
        "one line, naming the fighter and the weapon; no profile or weapon numbers"
    with pytest.raises(RulesInputError, match="nothing to reload"):
        perform(game, RELOAD, {"unit": "a", "weapon": 0, "profile": 0})
    with pytest.raises(Refusal, match="no such profile"):
        plan(RELOAD, game, {"unit": "a", "weapon": 0, "profile": 3})
